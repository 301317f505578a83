"""Journey (issue 31, item 19): two servers with one name read apart. `gui --stdio "python3
/srv/a/server.py" --stdio "python3 /srv/b/server.py"` names both "stdio: python3
server.py"; the bar's Server list and Ctrl+T's saved-profile list add the folder of each.
In Profiles…, a profile run in a working folder says which."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QComboBox

from inspector.settings.profiles import Profile, StdioSettings
from inspector.settings.targets import stdio_profile
from inspector.ui.profiles.profiles_dialog import ProfilesDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, press, visible_window

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("config_dir")]

NAME = "stdio: python3 server.py"


def entries(combo: QComboBox) -> list[str]:
    return [combo.itemText(i) for i in range(combo.count())]


def test_two_servers_of_one_name_show_their_folders(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    work = tmp_path / "c"
    work.mkdir()
    for folder in ("/srv/a", "/srv/b"):
        profile = stdio_profile(f"python3 {folder}/server.py")
        assert profile.name == NAME
        window.add_adhoc(profile)
    window.store.put(
        Profile(
            name="Tool box",
            stdio=StdioSettings(command="python3", args=["server.py"], cwd=str(work)),
        )
    )

    async def scenario() -> None:
        bar = window.current_tab.bar
        shown = entries(bar.profile_combo)
        assert f"{NAME} — /srv/a" in shown and f"{NAME} — /srv/b" in shown
        assert "Tool box" in shown and "Demo server" in shown  # a name of its own: as is

        press(window, "Ctrl+T")
        await until(lambda: visible_window(NewTabDialog) is not None, "the New tab dialog")
        dialog = visible_window(NewTabDialog)
        assert isinstance(dialog, NewTabDialog)
        listed = entries(dialog.profile_combo)
        assert f"{NAME} — /srv/a" in listed and f"{NAME} — /srv/b" in listed
        dialog.reject()

        click(bar.profiles_button)
        await until(lambda: visible_window(ProfilesDialog) is not None, "the Profiles dialog")
        profiles = visible_window(ProfilesDialog)
        assert isinstance(profiles, ProfilesDialog)
        lines = [profiles.list.item(i).text() for i in range(profiles.list.count())]
        assert f"Tool box\npython3 server.py  (in {work})" in lines
        profiles.reject()

    run(loop, scenario())
