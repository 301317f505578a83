"""Tools behind a gateway (`github__create_issue`, `slack__post`) are grouped in the
explorer by their namespace prefix; other tools stay at the top level, in server order."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from inspector.features.catalog.model import CatalogList, namespace_of
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
