"""Paginator: follow nextCursor to the end; stop on loops and runaway servers."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.protocol.machine.events import RequestCompleted
from inspector.protocol.wire.errors import PaginationError, RemoteProtocolError
from inspector.protocol.wire.pagination import Paginator
from tests.helpers.fake_server import legacy_session, one


def page(items: list[Any], cursor: Any = None) -> dict[str, Any]:
    result: dict[str, Any] = {"tools": items}
    if cursor is not None:
        result["nextCursor"] = cursor
    return result


def test_follows_cursors_to_the_end() -> None:
    pager = Paginator("tools/list", "tools")
    pages = {None: page([1, 2], "c1"), "c1": page([3], "c2"), "c2": page([4, 5])}
    sent = []
    while (params := pager.next_params()) is not None:
        sent.append(params)
        pager.add_page(pages[params.get("cursor")])
    assert sent == [{}, {"cursor": "c1"}, {"cursor": "c2"}]
    assert pager.items == [1, 2, 3, 4, 5]
    assert pager.pages == 3
    assert pager.done
    assert pager.last_result == page([4, 5])


def test_empty_string_cursor_ends() -> None:
    pager = Paginator("tools/list", "tools")
    pager.add_page(page(["a"], ""))
    assert pager.done
    assert pager.next_params() is None


def test_null_cursor_ends() -> None:
    pager = Paginator("tools/list", "tools")
    pager.add_page({"tools": ["a"], "nextCursor": None})
    assert pager.done


def test_missing_items_count_as_an_empty_page() -> None:
    pager = Paginator("resources/list", "resources")
    pager.add_page({"nextCursor": "more"})
    pager.add_page({"resources": ["r"]})
    assert pager.items == ["r"]
    assert pager.done


def test_cursor_loop_stops_with_a_clear_message() -> None:
    pager = Paginator("tools/list", "tools")
    pager.add_page(page([1], "A"))
    pager.add_page(page([2], "B"))
    with pytest.raises(PaginationError) as info:
        pager.add_page(page([3], "A"))
    assert str(info.value) == (
        "tools/list: cursor loop — the server returned cursor 'A' again on page 3 (3 items so far)"
    )
    assert isinstance(info.value, RemoteProtocolError)


def test_same_cursor_twice_in_a_row_is_a_loop() -> None:
    pager = Paginator("prompts/list", "prompts")
    pager.add_page({"prompts": [], "nextCursor": "same"})
    with pytest.raises(PaginationError, match="cursor loop"):
        pager.add_page({"prompts": [], "nextCursor": "same"})


def test_more_than_max_pages_stops() -> None:
    pager = Paginator("tools/list", "tools", max_pages=3)
    pager.add_page(page([1], "c1"))
    pager.add_page(page([2], "c2"))
    with pytest.raises(PaginationError) as info:
        pager.add_page(page([3], "c3"))
    assert str(info.value) == "tools/list: more than 3 pages (3 items so far); stopped"


def test_exactly_max_pages_is_fine() -> None:
    pager = Paginator("tools/list", "tools", max_pages=2)
    pager.add_page(page([1], "c1"))
    pager.add_page(page([2]))
    assert pager.done and pager.items == [1, 2]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ({"tools": {"a": 1}}, "'tools' is not a list (page 1)"),
        ({"tools": [], "nextCursor": 7}, "nextCursor is not a string: 7"),
    ],
)
def test_malformed_pages(result: dict[str, Any], message: str) -> None:
    with pytest.raises(PaginationError) as info:
        Paginator("tools/list", "tools").add_page(result)
    assert str(info.value) == f"tools/list: {message}"


def test_paginating_over_a_connection() -> None:
    conn, server = legacy_session()
    cursors = iter(["p2", "p3", None])

    def list_tools(req: Any) -> dict[str, Any]:
        return page([(req.params or {}).get("cursor")], next(cursors))

    server.on("tools/list", list_tools, always=True)
    pager = Paginator("tools/list", "tools")
    while (params := pager.next_params()) is not None:
        conn.send_request(pager.method, params, now=server.now)
        pager.add_page(one(server.step(), RequestCompleted).result)
    assert pager.items == [None, "p2", "p3"]
    assert [r.params for r in server.requests("tools/list")] == [
        {},
        {"cursor": "p2"},
        {"cursor": "p3"},
    ]
