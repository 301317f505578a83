"""The tabs a window had open, kept between runs, and the bar that offers them again.

Only saved profiles are remembered (by id): a target given on the command line has no
name to find it by next time. At the next start the window offers them in a bar at its
top (nothing blocks: the window is usable at once); the bar names the servers, reopens
them on a click, and goes away when dismissed or used. A profile deleted meanwhile is
left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton

from inspector.app.profiles import KnownProfiles
from inspector.settings.profiles import Profile
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["ReopenBar", "TabMemory"]

KEY: Final = "openTabs"
CURRENT_KEY: Final = "openTabsCurrent"
_MAX_NAMED: Final = 4


class _Tab(Protocol):
    @property
    def offline(self) -> bool: ...

    def remembered_profile(self) -> Profile | None: ...


class TabMemory:
    def __init__(self, settings: QSettings, profiles: KnownProfiles) -> None:
        self.settings = settings
        self.profiles = profiles

    def save(self, tabs: Sequence[_Tab], current: int) -> list[str]:
        """Keep the saved profiles of `tabs` (in their order); returns their ids."""
        ids: list[str] = []
        for tab in tabs:
            profile = tab.remembered_profile()
            if profile is None or tab.offline or self.profiles.is_adhoc(profile.id):
                continue
            if self.profiles.store.get(profile.id) is not None:
                ids.append(profile.id)
        self.settings.setValue(KEY, ids)
        self.settings.setValue(CURRENT_KEY, current)
        return ids

    def load(self) -> list[Profile]:
        """The profiles of the last run's tabs that still exist, in order."""
        value = self.settings.value(KEY, [])
        ids = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        found = [self.profiles.store.get(str(i)) for i in ids]
        return [p for p in found if p is not None]


class ReopenBar(QFrame):
    """ "Last time these tabs were open: … [Reopen] [Dismiss]"."""

    reopen = Signal(list)  # list[Profile]

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("reopenTabsBar")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.label = PlainLabel(wrap=True)
        self.reopen_button = QPushButton("Reopen")
        self.reopen_button.setObjectName("reopenTabsButton")
        self.dismiss_button = QPushButton("Dismiss")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.reopen_button)
        layout.addWidget(self.dismiss_button)
        self.reopen_button.clicked.connect(self._reopen)
        self.dismiss_button.clicked.connect(self.hide)
        self.profiles: list[Profile] = []
        self.hide()

    def offer(self, profiles: list[Profile]) -> bool:
        """Show the bar for `profiles` (nothing to offer: stays hidden). True if shown."""
        self.profiles = list(profiles)
        if not profiles:
            self.hide()
            return False
        names = ", ".join(p.name for p in profiles[:_MAX_NAMED])
        more = len(profiles) - _MAX_NAMED
        if more > 0:
            names += f" and {more} more"
        count = len(profiles)
        self.label.setText(
            f"Last time {count} tab{'s were' if count > 1 else ' was'} open: {names}."
        )
        self.reopen_button.setText(f"Reopen {count} tab{'s' if count > 1 else ''}")
        self.show()
        return True

    def _reopen(self) -> None:
        self.hide()
        self.reopen.emit(list(self.profiles))
