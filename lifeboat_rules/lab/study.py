"""A study: play a plan's games wherever asked, count them in seed order, summarize them and
write the report."""

from __future__ import annotations

from . import execute
from .progress import Bar
from .failures import GameFailed
from .summary import compare, summarize
from .tally import Pairs, Tally


def run(plan, jobs: int = 1, dask: str | None = None, report=None, progress: bool = False,
        intervals: bool = True, chunk: int | None = None, each=None, watch=None,
        keep_going: bool = False) -> dict:
    """Play ``plan`` and return its summary (``summary.json``).

    ``jobs``: local worker processes (1: this process); ``dask``: the address of a Dask
    scheduler to run on instead; ``report``: a folder for the report; ``progress``: show a
    progress bar on standard error; ``intervals``: compute 95% intervals (the ``lab`` extra);
    ``each(rows)``: called with every game's rows in seed order; ``watch(game, events)``: called
    with the events as they happen (only in this process, ``jobs=1``).

    A game in which a plugin raised stops the study with ``GameFailed`` (its seed, round,
    action and the command that replays it); with ``keep_going`` it is counted under
    ``failed`` instead, and left out of every other number (and of the pairs when comparing).
    """
    tallies = [Tally(plan.players, plan.order) for _ in plan.rulesets]
    pairs = Pairs(tallies[0].unit) if plan.comparing else None
    rows_file = None
    if report is not None:
        from .report import Rows
        rows_file = Rows(report)
    label = " vs ".join(plan.names)
    try:
        with Bar(plan.games, label, progress) as bar:
            for rows in execute.games(plan, jobs=jobs, dask=dask, chunk=chunk, watch=watch):
                for row in rows:
                    if "failed" in row and not keep_going:
                        raise GameFailed(row["failed"])
                shares = [tally.fail(row) if "failed" in row else tally.add(row)
                          for tally, row in zip(tallies, rows)]
                if pairs is not None and all(share is not None for share in shares):
                    pairs.add(*shares)
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
    if report is not None:
        from .report import write
        write(report, summary)
    return summary
