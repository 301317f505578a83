"""Compare two servers' catalogs, Qt-free: snapshots, their structural diff, reports.

The API (for the `diff` command, the compare window and watch mode)::

    snap = await snapshot_from_session(session)      # lists every kind, all pages
    snap = snapshot_from_connection(conn)           # a ConnectionModel's loaded catalog
    snap = snapshot_from_catalog(conn.catalog, session)  # the same, session's header
    snap = CatalogSnapshot.from_json(data)           # and snap.to_json()
    diff = diff_catalogs(left, right, ignore_rules(["/serverInfo/version"]))
    diff.same                       # nothing differs and both listings are complete
    diff.info                       # [Change] in serverInfo / capabilities / instructions
    diff.differences                # [ItemDiff]: kind, key, status (added/removed/changed),
                                    #   changes ([Change]: JSON Pointer, old, new), fields,
                                    #   hint (look-alike names: case, gateway namespace)
    diff.items / diff.of_kind(k) / diff.find(k, key)   # "same" items too
    diff_text(diff) / diff_json_report(diff)            # the `diff` command's outputs
    side = await fetch_side("left", profile, timeout=30)  # connect, list, close (never
    left, right = await fetch_both(p1, p2, timeout=30)    #   raises for the server's sake)
    both = await run_on_both(left_session, right_session, "tool", "echo", {"text": "hi"})
    both.left / both.right (SideAnswer: result | error, seconds), both.changes ([Change])
    profile = profile_for_target("profile:NAME" | URL | "cmd args", era=..., profiles=store)

Items are matched by name / URI / URI template, never by position. `Change` is the replay
diff's (`inspector.recording.diff`); ignore paths are JSON Pointers into
`{serverInfo, capabilities, instructions, tools: {NAME: def}, resources: {URI: def},
resourceTemplates: {URI_TEMPLATE: def}, prompts: {NAME: def}}`. Era, protocol version and
transport are context, never a difference.
"""

from inspector.compare.catalog_diff import (
    CatalogDiff,
    ItemDiff,
    Status,
    diff_catalogs,
    ignore_rules,
    item_key,
)
from inspector.compare.live import Side, SideOutcome, fetch_both, fetch_side
from inspector.compare.report import describe_side, diff_json_report, diff_text
from inspector.compare.run_both import BothResult, RunKind, SideAnswer, run_on_both
from inspector.compare.snapshot import (
    CatalogSnapshot,
    HasCatalog,
    snapshot_from_catalog,
    snapshot_from_connection,
    snapshot_from_session,
)
from inspector.compare.targets import TargetError, profile_for_target, target_label

__all__ = [
    "BothResult",
    "CatalogDiff",
    "CatalogSnapshot",
    "HasCatalog",
    "ItemDiff",
    "RunKind",
    "Side",
    "SideAnswer",
    "SideOutcome",
    "Status",
    "TargetError",
    "describe_side",
    "diff_catalogs",
    "diff_json_report",
    "diff_text",
    "fetch_both",
    "fetch_side",
    "ignore_rules",
    "item_key",
    "profile_for_target",
    "run_on_both",
    "snapshot_from_catalog",
    "snapshot_from_connection",
    "snapshot_from_session",
    "target_label",
]
