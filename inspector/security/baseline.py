"""A baseline: findings accepted on purpose, each with its reason, so that a scan reports
only what is new (`scan --baseline FILE`). Pure: the caller reads the file and hands the
parsed JSON here.

    {"accepted": [{"fingerprint": "...", "rule": "shadow.name-collision",
                   "server": "calc", "item": "calculate", "reason": "both are ours"}]}

An entry matches by fingerprint; `rule`, `server` and `item` are there for the person who
reads the file. An entry without a reason, or not an object, is an error (`BaselineError`,
with where it is): an acceptance nobody explained is not an acceptance. Entries that match
nothing are stale and reported, so the file can be kept short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspector.security.finding import SecurityFinding

__all__ = ["Accepted", "Baseline", "BaselineError", "Filtered"]


class BaselineError(ValueError):
    """The baseline cannot be used: the sentence says where and why."""


@dataclass(frozen=True, slots=True)
class Accepted:
    fingerprint: str
    reason: str
    rule: str = ""
    server: str = ""
    item: str = ""


@dataclass(frozen=True, slots=True)
class Filtered:
    """A scan's findings against a baseline."""

    new: list[SecurityFinding]
    accepted: list[tuple[SecurityFinding, Accepted]]
    stale: list[Accepted]


@dataclass(frozen=True, slots=True)
class Baseline:
    entries: tuple[Accepted, ...] = ()

    @classmethod
    def from_json(cls, data: Any) -> Baseline:
        if not isinstance(data, dict) or not isinstance(data.get("accepted"), list):
            raise BaselineError('a baseline is an object with an "accepted" list')
        entries: list[Accepted] = []
        for index, entry in enumerate(data["accepted"]):
            where = f"accepted[{index}]"
            if not isinstance(entry, dict):
                raise BaselineError(f"{where} is not an object")

            def text(key: str, entry: dict[str, Any] = entry) -> str:
                value = entry.get(key)
                return value.strip() if isinstance(value, str) else ""

            if not text("fingerprint"):
                raise BaselineError(f"{where} has no fingerprint")
            if not text("reason"):
                raise BaselineError(f"{where} has no reason (say why the finding is accepted)")
            entries.append(
                Accepted(
                    text("fingerprint"), text("reason"), text("rule"), text("server"), text("item")
                )
            )
        return cls(tuple(entries))

    @classmethod
    def of(cls, findings: Sequence[SecurityFinding], reason: str) -> Baseline:
        """Every finding accepted with one reason (a first baseline, to be edited)."""
        return cls(
            tuple(Accepted(f.fingerprint(), reason, f.rule, f.server, f.item) for f in findings)
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "accepted": [
                {
                    "fingerprint": a.fingerprint,
                    "rule": a.rule,
                    "server": a.server,
                    "item": a.item,
                    "reason": a.reason,
                }
                for a in self.entries
            ]
        }

    def filter(self, findings: Sequence[SecurityFinding]) -> Filtered:
        by_print = {a.fingerprint: a for a in self.entries}
        used: set[str] = set()
        new: list[SecurityFinding] = []
        accepted: list[tuple[SecurityFinding, Accepted]] = []
        for finding in findings:
            entry = by_print.get(finding.fingerprint())
            if entry is None:
                new.append(finding)
            else:
                used.add(entry.fingerprint)
                accepted.append((finding, entry))
        stale = [a for a in self.entries if a.fingerprint not in used]
        return Filtered(new, accepted, stale)
