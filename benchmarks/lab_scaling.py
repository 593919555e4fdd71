"""How the balance lab scales (issue #11): prints, never asserts.

    python benchmarks/lab_scaling.py [--games 100000] [--repeat 2] [--no-dask] [--cluster-workers 1,2]

Plays the same study (classic, 6 players, random bots) with the progress bar and a full
report, side by side in one run:

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


def measure(plan, label: str, progress: bool, **where) -> tuple[float, str]:
    with tempfile.TemporaryDirectory() as report:
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        cpu_before, live_before = cpu_seconds()
        began = time.perf_counter()
        summary = run(plan, report=report, progress=progress, **where)
        elapsed = time.perf_counter() - began
        cpu_after, live_after = cpu_seconds()
    cpu = cpu_after - cpu_before + sum(t - live_before.get(pid, 0.0) for pid, t in live_after.items())
    rate = plan.games / elapsed
    print(f"  {label:28} {elapsed:8.1f} s  {rate:8.1f} games/s   cores used {cpu / elapsed:4.2f}"
          f"  {plan.games / cpu:6.1f} games per CPU second   (load average before: {load:.2f})",
          flush=True)
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
    args = parser.parse_args()

    plan = Plan.make(args.ruleset, games=args.games, players=args.players, seed=1)
    progress = not args.no_progress
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"{args.games:,} games of {plan.names[0]} with {plan.players} random players, "
          f"progress bar {'on' if progress else 'off'}, report on")

    clusters = {}
    if not args.no_dask:
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
            runs = [("jobs 1 (this process)", {"jobs": 1}), ("jobs 2 (two processes)", {"jobs": 2})]
            runs += [(f"LocalCluster, {n} worker(s)", {"dask": c.scheduler_address})
                     for n, c in clusters.items()]
            for label, where in runs:
                rate, summary = measure(plan, label, progress, **where)
                rates.setdefault(label, []).append(rate)
                summaries.add(summary)
    finally:
        for cluster in clusters.values():
            cluster.close()

    base = max(rates["jobs 1 (this process)"])
    print("best of each, and the ratio to jobs 1:")
    for label, values in rates.items():
        print(f"  {label:28} {max(values):8.1f} games/s   x{max(values) / base:.2f}")
    print(f"same summary in every run: {'yes' if len(summaries) == 1 else 'NO'}")
    sys.exit(0 if len(summaries) == 1 else 1)


if __name__ == "__main__":
    main()
