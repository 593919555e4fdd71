"""The worked example of docs/house-rules.md, run for real: (1) the pure-YAML house rule,
(2) the code house rule loaded by module path, (3) the same plugin as a package installed into
a temporary venv and found by its entry point; each played to the end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import lifeboat_rules as lr
from lifeboat_rules import plugins as plugins_module
from lifeboat_rules import rulesets as rulesets_module
from lifeboat_rules.bots import RandomPlayer, play_random_game
from lifeboat_rules.scenario import check_paths

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "examples")
EXAMPLES = os.path.normpath(EXAMPLES)
PACKAGE = os.path.join(EXAMPLES, "lifeboat-drink-water")


def example(name: str) -> str:
    return os.path.join(EXAMPLES, name)


@pytest.fixture
def module_path(monkeypatch):
    """The plugin module importable by its module path (part 2: PYTHONPATH=lifeboat-drink-water)."""
    monkeypatch.syspath_prepend(PACKAGE)
    yield
    sys.modules.pop("lifeboat_drink_water", None)


# --------------------------------------------------------------------------- part 1: pure YAML

def test_family_night_is_classic_with_a_bigger_kid_fewer_waters_and_madame_wong():
    ruleset = lr.load_ruleset(example("family-night.yaml"))
    content = ruleset.content
    kid = content.characters["the_kid"]
    assert (kid.size, kid.survival, kid.pickpocket) == (4, 9, True)
    wong = content.characters["madame_wong"]
    assert (wong.name, wong.size, wong.survival) == ("Madame Wong", 3, 9)
    order = list(content.characters)
    assert order.index("first_mate") < order.index("madame_wong") < order.index("frenchy")
    assert content.provisions["water"].count == 12
    assert sum(i.count for i in content.provisions.values()) == 38
    assert "nav-13" in content.navigation and len(content.navigation) == 25
    assert ruleset.players == range(4, 8)
    assert ruleset.spec["plugins"] == [] and not ruleset.rules.guarded    # no code at all


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_family_night_plays_to_the_end(players):
    ruleset = lr.load_ruleset(example("family-night.yaml"))
    for seed in range(5):
        game, _ = play_random_game(ruleset, players, seed)
        assert game.over
        if "madame_wong" in game.state.characters:
            assert game.state.characters["madame_wong"].size == 3


def test_madame_wong_joins_a_dealt_game_with_her_love_and_hate_cards():
    ruleset = lr.load_ruleset(example("family-night.yaml"))
    game = lr.new_game(ruleset, players=7, seed=11)
    state = game.state
    assert state.seats == ["lady_lauren", "sir_stephen", "the_captain", "first_mate",
                           "madame_wong", "frenchy", "the_kid"]
    assert sorted(c.love for c in state.characters.values()) == sorted(state.characters)
    assert sorted(c.hate for c in state.characters.values()) == sorted(state.characters)


# --------------------------------------------------------------------------- part 2: a plugin module

def test_drink_water_by_module_path(module_path):
    ruleset = lr.load_ruleset(example("drink-water.yaml"))
    assert ruleset.spec["plugins"] == ["lifeboat_drink_water"]
    assert ruleset.content.provisions["water"].effect == "drink"
    assert ruleset.content.characters["madame_wong"].size == 3        # extends family-night
    assert ruleset.rules.guarded                                      # code from outside
    game = lr.new_game(ruleset, setup={"seats": ["the_kid", "frenchy"], "damage": {"the_kid": 2},
                                       "hand": {"the_kid": ["water"]}, "phase": "action"})
    water = game.state.characters["the_kid"].hand[0]
    assert {"by": "the_kid", "type": "use", "card": water} in game.legal_actions("the_kid")
    events = game.apply({"by": "the_kid", "type": "use", "card": "water"})   # a kind: that card
    assert events[0] == {"type": "action", "action": {"by": "the_kid", "type": "use", "card": water}}
    assert {"type": "heal", "character": "the_kid", "amount": 1, "cause": "water"} in events
    assert game.state.characters["the_kid"].damage == 1
    assert [game.state.table.kinds[c] for c in game.state.discard] == ["water"]


def test_the_guide_shows_the_plugin_as_it_is():
    """docs/house-rules.md lists the module's code (all but its docstring): the code a reader
    copies is the code these tests run."""
    with open(os.path.join(PACKAGE, "lifeboat_drink_water.py")) as handle:
        source = handle.read()
    code = source[source.index("from lifeboat_rules import"):]
    with open(os.path.join(EXAMPLES, "..", "house-rules.md")) as handle:
        guide = handle.read()
    assert f"```python\n{code}```" in guide


def test_drink_water_games_are_played_to_the_end_and_water_gets_drunk(module_path):
    ruleset = lr.load_ruleset(example("drink-water.yaml"))
    drunk = 0
    for seed in range(20):
        game, _ = play_random_game(ruleset, 4 + seed % 4, seed)
        assert game.over
        drunk += sum(1 for e in game.log if e["type"] == "heal" and e["cause"] == "water")
    assert drunk > 0


def test_the_house_rule_scenarios_pass(module_path):
    outcomes = check_paths([example("drink-water-check.yaml")])
    assert len(outcomes) == 2
    assert all(o.passed for o in outcomes), [o.line() for o in outcomes]


def test_without_the_module_the_ruleset_says_what_is_missing(monkeypatch):
    sys.modules.pop("lifeboat_drink_water", None)
    monkeypatch.setattr(rulesets_module, "_CACHE", {})    # as in a fresh process
    with pytest.raises(lr.ContentError) as info:
        lr.load_ruleset(example("drink-water.yaml"))
    assert info.value.path == "plugins[0]"
    assert "unknown plugin 'lifeboat_drink_water'" in str(info.value)
    assert "drink-water.yaml" in str(info.value)


# --------------------------------------------------------------------------- part 3: the package

PLAY = textwrap.dedent("""
    import json, sys
    import lifeboat_drink_water
    from lifeboat_rules import load_ruleset
    from lifeboat_rules.bots import RandomPlayer, play_random_game
    from lifeboat_rules.plugins import entry_point_plugins

    ruleset = load_ruleset(sys.argv[1])
    games = []
    for seed in range(10):
        game, _ = play_random_game(ruleset, 4 + seed % 4, seed)
        games.append({"over": game.over, "winners": game.result["winners"],
                      "drunk": sum(1 for e in game.log
                                   if e["type"] == "heal" and e["cause"] == "water")})
    print(json.dumps({"entry_point": entry_point_plugins().get("drink_water"),
                      "module": lifeboat_drink_water.__file__,
                      "plugins": ruleset.spec["plugins"],
                      "effect": ruleset.content.provisions["water"].effect,
                      "games": games}))
""")


def _site_packages(python: str) -> str:
    out = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


@pytest.mark.slow
def test_the_packaged_plugin_installed_in_a_temporary_venv(tmp_path):
    # a venv that sees this environment's packages (lifeboat_rules, pip, setuptools, wheel)
    # through a .pth file, so that nothing is downloaded
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = str(venv / ("Scripts" if os.name == "nt" else "bin") / "python")
    host = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    with open(os.path.join(_site_packages(python), "_lifeboat_host.pth"), "w") as pth:
        pth.write("import site; " + "; ".join(f"site.addsitedir({p!r})" for p in sorted(host)) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_REQUIRE_VIRTUALENV")}

    # install a copy (building writes build/ and *.egg-info next to the sources)
    source = tmp_path / "lifeboat-drink-water"
    shutil.copytree(PACKAGE, source)
    install = subprocess.run([python, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
                              "--no-index", "--disable-pip-version-check", "--quiet", str(source)],
                             env=env, capture_output=True, text=True)
    assert install.returncode == 0, install.stdout + install.stderr
    site = _site_packages(python)
    assert os.path.exists(os.path.join(site, "lifeboat_drink_water.py"))

    # the ruleset names the plugin by its entry point; run from another folder
    script = tmp_path / "play.py"
    script.write_text(PLAY)
    run = subprocess.run([python, str(script), example("drink-water-installed.yaml")],
                         env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["entry_point"] == ["lifeboat_drink_water"]
    assert os.path.dirname(report["module"]) == site            # the installed copy
    assert report["plugins"] == ["drink_water"] and report["effect"] == "drink"
    assert all(game["over"] and game["winners"] for game in report["games"])
    assert sum(game["drunk"] for game in report["games"]) > 0

    # and the command line of that environment
    cli = subprocess.run([python, "-m", "lifeboat_rules.cli", "simulate", "--ruleset",
                          example("drink-water-installed.yaml"), "--games", "3"],
                         env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert "drink-water-installed: 3 game(s)" in cli.stdout
    check = subprocess.run([python, "-m", "lifeboat_rules.cli", "validate",
                            example("drink-water-installed.yaml")],
                           env=env, capture_output=True, text=True, cwd=str(tmp_path))
    assert check.returncode == 0, check.stdout + check.stderr


def test_without_the_package_the_entry_point_name_is_unknown_here(monkeypatch):
    monkeypatch.setattr(rulesets_module, "_CACHE", {})
    # in this environment the example package is not installed
    assert "drink_water" not in plugins_module.entry_point_plugins()
    with pytest.raises(lr.ContentError, match="unknown plugin 'drink_water'"):
        lr.load_ruleset(example("drink-water-installed.yaml"))


# --------------------------------------------------------------------------- part 4: words

STORM = os.path.join(EXAMPLES, "storm")


def _blocks(kind: str) -> list:
    with open(os.path.join(EXAMPLES, "..", "house-rules.md"), encoding="utf-8") as handle:
        guide = handle.read()
    part = guide.split("## 4. Words for your house rule", 1)[1].split("\n## ", 1)[0]
    return [block.split("```", 1)[0] for block in part.split(f"```{kind}\n")[1:]]


@pytest.fixture
def storm(monkeypatch):
    monkeypatch.syspath_prepend(STORM)
    yield lr.load_ruleset(example("storm.yaml"))
    sys.modules.pop("lifeboat_storm", None)


def test_the_guide_shows_the_storm_as_it_is():
    with open(os.path.join(STORM, "lifeboat_storm.py"), encoding="utf-8") as handle:
        code = handle.read().split('"""', 2)[2].lstrip("\n")
    with open(example("storm.yaml"), encoding="utf-8") as handle:
        ruleset = handle.read()
    assert _blocks("python")[0] == code
    assert _blocks("yaml") == [ruleset]


def test_the_storm_reads_right_in_english_and_chinese(storm, monkeypatch, capsys):
    """The guide's example, run: its output is the text it shows, word for word (the card's
    own text, the plugin's event in the ruleset's words, then who falls), in both languages."""
    monkeypatch.chdir(EXAMPLES)
    exec(compile(_blocks("python")[1], "house-rules.md", "exec"), {})
    assert capsys.readouterr().out == _blocks("text")[0]


def _storm_game(ruleset, seed=5):
    game = lr.new_game(ruleset, players=6, seed=seed)
    bot = RandomPlayer(seed)
    while not game.over:
        game.apply(bot.act(game))
    return game


def test_the_storm_in_played_games(storm):
    """Whenever the Storm is drawn, every feed tells it in the ruleset's words."""
    seen = 0
    for seed in range(20):
        game = _storm_game(storm, seed)
        if not any(e["type"] == "storm" for e in game.log):
            continue
        seen += 1
        for lang, card in (("en", "Storm is resolved: the two characters at the stern fall "
                                  "overboard."), ("zh", "结算「风暴」：船尾的两个角色落水。")):
            for viewer in [None] + list(game.state.characters):
                lines = [e["text"] for e in game.feed(viewer, lang=lang)]
                assert card in lines
                after = lines[lines.index(card) + 1]
                assert after.startswith("The storm sweeps" if lang == "en" else "风暴把"), after
    assert seen >= 3


def test_without_its_words_the_storm_reads_as_the_guide_says(storm):
    card = {"name": "Storm", "overboard": [], "thirst": [], "oar": False, "fight": False,
            "seagull": 0}
    bare = lr.load_ruleset({**storm.spec, "overrides": {"navigation": {"storm": card}}})
    game = lr.new_game(bare, setup={"seats": ["lady_lauren", "the_captain", "frenchy", "the_kid"],
                                    "rowing_pile": ["storm"], "phase": "navigation"})
    lines = [e["text"] for e in game.feed(None)]
    assert "Storm is resolved: nothing happens." in lines
    assert "Event: storm." in lines


def test_words_and_text_are_checked_like_the_rest_of_the_content():
    with pytest.raises(lr.ContentError, match="words"):
        lr.load_ruleset({"words": {"en": {"events": {"storm": 3}}}})
    with pytest.raises(lr.ContentError, match="words"):
        lr.load_ruleset({"words": {"en": {"sentences": {}}}})
    with pytest.raises(lr.ContentError, match="text"):
        lr.load_ruleset({"overrides": {"navigation": {"nav-19": {"text": {"en": 1}}}}})
