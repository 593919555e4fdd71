"""Fuzzing the boundary (issue #4): what a client or a storage layer hands the engine.

* Actions: random and mutated actions (wrong types, unknown ids, huge strings, nested junk,
  values that are not JSON, valid actions from the wrong player or the wrong moment) only ever
  raise ``IllegalAction`` and leave the game byte for byte unchanged; an action that is
  accepted was legal.
* Saved games: mutated ``to_dict`` data is refused by ``from_dict`` with a ``ContentError``,
  or, if accepted, is a game that keeps every invariant and can be played on; ``from_dict``
  never changes what it is given; data that is not JSON at all (sets, objects, NaN, huge
  integers, cycles, deep nesting) is refused with a ``ContentError``, in bounded time.

Positions are taken from random games of every ruleset of ``test_invariants`` (every stage
kind: picks, turns, answers, placing, navigating, each window, game over).
"""

from __future__ import annotations

import copy
import functools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lifeboat_rules as lr
from lifeboat_rules import ContentError, Game, IllegalAction
from lifeboat_rules.bots import RandomPlayer

import invariants as inv

ACTION_CASES = inv.budget(600, 50_000)
SAVE_CASES = inv.budget(300, 20_000)
NON_JSON_CASES = inv.budget(150, 10_000)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])
SPECS = inv.ruleset_specs()     # every one must load: one that does not fails here


@functools.lru_cache(maxsize=None)
def positions() -> tuple:
    """Saved games (JSON text) at every kind of moment, from random games of every ruleset."""
    found = []
    for index, spec in enumerate(SPECS):
        for game_number in range(2):
            seed = 1000 * index + game_number
            rnd = random.Random(seed)
            ruleset = inv.load(spec, inv.random_options(rnd))
            players = list(ruleset.players)[seed % len(ruleset.players)]
            game = lr.new_game(ruleset, players=players, seed=seed)
            bot = RandomPlayer(seed, free_rate=0.15)
            seen = set()
            actions = 0
            while not game.over:
                kind = game.pending[0].kind
                if kind not in seen or actions % 20 == 0:
                    seen.add(kind)
                    found.append(json.dumps(game.to_dict()))
                game.apply(bot.act(game))
                actions += 1
            found.append(json.dumps(game.to_dict()))
    return tuple(found)


def restore(index: int) -> Game:
    texts = positions()
    return Game.from_dict(json.loads(texts[index % len(texts)]))


def live() -> int:
    """The index of a position of a game that is not over."""
    return next(i for i, text in enumerate(positions()) if not json.loads(text)["state"]["over"])


class Str(str):
    """A string that is not exactly a str (what a careless client library could send)."""


class AlwaysEqual(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class Weird:
    def __repr__(self):
        raise RuntimeError("repr of a hostile object")

    def __eq__(self, other):
        raise RuntimeError("comparison of a hostile object")

    __hash__ = object.__hash__


def _recursive_list():
    value = []
    value.append(value)
    return value


def _recursive_dict():
    value = {"type": "pass"}
    value["self"] = value
    return value


def _deep(levels: int):
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


# values JSON cannot carry (or that make no sense in JSON text): refused wherever they are
NOT_JSON = [set(), {"the_kid"}, frozenset(), ("pass",), b"pass", bytearray(b"x"), object(),
            Weird(), float("nan"), float("inf"), -float("inf"), 10 ** 5000, -(10 ** 5000),
            Str("the_kid"), Str("pass"), AlwaysEqual("x"), _recursive_list(),
            _recursive_dict(), _deep(500), "\ud800", "a\udfffb", range(3), complex(1, 2),
            Ellipsis, NotImplemented, type, print]
# JSON, but odd: accepted or refused, never a crash
ODD_JSON = [2 ** 64, -(2 ** 63), 1.5, -0.0, 1e308, "x" * 1_000_000, "\x00", "", [], {},
            [[[[]]]], {"": None}, "\u202e", "nav-01\n"]
# too deep for any repr (Hypothesis's reports included): tried in plain tests below
TOO_DEEP = [_deep(50_000), {"type": "pass", "by": _deep(50_000)}]

json_leaf = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
             | st.sampled_from(["the_kid", "lady_lauren", "dr_harter", "p1", "p12", "water",
                                "hand", "pass", "row", "nav-22", "o1", "attacker", ""]))
json_junk = st.recursive(json_leaf, lambda inner: st.lists(inner, max_size=4)
                         | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                         max_leaves=12)
anything = json_junk | st.sampled_from(NOT_JSON + ODD_JSON)
FIELDS = ["by", "type", "card", "target", "pile", "to", "give", "take", "offer", "side", "x"]


@st.composite
def actions(draw, game: Game):
    """An action for ``game``: junk, a dict of known fields with odd values, a mutated listed
    action, or a listed action of another moment or another player."""
    state = game.state
    way = draw(st.integers(0, 5))
    listed = [a for who in state.characters for a in game.legal_actions(who)]
    ids = list(state.characters) + list(state.table.kinds) + sorted(game.rules.content.provisions) \
        + list(state.table.navcards) + sorted(game.rules.types)
    if way == 0:
        return draw(anything)
    if way == 1:
        action = {}
        for field in draw(st.lists(st.sampled_from(FIELDS), max_size=5)):
            action[field] = draw(st.sampled_from(ids) | anything)
        return action
    if way == 2 and listed:
        action = dict(draw(st.sampled_from(listed)))
        rnd = random.Random(draw(st.integers(0, 2 ** 32)))
        return rnd.choice(inv._mutations(game, action, rnd))
    if way == 3 and listed:
        action = dict(draw(st.sampled_from(listed)))
        key = draw(st.sampled_from(sorted(action)))
        action[key] = draw(anything)
        return action
    if way == 4:
        other = restore(draw(st.integers(0, 10 ** 6)))
        elsewhere = [a for who in other.state.characters for a in other.legal_actions(who)]
        if elsewhere:
            return dict(draw(st.sampled_from(elsewhere)))
    if listed:
        action = dict(draw(st.sampled_from(listed)))
        action["by"] = draw(st.sampled_from(list(state.characters)))
        return action
    return draw(anything)


def _check_offer_allowed(prior: Game, action: dict, events: list) -> None:
    """An accepted trade offer (an open-ended type: only its canonical forms are listed) is
    one R-TRADE-1 allows, worked out from the state before it: the action phase with no fight
    under way (R-FIGHT-2), an awake offerer on board, another awake character on board to
    offer to, at least one card, the cards given held by the offerer (an id, or a kind of
    which it holds one more); and it is recorded as it was made, the cards given by kind."""
    state = prior.state
    assert action["type"] == "offer", f"no rule here for the open type {action['type']!r}"
    assert state.phase == "action", f"an offer in the {state.phase} phase (R-TRADE-1)"
    assert not any(stage.KIND == "fight" for stage in state.stack), "an offer during a fight (R-FIGHT-2)"
    chars = state.characters
    by, to, give, take = action["by"], action["to"], action["give"], action["take"]
    assert by in state.seats and chars[by].awake, f"{by} may not trade"
    assert to != by and to in state.seats and chars[to].awake, f"an offer to {to}"
    assert len(give) + len(take) > 0, "an offer of nothing"
    held = list(chars[by].hand)
    kinds = state.table.kinds
    shown = []
    for ref in give:
        card = ref if ref in held else next((c for c in held if kinds[c] == ref), None)
        assert card is not None, f"{by} offers {ref}, which it does not hold"
        held.remove(card)
        shown.append(kinds[card])
    # the offer shows the kinds of what it gives, not their ids (R-TRADE-1, docs/api.md)
    made = [e for e in events if e["type"] == "offer"]
    assert len(made) == 1 and (made[0]["from"], made[0]["to"], made[0]["give"], made[0]["take"]) \
        == (by, to, shown, take), f"{action} recorded as {made}"


@pytest.mark.slow
@settings(max_examples=ACTION_CASES, **SETTINGS)
@given(data=st.data(), index=st.integers(0, 10 ** 6))
def test_any_action_is_applied_whole_or_refused_without_a_trace(data, index):
    game = restore(index)
    action = data.draw(actions(game), label="action")
    before = inv.fingerprint(game)
    prior = game.clone()
    legal = {who: game.legal_actions(who) for who in game.state.characters}
    try:
        events = game.apply(action)
    except IllegalAction as exc:
        assert str(exc), "a refusal says why"
        assert inv.fingerprint(game) == before, f"the refused action {action!r:.200} changed the game"
        inv.count("fuzz: actions", "refused")
        return
    inv.count("fuzz: actions", "accepted")
    by = action["by"]
    logged = events[0]["action"]         # the form it was applied as (docs/api.md: kind aliases)
    assert events[0]["type"] == "action" and logged["by"] == by and logged["type"] == action["type"]
    if prior.rules.types[action["type"]].open:
        _check_offer_allowed(prior, logged, events)
    else:
        assert logged in legal[by], f"{action!r:.200} was accepted as {logged}, which is not listed"
    json.dumps(events, allow_nan=False)
    inv.check_roundtrip(game, inv.check_json_safe(game))


@pytest.mark.slow
@settings(max_examples=inv.budget(100, 5_000), **SETTINGS)
@given(index=st.integers(0, 10 ** 6), who=anything)
def test_legal_actions_and_view_of_anyone(index, who):
    """``legal_actions`` of something that is not a character in play is empty; ``view`` of
    it is a ValueError; neither changes the game."""
    game = restore(index)
    before = inv.fingerprint(game)
    is_character = type(who) is str and who in game.state.characters
    if is_character:       # a character in play: its own view, its own moves
        assert game.view(who)["you"] == who
        assert len(game.legal_ids(who)) == len(game.legal_actions(who))
    else:
        assert game.legal_actions(who) == [] and game.legal_ids(who) == []
        if who is None:    # the public view
            assert game.view(who)["you"] is None
        else:
            with pytest.raises(ValueError):
                game.view(who)
    assert inv.fingerprint(game) == before


def test_junk_actions_do_not_grow_the_game():
    """Refused actions from unknown characters leave nothing behind (not even in a cache):
    a client cannot make a game use more memory by sending junk."""
    import tracemalloc
    game = restore(live())
    game.legal_actions(game.pending[0].by)
    tracemalloc.start()
    try:
        baseline = tracemalloc.get_traced_memory()[0]
        for number in range(200):
            name = f"nobody-{number}-" + "x" * 10_000
            with pytest.raises(IllegalAction):
                game.apply({"by": name, "type": "pass"})
            assert game.legal_actions(name) == []
        grown = tracemalloc.get_traced_memory()[0] - baseline
    finally:
        tracemalloc.stop()
    assert grown < 500_000, f"200 refused actions left {grown} bytes behind"


@pytest.mark.parametrize("kind", [Str, AlwaysEqual], ids=["str-subclass", "always-equal"])
def test_values_that_only_compare_equal_are_refused_without_a_trace(kind):
    """An action whose strings only compare equal to the listed ones (a str subclass, an
    object equal to everything) has fields of the wrong type: refused (rule API) and the game
    unchanged, at every live position and for every string field of every listed action;
    so nothing but plain JSON reaches the log, and the saves restore."""
    tried = 0
    for index in range(len(positions())):
        game = restore(index)
        if game.over:
            continue
        before = inv.fingerprint(game)
        for who in game.state.characters:
            for action in game.legal_actions(who):
                for key, value in action.items():
                    if type(value) is not str:
                        continue
                    with pytest.raises(IllegalAction) as info:
                        game.apply(dict(action, **{key: kind(value)}))
                    assert info.value.rule == "API", info.value
                    tried += 1
        assert inv.fingerprint(game) == before
        Game.from_dict(game.to_dict())          # without JSON text in between
    assert tried > 100
    inv.count("fuzz: actions", "str-subclass values refused", tried)


# --------------------------------------------------------------------------- saved games

def _set(root, path, value):
    target = root
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value


def _get(root, path):
    for part in path:
        root = root[part]
    return root


# where a mutation goes: the log is two thirds of a save's values but only a record, so the
# state (and the card table and the secrets, new in version 2) get most of the mutations
SECTIONS = ["state"] * 5 + ["table"] * 2 + ["secrets", "log", "ruleset", "format", "version"]


def mutate(data: dict, rnd: random.Random, junk=None) -> str:
    """Change ``data`` (a saved game) in place in one random way; returns what was done."""
    nodes = list(inv.nodes(data))
    section = rnd.choice(SECTIONS) if rnd.random() < 0.8 else None
    places = [node for node in nodes[1:] if section is None or node[0][0] == section]
    path, value = rnd.choice(places or nodes[1:])
    if junk is not None:
        _set(data, path, junk)
        return f"{path}: replaced by a {type(junk).__name__}"
    strings = [v for _, v in nodes if type(v) is str]
    kind = type(value)
    choice = rnd.randrange(10)
    parent = _get(data, path[:-1])
    if choice == 0 and type(parent) is dict:
        del parent[path[-1]]
        return f"deleted {path}"
    if choice == 1 and type(parent) is list:
        del parent[path[-1]]
        return f"removed {path}"
    if choice == 2 and type(parent) is list:
        parent.insert(rnd.randrange(len(parent) + 1), copy.deepcopy(value))
        return f"duplicated {path}"
    if choice == 3 and type(parent) is dict:
        parent[rnd.choice(strings + ["extra", "x"])] = copy.deepcopy(value)
        return f"added a key beside {path}"
    if choice == 4 and kind is str:
        new = rnd.choice(strings + ["", "x" * 300, "P1", "the_kid ", "nav-99"])
        _set(data, path, new)
        return f"{path}: {value!r} -> {new!r}"
    if choice == 5 and kind is int and type(value) is not bool:
        new = rnd.choice([value + 1, value - 1, -value, 0, -1, 2 ** 31, 2 ** 63, 10 ** 30])
        _set(data, path, new)
        return f"{path}: {value} -> {new}"
    if choice == 6 and kind is bool:
        _set(data, path, not value)
        return f"{path}: flipped"
    if choice == 7 and kind is list and len(value) > 1:
        i, j = rnd.sample(range(len(value)), 2)
        value[i], value[j] = value[j], value[i]
        return f"{path}: swapped {i} and {j}"
    if choice == 8:
        other_path, other = rnd.choice(nodes[1:])
        if other_path[:len(path)] != path and path[:len(other_path)] != other_path:
            _set(data, path, copy.deepcopy(other))
            return f"{path} replaced by {other_path}"
    new = rnd.choice([None, True, 0, -5, 3.5, "", "junk", [], {}, [None], {"stage": "turn"},
                      ["p1", "p1"]])
    _set(data, path, new)
    return f"{path}: replaced by {new!r:.60}"


def _play_on(game: Game, rnd: random.Random, steps: int) -> None:
    """A restored game can be played on: listed actions apply, invariants hold."""
    for _ in range(steps):
        if game.over:
            return
        decision = rnd.choice(game.pending)
        game.apply(rnd.choice(game.legal_actions(decision.by)))
        inv.check_all(game, rnd, deep=False, from_log=False)


@pytest.mark.slow
@settings(max_examples=SAVE_CASES, **SETTINGS)
@given(index=st.integers(0, 10 ** 6), seed=st.integers(0, 2 ** 32), changes=st.integers(1, 3))
def test_mutated_saved_games_are_refused_or_sound(index, seed, changes):
    texts = positions()
    data = json.loads(texts[index % len(texts)])
    rnd = random.Random(seed)
    done = [mutate(data, rnd) for _ in range(changes)]
    given_text = json.dumps(data, sort_keys=True)
    try:
        game = Game.from_dict(data)
    except ContentError as exc:
        assert exc.where == "<saved game>" and str(exc)
        inv.count("fuzz: saved games", "mutations refused")
        return
    finally:
        assert json.dumps(data, sort_keys=True) == given_text, "from_dict changed its argument"
    inv.count("fuzz: saved games", "mutations accepted")
    try:
        inv.check_all(game, rnd, deep=True, from_log=False)
        _play_on(game, rnd, 20)
    except Exception as exc:
        raise AssertionError(f"accepted after {done}: {type(exc).__name__}: {exc}") from exc


@settings(max_examples=NON_JSON_CASES, **SETTINGS)
@given(index=st.integers(0, 10 ** 6), seed=st.integers(0, 2 ** 32),
       junk=st.integers(0, len(NOT_JSON) - 1))
def test_saved_games_with_values_json_cannot_carry_are_refused(index, seed, junk):
    texts = positions()
    data = json.loads(texts[index % len(texts)])
    mutate(data, random.Random(seed), junk=NOT_JSON[junk])
    with inv.time_limit(10, "from_dict"):
        with pytest.raises(ContentError):
            Game.from_dict(data)
    inv.count("fuzz: saved games", "non-JSON values refused")


@pytest.mark.slow
@settings(max_examples=NON_JSON_CASES, **SETTINGS)
@given(index=st.integers(0, 10 ** 6), seed=st.integers(0, 2 ** 32),
       odd=st.integers(0, len(ODD_JSON) - 1))
def test_saved_games_with_odd_json_values_are_refused_or_sound(index, seed, odd):
    texts = positions()
    data = json.loads(texts[index % len(texts)])
    rnd = random.Random(seed)
    mutate(data, rnd, junk=copy.deepcopy(ODD_JSON[odd]))
    with inv.time_limit(10, "from_dict"):
        try:
            game = Game.from_dict(data)
        except ContentError as exc:
            assert exc.where == "<saved game>" and str(exc)
            inv.count("fuzz: saved games", "odd JSON values refused")
            return
    inv.count("fuzz: saved games", "odd JSON values accepted")
    inv.check_all(game, rnd, deep=True, from_log=False)
    _play_on(game, rnd, 10)


ODD_DATA = NOT_JSON + ODD_JSON + TOO_DEEP + [None, "{}", 0, True, {"format": "x"}]


@pytest.mark.parametrize("number", range(len(ODD_DATA)), ids=lambda n: type(ODD_DATA[n]).__name__)
def test_from_dict_of_anything_is_a_content_error(number):
    with inv.time_limit(10, "from_dict"):
        with pytest.raises(ContentError):
            Game.from_dict(ODD_DATA[number])


@pytest.mark.parametrize("number", range(len(TOO_DEEP)))
def test_too_deep_values_are_refused(number):
    """Values nested 50,000 deep: refused as actions, as characters, inside saved games."""
    game = restore(live())
    before = inv.fingerprint(game)
    value = TOO_DEEP[number]
    with inv.time_limit(10, "too deep"):
        with pytest.raises(IllegalAction):
            game.apply(value)
        with pytest.raises(IllegalAction):
            game.apply({"by": game.pending[0].by, "type": "offer", "to": value, "give": [], "take": []})
        assert game.legal_actions(value) == []
        with pytest.raises(ValueError):
            game.view(value)
        data = json.loads(positions()[live()])
        data["log"].append({"type": "x", "deep": value})
        with pytest.raises(ContentError):
            Game.from_dict(data)
    assert inv.fingerprint(game) == before


def test_a_huge_saved_game_is_refused_in_bounded_time():
    """A saved game with a log of a million events or a million cards is refused (the schema's
    limits) without a MemoryError or a long wait (a watchdog, not a speed figure)."""
    data = json.loads(positions()[0])
    data["log"] = data["log"] + [{"type": "x"}] * 1_000_001
    with inv.time_limit(30, "from_dict of a million events"):
        with pytest.raises(ContentError) as info:
            Game.from_dict(data)
    assert info.value.path == "log"
    data = json.loads(positions()[0])
    data["state"]["supply"] = ["p1"] * 100_000
    with inv.time_limit(30, "from_dict of 100,000 cards"):
        with pytest.raises(ContentError) as info:
            Game.from_dict(data)
    assert info.value.path.startswith("state.supply")
