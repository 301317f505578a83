"""The tabs a window had open, kept between runs, and the bar that offers them again.

Only saved profiles are remembered (by id): a target given on the command line has no
name to find it by next time. With each tab go its custom name (if the user renamed it)
and its splitter states, so a reopened tab comes back as it was. At the next start the
window offers them in a bar at its top (nothing blocks: the window is usable at once); the
bar names the tabs, reopens them on a click, and goes away when dismissed or used. A
profile deleted meanwhile is left out.

Kept in QSettings under two keys:

* `openTabs`: the profile ids, in order (what version 1 kept, and still written, so an
  older build reading these settings offers the same tabs);
* `openTabsDetail`: JSON `{"version": 2, "tabs": [{"profile": ID, "name": NAME|null,
  "splitters": {KEY: BASE64}, "current": BOOL}]}`, one entry per id of `openTabs`.

The detail is used only when it reads whole, its version is one this build knows, and its
ids are those of `openTabs` (an older build may have written `openTabs` since); otherwise
the tabs come back by id alone, with their profiles' names and the usual layout. Every
field is checked: a name goes through `clean_tab_name`, a layout that is not base64 is
dropped.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol, TypeVar

from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton

from inspector.core.profiles import KnownProfiles
from inspector.settings.profiles import Profile
from inspector.ui.tabs.tab_name import clean_tab_name
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["MEMORY_VERSION", "RememberedTab", "ReopenBar", "TabMemory"]

log = logging.getLogger(__name__)

KEY: Final = "openTabs"
CURRENT_KEY: Final = "openTabsCurrent"
DETAIL_KEY: Final = "openTabsDetail"
# 1: the profile ids only (`openTabs`). 2: with each tab its custom name, its splitters and
# whether it was current (`openTabsDetail`).
MEMORY_VERSION: Final = 2
_MAX_NAMED: Final = 4
_MAX_STATE: Final = 4096  # bytes of one splitter's state (a few dozen in practice)


@dataclass(frozen=True)
class RememberedTab:
    """A tab of the last run: its profile, the user's name for it, its splitter states."""

    profile: Profile
    name: str | None = None
    splitters: Mapping[str, bytes] = field(default_factory=dict)
    current: bool = False  # the tab that was current

    @property
    def label(self) -> str:
        """How the Reopen bar names it: "deployed — Demo" when renamed (a dash, since a
        profile's name often has its own parentheses)."""
        if self.name and self.name != self.profile.name:
            return f"{self.name} — {self.profile.name}"
        return self.profile.name


class _Tab(Protocol):
    @property
    def offline(self) -> bool: ...

    @property
    def custom_name(self) -> str | None: ...

    def remembered_profile(self) -> Profile | None: ...


T = TypeVar("T", bound=_Tab)


def _ids(value: object) -> list[str]:
    if isinstance(value, str):  # QSettings' INI gives a one-item list back as a string
        return [value]
    return [str(v) for v in value] if isinstance(value, list) else []


def _splitters(value: object) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    if not isinstance(value, dict):
        return out
    for key, text in value.items():
        if not isinstance(key, str) or not isinstance(text, str) or len(text) > _MAX_STATE * 2:
            continue
        try:
            out[key] = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            continue
    return out


class TabMemory:
    def __init__(self, settings: QSettings, profiles: KnownProfiles) -> None:
        self.settings = settings
        self.profiles = profiles

    def save(
        self,
        tabs: Sequence[T],
        current: int,
        layout: Callable[[T], Mapping[str, bytes]] | None = None,
    ) -> list[str]:
        """Keep the saved profiles of `tabs` (in their order) with their names and, given
        `layout(tab)`, their splitter states; returns their ids."""
        ids: list[str] = []
        detail: list[dict[str, object]] = []
        for index, tab in enumerate(tabs):
            profile = tab.remembered_profile()
            if profile is None or tab.offline or self.profiles.is_adhoc(profile.id):
                continue
            if self.profiles.store.get(profile.id) is None:
                continue
            ids.append(profile.id)
            states = layout(tab) if layout is not None else {}
            detail.append(
                {
                    "profile": profile.id,
                    "name": clean_tab_name(tab.custom_name),
                    "current": index == current,
                    "splitters": {
                        k: base64.b64encode(v).decode("ascii")
                        for k, v in states.items()
                        if len(v) <= _MAX_STATE
                    },
                }
            )
        self.settings.setValue(KEY, ids)
        self.settings.setValue(CURRENT_KEY, current)
        self.settings.setValue(
            DETAIL_KEY, json.dumps({"version": MEMORY_VERSION, "tabs": detail}, sort_keys=True)
        )
        return ids

    def load(self) -> list[RememberedTab]:
        """The last run's tabs whose profiles still exist, in order, with their names and
        layouts when the detail reads whole (else by id alone)."""
        ids = _ids(self.settings.value(KEY, []))
        entries = self._detail(ids)
        out = []
        for index, profile_id in enumerate(ids):
            profile = self.profiles.store.get(profile_id)
            if profile is None:
                continue
            entry = entries[index] if entries is not None else {}
            out.append(
                RememberedTab(
                    profile,
                    clean_tab_name(entry.get("name")),
                    _splitters(entry.get("splitters")),
                    entry.get("current") is True,
                )
            )
        return out

    def _detail(self, ids: list[str]) -> list[dict[str, object]] | None:
        """`openTabsDetail`'s entries, one per id, or None (absent, unreadable, from a
        version this build does not know, or not about these ids)."""
        text = self.settings.value(DETAIL_KEY)
        if text is None:
            return None
        try:
            data = json.loads(str(text))
        except ValueError:
            log.warning("the remembered tabs' names and layouts do not read; left out")
            return None
        if not isinstance(data, dict) or data.get("version") != MEMORY_VERSION:
            return None
        tabs = data.get("tabs")
        if not isinstance(tabs, list) or not all(isinstance(t, dict) for t in tabs):
            return None
        if [str(t.get("profile")) for t in tabs] != ids:
            return None  # `openTabs` was written since (by an older build)
        return tabs


class ReopenBar(QFrame):
    """ "Last time these tabs were open: … [Reopen] [Dismiss]"."""

    reopen = Signal(list)  # list[RememberedTab]

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
        self.tabs: list[RememberedTab] = []
        self.hide()

    def offer(self, tabs: list[RememberedTab]) -> bool:
        """Show the bar for `tabs` (nothing to offer: stays hidden). True if shown."""
        self.tabs = list(tabs)
        if not tabs:
            self.hide()
            return False
        names = ", ".join(t.label for t in tabs[:_MAX_NAMED])
        more = len(tabs) - _MAX_NAMED
        if more > 0:
            names += f" and {more} more"
        count = len(tabs)
        self.label.setText(
            f"Last time {count} tab{'s were' if count > 1 else ' was'} open: {names}."
        )
        self.reopen_button.setText(f"Reopen {count} tab{'s' if count > 1 else ''}")
        self.show()
        return True

    def _reopen(self) -> None:
        self.hide()
        self.reopen.emit(list(self.tabs))
