"""Journey (issue 29): File ▸ Configured servers… over a fake home (HOME, XDG_CONFIG_HOME in
tmp_path). The dialog lists each configured server with its client, what it runs and its
file:line, and notes the broken file; listing started nothing. Opening a command asks
first, naming it: Cancel starts nothing; Scan and "Start it" opens it in the window's tab
with its Security tab shown, the poisoned tool's findings in it."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from inspector.ui.security.inventory_dialog import InventoryDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    click,
    click_row,
    menu_action,
    row_texts,
    shows_connected,
    tab_titles,
    visible_window,
)

POISONED = Path(__file__).parents[2] / "servers" / "gui" / "poisoned_server.py"
pytestmark = pytest.mark.timeout(90)


def test_configured_servers_are_listed_and_a_command_asks_before_it_starts(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = tmp_path / "home"
    config = home / ".config" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    servers = {
        "notes": {"command": sys.executable, "args": [str(POISONED)]},
        "remote": {"url": "https://mcp.example.com/mcp"},
    }
    config.write_text(json.dumps({"mcpServers": servers}, indent=1), encoding="utf-8")
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.chdir(home)

    async def scenario() -> None:
        menu_action(window, "File", "Configured servers…").trigger()
        await until(lambda: visible_window(InventoryDialog) is not None, "the dialog")
        dialog = visible_window(InventoryDialog)
        assert isinstance(dialog, InventoryDialog)
        try:
            assert dialog.summary.text().startswith("2 server(s) configured in 2 file(s)")
            assert row_texts(dialog.table) == [
                [
                    "notes",
                    "Claude Desktop",
                    "a command here",
                    f"{sys.executable} {POISONED}",
                    "~/.config/Claude/claude_desktop_config.json:3",
                ],
                [
                    "remote",
                    "Claude Desktop",
                    "a URL",
                    "https://mcp.example.com/mcp",
                    "~/.config/Claude/claude_desktop_config.json:9",
                ],
            ]
            notes = dialog.notes.toPlainText()
            assert notes.startswith(f"{home / '.cursor' / 'mcp.json'}: not valid JSON")

            # Open a command: it asks first, naming the command; Cancel starts nothing.
            click_row(dialog.table, "notes")
            assert not dialog.tap_button.isHidden() and dialog.tap_button.isEnabled()
            click(dialog.open_button)
            await until(lambda: dialog.confirm is not None, "the question")
            box = dialog.confirm
            assert isinstance(box, QMessageBox)
            assert (
                f"runs this command on this machine, with your permissions:\n\n"
                f"{sys.executable} {POISONED}" in box.text()
            )
            assert f"configured in {config}:3 (Claude Desktop)" in box.text()
            click(box.button(QMessageBox.StandardButton.Cancel))
            await until(lambda: dialog.confirm is None, "the question answered")
            assert window.current_tab.bar.state_label.text() != "Connected"

            # Scan it: asked again; "Start it" opens it here, its Security tab shown.
            click(dialog.scan_button)
            await until(lambda: dialog.confirm is not None, "the question")
            box = dialog.confirm
            assert isinstance(box, QMessageBox)
            start = next(b for b in box.buttons() if b.text() == "Start it")
            click(start)
            tab = window.current_tab
            await until(lambda: shows_connected(tab, 2), "the configured server's 2 tools")
            assert tab_titles(window.tabs) == ["poisoned-notes"]
            assert tab.bottom.currentWidget() is tab.security
            await until(lambda: tab.security.model.rowCount() == 4, "the findings")
            assert row_texts(tab.security.table)[0][:4] == [
                "high",
                "hidden.zero-width",
                "tool",
                "read_notes",
            ]
        finally:
            dialog.close()

    run(loop, scenario(), timeout=60)
