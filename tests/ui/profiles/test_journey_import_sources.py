"""Journeys (issue 30, item 1): the import dialog's other sources, driven as a person does.
The server.json box: a typed server.json with problems lists them, a click on one selects
its place in the text, and each listed server shows its own notes. Drops: a server.json file
dropped on the dialog, and text dropped on the Profiles list, which opens the import with
it. Browse registry (the stand-in): search, next page, back, choose, Import; the profile
appears in the Profiles list with its secret to enter; a failing registry is one sentence, and
the registry URL is remembered."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QWidget,
)

from inspector.settings.profiles import ProfileStore
from inspector.ui.profiles.import_dialog import ImportDialog
from inspector.ui.profiles.profiles_dialog import ProfilesDialog
from inspector.ui.profiles.registry_browser import REGISTRY_URL_KEY
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, click_tab, type_into
from tests.helpers.memory_keyring import MemoryKeyring
from tests.registry.test_server_json import WITH_PACKAGE
from tests.servers.registry_standin import serving_registry

pytestmark = pytest.mark.timeout(60)

TWO_PACKAGES = """{
  "name": "io.github.user/two",
  "description": "Two ways to run it.",
  "version": "1.0.0",
  "packages": [
    {"registryType": "npm", "identifier": "two-mcp", "version": "1.0.0",
     "transport": {"type": "stdio"},
     "environmentVariables": [{"name": "NPM_TOKEN", "isSecret": true}]},
    {"registryType": "pypi", "identifier": "two-mcp", "version": 1,
     "transport": {"type": "stdio"},
     "environmentVariables": [{"name": "PY_TOKEN", "isSecret": true}]}
  ]
}"""


def rows(dialog: ImportDialog) -> list[str]:
    return [dialog.preview.item(i).text() for i in range(dialog.preview.count())]


def click_item(view: QListWidget | QTableWidget, text: str) -> None:
    """Click the first item that shows `text`, where it is on screen."""
    found = view.findItems(text, Qt.MatchFlag.MatchExactly)
    assert found, f"no item {text!r}"
    view.scrollToItem(found[0])
    rect = view.visualItemRect(found[0])
    assert rect.isValid() and view.isVisible(), f"the item {text!r} is not on screen"
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def texts(view: QListWidget | QTableWidget, column: int = 0) -> list[str]:
    if isinstance(view, QListWidget):
        return [view.item(i).text() for i in range(view.count())]
    return [view.item(row, column).text() for row in range(view.rowCount())]


def type_text(edit: QPlainTextEdit, text: str) -> None:
    """Select what the box holds and type `text` over it, Return between its lines."""
    type_into(edit, "")
    edit.selectAll()
    for i, line in enumerate(text.split("\n")):
        if i:
            QTest.keyClick(edit, Qt.Key.Key_Return)
        QTest.keyClicks(edit, line)


def drop(widget: QWidget, mime: QMimeData) -> None:
    """What a person's drag and drop sends: the drag entering, then the drop."""
    target = getattr(widget, "viewport", lambda: widget)()
    at = QPointF(target.rect().center())
    actions = Qt.DropAction.CopyAction
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(QPoint(at.toPoint()), actions, mime, buttons, keys)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted(), "the drag was refused"
    QApplication.sendEvent(target, QDropEvent(at, actions, mime, buttons, keys))


def test_the_box_points_at_each_problem_and_each_server_has_its_notes(
    memory_keyring: MemoryKeyring, qapp: QApplication, store: ProfileStore
) -> None:
    dialog = ImportDialog(store)
    dialog.show()
    click_tab(dialog.tabs, "server.json")
    box = dialog.paste_box
    type_text(box.editor, TWO_PACKAGES)
    click(box.read_button)
    assert rows(dialog) == []
    assert [box.problems.item(i).text() for i in range(box.problems.count())] == [
        "/packages/1/version: It must be a string, not a number."
    ]
    click_item(box.problems, "/packages/1/version: It must be a string, not a number.")
    assert box.editor.textCursor().selectedText() == "1"
    assert box.editor.textCursor().blockNumber() + 1 == 9  # line 9: the pypi package

    type_text(box.editor, TWO_PACKAGES.replace('"version": 1,', '"version": "1.0.0",'))
    click(box.read_button)
    assert not box.problems.isVisible()
    assert rows(dialog) == [
        "io.github.user/two (npm)  —  npx -y two-mcp@1.0.0",
        "io.github.user/two (pypi)  —  uvx two-mcp==1.0.0",
    ]
    click_item(dialog.preview, rows(dialog)[1])
    notes = dialog.warnings.toPlainText()
    assert "PY_TOKEN" in notes and "NPM_TOKEN" not in notes
    click_item(dialog.preview, rows(dialog)[0])
    assert "NPM_TOKEN" in dialog.warnings.toPlainText()
    dialog.deleteLater()


def test_a_change_typed_after_listing_is_not_imported_unread(
    qapp: QApplication, store: ProfileStore
) -> None:
    """Listed, then edited: Import would add the servers of the text as it was before."""
    dialog = ImportDialog(store)
    dialog.show()
    click_tab(dialog.tabs, "server.json")
    box = dialog.paste_box
    type_text(box.editor, TWO_PACKAGES.replace('"version": 1,', '"version": "1.0.0",'))
    click(box.read_button)
    assert len(rows(dialog)) == 2 and dialog.import_button.isEnabled()
    box.editor.moveCursor(QTextCursor.MoveOperation.End)
    QTest.keyClicks(box.editor, ",")
    assert rows(dialog) == [] and not dialog.import_button.isEnabled()
    assert dialog.status.text() == (
        "The server.json in the box has changed: List its servers again."
    )
    click(box.read_button)
    assert rows(dialog) == [] and box.problems.count() == 1
    assert "/packages/1/version" not in box.problems.item(0).text()
    dialog.deleteLater()


def test_dropped_files_and_text_are_imported(
    memory_keyring: MemoryKeyring, qapp: QApplication, store: ProfileStore, tmp_path: Path
) -> None:
    path = tmp_path / "server.json"
    path.write_text(json.dumps(WITH_PACKAGE))
    dialog = ImportDialog(store)
    dialog.show()
    files = QMimeData()
    files.setUrls([QUrl.fromLocalFile(str(path))])
    drop(dialog, files)
    assert rows(dialog)[0].startswith("io.github.user/local-weather  —  npx -y ")
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(5 * 1024 * 1024)
    files.setUrls([QUrl.fromLocalFile(str(huge))])
    drop(dialog, files)
    assert rows(dialog) == []
    assert dialog.status.text() == (
        f"Cannot import {huge}: it is 5,242,880 bytes; a config file or server.json is at most "
        "4 MiB."
    )
    dialog.deleteLater()

    profiles = ProfilesDialog(store)
    profiles.show()
    text = QMimeData()
    # A title with a newline would show a line of its choosing as the row's command.
    title = "Dropped\nnpx -y @trusted/pkg"
    text.setText(json.dumps({**WITH_PACKAGE, "name": "io.github.user/dropped", "title": title}))
    drop(profiles.list, text)
    opened = profiles.findChild(ImportDialog)
    assert opened is not None and opened.isVisible()
    assert rows(opened)[0].startswith("Dropped npx -y @trusted/pkg  —  npx -y ")
    click(opened.import_button)
    assert texts(profiles.list)[-1].startswith("Dropped npx -y @trusted/pkg\nnpx -y ")
    profiles.deleteLater()


def test_browse_the_registry_page_by_page_and_import_an_entry(
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    store: ProfileStore,
    tmp_path: Path,
) -> None:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    profiles = ProfilesDialog(store, settings=settings)
    profiles.show()
    import_button = next(b for b in profiles.findChildren(QPushButton) if b.text() == "Import…")
    click(import_button)
    dialog = profiles.findChild(ImportDialog)
    assert dialog is not None
    click_tab(dialog.tabs, "Browse registry")
    browser = dialog.browser

    def names() -> list[str]:
        return texts(browser.table)

    async def journey(base: str) -> None:
        type_into(browser.url_edit, base + "/broken")
        click(browser.search_button)
        await until(lambda: "HTTP 500" in browser.status.text(), "the registry's failure")
        assert browser.status.text() == (
            "The registry answered HTTP 500 for the server list: the database is down."
        )
        type_into(browser.url_edit, base)
        click(browser.search_button)
        await until(lambda: len(names()) == 3, "the first page")
        assert settings.value(REGISTRY_URL_KEY) == base
        assert names()[0] == "Weather (io.github.example/weather)"
        assert texts(browser.table, 2)[2] == "0.3.1 (deprecated)"
        type_into(browser.search_edit, "zzz")  # typed, not searched: Next pages what was
        click(browser.next_button)
        await until(lambda: "io.github.example/search" in names(), "the second page")
        assert "Web search.\x1b[31m with a terminal escape" in texts(browser.table, 1)[2]
        click_item(browser.table, "(servers[1])")
        assert dialog.status.text() == (
            "Not imported: the server.json from the registry's entry (servers[1]) has 1 "
            "problem(s), listed below."
        )
        click(browser.previous_button)
        await until(lambda: "com.example/notes" in names(), "the first page again")
        click_item(browser.table, "io.github.example/files")
        assert dialog.warnings.toPlainText().startswith(
            "The registry marks io.github.example/files 0.3.1 as deprecated"
        )
        type_into(browser.search_edit, "notes")
        click(browser.search_button)
        await until(lambda: names() == ["com.example/notes"], "the search's page")
        click_item(browser.table, "com.example/notes")
        assert rows(dialog) == ["com.example/notes  —  https://notes.example.com/mcp"]
        assert "enter the Authorization header" in dialog.warnings.toPlainText()
        click(dialog.import_button)

    with serving_registry() as base:
        run(loop, journey(base))
    assert "com.example/notes\nhttps://notes.example.com/mcp" in texts(profiles.list)
    profile = store.find("com.example/notes")
    assert profile is not None and profile.http.headers[0].secret
    assert profile.source == f"registry {base} (com.example/notes 2.1.0)"
    profiles.deleteLater()


def test_a_registry_that_is_slow_to_answer_can_be_left_for_another(
    loop: asyncio.AbstractEventLoop, store: ProfileStore, tmp_path: Path
) -> None:
    """A wrong or slow registry URL: Search stays there to ask another one at once (it
    waited for the first to time out, 20 s, with Search greyed out)."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = ImportDialog(store, settings=settings)
    dialog.show()
    click_tab(dialog.tabs, "Browse registry")
    browser = dialog.browser

    async def journey(base: str) -> None:
        type_into(browser.url_edit, base + "/slow")
        click(browser.search_button)
        assert browser.status.text() == f"Asking {base}/slow…"
        assert browser.search_button.isEnabled()
        type_into(browser.url_edit, base)
        click(browser.search_button)
        await until(lambda: browser.table.rowCount() == 3, "the other registry's page")
        assert browser.status.text().startswith("Page 1: 3 server(s)")
        assert settings.value(REGISTRY_URL_KEY) == base

    with serving_registry() as base:
        run(loop, journey(base))
    dialog.deleteLater()
