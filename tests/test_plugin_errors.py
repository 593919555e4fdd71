"""A plugin that raises or answers nonsense during ``apply`` (issue #4): the game is left as it
was, byte for byte, and the error (``lifeboat_rules.PluginError``, an ``IllegalAction``) names
the plugin. Hook answers are checked where they enter the state (``effects.damage``,
``thirst.start_thirst``, ``overboard.start_overboard``, ``scoring.score_game``): an answer the
engine cannot use is a ``plugins.HookResultError`` blamed on the plugins implementing that hook.

Each misbehaving plugin (``hostile_plugins.py``) is played by random players from several seeds
until it misbehaves; every failure is checked, then the game goes on with other actions where
there are some.
"""

from __future__ import annotations

import random

import pytest

import lifeboat_rules as lr
from lifeboat_rules import PluginError
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.effects import HookAnswerError as HookResultError

import hostile_plugins
import invariants as inv

GAMES = inv.budget(6, 100)


def _name(cls) -> str:
    return f"hostile_plugins:{cls.__name__}"


def _play_until_it_fails(cls, seed: int, expect_hook: str | None):
    """Random play under a ruleset with the plugin ``cls``; every PluginError leaves the game
    as it was and names the plugin. Returns how many failures were seen."""
    ruleset = lr.load_ruleset({"plugins": [_name(cls)], "variants": ["shark"]})
    assert ruleset.rules.guarded
    game = lr.new_game(ruleset, players=4 + seed % 3, seed=seed)
    bot = RandomPlayer(seed, free_rate=0.1)
    rnd = random.Random(seed)
    failures = 0
    for _ in range(3000):
        if game.over:
            break
        before = inv.fingerprint(game)
        decision = rnd.choice(game.pending)
        actions = game.legal_actions(decision.by)
        action = bot.act(game) if rnd.random() < 0.8 else rnd.choice(actions)
        try:
            game.apply(action)
        except PluginError as error:
            failures += 1
            assert isinstance(error, lr.IllegalAction)
            assert error.plugin == f"plugin:{_name(cls)}", error.plugin
            assert f"plugin:{_name(cls)}" in str(error)
            if expect_hook is not None:
                assert isinstance(error.__cause__, HookResultError)
                assert error.__cause__.hook == expect_hook and expect_hook in str(error)
            assert inv.fingerprint(game) == before, f"{cls.__name__} left a trace"
            inv.check_all(game, rnd, deep=False)
            # the game is still usable: try the other actions of the moment, else stop
            others = [a for d in game.pending for a in game.legal_actions(d.by) if a != action]
            progressed = False
            for other in rnd.sample(others, min(5, len(others))):
                mark = inv.fingerprint(game)
                try:
                    game.apply(other)
                    progressed = True
                    break
                except PluginError:
                    assert inv.fingerprint(game) == mark
            if not progressed:
                break
    return failures


@pytest.mark.parametrize("hook,cls", [(hook, cls) for hook, classes in hostile_plugins.NONSENSE.items()
                                      for cls in classes], ids=lambda v: getattr(v, "__name__", v))
def test_a_hook_answering_nonsense_is_refused_and_named(hook, cls):
    failures = sum(_play_until_it_fails(cls, seed, hook) for seed in range(GAMES))
    assert failures, f"{cls.__name__} was never asked"
    inv.count("plugin errors", "nonsense answers refused", failures)


@pytest.mark.parametrize("cls", hostile_plugins.RAISING, ids=lambda c: c.__name__)
def test_a_plugin_raising_during_apply_is_named_and_undone(cls):
    failures = sum(_play_until_it_fails(cls, seed, None) for seed in range(GAMES))
    assert failures, f"{cls.__name__} never raised"
    inv.count("plugin errors", "raising plugins undone", failures)


def test_two_plugins_answering_one_hook_are_both_named():
    """When a hook's answer is nonsense, every plugin implementing that hook is named (the
    engine cannot tell which one of them made it)."""
    names = [_name(hostile_plugins.NegativeThirst), _name(hostile_plugins.ThirstAsText)]
    game = lr.new_game({"plugins": names}, setup={
        "seats": ["the_kid", "frenchy"], "phase": "action", "navigation": ["nav-22", "nav-25"]})
    game.apply({"by": "the_kid", "type": "pass"})
    before = inv.fingerprint(game)
    with pytest.raises(PluginError) as info:
        game.apply({"by": "frenchy", "type": "pass"})   # navigation: nav-22, everyone thirsty
    for name in names:
        assert f"plugin:{name}" in info.value.plugin
    assert "lifeboat_thirst" in str(info.value)
    assert inv.fingerprint(game) == before


@pytest.mark.parametrize("answer", [-1, 1001, 2.0, True, None, "1"])
def test_damage_answers_are_checked_where_they_enter_the_state(answer):
    """``effects.damage`` takes a whole number 0..1000 from the hook, and nothing else: a
    negative answer is not "no damage" (it used to be taken as 0 silently), a float or a bool
    is not a number of damage."""
    from lifeboat_rules import effects
    game = lr.new_game("classic", players=4, seed=1)
    who = game.state.seats[0]
    saved = game.rules.hook   # (the ruleset's rules are shared: put the hooks back after)

    class Hook:
        def lifeboat_damage(self, **kwargs):
            return answer
    try:
        game.rules.hook = Hook()
        with pytest.raises(HookResultError) as info:
            effects.damage(game, who, 1, "test")
    finally:
        game.rules.hook = saved
    assert info.value.hook == "lifeboat_damage"
    assert game.state.characters[who].damage == 0
