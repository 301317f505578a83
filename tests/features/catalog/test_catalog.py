"""The Qt-free catalog store: pages, cursors, stale marks, refresh diffs, search."""

from __future__ import annotations

from typing import Any

from inspector.features.catalog.lists import Catalog, CatalogList, ListDiff, definition_hash


def flags(lst: CatalogList) -> tuple[bool, bool, str | None]:
    """(has_more, stale, absent), read afresh (a plain read would stay narrowed for mypy)."""
    return lst.has_more, lst.stale, lst.absent


def tools_page(names: list[str], cursor: Any = None, **extra: Any) -> dict[str, Any]:
    page: dict[str, Any] = {"tools": [{"name": n, "inputSchema": {}, **extra} for n in names]}
    if cursor is not None:
        page["nextCursor"] = cursor
    return page


def test_pages_append_and_the_cursor_drives_has_more() -> None:
    lst = CatalogList("tools")
    seen: list[int] = []
    lst.on_change(lambda x: seen.append(len(x)))
    lst.begin_reload()
    lst.apply_page(tools_page(["a", "b"], "c1"), first=True)
    assert flags(lst)[0] and lst.next_page_params() == {"cursor": "c1"} and lst.pages == 1
    lst.apply_page(tools_page(["c"]), first=False)
    assert [i.key for i in lst] == ["a", "b", "c"]
    assert not flags(lst)[0] and lst.next_page_params() is None and lst.pages == 2
    assert lst.end_reload().empty  # a first listing adds nothing worth telling
    assert seen == [2, 3]


def test_a_repeated_cursor_stops_paging_with_an_error() -> None:
    lst = CatalogList("tools")
    lst.begin_reload()
    lst.apply_page(tools_page(["a"], "same"), first=True)
    lst.apply_page(tools_page(["b"], "same"), first=False)
    assert not lst.has_more
    assert lst.error is not None and "twice" in lst.error


def test_odd_pages_are_flagged_not_fatal() -> None:
    lst = CatalogList("tools")
    lst.begin_reload()
    lst.apply_page({"tools": {"not": "a list"}, "nextCursor": 5}, first=True)
    assert len(lst) == 0 and not lst.has_more
    assert lst.error is not None and "nextCursor is not a string" in lst.error
    lst.begin_reload()
    lst.apply_page({"tools": "nope"}, first=True)
    assert lst.error == "tools/list: 'tools' is not a list (str)"
    lst.begin_reload()
    lst.apply_page({"tools": [1, "x", {"name": "ok"}]}, first=True)
    assert [i.key for i in lst] == ["ok"] and lst.error is None


def test_reload_diff_added_removed_changed_and_load_more_leaves_it() -> None:
    lst = CatalogList("tools")
    lst.begin_reload()
    lst.apply_page(tools_page(["a", "b", "c"]), first=True)
    lst.end_reload()
    lst.mark_stale()
    assert lst.stale
    lst.begin_reload()
    page = tools_page(["a", "c", "d"], "more")
    page["tools"][1]["description"] = "now different"
    lst.apply_page(page, first=True)
    diff = lst.end_reload()
    assert diff == ListDiff(added=("d",), removed=("b",), changed=("c",))
    assert not flags(lst)[1]
    assert "added d" in diff.describe() and "removed b" in diff.describe()
    lst.apply_page(tools_page(["e"]), first=False)  # load more: not a change of the list
    assert lst.last_diff == diff


def test_a_list_that_was_empty_reports_what_was_added() -> None:
    lst = CatalogList("prompts")
    lst.begin_reload()
    lst.apply_page({"prompts": []}, first=True)
    lst.end_reload()
    lst.begin_reload()
    lst.apply_page({"prompts": [{"name": "p"}]}, first=True)
    assert lst.end_reload().added == ("p",)


def test_excluded_tools_are_flagged_in_place() -> None:
    lst = CatalogList("tools")
    lst.begin_reload()
    lst.apply_page(tools_page(["a", "b"]), first=True, excluded={"b": "invalid x-mcp-header"})
    assert lst.find("a") is not None and lst.find("a").excluded is None  # type: ignore[union-attr]
    assert lst.find("b").excluded == "invalid x-mcp-header"  # type: ignore[union-attr]


def test_search_matches_key_title_and_description_any_case() -> None:
    lst = CatalogList("tools")
    lst.begin_reload()
    page = tools_page(["alpha", "beta"])
    page["tools"][1]["title"] = "Second Tool"
    page["tools"][0]["description"] = "Reads the WEATHER"
    lst.apply_page(page, first=True)
    assert [i.key for i in lst.filtered("weather")] == ["alpha"]
    assert [i.key for i in lst.filtered(" second ")] == ["beta"]
    assert [i.key for i in lst.filtered("")] == ["alpha", "beta"]


def test_items_per_kind_and_titles() -> None:
    cat = Catalog()
    cat.resources.begin_reload()
    cat.resources.apply_page(
        {"resources": [{"uri": "file:///a", "name": "a", "title": "The A"}, {"uri": "x:y"}]},
        first=True,
    )
    assert [i.key for i in cat.resources] == ["file:///a", "x:y"]
    assert [i.title for i in cat.resources] == ["The A", "x:y"]
    cat.templates.begin_reload()
    templates = {"resourceTemplates": [{"uriTemplate": "a/{b}", "name": "t"}]}
    cat.templates.apply_page(templates, first=True)
    assert cat.templates.items[0].key == "a/{b}"
    tool = {"name": "t", "annotations": {"title": "From annotations"}}
    cat.tools.begin_reload()
    cat.tools.apply_page({"tools": [tool]}, first=True)
    assert cat.tools.items[0].title == "From annotations"
    assert cat.tools.items[0].hash == definition_hash(dict(reversed(list(tool.items()))))


def test_list_changed_marks_stale_resources_also_mark_templates() -> None:
    cat = Catalog()
    assert cat.list_changed("resources") is cat.resources
    assert cat.resources.stale and cat.templates.stale and not cat.tools.stale
    assert cat.list_changed("nonsense") is None


def test_absent_and_loading_and_reset() -> None:
    lst = CatalogList("prompts")
    events: list[bool] = []
    lst.on_change(lambda x: events.append(x.loading))
    lst.set_loading(True)
    lst.set_loading(True)  # no change, no event
    lst.set_loading(False)
    lst.set_absent("not offered")
    assert lst.absent == "not offered" and not lst.loaded
    lst.reset()
    assert flags(lst)[2] is None
    assert events == [True, False, False, False]
