"""The security review of a window: the rules run over every open tab at once (one tool
table's worth of servers, as a host would load them), each tab's Security panel shown
what concerns its server. Re-run shortly after any tab's catalog, pins or session change
(a listing arrives page by page: one run after the last page, not one per page).

The rules are pure Python and cost about 1 ms per tool (a 10,000-tool gateway: seconds),
so they run on a daemon thread, never on the event loop: what each tab has listed is
gathered on the loop (cheap), the findings come back through a queued signal. One run at a
time; a change during a run asks for one more after it, and only the newest result is
shown."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, QTimer, Signal

from inspector.ui.security.sources import TabListing, unique_names

if TYPE_CHECKING:
    from inspector.security import SecurityFinding
    from inspector.ui.security.security_panel import SecurityPanel

__all__ = ["SecurityReview"]

log = logging.getLogger(__name__)

SETTLE_MS: Final = 150  # a burst of changes (pages, several tabs) is one run


class SecurityReview(QObject):
    _scanned = Signal(int, object)  # run number, list of findings (from the worker thread)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.panels: list[SecurityPanel] = []
        self.runs = 0  # runs started
        self._running = False
        self._again = False
        self._offered: list[tuple[SecurityPanel, TabListing]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self.run)
        self._scanned.connect(self._show)

    def add(self, panel: SecurityPanel) -> None:
        if panel not in self.panels:
            self.panels.append(panel)
            panel.on_change = self.schedule
            self.schedule()

    def remove(self, panel: SecurityPanel) -> None:
        if panel in self.panels:
            self.panels.remove(panel)
            panel.on_change = None
            self.schedule()

    def schedule(self) -> None:
        if not self._timer.isActive():
            self._timer.start()

    @property
    def busy(self) -> bool:
        return self._running

    def run(self) -> None:
        """Gather what every tab offers and scan it on a worker thread."""
        if self._running:
            self._again = True  # one more run once this one is over
            return
        names = unique_names(panel.label() for panel in self.panels)
        offered = []
        for panel, name in zip(self.panels, names, strict=True):
            listing = panel.listing(name)
            if listing is None:
                panel.show_nothing()
            else:
                panel.show_reviewing()
                offered.append((panel, listing))
        self.runs += 1
        self._running = True
        self._offered = offered
        listings = [listing for _p, listing in offered]
        threading.Thread(
            target=self._scan, args=(self.runs, listings), name="security review", daemon=True
        ).start()

    def _scan(self, number: int, listings: Sequence[TabListing]) -> None:
        """On the worker thread: every rule over the tabs' listings."""
        try:
            from inspector.security import scan  # its Unicode tables load here, off the loop

            found = scan([listing.definitions() for listing in listings])
        except Exception:  # a rule's bug must not take the window down with it
            log.exception("the security scan failed")
            found = []
        try:
            self._scanned.emit(number, found)
        except RuntimeError:  # the window closed during the run: nobody to tell
            log.debug("security review %d ended after its window", number)

    def _show(self, number: int, found: list[SecurityFinding]) -> None:
        """On the event loop: each panel still open gets its server's findings."""
        self._running = False
        by_server: dict[str, list[SecurityFinding]] = {}
        for finding in found:
            by_server.setdefault(finding.server, []).append(finding)
        for panel, listing in self._offered:
            if panel in self.panels and number == self.runs:
                mine = by_server.get(listing.name, [])
                panel.show_findings(listing.name, mine, len(self._offered))
        self._offered = []
        if self._again:
            self._again = False
            self.run()
