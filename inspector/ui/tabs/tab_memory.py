"""The tabs a window had open, kept between runs, and the bar that offers them again.

A saved profile is remembered by its id; a tab opened on a command line or a URL (File ▸
New Tab, `--stdio`, `--url`: a profile for that run only) by what it ran: the command, its
arguments, folder and the environment variables that are not secret, or the URL (never a
secret value). With each tab go its custom name (if the user renamed it) and its splitter
states, so a reopened tab comes back as it was. At the next start the
window offers them in a bar at its top (nothing blocks: the window is usable at once); the
bar names the tabs, reopens them on a click, and goes away when dismissed or used. A
profile deleted meanwhile is left out.

Kept in QSettings under two keys:

* `openTabs`: the profile ids, in order (what version 1 kept, and still written, so an
  older build reading these settings offers the same tabs);
* `openTabsDetail`: JSON `{"version": 2, "tabs": [{"profile": ID, "name": NAME|null,
  "splitters": {KEY: BASE64}, "current": BOOL}]}`, one entry per id of `openTabs`, in the
  tabs' order; a tab of a command line or URL is an entry with `"target": {"name": …,
  "transport": "stdio", "command": …, "args": […], "cwd": …|null, "env": [{"name": …,
  "value": …}]}` (or `"transport": "http", "url": …`) in place of `"profile"` (a build that
  does not know it reads the entry's missing id as another id, and falls back to the ids).

The detail is used only when it reads whole, its version is one this build knows, and its
ids are those of `openTabs` (an older build may have written `openTabs` since); otherwise
the tabs come back by id alone, with their profiles' names and the usual layout. Every
field is checked: a name goes through `clean_tab_name`, a layout that is not base64 is
dropped, a target that does not make a profile is left out.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol, TypeVar

from pydantic import ValidationError
from PySide6.QtCore import QSettings, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton

from inspector.core.profiles import KnownProfiles
from inspector.settings.profiles import EnvVar, HttpSettings, Profile, StdioSettings
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
    adhoc: bool = False  # a command line or URL, not a saved profile

    @property
    def label(self) -> str:
        """How the Reopen bar names it: "deployed — Demo" when renamed (a dash, since a
        profile's name often has its own parentheses); a command line or a URL says so."""
        name = self.profile.name
        if self.adhoc:
            name += " (not saved)"
        if self.name and self.name != self.profile.name:
            return f"{self.name} — {name}"
        return name


def target_of(profile: Profile) -> dict[str, object]:
    """What a tab of a command line or URL ran, to run it again (no secret value)."""
    if profile.transport == "http":
        return {"name": profile.name, "transport": "http", "url": profile.http.url}
    stdio = profile.stdio
    return {
        "name": profile.name,
        "transport": "stdio",
        "command": stdio.command,
        "args": list(stdio.args),
        "cwd": stdio.cwd,
        "env": [{"name": e.name, "value": e.value} for e in stdio.env if not e.secret],
    }


def profile_of(target: object) -> Profile | None:
    """The profile a remembered target runs (None: not one this build can read)."""
    if not isinstance(target, dict) or not isinstance(target.get("name"), str):
        return None
    try:
        if target.get("transport") == "http":
            url = target.get("url")
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                return None
            return Profile(name=target["name"], transport="http", http=HttpSettings(url=url))
        if target.get("transport") != "stdio":
            return None
        env = target.get("env") or []
        command = target.get("command")
        if not isinstance(command, str):
            return None
        stdio = StdioSettings(
            command=command,
            args=target.get("args") or [],
            cwd=target.get("cwd"),
            env=[EnvVar(name=e.get("name"), value=e.get("value")) for e in env],
        )
    except (ValidationError, AttributeError, TypeError):
        return None
    return Profile(name=target["name"], stdio=stdio) if stdio.command else None


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
            if profile is None or tab.offline:
                continue
            which: dict[str, object]
            if self.profiles.is_adhoc(profile.id):
                which = {"target": target_of(profile)}
            elif self.profiles.store.get(profile.id) is None:
                continue
            else:
                ids.append(profile.id)
                which = {"profile": profile.id}
            states = layout(tab) if layout is not None else {}
            detail.append(
                {
                    **which,
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
        if entries is None:
            entries = [{"profile": i} for i in ids]
        out = []
        for entry in entries:
            adhoc = "target" in entry
            if adhoc:
                profile = profile_of(entry.get("target"))
            else:
                profile = self.profiles.store.get(str(entry.get("profile")))
            if profile is None:
                continue
            out.append(
                RememberedTab(
                    profile,
                    clean_tab_name(entry.get("name")),
                    _splitters(entry.get("splitters")),
                    entry.get("current") is True,
                    adhoc,
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
        if [str(t.get("profile")) for t in tabs if "target" not in t] != ids:
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
