"""The game: who must decide what, the legal moves, ``apply`` as a transaction, the loop that
moves the game on between decisions, and the views of it (docs/api.md).

The flow of one ``apply`` (docs/architecture.md): parse the action dict into its type and
values (``actions.parse``) -> ``verdict`` (the game is not over, the actor may act, the stage
offers that type to that actor, the type's own ``check``) -> log the action -> the type's
``resolve`` with the stage it was taken at -> the window's bookkeeping (R-WIN-2) -> ``_run``
advances stages until someone has a decision or the game ends. ``legal_actions`` and
``legal_ids`` list the same moves from the types' ``moves``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from . import determinize as determinizing, effects, saving, views, words
from .effects import copy_events, copy_log, finisher_of
from .actions import ActionType, Domain, Malformed, action_dict, parse
from .effects import Secret
from .errors import IllegalAction
from .records import End, Phase, Refusal, decisions, short
from .rng import Rng
from .rules import navigation, scoring, setup
from .rulesets import Ruleset, RulesetSource, load_ruleset
from .stages import Stage, Window
from .state import State

if TYPE_CHECKING:   # types only: nothing of lifeboat_rules.types is needed at run time
    from .records import Decision
    from .types import Action, Event, FeedEntry, Result, SavedGame, View


class Game:
    """One game of Lifeboat under a ruleset.

    Create it with ``lifeboat_rules.new_game``; drive it with ``pending``, ``legal_actions``
    and ``apply`` (or the integer actions ``legal_ids`` and ``apply_id``); look at it with
    ``view`` and ``events_for``; save it with ``to_dict`` / ``Game.from_dict``.
    """

    __slots__ = ("ruleset", "rules", "state", "log", "secrets", "space", "statuses_changed",
                 "_pending", "_deciders", "_moves", "_deep", "_deep_upto", "_applied")

    def __init__(self, ruleset: Ruleset, state: State, log: list[dict[str, object]] | None = None,
                 secrets: dict[int, Secret] | None = None):
        self.ruleset = ruleset
        self.rules = ruleset.rules
        self.state = state
        self.log: list[dict[str, Any]] = [] if log is None else log
        self.secrets: dict[int, Secret] = {} if secrets is None else secrets
        # every accepted action is logged as one ``action`` event: the log is the count's truth
        self._applied = sum(1 for event in self.log if event["type"] == "action")
        table = state.table
        rules = self.rules
        space = rules.space
        if len(table.kinds) > space.cards or len(table.navcards) > space.navcards:
            space = rules.space_for(len(table.navcards), len(table.kinds))
        self.space = space
        self.statuses_changed = True     # set by effects: is anyone still alive? (R-END-1)
        self._pending: list[Decision] = []
        self._deciders: tuple[str, ...] = ()   # who is pending (a few: a tuple is quickest)
        self._moves: dict[object, Any] = {}
        self._deep: list[tuple[int, Any]] = []   # the log's events that hold containers
        self._deep_upto = 0            # how much of the log _deep has looked at

    # ------------------------------------------------------------------ who decides what

    @property
    def pending(self) -> list[Decision]:
        """The decisions the game waits for now (``Decision``: ``by``, ``kind``), in seat
        order bow to stern, ghosts last."""
        return list(self._pending)

    @property
    def over(self) -> bool:
        """Whether the game is over."""
        return self.state.over

    @property
    def actions_applied(self) -> int:
        """How many actions this game has accepted (``apply``, ``apply_id``), from its
        beginning; one more after each, unchanged by a refusal; saved and restored with the
        game. A front end sends it with a move to tell a move made on a stale screen."""
        return self._applied

    @property
    def result(self) -> Result | None:
        """Once over: ``{"scores", "winners", "breakdown", "end"}``; before: None."""
        result = self.state.result
        if result is None:
            return None
        return {"scores": dict(result["scores"]), "winners": list(result["winners"]),
                "breakdown": {c: dict(p) for c, p in result["breakdown"].items()},
                "end": result["end"]}

    @property
    def events(self) -> list[Event]:
        """The whole log so far, unredacted (a copy)."""
        return copy_log(self.log, self.deep_events())

    def deep_events(self) -> list[tuple[int, Any]]:
        """``(index, finisher)`` of the log's events that hold lists or mappings (brought
        up to date; ``effects.finisher_of``): copies of the others are one step
        (``effects.copy_log``)."""
        log = self.log
        deep = self._deep
        for index in range(self._deep_upto, len(log)):
            finish = finisher_of(log[index])
            if finish is not None:
                deep.append((index, finish))
        self._deep_upto = len(log)
        return deep

    @property
    def top(self) -> Stage | None:
        """The innermost stage: the one whose decisions are pending."""
        stack = self.state.stack
        return stack[-1] if stack else None

    # ------------------------------------------------------------------ legal moves

    def moves(self, by: str) -> list[tuple[ActionType, tuple[object, ...]]]:
        """``[(ActionType, values)]``: every move ``by`` may make now (cached until the next
        change, and the very list kept across another's pass in a window: ``_transact``). The
        one listing behind ``legal_actions`` and ``legal_ids``. Read it only."""
        if type(by) is not str:   # not a character id (and maybe not hashable): no move
            return []
        key = ("moves", by)
        found = self._moves.get(key)
        if found is None:
            found = [(atype, values) for atype, listed in self._listing(by) for values in listed]
            if by in self.state.characters:
                self._moves[key] = found
        return found

    def action_dict(self, atype: ActionType, by: str, values: tuple[object, ...]) -> Action:
        """The action dict of one move ``(atype, values)`` of ``moves(by)``, as
        ``legal_actions(by)`` lists it."""
        return self.rules.builders[atype.name](by, values)

    def _listing(self, by: str) -> Any:   # [(ActionType, [values, ...])], or ()
        """``moves(by)`` grouped by type: ``[(ActionType, [values, ...])]``, types in the
        order they are listed, none without a move (cached until the next change)."""
        groups = self._moves.get(by)
        if groups is not None:
            return groups
        state = self.state
        character = state.characters.get(by)
        if character is None or state.over:
            return ()
        groups = []
        rules = self.rules
        stack = state.stack
        stage: Any = stack[-1] if stack else None   # a stage whenever someone decides
        deciding = by in self._deciders
        if deciding:
            if stage.PASSABLE:
                groups.append(rules.pass_moves)
            for atype in rules.kind_types.get(stage.KIND, ()):
                listed = atype.moves(self, stage, by)
                if not listed:
                    continue
                if type(listed) is not list:
                    listed = list(listed)
                if listed:
                    groups.append((atype, listed))
        if character.awake:
            claimed = stage.claimed(self) if not deciding and isinstance(stage, Window) else ()
            for atype in rules.free_types:
                listed = atype.moves(self, stage, by)
                if not listed:
                    continue
                if type(listed) is not list:
                    listed = list(listed)
                if claimed and atype.name in claimed:
                    claims = stage.claims   # window actions are not free here (R-WIN-2)
                    listed = [values for values in listed if not claims(self, atype, by, values)]
                if listed:
                    groups.append((atype, listed))
        if rules.refuse_hook is not None:
            allowed = self._plugin_refusal
            groups = [(atype, kept) for atype, listed in groups
                      for kept in ([v for v in listed if allowed(atype, by, v) is None],) if kept]
        self._moves[by] = groups
        return groups

    def legal_actions(self, character: str) -> list[Action]:
        """Every action ``character`` may apply now, one dict per distinct move (cards by
        instance id, optional fields always given or always left out)."""
        if type(character) is not str:
            return []
        builders = self.rules.builders
        return [build(character, values) for atype, listed in self._listing(character)
                for build in (builders[atype.name],) for values in listed]

    def verdict(self, atype: ActionType, by: str, values: tuple[Any, ...]) -> Refusal | None:
        """Why the move is not legal now, or None: the one decision ``apply`` and
        ``apply_id`` follow (``moves`` lists exactly what it accepts)."""
        state = self.state
        if state.over:
            return Refusal("R-END-1", "the game is over: nothing may be played", None)
        character = state.characters[by]
        if character.lost:
            # a ghost takes its own window actions and passes (R-SHARK-2, R-WIN-2)
            if not (character.ghost and (atype.ghost or atype.name == "pass")):
                how = "lost at sea" if character.ghost else "lost"
                return Refusal("R-STATUS", f"{by} has left the game ({how})", "by", by)
        elif not character.awake:
            return Refusal("R-STATUS", f"{by} is {character.status}: only awake characters act",
                           "by", by)
        stage: Stage | None = state.stack[-1] if state.stack else None
        deciding = by in self._deciders
        if atype.free:
            refusal = atype.check(self, stage, by, *values)
            if refusal is not None:
                return refusal
            if (isinstance(stage, Window) and not deciding and atype.name in stage.claimed(self)
                    and stage.claims(self, atype, by, values)):
                return stage.refusal(self, by)
        else:
            if stage is None or not (
                    stage.KIND in atype.kinds or (atype.name == "pass" and stage.PASSABLE)):
                waiting = ", ".join(f"{d.by} ({d.kind})" for d in self._pending) or "nobody"
                return Refusal(atype.rule, f"{atype.name} is not taken now (the game waits for: "
                                           f"{waiting})", "type", atype.name)
            if not deciding:
                return stage.refusal(self, by)
            refusal = atype.check(self, stage, by, *values)
            if refusal is not None:
                return refusal
        if self.rules.refuse_hook is not None:
            return self._plugin_refusal(atype, by, values)
        return None

    def _plugin_refusal(self, atype: ActionType, by: str, values: tuple[Any, ...]) -> Refusal | None:
        hook = self.rules.refuse_hook
        if hook is None:
            return None
        try:
            reason = hook(game=self, action=action_dict(atype, by, values))
        except Exception as exc:
            raise self.rules.plugin_error(exc, f"checking a {atype.name} of {by}") from exc
        if reason is None:
            return None
        plugins = ", ".join(n for n in self.rules.implementers("lifeboat_refuse")
                            if n not in self.rules.trusted)
        return Refusal("plugin", f"{atype.name} is forbidden now by {plugins}: {short(reason)}",
                       "type", atype.name)

    # ------------------------------------------------------------------ integer actions

    @property
    def num_actions(self) -> int:
        """The size of the integer action space (fixed for a ruleset)."""
        return self.space.size

    def legal_ids(self, character: str) -> list[int]:
        """The sorted integers of ``legal_actions(character)``."""
        return sorted(self._numbered(character))

    def _numbered(self, character: str) -> dict[int, Any]:
        """``{integer: move}`` of the listed moves (kept as long as the listing is)."""
        if type(character) is not str or character not in self.state.characters:
            return {}   # not a character (and maybe not hashable): nothing kept for it
        key = ("ids", character)
        found = self._moves.get(key)
        if found is None:
            number = self.space.numberers
            found = self._moves[key] = {}
            for atype, listed in self._listing(character):
                number[atype.name](self, character, atype, listed, found)
        return found

    def action_id(self, action: Mapping[str, object]) -> int:
        """The integer of an action (a listed one, or one ``apply`` takes for it)."""
        atype, by, values = self._parse(action)
        number = self.space.encode(self, by, atype, values)
        if number is None:
            raise IllegalAction(f"API: this {atype.name} has no integer (only single-card gift "
                                "offers do; richer offers go through apply)", "API", "type",
                                atype.name)
        return number

    def action_of(self, character: str, number: int) -> Action:
        """The action dict an integer stands for, for ``character``, now."""
        move = self._decode(character, number)
        return action_dict(move[0], character, move[1])

    def apply_id(self, character: str, number: int) -> list[Event]:
        """``apply(action_of(character, number))``, without building dicts on the way."""
        listed = self._moves.get(("ids", character)) if type(character) is str else None
        move = listed.get(number) if listed is not None and type(number) is int else None
        if move is None:   # not among the listed moves: decoded, and the check says why
            atype, values = self._decode(character, number)
            refusal = self.verdict(atype, character, values)
            if refusal is not None:
                raise IllegalAction(refusal.text(), refusal.rule, refusal.field, refusal.value)
            move = (atype, values)
        return self._transact(move[0], character, move[1])

    def _decode(self, character: str, number: int) -> Any:
        if type(character) is not str or character not in self.state.characters:
            raise IllegalAction(f"API: unknown character {short(character)}", "API", "by",
                                character)
        move = self.space.decode(self, character, number)
        if move is None:
            raise IllegalAction(f"API: {short(number)} stands for no move of {character} now "
                                f"(0 to {self.space.size - 1})", "API")
        return move

    # ------------------------------------------------------------------ apply

    def _parse(self, action: object) -> tuple[ActionType, str, tuple[Any, ...]]:
        try:
            return parse(self, action)
        except Malformed as exc:
            raise IllegalAction(f"API: {exc}", "API", exc.refusal.field, exc.refusal.value) from None

    def apply(self, action: Mapping[str, object]) -> list[Event]:
        """Apply one action and move the game on to the next decisions. Returns the events it
        caused. Raises ``IllegalAction`` (naming the rule) and leaves the game exactly as it
        was when the action is malformed or not legal now."""
        atype, by, values = self._parse(action)
        refusal = self.verdict(atype, by, values)
        if refusal is not None:
            raise IllegalAction(refusal.text(), refusal.rule, refusal.field, refusal.value)
        return self._transact(atype, by, values)

    def _transact(self, atype: ActionType, by: str, values: tuple[Any, ...]) -> list[Event]:
        rules = self.rules
        guarded = rules.guarded
        if guarded:   # code from outside this package takes part: keep a copy to go back to
            saved = (self.state.clone(), self.secrets.copy(), self._pending[:])
        mark = len(self.log)
        try:
            build = rules.builders[atype.name]
            effects.emit(self, {"type": "action", "action": build(by, values)},
                         self._action_secret(atype, by, values) if atype.private else None)
            stack = self.state.stack
            stage = stack[-1] if stack else None
            if rules.window_holders and isinstance(stage, Window) and atype.free:
                stage.before_free(self, atype, by, values)
            hook = rules.resolve_hook
            if hook is None or not hook(game=self, action=build(by, values)):
                atype.resolve(self, stage, by, *values)
            hint: list[str] | None = None
            kept: dict[object, Any] | None = None
            if isinstance(stage, Window) and stack and stack[-1] is stage:
                if atype.name == "pass":
                    # a pass changes nothing but who has passed (R-WIN-2): the others
                    # pending stay pending, and nobody else becomes so
                    hint = [c for c in self._deciders if c != by]
                    if hint and rules.listings_outlive_passes:
                        # nor what the others may do: their listings stay, grouped and flat
                        # (the built-in types never list by who has passed; no hook had a
                        # say); their integers are numbered anew
                        listed = self._moves
                        kept = {key: listed[key] for who in self.state.characters if who != by
                                for key in (who, ("moves", who)) if key in listed}
                else:
                    stage.after(self, atype, by, values)
            self._run(hint, kept)
        except Exception as exc:
            if not guarded:
                raise
            self.state, self.secrets, self._pending = saved
            self._deciders = tuple(d.by for d in self._pending)
            del self.log[mark:]
            self._deep = [entry for entry in self._deep if entry[0] < mark]
            self._deep_upto = min(self._deep_upto, mark)
            self._moves = {}
            error = rules.plugin_error(exc, f"applying {atype.name}")
            if error is exc:
                raise
            raise error from exc
        self._applied += 1
        log = self.log
        if atype.name in rules.flat_actions and rules.event_hook is None:
            # the action event, which no plugin has seen, holds a dict of strings
            events = copy_events(log[mark + 1:])
            events.insert(0, {"type": "action", "action": log[mark]["action"].copy()})
            return events
        return copy_events(log[mark:])

    def _action_secret(self, atype: ActionType, by: str, values: tuple[Any, ...]) -> Secret | None:
        """Fields of an action only its actor may see: the pile a rower keeps (R-ROW-1), the
        cards of a trade offer as the offerer named them, by id (R-TRADE-1: the recipient
        learns the offer from the offer event, which shows kinds)."""
        private = atype.private
        if not private:
            return None
        return Secret((by,), tuple(f"action.{name}" for name in private))

    # ------------------------------------------------------------------ the loop

    def _run(self, hint: list[str] | None = None, kept: dict[object, Any] | None = None) -> None:
        """Move the game on until someone has a decision or the game is over. ``hint``:
        who is pending at the innermost stage, when the caller knows it; ``kept``: the
        listings (``_moves``) that the change left as they were, when the caller knows it."""
        state = self.state
        stack = state.stack
        self._moves = kept or {}
        while not state.over:
            if self.statuses_changed:
                self.statuses_changed = False
                if not any(c.alive for c in state.characters.values()):
                    self.end(End.ALL_DEAD)          # R-END-1: no character is alive
                    break
            if not stack:
                self._next_phase()
                continue
            top = stack[-1]
            if hint is not None:
                waiting, hint = hint, None
            else:
                waiting = top.pending(self)
            if waiting:
                made = decisions(top.KIND)
                self._pending = [made[c] for c in waiting]
                self._deciders = tuple(waiting)
                return
            top.advance(self)
        self._pending = []
        self._deciders = ()

    def refresh(self) -> None:
        """Recompute who is pending from the innermost stage (after a game is restored)."""
        top = self.top
        self._moves = {}
        if top is None or self.state.over:
            self._pending = []
        else:
            made = decisions(top.KIND)   # type: ignore[arg-type]  # a deciding stage has a kind
            self._pending = [made[c] for c in top.pending(self)]
        self._deciders = tuple(d.by for d in self._pending)

    def _next_phase(self) -> None:
        """The phase on the stack is over (or did not take place): begin the next one; after
        the last phase of a round the next round begins (R-NAV-4)."""
        state = self.state
        rules = self.rules
        # a phase not of this ruleset (a position set up before any phase) comes before the first
        following = rules.phase_after.get(state.phase, rules.phases[0][0])
        if following is None:
            following = rules.phases[0][0]
            state.round += 1
            navigation.round_begins(self)
            if state.over:
                return
        self.begin_phase(following)

    def begin_phase(self, phase: Phase) -> None:
        state = self.state
        state.phase = phase
        stage = self.rules.phase_begin[phase](self)
        if stage is None:
            return
        self.push(stage)
        effects.emit(self, {"type": "phase", "phase": phase.value, "round": state.round})
        hook = self.rules.phase_start_hook
        if hook is not None:
            hook(game=self, phase=phase.value)
        if not state.over:
            stage.begin(self)

    def start(self, phase: Phase | None = None, deal: bool = False) -> None:
        """Begin the game at ``phase`` (default: the first phase of the round), after the
        ``lifeboat_deal`` hook for a dealt game."""
        try:
            if deal and self.rules.pm.hook.lifeboat_deal.get_hookimpls():
                self.rules.pm.hook.lifeboat_deal(game=self)
            first = self.rules.phases[0][0]
            if phase is None or phase == first:
                navigation.round_begins(self)
            if not self.state.over:
                self.begin_phase(phase or first)
            self._run()
        except Exception as exc:
            if not self.rules.guarded:
                raise
            error = self.rules.plugin_error(exc, "starting the game")
            if error is exc:
                raise
            raise error from exc

    # ------------------------------------------------------------------ for rules and plugins

    def push(self, stage: Stage) -> None:
        self.state.stack.append(stage)

    def pop(self, stage: Stage) -> None:
        """Take ``stage`` (normally the innermost) off the stack; a phase's stage ends its
        phase."""
        stack = self.state.stack
        if stack and stack[-1] is stage:
            stack.pop()
        else:
            for index in range(len(stack) - 1, -1, -1):
                if stack[index] is stage:
                    del stack[index]
                    break
        if stage.PHASE:
            hook = self.rules.phase_end_hook
            if hook is not None:
                hook(game=self, phase=self.state.phase.value)

    def below(self, n: int) -> int:
        """A random whole number from 0 to n - 1, from the game's own generator."""
        rng = Rng(self.state.rng)
        value = rng.below(n)
        self.state.rng = rng.state
        return value

    def option(self, name: str) -> Any:
        return self.ruleset.options[name]

    def end(self, cause: End) -> None:
        """End the game now and score it (R-END-1, R-SCORE): the one place a game ends.
        ``cause``: the fourth seagull, nobody alive, or adrift (R-END-2)."""
        state = self.state
        if state.over:
            return
        state.over = True
        state.phase = Phase.OVER
        state.stack.clear()
        state.offers.clear()
        result = scoring.score_game(self)
        result["end"] = End(cause).value
        state.result = result
        effects.emit(self, {"type": "game_over", "scores": dict(result["scores"]),
                            "winners": list(result["winners"]), "end": result["end"]})
        if self.rules.pm.hook.lifeboat_game_over.get_hookimpls():
            self.rules.pm.hook.lifeboat_game_over(game=self, result=self.result)

    # ------------------------------------------------------------------ looking at it

    def view(self, character: str | None = None) -> View:
        """What ``character``'s player may know (None: what everyone may know), JSON-safe."""
        try:
            return views.view(self, character)
        except Exception as exc:
            # a view asks plugins too (a fight's strengths): one that fails is named, as in
            # apply, so that a front end catching IllegalAction survives it
            if not self.rules.guarded or self.rules.blame(exc) is None:
                raise
            raise self.rules.plugin_error(exc, "making a view") from exc

    def views(self, characters: Iterable[str | None],
              kept: dict[object, Any] | None = None) -> dict[str | None, View]:
        """``{c: view(c)}`` for several characters (None: everyone) at this position, made
        together: the parts they all see alike are made once and shared between the views,
        which are to be read only (a front end showing every seat after each move). With
        ``kept`` (a dict the caller keeps for this game, empty at first), a character's entry
        that reads as at the last such call is that call's very object (``views.views_of``)."""
        try:
            return views.views_of(self, tuple(characters), kept)
        except Exception as exc:
            if not self.rules.guarded or self.rules.blame(exc) is None:
                raise
            raise self.rules.plugin_error(exc, "making a view") from exc

    def events_for(self, character: str | None, since: int = 0) -> list[Event]:
        """The log from index ``since`` on, as ``character``'s player may see it (None: a
        spectator): one entry per log entry, fields it may not see left out."""
        return views.events_for(self, character, since)

    def feed(self, character: str | None, since: int = 0, lang: str = "en") -> list[FeedEntry]:
        """What ``character``'s player (None: a spectator) is told of the game from log index
        ``since`` on, in ``lang``: ``[{"index": int, "text": str}]``, one sentence per move,
        built on ``events_for(character)`` alone (docs/api.md, The feed). Entries never
        change once told: ``since=entries[-1]["index"] + 1`` polls for new ones."""
        return words.feed(self, character, since, lang)

    def to_dict(self) -> SavedGame:
        """The whole game as JSON-safe data; ``Game.from_dict`` continues it identically."""
        return saving.to_dict(self)

    @classmethod
    def from_dict(cls, data: object) -> Game:
        """A game saved by ``to_dict``; anything else raises ``ContentError``."""
        ruleset, state, log, secrets = saving.read(data)
        game = cls(ruleset, state, log, secrets)
        saving.check_game(game)
        return game

    def clone(self) -> Game:
        """An independent copy (cheap: for tree search). It shares the random generator's
        state, so it draws what this game would draw."""
        other = Game.__new__(Game)
        other.ruleset = self.ruleset
        other.rules = self.rules
        other.state = self.state.clone()
        other.log = self.log[:]
        other.secrets = self.secrets.copy()
        other.space = self.space
        other.statuses_changed = self.statuses_changed
        other._pending = self._pending[:]
        other._deciders = self._deciders
        other._moves = {}
        other._deep = self._deep[:]
        other._deep_upto = self._deep_upto
        other._applied = self._applied
        return other

    def determinize(self, character: str, seed: int) -> Game:
        """A copy in which everything ``character``'s player cannot see (other hands, their
        love and hate, the deck orders, the rowing pile, removed cards) is dealt again at random
        from ``seed``, consistent with ``view(character)`` and with all it saw before; the copy's
        random generator is seeded from ``seed`` too (docs/agents.md)."""
        return determinizing.determinize(self, character, seed)

    def __repr__(self) -> str:
        state = self.state
        where = "over" if state.over else f"round {state.round}, {state.phase}"
        return f"<Game {self.ruleset.name}: {where}, pending {[d.by for d in self._pending]}>"


def new_game(ruleset: RulesetSource = "classic", players: int | None = None,
             seed: int | None = None, setup_data: Mapping[str, object] | None = None,
             where: str = "<setup>") -> Game:
    """A dealt game (``players``, ``seed``) or one from an explicit position (``setup_data``)."""
    ruleset = load_ruleset(ruleset)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "big") >> 1
    elif type(seed) is not int:
        raise ValueError(f"the seed must be an int, not {seed!r}")
    if setup_data is not None:
        state, phase = setup.position(ruleset, setup_data, seed, where)
        game = Game(ruleset, state)
        effects.emit(game, {"type": "setup", "seats": state.seats[:], "players": len(state.characters),
                            "seed": seed, "dealt": False}, Secret((), ("seed",)))
        game.start(phase)
        return game
    if players is None:
        raise ValueError("new_game needs players=N (R-SETUP-1) or an explicit setup={...}")
    state = setup.deal(ruleset, players, seed)
    game = Game(ruleset, state)
    effects.emit(game, {"type": "setup", "seats": state.seats[:], "players": players,
                        "seed": seed, "dealt": True}, Secret((), ("seed",)))
    game.start(deal=True)
    return game
