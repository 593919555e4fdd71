"""Stages: the decisions and windows a game waits on, kept as a stack in the state.

The stage protocol (docs/architecture.md):

* a stage owns its decisions: ``pending(game)`` lists who must decide now (seat order bow to
  stern, ghosts last), its ``KIND`` is the decision kind, and the action types registered for
  that kind (plus ``pass`` where ``PASSABLE``) are its actions;
* an action is resolved with the stage it was taken at (``resolve(game, stage, by, ...)``):
  a resolver records the decision on the stage (``acted``, ``passed``, ``answer``...), pushes
  new stages or changes the table through ``effects``;
* when nobody is pending, the engine calls ``advance(game)``: the stage moves the game on (pops
  itself and settles what was decided, or resolves a window).

Stages are declared records (``declare.py``), so copying and saving them is generic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .declare import CHARACTER, names, state
from .records import Refusal

if TYPE_CHECKING:
    from .actions import ActionType
    from .engine import Game


@state
class Stage:
    """A decision point. ``NAME`` names the class in saved games; ``KIND`` is the decision
    kind of its pending characters; ``PHASE`` marks a phase's own stage (the bottom of the
    stack); ``PASSABLE``: ``pass`` is one of its actions."""
    NAME: ClassVar[str] = "stage"
    KIND: ClassVar[str | None] = None
    PHASE: ClassVar[bool] = False
    PASSABLE: ClassVar[bool] = False

    def begin(self, game: "Game") -> None:
        """A phase's stage has just been pushed and its phase announced: set it going."""

    def pending(self, game: "Game") -> list:
        """Who has a decision here now, in seat order (ghosts last)."""
        return []

    def advance(self, game: "Game") -> None:
        """Nobody is pending: move on. By default the stage is done."""
        game.pop(self)

    def refusal(self, game: "Game", by: str) -> Refusal:
        """Why ``by`` has no decision here (for a refused action of this stage's kind)."""
        waiting = ", ".join(self.pending(game)) or "nobody"
        return Refusal("R-WIN-2" if isinstance(self, Window) else "R-ACT-1",
                       f"{by} has no {self.KIND} decision now (waiting for: {waiting})", "by", by)

    def public(self, game: "Game") -> dict | None:
        """What everyone may see of this stage (a view's ``stage``), or None."""
        return None

    def private(self, game: "Game", viewer: str) -> dict | None:
        """What ``viewer`` sees while deciding here (a view's ``decision``)."""
        return None

    def problems(self, game: "Game") -> list:
        """What is wrong with this stage in a restored game beyond what its fields declare,
        as ``[(field, message)]``."""
        return []


@state
class Window(Stage):
    """A window (R-WIN-1): several characters may act in any order.

    Pending are the characters that may take a window action as far as every player can
    tell (``may_act``: public facts alone) and have not passed since the last window action
    by anyone (R-WIN-2); with the option ``window_pending: holders``, those that have one with
    the cards they hold (``has_action``, R-WIN-3). It closes when none is pending. ``CLAIMS`` names free
    action types (R-PLAY-1) whose moves may be window actions here (``claims`` says which); a
    plugin's free type adds itself to a window's claims by naming the window's kind in its
    ``windows`` (``ActionType.windows``, ``ActionType.window_action``).
    """
    NAME: ClassVar[str] = "window"
    PASSABLE: ClassVar[bool] = True
    CLAIMS: ClassVar[tuple] = ()
    passed: list = names(CHARACTER)

    def candidates(self, game: "Game") -> list:
        """Who may take window actions: awake characters on board, then ghosts where an
        action type of this kind is a ghost's (R-SHARK-2)."""
        state = game.state
        chars = state.characters
        found = [c for c in state.seats if chars[c].awake]
        if self.KIND in game.rules.ghost_kinds:
            found.extend(c for c, ch in chars.items() if ch.ghost)
        return found

    def claimed(self, game: "Game") -> tuple:
        """The free action types whose moves may be window actions here: ``CLAIMS``, then the
        free types that name this window's kind in their ``windows``."""
        return game.rules.claims.get(self.NAME, self.CLAIMS)

    def claims(self, game: "Game", atype: "ActionType", by: str, values: tuple) -> bool:
        """Whether a free move is a window action of this window. Here: what the type's own
        ``window_action`` says, where the type names this window's kind in its ``windows``; a
        window answers itself for the types of its ``CLAIMS`` and asks this for the others."""
        test = atype.window_action
        if test is None or self.KIND not in atype.windows:
            return False
        return bool(test(game, self, by, values))

    def has_action(self, game: "Game", who: str) -> bool:
        """Whether ``who`` has a window action here with the cards it actually holds (R-WIN-3;
        a program that knows every hand may ask it, a player may not)."""
        return self._has_action(game, who, game.rules.kind_types.get(self.KIND, ()),
                                self._claimed_types(game))

    def may_act(self, game: "Game", who: str) -> bool:
        """Whether, as far as every player can tell, ``who`` may take a window action here
        (R-WIN-2): public facts alone, never a hand's contents."""
        return self._may_act(game, who, game.rules.kind_types.get(self.KIND, ()),
                             self._claimed_types(game))

    def _claimed_types(self, game: "Game") -> list:
        types = game.rules.types
        return [types[name] for name in self.claimed(game) if name in types]

    def _has_action(self, game: "Game", who: str, own: tuple, claimed: list) -> bool:
        """``has_action`` with the window's own action types and its claimed free types
        looked up once (``pending`` asks it of every candidate)."""
        for atype in own:
            if atype.available is not None:
                if atype.available(game, self, who):
                    return True
                continue
            for _ in atype.moves(game, self, who):
                return True
        for atype in claimed:
            if self.claims_any(game, atype, who):
                return True
        return False

    def _may_act(self, game: "Game", who: str, own: tuple, claimed: list) -> bool:
        """``may_act`` with the types looked up once. A type without ``may`` needs nothing
        hidden, so its own listing answers."""
        for atype in own:
            if atype.may is not None:
                if atype.may(game, self, who):
                    return True
            elif self._has_action(game, who, (atype,), []):
                return True
        for atype in claimed:
            if self.claims_may(game, atype, who):
                return True
        return False

    def claims_any(self, game: "Game", atype: "ActionType", who: str) -> bool:
        """Whether some move of the free type ``atype`` by ``who`` is a window action here
        (``claims`` of one of its moves). A window may answer faster for its own ``CLAIMS``
        (``pending`` asks it of every candidate after every window action);
        tests/test_legality.py checks such answers against the listing."""
        claims = self.claims
        for values in atype.moves(game, self, who):
            if claims(game, atype, who, values):
                return True
        return False

    def claims_may(self, game: "Game", atype: "ActionType", who: str) -> bool:
        """``claims_any`` as every player can tell it (R-WIN-2). Here: the type's own
        ``window_may`` where it names this window's kind; a window answers itself for its
        ``CLAIMS``. A type without ``window_may`` is taken to need nothing hidden."""
        test = atype.window_may
        if test is None or self.KIND not in atype.windows:
            return self.claims_any(game, atype, who)
        return bool(test(game, self, who))

    def pending(self, game: "Game") -> list:
        passed = self.passed
        own = game.rules.kind_types.get(self.KIND, ())
        claimed = self._claimed_types(game)
        # R-WIN-2: public facts decide; R-WIN-3 (window_pending: holders): the hands do
        test = self._has_action if game.rules.window_holders else self._may_act
        return [c for c in self.candidates(game)
                if c not in passed and test(game, c, own, claimed)]

    def is_window_action(self, game: "Game", atype: "ActionType", by: str, values: tuple) -> bool:
        if atype.free:
            return atype.name in self.claimed(game) and self.claims(game, atype, by, values)
        return self.KIND in atype.kinds

    def before_free(self, game: "Game", atype: "ActionType", by: str, values: tuple) -> None:
        """Under ``window_pending: holders`` (R-WIN-3), before a free move that is not this
        window's action: the characters the default would ask that have nothing to play are
        taken to have passed, as they would have under the default before anyone moved on.
        So a free move that gives one of them something to do (another's drink lets Madame
        Wong share it) waits, under both options, for someone's window action."""
        if self.is_window_action(game, atype, by, values):
            return
        own = game.rules.kind_types.get(self.KIND, ())
        claimed = self._claimed_types(game)
        passed = self.passed
        for who in self.candidates(game):
            if (who not in passed and self._may_act(game, who, own, claimed)
                    and not self._has_action(game, who, own, claimed)):
                passed.append(who)

    def after(self, game: "Game", atype: "ActionType", by: str, values: tuple) -> None:
        """Any window action by anyone makes everyone pending again (R-WIN-2)."""
        if self.passed and self.is_window_action(game, atype, by, values):
            self.passed.clear()

    def refusal(self, game: "Game", by: str) -> Refusal:
        if by in self.passed:
            return Refusal("R-WIN-2", f"{by} has passed in this {self.KIND} window", "by", by)
        return Refusal("R-WIN-2", f"{by} has no {self.KIND} window action now", "by", by)

    def advance(self, game: "Game") -> None:
        game.pop(self)
        self.close(game)

    def close(self, game: "Game") -> None:
        """Resolve the window once nobody is pending."""
