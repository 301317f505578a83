"""What the traffic log view shows (`TrafficFilter`), and the text matching the log's fast
search shares with it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Protocol

__all__ = ["NOISE_METHODS", "FilterableEntry", "TrafficFilter", "caseless_key", "text_hit"]


class FilterableEntry(Protocol):
    """What a filter reads of a log row (`TrafficEntry` has it)."""

    @property
    def direction(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def method(self) -> str | None: ...

    @property
    def raw(self) -> str | bytes: ...


# Noise a user usually hides: keep-alives and progress (and the answers to pings).
NOISE_METHODS: Final = frozenset({"ping", "notifications/progress"})


@dataclass(frozen=True, slots=True)
class TrafficFilter:
    """What the log view shows. Empty fields match everything.

    `method` is a case-insensitive substring of the method; `text` a substring of the raw
    text, case-insensitive when it is all lower case ("smart case", as in ripgrep).
    """

    directions: frozenset[str] | None = None
    kinds: frozenset[str] | None = None
    method: str = ""
    text: str = ""
    hide_noise: bool = False
    exclude_methods: frozenset[str] = field(default_factory=frozenset)

    @property
    def active(self) -> bool:
        return bool(
            self.directions is not None
            or self.kinds is not None
            or self.method
            or self.text
            or self.hide_noise
            or self.exclude_methods
        )

    def excluded(self) -> frozenset[str]:
        return self.exclude_methods | NOISE_METHODS if self.hide_noise else self.exclude_methods

    def matches(self, entry: FilterableEntry) -> bool:
        if self.directions is not None and entry.direction not in self.directions:
            return False
        if self.kinds is not None and entry.kind not in self.kinds:
            return False
        method = entry.method
        if method in self.excluded():
            return False
        if self.method and (method is None or self.method.lower() not in method.lower()):
            return False
        return not self.text or text_hit(self.text)(entry.raw)


def text_hit(needle: str) -> Callable[[str | bytes], bool]:
    fold = needle == needle.lower()
    needle_b = needle.encode("utf-8", "replace")

    def hit(raw: str | bytes) -> bool:
        if isinstance(raw, str):
            return needle in (raw.lower() if fold else raw)
        return needle_b in (raw.lower() if fold else raw)

    return hit


def caseless_key(needle: str) -> str:
    """The longest run of the needle's characters that have no case (at least 2 long)."""
    best = ""
    run: list[str] = []
    for ch in needle + "A":
        if ch.lower() == ch.upper():
            run.append(ch)
            continue
        if len(run) > len(best):
            best = "".join(run)
        run = []
    return best if len(best) >= 2 else ""
