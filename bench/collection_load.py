"""Benchmark: loading a big collection (10,000 calls, each with a ~1 KB snapshot, about
17 MB) against a floor measured in the same run: `json.loads` of the same text (the C
parser alone). A valid file takes the fast path (the C parser, then the checks); only a
file with an error is parsed again with positions, for its line number.

    python bench/collection_load.py [--runs 3] [--calls 10000]

Reports the ratio of each to the floor (best of --runs); goal: a valid file within 5x the
floor, an invalid one (error in the last call) within 25x.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from inspector.collections.file import CollectionError, loads_collection


def _text(calls: int, broken: bool) -> str:
    entries = [
        {
            "name": f"call {i}",
            "kind": "tool",
            "tool": "echo",
            "arguments": {"message": "x" * 50},
            "assert": [
                {"pointer": "/content/0/text", "equals": "x" * 50},
                {"snapshot": {"content": [{"type": "text", "text": "y" * 800}]}},
            ],
        }
        for i in range(calls)
    ]
    if broken:
        entries[-1]["assert"].append({"pointer": "no-slash", "equals": 1})  # type: ignore[attr-defined]
    return json.dumps({"version": 1, "name": "big", "calls": entries}, indent=2)


def _best(runs: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _load_broken(text: str) -> None:
    try:
        loads_collection(text, "big.json")
    except CollectionError as exc:
        assert exc.line is not None
        return
    raise AssertionError("the broken collection loaded")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=10_000)
    args = parser.parse_args()
    good, bad = _text(args.calls, False), _text(args.calls, True)
    floor = _best(args.runs, lambda: json.loads(good))
    valid = _best(args.runs, lambda: loads_collection(good, "big.json"))
    invalid = _best(args.runs, lambda: _load_broken(bad))
    print(f"{args.calls} calls, {len(good) / 1e6:.1f} MB")
    print(f"floor json.loads:      {floor * 1000:8.1f} ms")
    print(f"valid collection:      {valid * 1000:8.1f} ms  ratio {valid / floor:5.2f} (goal <= 5)")
    ratio = invalid / floor
    print(f"invalid (line found):  {invalid * 1000:8.1f} ms  ratio {ratio:5.2f} (goal <= 25)")


if __name__ == "__main__":
    main()
