"""The progress bar of ``env121 train`` (both trainers)."""

from __future__ import annotations

import time


class Progress:
    """A rich progress bar over a run's steps, its speed and a status text."""

    def __init__(self, total: int) -> None:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as RichProgress

        self.total = total
        self.bar = RichProgress(
            TextColumn("[bold]train"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} steps/s"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[status]}"),
        )
        self.task = self.bar.add_task("train", total=total, rate="-", status="")
        self.started = time.perf_counter()
        self.first = 0

    def start(self, step: int, status: str) -> None:
        """Show the bar at ``step``."""
        self.first, self.started = step, time.perf_counter()
        self.bar.start()
        self.bar.update(self.task, completed=step, status=status)

    def update(self, step: int, status: str | None = None) -> None:
        """Move the bar to ``step`` (and change its status text, if given)."""
        rate = (step - self.first) / max(time.perf_counter() - self.started, 1e-9)
        self.bar.update(self.task, completed=step, rate=f"{rate:,.0f}")
        if status is not None:
            self.bar.update(self.task, status=status)

    def stop(self) -> None:
        """Leave the bar as it is."""
        self.bar.stop()


__all__ = ["Progress"]
