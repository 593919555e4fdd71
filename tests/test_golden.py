"""Golden playthroughs: seeded games replayed decision by decision; any change of behaviour
shows up as the first step whose events differ (regenerate deliberately with
tests/golden/regenerate.py and review the diff)."""

from __future__ import annotations

import json
import pathlib

import pytest

import lifeboat_rules as lr

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.jsonl")), ids=lambda p: p.stem)
def test_golden_playthrough(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    spec = json.loads(lines[0])
    steps = [json.loads(line) for line in lines[1:]]
    game = lr.new_game(lr.load_ruleset(spec["ruleset"]), players=spec["players"], seed=spec["seed"])
    assert game.events == steps[0]["events"], "the dealt game differs"
    for number, step in enumerate(steps[1:], start=1):
        events = game.apply(step["action"])
        assert events == step["events"], f"step {number} ({step['action']}) gave other events"
    assert game.over
    # and a saved copy of the finished game replays nothing differently
    assert json.loads(json.dumps(lr.Game.from_dict(game.to_dict()).to_dict())) == game.to_dict()


def test_golden_files_exist():
    assert len(list(GOLDEN.glob("*.jsonl"))) >= 2
