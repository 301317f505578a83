"""Registers every item view with the workspace. Each view module adds one line here."""

from __future__ import annotations

__all__ = ["register_all"]

_done = False


def register_all() -> None:
    global _done
    if _done:
        return
    _done = True
