"""Speed figures, as ratios to a reference measured in the same run: prints, never asserts.

    pip install -e '.[bench]'          # OpenSpiel, the reference (optional)
    python benchmarks/bench.py [--seconds S] [--rounds R] [--ruleset classic] [--players 6]
    python benchmarks/bench.py --before GIT_REF     # and an earlier engine, in turn, same run

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
import os
import pathlib
import platform
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time

import lifeboat_rules as lr

FREE_RATE = 0.05


def timed_games(ruleset, players: int, seconds: float, seed: int, play) -> tuple[int, float]:
    """Deal games (seeds ``seed``, ``seed + 1``, ...) and have ``play(game, rnd)`` play each
    to its end, returning its steps, until ``seconds`` have passed; (steps, elapsed). One
    generator ``rnd`` for all the games of the run."""
    rnd = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while time.perf_counter() < deadline:
        game = lr.new_game(ruleset, players=players, seed=game_seed)
        game_seed += 1
        steps += play(game, rnd)
    return steps, time.perf_counter() - start


def dict_play(ruleset):
    """``play(game, rnd)``: a random game through the dict API to its end; its steps."""
    free = ruleset.rules.free_names

    def play(game, rnd) -> int:
        # the policy stays inline (not bots.RandomPlayer): it is the dict API that is timed
        steps = 0
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
        return steps

    return play


def dict_steps(ruleset, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Random games through the dict API for ``seconds``; (steps, elapsed)."""
    return timed_games(ruleset, players, seconds, seed, dict_play(ruleset))


def int_play(ruleset):
    """``play(game, rnd)``: a random game through the integer API to its end; its steps. The
    policy is the dict one: free moves (their integers lie in the blocks of the free action
    types) are taken one time in twenty."""
    space = ruleset.rules.space
    free = bytearray(space.size)   # which integers are free moves: their types' blocks
    for block in space.blocks.values():
        if block.atype.free:
            free[block.offset:block.offset + block.size] = b"\x01" * block.size

    def play(game, rnd) -> int:
        steps = 0
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
        return steps

    return play


def int_steps(ruleset, players: int, seconds: float, seed: int) -> tuple[int, float]:
    """Random games through the integer API for ``seconds``; (steps, elapsed)."""
    return timed_games(ruleset, players, seconds, seed, int_play(ruleset))


def liars_poker():
    """OpenSpiel's ``python_liars_poker`` game, or None without OpenSpiel."""
    try:
        import pyspiel
        import open_spiel.python.games  # noqa: F401  (registers the Python games)
    except ImportError:
        return None
    return pyspiel.load_game("python_liars_poker")


def liars_poker_play(game, rnd) -> int:
    """One game of liars poker with random players (chance sampled); its steps."""
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rnd.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
        steps += 1
    return steps


def liars_poker_steps(seconds: float, seed: int) -> tuple[int, float] | None:
    """OpenSpiel's python_liars_poker with random players; None without OpenSpiel."""
    game = liars_poker()
    if game is None:
        return None
    rnd = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        steps += liars_poker_play(game, rnd)
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


def measure_round(ruleset, players: int, seconds: float, number: int, game, save) -> dict:
    """One round of every measure, in this process."""
    out = {}
    for name, run in (("dict", lambda: dict_steps(ruleset, players, seconds, number)),
                      ("int", lambda: int_steps(ruleset, players, seconds, number)),
                      ("liars_poker", lambda: liars_poker_steps(seconds, number))):
        if name == "int" and not hasattr(game, "legal_ids"):
            continue   # an engine from before the integer actions
        measured = run()
        if measured is not None:
            out[name] = measured[0] / measured[1]
    short = seconds / 3
    out["json"] = per_call(lambda: json.loads(json.dumps(save)), short)
    out["from_dict"] = per_call(lambda: lr.Game.from_dict(save), short)
    out["to_dict"] = per_call(game.to_dict, short)
    out["clone"] = per_call(game.clone, short)
    out["events"] = len(save["log"])
    return out


def figures_of(rates: dict, game, save, ruleset, args) -> dict:
    median = {name: statistics.median(values) for name, values in rates.items() if values}
    figures = {
        "ruleset": ruleset.name,
        "players": args.players,
        "rounds x seconds": f"{args.rounds} x {args.seconds}",
        "dict API steps/s": round(median["dict"]),
        "integer API steps/s": round(median["int"]) if "int" in median else None,
        "mid-game save: events": round(median["events"]),
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
        if "int" in median:
            figures["integer API / liars poker"] = round(median["int"] / reference, 3)
    else:
        figures["python_liars_poker"] = "OpenSpiel not installed: pip install -e '.[bench]'"
    return figures


def checkout(ref: str) -> tuple[str, str]:
    """An earlier engine to compare with: the repository at ``ref`` in a temporary worktree,
    built and installed into a folder of its own (no network: no build isolation, no
    dependencies). Returns (worktree, the folder to import it from)."""
    folder = tempfile.mkdtemp(prefix="lifeboat-bench-")
    tree, site = os.path.join(folder, "tree"), os.path.join(folder, "site")
    root = pathlib.Path(__file__).resolve().parent.parent
    subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "-q", tree, ref],
                   check=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--no-build-isolation", "--target", site, tree], check=True)
    return tree, site


def run_earlier(site: str, args, number: int) -> dict:
    """One round of the measures in a process that imports the earlier engine: no site
    initialisation (the current engine's editable install stays out), the dependencies from
    this environment."""
    path = os.pathsep.join([site, sysconfig.get_paths()["purelib"]])
    done = subprocess.run(
        [sys.executable, "-S", __file__, "--one-round", str(number), "--seconds",
         str(args.seconds), "--players", str(args.players), "--ruleset", args.ruleset],
        env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measure and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--before", metavar="GIT_REF",
                        help="also measure the engine at this commit, round by round in turn "
                             "with this one (before and after from one run)")
    parser.add_argument("--one-round", type=int, metavar="N", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    ruleset = lr.load_ruleset(args.ruleset)
    game = mid_game(ruleset, args.players)
    save = game.to_dict()
    if args.one_round is not None:   # a round for a run measuring another engine in turn
        print(json.dumps(measure_round(ruleset, args.players, args.seconds, args.one_round,
                                       game, save)))
        return 0
    tree, site = checkout(args.before) if args.before else (None, None)
    rates: dict = {}
    before: dict = {}
    try:
        for number in range(args.rounds):
            for name, value in measure_round(ruleset, args.players, args.seconds, number,
                                             game, save).items():
                rates.setdefault(name, []).append(value)
            if site is not None:
                for name, value in run_earlier(site, args, number).items():
                    before.setdefault(name, []).append(value)
    finally:
        if tree is not None:
            subprocess.run(["git", "worktree", "remove", "--force", tree], check=False,
                           cwd=pathlib.Path(__file__).resolve().parent.parent)
            shutil.rmtree(os.path.dirname(tree), ignore_errors=True)
    figures = {"python": platform.python_version(), "num_actions": game.num_actions,
               **figures_of(rates, game, save, ruleset, args)}
    if tree is not None:
        old = figures_of(before, game, save, ruleset, args)
        figures = {key: (value, old.get(key)) for key, value in figures.items()}
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(map(len, figures))
        if tree is not None:
            print(f"{'':<{width}}  {'now':>12}  {'at ' + args.before:>12}")
            for key, (now, then) in figures.items():
                print(f"{key:<{width}}  {str(now):>12}  {str(then):>12}")
        else:
            for key, value in figures.items():
                print(f"{key:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
