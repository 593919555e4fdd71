"""The state a plugin reads is a stable surface (docs/house-rules.md, "The state a plugin
reads" and "What a new thing needs"): every name those tables promise exists, with the type
they say, on games in play and in what the hooks receive; the fields a new character,
provision or navigation card needs are the ones the loader asks for, and the defaults are the
ones a new thing gets. The tables are read from the page itself, so the page and the engine
cannot drift apart."""

from __future__ import annotations

import pathlib
import random
import re
import sys
import textwrap

import pytest

import lifeboat_rules as lr
from lifeboat_rules.content import NEW_THING_NEEDS, NavigationCard, Selection
from lifeboat_rules.records import Phase, Status
from lifeboat_rules.rng import card_id_ok
from lifeboat_rules.state import Character, Table

PAGE = pathlib.Path(__file__).resolve().parent.parent / "docs" / "house-rules.md"


def surface(name: str) -> list[list[str]]:
    """The rows of the table under ``<!-- surface: name -->``, cells without backticks."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"<!-- surface: {name} -->")
    rows = []
    for line in lines[start + 3:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip().strip("`") if i == 0 else cell.strip()
                     for i, cell in enumerate(line.strip("|").split("|"))])
    assert rows, f"the table {name!r} is empty"
    return rows


RECORDS = {"Character": Character, "NavigationCard": NavigationCard, "Selection": Selection,
           "Table": Table, "Phase": Phase, "Status": Status}
PLAIN = {"int": int, "bool": bool, "str": str}


def holds(value, kind: str) -> bool:
    """Whether ``value`` is of the type the page names (``list of str``, ``str or None``...)."""
    if kind.endswith(" or None"):
        return value is None or holds(value, kind[:-len(" or None")])
    for container, python in (("list of ", list), ("tuple of ", tuple), ("dict of ", dict)):
        if kind.startswith(container):
            inner = kind[len(container):]
            items = value.values() if python is dict else value
            return type(value) is python and all(holds(item, inner) for item in items) and \
                (python is not dict or all(type(key) is str for key in value))
    if kind in PLAIN:
        return type(value) is PLAIN[kind]
    return isinstance(value, RECORDS[kind])


def check(name: str, thing) -> None:
    for field, kind, *_ in surface(name):
        assert hasattr(thing, field), f"{name}: no {field}"
        assert holds(getattr(thing, field), kind), \
            f"{name}.{field} is {getattr(thing, field)!r}, not {kind}"


# --------------------------------------------------------------------------- a game in play

SPY = """\
    from lifeboat_rules import hookimpl

    SEEN = {"overboard": [], "thirst": [], "refuse": [], "resolve": []}


    @hookimpl
    def lifeboat_overboard(game, card):
        SEEN["overboard"].append(card)


    @hookimpl
    def lifeboat_thirst(game, character, card):
        SEEN["thirst"].append(card)


    @hookimpl
    def lifeboat_refuse(game, action):
        if len(SEEN["refuse"]) < 2000:
            SEEN["refuse"].append(dict(action))


    @hookimpl
    def lifeboat_resolve_action(game, action):
        SEEN["resolve"].append(dict(action))
    """


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Two games of the all-in-one edition with a plugin that keeps what its hooks receive;
    the states met along the way, and what each move applied was."""
    folder = tmp_path_factory.mktemp("spy")
    (folder / "lb_surface_spy.py").write_text(textwrap.dedent(SPY))
    sys.path.insert(0, str(folder))
    try:
        ruleset = lr.load_ruleset({"extends": "all_in_one", "plugins": ["lb_surface_spy"]})
        spy = sys.modules["lb_surface_spy"]
        games, applied = [], []
        for seed in (1, 2):
            game = lr.new_game(ruleset, players=8, seed=seed)
            choose = random.Random(seed)
            while not game.over:
                by = game.pending[0].by
                action = choose.choice(game.legal_actions(by))
                applied.append(action)
                game.apply(action)
                if choose.random() < 0.05:
                    games.append(game.clone())
            games.append(game)
        yield games, applied, spy.SEEN
    finally:
        sys.path.remove(str(folder))


def test_the_state_and_its_characters_are_as_documented(played):
    games, _, _ = played
    for game in games:
        check("game.state", game.state)
        check("table", game.state.table)
        for character in game.state.characters.values():
            check("character", character)
            assert character.status in set(Status)
        assert set(game.state.seats) <= set(game.state.characters)
        for card in game.state.table.navcards.values():
            check("navigation card", card)


def test_the_cards_the_hooks_receive_are_as_documented(played):
    _, _, seen = played
    assert seen["overboard"] and seen["thirst"]
    for card in seen["overboard"] + seen["thirst"]:
        check("navigation card", card)
        check("selection", card.overboard)
        check("selection", card.thirst)


def test_the_actions_the_hooks_receive_are_the_canonical_moves(played):
    games, applied, seen = played
    assert seen["resolve"] == applied            # the very dict legal_actions listed
    kinds = {}
    for game in games:
        kinds.update(game.state.table.kinds)
    characters = set(games[-1].state.characters)
    fields = {row[0]: row[1] for row in surface("action")}
    for action in seen["resolve"] + seen["refuse"]:
        assert type(action) is dict
        for field in ("by", "type"):
            assert holds(action[field], fields[field])
        if "card" in action:
            assert holds(action["card"], fields["card"])
            # an id (by its form: the card may have another id by the game's end), never a kind
            assert action["card"] == "hand" or card_id_ok(action["card"]) or \
                action["card"].startswith("nav-"), action
            assert action["card"] not in set(kinds.values())
        if "target" in action:
            assert action["target"] in characters


def test_the_content_records_are_as_documented():
    content = lr.load_ruleset("all_in_one").content
    for info in content.characters.values():
        check("content character", info)
    for info in content.provisions.values():
        check("content provision", info)


# --------------------------------------------------------------------------- new things

NEEDED_VALUES = {
    "characters": {"name": "Bosun", "size": 5, "survival": 6, "seat": 75},
    "provisions": {"name": "Lucky Charm", "count": 1},
    "navigation": {"overboard": [], "thirst": [], "oar": False, "fight": False, "seagull": 0},
}
SECTIONS = {"characters": "new character", "provisions": "new provision",
            "navigation": "new navigation card"}
# a documented field -> the record attribute that holds it
ATTRIBUTE = {"ability.double_treasure": "double_treasure", "ability.fall_damage": "fall_damage",
             "ability.pickpocket": "pickpocket", "ability.keeps_used": "keeps_used",
             "treasure": "treasure_group", "special": "effect"}
DEFAULTS = {"null": None, "false": False, "true": True, "[]": (), "{}": ()}


@pytest.mark.parametrize("section", list(SECTIONS))
def test_a_new_thing_needs_what_the_page_says_and_gets_its_defaults(section):
    rows = surface(SECTIONS[section])
    needed = tuple(field for field, need, _ in rows if need == "needed")
    assert needed == NEW_THING_NEEDS[section]
    new_id = {"characters": "bosun", "provisions": "lucky_charm", "navigation": "storm"}[section]
    overrides = {section: {new_id: dict(NEEDED_VALUES[section])}}
    if section == "characters":
        overrides["setup"] = {"players": {"min": 4, "max": 7}}
    content = lr.load_ruleset({"overrides": overrides}).content
    record = getattr(content, section)[new_id]
    for field, need, default in rows:
        if need == "needed":
            # each needed field left out is refused, naming it
            partial = {k: v for k, v in NEEDED_VALUES[section].items() if k != field}
            with pytest.raises(lr.ContentError, match=rf"lacks {field}"):
                lr.load_ruleset({"overrides": {section: {new_id: partial}}})
            continue
        written = re.match(r"`([^`]*)`", default).group(1)
        expected = DEFAULTS[written] if written in DEFAULTS else int(written)
        value = getattr(record, ATTRIBUTE.get(field, field))
        assert value == expected or (expected == () and not value), (field, value)
