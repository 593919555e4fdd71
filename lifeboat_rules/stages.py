"""Stages: the decisions and windows a game waits on, kept as a stack in the state.

The engine looks at the innermost stage: if anyone has a decision there it waits for an
action, otherwise it calls ``advance`` and the stage moves the game on (pops itself, pushes
another, resolves a window). Stages are attrs classes with plain fields so that ``clone`` and
saving are generic.
"""

from __future__ import annotations

import attrs

from .actions import Decision

_FIELDS: dict[type, tuple] = {}

# What a stage's fields refer to (a stage's ``REFS``), checked when a saved game is read
# (``saving.from_dict``): a field named there must hold what its kind says, in that game.
CHARACTER = "character"          # a character in play
CHARACTERS = "characters"        # a list of characters in play
COUNT = "count"                  # an int from 0 to MAX_COUNT
COUNTS = "counts"                # {character: int from 0 to MAX_COUNT}
MAX_COUNT = 1000                 # as many as a hook may answer at once (effects.MAX_AMOUNT)
STATUSES = "statuses"            # {character: awake | unconscious | dead | lost}
STAKE = "stake"                  # what a fight or an answer decides: {act, actor, target, card?}


def _fields(cls) -> tuple:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in attrs.fields(cls))
    return names


def _copy(value):
    kind = type(value)
    if kind is list:
        return value[:]
    if kind is dict:
        return dict(value)
    return value


@attrs.define(slots=True, eq=False)
class Stage:
    """A decision point. ``NAME`` identifies the class in saved games; ``KIND`` is the decision
    kind of its pending characters; ``PHASE`` marks a phase's own stage (bottom of the stack)."""
    NAME = "stage"
    KIND = None
    PHASE = False
    REFS = {}   # field -> what it holds (CHARACTER, ...), checked by saving.from_dict

    def start(self, game) -> None:
        """A phase's stage has just been pushed and its phase announced: set it going."""

    def pending(self, game) -> list:
        """Characters that have a decision here now, in seat order."""
        return []

    def actions(self, game, character: str) -> list:
        """The legal actions of ``character``'s decision here (types registered for KIND)."""
        out = []
        for action_type in game.rules.by_stage.get(self.KIND, ()):
            out.extend(action_type.options(game, character, self))
        return out

    def advance(self, game) -> None:
        """Nobody has a decision here: move on. By default the stage is done."""
        game.pop(self)

    def public(self, game) -> dict | None:
        """What everyone may see of this stage (a view's ``window``), or None."""
        return None

    def private(self, game, viewer: str) -> dict | None:
        """What ``viewer`` sees privately while deciding here (a view's ``decision``)."""
        return None

    def problems(self, game) -> list:
        """What is wrong with this stage's data in ``game`` (a saved game being read), as
        ``[(field, message)]``; by default, what ``REFS`` says the fields hold."""
        return ref_problems(self, game)

    def clone(self) -> "Stage":
        cls = type(self)
        new = object.__new__(cls)
        for name in _fields(cls):
            object.__setattr__(new, name, _copy(getattr(self, name)))
        return new

    def data(self) -> dict:
        return {"stage": self.NAME,
                **{name: _copy(getattr(self, name)) for name in _fields(type(self))}}

    @classmethod
    def from_data(cls, data: dict) -> "Stage":
        values = {name: _copy(data[name]) for name in _fields(cls) if name in data}
        return cls(**values)


@attrs.define(slots=True, eq=False)
class Window(Stage):
    """A window (R-WIN): several characters may act in any order.

    Pending are the characters that have a window action and have not passed since the last
    window action by anyone (R-WIN-2); the window closes when none is pending.
    """
    NAME = "window"
    REFS = {"passed": CHARACTERS}
    passed: list = attrs.Factory(list)

    def candidates(self, game) -> list:
        """Who may take window actions: awake characters on board, and ghosts where a window
        action type of this kind allows them (R-SHARK-2)."""
        state = game.state
        chars = state.characters
        found = [c for c in state.seats if chars[c].awake]
        if game.rules.ghost_kinds and self.KIND in game.rules.ghost_kinds:
            found.extend(c for c, ch in chars.items() if ch.lost and ch.ghost)
        return found

    def claimed_available(self, game, character: str) -> bool:
        """Whether ``character`` has a free action that counts as a window action here."""
        return False

    def claims(self, game, action: dict) -> bool:
        """Whether ``action`` (any type) is a window action of this window."""
        return action["type"] in game.rules.window_types.get(self.KIND, ())

    def has_action(self, game, character: str) -> bool:
        if self.claimed_available(game, character):
            return True
        for action_type in game.rules.by_stage.get(self.KIND, ()):
            if action_type.name != "pass" and action_type.options(game, character, self):
                return True
        return False

    def pending(self, game) -> list:
        passed = self.passed
        return [c for c in self.candidates(game)
                if c not in passed and self.has_action(game, c)]

    def actions(self, game, character: str) -> list:
        return Stage.actions(self, game, character)

    def after_action(self, game, action: dict) -> None:
        """Any window action by anyone makes everyone pending again (R-WIN-2)."""
        if self.claims(game, action):
            self.passed.clear()

    def on_pass(self, game, character: str) -> None:
        if character not in self.passed:
            self.passed.append(character)

    def advance(self, game) -> None:
        game.pop(self)
        self.close(game)

    def close(self, game) -> None:
        """Resolve the window once nobody is pending."""


def ref_problems(stage: Stage, game) -> list:
    """The fields of ``stage`` that do not hold what its ``REFS`` say, as (field, message)."""
    state = game.state
    chars = state.characters
    out = []

    def character(field, value):
        if type(value) is not str or value not in chars:
            out.append((field, f"{str(value)[:40]!r} is not a character in play"))

    for field, kind in stage.REFS.items():
        value = getattr(stage, field)
        if kind == CHARACTER:
            character(field, value)
        elif kind == CHARACTERS:
            for index, item in enumerate(value):
                character(f"{field}[{index}]", item)
        elif kind == COUNT:
            if type(value) is not int or not 0 <= value <= MAX_COUNT:
                out.append((field, f"must be a whole number from 0 to {MAX_COUNT}"))
        elif kind in (COUNTS, STATUSES):
            for key, item in value.items():
                character(f"{field}.{key}", key)
                if kind == COUNTS and (type(item) is not int or not 0 <= item <= MAX_COUNT):
                    out.append((f"{field}.{key}", f"must be a whole number from 0 to {MAX_COUNT}"))
                if kind == STATUSES and item not in ("awake", "unconscious", "dead", "lost"):
                    out.append((f"{field}.{key}", f"{str(item)[:40]!r} is not a status"))
        elif kind == STAKE:
            act = game.rules.types.get(value.get("act")) if type(value.get("act")) is str else None
            if act is None or act.settle is None:
                out.append((f"{field}.act", "must name an action type that settles a stake"))
            character(f"{field}.actor", value.get("actor"))
            character(f"{field}.target", value.get("target"))
            card = value.get("card")
            if card is not None and card != "hand" and (type(card) is not str or card not in state.kinds):
                out.append((f"{field}.card", f"{str(card)[:40]!r} is not a card of the game"))
    return out


def decisions(stage: Stage, game) -> list:
    kind = stage.KIND
    return [Decision(c, kind) for c in stage.pending(game)]
