"""The quick variant (R-QUICK-1): every character starts with 1 damage and one
seagull is on the table. It acts only when a game is dealt (docs/scenarios.md: a scenario's setup
is taken as it stands)."""

from lifeboat_rules import effects, hookimpl

LIFEBOAT_KIND = "variant"


@hookimpl
def lifeboat_deal(game):
    for who in game.state.seats:
        effects.damage(game, who, 1, "quick")   # R-QUICK-1
    effects.seagull(game, 1)
