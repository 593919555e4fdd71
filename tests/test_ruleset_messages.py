"""What a house-rule author reads when a ruleset is wrong (docs/house-rules.md, "When
something is wrong"), from an audit by an author working from the docs alone: a schema
problem does not hide the consistency problems of the other parts; a treasure that keeps an
inherited ``points`` beside its own ``set`` says to write ``points: null``; a value that fits
none of the forms of a field lists every form; and YAML's ``on``/``yes``/``no`` read as
booleans say to quote the word."""

from __future__ import annotations

import itertools
import os
import textwrap

import pytest

import lifeboat_rules as lr
from authoring_support import refused, write
from lifeboat_rules.cli import main as cli_main

_counter = itertools.count()


def listing(exc: lr.ContentError) -> str:
    return "\n".join(exc.problems)


# --------------------------------------------------------------------------- everything at once

def test_validate_lists_consistency_problems_beside_schema_problems(tmp_path, capsys):
    # the audit's file: the size is a schema problem; the unknown effect, the character no
    # content defines and the nine players without nine characters were not told
    path = write(tmp_path, "storm.yaml", """\
        name: storm
        overrides:
          characters:
            the_kid: {size: big}
          provisions:
            knife: {special: {effect: stab}}
          navigation:
            nav-19: {overboard: [captain_hook]}
          setup:
            players: {min: 4, max: 9}
        """)
    assert cli_main(["validate", path]) == 1
    out = capsys.readouterr().out
    assert "line 4: overrides.characters.the_kid.size: 'big' is not of type 'integer'" in out
    assert "line 6: overrides.provisions.knife.special.effect: unknown effect 'stab'" in out
    assert "line 8: overrides.navigation.nav-19.overboard[0]: no loaded content defines a " \
           "character 'captain_hook'" in out
    assert "line 10: overrides.setup.players.max: 9 players need 9 characters" in out


def test_a_card_the_schema_refuses_is_left_out_of_the_checks_it_would_change():
    # a broken count is not counted: no "4 players need ... provisions" beside it, and the
    # broken cash is no "set table" problem of its group
    exc = refused({"overrides": {"provisions": {
        "water": {"count": -1},
        "cash": {"treasure": {"points": None, "set": "lots"}}}}})
    assert [problem.path for problem in exc.details] == [
        "overrides.provisions.cash.treasure.set", "overrides.provisions.water.count"]


def test_a_ruleset_value_the_schema_refuses_does_not_hide_the_rest(tmp_path):
    path = write(tmp_path, "listed.yaml", """\
        name: listed
        variants: shark
        overrides:
          provisions:
            knife: {special: {effect: stab}}
        """)
    exc = refused(path)
    assert "line 2: variants: 'shark' is not of type 'array'" in listing(exc)
    assert "line 5: overrides.provisions.knife.special.effect: unknown effect 'stab' (known: " \
           in listing(exc)
    assert "(found without the parts above)" in listing(exc)


# --------------------------------------------------------------------------- an inherited key

def test_a_treasure_switched_to_a_set_names_the_inherited_points_to_drop(tmp_path):
    write(tmp_path, "rich.yaml", """\
        name: rich
        overrides:
          provisions:
            cash: {treasure: {group: cash, points: 2}}
        """)
    path = write(tmp_path, "sets.yaml", """\
        name: sets
        extends: rich.yaml
        overrides:
          provisions:
            cash: {treasure: {set: [0, 1, 3, 6, 10]}}
        """)
    exc = refused(path)
    assert exc.path == "overrides.provisions.cash.treasure" and exc.line == "line 5"
    assert "valid under each of" not in str(exc)
    assert "cash's treasure has set here and keeps points: 2 from the content it extends" \
           in str(exc)
    assert "write points: null" in str(exc)


def test_points_null_drops_the_inherited_points(tmp_path):
    path = write(tmp_path, "sets.yaml", """\
        name: sets
        overrides:
          provisions:
            cash: {treasure: {points: null, set: [0, 1, 3, 6, 10, 15, 21]}}
        """)
    cash = lr.load_ruleset(path).content.provisions["cash"]
    assert cash.treasure_set == (0, 1, 3, 6, 10, 15, 21) and cash.treasure_points == 0


def test_a_treasure_given_both_by_the_ruleset_itself_says_to_keep_one():
    exc = refused({"overrides": {"provisions": {
        "cash": {"treasure": {"group": "cash", "points": 1, "set": [0, 1, 3, 6, 10]}}}}})
    assert "cash's treasure has both points and set; it takes only one of them" in str(exc)


# --------------------------------------------------------------------------- every form

@pytest.mark.parametrize("side", ["overboard", "thirst"])
def test_a_selection_of_no_accepted_form_lists_every_form(side):
    exc = refused({"overrides": {"navigation": {"nav-19": {side: "everyone"}}}})
    assert exc.path == f"overrides.navigation.nav-19.{side}"
    assert ("'everyone' is none of the forms accepted here: a list of ids, 'all', "
            "{all_except: ...} or {marked: ...}") in str(exc)


def test_every_field_of_several_forms_lists_them_in_a_content_file(tmp_path, capsys):
    # the card text (text, or a mapping of languages) is told where schema errors become
    # messages, as every oneOf is
    path = write(tmp_path, "cards.yaml", """\
        provisions:
          oar: {count: 2, text: 5}
        """)
    assert cli_main(["validate", path]) == 1
    assert "provisions.oar.text: 5 is none of the forms accepted here: text or a mapping" \
           in capsys.readouterr().out


# --------------------------------------------------------------------------- YAML's booleans

def test_an_unquoted_yes_where_a_selection_is_expected_says_to_quote(tmp_path):
    path = write(tmp_path, "yes.yaml", """\
        overrides:
          navigation:
            nav-19: {thirst: yes}
        """)
    exc = refused(path)
    assert "True is none of the forms accepted here" in str(exc)
    assert "YAML reads an unquoted on, yes or true as true" in str(exc)
    assert 'quote the word' in str(exc)


def test_an_unquoted_on_as_a_key_says_to_quote(tmp_path):
    path = write(tmp_path, "on.yaml", """\
        overrides:
          provisions:
            on: {name: Onion, count: 1}
        """)
    exc = refused(path)
    assert "mapping key True is not a string" in str(exc)
    assert 'quote the word if it is meant as text, e.g. "on"' in str(exc)


def test_an_unquoted_off_as_an_option_value_says_to_quote(tmp_path, monkeypatch):
    name = f"lb_dawn_{os.getpid()}_{next(_counter)}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent("""\
        from lifeboat_rules import hookimpl


        @hookimpl
        def lifeboat_options():
            return {"dawn_heal": {"default": "on", "values": ["on", "off"]}}
        """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    path = write(tmp_path, "dawn.yaml", f"""\
        plugins: [{name}]
        options: {{dawn_heal: off}}
        """)
    exc = refused(path)
    assert exc.path == "options.dawn_heal"
    assert "False is not one of ['on', 'off']" in str(exc)
    assert 'YAML reads an unquoted off, no or false as false' in str(exc)
    assert lr.load_ruleset(write(tmp_path, "dawn2.yaml", f"""\
        plugins: [{name}]
        options: {{dawn_heal: "off"}}
        """)).options["dawn_heal"] == "off"


# --------------------------------------------------------------------------- a game that never ends

def test_validate_notes_a_deck_without_seagulls(tmp_path, capsys):
    """An audit's house rule took the seagull off every navigation card: valid, but only the
    death of everyone ends a game (R-END-1), so validate says so (it is no error: a plugin may
    end the game another way)."""
    gulls = [card for card, data in lr.load_ruleset("classic").content.navigation.items()
             if data.seagull > 0]
    assert gulls                                     # the base deck has seagulls (R-GULL-1)
    calm = write(tmp_path, "calm.yaml", "name: calm\noverrides:\n  navigation:\n"
                 + "".join(f"    {card}: {{seagull: 0}}\n" for card in gulls))
    one_left = write(tmp_path, "one.yaml", "name: one\noverrides:\n  navigation:\n"
                     + "".join(f"    {card}: {{seagull: 0}}\n" for card in gulls[1:]))
    assert cli_main(["validate", calm, one_left]) == 0
    out = capsys.readouterr().out
    assert out.count("note: no navigation card shows a seagull") == 1
    assert out.index("note:") > out.index(f"OK {calm}") and out.index("note:") < out.index(f"OK {one_left}")
