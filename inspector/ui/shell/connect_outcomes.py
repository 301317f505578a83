"""Which saved profiles failed to connect the last time they were tried, kept between runs
(QSettings), so that a new window's server picker starts on one that works.

The picker starts on the most recently used profile whose last connect worked (issue 31,
item 14). At start a person's next step is usually Connect, and a profile that failed last
time would just fail again, now without the message that said why: it is the one they
were fixing in Profiles…, where it stays one click away. With no such profile the picker
starts on its first entry (the built-in demo). The Recent menu still lists every profile
tried.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QSettings

from inspector.core.connection_state import ConnState
from inspector.settings.profiles import Profile

__all__ = ["ConnectOutcomes"]

_KEY: Final = "failedProfiles"


class ConnectOutcomes:
    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def failed(self) -> list[str]:
        """The ids of the profiles whose last connect failed."""
        value = self.settings.value(_KEY, [])
        if isinstance(value, str):
            return [value]
        return [str(v) for v in value] if isinstance(value, list) else []

    def note(self, profile: Profile | None, state: ConnState) -> None:
        """A tab's connection reached `state`: a connect that worked or failed is kept."""
        if profile is None or state not in (ConnState.CONNECTED, ConnState.FAILED):
            return
        failed = self.failed()
        was = profile.id in failed
        if state is ConnState.FAILED and not was:
            self.settings.setValue(_KEY, [profile.id, *failed])
        elif state is ConnState.CONNECTED and was:
            self.settings.setValue(_KEY, [f for f in failed if f != profile.id])

    def start_candidates(self, recent: list[str]) -> list[str]:
        """`recent` without the profiles whose last connect failed: the picker starts on
        the first of these."""
        failed = set(self.failed())
        return [r for r in recent if r not in failed]
