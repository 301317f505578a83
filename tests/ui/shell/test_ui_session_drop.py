"""Session files dropped on the main window (issue 27, open from anywhere): a drop as a
person's drag delivers it (a QDropEvent carrying file URLs, sent to the real window) opens
each file as a read-only tab; a file that is not a session gives a message, the app runs."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.small_session import write_small_session


def drop(window: MainWindow, *urls: QUrl) -> bool:
    """Drag `urls` over the window and drop them (call it on the running loop, where Qt
    delivers a person's drop)."""
    mime = QMimeData()
    mime.setUrls(list(urls))
    where = QPointF(window.width() / 2, window.height() / 2)
    action = Qt.DropAction.CopyAction
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(where.toPoint(), action, mime, buttons, keys)
    QApplication.sendEvent(window, enter)
    if not enter.isAccepted():
        return False
    event = QDropEvent(where, action, mime, buttons, keys)
    QApplication.sendEvent(window, event)
    return event.isAccepted()


def test_dropped_session_files_open_a_tab_each(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    first = write_small_session(tmp_path / "first.jsonl", "First server")
    second = write_small_session(tmp_path / "second.jsonl", "Second server")

    async def opened() -> None:
        assert drop(window, QUrl.fromLocalFile(str(first)), QUrl.fromLocalFile(str(second)))
        await until(lambda: len(window.connection_tabs()) == 2, "a tab per file")
        tabs = window.connection_tabs()
        await until(lambda: all(t.session_files.view is not None for t in tabs), "the views")

    run(loop, opened())
    shown = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert shown == ["first.jsonl", "second.jsonl"], shown  # the tab strip, in drop order
    view = window.current_tab.session_files.view
    assert view is not None and view.rows() == 2 and view.isVisible()
    assert "Second server" in view.banner.title.text()
    assert window.windowTitle().startswith("second.jsonl (read-only recording)")


def test_a_dropped_file_that_is_not_a_session_says_so(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n", encoding="utf-8")
    files = window.current_tab.session_files

    async def told() -> None:
        assert drop(window, QUrl.fromLocalFile(str(notes)))
        await until(lambda: files.message_box is not None, "the message")

    run(loop, told())
    box = files.message_box
    assert box is not None and box.isVisible()
    assert "is not an MCP Inspector session file" in box.text() and str(notes) in box.text()
    box.close()
    assert files.view is None and window.isVisible() and len(window.connection_tabs()) == 1

    async def link() -> None:
        assert drop(window, QUrl("https://example.com/s.jsonl"))

    run(loop, link())
    box = files.message_box
    assert box is not None and "https://example.com/s.jsonl" in box.text()
    box.close()
