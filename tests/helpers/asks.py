"""Helpers for the server-ask GUI tests: connect, wait for a dialog, call a tool."""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from inspector.features.catalog.lists import KINDS
from inspector.session import Call, Session
from inspector.settings.profiles import Profile
from inspector.ui.asks.ask_dialog import AskDialog
from inspector.ui.asks.gui_responder import GuiResponder
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import connected, until
from tests.helpers.tabs import current_tab

D = TypeVar("D", bound=AskDialog)


async def connect(win: MainWindow, profile: Profile, timeout: float = 30) -> Session:
    """Connect, wait for every listing of the catalog to end, and let the dialogs'
    withdrawal show briefly (the tests watch it). A listing still under way when a test's
    call starts would be the latest waiting request when the server asks, and a saved call
    would then miss its answer (a flake under load)."""
    await connected(win, profile, timeout=timeout)
    catalog = current_tab(win).controller.model.catalog

    def listed() -> bool:
        lists = [catalog[kind] for kind in KINDS]
        return all(not x.loading and (x.loaded or x.error or x.absent) for x in lists)

    await until(listed, "every listing of the catalog", timeout=timeout)
    session = current_tab(win).controller.model.session
    assert session is not None
    responder = current_tab(win).controller.responder
    assert responder is not None
    responder.withdraw_delay_ms = 150
    return session


def responder(win: MainWindow) -> GuiResponder:
    r = current_tab(win).controller.responder
    assert r is not None
    return r


async def dialog_of(win: MainWindow, kind: type[D], timeout: float = 20) -> D:
    await until(
        lambda: isinstance(responder(win).dialog, kind) and responder(win).dialog.isVisible(),  # type: ignore[union-attr]
        f"a {kind.__name__}",
        timeout=timeout,
    )
    dialog = responder(win).dialog
    assert isinstance(dialog, kind)
    return dialog


async def no_dialog(win: MainWindow, timeout: float = 10) -> None:
    await until(lambda: responder(win).dialog is None, "the dialog to close", timeout=timeout)


def call_tool(session: Session, name: str, arguments: dict[str, Any] | None = None) -> Call:
    return session.start_request("tools/call", {"name": name, "arguments": arguments or {}})


async def result_of(call: Call, timeout: float = 20) -> dict[str, Any]:
    return await asyncio.wait_for(call.result(), timeout)


def text_of(result: dict[str, Any]) -> str:
    return "\n".join(
        str(block.get("text", ""))
        for block in result.get("content", [])
        if isinstance(block, dict) and block.get("type") == "text"
    )


# ---------------------------------------------------------------- elicitation form fields
def field(dialog: Any, name: str) -> Any:
    """The editor of one field of an elicitation dialog's form (the shared SchemaForm)."""
    row = dialog.form.row(name)
    assert row is not None, f"no field {name!r}"
    return row.editor


def type_into(dialog: Any, name: str, text: str) -> None:
    """Type into a string or number field, as a user would."""
    editor = field(dialog, name)
    widget = getattr(editor, "line_edit", None) or getattr(editor, "edit", None)
    assert widget is not None, f"{name!r} has no line to type into"
    widget.setText(text)


def field_error(dialog: Any, name: str) -> str:
    row = dialog.form.row(name)
    assert row is not None
    return str(row.error_label.text()) if not row.error_label.isHidden() else ""
