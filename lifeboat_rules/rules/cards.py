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


def may_hold(game: "Game", who: str, wanted: frozenset, unusable=()) -> bool:
    """R-WIN-2: whether, as far as every player can tell, ``who`` may hold in hand a card of a
    kind in ``wanted``: its hand is not empty (hand sizes are public) and some such card is
    not publicly where it cannot be in a hand (face up in front of anyone, discarded, gone
    face up with a character that left the game, or among ``unusable``: cards everyone knows
    cannot serve). A card in the supply deck, set aside unseen or in any hand may be anywhere
    unseen. Asks nothing of any hand's contents."""
    state = game.state
    if not state.characters[who].hand:
        return False
    kinds = state.table.kinds
    placed = [c for c in state.discard if kinds[c] in wanted]
    placed += [c for c in state.removed_face_up if kinds[c] in wanted]
    for character in state.characters.values():
        if character.front:
            placed += [c for c in character.front if kinds[c] in wanted]
    if unusable:
        placed = set(placed)
        placed.update(c for c in unusable if kinds[c] in wanted)
    return state.table.count_of(wanted) > len(placed)


def may_hold_with(game: "Game", who: str, attribute: str) -> bool:
    """``may_hold`` for the kinds whose ``attribute`` is set (``Rules.kinds_with``)."""
    rules = game.rules
    return may_hold(game, who, rules.kind_sets.get(attribute) or rules.kinds_with(attribute))


def has_in_front(game: "Game", who: str, attribute: str) -> bool:
    """Whether a card whose kind has ``attribute`` set lies face up in front of ``who``
    (public: a card face up that can be played from there makes its holder pending, R-WIN-2)."""
    rules = game.rules
    wanted = rules.kind_sets.get(attribute) or rules.kinds_with(attribute)
    kinds = game.state.table.kinds
    return any(kinds[card] in wanted for card in game.state.characters[who].front)


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
