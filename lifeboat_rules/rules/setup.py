"""Setup (R-SETUP-1..6) and the order of the phases of a round.

``deal`` deals a game at random from a seed; ``position`` builds an explicit position (a
scenario's ``setup``, docs/scenarios.md), checking every name in it.
"""

from __future__ import annotations

from typing import Mapping

from ..content import NavigationCard, did_you_mean, named_characters
from ..hookspecs import hookimpl
from ..plugins import defined_somewhere
from ..records import Phase
from ..rng import Rng, card_key, seed_state
from ..rng import card_id as made_id
from ..state import Character, State, Table
from ..validation import check_def, raise_problems
from . import navigation, supply, turn


@hookimpl(trylast=True)
def lifeboat_phases():
    """Supply, action, navigation, in that order (section P)."""
    return [(Phase.SUPPLY, supply.begin_supply), (Phase.ACTION, turn.begin_action),
            (Phase.NAVIGATION, navigation.begin_navigation)]


def _character(content, who: str) -> Character:
    info = content.characters[who]
    return Character(id=who, size=info.size, survival=info.survival)


def deal(ruleset, players: int, seed: int) -> State:
    """A dealt game (R-SETUP-1..6)."""
    content = ruleset.content
    low, high = content.setup["players"]["min"], content.setup["players"]["max"]
    if type(players) is not int or not low <= players <= high:
        raise ValueError(f"R-SETUP-1: {ruleset.name} is for {low} to {high} players, not {players!r}")
    rng = Rng(seed_state(seed))
    pool = list(content.characters)
    rng.shuffle(pool)                                             # R-SETUP-2
    in_play = [c for c in content.characters if c in pool[:players]]   # R-SETUP-6: seat order
    characters = {who: _character(content, who) for who in in_play}
    loves, hates = in_play[:], in_play[:]                         # R-SETUP-4
    rng.shuffle(loves)
    rng.shuffle(hates)
    for who, love, hate in zip(in_play, loves, hates):
        characters[who].love = love
        characters[who].hate = hate
    deck = [kind for kind, info in content.provisions.items() for _ in range(info.count)]
    rng.shuffle(deck)
    # every card gets a made id, not a number: an id must not tell where it was dealt
    key = card_key(seed)
    ids = [made_id(key, serial) for serial in range(len(deck))]
    removed_count = content.removed_provisions(players)           # R-SETUP-3
    removed, rest = ids[:removed_count], ids[removed_count:]
    hand_size = content.setup["starting_hand"]                    # R-SETUP-5
    for who in in_play:
        characters[who].hand = rest[:hand_size]
        rest = rest[hand_size:]
    navigation_deck = list(content.navigation)
    rng.shuffle(navigation_deck)                                  # R-SETUP-6
    table = Table(dict(zip(ids, deck)), dict(content.navigation))
    return State(table=table, characters=characters, seats=in_play[:], supply=rest,
                 removed=removed, navigation=navigation_deck, rng=rng.state, card_key=key,
                 card_serial=len(deck))


def position(ruleset, setup: Mapping, seed: int = 0, where: str = "<setup>") -> tuple[State, Phase]:
    """An explicit position and the phase that begins. Every name is checked; a problem is a
    ``ContentError`` naming the place."""
    check_def("scenario", "setup", setup, where, prefix="setup")
    content = ruleset.content
    problems: list = []

    def problem(path, message):
        problems.append((f"setup.{path}", message))

    seats = list(setup["seats"])
    lost = list(setup.get("lost", []))
    for index, who in enumerate(seats + lost):
        key = f"seats[{index}]" if index < len(seats) else f"lost[{index - len(seats)}]"
        if who not in content.characters:
            problem(key, f"unknown character {who!r}; {did_you_mean(str(who), content.characters)}")
    first_place: dict = {}
    for index, who in enumerate(seats + lost):   # one character to a seat, one seat each
        key = f"seats[{index}]" if index < len(seats) else f"lost[{index - len(seats)}]"
        if who in first_place:
            problem(key, f"{who!r} is named twice (also at setup.{first_place[who]}): one seat "
                         "holds one character, and a character has one seat or is lost")
        else:
            first_place[who] = key
    in_play = seats + [c for c in lost if c not in seats]
    if len(in_play) < 2:
        problem("seats", "a position needs at least 2 characters in play")

    def known_char(path, who, on_board=False):
        if who not in in_play:
            problem(path, f"{who!r} is not a character in play")
        elif on_board and who not in seats:
            problem(path, f"{who!r} is not on board")

    for who, amount in setup.get("damage", {}).items():
        known_char(f"damage.{who}", who)
        if amount < 0:
            problem(f"damage.{who}", "damage is never negative")
    for key in ("love", "hate"):
        for who, other in setup.get(key, {}).items():
            known_char(f"{key}.{who}", who)
            known_char(f"{key}.{who}", other)
    for key in ("hand", "front"):
        for who, cards in setup.get(key, {}).items():
            known_char(f"{key}.{who}", who, on_board=True)
            for index, kind in enumerate(cards):
                if kind not in content.provisions:
                    problem(f"{key}.{who}[{index}]", f"unknown provision {kind!r}; "
                                                          f"{did_you_mean(str(kind), content.provisions)}")
    for key in ("supply", "discard"):
        for index, kind in enumerate(setup.get(key, [])):
            if kind not in content.provisions:
                problem(f"{key}[{index}]", f"unknown provision {kind!r}; "
                                           f"{did_you_mean(str(kind), content.provisions)}")
    for key in ("rowed", "fought", "active_parasol"):
        for index, who in enumerate(setup.get(key, [])):
            known_char(f"{key}[{index}]", who, on_board=True)
    navcards: dict = {}
    decks: dict = {}
    for key in ("navigation", "rowing_pile"):
        ids = []
        for index, entry in enumerate(setup.get(key, [])):
            if isinstance(entry, str):
                card_id = entry
                if card_id not in content.navigation:
                    problem(f"{key}[{index}]", f"unknown navigation card {card_id!r}; "
                                               f"{did_you_mean(card_id, content.navigation)}")
                    continue
                card = content.navigation[card_id]
            else:
                card_id = entry["id"]
                card = NavigationCard.from_data(card_id, entry)
                for place, who in named_characters(entry):   # a misspelt id is no character
                    if who not in content.characters and not defined_somewhere(who):
                        problem(f"{key}[{index}].{place}", f"no loaded content defines a "
                                f"character {who!r}; {did_you_mean(who, content.characters)}")
                for side in ("overboard", "thirst"):
                    marked = getattr(card, side).marked
                    if marked is not None and marked not in ruleset.rules.markers:
                        problem(f"{key}[{index}].{side}", f"unknown marker {marked!r}")
            if card_id in navcards:
                problem(f"{key}[{index}]", f"navigation card {card_id!r} is there twice")
                continue
            navcards[card_id] = card
            ids.append(card_id)
        decks[key] = ids
    limit = content.setup["seagulls_to_land"]
    seagulls = setup.get("seagulls", 0)
    if seagulls >= limit:
        problem("seagulls", f"at most {limit - 1} seagulls can be on the table")
    kinds: dict = {}
    key = card_key(seed)
    made = []

    def make(kind, in_hand=False):
        # cards are numbered p1, p2... in the order the position lists them, but a card in a
        # hand gets a made id, as any card does that goes into a hand (docs/api.md)
        card = f"p{len(kinds) + 1}"
        if in_hand:
            card = made_id(key, len(made))
            made.append(card)
        kinds[card] = kind
        return card

    # characters in the ruleset's order, as in a dealt game and a restored one
    characters = {who: _character(content, who) for who in content.characters if who in in_play}
    if not problems:
        for who in lost:
            characters[who].lost = True
            characters[who].ghost = True   # their players remain, as ghosts
        for who, amount in setup.get("damage", {}).items():
            characters[who].damage = amount
        for who, other in setup.get("love", {}).items():
            characters[who].love = other
        for who, other in setup.get("hate", {}).items():
            characters[who].hate = other
        for who in seats:
            characters[who].hand = [make(k, in_hand=True) for k in setup.get("hand", {}).get(who, [])]
            characters[who].front = [make(k) for k in setup.get("front", {}).get(who, [])]
        for who in setup.get("rowed", []):
            characters[who].markers.append("rowed")
        for who in setup.get("fought", []):
            characters[who].markers.append("fought")
        parasols = ruleset.rules.parasol_kinds
        for index, who in enumerate(setup.get("active_parasol", [])):
            if not any(kinds[c] in parasols for c in characters[who].front):
                problem(f"active_parasol[{index}]", f"{who} has no parasol face up to be open")
            elif "parasol" not in characters[who].markers:
                characters[who].markers.append("parasol")
    if problems:
        raise_problems(problems, where)
    supply_cards = [make(k) for k in setup.get("supply", [])]
    discard = [make(k) for k in setup.get("discard", [])]
    state = State(table=Table(kinds, navcards), characters=characters, seats=seats,
                  supply=supply_cards, discard=discard, navigation=decks["navigation"],
                  rowing_pile=decks["rowing_pile"], round=setup.get("round", 1),
                  seagulls=seagulls, rng=seed_state(seed), card_key=key, card_serial=len(made))
    return state, Phase(setup.get("phase", "supply"))

