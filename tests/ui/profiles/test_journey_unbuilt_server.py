"""Journey (issue 31, item 4): a profile for a server whose binary is not built yet. Profiles…
▸ New ▸ a name and an absolute path that does not exist ▸ Save: it is saved, with a
warning that says the server cannot start until the file is there. Connect: the tab says
why it could not start. A profile with a real error (no command) is not saved, and Connect
says why instead of doing nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from inspector.ui.profiles.profiles_dialog import ProfilesDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, type_into, visible_window

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("config_dir")]


def button(dialog: ProfilesDialog, text: str) -> QPushButton:
    found = [b for b in dialog.findChildren(QPushButton) if b.text() == text and b.isVisible()]
    assert found, f"no button {text!r}"
    return found[0]


async def open_profiles(window: MainWindow) -> ProfilesDialog:
    click(window.current_tab.bar.profiles_button)
    await until(lambda: visible_window(ProfilesDialog) is not None, "the Profiles dialog")
    dialog = visible_window(ProfilesDialog)
    assert isinstance(dialog, ProfilesDialog)
    return dialog


def test_a_missing_binary_is_saved_with_a_warning_and_connect_says_why(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    missing = tmp_path / "build" / "server"

    async def scenario() -> None:
        dialog = await open_profiles(window)
        click(button(dialog, "New"))
        type_into(dialog.editor.name, "Unbuilt")
        type_into(dialog.editor.command, str(missing))
        click(dialog.save_button)
        assert dialog.status.text() == "Saved “Unbuilt”."
        assert f"⚠ “{missing}” does not exist (yet)" in dialog.editor.problems.text()
        entries = [dialog.list.item(i).text() for i in range(dialog.list.count())]
        assert any(entry.startswith("Unbuilt\n") for entry in entries)
        assert window.store.find("Unbuilt") is not None

        click(dialog.connect_button)
        await until(lambda: not dialog.isVisible(), "the dialog to close")
        bar = window.current_tab.bar
        await until(lambda: bar.state_label.text() == "Could not connect", "the failure")
        assert bar.profile_combo.currentText() == "Unbuilt"
        message = window.current_tab.status.currentMessage()
        assert message.startswith("Could not connect: command not found: /")

        # An error still blocks saving, and Connect says so.
        dialog = await open_profiles(window)
        click(button(dialog, "New"))
        type_into(dialog.editor.name, "No command")
        click(dialog.connect_button)
        assert dialog.isVisible()
        assert dialog.status.text().startswith("Cannot connect: The command is empty")
        assert window.store.find("No command") is None

    run(loop, scenario())
