"""A modern-era tool call that needs the user, made through the window as a person does:
the demo saved as a modern-era profile, chosen in the connection bar, Connect; "Ask the
user" in the tools list, a message typed, Run; the elicitation dialog (an input_required
round) filled in and Accepted; the retry's result shown in the tool's results."""

from __future__ import annotations

from inspector.ui.asks.elicitation_dialog import ElicitationDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import python_profile, until
from tests.helpers.journeys import (
    click,
    click_row,
    field_edit,
    type_into,
    type_keys,
    visible_texts,
    visible_window,
)

__all__ = ["ask_the_user_in_the_modern_era"]


async def ask_the_user_in_the_modern_era(window: MainWindow) -> ConnectionTab:
    """The whole call, two rounds on the wire; returns the tab, connected."""
    profile = python_profile("Modern demo", "-m", "inspector.demo")
    window.store.put(profile.model_copy(update={"era": "modern"}))
    tab = window.current_tab
    type_keys(tab.bar.profile_combo, "Mode")
    assert tab.bar.profile_combo.currentText() == "Modern demo"
    click(tab.bar.connect_button)
    await until(lambda: tab.bar.state_label.text() == "Connected", "connected")
    await until(lambda: tab.explorer.panes["tools"].tree.model().rowCount() > 0, "tools")

    click_row(tab.explorer.panes["tools"].tree, "Ask the user")
    view = getattr(tab.workspace.stack.currentWidget(), "action", None)
    assert isinstance(view, ToolCallView) and view.isVisible()
    type_into(field_edit(view.form, "message"), "Who are you?")
    click(view.run_button)

    await until(lambda: visible_window(ElicitationDialog) is not None, "the dialog")
    dialog = visible_window(ElicitationDialog)
    assert isinstance(dialog, ElicitationDialog)
    assert "input request (MRTR)" in dialog.origin.text()
    type_into(field_edit(dialog.form, "name"), "Ada")
    type_into(field_edit(dialog.form, "age"), "36")
    click(dialog.accept_button)
    await until(
        lambda: any("Hello, Ada, age 36" in t for t in visible_texts(view.results)),
        "the tool's result",
    )
    return tab
