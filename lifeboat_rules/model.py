"""The state of a game as attrs classes (slots, no rules).

Content records (``CharacterInfo``, ``ProvisionInfo``, ``NavigationCard``) are frozen and shared
by every game of a ruleset. The mutable state (``Character``, ``State``) is copied by hand in
``clone`` methods: cheap enough for tree search, no ``deepcopy``.
"""

from __future__ import annotations

from typing import Any

import attrs

AWAKE, UNCONSCIOUS, DEAD, LOST = "awake", "unconscious", "dead", "lost"


@attrs.frozen(slots=True)
class CharacterInfo:
    id: str
    name: str
    size: int
    survival: int
    seat: int
    double_treasure: str | None = None
    fall_damage: int = 1
    pickpocket: bool = False
    keeps_used: tuple[str, ...] = ()


@attrs.frozen(slots=True)
class ProvisionInfo:
    kind: str
    name: str
    count: int
    quenches: int = 0
    weapon: int = 0
    rowing_draws: int = 0
    navigation_draws: int = 0
    chum: bool = False
    preserver: bool = False
    treasure_group: str | None = None
    treasure_points: int = 0
    treasure_set: tuple[int, ...] = ()
    special: dict | None = attrs.field(default=None, hash=False)

    @property
    def effect(self) -> str | None:
        return self.special["effect"] if self.special else None


@attrs.frozen(slots=True)
class NavigationCard:
    """A navigation card. ``overboard`` / ``thirst`` keep the content form: a tuple of ids,
    ``"all"``, or ``{"all_except": [...]}`` (resolved against the characters in play)."""
    id: str
    overboard: Any = ()
    thirst: Any = ()
    oar: bool = False
    fight: bool = False
    seagull: int = 0

    def data(self) -> dict:
        """The card as content data (JSON-safe), as views and events show it."""
        def plain(names):
            if isinstance(names, tuple):
                return list(names)
            if isinstance(names, dict):
                return {"all_except": list(names["all_except"])}
            return names
        return {"id": self.id, "overboard": plain(self.overboard), "thirst": plain(self.thirst),
                "oar": self.oar, "fight": self.fight, "seagull": self.seagull}

    @classmethod
    def from_data(cls, card_id: str, data: dict) -> "NavigationCard":
        def names(value):
            if value is None:
                return ()
            if isinstance(value, list):
                return tuple(value)
            if isinstance(value, dict):
                return {"all_except": tuple(value.get("all_except", ()))}
            return value
        return cls(card_id, names(data.get("overboard")), names(data.get("thirst")),
                   bool(data.get("oar", False)), bool(data.get("fight", False)),
                   int(data.get("seagull", 0)))


def resolve_names(names: Any, in_play) -> list[str]:
    """Characters named by a card field, among ``in_play`` (in their order)."""
    if names == "all":
        return list(in_play)
    if isinstance(names, dict):
        excluded = names["all_except"]
        return [c for c in in_play if c not in excluded]
    return [c for c in in_play if c in names]


@attrs.define(slots=True, eq=False)
class Character:
    """A character in play (and so a player). ``lost``: left the game (R-OVER-5, R-CANN-3);
    ``ghost``: lost at sea by falling overboard (R-SHARK-2)."""
    id: str
    size: int
    survival: int
    damage: int = 0
    lost: bool = False
    ghost: bool = False
    hand: list = attrs.Factory(list)
    front: list = attrs.Factory(list)
    love: str | None = None
    hate: str | None = None
    rowed: bool = False
    fought: bool = False
    parasol_active: bool = False

    @property
    def status(self) -> str:
        """R-STATUS: awake below size, unconscious at size, dead above; or lost."""
        if self.lost:
            return LOST
        damage, size = self.damage, self.size
        if damage < size:
            return AWAKE
        return UNCONSCIOUS if damage == size else DEAD

    @property
    def awake(self) -> bool:
        return not self.lost and self.damage < self.size

    @property
    def alive(self) -> bool:
        """Awake or unconscious (R-SCORE-1 'survives' once the game is over)."""
        return not self.lost and self.damage <= self.size

    def clone(self) -> "Character":
        return Character(self.id, self.size, self.survival, self.damage, self.lost, self.ghost,
                         self.hand[:], self.front[:], self.love, self.hate, self.rowed,
                         self.fought, self.parasol_active)


@attrs.define(slots=True, eq=False)
class Offer:
    """A trade offer (R-TRADE-1): ``give`` from the offerer's hand for ``take`` from the
    recipient's; card references are instance ids or kinds."""
    id: str
    by: str
    to: str
    give: tuple = ()
    take: tuple = ()

    def data(self) -> dict:
        return {"id": self.id, "from": self.by, "to": self.to,
                "give": list(self.give), "take": list(self.take)}


@attrs.define(slots=True, eq=False)
class State:
    """Everything that changes during a game. Zones hold card ids; ``kinds`` and ``navcards``
    (instance tables) never change once the game is set up."""
    characters: dict                      # id -> Character, every character in play
    kinds: dict                           # provision id -> kind
    navcards: dict                        # navigation id -> NavigationCard
    seats: list = attrs.Factory(list)     # on board, bow -> stern
    supply: list = attrs.Factory(list)    # top first
    passing: list = attrs.Factory(list)   # supply cards being passed round (R-SUPPLY-1)
    discard: list = attrs.Factory(list)
    removed: list = attrs.Factory(list)   # out of the game: setup removal, lost at sea, eaten
    navigation: list = attrs.Factory(list)  # the navigation deck, top first
    drawn: list = attrs.Factory(list)     # navigation cards in the rower's or flare's hands
    rowing_pile: list = attrs.Factory(list)  # first placed first
    current: str | None = None            # the navigation card being resolved
    round: int = 1
    phase: str = "supply"
    seagulls: int = 0
    over: bool = False
    stack: list = attrs.Factory(list)     # stages, innermost last
    offers: list = attrs.Factory(list)
    offer_counter: int = 0
    rng: int = 0
    options: dict = attrs.Factory(dict)
    result: dict | None = None
    drift: int = 0                        # rounds in a row adrift: nobody awake, nothing changed

    def clone(self) -> "State":
        return State(
            {cid: c.clone() for cid, c in self.characters.items()},
            self.kinds, self.navcards, self.seats[:], self.supply[:], self.passing[:],
            self.discard[:], self.removed[:], self.navigation[:], self.drawn[:],
            self.rowing_pile[:], self.current, self.round, self.phase, self.seagulls,
            self.over, [stage.clone() for stage in self.stack],
            [Offer(o.id, o.by, o.to, o.give, o.take) for o in self.offers],
            self.offer_counter, self.rng, self.options, self.result, self.drift)
