"""Speed figures, as ratios to a reference measured in the same run: prints, never asserts.

    pip install -e '.[bench]'          # OpenSpiel, the reference (optional)
    python benchmarks/bench.py [--seconds S] [--rounds R] [--ruleset classic] [--players 6]

Measured in one process and interleaved (R rounds of S seconds each, the median kept), so
that a loaded machine slows every contender alike:

- random games through the dict API (``pending``, ``legal_actions``, ``apply``: a random
  pending player, a free action such as ``play`` or ``offer`` one time in twenty);
- random games through the integer API (``legal_ids``, ``apply_id``, the same policy);
- OpenSpiel's pure-Python ``python_liars_poker`` (random legal actions, chance sampled):
  the reference, steps per second; the two above are printed as ratios of it;
- a mid-game save: ``from_dict`` and ``to_dict`` as ratios of ``json.loads(json.dumps(save))``
  of the same save (the schema check is part of ``from_dict``), and ``clone`` in microseconds.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time

import lifeboat_rules as lr

FREE_RATE = 0.05


def dict_steps(ruleset, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Random games through the dict API for ``seconds``; (steps, elapsed)."""
    rnd = random.Random(seed)
    free = ruleset.rules.free_names
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while time.perf_counter() < deadline:
        game = lr.new_game(ruleset, players=players, seed=game_seed)
        game_seed += 1
        while not game.over:
            pending = game.pending
            decision = pending[rnd.randrange(len(pending))]
            actions = game.legal_actions(decision.by)
            decided = [a for a in actions if a["type"] not in free]
            if decided and rnd.random() >= FREE_RATE:
                action = decided[rnd.randrange(len(decided))]
            else:
                action = actions[rnd.randrange(len(actions))]
            game.apply(action)
            steps += 1
    return steps, time.perf_counter() - start


def int_steps(ruleset, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Random games through the integer API for ``seconds``; (steps, elapsed). The policy is
    the dict one: free moves (their integers lie in the blocks of the free action types) are
    taken one time in twenty."""
    rnd = random.Random(seed)
    space = ruleset.rules.space
    free = bytearray(space.size)   # which integers are free moves: their types' blocks
    for block in space.blocks.values():
        if block.atype.free:
            free[block.offset:block.offset + block.size] = b"\x01" * block.size
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while time.perf_counter() < deadline:
        game = lr.new_game(ruleset, players=players, seed=game_seed)
        game_seed += 1
        while not game.over:
            pending = game.pending
            who = pending[rnd.randrange(len(pending))].by
            ids = game.legal_ids(who)
            decided = [i for i in ids if not free[i]]
            if decided and rnd.random() >= FREE_RATE:
                number = decided[rnd.randrange(len(decided))]
            else:
                number = ids[rnd.randrange(len(ids))]
            game.apply_id(who, number)
            steps += 1
    return steps, time.perf_counter() - start


def liars_poker_steps(seconds: float, seed: int) -> tuple[int, float] | None:
    """OpenSpiel's python_liars_poker with random players; None without OpenSpiel."""
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
    except ImportError:
        return None
    game = pyspiel.load_game("python_liars_poker")
    rnd = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(outcomes, probabilities)[0])
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
            steps += 1
    return steps, time.perf_counter() - start


def mid_game(ruleset, players: int, seed: int = 11, steps: int = 150):
    game = lr.new_game(ruleset, players=players, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rnd.choice(game.legal_actions(game.pending[0].by)))
    return game


def per_call(function, seconds: float) -> float:
    """Seconds per call, over about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(20):
            function()
        calls += 20
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return elapsed / calls


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measure and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    ruleset = lr.load_ruleset(args.ruleset)
    game = mid_game(ruleset, args.players)
    save = game.to_dict()
    rates: dict = {"dict": [], "int": [], "liars_poker": [], "json": [], "from_dict": [],
                   "to_dict": [], "clone": []}
    short = args.seconds / 3
    for number in range(args.rounds):
        for name, run in (("dict", lambda: dict_steps(ruleset, args.players, args.seconds, number)),
                          ("int", lambda: int_steps(ruleset, args.players, args.seconds, number)),
                          ("liars_poker", lambda: liars_poker_steps(args.seconds, number))):
            measured = run()
            if measured is not None:
                rates[name].append(measured[0] / measured[1])
        rates["json"].append(per_call(lambda: json.loads(json.dumps(save)), short))
        rates["from_dict"].append(per_call(lambda: lr.Game.from_dict(save), short))
        rates["to_dict"].append(per_call(game.to_dict, short))
        rates["clone"].append(per_call(game.clone, short))
    median = {name: statistics.median(values) for name, values in rates.items() if values}
    figures = {
        "python": platform.python_version(),
        "ruleset": ruleset.name,
        "players": args.players,
        "rounds x seconds": f"{args.rounds} x {args.seconds}",
        "dict API steps/s": round(median["dict"]),
        "integer API steps/s": round(median["int"]),
        "num_actions": game.num_actions,
        "mid-game save: events": len(save["log"]),
        "json round trip us": round(median["json"] * 1e6, 1),
        "from_dict us": round(median["from_dict"] * 1e6, 1),
        "to_dict us": round(median["to_dict"] * 1e6, 1),
        "clone us": round(median["clone"] * 1e6, 2),
        "from_dict / json round trip": round(median["from_dict"] / median["json"], 2),
        "to_dict / json round trip": round(median["to_dict"] / median["json"], 3),
    }
    if "liars_poker" in median:
        reference = median["liars_poker"]
        figures["python_liars_poker steps/s (reference)"] = round(reference)
        figures["dict API / liars poker"] = round(median["dict"] / reference, 3)
        figures["integer API / liars poker"] = round(median["int"] / reference, 3)
    else:
        figures["python_liars_poker"] = "OpenSpiel not installed: pip install -e '.[bench]'"
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
