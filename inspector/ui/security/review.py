"""The security review of a window: the rules run over every open tab at once (one tool
table's worth of servers, as a host would load them), each tab's Security panel shown
what concerns its server. Re-run shortly after any tab's catalog, pins or session change
(a listing arrives page by page: one run after the last page, not one per page)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, QTimer

if TYPE_CHECKING:
    from inspector.security import SecurityFinding
    from inspector.ui.security.security_panel import SecurityPanel

__all__ = ["SecurityReview"]

log = logging.getLogger(__name__)

SETTLE_MS: Final = 150  # a burst of changes (pages, several tabs) is one run


class SecurityReview(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.panels: list[SecurityPanel] = []
        self.runs = 0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SETTLE_MS)
        self._timer.timeout.connect(self.run)

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

    def run(self) -> None:
        """Scan every tab that offers something; show each panel its own findings."""
        from inspector.security import scan  # its Unicode tables load now, not at start-up
        from inspector.ui.security.sources import unique_names

        self.runs += 1
        names = unique_names(panel.label() for panel in self.panels)
        offered = []
        for panel, name in zip(self.panels, names, strict=True):
            definitions = panel.definitions(name)
            if definitions is None:
                panel.show_nothing()
            else:
                offered.append((panel, definitions))
        try:
            found = scan([d for _p, d in offered])
        except Exception:  # a rule's bug must not take the window down with it
            log.exception("the security scan failed")
            found = []
        by_server: dict[str, list[SecurityFinding]] = {}
        for finding in found:
            by_server.setdefault(finding.server, []).append(finding)
        for panel, definitions in offered:
            mine = by_server.get(definitions.name, [])
            panel.show_findings(definitions.name, mine, len(offered))
