"""Benchmark: finding a server.json problem's place in the text (`place_of`, run on the GUI
thread when a problem is clicked) in the biggest text the import reads (a registry page just
under 4 MiB), against a floor measured in the same run: `json.loads` of the same text (the C
parser alone). The pointer is the last entry's version, the worst case: the scanner walks down
its way in Python and skips every other value with the json module's C scanner.

    python bench/json_place.py [--runs 3]

Reports the ratio to the floor (best of --runs); goal: within 3x the floor.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from inspector.registry.json_place import place_of
from inspector.registry.schema import MAX_BYTES


def _page() -> tuple[str, str]:
    entry = {
        "server": {
            "name": "io.github.example/server",
            "description": "d" * 80,
            "version": "1.0.0",
            "packages": [
                {
                    "registryType": "npm",
                    "identifier": "example",
                    "version": "1.0.0",
                    "transport": {"type": "stdio"},
                    "environmentVariables": [{"name": "KEY", "isSecret": True}],
                }
            ],
        },
        "_meta": {},
    }
    one = len(json.dumps({"servers": [entry]}, indent=2))
    count = int(MAX_BYTES * 0.99) // one
    text = json.dumps({"servers": [entry] * count}, indent=2)
    return text, f"/servers/{count - 1}/server/packages/0/version"


def _best(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text, where = _page()
    assert len(text) <= MAX_BYTES, len(text)
    span = place_of(text, where)
    assert span is not None and text[span[0] : span[1]] == '"1.0.0"', span
    floor = _best(args.runs, lambda: json.loads(text))
    found = _best(args.runs, lambda: place_of(text, where))
    print(f"a registry page of {len(text) / 1e6:.1f} MB, the last entry's version")
    print(f"floor json.loads:  {floor * 1000:8.1f} ms")
    print(f"place_of:          {found * 1000:8.1f} ms  ratio {found / floor:5.2f} (goal <= 3)")


if __name__ == "__main__":
    main()
