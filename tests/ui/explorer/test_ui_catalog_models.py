"""The Qt models over the catalog, without widgets: rows, roles, appends on "load more",
resets on re-list, search through the proxy, escaped tooltips, data: icons, marks."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QModelIndex, Qt
from PySide6.QtGui import QColor, QIcon, QImage, QImageWriter
from PySide6.QtTest import QAbstractItemModelTester
from PySide6.QtWidgets import QApplication

from inspector.features.catalog.format import Badge
from inspector.features.catalog.lists import CatalogItem, CatalogList
from inspector.ui.explorer.catalog_models import (
    BADGES_ROLE,
    ITEM_ROLE,
    MARKS_ROLE,
    SECONDARY_ROLE,
    CatalogFilterProxy,
    CatalogListModel,
)

pytestmark = pytest.mark.timeout(30)


def png_data_uri() -> str:
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert QImageWriter(buffer, QByteArray(b"png")).write(image)
    return "data:image/png;base64," + base64.b64encode(bytes(data.data())).decode()


def page(names: list[str], cursor: str | None = None, **extra: Any) -> dict[str, Any]:
    result: dict[str, Any] = {"tools": [{"name": n, **extra} for n in names]}
    if cursor:
        result["nextCursor"] = cursor
    return result


def loaded(names: list[str], cursor: str | None = None) -> CatalogList:
    lst = CatalogList("tools")
    lst.begin_reload()
    lst.apply_page(page(names, cursor), first=True)
    lst.end_reload()
    return lst


def test_rows_and_roles(qapp: QApplication) -> None:
    lst = CatalogList("tools")
    model = CatalogListModel(lst)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    lst.begin_reload()
    raw = {
        "name": "get_weather",
        "title": "Weather",
        "description": "<b>Bold</b> <img src=x onerror=alert(1)>",
        "annotations": {"readOnlyHint": True},
        "icons": [{"src": png_data_uri(), "mimeType": "image/png"}],
    }
    lst.apply_page({"tools": [raw, {"name": "plain"}]}, first=True)
    assert model.rowCount() == 2
    index = model.index(0)
    assert index.data() == "Weather"
    assert index.data(SECONDARY_ROLE) == "get_weather"
    item = index.data(ITEM_ROLE)
    assert isinstance(item, CatalogItem) and item.raw is raw
    badges = index.data(BADGES_ROLE)
    assert [b.label for b in badges] == ["read-only", "open-world"]
    icon = index.data(Qt.ItemDataRole.DecorationRole)
    assert isinstance(icon, QIcon) and not icon.isNull()
    assert model.index(1).data(Qt.ItemDataRole.DecorationRole) is None
    tip = index.data(Qt.ItemDataRole.ToolTipRole)
    assert "&lt;b&gt;Bold&lt;/b&gt;" in tip and "<img" not in tip  # escaped, never markup
    assert model.data(QModelIndex()) is None


def test_load_more_appends_rows_and_a_reload_resets(qapp: QApplication) -> None:
    lst = loaded(["a", "b"], "c1")
    model = CatalogListModel(lst)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    inserted: list[tuple[int, int]] = []
    resets: list[int] = []
    model.rowsInserted.connect(lambda _p, first, last: inserted.append((first, last)))
    model.modelReset.connect(lambda: resets.append(1))
    lst.apply_page(page(["c", "d", "e"]), first=False)
    assert inserted == [(2, 4)] and not resets and model.rowCount() == 5
    lst.mark_stale()  # same rows: no reset
    assert not resets
    lst.begin_reload()
    lst.apply_page(page(["a", "x"]), first=True)
    lst.end_reload()
    assert resets == [1] and model.rowCount() == 2
    assert model.row_of("x") == 1 and model.row_of("c") == -1


def test_marks_for_the_last_relist_and_pin_alerts(qapp: QApplication) -> None:
    lst = loaded(["a", "b"])
    model = CatalogListModel(lst)
    lst.begin_reload()
    lst.apply_page({"tools": [{"name": "a", "description": "changed"}, {"name": "n"}]}, first=True)
    lst.end_reload()

    def labels(row: int) -> list[str]:
        marks: list[Badge] = model.index(row).data(MARKS_ROLE)
        return [m.label for m in marks]

    assert labels(0) == ["changed"] and labels(1) == ["new"]
    model.set_pin_alerts(frozenset({"a"}))
    assert labels(0) == ["⚠ changed since pinned", "changed"]
    assert model.index(0).data(BADGES_ROLE)[0].label == "⚠ changed since pinned"


def test_excluded_rows_are_muted_and_badged(qapp: QApplication) -> None:
    lst = CatalogList("tools")
    model = CatalogListModel(lst)
    lst.begin_reload()
    lst.apply_page(page(["ok", "bad"]), first=True, excluded={"bad": "invalid x-mcp-header"})
    assert model.index(0).data(Qt.ItemDataRole.ForegroundRole) is None
    assert isinstance(model.index(1).data(Qt.ItemDataRole.ForegroundRole), QColor)
    assert model.index(1).data(BADGES_ROLE)[0].label == "excluded"
    assert "Excluded: invalid x-mcp-header" in model.index(1).data(Qt.ItemDataRole.ToolTipRole)


def test_mirrored_header_badge_only_when_the_session_mirrors(qapp: QApplication) -> None:
    lst = CatalogList("tools")
    model = CatalogListModel(lst)
    schema = {"type": "object", "properties": {"r": {"type": "string", "x-mcp-header": "R"}}}
    lst.begin_reload()
    lst.apply_page({"tools": [{"name": "t", "inputSchema": schema}]}, first=True)
    assert "1 header" not in [b.label for b in model.index(0).data(BADGES_ROLE)]
    model.set_mirror_headers(True)
    assert "1 header" in [b.label for b in model.index(0).data(BADGES_ROLE)]


def test_proxy_searches_with_the_stores_matcher(qapp: QApplication) -> None:
    lst = CatalogList("resources")
    model = CatalogListModel(lst)
    proxy = CatalogFilterProxy()
    proxy.setSourceModel(model)
    QAbstractItemModelTester(proxy, QAbstractItemModelTester.FailureReportingMode.Fatal)
    lst.begin_reload()
    lst.apply_page(
        {
            "resources": [
                {"uri": "file:///notes.txt", "name": "notes", "mimeType": "text/plain"},
                {"uri": "db://users", "name": "users", "description": "All the USERS"},
            ]
        },
        first=True,
    )
    assert proxy.rowCount() == 2
    proxy.set_search("users")
    assert proxy.rowCount() == 1 and proxy.index(0, 0).data() == "users"
    proxy.set_search(" NOTES.txt ")
    assert proxy.rowCount() == 1 and proxy.index(0, 0).data(SECONDARY_ROLE).startswith("file")
    proxy.set_search("")
    assert proxy.rowCount() == 2
