"""The Liquid Courage expansion (docs/rules.md section X: R-LC-1..3, R-WONG-1, R-WONG-2,
R-LC-SCORE; R-SETUP-1).

Content (``content.yaml``): Madame Wong (size 3, survival 9, seated between the First Mate and
Frenchy), three Liquid Courage provisions (no treasure: worth no points, R-LC-SCORE) and the
navigation cards nav-11..nav-13; nav-11's overboard list is ``{marked: drank}``, everyone
holding the marker a drink puts on the drinker (R-LC-3). This module seats one more player than
the content allows (R-SETUP-1: 4-7, 4-8 with Cannibalism too, whatever the order).

Rules:

* ``drink`` (R-LC-1, R-WONG-2) is a free action, like ``play``: an awake character that has
  not drunk this round (marker ``drank``) drinks a Liquid Courage it holds, in hand or face up,
  that has not been drunk this round (card marker ``drunk``); the card goes (or stays) face up
  in front of it. Without a card it is Madame Wong's shared drink, once another character has
  drunk this round. In a fight it is a window action of the fighters (``windows`` /
  ``window_action`` of its ``ActionType``), so a fighter who passed may drink again only after
  someone's window action (R-WIN-2). Both markers are cleared at the end of the round.
* R-LC-2 through two wrappers: ``lifeboat_strength`` adds 3 for a character holding ``drank``
  (its own bonus, kept if the card is lost), ``lifeboat_thirst`` one thirst more. The thirst
  step counts thirsts when it begins, as the overboard step takes its list, so a drink after
  that adds nothing to them.
* R-WONG-1 through ``lifeboat_water_given``: water given by another to another cancels one of
  Madame Wong's thirsts too, if she has one left and is not dead.
"""

from __future__ import annotations

import os

from lifeboat_rules import effects, hookimpl
from lifeboat_rules.actions import FREE, ActionType, Domain, Param
from lifeboat_rules.content import merge_file
from lifeboat_rules.records import Kind, Marker, Refusal, front, hand
from lifeboat_rules.rules.cards import hand_then_front, may_hold

LIFEBOAT_KIND = "expansion"

CONTENT = os.path.join(os.path.dirname(__file__), "content.yaml")

WONG = "madame_wong"
LIQUID_COURAGE = "liquid_courage"   # the provision kind that is drunk
LIQUID_COURAGE_KINDS = frozenset([LIQUID_COURAGE])
DRANK = "drank"                      # on a character that drank this round
DRUNK = "drunk"                      # on a card drunk this round
STRENGTH = 3                         # R-LC-2: in every fight for the rest of the round
THIRST = 1                           # R-LC-2: in this round's thirst step


@hookimpl
def lifeboat_content(content):
    merge_file(content, CONTENT)
    players = content.get("setup", {}).get("players")
    if players:   # R-SETUP-1: Madame Wong's seat is one more player (with Cannibalism: 8)
        players["max"] += 1


@hookimpl
def lifeboat_markers():
    return [Marker(DRANK, rule="R-LC-1"), Marker(DRUNK, on_cards=True, rule="R-LC-1")]


# --------------------------------------------------------------------------- drink (R-LC-1)

def drinks(game, who: str) -> list:
    """The Liquid Courage cards ``who`` holds, hand first, then face up, not drunk this round."""
    state = game.state
    character = state.characters[who]
    kinds = state.table.kinds
    drunk = state.card_markers.get(DRUNK, ())
    return [c for c in character.hand + character.front
            if kinds[c] == LIQUID_COURAGE and c not in drunk]


def someone_drank(game) -> bool:
    """Another character than Madame Wong drank this round (R-WONG-2). Every drink but hers
    marks its card, and the card keeps the mark wherever it goes until the round ends (also
    when its drinker has been lost at sea since); she may share only while she has not drunk,
    so a marked card is another's drink."""
    return bool(game.state.card_markers.get(DRUNK))


def _drink_check(game, stage, by: str, card):
    state = game.state
    character = state.characters[by]
    if DRANK in character.markers:
        return Refusal("R-LC-1", f"{by} has drunk this round already", "by", by)
    if card is None:
        if by != WONG:
            return Refusal("R-WONG-2", "only Madame Wong drinks without a card, sharing another's "
                                       "drink; name the Liquid Courage to drink", "card", None)
        if not someone_drank(game):
            return Refusal("R-WONG-2", "Madame Wong shares a drink only once another character "
                                       "has drunk this round", "card", None)
        return None
    if card not in character.hand and card not in character.front:
        return Refusal("R-LC-1", f"{by} holds no {card!r} in hand or face up", "card", card)
    if state.table.kinds[card] != LIQUID_COURAGE:
        return Refusal("R-LC-1", f"{state.table.kinds[card]} is not Liquid Courage", "card", card)
    if card in state.card_markers.get(DRUNK, ()):
        return Refusal("R-LC-1", f"this Liquid Courage ({card}) has been drunk this round already", "card", card)
    return None


def _drink_moves(game, stage, by: str):
    if DRANK in game.state.characters[by].markers:
        return []
    found = [(card,) for card in drinks(game, by)]
    if by == WONG and someone_drank(game):
        found.append((None,))   # R-WONG-2: her shared drink
    return found


def _drink_resolve(game, stage, by: str, card) -> None:
    if card is None:
        effects.emit(game, {"type": "drink", "character": by, "shared": True})
    else:
        if card in game.state.characters[by].hand:   # it goes face up in front of the drinker
            effects.move(game, card, hand(by), front(by))
        effects.emit(game, {"type": "drink", "character": by, "shared": False, "card": card,
                            "kind": game.state.table.kinds[card]})
        effects.mark_card(game, card, DRUNK)
    effects.mark(game, by, DRANK)


def _fighter(game, window, by: str, values: tuple) -> bool:
    """In a fight, a participant's drink is a window action (R-LC-1, R-WONG-2, R-WIN-1)."""
    return window.in_fight(by)


def _fighter_may(game, window, by: str) -> bool:
    """R-WIN-2: whether, as far as every player can tell, a participant may drink: it has not
    drunk this round, and a Liquid Courage not drunk this round lies before it or may be in
    its hand (the cards drunk this round are marked for all to see), or it is Madame Wong
    and another drank (R-WONG-2)."""
    if not window.in_fight(by):
        return False
    state = game.state
    if DRANK in state.characters[by].markers:
        return False
    if by == WONG and someone_drank(game):
        return True
    drunk = state.card_markers.get(DRUNK, ())
    kinds = state.table.kinds
    if any(kinds[c] == LIQUID_COURAGE and c not in drunk for c in state.characters[by].front):
        return True
    return may_hold(game, by, LIQUID_COURAGE_KINDS, unusable=drunk)


DRINK = ActionType("drink", "R-LC-1", _drink_check, _drink_moves, _drink_resolve,
                   params=(Param("card", Domain.CARD, optional=True, source=hand_then_front,
                                 actor_source=True),),
                   kinds=(FREE,), windows=(Kind.FIGHT,), window_action=_fighter,
                   window_may=_fighter_may)


@hookimpl
def lifeboat_action_types():
    return [DRINK]


# --------------------------------------------------------------------------- R-LC-2

@hookimpl(wrapper=True)
def lifeboat_strength(game, character):
    strength = yield
    if DRANK in game.state.characters[character].markers:
        strength += STRENGTH
    return strength


@hookimpl(wrapper=True)
def lifeboat_thirst(game, character, card):
    count = yield
    if DRANK in game.state.characters[character].markers:
        count += THIRST   # R-THIRST-1 counts at most 3, so at most 4 now
    return count


# --------------------------------------------------------------------------- R-WONG-1

@hookimpl
def lifeboat_water_given(game, giver, target, cancelled, window):
    if giver == WONG or target == WONG or cancelled < 1:
        return
    state = game.state
    wong = state.characters.get(WONG)
    if wong is None or WONG not in state.seats or not wong.alive:
        return
    if window.thirst.get(WONG, 0) > 0:
        window.quench(game, giver, WONG, 1, "shared_water")
