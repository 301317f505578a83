"""The views' "Save call…" button, and its menu in a view whose form the server completes:
the view's own request first, then "completion of ‘name’" for each completable field (the
completion/complete the form would send for it, with the field's value as the prefix), and
what a click does: the view's draft handed on, or the reason there is none."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMenu, QPushButton

from inspector.collections.call_draft import CallDraft
from inspector.ui.widgets.run_bar import RunBar

__all__ = ["add_completion_saves", "hand_on_draft", "save_call_button"]


def save_call_button(on_click: Callable[[], object]) -> QPushButton:
    """The "Save call…" button of a tool, prompt or resource view (`saveCallButton`). The
    view sets its tooltip (a literal, saying what it saves:
    tests/ui/widgets/test_plain_text_rule)."""
    button = QPushButton("Save call…")
    button.setObjectName("saveCallButton")
    button.clicked.connect(on_click)
    return button


def hand_on_draft(
    draft: CallDraft | None,
    why_none: Callable[[], str],
    bar: RunBar,
    save: Callable[[CallDraft], object],
) -> CallDraft | None:
    """A view's "Save call…": `draft` goes to `save` (the view's signal), or, when the view
    has none to give, `bar` warns with `why_none()`. Returns the draft saved, or None."""
    if draft is None:
        bar.set_status(why_none(), "warn")
        return None
    save(draft)
    return draft


def add_completion_saves(
    button: QPushButton,
    own_text: str,
    own: Callable[[], object],
    names: list[str],
    completion: Callable[[str], object],
) -> QMenu | None:
    """Give `button` a menu when there are fields to complete (`names`); None otherwise
    (the button then saves the view's own request, as before)."""
    if not names:
        return None
    menu = QMenu(button)
    menu.setObjectName("saveCallMenu")
    menu.addAction(own_text).triggered.connect(lambda: own())
    menu.addSeparator()
    for name in names:
        menu.addAction(f"completion/complete of “{name}”…").triggered.connect(
            _bind(completion, name)
        )
    button.setMenu(menu)
    return menu


def _bind(slot: Callable[[str], object], name: str) -> Callable[[], None]:
    def call() -> None:
        slot(name)

    return call
