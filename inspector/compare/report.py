"""A catalog diff as text for a person (the `diff` command's default) and as a JSON report
(`--json`). Server text is printed as JSON strings, so a name with control characters or
a newline cannot forge a line of the report."""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.compare.catalog_diff import CatalogDiff, ItemDiff
from inspector.compare.snapshot import CatalogSnapshot
from inspector.features.catalog.lists import KINDS

__all__ = ["describe_side", "diff_json_report", "diff_text"]

_MARK: Final = {"added": "+", "removed": "-", "changed": "~", "same": "=", "unlisted": "?"}
_NOUN: Final = {
    "tools": "tool",
    "resources": "resource",
    "templates": "resource template",
    "prompts": "prompt",
}


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def describe_side(snap: CatalogSnapshot) -> str:
    info = snap.server_info
    name = info.get("name") if isinstance(info.get("name"), str) else "(no name)"
    version = info.get("version") if isinstance(info.get("version"), str) else ""
    how = ", ".join(x for x in (snap.era, snap.protocol_version, snap.transport) if x)
    counts = ", ".join(f"{k}: {n}" for k, n in snap.counts().items())
    return f"{_q(str(name))} {_q(str(version))} ({how}): {counts}"


def _item_lines(item: ItemDiff, max_changes: int) -> list[str]:
    noun = _NOUN[item.kind]
    head = f"  {_MARK[item.status]} {item.status} {noun} {_q(item.key)}"
    if item.status == "changed":
        head += ": " + ", ".join(item.fields)
    lines = [head]
    if item.hint:
        lines.append(f"      hint: {item.hint}")
    shown = item.changes[:max_changes]
    lines += [f"      {c.describe()}" for c in shown]
    if len(item.changes) > len(shown):
        lines.append(f"      … {len(item.changes) - len(shown)} more change(s) (--json has all)")
    return lines


def diff_text(diff: CatalogDiff, *, max_changes: int = 20) -> str:
    lines = [f"left:  {describe_side(diff.left)}", f"right: {describe_side(diff.right)}"]
    for side, snap in (("left", diff.left), ("right", diff.right)):
        for kind, why in {**snap.errors, **snap.incomplete}.items():
            lines.append(f"warning: the {side} side's {kind} listing is incomplete: {why}")
    if diff.info:
        lines.append("")
        lines.append("server info, capabilities, instructions:")
        lines += [f"  {c.describe()}" for c in diff.info]
    counts = diff.counts()
    for kind in KINDS:
        items = [i for i in diff.of_kind(kind) if i.status not in ("same", "unlisted")]
        tally = counts[kind]
        if not items and not tally["unlisted"]:
            continue
        statuses = ["added", "removed", "changed", "same"] + (
            ["unlisted"] if tally["unlisted"] else []
        )
        summary = ", ".join(f"{tally[s]} {s}" for s in statuses)
        lines.append("")
        lines.append(f"{kind}: {summary}")
        for item in items:
            lines += _item_lines(item, max_changes)
        if tally["unlisted"]:
            lines.append(
                f"  ? {tally['unlisted']} {kind} listed on one side only, where the other "
                "side's listing is incomplete (not counted)"
            )
    lines.append("")
    if diff.same:
        lines.append("The catalogs are the same.")
    elif not diff.info and not diff.differences:
        lines.append("No difference in what was listed, but a listing is incomplete.")
    else:
        n = len(diff.differences) + (1 if diff.info else 0)
        lines.append(f"The catalogs differ ({n} difference(s)).")
    return "\n".join(lines)


def diff_json_report(diff: CatalogDiff, *, snapshots: bool = False) -> dict[str, Any]:
    """The JSON report: each side's summary, the info changes, every difference, and the
    per-kind counts. `snapshots` adds both full catalogs."""

    def side(snap: CatalogSnapshot) -> dict[str, Any]:
        out: dict[str, Any] = {
            "serverInfo": snap.server_info,
            "era": snap.era,
            "protocolVersion": snap.protocol_version,
            "transport": snap.transport,
            "counts": snap.counts(),
            "errors": dict(snap.errors),
            "incomplete": dict(snap.incomplete),
        }
        if snapshots:
            out["snapshot"] = snap.to_json()
        return out

    return {
        "same": diff.same,
        "complete": diff.complete,
        "left": side(diff.left),
        "right": side(diff.right),
        "info": [c.to_dict() for c in diff.info],
        "counts": diff.counts(),
        "differences": [i.to_json() for i in diff.differences],
    }
