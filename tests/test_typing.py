"""The typed API (docs/api.md, Typing and Front ends): ``py.typed`` ships; the public modules and
the docs' example front end pass ``mypy --strict`` (the example with no ``Any`` at all); mypy
rejects front ends that misuse the types; the ``TypedDict``s of ``lifeboat_rules.types`` are
what the engine really hands out; structured refusals say nothing hidden; the move counter
``Game.actions_applied`` counts accepted actions and survives saving."""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import json
import random
import re
import subprocess
import sys
import typing
from importlib import resources
from pathlib import Path

import pytest

import lifeboat_rules as lr
from lifeboat_rules import types as T
from lifeboat_rules.bots import RandomPlayer

ROOT = Path(__file__).parent.parent
FRONTEND = ROOT / "docs" / "examples" / "frontend.py"
PUBLIC = ["lifeboat_rules/__init__.py", "lifeboat_rules/types.py", "lifeboat_rules/errors.py",
          "lifeboat_rules/records.py", "lifeboat_rules/engine.py", "lifeboat_rules/bots.py"]

def mypy(*paths: str, cache: Path) -> tuple[int, str]:
    """``python -m mypy --strict`` from the repository's root (its pyproject.toml config)."""
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                           "--cache-dir", str(cache), *paths],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    return done.returncode, done.stdout + done.stderr


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mypy_cache")


# --------------------------------------------------------------------------- shipping

def test_py_typed_ships_with_the_package():
    assert resources.files("lifeboat_rules").joinpath("py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^"lifeboat_rules" = \["py\.typed"\]', pyproject, re.M)
    assert re.search(r'^dev = \[.*"mypy', pyproject, re.M)


def test_the_types_cost_nothing_at_run_time():
    """Nothing imports lifeboat_rules.types to play, view, save or describe a game."""
    code = ("import sys, lifeboat_rules as lr\n"
            "from lifeboat_rules.bots import play_random_game, make_bot\n"
            "game, _ = play_random_game('all_in_one', 5, 3)\n"
            "game.view(None); game.events_for(None); lr.Game.from_dict(game.to_dict())\n"
            "lr.describe(game.events[-1], game, 'zh'); make_bot('heuristic', seed=1)\n"
            "assert 'lifeboat_rules.types' not in sys.modules, 'imported at run time'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------- mypy --strict

@pytest.mark.slow   # mypy reads the whole package: some 15 s
def test_the_public_modules_and_the_example_front_end_pass_mypy_strict(cache):
    code, out = mypy(*PUBLIC, "docs/examples/frontend.py", cache=cache)
    assert code == 0, out
    # the example also forbids every expression of type Any: nothing Any leaks from the API
    assert FRONTEND.read_text().startswith('# mypy: disallow-any-expr') or \
        "\n# mypy: disallow-any-expr\n" in FRONTEND.read_text()


@pytest.mark.slow   # mypy reads the web table and what it imports: some 15 s
def test_the_web_tables_modules_type_check_as_they_run(cache):
    """The web table's modules (optional extra ``web``) and the words pass mypy with the bodies
    of their unannotated functions checked too (pyproject.toml's override for
    ``lifeboat_rules.web`` and ``lifeboat_rules.words``): the types mypy infers there are the
    ones the code runs with, and the ones the compiled build runs them on (setup.py)."""
    pytest.importorskip("starlette", reason="needs the web extra: pip install -e '.[web]'")
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--follow-imports=silent",
                           "--cache-dir", str(cache), "-p", "lifeboat_rules.web", "-m", "lifeboat_rules.words"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


# the names the example front end does not use, used with no Any in sight
CLEAN = """
from lifeboat_rules.bots import HeuristicBot, RandomBot, SearchBot, bot_names
from lifeboat_rules.types import Action, DecisionView, Event, SavedGame
ruleset: lr.Ruleset = lr.load_ruleset({"extends": "classic", "variants": ["quick"]})
players: range = ruleset.players
options: dict[str, str] = ruleset.options
name: str = ruleset.name
names: list[str] = bot_names()
me = game.pending[0].by
for bot in (RandomBot(seed=1), HeuristicBot(seed=2), SearchBot(seed=3, budget=0.01)):
    action: Action = bot.choose(game, me)
log: list[Event] = game.events
saved: SavedGame = game.to_dict()
line: str = lr.describe(game.pending[0], game, "zh", viewer=None)
over: bool = game.over
decision: DecisionView | None = game.view(me).get("decision")
try:
    game.apply({"by": me, "type": "fly"})
except lr.IllegalAction as error:
    rule: str = error.rule
    field: str | None = error.field
    value: object = error.value
"""

WRONG = {
    # a view's numbers are ints, its statuses words
    "view": ('v = game.view("the_kid")\n'
             'x: str = v["characters"]["the_kid"]["damage"]\n', "assignment"),
    # legal_actions gives action dicts of known keys
    "action key": ('for a in game.legal_actions("the_kid"):\n'
                   '    print(a["nonsense"])\n', "typeddict-item"),
    # narrowing by type: a pass has no card
    "narrowed": ('for a in game.legal_actions("the_kid"):\n'
                 '    if a["type"] == "pass":\n'
                 '        print(a["card"])\n', "typeddict-item"),
    "pending": ('d = game.pending[0]\n'
                'n: int = d.kind\n', "assignment"),
    "events": ('for e in game.events_for(None):\n'
               '    if e["type"] == "damage":\n'
               '        s: str = e["amount"]\n', "assignment"),
    "result": ('r = game.result\n'
               'print(r["scores"])\n', "index"),
    "refusal field": ('try:\n'
                      '    game.apply({"by": "the_kid", "type": "row"})\n'
                      'except lr.IllegalAction as error:\n'
                      '    length: int = len(error.field)\n', "arg-type"),
    "new_game": ('lr.new_game("classic", players="4")\n', "arg-type"),
    "bot": ('from lifeboat_rules.bots import make_bot\n'
            'make_bot("random").choose(game)\n', "call-arg"),
    "describe": ('lr.describe(3, game)\n', "arg-type"),
    "counter": ('c: str = game.actions_applied\n', "assignment"),
}


@pytest.mark.slow
def test_mypy_rejects_a_front_end_that_misuses_the_types(tmp_path, cache):
    """Each snippet has one type error mypy must find (so the check above can fail); the
    same file without the snippets passes."""
    head = "import lifeboat_rules as lr\ngame = lr.new_game('classic', players=4, seed=1)\n"
    clean = tmp_path / "clean.py"
    clean.write_text("# mypy: disallow-any-expr\n" + head + CLEAN)
    paths = [str(clean)]
    for index, (name, (snippet, _)) in enumerate(WRONG.items()):
        path = tmp_path / f"wrong_{index}.py"
        path.write_text(head + snippet)
        paths.append(str(path))
    code, out = mypy(*paths, cache=cache)
    assert code != 0
    assert "clean.py" not in out, out
    for index, (name, (_, error_code)) in enumerate(WRONG.items()):
        found = [line for line in out.splitlines() if f"wrong_{index}.py" in line]
        assert found, f"mypy accepted the {name} snippet:\n{out}"
        assert any(f"[{error_code}]" in line for line in found), (name, found)


# --------------------------------------------------------------------------- the example

def _frontend():
    spec = importlib.util.spec_from_file_location("frontend_example", FRONTEND)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_front_end_plays_saves_restores_and_serves():
    frontend = _frontend()
    result, told = frontend.play(seed=7)
    assert set(result) == {"scores", "winners", "breakdown", "end"}
    assert any(re.search("[\u4e00-\u9fff]", line) for line in told)          # the Chinese feed
    assert any(line.startswith("round ") for line in told)                   # the table
    chinese, told = frontend.play(seed=8, players=5, lang="zh")
    assert chinese["winners"] and any("Lady Lauren" in line for line in told)
    seagulls = asyncio.run(frontend.serve_tables([1, 2, 3], moves=30))
    assert len(seagulls) == 3 and all(0 <= s <= 4 for s in seagulls)


def test_the_example_words_a_refusal_from_its_fields():
    frontend = _frontend()
    game = lr.new_game("classic", players=4, seed=2)
    me = game.view(None)["seats"][0]
    assert frontend.try_a_wrong_move(game, me, "en").startswith("That move is not allowed (R-")
    assert "请检查" in frontend.try_a_wrong_move(game, me, "zh")


def test_the_docs_show_the_example_as_it_is():
    """Every code block of docs/api.md's "Front ends" section is in docs/examples/frontend.py,
    word for word, and the section names the file."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text[text.index("## Front ends"):]
    section = section[:section.index("\n## ", 4)]
    assert "examples/frontend.py" in section
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) >= 4
    source = FRONTEND.read_text()
    for block in blocks:
        assert block in source, f"docs/api.md shows code that is not in frontend.py:\n{block}"


# --------------------------------------------------------------------------- the types are true

@functools.lru_cache(maxsize=None)
def _hints(cls) -> dict:
    return typing.get_type_hints(cls)


@functools.lru_cache(maxsize=None)
def _tags(union) -> dict:
    """``{type tag: TypedDict}`` of a union tagged by ``type``, or {} for another union."""
    args = typing.get_args(union)
    if not all(typing.is_typeddict(a) and "type" in a.__required_keys__ for a in args):
        return {}
    return {typing.get_args(_hints(a)["type"])[0]: a for a in args}


def _check(value, hint, where: str) -> None:
    """``value`` is of the type ``hint`` (TypedDicts, unions tagged or not, literals, lists,
    dicts and plain types), or AssertionError saying where it is not."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if hint is object:
        return
    if typing.is_typeddict(hint):
        assert type(value) is dict, f"{where}: {value!r} is not a dict"
        hints = _hints(hint)
        missing = hint.__required_keys__ - set(value)
        assert not missing, f"{where}: {hint.__name__} lacks {sorted(missing)} in {value!r}"
        extra = set(value) - set(hints)
        assert not extra, f"{where}: {hint.__name__} has no {sorted(extra)} in {value!r}"
        for key, item in value.items():
            _check(item, hints[key], f"{where}.{key}")
        return
    if origin is typing.Union:
        by_tag = _tags(hint)
        if by_tag and type(value) is dict:
            assert value.get("type") in by_tag, f"{where}: unknown type {value.get('type')!r}"
            _check(value, by_tag[value["type"]], where)
            return
        problems = []
        for option in args:
            try:
                _check(value, option, where)
                return
            except AssertionError as error:
                problems.append(str(error))
        raise AssertionError(f"{where}: {value!r} fits none of {hint}: {problems}")
    if origin is typing.Literal:
        assert value in args, f"{where}: {value!r} is not one of {args}"
        return
    if origin is list:
        assert type(value) is list, f"{where}: {value!r} is not a list"
        for index, item in enumerate(value):
            _check(item, args[0], f"{where}[{index}]")
        return
    if origin is dict:
        assert type(value) is dict, f"{where}: {value!r} is not a dict"
        for key, item in value.items():
            _check(key, args[0], f"{where} key")
            _check(item, args[1], f"{where}[{key!r}]")
        return
    if hint is type(None):
        assert value is None, f"{where}: {value!r} is not None"
        return
    if hint is int:
        assert type(value) is int, f"{where}: {value!r} is not an int"
        return
    assert type(value) is hint, f"{where}: {value!r} is not a {hint.__name__}"


# the first two cover every built-in action and event type; the others are in the full run
RULESETS = ["classic", {"extends": "all_in_one", "variants": ["shark"]},
            *(pytest.param(r, marks=pytest.mark.slow) for r in ("all_in_one", "quick",
                                                                "single_card_rowing"))]


@pytest.mark.parametrize("ruleset", RULESETS, ids=str)
def test_what_the_engine_hands_out_is_what_the_types_say(ruleset):
    """Random games: every action listed, every event ``apply`` returns and every player's
    ``events_for`` shows, every view (public and each player's, deciding or not), the
    result and the save match their TypedDicts, key for key."""
    seen_types: set = set()
    for seed in range(3):
        game = lr.new_game(ruleset, players=4 + seed, seed=seed)
        bot = RandomPlayer(seed, free_rate=0.2)
        viewers = [None, *game.view(None)["characters"]]
        steps = 0
        while not game.over:
            if steps % 5 == 0:
                for viewer in viewers:
                    _check(game.view(viewer), T.View, f"view({viewer})")
            for decision in game.pending:
                _check(decision.data(), T.DecisionData, "pending")
                for action in game.legal_actions(decision.by):
                    _check(action, T.Action, "legal_actions")
            for event in game.apply(bot.act(game)):
                _check(event, T.Event, "apply")
                seen_types.add(event["type"])
            steps += 1
        for viewer in viewers:
            for event in game.events_for(viewer):
                _check(event, T.Event, f"events_for({viewer})")
            _check(game.view(viewer), T.View, f"view({viewer}) at the end")
        _check(game.result, T.Result, "result")
        _check(game.to_dict(), T.SavedGame, "to_dict")
    assert {"damage", "status", "fight", "seagulls", "navigation", "phase", "game_over",
            "move", "action"} <= seen_types


def test_every_event_type_of_the_engine_has_its_typeddict():
    """The event types the engine emits (effects.CONTAINERS lists each, kept true by
    tests/test_events.py) are exactly the tags of ``types.Event``."""
    from lifeboat_rules.effects import CONTAINERS
    tags = {typing.get_args(typing.get_type_hints(a)["type"])[0] for a in typing.get_args(T.Event)}
    assert tags == set(CONTAINERS)


def test_every_action_type_of_the_built_in_rulesets_has_its_typeddict():
    ruleset = lr.load_ruleset({"extends": "all_in_one", "variants": ["shark"]})
    tags = {typing.get_args(typing.get_type_hints(a)["type"])[0] for a in typing.get_args(T.Action)}
    assert tags == set(ruleset.rules.types)


# --------------------------------------------------------------------------- refusals

def _at_a_turn(seed: int) -> lr.Game:
    """A classic game at a turn where the actor has a target with a hand and another player
    holds cards too."""
    game = lr.new_game("classic", players=5, seed=seed)
    bot = RandomPlayer(seed, free_rate=0.0)
    while not game.over:
        pending = game.pending
        if pending and pending[0].kind == "turn":
            view = game.view(None)
            holders = [c for c in view["seats"] if c != pending[0].by
                       and view["characters"][c]["hand_size"] >= 1]
            if len(holders) >= 2:
                return game
        game.apply(bot.act(game))
    raise AssertionError("no such turn")


def _refusal(game: lr.Game, action: dict) -> lr.IllegalAction:
    before = game.to_dict()
    with pytest.raises(lr.IllegalAction) as caught:
        game.apply(action)
    assert game.to_dict() == before
    return caught.value


def test_a_refusal_carries_its_rule_field_and_value():
    game = _at_a_turn(1)
    actor = game.pending[0].by
    other = next(c for c in game.view(None)["seats"] if c != actor)
    error = _refusal(game, {"by": actor, "type": "swap", "target": actor})
    assert (error.rule, error.field, error.value) == ("R-SWAP-1", "target", actor)
    error = _refusal(game, {"by": other, "type": "row"})
    assert (error.rule, error.field, error.value) == ("R-ACT-1", "by", other)
    error = _refusal(game, {"by": actor, "type": "swap", "target": actor, "card": "p1"})
    assert (error.rule, error.field, error.value) == ("API", "card", "p1")
    error = _refusal(game, {"by": actor, "type": "navigate", "card": 7})
    assert (error.rule, error.field, error.value) == ("API", "card", 7)
    error = _refusal(game, {"by": actor, "type": "fly"})
    assert (error.rule, error.field, error.value) == ("API", "type", "fly")
    with pytest.raises(lr.IllegalAction) as caught:
        game.apply_id(other, game.action_id({"by": actor, "type": "row"}))
    assert (caught.value.rule, caught.value.field, caught.value.value) == ("R-ACT-1", "by", other)
    assert str(caught.value).startswith("R-ACT-1: ")


def test_every_refusal_of_the_package_says_which_field_it_is_about():
    """Each ``Refusal(rule, message, field, ...)`` and ``Malformed(message, field, ...)`` the
    package makes names its field, or None on purpose (the game as a whole), so that a new
    rule cannot forget it."""
    import ast
    missing = []
    for path in sorted([*(ROOT / "lifeboat_rules").rglob("*.py"), *(ROOT / "expansions").rglob("*.py")]):
        if "web" in path.parts:   # the web table's own Refusal is another record
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                need = {"Refusal": 3, "Malformed": 2}.get(node.func.id)
                if need and len(node.args) + len(node.keywords) < need:
                    missing.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not missing, missing


def _same_refusal(a: lr.IllegalAction, b: lr.IllegalAction, a_card: str, b_card: str) -> None:
    """Two refusals alike but for the card each named."""
    assert (a.rule, a.field) == (b.rule, b.field)
    assert a.value == a_card and b.value == b_card
    assert str(a).replace(a_card, "CARD") == str(b).replace(b_card, "CARD")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_refusal_does_not_tell_whether_a_hidden_card_is_there(seed):
    """A robbery naming a card of the target's hand, and one naming a card the target does
    not hold, are refused alike, by id and by kind; so is using a card another player holds."""
    game = _at_a_turn(seed)
    actor = game.pending[0].by
    state = game.state
    view = game.view(actor)
    target, third = [c for c in view["seats"] if c != actor
                     and view["characters"][c]["hand_size"] >= 1][:2]
    in_hand = state.characters[target].hand[0]
    elsewhere = state.characters[third].hand[0]
    held = _refusal(game, {"by": actor, "type": "rob", "target": target, "card": in_hand})
    not_held = _refusal(game, {"by": actor, "type": "rob", "target": target, "card": elsewhere})
    _same_refusal(held, not_held, in_hand, elsewhere)
    # by kind: the target's hidden kind against a kind it does not hold
    kinds = state.table.kinds
    kind = kinds[in_hand]
    front = {kinds[c] for c in state.characters[target].front}
    absent = next(k for k in sorted(set(kinds.values())) if k not in front
                  and all(kinds[c] != k for c in state.characters[target].hand))
    if kind not in front:
        a = _refusal(game, {"by": actor, "type": "rob", "target": target, "card": kind})
        b = _refusal(game, {"by": actor, "type": "rob", "target": target, "card": absent})
        _same_refusal(a, b, kind, absent)
    # the actor's own use of a card in another's hand, or in the supply deck
    if state.supply:
        a = _refusal(game, {"by": actor, "type": "use", "card": in_hand})
        b = _refusal(game, {"by": actor, "type": "use", "card": state.supply[0]})
        _same_refusal(a, b, in_hand, state.supply[0])


def test_an_offer_asking_for_a_hidden_card_is_taken_whether_or_not_it_is_there():
    """Making an offer checks only the offerer's own hand (R-TRADE-1): asking for a card the
    other holds and for one it does not hold are both accepted, and look alike to others."""
    game = _at_a_turn(2)
    actor = game.pending[0].by
    state = game.state
    view = game.view(None)
    to, third = [c for c in view["seats"] if c != actor
                 and view["characters"][c]["hand_size"] >= 1][:2]
    held = state.characters[to].hand[0]
    not_held = state.characters[third].hand[0]
    shown = []
    for take in ([held], [not_held], [state.table.kinds[held]]):
        trial = game.clone()
        events = trial.apply({"by": actor, "type": "offer", "to": to, "give": [], "take": take})
        assert [e["type"] for e in events] == ["action", "offer"]
        shown.append([{k: v for k, v in e.items() if k != "offer"} for e in
                      trial.events_for(third, since=len(game.log))])
    assert shown[0] == shown[1] == shown[2]


# --------------------------------------------------------------------------- the move counter

def test_actions_applied_counts_accepted_actions_and_is_saved():
    game = lr.new_game("classic", players=4, seed=5)
    assert game.actions_applied == 0
    bot = RandomPlayer(5)
    rnd = random.Random(5)
    for count in range(1, 120):
        if game.over:
            break
        if count % 3 == 0:
            decision = game.pending[0]
            number = rnd.choice(game.legal_ids(decision.by))
            game.apply_id(decision.by, number)
        else:
            game.apply(bot.act(game))
        assert game.actions_applied == count
        with pytest.raises(lr.IllegalAction):
            game.apply({"by": game.view(None)["seats"][0], "type": "fly"})
        assert game.actions_applied == count
    restored = lr.Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert restored.actions_applied == game.actions_applied
    assert game.clone().actions_applied == game.actions_applied
    me = game.view(None)["seats"][0]
    assert game.determinize(me, 3).actions_applied == game.actions_applied
    # the count is the log's: one action event per accepted action
    assert game.actions_applied == sum(1 for e in game.events if e["type"] == "action")


def test_actions_applied_is_unchanged_when_a_plugin_fails():
    sys.path.insert(0, str(ROOT / "tests"))
    import hostile_plugins
    cls = hostile_plugins.RAISING[0]
    ruleset = lr.load_ruleset({"plugins": [f"hostile_plugins:{cls.__name__}"]})
    for seed in range(20):
        game = lr.new_game(ruleset, players=4, seed=seed)
        bot = RandomPlayer(seed, free_rate=0.1)
        for _ in range(2000):
            if game.over:
                break
            before = game.actions_applied
            try:
                game.apply(bot.act(game))
            except lr.PluginError:
                assert game.actions_applied == before
                return
            assert game.actions_applied == before + 1
    pytest.skip(f"{cls.__name__} never raised in these games")
