"""A finding about a skill: how bad, which field, a sentence a person reads, and the rule
it comes from."""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Severity", "SkillFinding"]


class Severity(enum.StrEnum):
    """`error`: a MUST of the rules is broken (the skill does not conform). `warning`: a
    SHOULD is broken, or the text hides something. `note`: worth knowing, not wrong."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class SkillFinding:
    severity: Severity
    field: str  # "name", "description", "frontmatter", "body", "uri", "resource", ...
    sentence: str  # plain text; a server's text in it is already made visible
    rule: str  # where the rule comes from, e.g. "Agent Skills spec § name field"

    def line(self) -> str:
        """One line: "error  name: …"."""
        return f"{self.severity.value}  {self.field}: {self.sentence}"
