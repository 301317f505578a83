"""A catalog diff as text for a person (the `diff` command's default) and as a JSON report
(`--json`). Server text is printed as JSON strings made safe for a terminal
(`terminal_quoted`), so a name with control characters or a newline cannot forge a line of
the report."""

from __future__ import annotations

from typing import Any, Final

from inspector.common.terminal_text import terminal_quoted
from inspector.compare.catalog_diff import CatalogDiff, ItemDiff
from inspector.compare.snapshot import CatalogSnapshot
from inspector.features.catalog.lists import KINDS

__all__ = ["MARK", "describe_side", "diff_json_report", "diff_text", "item_lines"]

MARK: Final = {"added": "+", "removed": "-", "changed": "~", "same": "=", "unlisted": "?"}
_NOUN: Final = {
    "tools": "tool",
    "resources": "resource",
    "templates": "resource template",
    "prompts": "prompt",
}


def _q(text: str) -> str:
    return terminal_quoted(text)


def describe_side(snap: CatalogSnapshot) -> str:
    info = snap.server_info
    name = info.get("name") if isinstance(info.get("name"), str) else "(no name)"
    version = info.get("version") if isinstance(info.get("version"), str) else ""
    how = ", ".join(x for x in (snap.era, snap.protocol_version, snap.transport) if x)
    counts = ", ".join(f"{k}: {n}" for k, n in snap.counts().items())
    return f"{_q(str(name))} {_q(str(version))} ({how}): {counts}"


def item_lines(
    item: ItemDiff,
    head: str,
    *,
    max_changes: int,
    hint: str = "hint: {}",
    more: str = " (--json has all)",
) -> list[str]:
    """One item's difference as text: `head` (its mark and name, the changed fields
    added), its hint (`hint` formats it), and at most `max_changes` of its changes, with
    `… N more change(s)` and `more` after them. The `diff` command's report and watch
    mode's write it this way, each with its own head."""
    if item.status == "changed":
        head += ": " + ", ".join(item.fields)
    lines = [head]
    if item.hint:
        lines.append("      " + hint.format(item.hint))
    shown = item.changes[:max_changes]
    lines += [f"      {c.describe()}" for c in shown]
    if len(item.changes) > len(shown):
        lines.append(f"      … {len(item.changes) - len(shown)} more change(s){more}")
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
            head = f"  {MARK[item.status]} {item.status} {_NOUN[item.kind]} {_q(item.key)}"
            lines += item_lines(item, head, max_changes=max_changes)
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
