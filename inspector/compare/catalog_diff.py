"""The structural diff of two catalog snapshots.

Items are matched by their identity (tool and prompt name, resource URI, template URI
template), never by position. A changed definition gives its changes as JSON Pointers with
old and new values (`recording.diff.diff_json`, the replay diff). Server info, capabilities
and instructions are compared too; era, protocol version and transport are context only,
so the same server in two eras or transports compares equal.

Ignore paths are JSON Pointers into the compared document
`{"serverInfo", "capabilities", "instructions", "tools": {NAME: def}, "resources": {URI:
def}, "resourceTemplates": {URI_TEMPLATE: def}, "prompts": {NAME: def}}` (`*` one segment,
`**` any number; `/` in a name is `~1`): `/serverInfo/version`, `/tools/*/description`,
`/**/_meta`, `/tools/debug` (that tool, whether added, removed or changed).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.compare.hints import name_hints
from inspector.compare.snapshot import DOC_KEY, IDENTITY, CatalogSnapshot
from inspector.features.catalog.lists import KINDS, CatalogKind
from inspector.recording.diff import Change, IgnoreRules, diff_json

__all__ = [
    "INFO_FIELDS",
    "CatalogDiff",
    "ItemDiff",
    "Status",
    "diff_catalogs",
    "ignore_rules",
    "item_key",
]

# "unlisted": on one side only, but the other side's listing of that kind is incomplete,
# so whether it was added or removed is unknown (never counted as a difference).
Status = Literal["added", "removed", "changed", "same", "unlisted"]
INFO_FIELDS: Final = ("serverInfo", "capabilities", "instructions")


def ignore_rules(patterns: Iterable[str] = ()) -> IgnoreRules:
    """The rules for `--ignore` paths (none by default: a catalog has no volatile fields).
    Raises ValueError for a path that is not a JSON Pointer."""
    return IgnoreRules(list(patterns))


@dataclass(frozen=True)
class ItemDiff:
    kind: CatalogKind
    key: str  # name / uri / uriTemplate
    status: Status
    left: dict[str, Any] | None
    right: dict[str, Any] | None
    changes: tuple[Change, ...] = ()  # paths inside the definition ("/inputSchema/...")
    hint: str | None = None  # "may be the same as ..." for added/removed look-alikes

    @property
    def fields(self) -> tuple[str, ...]:
        """The top-level fields that changed (description, inputSchema, annotations, ...)."""
        seen: dict[str, None] = {}
        for change in self.changes:
            head = change.path.split("/")[1] if change.path.count("/") else ""
            seen[head.replace("~1", "/").replace("~0", "~") or "(definition)"] = None
        return tuple(seen)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "key": self.key, "status": self.status}
        if self.status == "changed":
            out["fields"] = list(self.fields)
            out["changes"] = [c.to_dict() for c in self.changes]
        if self.hint:
            out["hint"] = self.hint
        return out


@dataclass
class CatalogDiff:
    left: CatalogSnapshot
    right: CatalogSnapshot
    items: list[ItemDiff] = field(default_factory=list)  # every item, "same" ones too
    info: list[Change] = field(default_factory=list)  # serverInfo/capabilities/instructions

    @property
    def differences(self) -> list[ItemDiff]:
        return [i for i in self.items if i.status not in ("same", "unlisted")]

    @property
    def complete(self) -> bool:
        return self.left.complete and self.right.complete

    @property
    def same(self) -> bool:
        """No difference found (a comparison that could not list everything is not 'same')."""
        return not self.info and not self.differences and self.complete

    def of_kind(self, kind: CatalogKind) -> list[ItemDiff]:
        return [i for i in self.items if i.kind == kind]

    def find(self, kind: CatalogKind, key: str) -> ItemDiff | None:
        return next((i for i in self.items if i.kind == kind and i.key == key), None)

    def counts(self) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        for kind in KINDS:
            tally = {"added": 0, "removed": 0, "changed": 0, "same": 0, "unlisted": 0}
            for item in self.of_kind(kind):
                tally[item.status] += 1
            out[kind] = tally
        return out


def item_key(kind: CatalogKind, raw: dict[str, Any]) -> str:
    value = raw.get(IDENTITY[kind])
    if isinstance(value, str):
        return value
    return "(no " + IDENTITY[kind] + ") " + json.dumps(raw, sort_keys=True, default=str)[:120]


def _keyed(kind: CatalogKind, items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Items by identity; a duplicate keeps its place under a marked key, so no item is
    silently lost."""
    out: dict[str, dict[str, Any]] = {}
    for raw in items:
        key = item_key(kind, raw)
        if key in out:
            n = 2
            while f"{key} (duplicate {n})" in out:
                n += 1
            key = f"{key} (duplicate {n})"
        out[key] = raw
    return out


def _text(raw: dict[str, Any]) -> str:
    return json.dumps(raw, default=str)


def _canonical(raw: dict[str, Any]) -> str:
    return json.dumps(raw, sort_keys=True, ensure_ascii=False, default=str)


def _escape(segment: str) -> str:
    return segment.replace("~", "~0").replace("/", "~1")


def diff_catalogs(
    left: CatalogSnapshot, right: CatalogSnapshot, ignore: IgnoreRules | None = None
) -> CatalogDiff:
    rules = ignore or ignore_rules()
    result = CatalogDiff(left, right)
    result.info = diff_json(_info_doc(left), _info_doc(right), rules)
    for kind in KINDS:
        result.items.extend(_diff_kind(kind, left, right, rules))
    return result


def _info_doc(snap: CatalogSnapshot) -> dict[str, Any]:
    return {
        "serverInfo": snap.server_info,
        "capabilities": snap.capabilities,
        "instructions": snap.instructions,
    }


def _diff_kind(
    kind: CatalogKind, left: CatalogSnapshot, right: CatalogSnapshot, rules: IgnoreRules
) -> list[ItemDiff]:
    doc_key = DOC_KEY[kind]
    old_by, new_by = _keyed(kind, left.items(kind)), _keyed(kind, right.items(kind))
    left_partial = kind in left.errors or kind in left.incomplete
    right_partial = kind in right.errors or kind in right.incomplete
    out: list[ItemDiff] = []
    for key in [*old_by, *(k for k in new_by if k not in old_by)]:
        if rules.ignores([doc_key, key]):
            continue
        old, new = old_by.get(key), new_by.get(key)
        if new is None:
            out.append(ItemDiff(kind, key, "unlisted" if right_partial else "removed", old, None))
        elif old is None:
            out.append(ItemDiff(kind, key, "unlisted" if left_partial else "added", None, new))
        elif old == new and (_text(old) == _text(new) or _canonical(old) == _canonical(new)):
            # == alone takes 1 for true; the text tells them apart (in the server's key
            # order first, the cheap way; sorted when the two orders differ).
            out.append(ItemDiff(kind, key, "same", old, new))
        else:
            changes = diff_json({doc_key: {key: old}}, {doc_key: {key: new}}, rules)
            prefix = f"/{doc_key}/{_escape(key)}"
            relative = tuple(Change(c.path[len(prefix) :], c.kind, c.old, c.new) for c in changes)
            out.append(ItemDiff(kind, key, "changed" if relative else "same", old, new, relative))
    hints = name_hints(
        [i.key for i in out if i.status == "removed"],
        [i.key for i in out if i.status == "added"],
        namespaces=kind in ("tools", "prompts"),
    )
    if hints:
        out = [
            ItemDiff(i.kind, i.key, i.status, i.left, i.right, i.changes, hints[i.key])
            if i.status in ("added", "removed") and i.key in hints
            else i
            for i in out
        ]
    return out
