"""The catalog: what the server offers (tools, resources, templates, prompts), Qt-free.

One `CatalogList` per kind holds the items in server order, the pagination state
("load more" / "load all"), whether a list_changed made it stale, and what the last
refresh added, removed or changed. Widgets adapt it through Qt models; they never parse
JSON. Items keep the raw definition next to a lenient pydantic model.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.features.catalog.cache_hints import CacheHints
from inspector.features.mcp_models import Prompt, Resource, ResourceTemplate, Tool, parse_lenient

__all__ = [
    "KINDS",
    "KIND_OF_LIST",
    "Catalog",
    "CatalogItem",
    "CatalogKind",
    "CatalogList",
    "ListDiff",
    "definition_hash",
    "matches",
    "namespace_of",
]

log = logging.getLogger(__name__)

CatalogKind: TypeAlias = Literal["tools", "resources", "templates", "prompts"]
KINDS: Final[tuple[CatalogKind, ...]] = ("tools", "resources", "templates", "prompts")

# kind -> (list method, key of the items in the result, model)
_SPEC: Final[dict[CatalogKind, tuple[str, str, type[Any]]]] = {
    "tools": ("tools/list", "tools", Tool),
    "resources": ("resources/list", "resources", Resource),
    "templates": ("resources/templates/list", "resourceTemplates", ResourceTemplate),
    "prompts": ("prompts/list", "prompts", Prompt),
}
# list method -> kind ("resources/templates/list" -> "templates")
KIND_OF_LIST: Final[dict[str, CatalogKind]] = {spec[0]: kind for kind, spec in _SPEC.items()}
_LIST_CHANGED_KIND: Final[dict[str, CatalogKind]] = {
    "tools": "tools",
    "resources": "resources",
    "prompts": "prompts",
}


def definition_hash(raw: dict[str, Any]) -> str:
    """A stable hash of a definition (key order does not matter): pins tool definitions."""
    text = json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def identity_of(kind: CatalogKind, raw: dict[str, Any]) -> str:
    key = {"tools": "name", "prompts": "name", "resources": "uri", "templates": "uriTemplate"}
    value = raw.get(key[kind])
    return value if isinstance(value, str) else json.dumps(raw, sort_keys=True)[:200]


@dataclass
class CatalogItem:
    kind: CatalogKind
    key: str  # tool/prompt name, resource uri, template uriTemplate
    raw: dict[str, Any]
    model: Any  # Tool | Resource | ResourceTemplate | Prompt (lenient)
    excluded: str | None = None  # why the client must not use it (e.g. invalid x-mcp-header)

    @property
    def title(self) -> str:
        title = getattr(self.model, "title", None)
        if self.kind == "tools":
            return str(self.model.display_name)
        if isinstance(title, str) and title:
            return title
        name = getattr(self.model, "name", None)
        return name if isinstance(name, str) and name else self.key

    @property
    def description(self) -> str:
        value = getattr(self.model, "description", None)
        return value if isinstance(value, str) else ""

    @property
    def problems(self) -> list[str]:
        return list(getattr(self.model, "problems", []))

    @property
    def hash(self) -> str:
        return definition_hash(self.raw)


def namespace_of(name: str) -> str | None:
    """The gateway namespace of a tool name (`github__create_issue` → `github`), or None.
    Gateways that merge several servers prefix each server's tools this way."""
    space, sep, rest = name.partition("__")
    return space if sep and space and rest else None


def matches(item: CatalogItem, needle: str) -> bool:
    """Search within a list: key (name or uri), title and description, any case.
    `needle` is already stripped and lower-cased; empty matches everything."""
    return (
        not needle
        or needle in item.key.lower()
        or needle in item.title.lower()
        or needle in item.description.lower()
    )


@dataclass(frozen=True)
class ListDiff:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    def describe(self) -> str:
        parts = []
        if self.added:
            parts.append(f"added {', '.join(self.added)}")
        if self.removed:
            parts.append(f"removed {', '.join(self.removed)}")
        if self.changed:
            parts.append(f"changed {', '.join(self.changed)}")
        return "; ".join(parts) or "no change"


Listener = Callable[["CatalogList"], None]


@dataclass
class CatalogList:
    kind: CatalogKind
    items: list[CatalogItem] = field(default_factory=list)
    next_cursor: str | None = None  # set while more pages can be loaded
    loaded: bool = False  # at least one page was loaded since the last reset
    stale: bool = False  # a list_changed arrived since the last load
    error: str | None = None  # the last load's failure, shown in the tree
    last_diff: ListDiff = field(default_factory=ListDiff)
    pages: int = 0  # pages loaded since the last reset or reload
    loading: bool = False  # a listing is under way
    absent: str | None = None  # why nothing is listed (e.g. the server does not offer it)
    hints: CacheHints | None = None  # the first page's cache hints (modern era)
    fresh_until: float | None = None  # monotonic time the listing goes stale (None: now)
    reused: bool = False  # kept from the last connection while fresh (not listed again)
    _reloading: bool = field(default=False, repr=False)
    _compare: bool = field(default=False, repr=False)
    _listeners: Listeners[[CatalogList]] = field(
        default_factory=lambda: Listeners("catalog listener"), repr=False
    )
    _seen_cursors: set[str] = field(default_factory=set, repr=False)
    _previous: dict[str, str] = field(default_factory=dict, repr=False)  # key -> hash

    @property
    def method(self) -> str:
        return _SPEC[self.kind][0]

    @property
    def has_more(self) -> bool:
        return self.next_cursor is not None

    def __iter__(self) -> Iterator[CatalogItem]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def on_change(self, listener: Listener) -> Unsubscribe:
        return self._listeners.add(listener)

    def _changed(self) -> None:
        self._listeners.emit(self)

    def find(self, key: str) -> CatalogItem | None:
        return next((i for i in self.items if i.key == key), None)

    def filtered(self, text: str) -> list[CatalogItem]:
        """Search within the list: name, title and description, any case."""
        needle = text.strip().lower()
        return [i for i in self.items if matches(i, needle)]

    # -- loading ---------------------------------------------------------------
    def begin_reload(self) -> dict[str, Any]:
        """Start a fresh listing; returns the params of the first page.

        Until `end_reload`, each page updates `last_diff` against what was listed before;
        pages loaded later ("load more") leave it alone."""
        self._previous = {i.key: i.hash for i in self.items}
        self._compare = self.loaded  # a first listing adds nothing worth telling
        self._seen_cursors = set()
        self._reloading = True
        return {}

    def end_reload(self) -> ListDiff:
        """The listing started by `begin_reload` is over (all wanted pages, or a failure)."""
        self._reloading = False
        return self.last_diff

    def fresh(self, now: float) -> bool:
        """Still fresh by its ttlMs (and no list_changed, no error since)."""
        return (
            self.loaded
            and not self.stale
            and self.error is None
            and self.fresh_until is not None
            and now < self.fresh_until
        )

    def reusable(self, now: float) -> bool:
        """May be kept across a new connection: fresh, and "public" (a "private" result is
        only for the authorization context it was listed in, which a reconnect may change)."""
        return self.fresh(now) and self.hints is not None and self.hints.scope == "public"

    def next_page_params(self) -> dict[str, Any] | None:
        return {"cursor": self.next_cursor} if self.next_cursor is not None else None

    def apply_page(
        self,
        result: dict[str, Any],
        *,
        first: bool,
        excluded: dict[str, str] | None = None,
        hints: CacheHints | None = None,
        now: float = 0.0,
    ) -> None:
        """Take one page of a list result (the first page replaces the items). `hints` are
        the page's cache hints, received at `now` (monotonic): each page has its own TTL,
        so the listing is fresh until the first page to go stale does."""
        key = _SPEC[self.kind][1]
        page = result.get(key)
        raw_items = [r for r in page if isinstance(r, dict)] if isinstance(page, list) else []
        model_type = _SPEC[self.kind][2]
        new_items = [
            CatalogItem(self.kind, identity_of(self.kind, r), r, parse_lenient(model_type, r))
            for r in raw_items
        ]
        until = now + hints.ttl_ms / 1000 if hints is not None and hints.ttl_ms > 0 else None
        if first:
            self.items = new_items
            self.pages = 1
            self.hints = hints
            self.fresh_until = until
            self.reused = False
        else:
            if until is None or self.fresh_until is None:
                self.fresh_until = None
            else:
                self.fresh_until = min(self.fresh_until, until)
            self.items.extend(new_items)
            self.pages += 1
        if excluded:
            listed: dict[str, CatalogItem] = {}  # one pass: a gateway can exclude many
            for i in self.items:
                listed.setdefault(i.key, i)  # the first of a name listed twice, as find()
            for name, why in excluded.items():
                item = listed.get(name)
                if item is not None:
                    item.excluded = why
        if first:
            self.error = None
        if page is not None and not isinstance(page, list):
            self.error = f"{self.method}: '{key}' is not a list ({type(page).__name__})"
        cursor = result.get("nextCursor")
        if isinstance(cursor, str) and cursor and cursor not in self._seen_cursors:
            self._seen_cursors.add(cursor)
            self.next_cursor = cursor
        else:
            if isinstance(cursor, str) and cursor in self._seen_cursors:
                self.error = f"the server returned cursor {cursor[:40]!r} twice; stopped paging"
            elif cursor is not None and not isinstance(cursor, str):
                self.error = f"nextCursor is not a string ({cursor!r:.40}); stopped paging"
            self.next_cursor = None
        self.loaded = True
        self.stale = False
        if self._reloading:
            self.last_diff = self._diff()
        self._changed()

    def add_excluded(self, raw: dict[str, Any], why: str) -> None:
        """A tool the session left out of tools/list (invalid x-mcp-header): shown, flagged."""
        item = CatalogItem(self.kind, identity_of(self.kind, raw), raw, parse_lenient(Tool, raw))
        item.excluded = why
        self.items.append(item)
        self._changed()

    def fail(self, message: str) -> None:
        self.error = message
        self._changed()

    def mark_stale(self) -> None:
        self.stale = True
        self._changed()

    def set_loading(self, loading: bool) -> None:
        if loading != self.loading:
            self.loading = loading
            self._changed()

    def set_absent(self, reason: str) -> None:
        """Nothing will be listed, and why (the server does not declare the capability)."""
        self.reset(notify=False)
        self.absent = reason
        self._changed()

    def reset(self, *, notify: bool = True) -> None:
        self.items = []
        self.loading = False
        self.absent = None
        self.next_cursor = None
        self.loaded = False
        self.stale = False
        self.error = None
        self.last_diff = ListDiff()
        self.pages = 0
        self.hints = None
        self.fresh_until = None
        self.reused = False
        self._reloading = False
        self._compare = False
        self._previous = {}
        if notify:
            self._changed()

    def _diff(self) -> ListDiff:
        if not self._compare:
            return ListDiff()
        now = {i.key: i.hash for i in self.items}
        return ListDiff(
            added=tuple(k for k in now if k not in self._previous),
            removed=tuple(k for k in self._previous if k not in now),
            changed=tuple(k for k in now if k in self._previous and self._previous[k] != now[k]),
        )


class Catalog:
    """The four lists of one connection."""

    def __init__(self) -> None:
        self.lists: dict[CatalogKind, CatalogList] = {k: CatalogList(k) for k in KINDS}

    def __getitem__(self, kind: CatalogKind) -> CatalogList:
        return self.lists[kind]

    @property
    def tools(self) -> CatalogList:
        return self.lists["tools"]

    @property
    def resources(self) -> CatalogList:
        return self.lists["resources"]

    @property
    def templates(self) -> CatalogList:
        return self.lists["templates"]

    @property
    def prompts(self) -> CatalogList:
        return self.lists["prompts"]

    def list_changed(self, list_name: str) -> CatalogList | None:
        """A list_changed notification (legacy) or subscription event (modern) arrived."""
        kind = _LIST_CHANGED_KIND.get(list_name)
        if kind is None:
            return None
        target = self.lists[kind]
        target.mark_stale()
        if kind == "resources":
            self.lists["templates"].mark_stale()
        return target

    def reset(self) -> None:
        for lst in self.lists.values():
            lst.reset()
