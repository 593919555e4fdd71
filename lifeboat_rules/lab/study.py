"""A study: play a plan's games wherever asked, count them in seed order, summarize them and
write the report."""

from __future__ import annotations

from . import execute
from .failures import GameFailed
from .plan import ROBUST_BOTS
from .progress import Bar
from .summary import compare, restriction, robustness, summarize, variation
from .tally import Pairs, Restriction, Tally


def run(plan, jobs: int = 1, dask: str | None = None, report=None, progress: bool = False,
        intervals: bool = True, chunk: int | None = None, each=None, watch=None,
        keep_going: bool = False) -> dict:
    """Play ``plan`` and return its summary (``summary.json``).

    ``jobs``: local worker processes (1: this process); ``dask``: the address of a Dask
    scheduler to run on instead; ``report``: a folder for the report; ``progress``: show a
    progress bar on standard error; ``intervals``: compute 95% intervals (the ``lab`` extra);
    ``each(rows)``: called with every game's rows in seed order (one per arm of the plan:
    ``Plan.arms``); ``watch(game, events)``: called with the events as they happen (only in
    this process, ``jobs=1``).

    A game in which a plugin raised stops the study with ``GameFailed`` (its seed, round,
    action and the command that replays it); with ``keep_going`` it is counted under
    ``failed`` instead, and left out of every other number (and of the pairs when comparing
    or restricting).
    """
    arms = plan.arms
    tallies = [Tally(plan.players, plan.order, plan.count) for _ in arms]
    pairs = Pairs(tallies[0].unit) if plan.comparing else None
    restricted = arms.index((0, True)) if plan.restrict else None
    bound = Restriction(tallies[0].unit) if plan.restrict else None
    rows_file = None
    if report is not None:
        from .report import Rows
        rows_file = Rows(report)
    label = " vs ".join(plan.names[:2] if plan.comparing else plan.names[:1])
    try:
        with Bar(plan.games, label, progress) as bar:
            for rows in execute.games(plan, jobs=jobs, dask=dask, chunk=chunk, watch=watch):
                for row in rows:
                    if "failed" in row and not keep_going:
                        raise GameFailed(row["failed"])
                shares = [tally.fail(row) if "failed" in row else tally.add(row)
                          for tally, row in zip(tallies, rows)]
                if pairs is not None and shares[0] is not None and shares[1] is not None:
                    pairs.add(shares[0], shares[1])
                if bound is not None and shares[0] is not None and shares[restricted] is not None:
                    bound.add(rows[restricted], shares[0], shares[restricted])
                if rows_file is not None:
                    rows_file.write(rows)
                if each is not None:
                    each(rows)
                bar.advance()
    finally:
        if rows_file is not None:
            rows_file.close()
    summary = summarize(plan, tallies[0], 0, intervals)
    if pairs is not None:
        summary["compare"] = compare(plan, tallies[1], pairs)
    if bound is not None:
        summary["restricted"] = restriction(plan, bound)
    if plan.vary:
        first = len(arms) - len(plan.vary[1])
        summary["vary"] = variation(plan, tallies[first:], intervals)
    if plan.robust:
        summary["robust"] = robust(plan, summary, jobs=jobs, dask=dask, progress=progress,
                                   intervals=intervals, chunk=chunk, keep_going=keep_going)
    if report is not None:
        from .report import write
        write(report, summary)
    return summary


def robust(plan, summary: dict, jobs: int = 1, dask: str | None = None, progress: bool = False,
           intervals: bool = True, chunk: int | None = None, keep_going: bool = False) -> dict:
    """The study's win rates again with every seat ``random``, ``heuristic`` and ``search``
    (the last on ``plan.robust_games``), and each character's verdict under each."""
    studies = {}
    for kind in ROBUST_BOTS:
        games = plan.robust_games if kind == "search" else plan.games
        if tuple(summary["bots"]) == (kind,) * plan.players and not plan.rotate \
                and games == plan.games:
            studies[kind] = summary         # the study itself had these seats
        else:
            studies[kind] = run(plan.plain((kind,), games), jobs=jobs, dask=dask,
                                progress=progress, intervals=intervals, chunk=chunk,
                                keep_going=keep_going)
    return robustness(plan, studies)
