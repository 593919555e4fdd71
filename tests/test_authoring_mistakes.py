"""Mistakes a house-rule author makes are errors, never silent (docs/house-rules.md, "When
something is wrong"): an override of an id the content lacks that is not complete as a new
thing, a character id a card names that no loaded content defines, a key given twice in one
YAML mapping, two characters on one seat, a hook function not marked ``@hookimpl``, a hook
implementation with the wrong parameters. Each with the file, the line and the place."""

from __future__ import annotations

import itertools
import textwrap

import pytest

import lifeboat_rules as lr
from authoring_support import plugin_maker, refused, write
from lifeboat_rules.cli import main as cli_main
from lifeboat_rules.content import merge_file
from lifeboat_rules.scenario import check_paths

_counter = itertools.count()


def everything(exc: lr.ContentError) -> str:
    return str(exc) + "\n" + "\n".join(exc.problems)


# --------------------------------------------------------------------------- ids the content lacks

def test_a_misspelt_provision_in_overrides_is_an_error_naming_the_nearest(tmp_path):
    path = write(tmp_path, "thirsty.yaml", """\
        name: thirsty
        overrides:
          provisions:
            wter: {count: 12}
        """)
    exc = refused(path)
    assert exc.where == path
    assert exc.path == "overrides.provisions.wter"
    assert exc.line == "line 4"
    assert "did you mean 'water'?" in str(exc)
    assert f"{path}: line 4: overrides.provisions.wter: " in str(exc)
    # and through the command line, which says INVALID with the same facts
    assert cli_main(["validate", path]) == 1


@pytest.mark.parametrize("section, key, value, nearest", [
    ("characters", "the_kdi", {"size": 4}, "the_kid"),
    ("provisions", "jewel", {"count": 4}, "jewels"),
    ("navigation", "nav-4", {"seagull": 1}, "nav-41"),
])
def test_an_incomplete_new_thing_is_an_error_in_every_section(section, key, value, nearest):
    exc = refused({"overrides": {section: {key: value}}})
    assert exc.path == f"overrides.{section}.{key}"
    assert nearest in str(exc) and "did you mean" in str(exc)
    assert "lacks" in str(exc)


def test_a_complete_new_thing_is_added():
    ruleset = lr.load_ruleset({"overrides": {
        "characters": {"madame_wong": {"name": "Madame Wong", "size": 3, "survival": 9, "seat": 45}},
        "provisions": {"lucky_charm": {"name": "Lucky Charm", "count": 1}},
        "navigation": {"storm": {"overboard": [], "thirst": "all", "oar": False, "fight": True,
                                 "seagull": 0}},
        "setup": {"players": {"min": 4, "max": 7}}}})
    assert ruleset.content.characters["madame_wong"].seat == 45
    assert ruleset.content.provisions["lucky_charm"].count == 1
    assert ruleset.content.navigation["storm"].fight is True


def test_removing_an_id_the_content_lacks_is_an_error(tmp_path):
    exc = refused({"overrides": {"provisions": {"chm": None}}})
    assert exc.path == "overrides.provisions.chm" and "did you mean 'chum'?" in str(exc)
    # a ruleset may take out again what the ruleset it extends added
    write(tmp_path, "parent.yaml", """\
        overrides:
          provisions: {lucky_charm: {name: Lucky Charm, count: 1}}
        """)
    child = write(tmp_path, "child.yaml", """\
        extends: parent.yaml
        overrides:
          provisions: {lucky_charm: null}
        """)
    assert "lucky_charm" not in lr.load_ruleset(child).content.provisions


def test_a_mistake_in_a_file_extended_is_placed_in_that_file(tmp_path):
    parent = write(tmp_path, "parent.yaml", """\
        name: parent
        overrides:
          characters:
            the_kid: {size: 4}
            frenchie: {size: 3}
        """)
    child = write(tmp_path, "child.yaml", "extends: parent.yaml\n")
    exc = refused(child)
    assert exc.line == f"{parent}, line 5"
    assert "did you mean 'frenchy'?" in str(exc)


# --------------------------------------------------------------------------- characters on cards

@pytest.mark.parametrize("card, place", [
    ({"overboard": ["frenchie"], "thirst": []}, "overboard[0]"),
    ({"overboard": [], "thirst": ["the_captain", "fist_mate"]}, "thirst[1]"),
    ({"overboard": [], "thirst": {"all_except": ["lady_laurne"]}}, "thirst.all_except[0]"),
])
def test_a_misspelt_character_on_a_card_is_an_error(card, place):
    card = {"oar": False, "fight": False, "seagull": 0, **card}
    exc = refused({"overrides": {"navigation": {"nav-42": card}}})
    assert exc.path == f"overrides.navigation.nav-42.{place}"
    assert "no loaded content defines" in str(exc) and "did you mean" in str(exc)


def test_a_card_may_name_a_character_some_loaded_content_defines():
    """Dr. Harter and Madame Wong are defined by the expansions' content: a card naming them is
    right in any ruleset (ignored where they are not in the game, section C). The Liquid
    Courage cards name Dr. Harter, in a game without Cannibalism too."""
    assert "dr_harter" not in lr.load_ruleset("liquid_courage").content.characters
    storm = {"overboard": ["dr_harter", "madame_wong"], "thirst": [], "oar": False,
             "fight": False, "seagull": 1}
    ruleset = lr.load_ruleset({"overrides": {"navigation": {"nav-42": storm}}})
    assert ruleset.content.navigation["nav-42"].overboard.ids == ("dr_harter", "madame_wong")


def test_every_builtin_ruleset_still_loads():
    from lifeboat_rules.rulesets import builtin_rulesets
    for name in builtin_rulesets():
        lr.load_ruleset(name)


# --------------------------------------------------------------------------- YAML keys given twice

def test_a_key_given_twice_in_a_ruleset_is_an_error_with_its_line(tmp_path):
    path = write(tmp_path, "twice.yaml", """\
        name: twice
        overrides:
          provisions:
            water: {count: 12}
            water: {count: 10}
        """)
    exc = refused(path)
    assert exc.where == path and exc.path == "line 5, column 5"
    assert "'water' is given twice" in str(exc) and "first on line 4" in str(exc)


def test_a_key_given_twice_in_content_and_scenario_files(tmp_path):
    content = write(tmp_path, "cards.yaml", """\
        provisions:
          water: {name: Water, count: 12, count: 10}
        """)
    with pytest.raises(lr.ContentError, match="line 2.*'count' is given twice"):
        merge_file({}, content)
    scenario = write(tmp_path, "check.yaml", """\
        name: twice
        setup:
          seats: [the_kid, frenchy]
          seats: [frenchy, the_kid]
        """)
    [outcome] = check_paths([scenario])
    assert not outcome.passed and "line 4" in outcome.message and "given twice" in outcome.message


def test_the_same_key_in_different_mappings_is_fine():
    assert lr.load_ruleset({"overrides": {"provisions": {"water": {"count": 12},
                                                         "cash": {"count": 6}}}})


# --------------------------------------------------------------------------- seats

def test_two_characters_on_one_seat_in_the_content(tmp_path):
    path = write(tmp_path, "crowded.yaml", """\
        overrides:
          characters:
            the_kid: {seat: 10}
        """)
    exc = refused(path)
    assert exc.path == "overrides.characters.the_kid.seat" and exc.line == "line 3"
    assert "two characters on one seat" in str(exc) and "lady_lauren" in str(exc)


def test_one_character_on_two_seats_in_a_scenario_has_its_line(tmp_path):
    scenario = write(tmp_path, "check.yaml", """\
        - name: the kid twice
          setup:
            seats: [the_kid, frenchy,
                    the_kid]
        """)
    [outcome] = check_paths([scenario])
    assert not outcome.passed
    assert "line 4: setup.seats[2]" in outcome.message and "named twice" in outcome.message


# --------------------------------------------------------------------------- plugins

@pytest.fixture
def plugin(tmp_path, monkeypatch):
    return plugin_maker(tmp_path, monkeypatch, "lb_authoring_plugin")


def test_a_hook_function_not_marked_hookimpl_is_a_plugin_error(plugin):
    name, path = plugin("""\
        from lifeboat_rules import hookimpl


        def lifeboat_damage(game, character, amount, cause):
            return 0
        """)
    with pytest.raises(lr.PluginError) as info:
        lr.load_ruleset({"plugins": [name]})
    exc = info.value
    assert isinstance(exc, lr.ContentError)          # every loading problem is one
    assert name in exc.plugin
    assert f"{name}.lifeboat_damage ({path}, line 4)" in everything(exc)
    assert "not marked @hookimpl" in everything(exc)
    assert "lifeboat_damage(game, character, amount, cause)" in everything(exc)


def test_a_misnamed_unmarked_function_gets_the_nearest_hook(plugin):
    name, _ = plugin("""\
        def lifeboat_strenght(game, character):
            return 3
        """)
    with pytest.raises(lr.PluginError, match="did you mean 'lifeboat_strength'"):
        lr.load_ruleset({"plugins": [name]})


def test_a_hook_with_the_wrong_parameters_names_file_line_and_the_real_ones(plugin):
    name, path = plugin("""\
        from lifeboat_rules import hookimpl


        @hookimpl
        def lifeboat_strength(game, who):
            return 3
        """)
    with pytest.raises(lr.PluginError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = everything(info.value)
    assert f"{path}, line 5" in text                  # the def, past its decorator
    assert "lifeboat_strength(game, character)" in text
    assert "'who'" in text                            # pluggy's own verdict is kept


def test_every_wrong_hook_of_a_plugin_is_told_at_once(plugin):
    """pluggy stops at a plugin's first wrong hook; an audit had to fix them one run at a
    time ("validate tells you everything that is wrong at once", docs/house-rules.md)."""
    name, path = plugin("""\
        from lifeboat_rules import hookimpl


        @hookimpl
        def lifeboat_strenght(game, character):
            return 1


        @hookimpl
        def lifeboat_damage(game, character, amount, reason):
            return amount


        @hookimpl
        def lifeboat_thirst(game, character, card):
            return None
        """)
    with pytest.raises(lr.PluginError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = everything(info.value)
    assert "did you mean 'lifeboat_strength'" in text and f"{path}, line 5" in text
    assert "'reason'" in text and f"{path}, line 10" in text
    assert "lifeboat_thirst" not in text                 # the right one is not blamed
    assert len(info.value.problems) == 2


def test_a_right_plugin_with_other_names_is_fine(plugin):
    name, _ = plugin("""\
        from lifeboat_rules import hookimpl

        LIFEBOAT_KIND = "variant"
        lifeboat_note = "not a function: not a hook"


        def helper(game):
            return 1


        @hookimpl
        def lifeboat_strength(game, character):
            return None
        """)
    assert lr.load_ruleset({"plugins": [name]})


def test_a_misspelt_character_on_a_scenario_card_is_an_error(tmp_path):
    scenario = write(tmp_path, "check.yaml", """\
        - name: a storm
          setup:
            seats: [the_kid, frenchy]
            navigation:
              - {id: storm, overboard: [the_kid, dr_harter], thirst: [frenchie]}
        """)
    [outcome] = check_paths([scenario])
    assert not outcome.passed
    assert "line 5: setup.navigation[0].thirst[0]" in outcome.message
    assert "did you mean 'frenchy'?" in outcome.message and "dr_harter" not in outcome.message


def test_two_characters_on_one_seat_in_a_content_file(tmp_path):
    content = write(tmp_path, "crew.yaml", """\
        characters:
          bosun: {name: Bosun, size: 5, survival: 6, seat: 75}
          cook: {name: Cook, size: 4, survival: 7, seat: 75}
        """)
    with pytest.raises(lr.ContentError) as info:
        merge_file({}, content)
    assert info.value.line == "line 3" and info.value.path == "characters.cook.seat"
    assert "two characters on one seat" in str(info.value)
    assert cli_main(["validate", content]) == 1


def test_a_plugin_failing_in_a_scenario_fails_that_scenario_alone(plugin, tmp_path, capsys):
    """An audit's plugin raised while a scenario's position was being set up: ``check`` and
    ``validate`` stopped with a traceback, and the scenarios after it never ran. Now it fails
    that scenario (with the plugin's file and line), like a plugin failing in a step, which is
    told as a plugin failing, not as the rules refusing the move; and an ``illegal`` step a
    plugin fails on is no ruling that the move is illegal."""
    thirsty, thirsty_path = plugin("""\
        from lifeboat_rules import hookimpl


        @hookimpl
        def lifeboat_thirst(game, character, card):
            if game.state.round >= 3 and character == "the_kid":
                return 1 // 0
        """)
    rowing, rowing_path = plugin("""\
        from lifeboat_rules import hookimpl


        @hookimpl
        def lifeboat_resolve_action(game, action):
            if action["type"] == "row":
                raise RuntimeError("oar snapped")
        """)
    plain = """\
        - name: plain
          setup: {seats: [the_kid, frenchy, lady_lauren], phase: action}
          expect: {pending: [the_kid]}
        """
    setup = write(tmp_path, "setup.yaml", textwrap.dedent(f"""\
        - name: thirsty
          ruleset: {{plugins: [{thirsty}]}}
          setup: {{seats: [the_kid, frenchy, lady_lauren], round: 3, navigation: [nav-20], phase: navigation}}
        """) + textwrap.dedent(plain))
    steps = write(tmp_path, "steps.yaml", textwrap.dedent(f"""\
        - name: rowing
          ruleset: {{plugins: [{rowing}]}}
          setup: {{seats: [the_kid, frenchy, lady_lauren], navigation: [nav-25, nav-19], phase: action}}
          steps:
            - {{by: the_kid, type: row}}
        - name: rowing is illegal
          ruleset: {{plugins: [{rowing}]}}
          setup: {{seats: [the_kid, frenchy, lady_lauren], navigation: [nav-25, nav-19], phase: action}}
          steps:
            - illegal: {{by: the_kid, type: row}}
        """) + textwrap.dedent(plain))
    failed, passed = check_paths([setup])
    assert not failed.passed and passed.passed
    assert "setting up the position" in failed.message and "ZeroDivisionError" in failed.message
    assert f"{thirsty_path}, line 7" in failed.message
    rowed, ruled, after = check_paths([steps])
    assert not rowed.passed and not ruled.passed and after.passed
    for outcome in (rowed, ruled):
        assert "made a plugin fail" in outcome.message and "was refused" not in outcome.message
        assert "oar snapped" in outcome.message and f"{rowing_path}, line 7" in outcome.message
    assert cli_main(["check", setup]) == 1
    assert "1 passed, 1 failed" in capsys.readouterr().out
    assert cli_main(["validate", setup]) == 1
    assert "setting up the position" in capsys.readouterr().out
