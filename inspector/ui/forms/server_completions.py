"""A form's suggestions from the server (completion/complete), and the note that explains
them: the prompt view and the template view both offer them for their fields.

The `Completer` (inspector.features.completion) knows whether the server may be asked and
how; this object adapts it to a `SchemaForm`: it hands the form a provider when the server
can complete, and says in a note why it cannot, or what its last answer got wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspector.features.completion import Completer
from inspector.ui.forms.completer import CompletionProvider
from inspector.ui.forms.schema_form import SchemaForm
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors

__all__ = ["ServerCompletions"]


class ServerCompletions:
    """Completions for the fields of `form`; `note` is the label to place under it.

    `completes(name)` says which fields the server is asked about (a template asks only
    about its variables); every field by default.
    """

    def __init__(self, form: SchemaForm, completes: Callable[[str], bool] | None = None) -> None:
        self.form = form
        self._completes = completes or (lambda _name: True)
        self.note = PlainLabel(wrap=True, selectable=True)
        self.note.setObjectName("completionNote")
        self.note.setStyleSheet(f"color: {colors().muted.name()}")
        self.note.setVisible(False)

    def use(self, completer: Completer | None) -> None:
        """Ask through `completer` from now on; None: no suggestions (not connected)."""
        if completer is None:
            self.form.set_completer(None)
            self.note.setVisible(False)
            return
        ok, why = completer.available
        self.form.set_completer(self._provider(completer) if ok else None)
        self.note.setText("" if ok else f"No suggestions: {why}.")
        self.note.setVisible(not ok)

    def _provider(self, completer: Completer) -> CompletionProvider:
        async def provide(name: str, prefix: str, values: dict[str, Any]) -> list[str]:
            if not self._completes(name):
                return []
            got = await completer.complete(name, prefix, values)  # failures: the form's note
            problems = completer.last.problems if completer.last is not None else []
            self.note.setText("Completion: " + "; ".join(problems) if problems else "")
            self.note.setVisible(bool(problems))
            return got

        return provide
