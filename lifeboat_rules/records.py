"""The game's vocabulary: enums and small immutable records shared by every layer.

Nothing here knows about games or rules; everything above imports from here. Enum values are
the words the public API uses (``Status.AWAKE == "awake"``), so a record can be compared with
the JSON a front end sends, and ``.value`` is what goes into views, events and saved games.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, NamedTuple

import attrs

if TYPE_CHECKING:
    from .types import DecisionData


class Word(str, enum.Enum):
    """A str enum that prints as its value (``f"{Status.AWAKE}"`` is ``awake``)."""

    __str__ = str.__str__
    __format__ = str.__format__   # type: ignore[assignment]  # the value, not the member's name


class Status(Word):
    """R-STATUS: what damage against size makes of a character, or that it left the game."""
    AWAKE = "awake"
    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    LOST = "lost"


class Phase(Word):
    """The phases of a round (supply, action, navigation), and the end of the game."""
    SUPPLY = "supply"
    ACTION = "action"
    NAVIGATION = "navigation"
    OVER = "over"


class Kind(Word):
    """Decision kinds: what a pending character must decide (``Decision.kind``). A plugin's
    stage may use a kind of its own (any short lower-case word)."""
    PICK = "pick"
    TURN = "turn"
    PLACE = "place"
    RESPOND = "respond"
    FIGHT = "fight"
    NAVIGATE = "navigate"
    OVERBOARD = "overboard"
    THIRST = "thirst"
    OBJECT = "object"


class Side(Word):
    """The two sides of a fight (R-FIGHT-1)."""
    ATTACKER = "attacker"
    DEFENDER = "defender"


class End(Word):
    """How a game ended: the fourth seagull (R-GULL-1), nobody alive (R-END-1), adrift
    (R-END-2)."""
    LANDED = "landed"
    ALL_DEAD = "all_dead"
    ADRIFT = "adrift"


class Pile(Word):
    """Where a provision card can be. ``HAND`` and ``FRONT`` belong to a character."""
    SUPPLY = "supply"
    PASSING = "passing"       # drawn in the supply phase, being passed round (R-SUPPLY-1)
    DISCARD = "discard"
    REMOVED = "removed"       # out of the game: removed at setup, lost at sea, eaten
    HAND = "hand"
    FRONT = "front"


class Deck(Word):
    """Where a navigation card can be."""
    NAVIGATION = "navigation"     # the deck: drawn from the top, returned to the bottom
    DRAWN = "drawn"               # in the hands of the rower (R-ROW-1) or the flare (R-FLARE)
    ROWING_PILE = "rowing_pile"
    CURRENT = "current"           # the card being resolved (R-NAV-3)


@attrs.frozen(slots=True)
class Zone:
    """A place for provision cards: a table pile, or a character's hand or front.
    ``label``: the zone as events name it (``hand:the_kid``, ``front:frenchy``, ``discard``);
    ``public``: cards here are face up for everyone (R-PLAY-1)."""
    pile: Pile
    owner: str | None = None
    label: str = attrs.field(init=False, eq=False, repr=False)
    public: bool = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        pile = str.__str__(self.pile)
        object.__setattr__(self, "label", f"{pile}:{self.owner}" if self.owner is not None else pile)
        object.__setattr__(self, "public", self.pile is Pile.FRONT or self.pile is Pile.DISCARD)


SUPPLY = Zone(Pile.SUPPLY)
PASSING = Zone(Pile.PASSING)
DISCARD = Zone(Pile.DISCARD)
REMOVED = Zone(Pile.REMOVED)


_HANDS: dict[str, Zone] = {}
_FRONTS: dict[str, Zone] = {}


def hand(owner: str) -> Zone:
    """The hand of ``owner`` (one record per owner: zones are made on every card move)."""
    zone = _HANDS.get(owner)
    if zone is None:
        zone = _HANDS[owner] = Zone(Pile.HAND, owner)
    return zone


def front(owner: str) -> Zone:
    """What lies face up in front of ``owner``."""
    zone = _FRONTS.get(owner)
    if zone is None:
        zone = _FRONTS[owner] = Zone(Pile.FRONT, owner)
    return zone


class Decision(NamedTuple):
    """A decision the game waits for: ``by`` (a character id) must decide something of
    ``kind`` (pick, turn, place, respond, fight, navigate, overboard, thirst, object)."""
    by: str
    kind: str

    def data(self) -> DecisionData:
        """As views list it: ``{"by", "kind"}``."""
        return {"by": self.by, "kind": str(self.kind)}


class _Decisions(dict[str, Decision]):
    """The Decision records of one kind, by character, each made when first asked for."""

    def __init__(self, kind: str):
        super().__init__()
        self.kind = kind

    def __missing__(self, by: str) -> Decision:
        found = Decision(by, self.kind)
        if len(self) < 1_000:   # characters are few; odd ones are not kept
            self[by] = found
        return found


_DECISIONS: dict[tuple[str, type], _Decisions] = {}


def decisions(kind: str) -> dict[str, Decision]:
    """``{by: Decision(by, kind)}``: one record per pair (they are immutable, and the engine
    hands them out after every action); indexing it makes a missing one."""
    key = (kind, type(kind))   # a kind's enum member and its plain word stay apart
    found = _DECISIONS.get(key)
    if found is None:
        found = _Decisions(kind)
        if len(_DECISIONS) < 1_000:   # kinds are few; odd ones are not kept
            _DECISIONS[key] = found
    return found


@attrs.frozen(slots=True)
class Refusal:
    """Why an action is not legal now: the ruling (``R-...``, or ``API`` for a malformed
    action), a message a person can act on, and the field of the action it is about with its
    value (``IllegalAction.field``, ``.value``: None when it is about the game as a whole).
    A refusal says only what its actor may know: the same words and fields whether or not a
    card it names lies in a hand the actor cannot see."""
    rule: str
    message: str
    field: str | None = None
    value: object = None

    def text(self) -> str:
        return f"{self.rule}: {self.message}"


def refuse(rule: str, message: str, field: str | None = None, value: object = None) -> Refusal:
    return Refusal(rule, message, field, value)


@attrs.frozen(slots=True)
class Marker:
    """A token put on a character or a card (R-ROW-2's rowing marker, R-FIGHT-5's fight
    marker, ...). ``round``: cleared at the end of each round (R-NAV-4)."""
    name: str
    on_cards: bool = False
    round: bool = True
    rule: str = ""


def short(value: object, limit: int = 60) -> str:
    """A repr of at most ``limit`` characters for a message, whatever the value (a huge int
    or string, a cycle, an object whose repr raises): words about bad input must not fail
    themselves."""
    if type(value) is str and len(value) > limit:
        value = value[:limit]      # (a repr of megabytes is not made to be cut)
    try:
        text = repr(value)
    except Exception:   # ints past the str-conversion limit, hostile __repr__, deep nesting
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 3] + "..."
