"""The game: pending decisions, legal actions, ``apply`` as a transaction, and the loop that
moves the game on between decisions (API.md, Python)."""

from __future__ import annotations

from typing import Any

from . import effects
from .actions import Decision
from .errors import IllegalAction
from .model import State
from .stages import Stage, Window


def _copy_json(value):
    """A copy of a JSON-like value (events and actions handed out must not alias ours)."""
    kind = type(value)
    if kind is dict:
        return {k: _copy_json(v) for k, v in value.items()}
    if kind is list:
        return [_copy_json(v) for v in value]
    return value


def _copy_event(event: dict) -> dict:
    """A copy of an event: most are flat, so copy the mapping and only nested values deeply."""
    copy = event.copy()
    for key, value in event.items():
        kind = type(value)
        if kind is list or kind is dict:
            copy[key] = _copy_json(value)
    return copy


def _copy_actions(actions: list, list_types: frozenset) -> list:
    """Copies of listed actions; those with a list field (place, offer) get their own lists."""
    out = list(map(dict.copy, actions))
    for action in out:
        if action["type"] in list_types:
            for key, value in action.items():
                if type(value) is list:
                    action[key] = value[:]
    return out


class Game:
    """One game of Lifeboat under a ruleset.

    Create it with ``lifeboat_rules.new_game``; drive it with ``pending``, ``legal_actions``
    and ``apply``; look at it with ``view``; save it with ``to_dict`` / ``Game.from_dict``.
    """

    __slots__ = ("ruleset", "rules", "state", "log", "_pending", "_legal", "_guarded")

    def __init__(self, ruleset, state: State, log: list | None = None):
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.state = state
        self.log = [] if log is None else log
        self._pending: list = []
        self._legal: dict = {}
        self._guarded = self.rules.guarded

    # ------------------------------------------------------------------ public API

    @property
    def pending(self) -> list:
        """The decisions the game waits for now (``Decision`` objects with ``by``, ``kind``)."""
        return list(self._pending)

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def result(self) -> dict | None:
        """Once over: ``{"scores", "winners", "breakdown"}``; before: None."""
        result = self.state.result
        return _copy_json(result) if result is not None else None

    @property
    def events(self) -> list:
        """The whole log of events so far (a copy)."""
        return _copy_json(self.log)

    def legal_actions(self, character: str) -> list:
        """Every action ``character`` may apply now, as action dicts (API.md).

        Cards are listed under every name ``apply`` accepts (each instance id and each kind);
        trade offers, whose choice is open-ended, in a canonical form (single-card gifts).
        """
        if type(character) is not str or character not in self.state.characters:
            return []   # (not cached: asking about any string must not grow the game)
        cached = self._legal.get(character)
        if cached is None:
            cached = self._legal[character] = self._compute_legal(character)
        return _copy_actions(cached, self.rules.list_types)

    def apply(self, action: Any) -> list:
        """Apply one action and move the game on to the next decisions.

        Returns the events it caused. Raises ``IllegalAction`` (naming the rule) and leaves the
        game exactly as it was when the action is not legal now, malformed or out of turn.
        """
        if type(action) is not dict:
            self._refuse(action)
        by = action.get("by")
        kind = action.get("type")
        state = self.state
        rules = self.rules
        if state.over or type(kind) is not str or type(by) is not str:
            self._refuse(action)
        if kind in rules.open_types:
            # open-ended (trade offers): decided by the type's own check, not by listing
            problem = rules.types[kind].explain(self, action)
            if problem is not None:
                raise IllegalAction(f"{problem[0]}: {problem[1]}", problem[0])
            action = _copy_json(action)   # the client's mapping: the game keeps its own
            if rules.legal_hook is not None and by in state.characters:
                # a plugin forbids an open-ended type by removing all its listed forms
                legal = self._legal.get(by)
                if legal is None:
                    legal = self._legal[by] = self._compute_legal(by)
                if not any(a.get("type") == kind for a in legal):
                    raise IllegalAction(f"plugin: {kind} is forbidden now by "
                                        f"{', '.join(rules.implementers('lifeboat_legal_actions'))}",
                                        "plugin")
        else:
            legal = self._legal.get(by)
            if legal is None:
                if by not in state.characters:
                    self._refuse(action)   # (nothing cached for an unknown name)
                legal = self._legal[by] = self._compute_legal(by)
            try:
                # the listed form is applied and logged: plain str and list values, whatever
                # the client's values were (a str subclass, an object equal to anything); it is
                # the game's own (the cache is dropped once the state changes)
                action = legal[legal.index(action)]
            except Exception:  # not listed, or a value whose comparison raises
                self._refuse(action)
        return self._transact(action)

    def _refuse(self, action):
        from .refusals import explain
        try:
            message, rule = explain(self, action)
        except Exception:  # explaining must never be the thing that breaks
            message, rule = "API: this action is not legal now", "API"
        raise IllegalAction(message, rule)

    def view(self, character: str | None = None) -> dict:
        """What ``character``'s player may know (None: what everyone may know), JSON-safe."""
        from .views import view
        return view(self, character)

    def to_dict(self) -> dict:
        """The whole game as JSON-safe data; ``Game.from_dict`` continues it identically."""
        from .saving import to_dict
        return to_dict(self)

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        """A game saved by ``to_dict``; anything else raises ``ContentError``."""
        from .saving import from_dict
        return from_dict(data)

    def clone(self) -> "Game":
        """An independent copy (cheap: for tree search)."""
        other = Game.__new__(Game)
        other.ruleset = self.ruleset
        other.rules = self.rules
        other.state = self.state.clone()
        other.log = self.log[:]
        other._pending = self._pending[:]
        other._legal = {}
        other._guarded = self._guarded
        return other

    def __repr__(self) -> str:
        state = self.state
        where = "over" if state.over else f"round {state.round}, {state.phase}"
        return f"<Game {self.ruleset.name}: {where}, pending {[d.by for d in self._pending]}>"

    # ------------------------------------------------------------------ for rules and plugins

    @property
    def top(self) -> Stage | None:
        """The innermost stage (the one whose decisions are pending)."""
        stack = self.state.stack
        return stack[-1] if stack else None

    def push(self, stage: Stage) -> None:
        self.state.stack.append(stage)

    def pop(self, stage: Stage) -> None:
        """Remove ``stage`` (normally the innermost) from the stack; a phase stage ends its
        phase."""
        stack = self.state.stack
        if stack and stack[-1] is stage:
            stack.pop()
        else:
            stack.remove(stage)
        if stage.PHASE:
            hook = self.rules.phase_end_hook
            if hook is not None:
                hook(game=self, phase=self.state.phase)

    def rng(self):
        """A generator drawing from the game's random state; ``rng_done`` stores it back."""
        from .rng import Rng
        return Rng(self.state.rng)

    def rng_done(self, rng) -> None:
        self.state.rng = rng.state

    def option(self, name: str):
        return self.state.options[name]

    def character(self, who: str):
        return self.state.characters[who]

    def end(self, cause: str) -> None:
        """End the game now (R-END-1) and score it (R-SCORE). ``cause``: ``landed`` (the
        fourth seagull), ``all_dead`` (no character alive) or ``adrift`` (R-END-2)."""
        state = self.state
        if state.over:
            return
        from .rules.scoring import score_game
        state.over = True
        state.phase = "over"
        state.stack.clear()
        result = score_game(self)
        result["end"] = cause
        state.result = result
        effects.emit(self, {"type": "game_over", "scores": dict(result["scores"]),
                            "winners": list(result["winners"]), "end": cause})
        if self.rules.has_hook("lifeboat_game_over"):
            self.rules.hook.lifeboat_game_over(game=self, result=_copy_json(result))

    # ------------------------------------------------------------------ internals

    def _compute_legal(self, character: str) -> list:
        state = self.state
        if state.over:
            return []
        found: list = []
        pending = self._pending
        stack = state.stack
        if pending and stack:
            top = stack[-1]
            for decision in pending:
                if decision.by == character:
                    found.extend(top.actions(self, character))
                    break
        chars = state.characters
        if character in chars and chars[character].awake:
            free = []
            for action_type in self.rules.free_types:
                free.extend(action_type.options(self, character, None))
            if free and stack:
                top = stack[-1]
                if isinstance(top, Window) and not any(d.by == character for d in pending):
                    free = [a for a in free if not top.claims(self, a)]
            found.extend(free)
        if self.rules.legal_hook is not None:
            try:
                self.rules.legal_hook(game=self, character=character, actions=found)
            except Exception as exc:
                if not self._guarded:
                    raise
                raise self.rules.plugin_error(exc, f"listing the legal actions of {character}") from exc
        return found

    def _transact(self, action: dict) -> list:
        """Resolve a legal action and run the game on; all or nothing."""
        snapshot = self.state.clone() if self._guarded else None
        mark = len(self.log)
        try:
            effects.emit(self, {"type": "action", "action": action})
            top = self.top
            self.rules.resolve(self, action)
            if isinstance(top, Window) and top in self.state.stack:
                top.after_action(self, action)
            self._run()
        except Exception as exc:
            if snapshot is None:
                # unguarded (only trusted built-in rules): take the slow path once to restore
                raise
            self.state = snapshot
            del self.log[mark:]
            self._legal = {}
            self._refresh()
            error = self.rules.plugin_error(exc, f"applying {action.get('type')}")
            if error is exc:
                raise
            raise error from exc
        self._legal = {}
        return [_copy_event(e) for e in self.log[mark:]]

    def _refresh(self) -> None:
        top = self.top
        if top is None or self.state.over:
            self._pending = []
        else:
            kind = top.KIND
            self._pending = [Decision(c, kind) for c in top.pending(self)]

    def _run(self) -> None:
        """Move the game on until someone has a decision or the game is over."""
        state = self.state
        stack = state.stack
        while not state.over:
            if not any(ch.alive for ch in state.characters.values()):
                self.end("all_dead")  # R-END-1: no character is alive
                break
            if not stack:
                self._next_phase()
                continue
            top = stack[-1]
            waiting = top.pending(self)
            if waiting:
                kind = top.KIND
                self._pending = [Decision(c, kind) for c in waiting]
                return
            top.advance(self)
        self._pending = []

    def _next_phase(self) -> None:
        """The phase on the stack is over (or did not take place): begin the next one;
        after the last phase of a round the next round begins (R-NAV-4)."""
        state = self.state
        phases = self.rules.phases
        names = [name for name, _ in phases]
        index = names.index(state.phase) + 1 if state.phase in names else 0
        if index >= len(names):
            index = 0
            state.round += 1
        self._begin_phase(names[index])

    def _begin_phase(self, name: str) -> None:
        state = self.state
        state.phase = name
        begin = self.rules.phase_begin[name]
        stage = begin(self)
        if stage is None:
            return
        self.push(stage)
        effects.emit(self, {"type": "phase", "phase": name, "round": state.round})
        hook = self.rules.phase_start_hook
        if hook is not None:
            hook(game=self, phase=name)
        if not state.over:
            stage.start(self)

    def _start(self, phase: str | None = None) -> None:
        """Begin the game at ``phase`` (default: the first phase of the round)."""
        self._begin_phase(phase or self.rules.phases[0][0])
        self._run()
        self._legal = {}
