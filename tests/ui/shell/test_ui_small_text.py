"""The small text problems of issue 18.13, one test each."""

from __future__ import annotations

import asyncio
import shlex
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from inspector.features.resource_watch import Watch
from inspector.settings.profiles import HttpSettings, Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.profiles.profile_editor import ProfileEditor, shell_words
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_bar import ConnectionBar
from inspector.ui.widgets.emoji import shown_text
from inspector.ui.widgets.plain_text import PlainLabel, short_status
from inspector.ui.workspace.resource_reader import watch_text
from tests.helpers.gui import run, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(60)


def test_the_profile_combo_says_http_once(qapp: QApplication) -> None:
    bar = ConnectionBar()
    everything = Profile(
        name="Everything (HTTP)", transport="http", http=HttpSettings(url="http://h/mcp")
    )
    remote = Profile(name="Remote", transport="http", http=HttpSettings(url="http://h/mcp"))
    bar.set_profiles([everything, remote], everything.id)
    texts = [bar.profile_combo.itemText(i) for i in range(bar.profile_combo.count())]
    assert texts == ["Everything (HTTP)", "Remote  (HTTP)"]
    bar.deleteLater()


def test_the_window_title_names_the_app_once(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    """Qt appends the display name ("— MCP Inspector") on Linux; the title must not."""

    async def scenario() -> None:
        demo = window.store.find("demo")
        assert demo is not None
        try:
            window.connect_profile(demo)
            await until(
                lambda: current_tab(window).controller.model.state is ConnState.CONNECTED,
                "connected",
            )
            await until(lambda: window.windowTitle() != "MCP Inspector", "the title")
            assert "MCP Inspector" not in window.windowTitle()
        finally:
            await current_tab(window).controller.model.shutdown()

    run(loop, scenario())
    assert window.windowTitle() == "MCP Inspector"


def test_an_unsubscribed_watch_does_not_say_it_twice() -> None:
    watch = Watch("file:///x", "ended", time.time(), detail="unsubscribed")
    assert watch_text(watch) == "Unsubscribed"
    failed = Watch("file:///x", "failed", time.time(), detail="Resource not found")
    assert watch_text(failed) == "Subscription failed: Resource not found"


def test_stdio_arguments_show_as_typed_after_save(qapp: QApplication, tmp_path: Path) -> None:
    typed = "-c \"print('garbage')\" --name 'a b' plain"
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    editor = ProfileEditor(store.secrets)
    editor.load(Profile(name="p", stdio=StdioSettings(command="python")))
    editor.args.setText(typed)
    saved = store.put(editor.profile())
    assert saved.stdio.args == ["-c", "print('garbage')", "--name", "a b", "plain"]
    editor.load(saved)
    assert editor.args.text() == '-c "print(\'garbage\')" --name "a b" plain'
    assert "'\"'\"'" not in editor.args.text()
    for args in (["it's"], ['x"y'], ["$HOME"], [""], ["back\\slash"], ["!x"], ["a\nb"]):
        assert shlex.split(shell_words(args)) == args
    editor.deleteLater()


def test_a_long_failure_keeps_the_status_short() -> None:
    path = ":".join(f"/opt/tool{i}/bin" for i in range(60))
    detail = f"command not found: /nonexistent/mcp-server (PATH={path})"
    status = short_status(detail)
    assert status.startswith("command not found: /nonexistent/mcp-server")
    assert "PATH=" not in status and len(status) < 140
    assert "Errors tab" in status
    assert short_status("connection refused") == "connection refused"


def test_emoji_without_an_emoji_font_show_as_code_points(qapp: QApplication) -> None:
    text = "Deploy 🚀 done ✅ ok"
    assert shown_text(text, emoji_font=True) == text
    assert shown_text(text, emoji_font=False) == "Deploy ⟨U+1F680⟩ done ⟨U+2705⟩ ok"
    assert shown_text("plain text", emoji_font=False) == "plain text"
    label = PlainLabel(text)
    assert label.text() == text  # the label gives the server's text back unchanged
