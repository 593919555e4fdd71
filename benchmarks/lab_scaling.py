"""How the balance lab scales (issue #11): prints, never asserts.

    python benchmarks/lab_scaling.py [--games 100000] [--repeat 2] [--no-dask] [--cluster-workers 1,2]
    python benchmarks/lab_scaling.py --bots search --games 1000 --runs dask --cluster-workers 2 \
        --report captain-search            # the 1,000 search-seat games of docs/balance.md
    python benchmarks/lab_scaling.py --kinds random,heuristic,search --games 2000 \
        --search-games 40 --no-dask        # games per second of each kind of bot
    python benchmarks/lab_scaling.py --robust --games 2000 --no-dask --runs jobs2

Plays the same study (classic, 6 players, ``--bots``, default random) with the progress bar
and a full report, side by side in one run:

- ``--jobs 1`` (this process: one core) and ``--jobs 2`` (two worker processes): games per
  second and the ratio jobs 2 / jobs 1 (the target on a 2-core machine is at least 1.8);
- a Dask ``LocalCluster`` of one single-threaded worker (one core) and of two: games per
  second and the ratio to ``--jobs 1``.

Each configuration runs ``--repeat`` times, interleaved, and every run is printed with the
load average before it and the cores it got (CPU seconds of this process and its workers per
second of wall time, and the games per CPU second that gives), since other programs on the
machine slow some runs down: a run that got fewer cores than it has workers was crowded out,
not slow by itself. The best run of each is the figure. Every run must give the same
summary (checked and printed).
The progress bar goes to standard error (redirect it to /dev/null to keep a log clean).

``--kinds K,...`` measures each kind of bot in turn (every seat that bot; ``--search-games``
games for the search bot, which is slow); ``--runs`` keeps some of the configurations
(``jobs1``, ``jobs2``, ``dask``); ``--robust`` measures ``simulate --robust`` (its search
study on a tenth of the games, at least 200); ``--report DIR`` keeps the report of the last
run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import tempfile
import time

from lifeboat_rules.lab import Plan, run


def cpu_seconds() -> tuple[float, dict]:
    """CPU time of this process and its finished children, and of each live descendant
    (Dask workers live through a run; pool workers finish within it)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    done = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + done.ru_utime + done.ru_stime
    live = {}
    try:
        import psutil             # comes with distributed (the lab extra)
        for child in psutil.Process().children(recursive=True):
            try:
                times = child.cpu_times()
                live[child.pid] = times.user + times.system
            except psutil.Error:
                pass
    except ImportError:
        pass
    return total, live


def measure(plan, label: str, progress: bool, keep=None, rows=None, chunk=None,
            **where) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as scratch:
        report = keep or scratch
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        cpu_before, live_before = cpu_seconds()
        began = time.perf_counter()
        out = open(rows, "w", encoding="utf-8") if rows else None

        def each(game_rows):
            if out is not None:
                out.write("".join(json.dumps(r) + "\n" for r in game_rows))
                out.flush()
        try:
            summary = run(plan, report=report, progress=progress, chunk=chunk, each=each, **where)
        finally:
            if out is not None:
                out.close()
        elapsed = time.perf_counter() - began
        cpu_after, live_after = cpu_seconds()
    cpu = cpu_after - cpu_before + sum(t - live_before.get(pid, 0.0) for pid, t in live_after.items())
    games = plan.games + (plan.robust_games + plan.games if plan.robust else 0)
    rate = games / elapsed
    print(f"  {label:28} {elapsed:8.1f} s  {rate:8.2f} games/s   cores used {cpu / elapsed:4.2f}"
          f"  {games / cpu:7.2f} games per CPU second   (load average before: {load:.2f})",
          flush=True)
    print(f"  summary: {report}/summary.json" if keep else "", end="" if not keep else "\n")
    return rate, json.dumps(summary, sort_keys=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--ruleset", default="classic")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-dask", action="store_true", help="leave out the LocalCluster runs")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--cluster-workers", default="1,2",
                        help="the LocalClusters to measure, by workers (default 1,2)")
    parser.add_argument("--bots", default="random",
                        help="bots by seat, cycled, as simulate --bots (default random)")
    parser.add_argument("--rotate", action="store_true", help="as simulate --rotate")
    parser.add_argument("--kinds", default=None,
                        help="measure each of these bots in turn (e.g. random,heuristic,search)")
    parser.add_argument("--search-games", type=int, default=None,
                        help="with --kinds: games for the search bot (default --games)")
    parser.add_argument("--runs", default="jobs1,jobs2,dask",
                        help="the configurations to measure (default jobs1,jobs2,dask)")
    parser.add_argument("--robust", action="store_true", help="measure simulate --robust")
    parser.add_argument("--public", action="store_true",
                        help="play the default window_pending, never holders (R-WIN-3)")
    parser.add_argument("--report", default=None, help="keep the report of the last run here")
    parser.add_argument("--rows", default=None,
                        help="write each game's rows here as they come (JSON lines), so that a "
                             "study stopped early can still be read")
    parser.add_argument("--chunk", type=int, default=None, help="games per task (as simulate)")
    args = parser.parse_args()
    kinds = args.kinds.split(",") if args.kinds else [args.bots]
    if len(kinds) > 1:
        for kind in kinds:
            games = args.search_games if kind == "search" and args.search_games else args.games
            print(f"\n== {kind} ==", flush=True)
            study(args, kind, games)
        return
    study(args, kinds[0], args.games)


def study(args, bots: str, games: int) -> None:
    wanted = set(args.runs.split(","))
    plan = Plan.make(args.ruleset, games=games, players=args.players, seed=1, bots=bots.split(","),
                     rotate=args.rotate, robust=args.robust, fast=not args.public)
    progress = not args.no_progress
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{games:,} games of {plan.names[0]}, {plan.players} players, bots {bots}"
          + (" rotating" if args.rotate else "")
          + (f" and --robust ({plan.robust_games} search games)" if args.robust else "")
          + (", window_pending holders" if plan.holders else ", window_pending as the ruleset says")
          + f", progress bar {'on' if progress else 'off'}, report on")

    clusters = {}
    if not args.no_dask and "dask" in wanted:
        from distributed import LocalCluster
        for workers in sorted({int(n) for n in args.cluster_workers.split(",")}):
            clusters[workers] = LocalCluster(n_workers=workers, threads_per_worker=1,
                                             processes=True, dashboard_address=None,
                                             host="127.0.0.1")

    rates: dict = {}
    summaries = set()
    try:
        for attempt in range(1, args.repeat + 1):
            print(f"run {attempt}:")
            runs = [("jobs 1 (this process)", {"jobs": 1})] if "jobs1" in wanted else []
            runs += [("jobs 2 (two processes)", {"jobs": 2})] if "jobs2" in wanted else []
            runs += [(f"LocalCluster, {n} worker(s)", {"dask": c.scheduler_address})
                     for n, c in clusters.items()]
            for label, where in runs:
                rate, summary = measure(plan, label, progress, args.report, args.rows,
                                        args.chunk, **where)
                rates.setdefault(label, []).append(rate)
                summaries.add(summary)
    finally:
        for cluster in clusters.values():
            cluster.close()

    base = max(rates.get("jobs 1 (this process)", [0.0]))
    print("best of each" + (", and the ratio to jobs 1:" if base else ":"))
    for label, values in rates.items():
        print(f"  {label:28} {max(values):8.2f} games/s"
              + (f"   x{max(values) / base:.2f}" if base else ""))
    print(f"same summary in every run: {'yes' if len(summaries) == 1 else 'NO'}")
    if len(summaries) != 1:
        sys.exit(1)


if __name__ == "__main__":
    main()
