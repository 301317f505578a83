"""Per-method statistics of the traffic log: count, errors, latencies (p50, p95, max)."""

from __future__ import annotations

from array import array

__all__ = ["MethodStats"]


class MethodStats:
    __slots__ = ("count", "errors", "folded", "latencies", "method")

    def __init__(self, method: str) -> None:
        self.method = method
        self.count = 0  # calls: requests, or operations when rounds are folded (operations.py)
        self.errors = 0
        self.folded = 0  # wire requests folded into multi-round operations (MRTR retries)
        self.latencies = array("d")

    @property
    def requests(self) -> int:
        """Requests on the wire: the calls and the extra rounds folded into them."""
        return self.count + self.folded

    def percentile(self, q: float) -> float | None:
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        idx = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
        return ordered[idx]

    @property
    def max_latency(self) -> float | None:
        return max(self.latencies) if self.latencies else None

    def summary(self) -> tuple[float | None, float | None, float | None]:
        """(p50, p95, max) with one sort, for panels that refresh often."""
        if not self.latencies:
            return None, None, None
        ordered = sorted(self.latencies)
        last = len(ordered) - 1

        def pick(q: float) -> float:
            return ordered[min(last, max(0, round(q / 100 * last)))]

        return pick(50), pick(95), ordered[-1]
