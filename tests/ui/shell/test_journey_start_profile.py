"""Journey (issue 31, item 14): which server the picker offers at start. Connect the demo
(it works), then a profile whose binary is missing (it fails); start again: the picker
offers the demo, the last one that connected fine, not the broken one (the Recent menu
lists both, the broken one first)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.settings.profiles import Profile, StdioSettings
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import close_window, run, until, window_for
from tests.helpers.journeys import click, menu_action, shows_connected, type_keys

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("config_dir")]


def test_the_picker_starts_on_the_last_profile_that_connected(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    window.store.put(
        Profile(name="Unbuilt", stdio=StdioSettings(command=str(tmp_path / "build" / "srv")))
    )

    async def scenario() -> None:
        tab = window.current_tab
        assert tab.bar.profile_combo.currentText() == "Demo server"
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 11), "the demo's 11 tools")
        type_keys(tab.bar.profile_combo, "Unb")
        assert tab.bar.profile_combo.currentText() == "Unbuilt"
        click(tab.bar.connect_button)
        await until(lambda: tab.bar.state_label.text() == "Could not connect", "the failure")
        recent = menu_action(window, "File", "Recent").menu()
        assert recent is not None
        assert [a.text() for a in recent.actions()][:2] == ["Unbuilt", "Demo server"]

    run(loop, scenario())
    run(loop, window.shutdown())

    second = window_for(window.store, tmp_path)
    second.show()
    try:
        assert second.current_tab.bar.profile_combo.currentText() == "Demo server"
    finally:
        run(loop, close_window(second))
