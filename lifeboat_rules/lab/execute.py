"""Where the games are played: in this process, in local worker processes (``--jobs``) or on
a Dask cluster (``--dask``). Whatever the place, games come back in seed order, so a study
adds them up in the same order and gets the same summary."""

from __future__ import annotations

import inspect
import multiprocessing
import sys
from collections import deque
from pathlib import Path
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .runner import games_of, play_seeds

MAX_CHUNK = 250        # games per task: few enough tasks to cost nothing, enough for progress
IN_FLIGHT = 4          # tasks queued per worker: workers never wait, memory stays bounded


def chunks(games: int, workers: int, size: int | None = None) -> list:
    """(first, count) of each task."""
    size = size or max(1, min(MAX_CHUNK, games // (workers * 8)))
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def games(plan, jobs: int = 1, dask: str | None = None, chunk: int | None = None, watch=None):
    """Every game of ``plan`` as a tuple of rows (one per ruleset), in seed order."""
    if dask:
        yield from _on_dask(plan, dask, chunk)
    elif jobs <= 1:
        yield from games_of(plan.to_dict(), 0, plan.games, watch)
    else:
        yield from _on_processes(plan, jobs, chunk)


def _in_order(submit, tasks: list, window: int):
    """Submit tasks keeping ``window`` of them queued; yield their games in task order."""
    queued: deque = deque()
    tasks = iter(tasks)
    for task in tasks:
        queued.append(submit(*task))
        if len(queued) >= window:
            break
    while queued:
        done = queued.popleft().result()
        for task in tasks:
            queued.append(submit(*task))
            break
        yield from done


def _on_processes(plan, jobs: int, chunk: int | None):
    # spawn, not fork: the parent may run threads (the progress bar) that fork would copy
    # half-way; workers import the package afresh, as they will on every platform
    script = _importing_main_again()
    if script is not None:
        # a worker importing the script that runs the study at its top level: stop before
        # any pool's queues exist (their semaphores would outlive this worker, and the
        # resource tracker would warn about them after the parent's error)
        raise RuntimeError(f"this worker process of the lab runs {script} again as it starts, "
                           "and the script starts a study at its top level: put that under "
                           "`if __name__ == \"__main__\":` (docs/balance.md, From Python)")
    context = multiprocessing.get_context("spawn")
    data = plan.to_dict()
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            yield from _in_order(lambda first, count: pool.submit(play_seeds, data, first, count),
                                 chunks(plan.games, jobs, chunk), jobs * IN_FLIGHT)
    except BrokenProcessPool:
        raise RuntimeError(_broken_workers()) from None


def _importing_main_again() -> str | None:
    """The script, when this is a spawned process running its parent's script again as it
    starts (the script's top level, run as ``__mp_main__``, multiprocessing's name for it then,
    is up the stack); else None."""
    frame = inspect.currentframe()
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__mp_main__":
            return str(frame.f_globals.get("__file__") or "the script")
        frame = frame.f_back
    return None


def _broken_workers() -> str:
    """Why a worker process may have stopped, in words: from a script, most often the script
    itself (each spawned worker imports it again, and runs an unguarded study once more)."""
    text = "a worker process of the lab stopped before its games were played"
    script = getattr(sys.modules.get("__main__"), "__file__", None)
    # (the command line's own scripts have no .py, or are the package's: they guard the study)
    if script is not None and script.endswith(".py") and "lifeboat_rules" not in Path(script).parts:
        text += (f". If {script} starts the study at its top level, put that under "
                 "`if __name__ == \"__main__\":`: each worker process imports the script "
                 "again (docs/balance.md, From Python)")
    return text + ". Or run with jobs=1 (in this process) to see the game's own error."


def _on_dask(plan, address: str, chunk: int | None):
    from distributed import Client     # the `lab` extra

    try:
        client = Client(address, timeout="30s")
    except OSError as exc:                # refused, unreachable, timed out
        raise ValueError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    with client:
        workers = sum(client.nthreads().values()) or 1
        [data] = client.scatter([plan.to_dict()], broadcast=True)
        yield from _in_order(
            lambda first, count: client.submit(play_seeds, data, first, count, pure=False),
            chunks(plan.games, workers, chunk), workers * IN_FLIGHT)
