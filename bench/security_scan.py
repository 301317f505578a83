"""Benchmark: the security scan's rules over a big catalog (Qt-free, no server).

The real-server corpus's definitions (tests/corpus/definitions.json, 13 servers) copied
until they make N tools (default 10,000: a gateway), each copy renamed, split over two
servers (so the cross-server rules run over all of them), each tool pinned to its own
definition and seen first as it is (the rug pull rule compares every one). The floor, in
the same run: every string of the same definitions visited (`ServerDefinitions.texts`)
and one regular expression searched over each (what any rule must do at least).

    python bench/security_scan.py [--tools 10000] [--runs 3]

Reports tools/s for both and the RATIO scan/floor.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path
from typing import Any

from inspector.security import ServerDefinitions, scan

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "definitions.json"


def catalog(n: int) -> list[ServerDefinitions]:
    recorded = json.loads(CORPUS.read_text(encoding="utf-8"))
    base = [t for entry in recorded.values() for t in entry.get("tools") or []]
    tools: list[dict[str, Any]] = []
    while len(tools) < n:
        for t in base[: n - len(tools)]:
            tools.append({**t, "name": f"{t['name']}_{len(tools)}"})
    half = n // 2
    servers = []
    for name, part in (("left", tools[:half]), ("right", tools[half:])):
        by_name = {t["name"]: t for t in part}
        servers.append(ServerDefinitions(name, tools=part, pinned=by_name, first_seen=by_name))
    return servers


def floor(servers: list[ServerDefinitions]) -> int:
    pattern = re.compile(r"[\u200b-\u200f\u202a-\u202e]|<!--|ignore previous", re.IGNORECASE)
    hits = 0
    for server in servers:
        for t in server.texts():
            hits += len(pattern.findall(t.text))
    return hits


def best(fn: Any, arg: Any, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    ns = parser.parse_args()
    servers = catalog(ns.tools)
    found = scan(servers)
    scan_s = best(scan, servers, ns.runs)
    floor_s = best(floor, servers, ns.runs)
    print(f"{ns.tools} tools over 2 servers, {len(found)} findings")
    print(f"scan:  {scan_s:.3f} s  ({ns.tools / scan_s:,.0f} tools/s)")
    print(f"floor: {floor_s:.3f} s  ({ns.tools / floor_s:,.0f} tools/s)")
    print(f"RATIO scan/floor: {scan_s / floor_s:.1f}")


if __name__ == "__main__":
    main()
