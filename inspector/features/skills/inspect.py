"""One skill inspected: its SKILL.md read through the caller's `read` (a resources/read),
size-capped, decoded, split, and every rule's findings together.

The text is untrusted and may be huge: at most `MAX_SKILL_CHARS` characters are kept,
parsed and shown; a bigger SKILL.md is a finding (an agent loads the whole file when the
skill is activated: the Agent Skills spec recommends under 500 lines, under 5000 tokens).
A read that fails, or a result without text, is a finding too; nothing here raises.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.features.resource_content import BlobDecodeError, format_size, parse_read_result
from inspector.features.skills.discovery import SkillEntry
from inspector.features.skills.findings import Severity, SkillFinding
from inspector.features.skills.frontmatter import Frontmatter, split_frontmatter
from inspector.features.skills.rules import (
    body_findings,
    frontmatter_findings,
    listing_findings,
    resource_findings,
)

__all__ = [
    "MAX_SKILL_CHARS",
    "Reader",
    "SkillReport",
    "inspect_skill",
    "inspect_text",
    "read_text",
]

MAX_SKILL_CHARS: Final = 1024 * 1024  # our bound: what is kept, parsed and shown
_READ: Final = "MCP § resources/read"

Reader = Callable[[str], Awaitable[dict[str, Any]]]


@dataclass
class SkillReport:
    skill: SkillEntry
    text: str = ""  # the SKILL.md (its first MAX_SKILL_CHARS characters)
    size: int = 0  # characters the server sent
    front: Frontmatter | None = None
    findings: list[SkillFinding] = field(default_factory=list)
    read_error: str | None = None

    @property
    def cut(self) -> bool:
        return self.size > len(self.text)

    @property
    def fields(self) -> dict[str, Any]:
        return self.front.fields or {} if self.front is not None else {}

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    def verdict(self) -> str:
        """ "2 errors, 1 warning" / "conforms" / "could not be read"."""
        if self.read_error is not None:
            return "could not be read"
        parts = []
        for severity in Severity:
            n = self.count(severity)
            if n:
                parts.append(f"{n} {severity.value}{'s' if n != 1 else ''}")
        return ", ".join(parts) if parts else "conforms"


def inspect_text(skill: SkillEntry, text: str) -> SkillReport:
    """The findings of a SKILL.md's text (already read)."""
    report = SkillReport(skill, text[:MAX_SKILL_CHARS], len(text))
    if report.cut:
        report.findings.append(
            SkillFinding(
                Severity.WARNING,
                "size",
                f"SKILL.md is {format_size(len(text))} of text, over the "
                f"{format_size(MAX_SKILL_CHARS)} this inspector reads (only the start is "
                "shown and checked); an agent loads the whole file when the skill is used",
                "Agent Skills spec § Progressive disclosure: under 5000 tokens recommended",
            )
        )
    front = split_frontmatter(report.text)
    report.front = front
    report.findings += frontmatter_findings(front, skill)
    report.findings += body_findings(front)
    report.findings += resource_findings(skill, front.fields)
    raw = None if report.cut else text.encode("utf-8", "surrogatepass")
    report.findings += listing_findings(skill, front.fields, raw)
    order = list(Severity)
    report.findings.sort(key=lambda f: order.index(f.severity))
    return report


def read_text(result: Any, uri: str) -> tuple[str | None, str | None]:
    """A skill file's text from its resources/read result (its first text part, or a blob
    decoded as UTF-8), or why there is none."""
    read = parse_read_result(result, uri)
    for part in read.parts:
        if part.kind == "text" and part.text is not None:
            return part.text, None
        if part.kind == "blob":
            if part.size > MAX_SKILL_CHARS * 4:
                return None, f"the file came as a blob of {part.size_text}, too big to read"
            try:
                return part.decode().decode("utf-8", "replace"), None
            except BlobDecodeError as exc:
                return None, f"the file came as a blob that is not base64: {exc}"
    problems = "; ".join(read.all_problems) or "no text"
    return None, f"the read result holds no text: {problems}"


async def inspect_skill(skill: SkillEntry, read: Reader) -> SkillReport:
    """Read `skill`'s SKILL.md with `read(uri)` and inspect it."""
    try:
        result = await read(skill.uri)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # a server's failure is a finding, never a crash
        return _unreadable(skill, f"could not read SKILL.md: {exc}")
    text, why = read_text(result, skill.uri)
    if text is None:
        return _unreadable(skill, why or "no text")
    return inspect_text(skill, text)


def _unreadable(skill: SkillEntry, why: str) -> SkillReport:
    finding = SkillFinding(Severity.ERROR, "read", why, _READ)
    return SkillReport(skill, findings=[finding], read_error=why)
