"""Ctrl+C and SIGTERM turned into a clean stop, for the commands that run something long
(`test`, `chat`, `eval`): one context manager that installs the handlers on the running
loop while the command runs."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable

from inspector.cli.errors import diag

__all__ = ["Interrupts"]


class Interrupts:
    """Ctrl+C and SIGTERM: the first calls `on_stop` (the command stops what is in flight)
    or, before there is one, cancels the main task; later signals are noted and ignored.
    `signum` says which came, `reason` says it in words. `stopping` and `already` end the
    lines said on stderr for the first signal and for the later ones."""

    def __init__(self, *, stopping: str = "stopping", already: str = "already stopping") -> None:
        self.signum: int | None = None
        self.on_stop: Callable[[], None] | None = None
        self.stopping = stopping
        self.already = already
        self._main = asyncio.current_task()
        self._loop = asyncio.get_running_loop()
        self._installed: list[signal.Signals] = []

    def __enter__(self) -> Interrupts:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                self._loop.add_signal_handler(sig, self._heard, sig)
                self._installed.append(sig)
        return self

    def __exit__(self, *_exc: object) -> None:
        for sig in self._installed:
            self._loop.remove_signal_handler(sig)

    @property
    def reason(self) -> str:
        name = signal.Signals(self.signum).name if self.signum is not None else "a signal"
        return f"interrupted by {name}"

    def _heard(self, sig: signal.Signals) -> None:
        if self.signum is not None:
            diag(f"{sig.name}: {self.already}")
            return
        self.signum = int(sig)
        diag(f"{self.reason}: {self.stopping}")
        if self.on_stop is not None:
            self.on_stop()
        elif self._main is not None:
            self._main.cancel()
