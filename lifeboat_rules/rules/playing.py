"""Playing cards face up at any time (RULES.md: R-PLAY-1, R-PLAY-2, R-PRESERVER)."""

from __future__ import annotations

from .. import effects
from ..actions import ActionType, Field, card_forms, find_card
from ..hookspecs import hookimpl


def _play_options(game, character, stage) -> list:
    hand = game.state.characters[character].hand
    return [{"by": character, "type": "play", "card": form} for form in card_forms(game, hand)]


def _play_resolve(game, action) -> None:
    who = action["by"]
    card = find_card(game, action["card"], game.state.characters[who].hand)
    effects.move(game, card, f"hand:{who}", f"front:{who}")
    effects.emit(game, {"type": "play", "character": who, "card": card,
                        "kind": game.state.kinds[card]})


def _play_explain(game, action):
    who = action["by"]
    if find_card(game, action["card"], game.state.characters[who].hand) is None:
        return "R-PLAY-1", f"{who} holds no {action['card']!r} in hand"
    return "R-WIN-2", (f"{who} has passed in this window: a weapon played by a fighter is a "
                       "window action, taken only while pending")


def _preservers(game, character) -> list:
    provisions = game.rules.content.provisions
    kinds = game.state.kinds
    return [c for c in game.state.characters[character].hand if provisions[kinds[c]].preserver]


def _preserve_options(game, character, stage) -> list:
    if not _preservers(game, character):
        return []
    chars = game.state.characters
    return [{"by": character, "type": "preserve", "target": t}
            for t in game.state.seats if chars[t].awake]


def _preserve_resolve(game, action) -> None:
    who, target = action["by"], action["target"]
    card = _preservers(game, who)[0]
    effects.move(game, card, f"hand:{who}", f"front:{target}")
    effects.emit(game, {"type": "preserve", "character": who, "target": target, "card": card})


def _preserve_explain(game, action):
    who, target = action["by"], action.get("target")
    state = game.state
    if not _preservers(game, who):
        return "R-PRESERVER", f"{who} holds no life preserver in hand"
    if target not in state.seats:
        return "R-PRESERVER", f"{target!r} is not a character on board"
    if not state.characters[target].awake:
        return "R-PRESERVER", f"the life preserver goes only to an awake character ({target} is {state.characters[target].status})"
    return "R-WIN-2", f"{who} has passed in this window: a life preserver for a fallen character is a window action"


TYPES = [
    ActionType("play", "R-PLAY-1", _play_options, _play_resolve, fields=(Field("card"),),
               stages=("free",), explain=_play_explain, card_fields=("card",)),
    ActionType("preserve", "R-PRESERVER", _preserve_options, _preserve_resolve,
               fields=(Field("target"),), stages=("free",), explain=_preserve_explain),
]


@hookimpl
def lifeboat_action_types():
    return TYPES
