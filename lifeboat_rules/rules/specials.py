"""Special actions of the base provisions (R-SPEC-1, R-MED-1, R-FLARE, R-PARASOL): each is an
effect kind; a provision names it in ``special.effect`` with its parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import effects
from ..actions import Effect
from ..hookspecs import hookimpl
from ..records import DISCARD, Deck, Marker, Pile, front, hand
from .cards import info, zone_of

if TYPE_CHECKING:
    from ..engine import Game


def spend(game: "Game", user: str, card: str) -> None:
    """A used provision is discarded, unless the user's ability keeps that kind: then it goes
    face up in front of the user (Dr. Harter's medical kit, R-MED-1)."""
    kind = game.state.table.kinds[card]
    source = zone_of(game, user, card)
    if kind in game.rules.content.characters[user].keeps_used:
        if source.pile is Pile.HAND:
            effects.move(game, card, source, front(user))
        effects.emit(game, {"type": "kept", "character": user, "card": card, "kind": kind})
    else:
        effects.move(game, card, source, DISCARD)


# R-MED-1 -------------------------------------------------------------------

def _heal_targets(game: "Game", user: str, card: str) -> list:
    chars = game.state.characters
    return [c for c in game.state.seats if chars[c].damage >= 1 and not chars[c].dead]


def _heal_resolve(game: "Game", user: str, card: str, target: str) -> None:
    effects.heal(game, target, info(game, card).param("amount", 1), "medical_kit")
    spend(game, user, card)


# R-FLARE --------------------------------------------------------------------

def _no_target(game: "Game", user: str, card: str) -> list:
    return [None]


def _flare_resolve(game: "Game", user: str, card: str, target) -> None:
    state = game.state
    drawn = state.navigation[:info(game, card).param("draws", 3)]
    for nav in drawn:   # shown to everyone: only their seagulls count
        effects.move_navigation(game, nav, Deck.NAVIGATION, Deck.DRAWN, seen_by=None)
    effects.emit(game, {"type": "flare", "character": user, "cards": drawn[:]})
    # the cards go under the deck and the gun is discarded before the icons are applied, so
    # that a fourth seagull ends the game with nothing left to do after it (R-FLARE, R-END-1)
    for nav in drawn:
        effects.move_navigation(game, nav, Deck.DRAWN, Deck.NAVIGATION, seen_by=None)
    spend(game, user, card)
    for nav in drawn:   # only the seagull icons, in the order drawn, crossed ones too
        if effects.seagull(game, state.table.navcards[nav].seagull):
            break       # the fourth seagull has ended the game at once (R-GULL-1)


# R-PARASOL ------------------------------------------------------------------

def _parasol_targets(game: "Game", user: str, card: str) -> list:
    character = game.state.characters[user]
    if card in character.front and "parasol" in character.markers:
        return []   # already open: using it again would change nothing
    return [None]


def _parasol_resolve(game: "Game", user: str, card: str, target) -> None:
    character = game.state.characters[user]
    if card in character.hand:
        effects.move(game, card, hand(user), front(user))
    effects.mark(game, user, "parasol")


EFFECTS = {
    "heal": Effect("heal", "R-MED-1", _heal_targets, _heal_resolve),
    "flare": Effect("flare", "R-FLARE", _no_target, _flare_resolve),
    "parasol": Effect("parasol", "R-PARASOL", _parasol_targets, _parasol_resolve),
}


@hookimpl
def lifeboat_effects():
    return EFFECTS


@hookimpl
def lifeboat_markers():
    # an open parasol: cleared when no parasol is face up in front of its holder
    return [Marker("parasol", round=False, rule="R-PARASOL")]
