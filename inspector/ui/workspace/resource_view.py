"""The workspace's "Read" view for a resource: what the listing declared, then the reader.

A resource is read as is, from its URI; the reader (Read / Cancel, Subscribe, the contents)
is the one the template view and the resource windows use too.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import QVBoxLayout, QWidget

from inspector.features.catalog.lists import CatalogItem
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.widgets.plain_text import PlainLabel
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.resource_reader import ResourceReader

__all__ = ["ResourceReadView", "resource_view"]


def _listing_facts(item: CatalogItem) -> str:
    raw = item.raw
    bits = []
    mime = raw.get("mimeType")
    if isinstance(mime, str):
        bits.append(mime)
    size = raw.get("size")
    if isinstance(size, int) and not isinstance(size, bool):
        bits.append(f"{size:,} bytes")
    return " · ".join(bits)


class ResourceReadView(QWidget):
    """The workspace header names the resource; this adds what the listing declared."""

    def __init__(self, item: CatalogItem, controller: ConnectionController) -> None:
        super().__init__()
        self.setObjectName("resourceReadView")
        self.item = item
        self.reader = ResourceReader(controller)
        self.reader.offer_save()
        self.save_call_requested = self.reader.save_call_requested
        self.reader.set_uri(item.key)
        self.reader.contents.clear("Press Read to fetch this resource.")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        facts = _listing_facts(item)
        if facts:
            listed = PlainLabel(f"Listed as {facts}", selectable=True)
            listed.setStyleSheet(f"color: {colors().muted.name()}")
            layout.addWidget(listed)
        layout.addWidget(self.reader, 1)

    def read(self) -> asyncio.Task[Any] | None:
        return self.reader.read()


def resource_view(item: CatalogItem, controller: ConnectionController) -> QWidget:
    return ResourceReadView(item, controller)
