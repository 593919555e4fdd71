"""Special actions of the base provisions (RULES.md: R-SPEC-1, R-MED-1, R-FLARE, R-PARASOL).

Each is an effect kind; a provision names it in ``special.effect`` with its parameters."""

from __future__ import annotations

from .. import effects
from ..actions import Effect
from ..hookspecs import hookimpl
from ..model import DEAD


def spend(game, user: str, card: str) -> None:
    """A used provision is discarded, unless the user's ability keeps that kind: then it is
    placed face up in front of the user (Dr. Harter's medical kit, R-MED-1)."""
    state = game.state
    kind = state.kinds[card]
    character = state.characters[user]
    where = f"hand:{user}" if card in character.hand else f"front:{user}"
    if kind in game.rules.content.characters[user].keeps_used:
        if where != f"front:{user}":
            effects.move(game, card, where, f"front:{user}")
        effects.emit(game, {"type": "kept", "character": user, "card": card, "kind": kind})
    else:
        effects.move(game, card, where, "discard")


def _special(game, card) -> dict:
    return game.rules.content.provisions[game.state.kinds[card]].special


# R-MED-1 -------------------------------------------------------------------

def _heal_targets(game, user, card) -> list:
    chars = game.state.characters
    return [c for c in game.state.seats if chars[c].damage >= 1 and chars[c].status != DEAD]


def _heal_resolve(game, user, card, target) -> None:
    effects.heal(game, target, _special(game, card).get("amount", 1), "medical_kit")
    spend(game, user, card)


# R-FLARE --------------------------------------------------------------------

def _flare_targets(game, user, card) -> list:
    return [None]


def _flare_resolve(game, user, card, target) -> None:
    state = game.state
    count = min(_special(game, card).get("draws", 3), len(state.navigation))
    drawn = state.navigation[:count]
    for nav in drawn:
        effects.move_navigation(game, nav, "navigation", "drawn")
    effects.emit(game, {"type": "flare", "character": user, "cards": drawn[:]})
    # the cards go under the deck and the gun is discarded before the icons are applied, so
    # that a fourth seagull ends the game with nothing left to do after it (R-FLARE, R-END-1)
    for nav in drawn:
        effects.move_navigation(game, nav, "drawn", "navigation")
    spend(game, user, card)
    for nav in drawn:  # only the seagull icons, in the order drawn, crossed ones too
        if effects.seagull(game, state.navcards[nav].seagull):
            break      # the fourth seagull has ended the game at once (R-GULL-1)


# R-PARASOL ------------------------------------------------------------------

def _parasol_targets(game, user, card) -> list:
    character = game.state.characters[user]
    if card in character.front and character.parasol_active:
        return []  # already open: using it again would change nothing
    return [None]


def _parasol_resolve(game, user, card, target) -> None:
    character = game.state.characters[user]
    if card in character.hand:
        effects.move(game, card, f"hand:{user}", f"front:{user}")
    effects.set_parasol(game, user, True)


EFFECTS = {
    "heal": Effect("heal", "R-MED-1", _heal_targets, _heal_resolve),
    "flare": Effect("flare", "R-FLARE", _flare_targets, _flare_resolve, target_field=False),
    "parasol": Effect("parasol", "R-PARASOL", _parasol_targets, _parasol_resolve,
                      target_field=False),
}


@hookimpl
def lifeboat_effects():
    return EFFECTS
