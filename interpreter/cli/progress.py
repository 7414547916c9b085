"""Progress of long commands on the terminal: games done, games per second, time left.

Shown on stderr only when it is a terminal and the output is not ``--json``; otherwise silent."""
from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.text import Text


class RateColumn(ProgressColumn):
    def render(self, task) -> Text:
        speed = task.finished_speed or task.speed
        return Text("" if speed is None else f"{speed:.1f} games/s")


class Bar:
    """A rich progress display; ``task(label, total)`` gives a callback that advances by n games."""

    def __init__(self, visible: bool):
        columns = (TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                   RateColumn(), TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn())
        self.progress = Progress(*columns, console=Console(stderr=True), transient=True, disable=not visible)

    def task(self, label: str, total: int):
        task = self.progress.add_task(label, total=total)
        return lambda n: self.progress.advance(task, n)

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)


def progress(args) -> Bar:
    """The progress display of a command: visible unless --json or stderr is not a terminal."""
    return Bar(not getattr(args, "json", False) and sys.stderr.isatty())
