"""The state of a game, declared once (``declare.py`` derives copying, saving and the schema).

``State`` is everything that changes during a game; ``Table`` what is fixed once the game is
set up (which kind each provision card is, the navigation cards in play), shared by copies.
Provision cards are instance ids, navigation cards their content ids; zones hold ids. A
provision card's id changes whenever it goes into a hand (``State.new_card_id``, docs/api.md),
so that an id never lets a player follow a card into a hand it may not see. There is no logic here beyond what a field means (status from damage).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from .content import NavigationCard
from .declare import (CARD, CHARACTER, MARKER, NAVCARD, SETTLING, big, copy_json, data, flag,
                      integer, lists, maybe_name, name, names, record_map, records, shared,
                      stages, state, value, word)
from .records import Phase, Status
from .rng import card_id

MAX_SIZE = 100          # content schema: sizes 1..100
MAX_DAMAGE = 10_000


@state
class Character:
    """A character in play, and so a player (R-SETUP-2). ``lost``: it left the game (lost at
    sea, R-OVER-5, or eaten, R-CANN-3); ``ghost``: lost at sea by falling overboard, so its
    player may call the shark (R-SHARK-2)."""
    id: str = name(CHARACTER)
    size: int = integer(low=1, high=MAX_SIZE + 1, doc="in force (after variants)")
    survival: int = integer(high=MAX_SIZE)
    damage: int = integer(high=MAX_DAMAGE)
    lost: bool = flag()
    ghost: bool = flag()
    hand: list = names(CARD)
    front: list = names(CARD, doc="face up in front of the character")
    love: str | None = maybe_name(CHARACTER)
    hate: str | None = maybe_name(CHARACTER)
    markers: list = names(MARKER, doc="rowing and fight markers, an open parasol, ...")

    @property
    def status(self) -> Status:
        """R-STATUS: awake below size, unconscious at size, dead above; or lost."""
        if self.lost:
            return Status.LOST
        if self.damage < self.size:
            return Status.AWAKE
        return Status.UNCONSCIOUS if self.damage == self.size else Status.DEAD

    @property
    def awake(self) -> bool:
        return not self.lost and self.damage < self.size

    @property
    def alive(self) -> bool:
        """On board and not dead: awake or unconscious (R-SCORE-1 once the game is over)."""
        return not self.lost and self.damage <= self.size

    @property
    def dead(self) -> bool:
        return not self.lost and self.damage > self.size


@value
class Offer:
    """A trade offer (R-TRADE-1): ``give`` from the offerer's hand for ``take`` from the
    recipient's. ``give`` holds the kinds of the cards the offerer shows, never their ids: an
    offer is carried out with any cards of those kinds (and markers) the offerer then holds, so
    the recipient cannot follow the card it was shown (docs/api.md, card ids are secrets).
    ``take`` names cards as the offer named them (kinds, or ids)."""
    id: str = name()
    by: str = name(CHARACTER)
    to: str = name(CHARACTER)
    give: list = names()
    take: list = names()
    give_markers: list | None = data(doc="the markers on each card of give, in order, when "
                                         "any of them carries one (R-LC-1)")

    def data(self) -> dict:
        out = {"id": self.id, "from": self.by, "to": self.to,
               "give": list(self.give), "take": list(self.take)}
        if self.give_markers is not None:
            out["give_markers"] = [list(m) for m in self.give_markers]
        return out


@value
class Stake:
    """What a request or a fight is about (R-SWAP-1, R-ROB-1..3, R-CANN-2): ``act`` names
    the action type that carries it out once allowed or won."""
    act: str = name(SETTLING)
    actor: str = name(CHARACTER)
    target: str = name(CHARACTER)
    card: str | None = maybe_name(CARD, doc="a face-up card robbed")
    hand: bool = flag(doc="a random card of the hand is robbed")
    amount: int = integer(high=1000, doc="healing of a cannibalism")


class Table:
    """Which kind each provision card is, by the card's id now, and the navigation cards in
    play. A card's id changes whenever the card goes into a hand (docs/api.md: a card's id is
    a secret like its kind), so ``kinds`` changes with the game: each copy of a game has its
    own (a copy of the dict); the navigation cards are fixed and shared by every copy. Saved
    as ``kinds`` and ``navcards``."""

    __slots__ = ("kinds", "navcards", "nav_ids", "nav_index", "_navcards_data", "_counts")

    def __init__(self, kinds: dict, navcards: dict):
        self.kinds = kinds        # card id -> provision kind
        # one order whatever order the ids came in (a saved game's keys have none): the
        # integer actions number navigation cards in it
        self.navcards = dict(sorted(navcards.items()))   # navigation card id -> NavigationCard
        self.nav_ids = tuple(self.navcards)
        self.nav_index = {c: i for i, c in enumerate(self.navcards)}
        self._navcards_data: dict | None = None
        self._counts: dict = {}   # kinds -> how many cards: the same whatever the ids, shared

    def copy(self) -> "Table":
        """A copy with its own ``kinds`` (the rest is fixed, and shared)."""
        new = object.__new__(Table)
        new.kinds = self.kinds.copy()
        new.navcards = self.navcards
        new.nav_ids = self.nav_ids
        new.nav_index = self.nav_index
        new._navcards_data = self._navcards_data
        new._counts = self._counts
        return new

    @property
    def navcards_data(self) -> dict:
        """The navigation cards as a saved game holds them (worked out when first asked: the
        navigation cards never change)."""
        found = self._navcards_data
        if found is None:
            found = {nid: {k: v for k, v in card.data().items() if k != "id"}
                     for nid, card in self.navcards.items()}
            self._navcards_data = found
        return found

    def count_of(self, kinds: frozenset) -> int:
        """How many cards of the game are of one of ``kinds`` (worked out once per set: ids
        change, the cards do not)."""
        found = self._counts.get(kinds)
        if found is None:
            found = self._counts[kinds] = sum(1 for k in self.kinds.values() if k in kinds)
        return found

    def data(self) -> tuple[dict, dict]:
        """``(kinds, navcards)`` as a saved game holds them (copies)."""
        return dict(self.kinds), copy_json(self.navcards_data)

    @classmethod
    def from_data(cls, kinds: dict, navcards: dict) -> "Table":
        return cls(dict(kinds), {nid: NavigationCard.from_data(nid, card)
                                 for nid, card in navcards.items()})


@state
class State:
    """Everything that changes during a game."""
    table: Table = shared(copied=True)
    characters: dict = record_map(Character, doc="every character in play, in content order")
    seats: list = names(CHARACTER, doc="on board, bow to stern")
    supply: list = names(CARD, doc="the supply deck, top first")
    passing: list = names(CARD, doc="supply cards being passed round (R-SUPPLY-1)")
    discard: list = names(CARD)
    removed: list = names(CARD, doc="out of the game: removed at setup, lost at sea, eaten")
    removed_face_up: list = names(CARD, doc="those of ``removed`` that left the game face up, "
                                            "in everyone's sight (R-WIN-2)")
    navigation: list = names(NAVCARD, doc="the navigation deck, top first")
    drawn: list = names(NAVCARD, doc="in the rower's (or the flare's) hands")
    rowing_pile: list = names(NAVCARD, doc="first placed first")
    current: str | None = maybe_name(NAVCARD, doc="the navigation card being resolved")
    round: int = integer(1, low=1)
    phase: Phase = word(Phase, Phase.SUPPLY)
    seagulls: int = integer(high=100)
    over: bool = flag()
    stack: list = stages(doc="stages, innermost last")
    offers: list = records(Offer)
    offer_counter: int = integer()
    card_markers: dict = lists(CARD, key=MARKER, doc="marker -> the cards holding it")
    rng: int = big(doc="the state of the random generator (SplitMix64)")
    card_key: int = big(doc="the key card ids are made with (rng.card_id): seen by no player")
    card_serial: int = integer(high=(1 << 32) - 1, doc="how many card ids were made")
    adrift: list = names(doc="positions seen at the start of a round with nobody awake (R-END-2)")
    result: dict | None = data()

    def new_card_id(self) -> str:
        """A fresh card id (docs/api.md: a card gets one whenever it goes into a hand)."""
        kinds = self.table.kinds
        while True:
            serial = self.card_serial
            self.card_serial = serial + 1
            made = card_id(self.card_key, serial)
            if made not in kinds:   # a copy given another key (determinize) could meet an id
                return made

    if TYPE_CHECKING:   # made by the declaration (declare.py)
        def clone(self) -> State: ...
