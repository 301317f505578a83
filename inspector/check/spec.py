"""How a check is declared: its id, what it checks, the spec rule, and its function."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.check.report import Status

if TYPE_CHECKING:
    from inspector.check.probe import CheckContext

__all__ = ["Check", "Outcome", "Skip", "fail", "ok", "skip", "warn"]

Outcome = tuple[Status, str]


class Skip(Exception):
    """Raised inside a check: it does not apply (the reason is the message)."""


def ok(evidence: str = "") -> Outcome:
    return Status.PASSED, evidence


def fail(evidence: str) -> Outcome:
    return Status.FAILED, evidence


def skip(reason: str) -> Outcome:
    return Status.SKIPPED, reason


def warn(evidence: str) -> Outcome:
    """Advisory: a draft's rule broken (shown with its evidence; the run does not fail)."""
    return Status.WARNED, evidence


@dataclass(frozen=True)
class Check:
    id: str
    title: str
    rule: str
    run: Callable[[CheckContext], Awaitable[Outcome]]
    transport: str = ""  # "stdio" / "http": only on that transport
    era: str = ""  # "legacy" / "modern": only in that era
