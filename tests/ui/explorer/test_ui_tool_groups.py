"""Tools behind a gateway (`github__create_issue`, `slack__post`) are grouped in the
explorer by their namespace prefix; other tools stay at the top level, in server order."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from inspector.features.catalog.lists import CatalogList, namespace_of
from inspector.ui.explorer.catalog_models import ITEM_ROLE, SECONDARY_ROLE
from inspector.ui.explorer.pane import CatalogPane


def tools(*names: str) -> dict[str, Any]:
    return {"tools": [{"name": n, "inputSchema": {"type": "object"}} for n in names]}


def top_level(pane: CatalogPane) -> list[str]:
    model = pane.proxy
    return [str(model.index(r, 0).data()) for r in range(model.rowCount())]


def test_namespace_of() -> None:
    assert namespace_of("github__create_issue") == "github"
    assert namespace_of("a__b__c") == "a"
    assert namespace_of("plain") is None
    assert namespace_of("__hidden") is None
    assert namespace_of("trailing__") is None


def test_gateway_tools_are_grouped_in_server_order(qtbot: QtBot) -> None:
    lst = CatalogList("tools")
    pane = CatalogPane(lst)
    qtbot.addWidget(pane)
    lst.apply_page(
        tools("echo", "github__issue", "slack__post", "github__pr", "solo__one", "add"),
        first=True,
    )
    assert top_level(pane) == ["echo", "github", "slack__post", "solo__one", "add"]
    assert pane.model.grouped and pane.tree.rootIsDecorated()
    github = pane.proxy.index(1, 0)
    assert github.data(ITEM_ROLE) is None
    assert github.data(SECONDARY_ROLE).startswith("2 tools")
    children = [pane.proxy.index(r, 0, github).data() for r in range(pane.proxy.rowCount(github))]
    assert children == ["github__issue", "github__pr"]
    assert "6 tools" in pane.status.text()

    # selecting a grouped tool opens its group; the selection follows a re-list
    seen: list[Any] = []
    pane.selected.connect(seen.append)
    assert pane.select_key("github__pr")
    assert pane.current_item() is not None and pane.current_item().key == "github__pr"  # type: ignore[union-attr]
    lst.apply_page(tools("github__pr", "github__issue", "echo"), first=True)
    assert pane.current_item() is not None and pane.current_item().key == "github__pr"  # type: ignore[union-attr]

    # a search shows the matching tools inside their groups, and counts tools, not groups
    pane.search.setText("issue")
    assert top_level(pane) == ["github"]
    assert pane.proxy.rowCount(pane.proxy.index(0, 0)) == 1
    assert pane.status.text().startswith("1 of 3 tools")


def test_without_prefixes_the_list_stays_flat(qtbot: QtBot) -> None:
    lst = CatalogList("tools")
    pane = CatalogPane(lst)
    qtbot.addWidget(pane)
    lst.apply_page(tools("b", "a", "only__one"), first=True)
    assert top_level(pane) == ["b", "a", "only__one"]
    assert not pane.model.grouped and not pane.tree.rootIsDecorated()
    assert pane.model.index(2).data(ITEM_ROLE).key == "only__one"


def test_the_grouped_model_is_a_correct_qt_tree_model(qtbot: QtBot) -> None:
    from PySide6.QtTest import QAbstractItemModelTester

    from inspector.ui.explorer.catalog_models import CatalogListModel

    lst = CatalogList("tools")
    model = CatalogListModel(lst)
    QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Fatal)
    lst.apply_page(tools("x__a", "y", "x__b"), first=True)
    lst.apply_page(tools("z__a", "z__b"), first=False)  # load more: new group, a reset
    lst.mark_stale()  # same rows: a refresh of every row, children too
    model.set_pin_alerts(frozenset({"x__a"}))
    assert model.rowCount() == 3 and model.grouped
    assert model.item_of(model.index_of("z__b")).key == "z__b"  # type: ignore[union-attr]
    lst.apply_page(tools("plain"), first=True)
    assert model.rowCount() == 1 and not model.grouped
