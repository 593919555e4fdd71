"""Saved games (docs/api.md, Saving): the shipped schema is the one derived from the state's
declaration, and the fast structural check of ``Game.from_dict`` says what that schema says."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import jsonschema
import pytest

import lifeboat_rules as lr
from lifeboat_rules import saving
from lifeboat_rules.bots import RandomPlayer
from lifeboat_rules.plugins import every_shipped_plugin

import invariants as inv

SHIPPED = Path(__file__).parent.parent / "schemas" / "saved_game.schema.json"


def saved_games(count: int):
    ruleset = lr.load_ruleset(every_shipped_plugin())
    for seed in range(count):
        game = lr.new_game(ruleset, players=list(ruleset.players)[seed % len(ruleset.players)],
                           seed=seed)
        bot = RandomPlayer(seed, free_rate=0.2)
        for _ in range(random.Random(seed).randrange(5, 200)):
            if game.over:
                break
            game.apply(bot.act(game))
        yield ruleset, json.loads(json.dumps(game.to_dict()))


def test_the_shipped_schema_is_derived_from_the_declaration():
    ruleset = lr.load_ruleset(every_shipped_plugin())
    assert json.loads(SHIPPED.read_text()) == saving.saved_game_schema(ruleset), \
        "schemas/saved_game.schema.json is stale: lifeboat-rules schema > schemas/saved_game.schema.json"


def _mutate(data, rnd):
    """Change one place of a saved game's structure: a value of another JSON type, a key
    removed or added, a whole number out of its range."""
    data = copy.deepcopy(data)
    paths = [p for p, _ in inv.nodes(data) if p and p[0] in ("state", "table", "secrets")
             and (p[0] != "state" or len(p) < 6)]
    path = rnd.choice(paths)
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    value = parent[key]
    choice = rnd.randrange(4)
    if choice == 0 and type(parent) is dict:
        del parent[key]
    elif choice == 1 and type(value) is dict:
        value["unexpected"] = 1
    elif choice == 2 and type(value) is int and type(value) is not bool:
        parent[key] = -1 if rnd.random() < 0.5 else 10 ** 7
    else:
        others = [None, True, 3, "text", [], {}, [1], {"a": 1}]
        parent[key] = rnd.choice([o for o in others if type(o) is not type(value)])
    return data


@pytest.mark.parametrize("seed,games,mutations", [
    pytest.param(0, 1, 40, id="one-game"),
    *[pytest.param(seed, 8, 40, id=f"seed-{seed}", marks=pytest.mark.slow) for seed in range(3)]])
def test_the_fast_check_agrees_with_the_schema_on_mutated_saves(seed, games, mutations):
    rnd = random.Random(seed)
    tried = disagreed = 0
    for ruleset, data in saved_games(games):
        validator = jsonschema.Draft202012Validator(saving.saved_game_schema(ruleset))
        assert not list(validator.iter_errors(data))
        assert saving.structure_problems(ruleset, data) == []
        for _ in range(mutations):
            mutated = _mutate(data, rnd)
            by_schema = list(validator.iter_errors(mutated))
            by_check = saving.structure_problems(ruleset, mutated) if all(
                k in mutated for k in saving.ENVELOPE_KEYS) else ["envelope"]
            if bool(by_schema) != bool(by_check):
                disagreed += 1
                raise AssertionError(f"schema says {[e.message for e in by_schema][:2]}, "
                                     f"the check says {by_check[:2]}")
            if by_schema:
                with pytest.raises(lr.ContentError):
                    lr.Game.from_dict(mutated)
            tried += 1
    assert tried == games * mutations and disagreed == 0
