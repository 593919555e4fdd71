"""The navigation phase (R-NAV-1..4, R-GULL-1) and the end of a round adrift (R-END-2)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, ClassVar

from .. import effects
from ..actions import ActionType, Domain, Param
from ..declare import CHARACTER, name, state, word
from ..hookspecs import hookimpl
from ..records import Deck, End, Kind, Refusal, Word
from ..stages import Stage
from . import overboard, thirst

if TYPE_CHECKING:
    from ..engine import Game


def navigator(game: "Game") -> str | None:
    """R-NAV-1: the awake character nearest the stern."""
    chars = game.state.characters
    for who in reversed(game.state.seats):
        if chars[who].awake:
            return who
    return None


def navigation_draws(game: "Game", who: str | None) -> int:
    """R-NAV-2: one more card per compass face up in front of the navigator."""
    if who is None:
        return 0
    provisions = game.rules.content.provisions
    kinds = game.state.table.kinds
    return sum(provisions[kinds[c]].navigation_draws for c in game.state.characters[who].front)


def draw_to_pile(game: "Game", count: int = 1) -> None:
    """Put up to ``count`` cards from the top of the deck onto the rowing pile, face down."""
    for card in game.state.navigation[:count]:
        effects.move_navigation(game, card, Deck.NAVIGATION, Deck.ROWING_PILE)


class Step(Word):
    """The steps of the navigation phase, in order (R-NAV-2, R-NAV-3, R-NAV-4)."""
    CHOOSE = "choose"
    RESOLVE = "resolve"
    OVERBOARD = "overboard"
    THIRST = "thirst"
    END = "end"


# looked up once (slow in 3.11); named, so that a new step cannot shift them
_CHOOSE, _RESOLVE, _OVERBOARD, _THIRST, _END = (Step.CHOOSE, Step.RESOLVE, Step.OVERBOARD,
                                                Step.THIRST, Step.END)


@state
class NavigationPhase(Stage):
    """Choose the card (R-NAV-2), resolve it in order seagull, overboard, thirst (R-NAV-3),
    end the round (R-NAV-4)."""
    NAME: ClassVar[str] = "navigation"
    PHASE: ClassVar[bool] = True
    step: Step = word(Step, Step.CHOOSE)

    def advance(self, game: "Game") -> None:
        state = game.state
        step = self.step
        if step is _CHOOSE:
            self.step = _RESOLVE
            choose_card(game)
        elif step is _RESOLVE:
            card = state.current
            if card is None:          # no card could be had: nothing is resolved
                self.step = _END
                return
            effects.emit(game, {"type": "navigation", "card": card,
                                "data": state.table.navcards[card].data()})
            self.step = _OVERBOARD
            effects.seagull(game, state.table.navcards[card].seagull)   # R-GULL-1
        elif step is _OVERBOARD:
            self.step = _THIRST
            overboard.start_overboard(game, state.table.navcards[state.current])
        elif step is _THIRST:
            self.step = _END
            thirst.start_thirst(game, state.table.navcards[state.current])
        else:
            game.pop(self)
            end_round(game)

    def public(self, game: "Game"):
        return {"kind": "navigation", "step": self.step.value}


def choose_card(game: "Game") -> None:
    """R-NAV-2: the rowing pile (or the top card) and the compass; the navigator chooses."""
    state = game.state
    pilot = navigator(game)
    if not state.rowing_pile:
        draw_to_pile(game, 1)
    extra = navigation_draws(game, pilot)
    if extra:
        draw_to_pile(game, extra)   # ruling: always; it can only widen the choice
    pile = state.rowing_pile
    if not pile:
        return
    if len(pile) == 1 or pilot is None:
        use_card(game, pile[0])
    else:
        effects.emit(game, {"type": "navigator", "character": pilot, "cards": len(pile)})
        game.push(Navigate(navigator=pilot))


def use_card(game: "Game", card: str, chooser: str | None = None) -> None:
    """The chosen card is used; the rest of the pile goes under the deck in pile order (seen
    by the navigator who looked at it)."""
    state = game.state
    effects.move_navigation(game, card, Deck.ROWING_PILE, Deck.CURRENT)
    for other in state.rowing_pile[:]:
        effects.move_navigation(game, other, Deck.ROWING_PILE, Deck.NAVIGATION,
                                seen_by=(chooser,) if chooser else ())


def end_round(game: "Game") -> None:
    """R-NAV-4: the used card goes under the deck; the round's markers are cleared."""
    state = game.state
    if state.current is not None:
        effects.move_navigation(game, state.current, Deck.CURRENT, Deck.NAVIGATION, seen_by=None)
    clear = game.rules.round_markers
    for who, character in state.characters.items():
        for marker in character.markers[:]:
            if marker in clear:
                effects.mark(game, who, marker, False)
    for marker in sorted(state.card_markers):
        if marker in clear:
            for card in state.card_markers[marker][:]:
                effects.mark_card(game, card, marker, False)


def position_key(game: "Game") -> str:
    """A fingerprint of the position for R-END-2: seats, statuses, damage, cards, markers,
    seagulls and the navigation deck order."""
    state = game.state
    parts = [state.seats, state.seagulls, state.supply, state.discard, state.removed,
             state.navigation, state.rowing_pile, sorted(state.card_markers.items()),
             [(c.id, c.damage, c.lost, c.hand, c.front, sorted(c.markers))
              for c in state.characters.values()]]
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def round_begins(game: "Game") -> None:
    """R-END-2: while nobody is awake the rounds run on by themselves; a round that begins in a
    position already seen at the start of a round since someone was last awake can only
    repeat, so the game ends there, scored as it stands. (``adrift`` keeps the positions seen,
    one per round since the first.)"""
    state = game.state
    if any(c.awake for c in state.characters.values()):
        state.adrift.clear()
        return
    key = position_key(game)
    if key in state.adrift:
        since = state.round - len(state.adrift) + state.adrift.index(key)
        effects.emit(game, {"type": "adrift", "round": state.round, "since": since})
        game.end(End.ADRIFT)
    else:
        state.adrift.append(key)


@state
class Navigate(Stage):
    """The navigator looks at the rowing pile and chooses the card (R-NAV-2)."""
    NAME: ClassVar[str] = "navigate"
    KIND: ClassVar[str] = Kind.NAVIGATE
    navigator: str = name(CHARACTER)

    def problems(self, game: "Game") -> list:
        if self.navigator != navigator(game):
            return [("navigator", "the navigator is the awake character nearest the stern (R-NAV-1)")]
        return []

    def pending(self, game: "Game") -> list:
        state = game.state
        if state.rowing_pile and state.characters[self.navigator].awake:
            return [self.navigator]
        return []

    def advance(self, game: "Game") -> None:
        game.pop(self)
        if game.state.rowing_pile:
            use_card(game, game.state.rowing_pile[0])

    def refusal(self, game: "Game", by: str) -> Refusal:
        return Refusal("R-NAV-1", f"{by} is not the navigator choosing a card now", "by", by)

    def private(self, game: "Game", viewer: str):
        if viewer == self.navigator:
            state = game.state
            return {"kind": Kind.NAVIGATE.value,
                    "cards": [state.table.navcards[c].data() for c in state.rowing_pile]}
        return None

    def public(self, game: "Game"):
        return {"kind": "navigate", "navigator": self.navigator,
                "cards": len(game.state.rowing_pile)}


def _navigate_check(game: "Game", stage: Navigate, by: str, card: str):
    if card not in game.state.rowing_pile:
        return Refusal("R-NAV-2", f"{card!r} is not in the rowing pile", "card", card)
    return None


def _navigate_moves(game: "Game", stage: Navigate, by: str):
    return [(card,) for card in game.state.rowing_pile]


def _navigate_resolve(game: "Game", stage: Navigate, by: str, card: str) -> None:
    game.pop(stage)
    effects.emit(game, {"type": "navigate", "character": by, "card": card})
    use_card(game, card, chooser=by)


NAVIGATE = ActionType("navigate", "R-NAV-2", _navigate_check, _navigate_moves, _navigate_resolve,
                      params=(Param("card", Domain.NAVCARD),), kinds=(Kind.NAVIGATE,))


def begin_navigation(game: "Game"):
    return NavigationPhase()


@hookimpl
def lifeboat_action_types():
    return [NAVIGATE]


@hookimpl
def lifeboat_stages():
    return [NavigationPhase, Navigate]
