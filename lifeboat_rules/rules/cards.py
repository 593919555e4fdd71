"""What a provision card does, read from the content (section C of docs/rules.md), for the rule
modules: which cards a character holds that quench, fight, chum, preserve, open a parasol."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..records import Zone, front, hand

if TYPE_CHECKING:
    from ..content import ProvisionInfo
    from ..engine import Game


def info(game: "Game", card: str) -> "ProvisionInfo":
    return game.rules.content.provisions[game.state.table.kinds[card]]


def kind(game: "Game", card: str) -> str:
    return game.state.table.kinds[card]


def holding(game: "Game", who: str, attribute: str) -> list:
    """The cards ``who`` holds, hand first then face up in front (R-SPEC-1), whose kind has
    ``attribute`` set (``quenches``, ``chum``...: ``Rules.kinds_with``, worked out once)."""
    rules = game.rules
    # the cached set read inline: this runs in every listing (hot path)
    wanted = rules.kind_sets.get(attribute) or rules.kinds_with(attribute)
    kinds = game.state.table.kinds
    character = game.state.characters[who]
    found = [c for c in character.hand if kinds[c] in wanted]
    if character.front:
        found += [c for c in character.front if kinds[c] in wanted]
    return found


def in_hand_with(game: "Game", who: str, attribute: str) -> list:
    """The cards in ``who``'s hand whose kind has ``attribute`` set."""
    rules = game.rules
    # the cached set read inline: this runs in every listing (hot path)
    wanted = rules.kind_sets.get(attribute) or rules.kinds_with(attribute)
    kinds = game.state.table.kinds
    return [c for c in game.state.characters[who].hand if kinds[c] in wanted]


def has_in_hand(game: "Game", who: str, attribute: str) -> bool:
    """Whether ``who`` holds in hand a card whose kind has ``attribute`` set (``in_hand_with``
    without building the list: windows ask it of every candidate)."""
    rules = game.rules
    wanted = rules.kind_sets.get(attribute) or rules.kinds_with(attribute)
    kinds = game.state.table.kinds
    for card in game.state.characters[who].hand:
        if kinds[card] in wanted:
            return True
    return False


def hand_then_front(game: "Game", who: str, values=None) -> tuple:
    """Where a card an action names by kind is taken from: hand first, then in front."""
    character = game.state.characters[who]
    return (character.hand, character.front)


def own_hand(game: "Game", who: str, values=None) -> tuple:
    return (game.state.characters[who].hand,)


def weapons(game: "Game", cards) -> int:
    """R-FIGHT-3: the bonus of the weapons among ``cards``."""
    provisions = game.rules.content.provisions
    kinds = game.state.table.kinds
    return sum(provisions[kinds[c]].weapon for c in cards)


def has_preserver(game: "Game", who: str) -> bool:
    """The life preserver is face up in front of ``who`` (R-OVER-3, R-OVER-5)."""
    provisions = game.rules.content.provisions
    kinds = game.state.table.kinds
    return any(provisions[kinds[c]].preserver for c in game.state.characters[who].front)


def zone_of(game: "Game", who: str, card: str) -> Zone:
    """The zone (hand or front of ``who``) a card of ``who`` is in."""
    return hand(who) if card in game.state.characters[who].hand else front(who)
