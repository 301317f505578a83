"""Journey (issue 27): a live tab exported to OpenTelemetry through the menu. After a
modern-era call that needed the user (two rounds), File ▸ Export to OpenTelemetry…, the
endpoint of our loopback OTLP receiver typed in, OK: the receiver gets the tab's spans, the
call as one parent span with its two rounds and the user's wait as children; the status
bar says how many were sent. A wrong URL is refused in the dialog; an endpoint that fails
says why in a message box, and the app goes on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox

from inspector.ui.recording.otlp_dialog import OtlpExportDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import run, until
from tests.helpers.journeys import click, menu_action, type_into, visible_window
from tests.helpers.mrtr_journey import ask_the_user_in_the_modern_era

pytest.importorskip("opentelemetry.sdk", reason="the 'otel' extra is a test dependency")

from tests.helpers.otlp_receiver import otlp_receiver

pytestmark = pytest.mark.timeout(120)


def _attrs(span: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for a in span.attributes:
        value = a.value
        out[a.key] = (
            getattr(value, value.WhichOneof("value")) if value.WhichOneof("value") else None
        )
    return out


async def _export_dialog(window: MainWindow) -> OtlpExportDialog:
    menu_action(window, "File", "Export to OpenTelemetry…").trigger()
    await until(lambda: visible_window(OtlpExportDialog) is not None, "the export dialog")
    dialog = visible_window(OtlpExportDialog)
    assert isinstance(dialog, OtlpExportDialog)
    return dialog


def test_a_live_tab_is_exported_to_our_otlp_receiver_through_the_menu(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    with otlp_receiver() as receiver:

        async def scenario() -> None:
            tab = await ask_the_user_in_the_modern_era(window)
            shown: list[str] = []
            tab.status.message_given.connect(shown.append)

            dialog = await _export_dialog(window)
            assert "This tab's traffic so far" in dialog.what.text()
            assert dialog.to_endpoint.isChecked()
            type_into(dialog.endpoint, "localhost:4318")  # no scheme: refused in place
            click(dialog.buttons.button(dialog.buttons.StandardButton.Ok))
            assert dialog.isVisible() and "http://" in dialog.problem.text()
            type_into(dialog.endpoint, receiver.url)
            click(dialog.buttons.button(dialog.buttons.StandardButton.Ok))
            await until(lambda: not dialog.isVisible(), "the dialog to close")
            await until(lambda: any(m.startswith("Sent ") for m in shown), "the status")
            (sent,) = [m for m in shown if m.startswith("Sent ")]
            assert sent == f"Sent {len(receiver.spans())} span(s) to {receiver.url}/v1/traces"

            # An endpoint that answers 500: a message box says so, the window goes on.
            receiver.status = 500
            dialog = await _export_dialog(window)
            assert dialog.endpoint.text() == receiver.url  # remembered
            click(dialog.buttons.button(dialog.buttons.StandardButton.Ok))
            files = tab.session_files
            await until(lambda: files.message_box is not None, "the message box")
            box = files.message_box
            assert isinstance(box, QMessageBox)
            assert "did not take the spans" in box.text() and "500" in box.text()
            box.close()
            assert tab.bar.state_label.text() == "Connected"

        run(loop, scenario(), timeout=90)
        spans = receiver.spans()
    assert receiver.paths[0] == "/v1/traces"
    by_id = {span.span_id: span for span in spans}
    (call,) = [s for s in spans if _attrs(s).get("mcp_inspector.operation.rounds") == 2]
    assert call.name == "tools/call ask_user" and not call.parent_span_id
    children = sorted(
        (s for s in spans if s.parent_span_id == call.span_id), key=lambda s: s.start_time_unix_nano
    )
    assert [s.name for s in children] == [
        "tools/call ask_user",
        "user input ask_user",
        "tools/call ask_user",
    ]
    assert [_attrs(s).get("mcp_inspector.round") for s in children] == [1, None, 2]
    assert all(s.trace_id == call.trace_id for s in children)
    assert call.start_time_unix_nano == children[0].start_time_unix_nano
    assert call.end_time_unix_nano == children[-1].end_time_unix_nano
    server = _attrs(call)["mcp_inspector.operation.server_time"]
    user = _attrs(call)["mcp_inspector.operation.user_time"]
    whole = (call.end_time_unix_nano - call.start_time_unix_nano) / 1e9
    assert server + user == pytest.approx(whole, abs=1e-6)
    assert {"initialize", "server/discover"} & {by_id[k].name for k in by_id}


def test_a_tab_with_no_traffic_says_there_is_nothing_to_export(window: MainWindow) -> None:
    menu_action(window, "File", "Export to OpenTelemetry…").trigger()
    box = window.current_tab.session_files.message_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "connect to a server first" in box.text()
    assert visible_window(OtlpExportDialog) is None
    box.close()
