"""Forms built from JSON Schema (tool arguments, prompt arguments, elicitation)."""

from __future__ import annotations

from inspector.ui.forms.completer import CompletionProvider
from inspector.ui.forms.schema_form import SchemaForm

__all__ = ["CompletionProvider", "SchemaForm"]
