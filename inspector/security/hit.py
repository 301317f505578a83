"""What a rule returns for one string: the finding at a span of it (shared by the rules)."""

from __future__ import annotations

from inspector.security.finding import SecurityFinding, Severity, evidence
from inspector.security.strings import Text

__all__ = ["finding_at"]


def finding_at(
    server: str,
    text: Text,
    rule: str,
    severity: Severity,
    span: tuple[int, int],
    reason: str,
    spec: str = "",
) -> SecurityFinding:
    """The finding for `text.text[start:end]`, its evidence made visible."""
    start, end = span
    where = "the name of a member" if text.is_key else ""
    return SecurityFinding(
        rule=rule,
        severity=severity,
        server=server,
        kind=text.kind,
        item=text.item,
        field=text.field,
        pointer=text.pointer,
        offset=start,
        evidence=evidence(text.text, start, end),
        reason=f"{reason} (in {where})" if where else reason,
        spec=spec,
    )
