"""A progress bar on the terminal (rich, from the ``lab`` extra), and none when the output
is piped or redirected."""

from __future__ import annotations

import sys


def wanted(stream=None) -> bool:
    """Whether a bar belongs on ``stream`` (standard error): only on a terminal."""
    stream = stream or sys.stderr
    return bool(getattr(stream, "isatty", lambda: False)())


class Bar:
    """``with Bar(total, label, show) as bar: bar.advance()``; does nothing when not shown."""

    def __init__(self, total: int, label: str, show: bool):
        self.total = total
        self.label = label
        self.show = show
        self.progress = None

    def __enter__(self):
        if self.show:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            # force_terminal: shown because we were asked to (wanted() or a benchmark)
            console = Console(stderr=True, force_terminal=True)
            self.progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                     MofNCompleteColumn(), TextColumn("games,"),
                                     TimeElapsedColumn(), TextColumn("elapsed,"),
                                     TimeRemainingColumn(), TextColumn("left"),
                                     console=console, transient=False, refresh_per_second=4)
            self.progress.__enter__()
            self.task = self.progress.add_task(self.label, total=self.total)
        return self

    def advance(self, games: int = 1) -> None:
        if self.progress is not None:
            self.progress.advance(self.task, games)

    def __exit__(self, *exc):
        if self.progress is not None:
            self.progress.__exit__(*exc)
        return False
