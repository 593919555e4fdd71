"""The navigation phase (RULES.md: R-NAV-1..4, R-GULL-1)."""

from __future__ import annotations

import attrs

from .. import effects
from ..actions import ActionType, Field
from ..hookspecs import hookimpl
from ..stages import CHARACTER, Stage


def navigator(game) -> str | None:
    """R-NAV-1: the awake character nearest the stern."""
    chars = game.state.characters
    for who in reversed(game.state.seats):
        if chars[who].awake:
            return who
    return None


def navigation_draws(game, who: str | None) -> int:
    """R-NAV-2: one more card per compass face up in front of the navigator."""
    if who is None:
        return 0
    provisions = game.rules.content.provisions
    kinds = game.state.kinds
    return sum(provisions[kinds[c]].navigation_draws for c in game.state.characters[who].front)


def draw_to_pile(game, count: int = 1) -> None:
    """Put up to ``count`` cards from the top of the deck onto the rowing pile."""
    state = game.state
    for card in state.navigation[:count]:
        effects.move_navigation(game, card, "navigation", "rowing_pile")


@attrs.define(slots=True, eq=False)
class NavigationPhase(Stage):
    """The steps of the navigation phase: choose the card (R-NAV-2), resolve it in order
    seagull, overboard, thirst (R-NAV-3), end the round (R-NAV-4)."""
    NAME = "navigation"
    PHASE = True
    step: str = "choose"

    def advance(self, game) -> None:
        state = game.state
        step = self.step
        if step == "choose":
            self.step = "resolve"
            choose_card(game)
        elif step == "resolve":
            card = state.current
            if card is None:          # no card could be had: nothing is resolved
                self.step = "end"
                return
            effects.emit(game, {"type": "navigation", "card": card,
                                "data": state.navcards[card].data()})
            self.step = "overboard"
            effects.seagull(game, state.navcards[card].seagull)   # R-GULL-1: the 4th ends the game
        elif step == "overboard":
            self.step = "thirst"
            from .overboard import start_overboard
            start_overboard(game, state.navcards[state.current])
        elif step == "thirst":
            self.step = "end"
            from .thirst import start_thirst
            start_thirst(game, state.navcards[state.current])
        else:
            game.pop(self)
            end_round(game)

    def public(self, game):
        return {"kind": "navigation", "step": self.step}


def choose_card(game) -> None:
    """R-NAV-2: the rowing pile (or the top card) and the compass; the navigator chooses."""
    state = game.state
    pilot = navigator(game)
    if not state.rowing_pile:
        draw_to_pile(game, 1)
    extra = navigation_draws(game, pilot)
    if extra:
        draw_to_pile(game, extra)   # ruling: always, it can only widen the choice
    pile = state.rowing_pile
    if not pile:
        return
    if len(pile) == 1 or pilot is None:
        use_card(game, pile[0])
    else:
        effects.emit(game, {"type": "navigator", "character": pilot, "cards": len(pile)})
        game.push(Navigate(pilot))


def use_card(game, card: str) -> None:
    """The chosen card is used; the rest of the pile goes under the deck in pile order."""
    state = game.state
    effects.move_navigation(game, card, "rowing_pile", "current")
    for other in state.rowing_pile[:]:
        effects.move_navigation(game, other, "rowing_pile", "navigation")


def end_round(game) -> None:
    """R-NAV-4: the used card goes under the deck; rowing and fight markers are cleared."""
    state = game.state
    if state.current is not None:
        effects.move_navigation(game, state.current, "current", "navigation")
    for who, character in state.characters.items():
        if character.rowed:
            effects.set_marker(game, who, "rowed", False)
        if character.fought:
            effects.set_marker(game, who, "fought", False)
    adrift(game)


# what can change a game in which nobody is awake
_CHANGES = frozenset({"damage", "heal", "status", "seagulls", "lost", "seats"})


def adrift(game) -> None:
    """Ruling (R-END-1, where RULES.md is silent): with no character awake nobody decides
    anything and each round only turns the navigation deck by a card. If a whole turn of the
    deck goes by without a seagull, damage, healing or a loss, the rounds repeat for ever: the
    game ends there, scored as it stands."""
    state = game.state
    if any(c.awake for c in state.characters.values()):
        state.drift = 0
        return
    log = game.log
    start = len(log)   # where this round began: its first phase event
    for index in range(len(log) - 1, -1, -1):
        kind = log[index]["type"]
        if kind == "phase" and log[index]["round"] == state.round:
            start = index
        elif kind == "setup" or kind == "phase":
            break
    changed = any(event["type"] in _CHANGES for event in log[start:])
    state.drift = 0 if changed else state.drift + 1
    if state.drift > len(state.navcards):
        effects.emit(game, {"type": "adrift", "rounds": state.drift})
        game.end("adrift")


@attrs.define(slots=True, eq=False)
class Navigate(Stage):
    """The navigator looks at the rowing pile and chooses the card (R-NAV-2)."""
    NAME = "navigate"
    KIND = "navigate"
    REFS = {"navigator": CHARACTER}
    navigator: str = ""

    def problems(self, game) -> list:
        found = Stage.problems(self, game)
        if not found and self.navigator != navigator(game):
            found.append(("navigator", "the navigator is the awake character nearest the stern (R-NAV-1)"))
        return found

    def pending(self, game) -> list:
        state = game.state
        if state.rowing_pile and state.characters[self.navigator].awake:
            return [self.navigator]
        return []

    def advance(self, game) -> None:
        game.pop(self)
        if game.state.rowing_pile:
            use_card(game, game.state.rowing_pile[0])

    def private(self, game, viewer):
        if viewer == self.navigator:
            navcards = game.state.navcards
            return {"kind": "navigate", "cards": [navcards[c].data() for c in game.state.rowing_pile]}
        return None

    def public(self, game):
        return {"kind": "navigate", "navigator": self.navigator,
                "cards": len(game.state.rowing_pile)}


def _navigate_options(game, character, stage) -> list:
    return [{"by": character, "type": "navigate", "card": c} for c in game.state.rowing_pile]


def _navigate_resolve(game, action) -> None:
    game.pop(game.top)
    effects.emit(game, {"type": "navigate", "character": action["by"], "card": action["card"]})
    use_card(game, action["card"])


def _navigate_explain(game, action):
    top = game.top
    if not isinstance(top, Navigate) or top.navigator != action["by"]:
        return "R-NAV-1", f"{action['by']} is not the navigator choosing a card now"
    return "R-NAV-2", f"{action.get('card')!r} is not in the rowing pile"


NAVIGATE = ActionType("navigate", "R-NAV-2", _navigate_options, _navigate_resolve,
                      fields=(Field("card"),), stages=("navigate",), explain=_navigate_explain)


def begin_navigation(game):
    return NavigationPhase()


@hookimpl
def lifeboat_action_types():
    return [NAVIGATE]


@hookimpl
def lifeboat_stages():
    return [NavigationPhase, Navigate]
