"""Registers every item view with the workspace. Each view module adds one line here."""

from __future__ import annotations

from inspector.ui.workspace.registry import register_view

__all__ = ["register_all"]

_done = False


def register_all() -> None:
    global _done
    if _done:
        return
    _done = True
    from inspector.ui.workspace.prompt_view import prompt_view
    from inspector.ui.workspace.resource_view import resource_view
    from inspector.ui.workspace.template_view import template_view

    register_view("resources", "Read", resource_view)
    register_view("templates", "Read", template_view)
    register_view("prompts", "Get", prompt_view)
    from inspector.ui.workspace.tool_view import tool_view

    register_view("tools", "Call", tool_view)
