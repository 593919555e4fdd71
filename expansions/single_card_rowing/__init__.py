"""Single-card rowing (R-ROW-SC), a variant from the base rules: rowing draws one
card (+1 per face-up oar), and in navigation the top card of the deck first goes onto the
rowing pile before R-NAV-2 goes on."""

from lifeboat_rules import hookimpl
from lifeboat_rules.rules.navigation import draw_to_pile

LIFEBOAT_KIND = "variant"


@hookimpl
def lifeboat_content(content):
    content["setup"]["rowing_draws"] = 1


@hookimpl
def lifeboat_phase_start(game, phase):
    if phase == "navigation":
        draw_to_pile(game, 1)
