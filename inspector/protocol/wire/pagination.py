"""Following `nextCursor` to the end, without IO.

pager = Paginator("tools/list", "tools")
while (params := pager.next_params()) is not None:
    pager.add_page(await send(pager.method, params))
items = pager.items
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.wire.errors import PaginationError

__all__ = ["Paginator"]


class Paginator:
    def __init__(self, method: str, items_key: str, *, max_pages: int = 100) -> None:
        self.method = method
        self.items_key = items_key
        self.max_pages = max_pages
        self.items: list[Any] = []
        self.pages = 0
        self._cursor: str | None = None
        self._seen: set[str] = set()
        self._done = False
        self.last_result: dict[str, Any] | None = None

    @property
    def done(self) -> bool:
        return self._done

    def next_params(self) -> dict[str, Any] | None:
        """Params for the next page, or None when every page has been read."""
        if self._done:
            return None
        return {} if self._cursor is None else {"cursor": self._cursor}

    def add_page(self, result: dict[str, Any]) -> None:
        self.pages += 1
        self.last_result = result
        page = result.get(self.items_key)
        if page is None:
            page = []
        if not isinstance(page, list):
            raise PaginationError(
                f"{self.method}: '{self.items_key}' is not a list (page {self.pages})"
            )
        self.items.extend(page)
        cursor = result.get("nextCursor")
        if cursor is None or cursor == "":
            self._done = True
            return
        if not isinstance(cursor, str):
            raise PaginationError(f"{self.method}: nextCursor is not a string: {cursor!r}")
        if cursor in self._seen:
            raise PaginationError(
                f"{self.method}: cursor loop — the server returned cursor {cursor[:60]!r} "
                f"again on page {self.pages} ({len(self.items)} items so far)"
            )
        if self.pages >= self.max_pages:
            raise PaginationError(
                f"{self.method}: more than {self.max_pages} pages ({len(self.items)} items so "
                "far); stopped"
            )
        self._seen.add(cursor)
        self._cursor = cursor
