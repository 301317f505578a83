"""Benchmark: the structural diff of two large catalogs (issue 11: two servers with
thousands of tools each diff in under a second).

Two catalogs of --tools tools each (realistic definitions: title, description, an
inputSchema with several typed properties, annotations, an outputSchema on some), in
different orders, with --changed tools changed (a description, a schema type, an added
property, annotations), a few added and removed, and server info changed. Measured in the
same run, each the best of --runs:

* `diff_catalogs(left, right)` (items matched by name, structural changes per item);
* the floor: `json.dumps` of both catalogs (what any comparison has to read at least once);
* a second floor: a plain `==` of the two catalogs as name -> definition dicts.

    python bench/catalog_diff.py [--tools 5000] [--changed 10] [--runs 5]

Goal: under a second for 5,000 tools a side; the ratio to the floors says what it costs
on this machine.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from inspector.compare import CatalogSnapshot, diff_catalogs


def tool(i: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": f"service{i % 17}__operation_{i:05d}",
        "title": f"Operation {i}",
        "description": f"Does operation number {i} on the service, with care. " * 3,
        "inputSchema": {
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": "the record id"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
                "mode": {"type": "string", "enum": ["fast", "safe", "dry-run"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "options": {
                    "type": "object",
                    "properties": {"verbose": {"type": "boolean"}, "depth": {"type": "number"}},
                },
            },
            "required": ["id"],
        },
        "annotations": {"readOnlyHint": i % 3 == 0, "idempotentHint": True},
    }
    if i % 4 == 0:
        out["outputSchema"] = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    return out


def catalogs(n: int, changed: int) -> tuple[CatalogSnapshot, CatalogSnapshot]:
    tools = [tool(i) for i in range(n)]
    right = copy.deepcopy(tools)
    rng = random.Random(11)
    rng.shuffle(right)
    for k, t in enumerate(rng.sample(right, changed)):
        match k % 4:
            case 0:
                t["description"] += " Now faster."
            case 1:
                t["inputSchema"]["properties"]["limit"]["type"] = "number"
            case 2:
                t["inputSchema"]["properties"]["extra"] = {"type": "string"}
            case _:
                t["annotations"]["destructiveHint"] = True
    del right[:3]
    right += [tool(n + i) for i in range(3)]
    info = {"name": "big", "version": "1.0"}
    left = CatalogSnapshot(tools=tools, server_info=info, capabilities={"tools": {}})
    return left, CatalogSnapshot(
        tools=right, server_info={**info, "version": "1.1"}, capabilities={"tools": {}}
    )


def best(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--tools", type=int, default=5000)
    parser.add_argument("--changed", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    left, right = catalogs(args.tools, args.changed)
    result = diff_catalogs(left, right)
    counts = result.counts()["tools"]
    assert counts["changed"] == args.changed and counts["added"] == counts["removed"] == 3, counts
    assert [c.path for c in result.info] == ["/serverInfo/version"]

    t_diff = best(lambda: diff_catalogs(left, right), args.runs)
    t_dumps = best(lambda: (json.dumps(left.tools), json.dumps(right.tools)), args.runs)

    def plain() -> bool:
        a = {t["name"]: t for t in left.tools}
        b = {t["name"]: t for t in right.tools}
        return a == b

    t_eq = best(plain, args.runs)
    print(f"{args.tools} tools a side, {args.changed} changed, 3 added, 3 removed")
    print(f"diff_catalogs:             {t_diff * 1000:8.1f} ms")
    print(f"floor json.dumps of both:  {t_dumps * 1000:8.1f} ms   ratio {t_diff / t_dumps:5.1f}x")
    print(f"floor dict == of both:     {t_eq * 1000:8.1f} ms   ratio {t_diff / t_eq:5.1f}x")
    verdict = "under" if t_diff < 1.0 else "OVER"
    print(f"goal: under 1 s for two catalogs of thousands of tools: {verdict} ({t_diff:.3f} s)")
    return 0 if t_diff < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
