"""Bad input in the server's requests: malformed sampling, HTML in elicitation text, schemas
outside the elicitation subset, a javascript: URL, a request the server withdraws itself.
Each is shown with a clear note, answered or refused, and nothing hangs."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QLabel

from inspector.ui.asks.elicitation_dialog import ElicitationDialog, UrlElicitationDialog
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.asks import (
    call_tool,
    connect,
    dialog_of,
    no_dialog,
    responder,
    result_of,
    text_of,
)
from tests.helpers.gui import (
    python_profile,
    run,
    then_shutdown,
    until,
)
from tests.helpers.peers import REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(60)
SERVER = str(REPO / "tests" / "servers" / "gui" / "bad_asks_server.py")


def test_bad_requests_are_shown_with_notes_and_answered(
    window: MainWindow, loop: asyncio.AbstractEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[QUrl] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", staticmethod(lambda u: opened.append(u)))

    async def scenario() -> None:
        session = await connect(window, python_profile("bad asks", SERVER))
        # Malformed sampling: every problem listed; the user can still answer.
        call = call_tool(session, "bad_sampling")
        dialog = await dialog_of(window, SamplingDialog)
        notes = dialog.problems.label.text()
        assert not dialog.problems.isHidden()
        for needle in ("messages[0] is not an object", "role is 'robot'", "maxTokens is 'lots'"):
            assert needle in notes
        assert "costPriority is 7" in notes
        dialog.reply_text.setPlainText("fine")
        dialog.approve_button.click()
        assert '"text": "fine"' in text_of(await result_of(call))

        # HTML in the message and titles: shown as text, never rendered.
        call = call_tool(session, "html_elicitation")
        dialog = await dialog_of(window, ElicitationDialog)
        assert dialog.message.textFormat() == Qt.TextFormat.PlainText
        assert dialog.message.text().startswith("<h1>Click</h1><img")
        labels = [lbl for lbl in dialog.findChildren(QLabel) if "<b>Name</b>" in lbl.text()]
        assert labels and all(lbl.textFormat() == Qt.TextFormat.PlainText for lbl in labels)
        dialog.decline_button.click()
        assert '"action": "decline"' in text_of(await result_of(call))

        # A schema outside the subset: noted, the odd fields edited as JSON, still usable.
        call = call_tool(session, "odd_schema")
        dialog = await dialog_of(window, ElicitationDialog)
        notes = dialog.problems.label.text()
        assert "nested: type 'object' is outside" in notes
        assert "weird: the property schema is not an object" in notes
        assert "'ghost' is required but not among the properties" in notes
        dialog.cancel_button.click()
        assert '"action": "cancel"' in text_of(await result_of(call))

        # javascript: URL: refused with the reason, cannot be opened or accepted.
        call = call_tool(session, "js_url")
        dialog = await dialog_of(window, UrlElicitationDialog)
        assert "javascript" in dialog.notice.label.text()
        assert not dialog.open_button.isEnabled() and not dialog.done_button.isEnabled()
        assert dialog.open_url() is False and opened == []
        dialog.decline_button.click()
        assert '"action": "decline"' in text_of(await result_of(call))

    run(loop, then_shutdown(window, scenario()))


def test_server_withdraws_its_own_request(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, python_profile("bad asks", SERVER))
        responder(window).withdraw_delay_ms = 300
        call = call_tool(session, "withdrawn")
        dialog = await dialog_of(window, ElicitationDialog)
        dialog.withdraw_delay_ms = 300
        await until(lambda: dialog.withdrawn is not None, "the server's cancellation")
        assert "the server changed its mind" in dialog.notice.label.text()
        assert not dialog.form.isEnabled()
        assert text_of(await result_of(call)) == "withdrawn"
        await no_dialog(window)  # closed by itself
        sent = [
            e for e in current_tab(window).traffic if e.direction == "out" and e.kind == "response"
        ]
        assert not [e for e in sent if "ask-" in e.text()]  # nothing answered the withdrawn ask

    run(loop, then_shutdown(window, scenario()))
