"""Playing cards face up at any time (R-PLAY-1, R-PLAY-2, R-PRESERVER)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import effects
from ..actions import FREE, ActionType, Domain, Param
from ..hookspecs import hookimpl
from ..records import Refusal, front, hand
from .cards import has_in_hand, in_hand_with, own_hand

if TYPE_CHECKING:
    from ..engine import Game
    from ..stages import Stage


def _play_check(game: "Game", stage: "Stage", by: str, card: str):
    if card not in game.state.characters[by].hand:
        return Refusal("R-PLAY-1", f"{by} holds no {card!r} in hand", "card", card)
    return None


def _play_moves(game: "Game", stage: "Stage", by: str):
    return [(card,) for card in game.state.characters[by].hand]


def _play_resolve(game: "Game", stage: "Stage", by: str, card: str) -> None:
    effects.move(game, card, hand(by), front(by))
    effects.emit(game, {"type": "play", "character": by, "card": card,
                        "kind": game.state.table.kinds[card]})


def preservers(game: "Game", who: str) -> list:
    """The life preservers in ``who``'s hand (R-PRESERVER)."""
    return in_hand_with(game, who, "preserver")


def _preserve_check(game: "Game", stage: "Stage", by: str, target: str):
    state = game.state
    if not preservers(game, by):
        return Refusal("R-PRESERVER", f"{by} holds no life preserver in hand", "by", by)
    if target not in state.seats:
        return Refusal("R-PRESERVER", f"{target} is not on board", "target", target)
    if not state.characters[target].awake:
        return Refusal("R-PRESERVER", f"the life preserver goes only to an awake character "
                                      f"({target} is {state.characters[target].status})", "target", target)
    return None


def _preserve_moves(game: "Game", stage: "Stage", by: str):
    if not has_in_hand(game, by, "preserver"):   # asked in every listing: no list built
        return []
    chars = game.state.characters
    return [(target,) for target in game.state.seats if chars[target].awake]


def _preserve_resolve(game: "Game", stage: "Stage", by: str, target: str) -> None:
    card = preservers(game, by)[0]
    effects.move(game, card, hand(by), front(target))
    effects.emit(game, {"type": "preserve", "character": by, "target": target, "card": card,
                        "kind": game.state.table.kinds[card]})


TYPES = [
    ActionType("play", "R-PLAY-1", _play_check, _play_moves, _play_resolve,
               params=(Param("card", Domain.CARD, source=own_hand, actor_source=True),),
               kinds=(FREE,)),
    ActionType("preserve", "R-PRESERVER", _preserve_check, _preserve_moves, _preserve_resolve,
               params=(Param("target", Domain.CHARACTER),), kinds=(FREE,)),
]


@hookimpl
def lifeboat_action_types():
    return TYPES
