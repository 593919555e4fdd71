"""Speed figures (issue #2): prints, never asserts. Run: python benchmarks/bench.py [--games N]

- random 6-player games played to the end through the public API (pending, legal_actions,
  apply) on one core: games per second, decisions per second, decisions per game;
- a mid-game state: microseconds of clone(), to_dict(), from_dict() and the round trip.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time

import lifeboat_rules as lr


def play(ruleset, players: int, seed: int, free_rate: float) -> tuple[int, int]:
    """One game between random players through the public API; (decisions, rounds)."""
    game = lr.new_game(ruleset, players=players, seed=seed)
    rnd = random.Random(seed)
    free = game.rules.free_names
    decisions = 0
    while not game.over:
        pending = game.pending
        decision = pending[rnd.randrange(len(pending))]
        actions = game.legal_actions(decision.by)
        decided = [a for a in actions if a["type"] not in free]
        if decided and rnd.random() >= free_rate:
            action = decided[rnd.randrange(len(decided))]
        else:
            action = actions[rnd.randrange(len(actions))]
        game.apply(action)
        decisions += 1
    return decisions, game.state.round


def timed(function, repeat: int) -> float:
    """Microseconds per call (best of 3 runs of ``repeat`` calls)."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best * 1e6


def mid_game(ruleset, seed: int = 11, steps: int = 150):
    game = lr.new_game(ruleset, players=6, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        decision = game.pending[0]
        game.apply(rnd.choice(game.legal_actions(decision.by)))
    return game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--free-rate", type=float, default=0.05,
                        help="how often a random player takes a free action (play, offer)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    ruleset = lr.load_ruleset(args.ruleset)
    play(ruleset, args.players, 0, args.free_rate)   # warm up
    start = time.perf_counter()
    decisions = rounds = 0
    for seed in range(args.games):
        d, r = play(ruleset, args.players, seed, args.free_rate)
        decisions += d
        rounds += r
    elapsed = time.perf_counter() - start

    game = mid_game(ruleset)
    data = game.to_dict()
    text = json.dumps(data)
    figures = {
        "python": platform.python_version(),
        "ruleset": ruleset.name,
        "players": args.players,
        "games": args.games,
        "games_per_second": round(args.games / elapsed, 1),
        "decisions_per_second": round(decisions / elapsed),
        "decisions_per_game": round(decisions / args.games, 1),
        "rounds_per_game": round(rounds / args.games, 2),
        "mid_game_events": len(game.log),
        "clone_us": round(timed(game.clone, 2000), 1),
        "to_dict_us": round(timed(game.to_dict, 200), 1),
        "from_dict_us": round(timed(lambda: lr.Game.from_dict(data), 50), 1),
        "round_trip_us": round(timed(lambda: lr.Game.from_dict(game.to_dict()), 50), 1),
        "saved_game_bytes": len(text),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
