"""What one run of watch mode found: a restart (or the first start, or a re-run on
demand), the catalog's changes against the last run, and the collection's results.

`RunReport.summary()` is the one-line form the GUI strip and the `watch` command show
("restart #3 · 12:01:05 · +1 tool, 1 changed · collection 5/6 passed"); `details()` the
full text; `to_json()` one JSON line of `watch --json`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from inspector.compare import CatalogDiff, CatalogSnapshot
from inspector.compare.report import MARK, item_lines
from inspector.features.catalog.lists import KINDS
from inspector.watch.changes import ChangeBurst

__all__ = [
    "CallOutcome",
    "CollectionSummary",
    "RunReport",
    "Trigger",
    "catalog_lines",
    "catalog_words",
]

Trigger = Literal["start", "change", "rerun"]
_MAX_CHANGES: Final = 10  # per item in the text; --json has them all
_NOUN: Final = {
    "tools": ("tool", "tools"),
    "resources": ("resource", "resources"),
    "templates": ("template", "templates"),
    "prompts": ("prompt", "prompts"),
}


def _n(count: int, kind: str) -> str:
    one, many = _NOUN.get(kind, (kind, kind))
    return f"{count} {one if count == 1 else many}"


@dataclass(frozen=True)
class CallOutcome:
    """One saved call of the collection, run after a restart."""

    name: str
    passed: bool
    outcome: str  # "ok", "isError", "error -32602", "timeout", "skipped", ...
    ms: float | None = None
    failures: tuple[str, ...] = ()  # each failed assertion's message

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "outcome": self.outcome,
            "ms": None if self.ms is None else round(self.ms, 1),
            "failures": list(self.failures),
        }


@dataclass(frozen=True)
class CollectionSummary:
    """The collection's run: its calls, or why it could not run at all."""

    name: str
    calls: tuple[CallOutcome, ...] = ()
    error: str | None = None  # the collection could not be read or run

    @property
    def passed(self) -> int:
        return sum(1 for c in self.calls if c.passed)

    @property
    def ok(self) -> bool:
        return self.error is None and self.passed == len(self.calls)

    def words(self) -> str:
        if self.error is not None:
            return "collection not run"
        return f"collection {self.passed}/{len(self.calls)} passed"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "total": len(self.calls),
            "error": self.error,
            "calls": [c.to_json() for c in self.calls],
        }


def catalog_words(diff: CatalogDiff | None, snapshot: CatalogSnapshot | None) -> str:
    """'+1 tool, −1 prompt, 2 changed', 'no catalog change', or (first run) '5 tools'."""
    if diff is None:
        if snapshot is None:
            return "no catalog"
        parts = [_n(len(snapshot.items(k)), k) for k in KINDS if snapshot.items(k)]
        return ", ".join(parts) or "empty catalog"
    counts = diff.counts()
    words: list[str] = []
    for kind in KINDS:
        if counts[kind]["added"]:
            words.append("+" + _n(counts[kind]["added"], kind))
    for kind in KINDS:
        if counts[kind]["removed"]:
            words.append("−" + _n(counts[kind]["removed"], kind))
    changed = sum(counts[k]["changed"] for k in KINDS)
    if changed:
        words.append(f"{changed} changed")
    if diff.info:
        words.append("server info changed")
    if not words:
        return "no catalog change" if diff.complete else "no change in what was listed"
    return ", ".join(words)


def catalog_json(diff: CatalogDiff | None, snapshot: CatalogSnapshot) -> dict[str, Any]:
    """This run's counts and, from the second run on, what changed since the last good one
    (`differences`: the compare package's items, with their JSON Pointer changes)."""
    out: dict[str, Any] = {
        "counts": {k: len(snapshot.items(k)) for k in KINDS},
        "incomplete": {**snapshot.errors, **snapshot.incomplete},
    }
    if diff is not None:
        out["changes"] = {
            k: {s: n for s, n in v.items() if s != "same"} for k, v in diff.counts().items()
        }
        out["info"] = [c.to_dict() for c in diff.info]
        out["differences"] = [i.to_json() for i in diff.differences]
    return out


def catalog_lines(diff: CatalogDiff) -> list[str]:
    """The catalog's changes since the last run, one line per item (and its changes)."""
    lines: list[str] = []
    for change in diff.info:
        lines.append(f"  ~ server: {change.describe()}")
    for item in diff.differences:
        head = f"  {MARK[item.status]} {_NOUN[item.kind][0]} {item.key}"
        lines += item_lines(item, head, max_changes=_MAX_CHANGES, hint="({})", more="")
    for kind, why in {**diff.right.errors, **diff.right.incomplete}.items():
        lines.append(f"  ! {kind} listing incomplete: {why}")
    return lines


@dataclass
class RunReport:
    """One run: `number` counts restarts (0 is the first start; a re-run keeps the number
    of the server it ran against)."""

    number: int
    trigger: Trigger
    wall: float = field(default_factory=time.time)
    burst: ChangeBurst | None = None
    ok: bool = False
    error: str | None = None  # why the server did not start (or the run failed)
    stderr: list[str] = field(default_factory=list)  # the server's stderr when it failed
    snapshot: CatalogSnapshot | None = None
    catalog: CatalogDiff | None = None  # against the last good run; None the first time
    collection: CollectionSummary | None = None
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Started, and every call of the collection passed (or there is none)."""
        return self.ok and (self.collection is None or self.collection.ok)

    def title(self) -> str:
        clock = time.strftime("%H:%M:%S", time.localtime(self.wall))
        head = {"start": "start", "change": f"restart #{self.number}", "rerun": "re-run"}
        return f"{head[self.trigger]} · {clock}"

    def summary(self) -> str:
        parts = [self.title()]
        if not self.ok:
            parts.append(f"failed: {self.error or 'the server did not start'}")
            parts.append("waiting for the next change" if self.trigger != "rerun" else "")
            return " · ".join(p for p in parts if p)
        parts.append(catalog_words(self.catalog, self.snapshot))
        if self.collection is not None:
            parts.append(self.collection.words())
        return " · ".join(parts)

    def details(self) -> str:
        """Everything, as plain text: what changed on disk, the catalog diff, each call."""
        lines = [self.summary()]
        if self.burst is not None:
            lines.append(f"changed on disk: {self.burst.describe()}")
            lines += [f"  {action}: {path}" for path, action in self.burst.sample[1:]]
        if not self.ok:
            if self.stderr:
                lines += ["", "the server's stderr:"]
                lines += [f"  {line}" for line in self.stderr]
            return "\n".join(lines)
        if self.catalog is not None:
            changes = catalog_lines(self.catalog)
            lines += ["", "catalog since the last run:" if changes else "catalog: no change"]
            lines += changes
        if self.collection is not None:
            summary = self.collection
            result = summary.words().removeprefix("collection ")
            lines += ["", f"collection {summary.name}: {result}"]
            if summary.error is not None:
                lines.append(f"  {summary.error}")
            for call in summary.calls:
                ms = f" {call.ms:.0f} ms" if call.ms is not None else ""
                lines.append(
                    f"  {'PASS' if call.passed else 'FAIL'} {call.name} ({call.outcome}{ms})"
                )
                lines += [f"      {failure}" for failure in call.failures]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "run": self.trigger,
            "restart": self.number,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(self.wall)),
            "ok": self.ok,
            "seconds": round(self.seconds, 3),
            "summary": self.summary(),
        }
        if self.burst is not None:
            out["changed"] = self.burst.to_json()
        if not self.ok:
            out["error"] = self.error
            out["stderr"] = self.stderr
        if self.snapshot is not None:
            out["catalog"] = catalog_json(self.catalog, self.snapshot)
        if self.collection is not None:
            out["collection"] = self.collection.to_json()
        return out
