"""A security finding: which rule, how bad, exactly where, what was seen and why it matters."""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from enum import IntEnum
from typing import Any, Literal, TypeAlias

from inspector.common.visible_text import visible_text

__all__ = ["ItemKind", "SecurityFinding", "Severity", "evidence"]

ItemKind: TypeAlias = Literal["tool", "prompt", "resource", "template", "instructions"]


class Severity(IntEnum):
    """Ordered: `--fail-on medium` fails on medium and high."""

    INFO = 0
    LOW = 1
    MEDIUM = 2
    HIGH = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        """`"high"` -> HIGH; ValueError with the choices otherwise."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            choices = ", ".join(s.label for s in cls)
            raise ValueError(f"unknown severity {text!r} (one of {choices})") from None


@dataclass(frozen=True, slots=True)
class SecurityFinding:
    """One rule broken at one place.

    `pointer` is the JSON Pointer into the item's definition (`/inputSchema/properties/path/
    description`; empty for `instructions`); `offset` the index, in code points, of the
    first character of what was found in the string at `pointer` (-1: about the whole item,
    as a name collision). `evidence` is the text around it with hidden characters shown as
    escapes (never the raw text); `spec` the spec section the rule rests on, if any.
    """

    rule: str
    severity: Severity
    server: str
    kind: ItemKind
    item: str
    field: str
    pointer: str
    offset: int
    evidence: str
    reason: str
    spec: str = ""

    def fingerprint(self) -> str:
        """What identifies this finding across runs (a baseline's key, SARIF's
        partialFingerprints): rule, server, kind, item, pointer and evidence, not the offset
        (an edit before it moves it) nor the wording of the reason."""
        parts = (self.rule, self.server, self.kind, self.item, self.pointer, self.evidence)
        return hashlib.sha256("\x00".join(parts).encode("utf-8", "surrogatepass")).hexdigest()[:32]

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["severity"] = self.severity.label
        data["fingerprint"] = self.fingerprint()
        return data

    def line(self) -> str:
        """One line for a report (the item and evidence are already made visible)."""
        # quoted, not repr'd: repr would double the backslash of every escape shown
        where = f"{self.server} {self.kind} '{visible_text(self.item, keep='')}'"
        offset = f" [{self.offset}]" if self.offset >= 0 else ""
        at = f" at {self.pointer or self.field}{offset}"
        head = f"{self.severity.label.upper()} {self.rule} {where}{at}"
        return f"{head}: {self.reason} — {self.evidence}"


def evidence(text: str, start: int, end: int, *, around: int = 40, limit: int = 200) -> str:
    """The text from `around` characters before `start` to `around` after `end`, hidden
    characters made visible, on one line, cut to `limit` characters with `…`."""
    lo, hi = max(0, start - around), min(len(text), end + around, start + limit)
    shown = visible_text(text[lo:hi], keep="")
    if len(shown) > limit:
        shown = shown[: limit - 1] + "…"
    return ("…" if lo > 0 else "") + shown + ("…" if hi < len(text) else "")
