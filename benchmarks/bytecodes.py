"""Work per step counted, not timed: Python bytecode instructions and Python calls per step.

    python benchmarks/bytecodes.py [--games 40] [--top 25]

The same random games as ``bench.py`` (dict API, integer API; OpenSpiel's pure-Python
``python_liars_poker`` as the reference, if installed), run under a tracer that counts every
bytecode instruction executed in Python code (C code such as ``dict.get`` counts as the one
instruction that calls it). The counts do not depend on the machine's load or speed, so they
show what a change to the engine does even on a busy machine; ``bench.py`` gives the real
rates. ``--top N`` lists the N functions executing the most instructions per step: a profile
of where the engine's work goes, free of a timing profiler's distortions.
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bench  # noqa: E402  (the games and policies measured)
import lifeboat_rules as lr  # noqa: E402


class Counter:
    """A ``sys.settrace`` tracer counting instructions and calls per function."""

    def __init__(self):
        self.instructions = collections.Counter()
        self.calls = collections.Counter()

    def __call__(self, frame, event, arg):
        code = frame.f_code
        if event == "call":
            self.calls[code] += 1
            frame.f_trace_opcodes = True
        elif event == "opcode":
            self.instructions[code] += 1
        return self

    def run(self, function):
        sys.settrace(self)
        try:
            return function()
        finally:
            sys.settrace(None)


def count(play, games: list, seed: int) -> tuple[Counter, int]:
    """Play each of ``games`` (made before counting) with ``play``; (counter, steps)."""
    rnd = random.Random(seed)
    counter = Counter()
    steps = counter.run(lambda: sum(play(game, rnd) for game in games))
    return counter, steps


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per API (default 40)")
    parser.add_argument("--reference-games", type=int, default=600,
                        help="liars poker games (default 600)")
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="also list the N functions executing the most instructions")
    args = parser.parse_args(argv)
    ruleset = lr.load_ruleset(args.ruleset)

    def deal():   # the deal is not a step: games are dealt before counting
        return [lr.new_game(ruleset, players=args.players, seed=s) for s in range(args.games)]

    measured = {"dict API": count(bench.dict_play(ruleset), deal(), 1),
                "integer API": count(bench.int_play(ruleset), deal(), 1)}
    reference = bench.liars_poker()
    if reference is not None:
        measured["python_liars_poker"] = count(
            lambda game, rnd: bench.liars_poker_play(reference, rnd), [None] * args.reference_games, 1)
    per_step = {name: (sum(c.instructions.values()) / steps, sum(c.calls.values()) / steps)
                for name, (c, steps) in measured.items()}
    print(f"{'':22} {'instructions/step':>18} {'Python calls/step':>18} {'steps':>8}")
    for name, (c, steps) in measured.items():
        instructions, calls = per_step[name]
        print(f"{name:22} {instructions:18.0f} {calls:18.1f} {steps:8d}")
    if reference is not None:
        base = per_step["python_liars_poker"][0]
        for name in ("dict API", "integer API"):
            print(f"{name} / liars poker, by instructions (the rate if time went by "
                  f"instructions): {base / per_step[name][0]:.3f}")
    else:
        print("python_liars_poker: OpenSpiel not installed: pip install -e '.[bench]'")
    if args.top:
        counter, steps = measured["integer API"]
        print(f"\ninteger API: the {args.top} functions executing the most instructions per step")
        for code, n in counter.instructions.most_common(args.top):
            where = f"{pathlib.Path(code.co_filename).name}:{code.co_firstlineno}"
            print(f"{n / steps:8.1f} {counter.calls[code] / steps:6.2f} calls  "
                  f"{code.co_name} ({where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
