"""Action types: the vocabulary of moves, declared once (docs/api.md, Actions).

An ``ActionType`` is what a plugin registers (hook ``lifeboat_action_types``) to add a kind of
action. It declares its parameters (``Param``: a name and a ``Domain``) and three functions:

* ``check(game, stage, by, *values)``: the one decision of legality for this type. It returns a
  ``Refusal`` (the rule and a message) or None. ``apply`` refuses with it.
* ``moves(game, stage, by)``: the legal value tuples, listed fast for ``legal_actions`` and
  ``legal_ids``. It must list exactly what ``check`` accepts; tests/test_legality.py proves it
  on reachable states of every built-in ruleset by trying every value of every domain.
* ``resolve(game, stage, by, *values)``: carries it out through ``effects``.

``stage`` is the innermost stage when the action is taken (the turn, the window...), so a
resolver works on the stage it acts on. From the parameters' domains follow the parsing of an
action dict (shape, kind aliases for cards), the canonical dict of a move, and its integer in
the game's fixed action space (``ActionSpace``).
"""

from __future__ import annotations

import difflib
from bisect import bisect_right
from itertools import chain, count
from typing import TYPE_CHECKING, Callable, Iterable

import attrs

from .records import Refusal, Side, Word, short
from .rng import card_id_ok

if TYPE_CHECKING:
    from .types import Action

FREE = "free"   # the kind of an action taken whenever it is legal (R-PLAY-1, R-TRADE-1)
MAX_OPEN_OFFERS = 16   # per offerer (R-TRADE-1): bounds the state a client can grow
MAX_TEXT = 200
MAX_LIST = 100


class Domain(Word):
    """What a parameter's value is."""
    CHARACTER = "character"        # a character in play
    CARD = "card"                  # a provision card id (or a kind id, meaning the first such)
    CARD_OR_HAND = "card_or_hand"  # ``hand`` (a random hand card) or a card
    NAVCARD = "navcard"            # a navigation card id
    PILE = "pile"                  # navigation card ids among those drawn (any order)
    SIDE = "side"                  # attacker or defender
    OFFER = "offer"                # an open trade offer's id
    CARDS = "cards"                # card ids or kinds (a trade offer's give and take)


# the members looked up once: an enum class's attribute lookup is slow in Python 3.11, and
# parsing and numbering moves ask for them all the time
_CHARACTER, _CARD, _CARD_OR_HAND, _NAVCARD, _PILE, _SIDE, _OFFER, _CARDS = (
    Domain.CHARACTER, Domain.CARD, Domain.CARD_OR_HAND, Domain.NAVCARD, Domain.PILE, Domain.SIDE,
    Domain.OFFER, Domain.CARDS)
_SIDES = (Side.ATTACKER.value, Side.DEFENDER.value)


@attrs.frozen(slots=True)
class Param:
    """A field of an action.

    ``optional``: the field may be left out. ``alias``: leaving it out means the value
    ``default(game, by, values)`` picks (the first such card...): listed moves always give it.
    Otherwise a left-out optional field is a value of its own (None), listed as such.
    ``source(game, by, values)``: the card lists a kind id is looked up in, in order (R-SPEC-1:
    hand first, then in front), and in which a card's integer is its place (``ActionSpace``).
    ``actor_source``: ``source`` depends on the actor alone, not on the values before it (so
    the places are worked out once per listing).
    """
    name: str
    domain: Domain
    optional: bool = False
    alias: bool = False
    default: Callable | None = None
    source: Callable | None = None
    actor_source: bool = False


@attrs.frozen(slots=True)
class ActionType:
    """One action type (see the module docstring). ``kinds``: the decision kinds whose stage
    offers it, or ``(FREE,)``. ``ghost``: a lost character's player may take it (R-SHARK-2).
    ``open``: its forms cannot all be listed (trade offers): ``moves`` lists the canonical ones
    (single-card gifts) and the integer space encodes only those. ``settle(game, stake)``
    carries out a stake this type started once it is allowed or won (R-FIGHT-4). ``private``:
    parameters only the actor may see in the log.
    ``available(game, stage, by)``: optional, whether ``moves`` lists anything, answered
    faster (a window asks it of everyone after every action); tests/test_legality.py checks
    that it agrees with ``moves``. ``windows`` (a free type only): the decision kinds of the
    windows in which some of its moves are window actions (R-WIN-1), and
    ``window_action(game, window, by, values)`` says which (a fighter's drink of Liquid
    Courage); such a move is listed and taken as the window's action there (R-WIN-2).
    ``may(game, window, by)`` (a window's own type) and ``window_may(game, window, by)`` (a
    free type in ``windows``): whether, as far as every player can tell, ``by`` may take it
    there, from public facts alone (R-WIN-2: who is pending is public); leave it None when the
    type needs nothing hidden (its ``available``/``moves`` then answer). A type that needs a
    hand card must give it, or who is pending tells who holds what."""
    name: str
    rule: str
    check: Callable[..., Refusal | None]
    moves: Callable[..., Iterable[tuple]]
    resolve: Callable[..., None]
    params: tuple = ()
    kinds: tuple = ()
    ghost: bool = False
    open: bool = False
    settle: Callable | None = None
    private: tuple = ()
    available: Callable | None = None
    windows: tuple = ()
    window_action: Callable | None = None
    may: Callable | None = None
    window_may: Callable | None = None

    @property
    def free(self) -> bool:
        return FREE in self.kinds


@attrs.frozen(slots=True)
class Effect:
    """A special-action effect kind (R-SPEC-1); a provision names it in ``special.effect``.

    ``targets(game, user, card)``: the legal targets now, character ids, or ``[None]`` for an
    effect without a target (``[]``: it cannot be used now). ``resolve(game, user, card,
    target)`` carries it out while the card is still where it was.
    """
    name: str
    rule: str
    targets: Callable[..., list]
    resolve: Callable[..., None]


# --------------------------------------------------------------------------- parsing

class Malformed(Exception):
    """An action dict that is not of its type's shape (rule ``API``): ``field`` and ``value``
    as in ``Refusal`` (for a list field, the item at fault)."""

    def __init__(self, message: str, field: str | None = None, value: object = None):
        super().__init__(message)
        self.refusal = Refusal("API", message, field, value)


def _text(value) -> bool:
    return type(value) is str and 0 < len(value) <= MAX_TEXT


def parse(game, action) -> tuple[ActionType, str, tuple]:
    """``(type, by, values)`` of an action dict; kind ids and left-out alias fields resolved to
    the card they mean. Raises ``Malformed`` for what is not an action of this game."""
    rules = game.rules
    state = game.state
    if type(action) is not dict:
        raise Malformed(f"an action is a mapping with 'by' and 'type', not {type(action).__name__}",
                        None)
    kind = action.get("type")
    if kind is None:
        raise Malformed("the action has no 'type'", "type", None)
    atype = rules.types.get(kind) if type(kind) is str else None
    if atype is None:
        close = difflib.get_close_matches(kind, list(rules.types), n=1) if type(kind) is str else []
        meant = f"did you mean {close[0]!r}? " if close else ""
        raise Malformed(f"unknown action type {short(kind)} ({meant}known: {', '.join(sorted(rules.types))})",
                        "type", kind)
    by = action.get("by")
    if by is None:
        raise Malformed("the action has no 'by' (the character taking it)", "by", None)
    if type(by) is not str or by not in state.characters:
        raise Malformed(f"unknown character {short(by)} (in play: {', '.join(state.characters)})", "by", by)
    params = atype.params
    if not rules.fields[kind].issuperset(action):
        for key in action:
            if key != "by" and key != "type" and not any(p.name == key for p in params):
                fields = ", ".join(p.name for p in params) or "none"
                raise Malformed(f"{kind} has no field {short(key)} (fields: {fields})", key, action[key])
    values: list = []
    for param in params:
        if param.name not in action:
            if not param.optional:
                raise Malformed(f"{kind} needs the field {param.name!r}", param.name, None)
            values.append(param.default(game, by, values) if param.alias else None)
            continue
        values.append(_parse_value(game, atype, param, by, action[param.name], values))
    return atype, by, tuple(values)


def _parse_value(game, atype, param: Param, by: str, raw, values: list):
    state = game.state
    domain = param.domain
    where = f"{atype.name}.{param.name}"
    if domain is _PILE or domain is _CARDS:
        if type(raw) is not list or len(raw) > MAX_LIST or not all(_text(v) for v in raw):
            raise Malformed(f"{where} must be a list of card ids, not {short(raw)}", param.name, raw)
        for ref in raw:
            if domain is _CARDS and not (ref in game.rules.content.provisions or card_id_ok(ref)):
                # any id is taken: whether a card has it now is not for the actor to learn
                raise Malformed(f"unknown card {short(ref)} (a card id or a provision kind)",
                                param.name, ref)
            if domain is _PILE and ref not in state.table.navcards:
                raise Malformed(f"unknown navigation card {short(ref)}", param.name, ref)
        if domain is _PILE and len(set(raw)) == len(raw) and all(c in state.drawn for c in raw):
            return [c for c in state.drawn if c in raw]   # any order: the cards go in the order drawn
        return list(raw)
    if not _text(raw):
        raise Malformed(f"{where} must be a short string, not {short(raw)}", param.name, raw)
    if domain is _CHARACTER:
        if raw not in state.characters:
            raise Malformed(f"unknown character {short(raw)}", param.name, raw)
        return raw
    if domain is _SIDE:
        if raw not in _SIDES:
            raise Malformed("side must be 'attacker' or 'defender'", param.name, raw)
        return raw
    if domain is _NAVCARD:
        if raw not in state.table.navcards:
            raise Malformed(f"unknown navigation card {short(raw)}", param.name, raw)
        return raw
    if domain is _OFFER:
        return raw
    if domain is _CARD_OR_HAND and raw == "hand":
        return raw
    # a card: an instance id, or a kind meaning the first such card where it is taken from
    kinds = state.table.kinds
    if raw in kinds:
        return raw
    if raw not in game.rules.content.provisions:
        if card_id_ok(raw):
            # an id no card has now is refused by the type's check as any card that is not
            # where the action takes it from: that a card no longer has an id, or never had
            # it, is not for the actor to learn (docs/api.md, Card ids)
            return raw
        close = difflib.get_close_matches(raw, list(game.rules.content.provisions), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""   # a misspelt kind, most likely
        raise Malformed(f"unknown card {short(raw)} (a card id or a provision kind){hint}",
                        param.name, raw)
    if param.source is not None:
        for zone in param.source(game, by, values):
            for card in zone:
                if kinds[card] == raw:
                    return card
    return raw   # no such card there: the type's check refuses it


def action_dict(atype: ActionType, by: str, values: tuple) -> "Action":
    """The canonical action dict of a move."""
    action = {"by": by, "type": atype.name}
    for param, value in zip(atype.params, values):
        if value is not None:
            action[param.name] = value[:] if type(value) is list else value
    return action


def compile_builder(atype: ActionType):
    """``action_dict`` for one type as a straight-line function (``legal_actions`` builds
    one dict per listed move)."""
    params = atype.params
    names = [f"v{i}" for i in range(len(params))]
    lines = ["def build(by, values):"]
    if names:
        lines.append(f"    {', '.join(names)}{',' if len(names) == 1 else ''} = values")
    fixed = ["'by': by", f"'type': {atype.name!r}"]
    later = []
    for param, var in zip(params, names):
        listed = param.domain in (Domain.PILE, Domain.CARDS)
        value = f"{var}[:]" if listed else var
        if param.optional:
            later.append(f"    if {var} is not None: action[{param.name!r}] = {value}")
        else:
            fixed.append(f"{param.name!r}: {value}")
    lines.append("    action = {" + ", ".join(fixed) + "}")
    lines.extend(later)
    lines.append("    return action")
    namespace: dict = {}
    exec(compile("\n".join(lines), f"<lifeboat_rules builder {atype.name}>", "exec"), {}, namespace)
    return namespace["build"]


def first_card(zones: Iterable[list], kinds: dict, wanted: Callable[[str], bool]) -> str | None:
    """The first card of ``zones`` (in order) whose kind ``wanted`` accepts."""
    for zone in zones:
        for card in zone:
            if wanted(kinds[card]):
                return card
    return None


# --------------------------------------------------------------------------- integer actions

@attrs.frozen(slots=True)
class Block:
    """Where one action type's moves lie in the integer action space."""
    atype: ActionType
    offset: int
    sizes: tuple            # per parameter: how many values (None included where it is one)

    @property
    def size(self) -> int:
        total = 1
        for size in self.sizes:
            total *= size
        return total


class ActionSpace:
    """The fixed integer action space of one ruleset (docs/api.md: ``num_actions``...).

    Every move of a type is a mixed-radix number over its parameters' values: a character by
    its place in the ruleset's characters, a card by its place among the cards the action
    takes it from now (``Param.source``: the actor's hand then its face-up cards, the cards
    being passed, the target's face-up cards...; never by anything that stays with the card,
    docs/api.md), a navigation card by its place in the game's navigation cards, a pile as a bit mask over the cards drawn, an offer by
    (offerer, rank among that offerer's open offers to you). A game whose setup has more cards
    than the ruleset's content (an explicit position) gets a space of its own size.
    """

    MAX_ACTIONS = 65_536

    def __init__(self, types: Iterable[ActionType], characters: tuple, cards: int, navcards: int,
                 max_drawn: int):
        self.characters = characters
        self.character_index = {c: i for i, c in enumerate(characters)}
        self.cards = cards
        self.navcards = navcards
        self.max_drawn = max_drawn
        self.blocks: dict[str, Block] = {}
        offset = 0
        for atype in types:
            sizes = tuple(self._size(atype, p) for p in atype.params)
            block = Block(atype, offset, sizes)
            self.blocks[atype.name] = block
            offset += block.size
        self.size = offset
        self.encoders = {name: self._compile(block) for name, block in self.blocks.items()}
        self.numberers = {name: self._compile(block, many=True)
                          for name, block in self.blocks.items()}
        if offset > self.MAX_ACTIONS:
            raise ValueError(f"the integer action space would have {offset} actions; at most "
                             f"{self.MAX_ACTIONS} (fewer cards, characters or rowing draws)")
        self._blocks_in_order = [b for b in self.blocks.values() if b.size]
        self._offsets = [b.offset for b in self._blocks_in_order]

    def _size(self, atype: ActionType, param: Param) -> int:
        domain = param.domain
        if atype.open:   # canonical offers: one card given, nothing taken
            sizes = {Domain.CHARACTER: len(self.characters), Domain.CARDS: self.cards}
            return sizes[domain] if param.name != "take" else 1
        size = {
            Domain.CHARACTER: len(self.characters),
            Domain.CARD: self.cards,
            Domain.CARD_OR_HAND: self.cards + 1,
            Domain.NAVCARD: self.navcards,
            Domain.PILE: 1 << self.max_drawn,
            Domain.SIDE: 2,
            Domain.OFFER: len(self.characters) * MAX_OPEN_OFFERS,
        }[domain]
        return size + 1 if param.optional and not param.alias else size

    def _compile(self, block: Block, many: bool = False):
        """A straight-line encoder of one type's canonical moves (for ``legal_ids``): the
        same numbers as ``encode``, without its checks (a listed move needs none).
        ``many``: ``number(game, by, atype, listed, out)`` puts ``out[integer] = (atype,
        values)`` for each values of ``listed`` instead. A card's place among the cards it
        is taken from is looked up once per values before it (``places``)."""
        atype = block.atype
        names = [f"v{i}" for i in range(len(atype.params))]
        number = "0"
        memos = []       # (memo name, key expression, source index, values before it)
        sources = []
        for index, (param, size, var) in enumerate(zip(atype.params, block.sizes, names)):
            domain = param.domain
            if domain in (Domain.CARD, Domain.CARD_OR_HAND, Domain.CARDS):
                memo = f"p{index}"
                if param.source is None or param.actor_source:
                    # the same places for every move listed: worked out once (key None)
                    memos.append((memo, None, len(sources), ""))
                else:
                    before = [f"tuple({n})" if atype.params[i].domain in (Domain.PILE, Domain.CARDS)
                              else n for i, n in enumerate(names[:index])]
                    key = f"({', '.join(before)}{',' if len(before) == 1 else ''})"
                    memos.append((memo, key, len(sources), ", ".join(names[:index])))
                sources.append(_source_of(param))
            if atype.open:
                digit = f"{memo}[{var}[0]]" if param.name == "give" else (
                    "0" if param.name == "take" else f"ci[{var}]")
            elif domain is Domain.CHARACTER:
                digit = f"ci[{var}]"
            elif domain is Domain.CARD:
                digit = f"{memo}[{var}]"
            elif domain is Domain.CARD_OR_HAND:
                digit = f"(0 if {var} == 'hand' else {memo}[{var}] + 1)"
            elif domain is Domain.NAVCARD:
                digit = f"nav_index[{var}]"
            elif domain is Domain.SIDE:
                digit = f"(0 if {var} == 'attacker' else 1)"
            elif domain is Domain.PILE:
                digit = f"pile_mask(state.drawn, {var})"
            elif domain is Domain.OFFER:
                digit = f"offer_slot(state, by, {var})"
            else:  # pragma: no cover
                raise ValueError(domain)
            if param.optional and not param.alias:
                digit = f"(0 if {var} is None else {digit} + 1)"
            if size == 1 and digit == "0":
                continue   # a digit that is always 0 (an offer's canonical take)
            number = f"({number}) * {size} + {digit}" if number != "0" else digit
        unpack = f"{', '.join(names)}{',' if len(names) == 1 else ''} = values" if names else ""

        def lookups(indent: str) -> list:
            out = []
            for memo, key, source, before in memos:
                if key is None:
                    continue
                prior = f"({before}{',' if before.count(',') == 0 and before else ''})"
                out.append(f"{indent}{memo} = memo{source}.get({key})")
                out.append(f"{indent}if {memo} is None:")
                out.append(f"{indent}    {memo} = memo{source}[{key}] = dict(zip(chain_from("
                           f"source{source}(game, by, {prior if before else '()'})), count()))")
            return out

        head = ["    state = game.state", "    nav_index = state.table.nav_index"]
        for memo, key, source, _ in memos:
            head.append(f"    {memo} = dict(zip(chain_from(source{source}(game, by, ())), count()))"
                        if key is None else f"    memo{source} = {{}}")
        if many:
            lines = ["def number(game, by, atype, listed, out):", *head,
                     "    for values in listed:"]
            if unpack:
                lines.append(f"        {unpack}")
            lines += lookups("        ")
            lines.append(f"        out[{block.offset} + {number}] = (atype, values)")
        else:
            lines = ["def encode(game, by, values):", *head]
            if unpack:
                lines.append(f"    {unpack}")
            lines += lookups("    ")
            lines.append(f"    return {block.offset} + {number}")
        namespace: dict = {}
        env = {"ci": self.character_index, "pile_mask": _pile_mask,
               "chain_from": chain.from_iterable, "count": count,
               "offer_slot": lambda state, by, offer_id: self._offer_slot(state.offers, by, offer_id)}
        env.update({f"source{i}": source for i, source in enumerate(sources)})
        name = "numberer" if many else "encoder"
        exec(compile("\n".join(lines), f"<lifeboat_rules {name} {atype.name}>", "exec"), env,
             namespace)
        return namespace["number" if many else "encode"]

    # values <-> digits

    def encode(self, game, by: str, atype: ActionType, values: tuple) -> int | None:
        """The integer of a move, or None when it has none (a richer trade offer, a card
        that is not where the action takes it from)."""
        block = self.blocks[atype.name]
        number = 0
        for index, (param, size, value) in enumerate(zip(atype.params, block.sizes, values)):
            digit = self._digit(game, by, atype, param, value, values[:index])
            if digit is None or not 0 <= digit < size:
                return None
            number = number * size + digit
        return block.offset + number

    def _digit(self, game, by, atype, param, value, before):
        none_slot = param.optional and not param.alias
        if value is None:
            return 0 if none_slot else None
        shift = 1 if none_slot else 0
        domain = param.domain
        table = game.state.table
        if domain is _CHARACTER:
            index = self.character_index.get(value)
        elif domain is _CARD:
            index = _places(game, by, _source_of(param), before).get(value)
        elif domain is _CARD_OR_HAND:
            if value == "hand":
                index = 0
            else:
                place = _places(game, by, _source_of(param), before).get(value)
                index = None if place is None else place + 1
        elif domain is _NAVCARD:
            index = table.nav_index.get(value)
        elif domain is _SIDE:
            index = 0 if value == _SIDES[0] else 1
        elif domain is _PILE:
            drawn = game.state.drawn
            index = 0
            for card in value:
                if card not in drawn:
                    return None
                index |= 1 << drawn.index(card)
        elif domain is _OFFER:
            index = self._offer_slot(game.state.offers, by, value)
        elif domain is _CARDS:
            if param.name == "take":
                return 0 if value == [] else None
            index = (_places(game, by, _source_of(param), before).get(value[0])
                     if len(value) == 1 and type(value[0]) is str else None)
        else:  # pragma: no cover
            return None
        return None if index is None else index + shift

    def _offer_slot(self, offers, by, offer_id):
        rank: dict = {}
        for offer in offers:
            if offer.to == by:
                place = rank.get(offer.by, 0)
                if offer.id == offer_id:
                    if place >= MAX_OPEN_OFFERS:
                        return None
                    return self.character_index[offer.by] * MAX_OPEN_OFFERS + place
                rank[offer.by] = place + 1
        return None

    def decode(self, game, by: str, number: int) -> tuple[ActionType, tuple] | None:
        """The move an integer stands for now, or None if it stands for none."""
        if type(number) is not int or not 0 <= number < self.size:
            return None
        block = self._blocks_in_order[bisect_right(self._offsets, number) - 1]
        atype = block.atype
        rest = number - block.offset
        digits = []
        for size in reversed(block.sizes):
            digits.append(rest % size)
            rest //= size
        digits.reverse()
        values = []
        for param, digit in zip(atype.params, digits):
            value = self._value(game, by, atype, param, digit, tuple(values))
            if value is _NOTHING:
                return None
            values.append(value)
        return atype, tuple(values)

    def _value(self, game, by, atype, param, digit, before):
        if param.optional and not param.alias:
            if digit == 0:
                return None
            digit -= 1
        domain = param.domain
        state = game.state
        if domain is _CHARACTER:
            value = self.characters[digit]
            return value if value in state.characters else _NOTHING
        if domain is _CARD or domain is _CARD_OR_HAND:
            if domain is _CARD_OR_HAND:
                if digit == 0:
                    return "hand"
                digit -= 1
            cards = _cards_of(game, by, _source_of(param), before)
            return cards[digit] if digit < len(cards) else _NOTHING
        if domain is _NAVCARD:
            ids = state.table.nav_ids
            return ids[digit] if digit < len(ids) else _NOTHING
        if domain is _SIDE:
            return _SIDES[0] if digit == 0 else _SIDES[1]
        if domain is _PILE:
            drawn = state.drawn
            if digit >> len(drawn):
                return _NOTHING
            return [card for i, card in enumerate(drawn) if digit >> i & 1]
        if domain is _OFFER:
            offerer = self.characters[digit // MAX_OPEN_OFFERS]
            place = digit % MAX_OPEN_OFFERS
            mine = [o for o in state.offers if o.to == by and o.by == offerer]
            return mine[place].id if place < len(mine) else _NOTHING
        if domain is _CARDS:
            if param.name == "take":
                return []
            cards = _cards_of(game, by, _source_of(param), before)
            return [cards[digit]] if digit < len(cards) else _NOTHING
        return _NOTHING  # pragma: no cover


_NOTHING = object()


def _own_cards(game, by: str, values=None) -> tuple:
    """Where a card parameter without a ``source`` is taken from: the actor's hand, then the
    cards face up in front of it (a trade offer's gift: its hand)."""
    character = game.state.characters[by]
    return (character.hand, character.front)


def _source_of(param: Param) -> Callable:
    return param.source if param.source is not None else _own_cards


def _cards_of(game, by: str, source: Callable, before: tuple) -> list:
    """The cards a card parameter is taken from, in order (hand first, then in front...)."""
    zones = source(game, by, before) if by in game.state.characters else ()
    if len(zones) == 1:
        return zones[0]
    return list(chain.from_iterable(zones))


def _places(game, by: str, source: Callable, before: tuple) -> dict:
    """``{card: its place}`` among the cards a card parameter is taken from: the integer
    of a move names a card by its place there, never by anything that stays with the card
    (docs/api.md: ids never let a player follow a card it saw)."""
    cards = _cards_of(game, by, source, before)
    return dict(zip(cards, range(len(cards))))


def _pile_mask(drawn: list, pile: list) -> int:
    mask = 0
    for card in pile:
        mask |= 1 << drawn.index(card)
    return mask

