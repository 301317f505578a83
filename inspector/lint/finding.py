"""A lint finding, and the store of them that the log's badges, the detail pane, the Lint
tab, the CLI and session files read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from inspector.common.listeners import Listeners, Unsubscribe

__all__ = ["Finding", "LintStore", "describe"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One broken rule in one message.

    `rule` is the id counted in the Lint tab (`schema.required`, `tool-name-format`, ...);
    `pointer` the JSON Pointer into the message; `value` a short rendering of the value
    found there; `where` the schema path or the spec section the rule comes from.
    """

    index: int  # the traffic row (-1: not about one row)
    rule: str
    message: str
    pointer: str = ""
    value: str = ""
    where: str = ""
    version: str = ""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in ("", None)}

    @classmethod
    def from_json(cls, data: dict[str, Any], index: int) -> Finding:
        def text(key: str) -> str:
            value = data.get(key)
            return value if isinstance(value, str) else ""

        return cls(
            index=index,
            rule=text("rule") or "unknown",
            message=text("message"),
            pointer=text("pointer"),
            value=text("value"),
            where=text("where"),
            version=text("version"),
        )

    def line(self) -> str:
        """One line for the CLI and the Errors list."""
        at = f" at {self.pointer}" if self.pointer else ""
        value = f" (value: {self.value})" if self.value else ""
        where = f" [{self.where}]" if self.where else ""
        return f"{self.rule}{at}: {self.message}{value}{where}"


class LintStore:
    """Findings by traffic row, with counts per rule, and how many messages were linted.
    `on_add` listeners hear each batch of findings; `on_change` listeners hear that the
    counts moved (messages linted, findings found), once per batch: a clean server's
    messages change nothing but `checked`, and a view of the counts must still follow.

    A flood that breaks one rule a million times must not cost a million objects: each
    rule keeps its first `keep_per_rule` findings (with their rows' badges); beyond that
    they are only counted (`counts` stays exact, `dropped` says how many were not kept).
    """

    def __init__(self, keep_per_rule: int = 5000) -> None:
        self.keep_per_rule = keep_per_rule
        self.dropped = 0
        self.where: dict[str, str] = {}  # rule -> where its first finding came from
        self.findings: list[Finding] = []
        self._by_index: dict[int, list[Finding]] = {}
        self.counts: Counter[str] = Counter()
        self.checked = 0  # messages linted
        self.deferred: set[int] = set()  # huge rows, linted when viewed
        # rows being linted in slices (big listings): row -> (items done, of total, noun);
        # a total of 0: still being read
        self.progress: dict[int, tuple[int, int, str]] = {}
        self._added: Listeners[[list[Finding]]] = Listeners("lint listener")
        self._changed: Listeners[[]] = Listeners("lint listener")
        self._cleared: Listeners[[]] = Listeners("lint listener")

    def __len__(self) -> int:
        return len(self.findings)

    def on_add(self, listener: Callable[[list[Finding]], None]) -> Unsubscribe:
        return self._added.add(listener)

    def on_change(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._changed.add(listener)

    def on_clear(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._cleared.add(listener)

    def add(self, findings: Iterable[Finding], *, checked: int = 0) -> None:
        """A batch of findings, and `checked`: how many more messages were linted."""
        self.checked += checked
        batch = []
        counted = False
        for finding in findings:
            counted = True
            self.counts[finding.rule] += 1
            if self.counts[finding.rule] > self.keep_per_rule:
                self.dropped += 1
                continue
            self.where.setdefault(finding.rule, finding.where)
            batch.append(finding)
            self.findings.append(finding)
            self._by_index.setdefault(finding.index, []).append(finding)
        if counted:  # listeners hear counts change even when nothing more was kept
            self._added.emit(batch)
        if counted or checked:
            self._changed.emit()

    def set_progress(self, index: int, progress: tuple[int, int, str] | None) -> None:
        """How far the lint of row `index` is (None: done, or given up)."""
        if progress is None:
            if self.progress.pop(index, None) is None:
                return
        else:
            self.progress[index] = progress
        self._changed.emit()

    def progress_text(self, index: int | None = None) -> str:
        """What is being linted in slices ("linting 3,200 of 10,000 tools (row #3)…"),
        of row `index` or of every row; "" when nothing is."""
        rows = sorted(self.progress) if index is None else [index] * (index in self.progress)
        parts = []
        for row in rows:
            done, total, noun = self.progress[row]
            at = "" if index is not None else f" (row #{row})"
            parts.append(
                f"linting {done:,} of {total:,} {noun}{at}…"
                if total
                else f"reading a big listing{at} to lint it…"
            )
        return "; ".join(parts)

    def at(self, index: int) -> list[Finding]:
        return self._by_index.get(index, [])

    def has(self, index: int) -> bool:
        return index in self._by_index

    def rows(self) -> list[int]:
        return sorted(self._by_index)

    def by_rule(self, rule: str) -> list[Finding]:
        return [f for f in self.findings if f.rule == rule]

    def clear(self) -> None:
        self.findings.clear()
        self._by_index.clear()
        self.counts.clear()
        self.where.clear()
        self.dropped = 0
        self.deferred.clear()
        self.progress.clear()
        self.checked = 0
        self._cleared.emit()


def describe(findings: list[Finding]) -> str:
    """The findings of one message as plain text (the detail pane's Lint tab)."""
    blocks = []
    for f in findings:
        lines = [f"⚑ {f.rule}: {f.message}"]
        lines.append(f"  at      {f.pointer or '(the whole message)'}")
        if f.value:
            lines.append(f"  value   {f.value}")
        if f.where:
            lines.append(f"  rule    {f.where}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
