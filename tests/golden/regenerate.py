"""Write the golden playthroughs again: python tests/golden/regenerate.py

Only after a deliberate change of behaviour: the point of a golden file is that the engine
still plays these games event for event the same (OpenSpiel's playthroughs). Review the diff.
"""

from __future__ import annotations

import json
import pathlib

import lifeboat_rules as lr
from lifeboat_rules.bots import RandomPlayer

HERE = pathlib.Path(__file__).resolve().parent

GAMES = [
    {"file": "classic-6p.jsonl", "ruleset": "classic", "players": 6, "seed": 2026},
    {"file": "cannibalism-shark-quick-7p.jsonl",
     "ruleset": {"name": "all-in", "expansions": ["cannibalism"], "variants": ["shark", "quick"]},
     "players": 7, "seed": 7},
    {"file": "all_in_one-8p.jsonl", "ruleset": "all_in_one", "players": 8, "seed": 56},
]


def playthrough(spec: dict):
    """(header, [(action, events)]) of a seeded game between random players."""
    game = lr.new_game(lr.load_ruleset(spec["ruleset"]), players=spec["players"], seed=spec["seed"])
    bot = RandomPlayer(spec["seed"], free_rate=0.1)
    steps = [(None, game.events)]
    while not game.over:
        action = bot.act(game)
        steps.append((action, game.apply(action)))
    return steps


def main() -> None:
    for spec in GAMES:
        lines = [json.dumps({k: v for k, v in spec.items() if k != "file"}, sort_keys=True)]
        for action, events in playthrough(spec):
            lines.append(json.dumps({"action": action, "events": events}, sort_keys=True))
        (HERE / spec["file"]).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{spec['file']}: {len(lines) - 1} steps")


if __name__ == "__main__":
    main()
