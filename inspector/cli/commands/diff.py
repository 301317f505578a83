"""`mcp-inspector-qt diff`: two servers' catalogs, listed concurrently, compared.

A URL side's HTTP headers come from `--header` (both sides) and `--left-header` /
`--right-header` (one side), over a `profile:NAME` side's own; a stdio side takes none.

Either side may be a saved one instead (`inspector.compare.baseline`): a catalog baseline
written by `diff --write-baseline FILE --left TARGET`, or a session file. A kind a session
never listed is left out of the comparison, and the command says so.

Exit codes: 0 the same (or the baseline written), 1 they differ, 2 usage or an unreadable
saved side, 3 a side could not be reached or died while listing (the message names the side
and says why; the other side's listing is still printed), 5 a side ran out of time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from inspector.cli.arg_words import header_values
from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.reports import print_json, print_text
from inspector.compare import (
    CatalogSnapshot,
    Side,
    TargetError,
    describe_side,
    diff_catalogs,
    diff_json_report,
    diff_text,
    fetch_side,
    ignore_rules,
    profile_for_target,
)
from inspector.compare.baseline import (
    BaselineError,
    SavedSide,
    load_saved_side,
    names_a_file,
    write_baseline,
)
from inspector.compare.snapshot import IDENTITY
from inspector.features.catalog.lists import KINDS
from inspector.recording.diff import IgnoreRules
from inspector.settings.profiles import HeaderEntry, Profile, ProfileStore
from inspector.storage.secrets import SecretStore

__all__ = ["run"]

EXIT_SAME, EXIT_DIFFER, EXIT_UNREACHABLE, EXIT_TIMEOUT = 0, 1, 3, 5


def _profiles(
    ns: argparse.Namespace, saved: dict[str, SavedSide]
) -> tuple[dict[str, Profile], SecretStore | None]:
    """The live sides' profiles, by side name (the saved sides are not among them)."""
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")
    live = [
        (name, target, era)
        for name, target, era in (
            ("left", ns.left, ns.left_era),
            ("right", ns.right, ns.right_era),
        )
        if target is not None and name not in saved
    ]
    needs_store = any(t.strip().startswith("profile:") for _n, t, _e in live)
    secrets = SecretStore() if needs_store else None
    store = ProfileStore(secrets=secrets) if needs_store else None
    sides: dict[str, Profile] = {}
    for name, target, era in live:
        try:
            profile = profile_for_target(
                target, era=era or ns.era, timeout=ns.timeout, profiles=store
            )
        except TargetError as exc:
            raise UsageError(f"--{name}: {exc}") from None
        sides[name] = _with_headers(profile, name, ns)
    return sides, secrets


def _saved_sides(ns: argparse.Namespace) -> dict[str, SavedSide]:
    """The sides that name a baseline or session file, read (a usage error when one
    cannot be: the message names the file and says why)."""
    saved: dict[str, SavedSide] = {}
    for name, target in (("left", ns.left), ("right", ns.right)):
        if target is None or not names_a_file(target):
            continue
        for flag in (f"--{name}-header", f"--{name}-era"):
            if getattr(ns, flag[2:].replace("-", "_")):
                raise UsageError(f"{flag} is for a server, but --{name} is a saved file")
        try:
            saved[name] = load_saved_side(target)
        except BaselineError as exc:
            raise UsageError(f"--{name}: {exc}") from None
        for note in saved[name].notes:
            diag(f"note: --{name} {saved[name].path}: {note}")
    return saved


def _leave_out_unlisted(
    saved: dict[str, SavedSide], left: CatalogSnapshot, right: CatalogSnapshot
) -> None:
    """A kind a saved session never listed is compared on neither side (said on stderr)."""
    for name, side in saved.items():
        for kind in sorted(side.unlisted):
            diag(f"note: {kind} not compared: the {name} session ({side.path}) never listed them")
            for snap in (left, right):
                snap.items(kind).clear()
                snap.errors.pop(kind, None)
                snap.incomplete.pop(kind, None)


def _with_headers(profile: Profile, side: str, ns: argparse.Namespace) -> Profile:
    """`profile` with the command line's headers for `side`: `--header` first, then the
    side's own `--<side>-header` (a later name wins, case-insensitively, over the
    profile's header of the same name). A stdio side takes none: a usage error."""
    own: list[str] = getattr(ns, f"{side}_header")
    headers = header_values(ns.header, "--header")
    for key, value in header_values(own, f"--{side}-header").items():
        headers = {k: v for k, v in headers.items() if k.lower() != key.lower()}
        headers[key] = value
    if not headers:
        return profile
    if profile.transport != "http":
        given = f"--{side}-header" if own else "--header"
        raise UsageError(
            f"{given} is for an HTTP server, but the {side} side is a stdio command "
            f"(a stdio server takes env and cwd: save a profile, --{side} profile:NAME)"
        )
    names = {k.lower() for k in headers}
    kept = [h for h in profile.http.headers if h.name.strip().lower() not in names]
    added = [HeaderEntry(name=k, value=v) for k, v in headers.items()]
    http = profile.http.model_copy(update={"headers": [*kept, *added]})
    return profile.model_copy(update={"http": http})


def _rules(ns: argparse.Namespace) -> IgnoreRules:
    try:
        return ignore_rules(ns.ignore)
    except ValueError as exc:
        raise UsageError(f"--ignore: {exc}") from None


def _listing(snap: CatalogSnapshot) -> list[str]:
    """One side's catalog by name, for when there is nothing to compare it with."""
    lines = [describe_side(snap)]
    for kind in KINDS:
        keys = [item.get(IDENTITY[kind]) for item in snap.items(kind)]
        if keys:
            lines.append(f"  {kind}: " + ", ".join(json.dumps(k, ensure_ascii=False) for k in keys))
    return lines


def _side_json(side: Side) -> dict[str, Any]:
    return {
        "outcome": side.outcome,
        "error": side.error,
        "snapshot": side.snapshot.to_json() if side.snapshot is not None else None,
    }


def _exit_for(left: Side, right: Side) -> int | None:
    """The exit code when a side failed (unreachable before timeout), else None."""
    outcomes = {left.outcome, right.outcome}
    if "unreachable" in outcomes or any(s.error for s in (left, right) if s.outcome == "listed"):
        return EXIT_UNREACHABLE
    if "timeout" in outcomes:
        return EXIT_TIMEOUT
    return None


def _report_failure(ns: argparse.Namespace, left: Side, right: Side, labels: dict[str, str]) -> int:
    code = _exit_for(left, right)
    assert code is not None
    failed = [s for s in (left, right) if not s.ok]
    both_listed = left.snapshot is not None and right.snapshot is not None
    if ns.json:
        report: dict[str, Any] = {
            "same": False,
            "left": _side_json(left),
            "right": _side_json(right),
        }
        if both_listed:
            assert left.snapshot is not None and right.snapshot is not None
            report["diff"] = diff_json_report(
                diff_catalogs(left.snapshot, right.snapshot, _rules(ns))
            )
        print_json(report)
    elif both_listed:
        assert left.snapshot is not None and right.snapshot is not None
        diff = diff_catalogs(left.snapshot, right.snapshot, _rules(ns))
        print_text(diff_text(diff))
    else:
        for side in (left, right):
            if side.snapshot is not None:
                print_text(f"{side.name}: " + "\n".join(_listing(side.snapshot)))
    for side in failed:
        what = {
            "unreachable": "could not be reached",
            "timeout": "timed out",
            "listed": "failed while listing",
        }[side.outcome]
        diag(f"error: the {side.name} side ({labels[side.name]}) {what}: {side.error}")
    return code


async def _write_baseline(ns: argparse.Namespace) -> int:
    """`--write-baseline FILE --left TARGET`: list the left side, write its catalog."""
    if ns.right is not None:
        raise UsageError("--write-baseline takes --left only (the server to pin), no --right")
    if ns.ignore:
        raise UsageError("--ignore is for a comparison: a baseline keeps the whole catalog")
    target = Path(ns.write_baseline).expanduser()
    if target.is_dir():
        raise UsageError(f"--write-baseline: {target} is a folder; name a file")
    saved = _saved_sides(ns)
    if "left" in saved:
        side = saved["left"]
        snap, label = side.snapshot, side.label
    else:
        profiles, secrets = _profiles(ns, saved)
        from inspector.compare import target_label

        label = target_label(profiles["left"])
        listed = await fetch_side("left", profiles["left"], timeout=ns.timeout, secrets=secrets)
        if not listed.ok or listed.snapshot is None:
            code = _exit_for(listed, Side("right", "listed"))
            what = {"unreachable": "could not be reached", "timeout": "timed out"}.get(
                listed.outcome, "failed while listing"
            )
            diag(f"error: the left side ({label}) {what}: {listed.error}; no baseline written")
            return code if code is not None else EXIT_UNREACHABLE
        snap = listed.snapshot
    try:
        size = write_baseline(target, snap, label)
    except OSError as exc:
        raise CommandFailed(
            f"error: cannot write the baseline to {target}: {exc.strerror or exc}", EXIT_USAGE
        ) from None
    counts = ", ".join(f"{k}: {n}" for k, n in snap.counts().items())
    diag(f"wrote the baseline of {label} to {target} ({size:,} bytes: {counts})")
    return EXIT_SAME


async def _run(ns: argparse.Namespace) -> int:
    if ns.write_baseline is not None:
        return await _write_baseline(ns)
    if ns.right is None:
        raise UsageError("--right is required (or --write-baseline FILE to save the left side)")
    saved = _saved_sides(ns)
    profiles, secrets = _profiles(ns, saved)
    rules = _rules(ns)
    from inspector.compare import target_label

    labels = {name: side.label for name, side in saved.items()}
    labels.update({name: target_label(p) for name, p in profiles.items()})
    fetched = await asyncio.gather(
        *(fetch_side(name, p, timeout=ns.timeout, secrets=secrets) for name, p in profiles.items())
    )
    sides = {side.name: side for side in fetched}
    sides.update({name: Side(name, "listed", s.snapshot) for name, s in saved.items()})
    left, right = sides["left"], sides["right"]
    if not (left.ok and right.ok):
        return _report_failure(ns, left, right, labels)
    assert left.snapshot is not None and right.snapshot is not None
    _leave_out_unlisted(saved, left.snapshot, right.snapshot)
    diff = diff_catalogs(left.snapshot, right.snapshot, rules)
    if ns.json:
        print_json(diff_json_report(diff))
    else:
        print_text(diff_text(diff))
    if diff.same:
        return EXIT_SAME
    if not diff.complete:
        diag("warning: a listing is incomplete (see above); the catalogs are not called the same")
    return EXIT_DIFFER


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt diff", parser, lambda: asyncio.run(_run(ns)))
