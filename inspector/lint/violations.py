"""The session's protocol violations as lint findings: one list, one count.

The session flags what only a live exchange shows (a JSON-RPC batch where the version has
none, a request before `initialized`, progress for a token no request holds, ...); the
linter flags what a message's text shows. Both are rules the server broke, so both land in
the same `LintStore`, the session's under `protocol.<rule>`. A violation the linter finds
on the same message under a rule of its own (an unknown method, a missing
server/discover) is counted once, as the linter's finding.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from inspector.lint.finding import Finding

__all__ = ["PREFIX", "is_violation", "violation_finding", "without_duplicates"]

PREFIX: Final = "protocol."

# the session's rule -> the spec section it comes from
_SPEC: Final[dict[str, str]] = {
    "batch": "basic § JSON-RPC: batches exist only in 2025-03-26",
    "lifecycle": "basic/lifecycle § Initialization: only ping and logging before initialized",
    "undeclared-capability": "basic/lifecycle § Capability negotiation",
    "progress": "basic/utilities/progress: progressToken and progress are required",
    "progress-token": "basic/utilities/progress: only for a token of an active request",
    "server-cancel": "2026-07-28 basic/utilities/cancellation: servers end only "
    "subscriptions/listen this way",
    "modern-no-server-requests": "2026-07-28: servers send no requests (input_required)",
    "mrtr-method": "2026-07-28 input_required: only where the method allows it",
    "invalid-unicode": "basic § JSON-RPC: JSON text is valid Unicode (RFC 8259 § 8.2)",
    "task-undeclared": "tasks: a task only for a request that asked for one",
    "resultType": "2026-07-28: resultType is complete or input_required",
    "unknown-server-request": "schema.json: the version's ServerRequest",
    "unknown-notification": "schema.json: the version's ServerNotification",
    "version": "schema.json: the version's ServerRequest",
    "discover": "2026-07-28 server/discover: servers MUST implement it",
}
# the session's rule -> the linter's rule that flags the same fault on the same message
_SAME_AS: Final[dict[str, str]] = {
    "unknown-server-request": "unknown-method",
    "unknown-notification": "unknown-method",
    "version": "unknown-method",
    "discover": "discover-missing",
}


def violation_finding(index: int, rule: str, message: str, version: str | None) -> Finding:
    """The finding of a violation the session reported at traffic row `index`."""
    return Finding(
        index=index,
        rule=PREFIX + rule,
        message=message,
        where=_SPEC.get(rule, ""),
        version=version or "",
    )


def is_violation(finding: Finding) -> bool:
    """A finding the session reported (its warning is said already, e.g. on stderr)."""
    return finding.rule.startswith(PREFIX)


def without_duplicates(violations: Iterable[Finding], linted: Iterable[Finding]) -> list[Finding]:
    """The violations of one row, less those the linter found on that row by a rule of its
    own."""
    found = {f.rule for f in linted}
    return [v for v in violations if _SAME_AS.get(v.rule.removeprefix(PREFIX)) not in found]
