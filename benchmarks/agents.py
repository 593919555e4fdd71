"""How well the bots play (issue #10's figures): prints, never asserts.

    pip install -e '.[rl]'             # scipy, for the Wilson intervals
    python benchmarks/agents.py heuristic-vs-random [--games 1000] [--seed 1]
    python benchmarks/agents.py search-vs-heuristic [--games 1000] [--rollouts 4] [--budget 0.45]

A match seats one bot (the *tested* bot) against five of another (classic, 6 players) in
``--games`` games with seeds S, S+1, ...; in game k the tested bot takes seat k mod 6 at the
deal (bow to stern), so every seat gets it as often. The game is driven as the balance lab
drives it: the first pending decision, ``game.pending[0]``, is asked of the bot of that
character's seat. Printed:

- the tested bot's win rate (a tie counts as a win for each tied player) with its 95% Wilson
  interval, and the same for a seat of the others (all their seat-games together);
- the ratio of the two (the reference is measured in the same games), and the shares of the
  wins (a tie shared out);
- each bot's decisions per CPU second and CPU seconds per decision (mean, 95th percentile, max),
  measured with ``time.process_time`` around ``choose``: on a loaded machine CPU time, not
  wall time, is what a bot spends;
- a closing line with the tested bot's decisions per CPU second at the budget played beside its
  win rate (the search bot's default budget unless ``--rollouts``/``--budget`` say otherwise);
- with ``--json FILE``, everything as JSON.

``--jobs J`` plays the games in J processes (results are the same whatever J: each game is
seeded by its number). ``--survival`` prints the table of ``search.survival_chance`` measured
again from games between heuristic bots.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import lifeboat_rules as lr
from lifeboat_rules.bots import make_bot

MATCHES = {"heuristic-vs-random": ("heuristic", "random"),
           "search-vs-heuristic": ("search", "heuristic")}
PLAYERS = 6


def play(number: int, match: str, first_seed: int, options: dict) -> dict:
    """Game ``number`` of a match: the tested bot's seat, the winners' seats, and the CPU
    seconds each bot spent on each decision."""
    tested, other = MATCHES[match]
    seed = first_seed + number
    game = lr.new_game("classic", players=PLAYERS, seed=seed)
    seats = game.state.seats[:]
    seat = number % PLAYERS
    names = [tested if j == seat else other for j in range(PLAYERS)]
    # the options are the tested bot's (a search bot's budget)
    bots = {c: make_bot(names[j], seed=seed * 100 + j, **(options if names[j] == tested else {}))
            for j, c in enumerate(seats)}
    spent = {tested: [], other: []}
    slowest = (0.0, None)
    while not game.over:
        who = game.pending[0].by
        began = time.process_time()
        action = bots[who].choose(game, who)
        seconds = time.process_time() - began
        name = names[seats.index(who)]
        spent[name].append(seconds)
        if name == tested and seconds > slowest[0]:
            slowest = (seconds, getattr(bots[who], "last", {}).get("worlds"))
        game.apply(action)
    winners = game.result["winners"]
    return {"seed": seed, "seat": seat, "won": [seats.index(w) for w in winners],
            "spent": spent, "slowest": slowest}


def wilson(successes: int, trials: int) -> tuple[float, float]:
    from scipy.stats import binomtest
    interval = binomtest(successes, trials).proportion_ci(confidence_level=0.95, method="wilson")
    return interval.low, interval.high


def summary(match: str, rows: list, seconds: float) -> dict:
    tested, other = MATCHES[match]
    games = len(rows)
    wins = sum(1 for r in rows if r["seat"] in r["won"])
    other_wins = sum(sum(1 for s in r["won"] if s != r["seat"]) for r in rows)
    share = sum(1 / len(r["won"]) for r in rows if r["seat"] in r["won"])
    other_share = games - share
    rate, other_rate = wins / games, other_wins / (games * (PLAYERS - 1))
    times = {name: sorted(t for r in rows for t in r["spent"][name]) for name in (tested, other)}

    def timing(values):
        total = sum(values)
        return {"decisions": len(values), "cpu_seconds": total,
                "decisions_per_second": len(values) / total if total else None,
                "mean": total / len(values), "p95": values[int(0.95 * (len(values) - 1))],
                "max": values[-1]}

    return {"match": match, "games": games, "tested": tested, "other": other,
            "wins": wins, "rate": rate, "ci95": wilson(wins, games),
            "other_seat_wins": other_wins, "other_seat_games": games * (PLAYERS - 1),
            "other_rate": other_rate, "other_ci95": wilson(other_wins, games * (PLAYERS - 1)),
            "ratio": rate / other_rate if other_rate else None,
            "share": share / games, "other_share": other_share / games / (PLAYERS - 1),
            "timing": {name: timing(values) for name, values in times.items()},
            "slowest": max((r["slowest"] for r in rows), key=lambda item: item[0]),
            "over_half_second": sum(1 for t in times[tested] if t > 0.5),
            "games_won": [[r["seed"], r["seat"], r["won"]] for r in rows],
            "wall_seconds": seconds}


def report(s: dict, options: dict) -> None:
    tested, other = s["tested"], s["other"]
    print(f"{s['match']}: {s['games']} classic {PLAYERS}-player games, one {tested} against "
          f"{PLAYERS - 1} {other}, seats rotating" + (f"; {tested} {options}" if options else ""))
    lo, hi = s["ci95"]
    print(f"  {tested:9} wins {s['wins']:5} of {s['games']:5}: {s['rate']:.3f}  "
          f"(95% Wilson {lo:.3f}-{hi:.3f}); share of wins {s['share']:.3f}")
    lo, hi = s["other_ci95"]
    print(f"  {other:9} seat {s['other_seat_wins']:5} of {s['other_seat_games']:5}: "
          f"{s['other_rate']:.3f}  (95% Wilson {lo:.3f}-{hi:.3f}); share of wins "
          f"{s['other_share']:.3f}")
    print(f"  ratio {tested}/{other} seat: {s['ratio']:.2f}x (shares: "
          f"{s['share'] / s['other_share']:.2f}x)")
    for name, t in s["timing"].items():
        print(f"  {name:9} {t['decisions']:7} decisions, {t['decisions_per_second']:9.1f} "
              f"decisions/s; CPU s/decision mean {t['mean']:.4f}, p95 {t['p95']:.4f}, "
              f"max {t['max']:.4f}")
    seconds, worlds = s["slowest"]
    print(f"  {tested}'s slowest decision: {seconds:.3f} CPU s"
          + (f" ({worlds} worlds)" if worlds is not None else "")
          + f"; decisions over 0.5 CPU s: {s['over_half_second']}")
    t = s["timing"][tested]
    print(f"  {tested} {options or '(defaults)'}: {t['decisions_per_second']:.1f} decisions per "
          f"CPU second, win rate {s['rate']:.3f} against {other} seats ({s['ratio']:.2f}x a seat "
          f"of theirs)")
    print(f"  wall time {s['wall_seconds']:.0f} s")


def survival_table(games: int) -> None:
    """The survival chances of ``search.SURVIVAL``, measured again."""
    from lifeboat_rules.heuristic import HeuristicBot
    counts: dict = {}
    for number in range(games):
        game = lr.new_game("classic", players=PLAYERS, seed=10_000 + number)
        bot = HeuristicBot(number)
        seen, last = [], None
        while not game.over:
            state = game.state
            if state.round != last:
                last = state.round
                for who, c in state.characters.items():
                    if not c.lost:
                        seen.append((who, max(-1, min(8, c.size - c.damage)), state.seagulls))
            who = game.pending[0].by
            game.apply(bot.choose(game, who))
        for who, margin, gulls in seen:
            c = game.state.characters[who]
            entry = counts.setdefault((margin, gulls), [0, 0])
            entry[0] += not c.lost and c.damage <= c.size
            entry[1] += 1
    for margin in range(9):
        cells = [counts.get((margin, g), [0, 0]) for g in range(4)]
        print(margin, [round(a / n, 2) if n else None for a, n in cells])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("match", nargs="?", choices=sorted(MATCHES))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--rollouts", type=int, default=4, help="SearchBot: worlds a decision")
    parser.add_argument("--budget", type=float, default=0.45,
                        help="SearchBot: CPU seconds a decision at most")
    parser.add_argument("--candidates", type=int, default=3, help="SearchBot: moves searched")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    parser.add_argument("--survival", type=int, default=0, metavar="GAMES",
                        help="print the survival table measured over GAMES games")
    args = parser.parse_args(argv)
    if args.survival:
        survival_table(args.survival)
        return 0
    if args.match is None:
        parser.error("name a match (or --survival GAMES)")
    options = {}
    if MATCHES[args.match][0] == "search":
        options = {"rollouts": args.rollouts, "budget": args.budget,
                   "candidates": args.candidates}
    began = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(play, range(args.games), [args.match] * args.games,
                                 [args.seed] * args.games, [options] * args.games,
                                 chunksize=4))
    else:
        rows = []
        for number in range(args.games):
            rows.append(play(number, args.match, args.seed, options))
            if sys.stderr.isatty():
                print(f"\r{number + 1}/{args.games}", end="", file=sys.stderr)
    s = summary(args.match, rows, time.perf_counter() - began)
    report(s, options)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"options": options, **s}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
