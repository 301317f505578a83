"""The Lint tab on real servers, driven as a person drives the window (issue 26, item 1).

Ctrl+T ▸ Saved profile "Demo server" ▸ Open tab ▸ the Lint tab must say how many server
messages it linted: as many as the log shows arriving, never "0" beside a full log. The
same on server-everything (a command typed in the dialog), in a tab reopened from the last
run, and after Reconnect. ⚑ badges mark the log's rows exactly where the findings are (a
rule-breaking server opened the same way gets some)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QWidget

from inspector.core.connection_state import ConnState
from inspector.settings.profiles import ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.traffic.format import DIRECTION_ARROWS
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.new_tab_dialog import NewTabDialog
from inspector.ui.traffic.traffic_model import COL_DIR, COL_KIND
from tests.helpers.gui import close_window, run, until, window_for
from tests.helpers.peers import PY, SERVERS

pytestmark = pytest.mark.timeout(180)

_LINTED = re.compile(r"([\d,]+) server message\(s\) linted")


def click(widget: QWidget) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)


async def open_tab(window: MainWindow, *, profile: str = "", command: str = "") -> ConnectionTab:
    """Ctrl+T, then a saved profile picked by typing its first word (a space would open the
    list), or a command typed; Open tab."""
    before = set(window.connection_tabs())
    window.activateWindow()  # the dialog closed before may still hold the activation
    await until(lambda: QApplication.activeWindow() is window, "the window to be active")
    QTest.keyClick(window, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    dialogs: list[NewTabDialog] = []

    def shown() -> bool:
        dialogs[:] = [d for d in window.findChildren(NewTabDialog) if d.isVisible()]
        return bool(dialogs)

    await until(shown, "the New tab dialog")
    dialog = dialogs[-1]
    if profile:
        click(dialog.profile_choice)
        dialog.profile_combo.setFocus()
        QTest.keyClicks(dialog.profile_combo, profile.split()[0])
        assert dialog.profile_combo.currentText() == profile
    else:
        QTest.keyClicks(dialog.stdio_edit, command)
        assert dialog.stdio_choice.isChecked()
    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons is not None
    ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert ok.text() == "Open tab"
    click(ok)
    [tab] = [t for t in window.connection_tabs() if t not in before]
    assert window.current_tab is tab
    return tab


async def connected(tab: ConnectionTab) -> None:
    model = tab.controller.model
    await until(lambda: model.state is ConnState.CONNECTED, f"connected ({model.detail})", 60)
    lists = model.catalog.lists
    await until(
        lambda: not any(lst.loading for lst in lists.values()), "the lists loaded", timeout=60
    )


def show_lint_tab(tab: ConnectionTab) -> None:
    bar = tab.bottom.tabBar()
    index = tab.bottom.indexOf(tab.lint_panel)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert tab.bottom.currentWidget() is tab.lint_panel


def log_rows(tab: ConnectionTab) -> list[tuple[str, str]]:
    """The log's rows as shown: (direction arrow, kind)."""
    model = tab.log_panel.model
    model.flush()
    return [
        (model.data(model.index(row, COL_DIR)), model.data(model.index(row, COL_KIND)))
        for row in range(model.rowCount())
    ]


def server_messages_in_log(tab: ConnectionTab) -> int:
    return sum(1 for arrow, kind in log_rows(tab) if arrow == DIRECTION_ARROWS["in"])


def linted_shown(tab: ConnectionTab) -> int | None:
    match = _LINTED.search(tab.lint_panel.summary.text())
    return None if match is None else int(match.group(1).replace(",", ""))


async def lint_tab_agrees_with_the_log(tab: ConnectionTab) -> int:
    """The Lint tab (shown by a click) counts every server message in the log, and the log
    has ⚑ badges on exactly the rows with findings. Returns the count."""
    show_lint_tab(tab)
    await until(
        lambda: (
            server_messages_in_log(tab) > 0 and linted_shown(tab) == server_messages_in_log(tab)
        ),
        "the Lint tab to count the log's server messages",
    )
    text = tab.lint_panel.summary.text()
    count = server_messages_in_log(tab)
    assert linted_shown(tab) == count > 0, (text, log_rows(tab))
    store = tab.connection.lint
    badged = sum(1 for _arrow, kind in log_rows(tab) if kind.startswith("⚑"))
    assert badged == len(store.rows()), (badged, store.rows())
    if store.counts:
        assert text.startswith(f"{sum(store.counts.values()):,} finding(s)"), text
    else:
        assert text.startswith("No findings:"), text
    return count


def test_lint_tab_on_the_demo_server_everything_and_a_rule_breaker(
    loop: asyncio.AbstractEventLoop, window: MainWindow, everything_command: list[str]
) -> None:
    async def scenario() -> None:
        demo = await open_tab(window, profile="Demo server")
        await connected(demo)
        assert await lint_tab_agrees_with_the_log(demo) >= 5
        assert not demo.connection.lint.counts  # the demo server breaks no rule

        everything = await open_tab(window, command=" ".join(everything_command))
        await connected(everything)
        assert await lint_tab_agrees_with_the_log(everything) >= 5

        breaker = await open_tab(
            window,
            command=f"{PY} {SERVERS / 'misbehaving' / 'lint_server.py'} --break tool-name",
        )
        await connected(breaker)
        await until(lambda: breaker.connection.lint.counts, "the rule breaker's finding")
        await lint_tab_agrees_with_the_log(breaker)
        assert any(kind.startswith("⚑1 ") for _arrow, kind in log_rows(breaker))

        # Reconnect (the button of the connection bar): the new session is linted too.
        window.tabs.setCurrentWidget(demo)
        first = server_messages_in_log(demo)
        click(demo.bar.reconnect_button)
        await until(lambda: server_messages_in_log(demo) >= 2 * first, "the second session")
        await connected(demo)
        assert await lint_tab_agrees_with_the_log(demo) >= 2 * first

    try:
        run(loop, scenario(), timeout=170)
    finally:
        run(loop, window.shutdown())


def test_lint_tab_in_a_reopened_tab(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qapp: QApplication
) -> None:
    first = window_for(ProfileStore(tmp_path / "profiles.json", SecretStore()), tmp_path)
    first.show()

    async def before() -> None:
        tab = await open_tab(first, profile="Demo server")
        await connected(tab)

    try:
        run(loop, before(), timeout=90)
        first.save_state()
    finally:
        run(loop, close_window(first))
    again = window_for(ProfileStore(tmp_path / "profiles.json", SecretStore()), tmp_path)
    again.show()

    async def reopened() -> None:
        assert again.offer_reopen()
        click(again.reopen_bar.reopen_button)
        tab = again.current_tab
        await connected(tab)
        assert tab.controller.model.profile is not None
        assert tab.controller.model.profile.name == "Demo server"
        assert await lint_tab_agrees_with_the_log(tab) >= 5

    try:
        run(loop, reopened(), timeout=90)
    finally:
        run(loop, close_window(again))
