"""The plugin system (issue #3): shipped expansions and variants, what they change and what
they leave alone, every load-time error of the "Bad input" list, plugin errors during a game,
third-party plugins found by entry point, overrides and options validation, the hook list."""

from __future__ import annotations

import inspect
import itertools
import json
import os
import re
import sys
import textwrap

import pluggy
import pytest

import lifeboat_rules as lr
from lifeboat_rules import content as content_module
from lifeboat_rules import hookspecs
from lifeboat_rules import plugins as plugins_module
from lifeboat_rules.bots import RandomPlayer, play_random_game
from lifeboat_rules.cli import main as cli_main
from lifeboat_rules.stages import Window

BASE_CHARACTERS = ["lady_lauren", "sir_stephen", "the_captain", "first_mate", "frenchy", "the_kid"]
EXPANSION_CARDS = ["nav-07", "nav-08", "nav-09", "nav-10"]
_counter = itertools.count()


def dump(game) -> str:
    return json.dumps(game.to_dict(), sort_keys=True)


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Write a plugin module (the source is dedented) and return its importable name."""
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(source: str, name: str | None = None) -> str:
        name = name or f"lb_test_plugin_{os.getpid()}_{next(_counter)}"
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
        return name
    return make


def problem_text(exc: lr.ContentError) -> str:
    return str(exc) + "\n" + "\n".join(exc.problems)


# --------------------------------------------------------------------------- nothing when not enabled

def test_classic_has_no_expansion_content():
    classic = lr.load_ruleset("classic")
    content = classic.content
    assert list(content.characters) == BASE_CHARACTERS
    assert "dr_harter" not in content.characters
    assert "cannibalism" not in content.provisions
    assert not set(EXPANSION_CARDS) & set(content.navigation)
    assert sum(info.count for info in content.provisions.values()) == 42
    assert content.provisions["medical_kit"].count == 3
    assert len(content.navigation) == 24
    assert classic.players == range(4, 7)
    assert {c: i.size for c, i in content.characters.items()} == {
        "lady_lauren": 4, "sir_stephen": 5, "the_captain": 7, "first_mate": 8, "frenchy": 6,
        "the_kid": 3}
    rules = classic.rules
    assert "object" not in rules.types and "shark" not in rules.types
    assert "cannibalism" not in rules.effects and "object" not in rules.stages
    assert rules.implementers("lifeboat_deal") == []       # no quick dealing
    assert rules.phase_start_hook is None                 # no single-card rowing
    assert not rules.guarded                              # only this package's own rules


def test_loading_expansions_leaves_classic_alone():
    before = json.dumps(lr.load_ruleset("classic").content.raw, sort_keys=True)
    lr.load_ruleset({"expansions": ["cannibalism"], "variants": ["shark", "quick", "single_card_rowing"]})
    fresh = content_module.base_content()
    assert json.dumps(lr.load_ruleset("classic").content.raw, sort_keys=True) == before
    assert "dr_harter" not in fresh["characters"] and fresh["characters"]["the_kid"]["size"] == 3
    assert fresh["provisions"]["medical_kit"]["count"] == 3
    with pytest.raises(ValueError, match="R-SETUP-1"):
        lr.new_game("classic", players=7, seed=1)


def test_classic_dealt_game_has_no_quick_damage_and_no_dr_harter():
    for seed in range(5):
        game = lr.new_game("classic", players=6, seed=seed)
        assert game.state.seagulls == 0
        assert all(ch.damage == 0 for ch in game.state.characters.values())
        assert "dr_harter" not in game.state.characters
        kinds = set(game.state.table.kinds.values())
        assert "cannibalism" not in kinds
        assert not set(EXPANSION_CARDS) & set(game.state.navigation)


# --------------------------------------------------------------------------- cannibalism

def test_cannibalism_content():
    ruleset = lr.load_ruleset("cannibalism")
    content = ruleset.content
    harter = content.characters["dr_harter"]
    assert (harter.size, harter.survival, harter.keeps_used) == (4, 8, ("medical_kit",))
    order = list(content.characters)
    assert order.index("frenchy") < order.index("dr_harter") < order.index("the_kid")
    assert content.provisions["medical_kit"].count == 4
    assert content.provisions["cannibalism"].count == 1
    assert content.provisions["cannibalism"].effect == "cannibalism"
    assert sum(info.count for info in content.provisions.values()) == 44
    assert set(EXPANSION_CARDS) <= set(content.navigation) and len(content.navigation) == 28
    data = content.navigation["nav-07"].data()
    assert data == {"id": "nav-07", "overboard": ["dr_harter"], "thirst": ["the_captain", "first_mate"],
                    "oar": True, "fight": True, "seagull": 1}
    assert ruleset.players == range(4, 8)                 # R-SETUP-1
    assert ruleset.rules.stages["object"].KIND == "object"


@pytest.mark.rule("R-SETUP-1")
def test_cannibalism_player_counts():
    game = lr.new_game("cannibalism", players=7, seed=3)
    assert len(game.state.seats) == 7
    assert game.state.seats == ["lady_lauren", "sir_stephen", "the_captain", "first_mate",
                                "frenchy", "dr_harter", "the_kid"]          # R-SETUP-6
    for count in (3, 8):
        with pytest.raises(ValueError, match="R-SETUP-1"):
            lr.new_game("cannibalism", players=count, seed=3)


def test_the_expansion_medical_kit_adds_to_the_count_the_content_has():
    from lifeboat_rules.expansions import cannibalism
    raw = content_module.base_content()
    raw["provisions"]["medical_kit"]["count"] = 7
    cannibalism.lifeboat_content(raw)
    assert raw["provisions"]["medical_kit"]["count"] == 8
    raw = content_module.base_content()
    del raw["provisions"]["medical_kit"]
    cannibalism.lifeboat_content(raw)
    assert raw["provisions"]["medical_kit"]["count"] == 1
    # and through a plugin registered before it would be: a ruleset override replaces, after
    ruleset = lr.load_ruleset({"expansions": ["cannibalism"],
                               "overrides": {"provisions": {"medical_kit": {"count": 2}}}})
    assert ruleset.content.provisions["medical_kit"].count == 2


def _find_object_window(seeds, ruleset, players):
    for seed in seeds:
        game = lr.new_game(ruleset, players=players, seed=seed)
        bot = RandomPlayer(seed)
        while not game.over:
            if game.top is not None and game.top.NAME == "object" and game.pending:
                return game, bot
            game.apply(bot.act(game))
    raise AssertionError("no objection window in these games")


def test_an_objection_window_survives_saving_and_cloning():
    game, bot = _find_object_window(range(100), "cannibalism", 7)
    assert all(d.kind == "object" for d in game.pending)
    assert game.view(None)["stage"]["kind"] == "object"
    copy = lr.Game.from_dict(json.loads(json.dumps(game.to_dict())))
    twin = game.clone()
    while not game.over:
        action = bot.act(game)
        events = game.apply(action)
        assert copy.apply(action) == events
        assert twin.apply(action) == events
    assert dump(copy) == dump(game) == dump(twin)


# --------------------------------------------------------------------------- quick, shark, combinations

@pytest.mark.rule("R-QUICK-1")
def test_quick_deals_one_damage_each_and_one_seagull():
    for players in (4, 5, 6):
        game = lr.new_game("quick", players=players, seed=players)
        assert all(ch.damage == 1 for ch in game.state.characters.values())   # R-QUICK-1
        assert game.state.seagulls == 1
        causes = [e["cause"] for e in game.log if e["type"] == "damage"]
        assert causes == ["quick"] * players
        assert {"type": "seagulls", "count": 1} in game.log


def test_quick_adds_nothing_to_an_explicit_setup():
    game = lr.new_game("quick", setup={"seats": ["lady_lauren", "the_kid"], "phase": "action"})
    assert game.state.seagulls == 0
    assert all(ch.damage == 0 for ch in game.state.characters.values())


def test_shark_sizes_are_one_higher_everywhere():
    shark = lr.load_ruleset("shark")
    assert {c: i.size for c, i in shark.content.characters.items()} == {
        "lady_lauren": 5, "sir_stephen": 6, "the_captain": 8, "first_mate": 9, "frenchy": 7,
        "the_kid": 4}
    game = lr.new_game(shark, players=6, seed=2)
    assert game.view(None)["characters"]["the_kid"]["size"] == 4


@pytest.mark.parametrize("seed", range(12))
def test_cannibalism_shark_quick_dealt_and_played_to_the_end(seed):
    ruleset = lr.load_ruleset({"expansions": ["cannibalism"], "variants": ["shark", "quick"]})
    players = 4 + seed % 4
    game, count = play_random_game(ruleset, players, seed)
    assert game.over and count > 0
    setup_damage = [e for e in game.log if e["type"] == "damage" and e["cause"] == "quick"]
    assert len(setup_damage) == players
    assert all(ch.size == ruleset.content.characters[c].size for c, ch in game.state.characters.items())
    assert ruleset.content.characters["dr_harter"].size == 4 + 1        # size 4, one higher (R-SHARK-1)
    result = game.result
    assert set(result["scores"]) == set(game.state.characters)
    for character in game.state.characters.values():
        if character.lost and not character.ghost:
            assert any(e["type"] == "eaten" and e["character"] == character.id for e in game.log)


def test_combination_games_use_every_expansion_rule():
    ruleset = lr.load_ruleset({"expansions": ["cannibalism"], "variants": ["shark", "quick"]})
    seen = set()
    for seed in range(150):
        game, _ = play_random_game(ruleset, 7, seed)
        seen.update(e["type"] for e in game.log)
        if {"eaten", "object", "shark", "kept"} <= seen:
            break
    assert {"eaten", "object", "shark", "kept"} <= seen


@pytest.mark.parametrize("spec", [
    {"variants": ["single_card_rowing"]},
    {"expansions": ["cannibalism"], "variants": ["single_card_rowing", "shark"]},
    {"expansions": ["cannibalism"], "variants": ["quick", "shark", "single_card_rowing"],
     "options": {"rowing": "keep_one", "rowing_marker": "always", "swap_turn_order": "swapped_acts_next"}},
])
def test_other_combinations_play_to_the_end(spec):
    ruleset = lr.load_ruleset(spec)
    for seed in range(4):
        game, _ = play_random_game(ruleset, max(ruleset.players), seed)
        assert game.over


# --------------------------------------------------------------------------- bad input at load time

def test_unknown_expansion_variant_and_plugin_names():
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"expansions": ["canibalism"]})
    assert info.value.path == "expansions[0]"
    assert "unknown expansion 'canibalism'" in str(info.value) and "did you mean 'cannibalism'" in str(info.value)
    with pytest.raises(lr.ContentError, match=r"variants\[0\]: unknown variant 'sharks'"):
        lr.load_ruleset({"variants": ["sharks"]})
    with pytest.raises(lr.ContentError, match=r"plugins\[0\]: unknown plugin 'no_such_module_xyz'"):
        lr.load_ruleset({"plugins": ["no_such_module_xyz"]})
    with pytest.raises(lr.ContentError, match=r"plugins\[0\]: unknown plugin 'lifeboat_rules.no_such'"):
        lr.load_ruleset({"plugins": ["lifeboat_rules.no_such"]})
    with pytest.raises(lr.ContentError, match="has no 'nothing_here'"):
        lr.load_ruleset({"plugins": ["lifeboat_rules.rules.status:nothing_here"]})


def test_an_expansion_listed_as_a_variant_is_refused():
    with pytest.raises(lr.ContentError, match=r"variants\[0\]: 'cannibalism' is an expansion"):
        lr.load_ruleset({"variants": ["cannibalism"]})
    with pytest.raises(lr.ContentError, match=r"expansions\[0\]: 'shark' is a variant"):
        lr.load_ruleset({"expansions": ["shark"]})


def test_a_plugin_module_that_cannot_be_imported(plugin):
    broken = plugin("raise RuntimeError('the plugin is broken')\n")
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [broken]})
    text = str(info.value)
    assert info.value.path == "plugins[0]" and broken in text
    assert "RuntimeError: the plugin is broken" in text and f"{broken}.py" in text
    syntax = plugin("def oops(:\n    pass\n")
    with pytest.raises(lr.ContentError, match=rf"plugins\[0\]: plugin '{syntax}' cannot be imported .*SyntaxError.*line 1"):
        lr.load_ruleset({"plugins": [syntax]})
    missing = plugin("import lb_dependency_that_is_not_installed\n")
    with pytest.raises(lr.ContentError, match="cannot be imported.*lb_dependency_that_is_not_installed"):
        lr.load_ruleset({"plugins": [missing]})


def test_a_hook_implementation_with_a_wrong_signature(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_damage(game, victim, amount):
            return amount
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = str(info.value)
    assert info.value.path == "plugins[0]" and info.value.where == "<ruleset mapping>"
    assert f"plugin 'plugin:{name}'" in text and "lifeboat_damage" in text
    assert "victim" in text and "hookspec" in text     # the argument the hook does not have


def test_an_unknown_hook_name(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_contnet(content):
            pass
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = str(info.value)
    assert f"plugin 'plugin:{name}'" in text and "unknown hook 'lifeboat_contnet'" in text
    assert "did you mean 'lifeboat_content'" in text
    assert info.value.path == "plugins[0]"
    # the module by its name (an audit read pluggy's "<module 'x'>"), and no stray "?;"
    assert f"in plugin {name};" in text and "<module" not in text and "?;" not in text


def test_a_wrapper_that_is_not_a_generator(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl(wrapper=True)
        def lifeboat_damage(game, character, amount, cause):
            return amount
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = str(info.value)
    assert info.value.path == "plugins[0]" and f"plugin 'plugin:{name}'" in text
    assert "lifeboat_damage" in text and "wrapper" in text and "not a generator" in text


def test_registration_hooks_answering_nonsense_name_the_plugin(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_action_types():
            return {"dance": 1}

        @hookimpl
        def lifeboat_options():
            return {"tea": {"default": "milk", "values": ["lemon"]}}
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = problem_text(info.value)
    assert f"plugin 'plugin:{name}': lifeboat_action_types must return a list" in text
    assert "option 'tea': the default 'milk' is not one of its values" in text


def test_a_plugin_registering_an_existing_action_type(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl
        from lifeboat_rules.actions import ActionType

        @hookimpl
        def lifeboat_action_types():
            return [ActionType("row", "X", lambda *a: None, lambda *a: [()], lambda *a: None,
                               kinds=("turn",))]
    """)
    with pytest.raises(lr.ContentError, match=rf"plugins\[0\]: plugin 'plugin:{name}' registers the action type 'row', which 'base.turn' registers already"):
        lr.load_ruleset({"plugins": [name]})


MALFORMED_TYPES = {
    "resolve": ('ActionType("dance", "X", ok, once, None, kinds=("turn",))',
                "action type 'dance': resolve must be a function"),
    "check": ('ActionType("dance", "X", "yes", once, ok, kinds=("turn",))',
              "action type 'dance': check must be a function"),
    "params": ('ActionType("dance", "X", ok, once, ok, params=("card",), kinds=("turn",))',
               "action type 'dance': params must be a tuple of Param"),
    "domain": ('ActionType("dance", "X", ok, once, ok, params=(Param("card", "card"),), kinds=("turn",))',
               "action type 'dance': params must be a tuple of Param"),
    "by-param": ('ActionType("dance", "X", ok, once, ok, params=(Param("by", Domain.CHARACTER),), kinds=("turn",))',
                 "action type 'dance': params must be a tuple of Param"),
    "kinds": ('ActionType("dance", "X", ok, once, ok, kinds="turn")',
              "action type 'dance': kinds must be a tuple"),
    "name": ('ActionType(5, "X", ok, once, ok, kinds=("turn",))',
             "an action type's name must be a non-empty string, not 5"),
    "private": ('ActionType("dance", "X", ok, once, ok, kinds=("turn",), private=("pile",))',
                "action type 'dance': private must be a tuple of its params' names"),
    "record": ('("dance", ok, ok)', "is not a lifeboat_rules.actions.ActionType"),
}


@pytest.mark.parametrize("case", list(MALFORMED_TYPES))
def test_a_malformed_action_type_is_refused_at_load_time(plugin, case):
    """What a game would trip over later (a resolve that is not a function: listed, then a
    crash blamed on nobody at apply; params that are not Param records; kinds given as one
    string) is a ContentError naming the plugin and its place when the ruleset is loaded."""
    record, expected = MALFORMED_TYPES[case]
    name = plugin(f"""
        from lifeboat_rules import hookimpl
        from lifeboat_rules.actions import ActionType, Domain, Param

        def ok(*args):
            return None

        def once(*args):
            return [()]

        @hookimpl
        def lifeboat_action_types():
            return [{record}]
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    assert info.value.path == "plugins[0]"
    assert f"plugin 'plugin:{name}': lifeboat_action_types: " in str(info.value)
    assert expected in str(info.value)


def test_a_malformed_effect_is_refused_at_load_time(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl
        from lifeboat_rules.actions import Effect

        @hookimpl
        def lifeboat_effects():
            return {"drink": Effect("drink", "X", None, None), "sip": "no"}
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    problems = info.value.problems
    assert len(problems) == 2
    assert f"plugins[0]: plugin 'plugin:{name}': lifeboat_effects: 'drink': targets and resolve must be functions" in problems
    assert f"plugins[0]: plugin 'plugin:{name}': lifeboat_effects: 'sip' is not a lifeboat_rules.actions.Effect" in problems


def test_a_plugin_failing_in_lifeboat_content(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_content(content):
            content["characters"]["nobody"]["size"] += 1
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = str(info.value)
    assert f"plugin 'plugin:{name}' failed in lifeboat_content: KeyError" in text
    assert f"{name}.py" in text and info.value.path == "plugins[0]"


def test_a_plugin_content_file_with_unknown_keys_or_wrong_types(plugin, tmp_path):
    (tmp_path / "house_content.yaml").write_text(
        "characters:\n  madame_wong: {size: three, survival: 9, seat: 65, hair: black}\n")
    name = plugin(f"""
        from lifeboat_rules import hookimpl
        from lifeboat_rules.content import merge_file

        @hookimpl
        def lifeboat_content(content):
            merge_file(content, {str(tmp_path / "house_content.yaml")!r})
    """)
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"plugins": [name]})
    text = problem_text(info.value)
    assert f"plugin 'plugin:{name}' (lifeboat_content)" in text and "house_content.yaml" in text
    assert "characters.madame_wong.size: 'three' is not of type 'integer'" in text
    assert "characters.madame_wong.hair: unknown key 'hair'" in text


def test_a_ruleset_file_with_unknown_keys_and_wrong_types(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text("name: house\nexpansion: [cannibalism]\nvariants: shark\n")
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset(str(path))
    text = problem_text(info.value)
    assert str(path) in text and "expansion: unknown key 'expansion'; did you mean 'expansions'?" in text
    assert "variants: 'shark' is not of type 'array'" in text


def test_conflicting_and_required_plugins(plugin):
    first = plugin("LIFEBOAT_CONFLICTS = ('quick',)\n")
    with pytest.raises(lr.ContentError, match=rf"plugins\[0\]: '{first}' cannot be combined with 'quick'"):
        lr.load_ruleset({"variants": ["quick"], "plugins": [first]})
    assert lr.load_ruleset({"plugins": [first]})           # alone it is fine
    needy = plugin("LIFEBOAT_REQUIRES = ('cannibalism',)\n")
    with pytest.raises(lr.ContentError, match=f"'{needy}' needs 'cannibalism' in the same ruleset"):
        lr.load_ruleset({"plugins": [needy]})
    assert lr.load_ruleset({"expansions": ["cannibalism"], "plugins": [needy]})


def test_the_same_plugin_twice():
    with pytest.raises(lr.ContentError, match="registered twice"):
        lr.load_ruleset({"variants": ["shark"], "plugins": ["lifeboat_rules.expansions.shark"]})


def test_invalid_overrides_after_merging():
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"overrides": {"characters": {"the_kid": {"size": 0}},
                                       "setup": {"players": {"min": 4, "max": 9}}}})
    text = problem_text(info.value)
    assert "overrides.characters.the_kid.size: 0 is less than the minimum of 1" in text
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset({"overrides": {"setup": {"players": {"min": 4, "max": 9}}}})
    assert info.value.path == "overrides.setup.players.max"
    assert "9 players need 9 characters" in str(info.value)
    with pytest.raises(lr.ContentError, match=r"overrides.provisions.jewels.treasure.set.*0 to 5 cards"):
        lr.load_ruleset({"overrides": {"provisions": {"jewels": {"count": 5}}}})
    with pytest.raises(lr.ContentError, match="madame_wong.*a new character needs .*lacks seat"):
        lr.load_ruleset({"overrides": {"characters": {"madame_wong": {"name": "Madame Wong",
                                                                      "size": 3, "survival": 9}}}})
    with pytest.raises(lr.ContentError, match="unknown effect 'juggle'"):
        lr.load_ruleset({"overrides": {"provisions": {"water": {"special": {"effect": "juggle"}}}}})


def test_every_problem_is_reported_at_once(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(textwrap.dedent("""
        expansions: [canibalism]
        options: {rowing: sometimes, colour: red}
        overrides:
          characters: {the_kid: {size: -1}}
    """))
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset(str(path))
    text = "\n".join(info.value.problems)
    assert len(info.value.problems) == 4
    for expected in ("expansions[0]: unknown expansion 'canibalism'",
                     "options.rowing: 'sometimes' is not one of ['each', 'keep_one']",
                     "options.colour: unknown option", "overrides.characters.the_kid.size"):
        assert expected in text


def test_overrides_deep_merge_and_null_deletes(tmp_path):
    ruleset = lr.load_ruleset({"overrides": {"characters": {"the_kid": {"size": 4}},
                                             "provisions": {"chum": None, "water": {"count": 12}}}})
    kid = ruleset.content.characters["the_kid"]
    assert (kid.size, kid.survival, kid.pickpocket) == (4, 9, True)
    assert "chum" not in ruleset.content.provisions
    assert sum(i.count for i in ruleset.content.provisions.values()) == 42 - 2 - 4
    # overrides come after the plugins' content: shark's +1 first, then the override
    shark = lr.load_ruleset({"variants": ["shark"], "overrides": {"characters": {"the_kid": {"size": 10}}}})
    assert shark.content.characters["the_kid"].size == 10
    # extends: a child's null removes what its parent added
    parent = tmp_path / "parent.yaml"
    parent.write_text("variants: [shark]\noverrides:\n  provisions: {lucky_charm: {name: Lucky Charm, count: 1}}\n")
    child = tmp_path / "child.yaml"
    child.write_text("extends: parent.yaml\nexpansions: [cannibalism]\n"
                     "overrides:\n  provisions: {lucky_charm: null}\n")
    assert "lucky_charm" in lr.load_ruleset(str(parent)).content.provisions
    loaded = lr.load_ruleset(str(child))
    assert "lucky_charm" not in loaded.content.provisions
    assert loaded.spec["variants"] == ["shark"] and loaded.spec["expansions"] == ["cannibalism"]
    assert loaded.content.characters["dr_harter"].size == 5


def test_options_validation(plugin):
    for value in ("fixed", "swapped_acts_next"):
        assert lr.load_ruleset({"options": {"swap_turn_order": value}}).options["swap_turn_order"] == value
    with pytest.raises(lr.ContentError, match=r"options.rowing: 'sideways' is not one of"):
        lr.load_ruleset({"options": {"rowing": "sideways"}})
    with pytest.raises(lr.ContentError, match=r"options.rowing_markers: unknown option .*did you mean 'rowing_marker'"):
        lr.load_ruleset({"options": {"rowing_markers": "always"}})
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_options():
            return {"tea_time": {"default": "never", "values": ["never", "at_four"]}}
    """)
    assert lr.load_ruleset({"plugins": [name]}).options["tea_time"] == "never"
    assert lr.load_ruleset({"plugins": [name], "options": {"tea_time": "at_four"}}).options["tea_time"] == "at_four"
    with pytest.raises(lr.ContentError, match="unknown option"):
        lr.load_ruleset({"options": {"tea_time": "at_four"}})      # not without the plugin


def test_two_packages_claiming_one_entry_point_name(monkeypatch):
    monkeypatch.setattr(plugins_module, "entry_point_plugins",
                        lambda: {"twin": ["pkg_a.rules", "pkg_b.rules"]})
    with pytest.raises(lr.ContentError, match=r"plugins\[0\]: the plugin name 'twin' is registered by more than one installed package"):
        lr.load_ruleset({"plugins": ["twin"]})


# --------------------------------------------------------------------------- errors during a game

def _fight_game(ruleset):
    game = lr.new_game(ruleset, setup={"seats": ["the_captain", "lady_lauren", "the_kid", "frenchy"],
                                       "hand": {"lady_lauren": ["cash"]}, "phase": "action"})
    game.apply({"by": "the_captain", "type": "rob", "target": "lady_lauren", "card": "hand"})
    game.apply({"by": "lady_lauren", "type": "refuse"})
    return game


def test_a_plugin_raising_during_apply_leaves_the_game_as_it_was(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_damage(game, character, amount, cause):
            if cause == "fight":
                raise ZeroDivisionError("no fighting on deck")
    """)
    ruleset = lr.load_ruleset({"plugins": [name]})
    assert ruleset.rules.guarded
    game = _fight_game(ruleset)
    with pytest.raises(lr.PluginError) as info:
        while True:     # pass in the fight window until it closes and the loser takes damage
            before = dump(game)
            game.apply({"by": game.pending[0].by, "type": "pass"})
    error = info.value
    assert error.plugin == f"plugin:{name}" and isinstance(error, lr.IllegalAction)
    assert f"plugin plugin:{name} failed while applying pass" in str(error)
    assert "ZeroDivisionError: no fighting on deck" in str(error)
    assert isinstance(error.__cause__, ZeroDivisionError)
    assert dump(game) == before                 # the failing action left no trace
    assert game.pending and game.legal_actions(game.pending[0].by)


def test_the_failed_apply_changes_nothing(plugin):
    name = plugin("""
        from lifeboat_rules import effects, hookimpl

        @hookimpl
        def lifeboat_status_changed(game, character, old, new):
            effects.heal(game, character, 1, "fairy")     # a change first ...
            raise ValueError("... then a crash")
    """)
    game = lr.new_game({"plugins": [name]}, setup={
        "seats": ["the_captain", "the_kid", "frenchy"], "damage": {"the_kid": 2},
        "hand": {"the_kid": ["cash"]}, "phase": "action"})
    game.apply({"by": "the_captain", "type": "rob", "target": "the_kid", "card": "hand"})
    game.apply({"by": "the_kid", "type": "refuse"})
    before = dump(game)
    with pytest.raises(lr.PluginError, match=f"plugin:{name}") as info:
        game.apply({"by": "frenchy", "type": "pass"})       # the fight resolves: the Kid is knocked out
    assert info.value.plugin == f"plugin:{name}"
    assert dump(game) == before


def test_a_plugin_raising_in_lifeboat_refuse(plugin):
    """lifeboat_refuse is asked about every move listed or applied while a plugin implements
    it: when it raises, legal_actions, legal_ids and apply fail with a PluginError naming the
    plugin, and the game is unchanged."""
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_refuse(game, action):
            if action["by"] == "the_kid":
                raise RuntimeError("kids never act")
    """)
    game = lr.new_game({"plugins": [name]}, setup={"seats": ["the_kid", "frenchy"], "phase": "action"})
    before = dump(game)
    for attempt in (lambda: game.legal_actions("the_kid"), lambda: game.legal_ids("the_kid"),
                    lambda: game.apply({"by": "the_kid", "type": "pass"})):
        with pytest.raises(lr.PluginError, match="kids never act") as info:
            attempt()
        assert info.value.plugin == f"plugin:{name}"
        assert isinstance(info.value.__cause__, RuntimeError)
        assert dump(game) == before
    assert game.legal_actions("frenchy") == []        # not pending, holding nothing: no move


def _dance_plugin(plugin, resolve_body: str) -> str:
    return plugin(f"""
        from lifeboat_rules import effects, hookimpl
        from lifeboat_rules.actions import ActionType, Domain, Param
        from lifeboat_rules.records import Kind, Refusal

        SEEN = []

        def check(game, stage, by, partner):
            if partner == by or partner not in game.state.seats:
                return Refusal("HOUSE-DANCE", "dance with someone else on board")
            return None

        def moves(game, stage, by):
            return [(c,) for c in game.state.seats if c != by]

        def resolve(game, stage, by, partner):
{textwrap.indent(textwrap.dedent(resolve_body), " " * 12)}

        DANCE = ActionType("dance", "HOUSE-DANCE", check, moves, resolve,
                           params=(Param("partner", Domain.CHARACTER),), kinds=(Kind.TURN,))

        @hookimpl
        def lifeboat_action_types():
            return [DANCE]
    """)


def test_a_plugin_action_type_is_listed_checked_and_resolved_with_its_stage(plugin):
    """A plugin adds a move by registering an action type: listed on its decision kind (the
    turn), refused by its own check with its rule, resolved with the stage it was taken at,
    its integer in the ruleset's action space."""
    name = _dance_plugin(plugin, """
        SEEN.append((type(stage).__name__, stage.actor))
        effects.emit(game, {"type": "dance", "character": by, "partner": partner})
        stage.acted = True
    """)
    module = sys.modules[name] if name in sys.modules else __import__(name)
    game = lr.new_game({"plugins": [name]}, setup={"seats": ["the_kid", "frenchy", "lady_lauren"],
                                                   "phase": "action"})
    legal = game.legal_actions("the_kid")
    dances = [a for a in legal if a["type"] == "dance"]
    assert dances == [{"by": "the_kid", "type": "dance", "partner": "frenchy"},
                      {"by": "the_kid", "type": "dance", "partner": "lady_lauren"}]
    assert not [a for a in game.legal_actions("frenchy") if a["type"] == "dance"]   # not its turn
    assert sorted(game.action_id(a) for a in legal) == game.legal_ids("the_kid")
    before = dump(game)
    with pytest.raises(lr.IllegalAction) as info:
        game.apply({"by": "the_kid", "type": "dance", "partner": "the_kid"})
    assert info.value.rule == "HOUSE-DANCE" and dump(game) == before
    with pytest.raises(lr.IllegalAction) as info:
        game.apply({"by": "frenchy", "type": "dance", "partner": "the_kid"})
    assert info.value.rule == "R-ACT-1" and dump(game) == before        # the Kid's turn
    events = game.apply_id("the_kid", game.action_id(dances[1]))
    assert events[:2] == [{"type": "action", "action": dances[1]},
                          {"type": "dance", "character": "the_kid", "partner": "lady_lauren"}]
    assert module.SEEN == [("Turn", "the_kid")]
    assert game.pending[0].by == "frenchy"                # the dance was the Kid's turn (R-ACT-2)


def test_a_plugin_action_type_whose_resolve_raises(plugin):
    """Nothing resolves the listed move (its resolver gives up half way): apply fails with a
    PluginError naming the plugin, and the game is as it was."""
    name = _dance_plugin(plugin, """
        effects.emit(game, {"type": "dance", "character": by, "partner": partner})
        raise NotImplementedError("nobody taught me to dance")
    """)
    game = lr.new_game({"plugins": [name]}, setup={"seats": ["the_kid", "frenchy"], "phase": "action"})
    action = {"by": "the_kid", "type": "dance", "partner": "frenchy"}
    assert action in game.legal_actions("the_kid")
    before = dump(game)
    with pytest.raises(lr.PluginError, match="nobody taught me to dance") as info:
        game.apply(action)
    assert info.value.plugin == f"plugin:{name}"
    assert f"plugin plugin:{name} failed while applying dance" in str(info.value)
    assert dump(game) == before


def test_a_plugin_raising_while_dealing(plugin):
    name = plugin("""
        from lifeboat_rules import hookimpl

        @hookimpl
        def lifeboat_deal(game):
            raise KeyError("deck")
    """)
    with pytest.raises(lr.PluginError) as info:
        lr.new_game({"plugins": [name]}, players=4, seed=1)
    assert info.value.plugin == f"plugin:{name}"


# --------------------------------------------------------------------------- the hooks at work

def test_game_hooks_add_forbid_resolve_and_adjust(plugin):
    name = plugin("""
        from lifeboat_rules import effects, hookimpl
        from lifeboat_rules.actions import ActionType
        from lifeboat_rules.records import Kind

        CALLS = []

        @hookimpl
        def lifeboat_phase_start(game, phase):
            CALLS.append(("start", phase))

        @hookimpl
        def lifeboat_phase_end(game, phase):
            CALLS.append(("end", phase))

        def sing(game, stage, by):
            effects.emit(game, {"type": "song", "character": by})
            stage.acted = True

        @hookimpl
        def lifeboat_action_types():        # add a "sing" turn action
            return [ActionType("sing", "HOUSE-SING", lambda *a: None, lambda *a: [()], sing,
                               kinds=(Kind.TURN,))]

        @hookimpl
        def lifeboat_refuse(game, action):  # forbid robbery and trade offers
            if action["type"] in ("rob", "offer"):
                return "no robbery and no trade on this boat"

        @hookimpl
        def lifeboat_resolve_action(game, action):
            if action["type"] == "swap":    # a swap is a hug here: nobody moves
                effects.emit(game, {"type": "hug", "character": action["by"],
                                    "target": action["target"]})
                game.top.acted = True
                return True

        @hookimpl(wrapper=True)
        def lifeboat_damage(game, character, amount, cause):
            amount = yield
            return 0 if cause == "thirst" else amount      # nobody suffers from thirst

        @hookimpl
        def lifeboat_status_changed(game, character, old, new):
            CALLS.append(("status", character, old, new))

        @hookimpl
        def lifeboat_overboard(game, card):
            return ["the_kid"]                             # whatever the card says

        @hookimpl
        def lifeboat_thirst(game, character, card):
            return 2 if character == "frenchy" else 0

        @hookimpl(wrapper=True)
        def lifeboat_score(game, character):
            parts = yield
            parts["style"] = 1
            return parts
    """)
    module = sys.modules.get(name) or __import__(name)
    game = lr.new_game({"plugins": [name]}, setup={
        "seats": ["lady_lauren", "frenchy", "the_kid"], "hand": {"frenchy": ["cash"]},
        "seagulls": 3, "navigation": [{"id": "calm"}, {"id": "land", "seagull": 1}],
        "phase": "action"})
    legal = game.legal_actions("lady_lauren")
    assert {"by": "lady_lauren", "type": "sing"} in legal
    assert not [a for a in legal if a["type"] in ("rob", "offer")]
    assert len(game.legal_ids("lady_lauren")) == len(legal)
    before = dump(game)
    for forbidden in ({"by": "lady_lauren", "type": "rob", "target": "frenchy", "card": "hand"},
                      {"by": "lady_lauren", "type": "offer", "to": "frenchy", "give": [], "take": ["cash"]}):
        with pytest.raises(lr.IllegalAction, match="no robbery and no trade on this boat") as info:
            game.apply(forbidden)
        assert info.value.rule == "plugin" and f"plugin:{name}" in str(info.value)
    assert dump(game) == before
    assert not [a for a in game.legal_actions("frenchy") if a["type"] == "offer"]   # holds cash
    game.apply({"by": "lady_lauren", "type": "sing"})
    assert {"type": "song", "character": "lady_lauren"} in game.events
    events = game.apply({"by": "frenchy", "type": "swap", "target": "the_kid"})
    assert {"type": "hug", "character": "frenchy", "target": "the_kid"} in events
    assert game.state.seats == ["lady_lauren", "frenchy", "the_kid"]   # the hug moved nobody
    assert [d.by for d in game.pending] == ["the_kid"]                 # no answer, no fight
    game.apply({"by": "the_kid", "type": "pass"})
    # navigation with "calm": the Kid falls anyway, frenchy is thirsty twice but takes nothing
    state = game.state
    assert state.characters["the_kid"].damage == 1
    assert state.characters["frenchy"].damage == 0
    assert ("start", "navigation") in module.CALLS and ("end", "action") in module.CALLS
    while not game.over:
        decision = game.pending[0]
        game.apply({"by": decision.by, "type": "pass"})
    assert all(parts["style"] == 1 for parts in game.result["breakdown"].values())
    assert game.result["scores"]["the_kid"] == 9 + 1       # survival 9 (R-SCORE-2) and style


def test_a_marker_of_a_plugin_and_a_strength_bonus(plugin):
    """lifeboat_markers registers a marker (saved, restored and shown like the base game's);
    a lifeboat_strength wrapper adds to a member's strength (R-FIGHT-3), which decides the
    fight (R-FIGHT-4: the losing side takes 1 damage; a tie would go to the defender)."""
    name = plugin("""
        from lifeboat_rules import effects, hookimpl
        from lifeboat_rules.records import Marker

        @hookimpl
        def lifeboat_markers():
            return [Marker("lucky", round=False, rule="HOUSE-LUCK")]

        @hookimpl
        def lifeboat_phase_start(game, phase):
            if phase == "action":
                effects.mark(game, "the_kid", "lucky")

        @hookimpl(wrapper=True)
        def lifeboat_strength(game, character):
            strength = yield
            return strength + 10 if "lucky" in game.state.characters[character].markers else strength
    """)
    ruleset = lr.load_ruleset({"plugins": [name]})
    assert ruleset.rules.markers["lucky"].rule == "HOUSE-LUCK"
    game = lr.new_game(ruleset, setup={"seats": ["frenchy", "the_kid", "lady_lauren"],
                                       "hand": {"the_kid": ["cash"]}, "phase": "action"})
    assert game.view(None)["characters"]["the_kid"]["markers"] == ["lucky"]
    game.apply({"by": "frenchy", "type": "rob", "target": "the_kid", "card": "hand"})
    game.apply({"by": "the_kid", "type": "refuse"})
    # Frenchy 6 against the Kid 3 + 10
    assert game.view(None)["stage"]["strength"] == {"attacker": 6, "defender": 13}
    restored = lr.Game.from_dict(json.loads(dump(game)))        # the marker is known: restored
    while game.top.KIND == "fight":
        action = {"by": game.pending[0].by, "type": "pass"}
        events = game.apply(action)
        assert restored.apply(action) == events
    fight = next(e for e in game.log if e["type"] == "fight")
    assert fight["winner"] == "defender" and fight["strength"] == {"attacker": 6, "defender": 13}
    chars = game.state.characters
    assert (chars["frenchy"].damage, chars["the_kid"].damage) == (1, 0)
    assert len(chars["the_kid"].hand) == 1                        # nothing robbed
    assert dump(restored) == dump(game)


def test_no_hook_is_called_on_the_hot_path_when_nobody_implements_it(monkeypatch):
    """The base game answers its own hooks (damage, thirst, overboard, strength, score)
    inline: a game with no plugin from outside calls no hook at all, from the deal to the
    score."""
    rules = lr.load_ruleset("classic").rules
    for attribute in ("event_hook", "status_hook", "refuse_hook", "phase_start_hook",
                      "phase_end_hook", "resolve_hook", "damage_hook", "thirst_hook",
                      "overboard_hook", "strength_hook", "score_hook"):
        assert getattr(rules, attribute) is None, attribute
    calls = []
    original = pluggy.HookCaller.__call__

    def counting(self, *args, **kwargs):
        calls.append(self.name)
        return original(self, *args, **kwargs)
    monkeypatch.setattr(pluggy.HookCaller, "__call__", counting)
    game = lr.new_game("classic", players=5, seed=4)
    bot = RandomPlayer(4, free_rate=0.2)
    while not game.over:
        for who in game.state.characters:
            game.legal_actions(who)
            game.legal_ids(who)
        game.apply(bot.act(game))
    assert game.result["scores"]
    assert calls == []


# --------------------------------------------------------------------------- entry points

def test_a_third_party_plugin_found_by_its_entry_point(tmp_path, monkeypatch):
    package = tmp_path / "lb_tp_rules"
    package.mkdir()
    (package / "__init__.py").write_text(textwrap.dedent("""
        from lifeboat_rules import hookimpl

        LIFEBOAT_KIND = "variant"

        @hookimpl
        def lifeboat_content(content):
            content["provisions"]["water"]["count"] = 10
    """))
    info = tmp_path / "lb_tp_rules-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: lb-tp-rules\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[lifeboat_rules]\ndry_season = lb_tp_rules\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins_module.entry_point_plugins.cache_clear()
    try:
        assert "dry_season" in plugins_module.known_plugin_names()
        ruleset = lr.load_ruleset({"variants": ["dry_season"]})
        assert ruleset.content.provisions["water"].count == 10
        assert ruleset.rules.guarded                     # outside code: apply is a transaction
        game, _ = play_random_game(ruleset, 4, 1)
        assert game.over
        with pytest.raises(lr.ContentError, match="'dry_season' is a variant"):
            lr.load_ruleset({"expansions": ["dry_season"]})
    finally:
        monkeypatch.undo()
        plugins_module.entry_point_plugins.cache_clear()


def test_the_shipped_plugins_are_entry_points():
    points = plugins_module.entry_point_plugins()
    for name in ("cannibalism", "shark", "quick", "single_card_rowing"):
        assert points.get(name) == [plugins_module.SHIPPED_PLUGINS[name]]
    for name, kind in (("cannibalism", "expansion"), ("shark", "variant"), ("quick", "variant"),
                       ("single_card_rowing", "variant")):
        module = plugins_module.import_plugin(name, "<test>", "")
        assert module.LIFEBOAT_KIND == kind


# --------------------------------------------------------------------------- the hook list

ISSUE_HOOKS = {
    "registering content": "lifeboat_content",
    "setup": "lifeboat_deal",
    "the start of each phase": "lifeboat_phase_start",
    "the end of each phase": "lifeboat_phase_end",
    "legal actions (add)": "lifeboat_action_types",
    "legal actions (forbid)": "lifeboat_refuse",
    "resolving an action": "lifeboat_resolve_action",
    "damage (modify or prevent)": "lifeboat_damage",
    "status changes": "lifeboat_status_changed",
    "thirst": "lifeboat_thirst",
    "overboard": "lifeboat_overboard",
    "scoring": "lifeboat_score",
}


def _hook_names() -> list:
    """The hooks pluggy knows from hookspecs.py."""
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    return sorted(name for name, caller in vars(manager.hook).items()
                  if isinstance(caller, pluggy.HookCaller))


def test_every_hook_is_prefixed_and_documented():
    names = _hook_names()
    assert set(ISSUE_HOOKS.values()) <= set(names)
    assert "lifeboat_legal_actions" not in names          # replaced by lifeboat_refuse
    for name in names:
        assert name.startswith("lifeboat_")
        assert inspect.getdoc(getattr(hookspecs, name))
    firstresult = {name for name in names
                   if getattr(hookspecs, name).lifeboat_rules_spec.get("firstresult")}
    assert firstresult == {"lifeboat_damage", "lifeboat_score", "lifeboat_thirst",
                           "lifeboat_overboard", "lifeboat_strength", "lifeboat_refuse",
                           "lifeboat_resolve_action", "lifeboat_phases"}
    docs = open(os.path.join(os.path.dirname(__file__), "..", "docs", "house-rules.md")).read()
    table = re.findall(r"^\| `(lifeboat_\w+)\(", docs, flags=re.MULTILINE)
    assert sorted(table) == names, (f"docs/house-rules.md's hook table lacks "
                                    f"{sorted(set(names) - set(table))} and lists "
                                    f"{sorted(set(table) - set(names))}, which are no hooks")


# --------------------------------------------------------------------------- lifeboat-rules validate

def test_validate_reports_every_problem_of_a_ruleset(tmp_path, capsys):
    good = tmp_path / "good.yaml"
    good.write_text("name: good\nexpansions: [cannibalism]\nvariants: [shark]\n"
                    "options: {rowing: keep_one}\noverrides:\n  characters: {the_kid: {size: 4}}\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("expansions: [canibalism]\noptions: {rowing: sometimes}\n"
                   "overrides:\n  provisions: {water: {count: lots}}\n")
    content = tmp_path / "wong.yaml"
    content.write_text("characters:\n  madame_wong: {size: 3, survival: 9, seat: 65}\n"
                       "setup:\n  players: {min: 4, max: 7}\n")
    assert cli_main(["validate", str(good), str(content)]) == 0
    out = capsys.readouterr().out
    assert f"OK {good} (ruleset)" in out and f"OK {content} (content)" in out
    assert cli_main(["validate", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"INVALID {bad} (ruleset)" in out
    assert "expansions[0]: unknown expansion 'canibalism'" in out
    assert "options.rowing: 'sometimes' is not one of" in out
    assert "overrides.provisions.water.count: 'lots' is not of type 'integer'" in out
    assert "1 valid, 1 invalid" in out


def test_validate_accepts_the_builtin_rulesets(capsys):
    folder = os.path.join(os.path.dirname(lr.__file__), "data", "rulesets")
    assert cli_main(["validate", folder]) == 0
    assert "cannibalism.yaml (ruleset)" in capsys.readouterr().out


def test_a_plugin_listing_by_who_has_passed_is_listed_again_after_every_pass(plugin):
    """The engine keeps the other characters' listings across a pass in a window that stays
    open only where no code from outside the package takes part (``Rules.
    listings_outlive_passes``): a plugin's free move that reads who has passed (here: console
    a character that passed in the open window) is listed anew after each pass."""
    name = plugin("""
        from lifeboat_rules import effects, hookimpl
        from lifeboat_rules.actions import ActionType, Domain, Param
        from lifeboat_rules.records import Refusal
        from lifeboat_rules.stages import Window

        def passed(stage):
            return list(stage.passed) if isinstance(stage, Window) else []

        def check(game, stage, by, whom):
            if whom == by or whom not in passed(stage):
                return Refusal("HOUSE-CONSOLE", "console someone else who passed")
            return None

        def moves(game, stage, by):
            return [(c,) for c in passed(stage) if c != by]

        def resolve(game, stage, by, whom):
            effects.emit(game, {"type": "console", "character": by, "whom": whom})

        @hookimpl
        def lifeboat_action_types():
            return [ActionType("console", "HOUSE-CONSOLE", check, moves, resolve,
                               params=(Param("whom", Domain.CHARACTER),), kinds=("free",))]
    """)
    assert not lr.load_ruleset({"plugins": [name]}).rules.listings_outlive_passes
    window_passes = 0
    for seed in range(6):
        game = lr.new_game({"plugins": [name]}, players=4, seed=seed)
        bot = RandomPlayer(seed, free_rate=0.0)
        while not game.over:
            action = bot.act(game)
            for who in game.state.characters:
                game.moves(who)
            was_window = action["type"] == "pass" and isinstance(game.top, Window)
            game.apply(action)
            if was_window and isinstance(game.top, Window):
                window_passes += 1
                fresh = game.clone()
                for who in game.state.characters:
                    assert game.legal_actions(who) == fresh.legal_actions(who), (who, action)
    assert window_passes > 0
