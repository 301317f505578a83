"""Which view acts on a selected catalog item: a tool's call form, a resource's reader...

Each view module registers a factory for its kind; the workspace asks for it when the user
selects an item. This keeps the explorer, the forms and the result views in separate
modules that do not import each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from PySide6.QtWidgets import QWidget

from inspector.features.catalog.lists import CatalogItem, CatalogKind

if TYPE_CHECKING:
    from inspector.ui.controller.connection_controller import ConnectionController

__all__ = ["ViewFactory", "register_view", "registered_kinds", "view_for"]

ViewFactory: TypeAlias = Callable[[CatalogItem, "ConnectionController"], QWidget]

_FACTORIES: dict[CatalogKind, tuple[str, ViewFactory]] = {}


def register_view(kind: CatalogKind, title: str, factory: ViewFactory) -> None:
    """`title` names the workspace tab, e.g. "Call", "Read", "Get"."""
    _FACTORIES[kind] = (title, factory)


def view_for(kind: CatalogKind) -> tuple[str, ViewFactory] | None:
    return _FACTORIES.get(kind)


def registered_kinds() -> list[CatalogKind]:
    return list(_FACTORIES)
