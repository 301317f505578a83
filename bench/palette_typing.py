"""Benchmark: typing in the command palette over 10,000 tools, as a ratio to a floor.

The real `CommandPalette` widget (offscreen) is given N tool entries (gateway style,
`github__create_issue_17`...) and the window's ~60 actions; a query is typed a key at a
time (`QTest.keyClick`: the key event, the filter, the result list's reset, the current
row), then erased with Backspace. Each figure is the median time per keystroke over
--runs runs.

- floor: the same keystrokes into a bare QLineEdit with the same-sized empty result list
  (what Qt costs per key whatever the palette does);
- palette: the palette over N entries (matching narrows the previous query's matches;
  Backspace reuses the kept matches);
- from scratch: the same with a fresh index per keystroke (every key matches all N
  titles again), to show what narrowing saves;
- opening: `set_entries` with N entries (folding the titles, the first list).

    QT_QPA_PLATFORM=offscreen python bench/palette_typing.py [--entries 10000] [--runs 5]

Goal: a keystroke well under a frame at 60 Hz on 10,000 entries (< 16 ms); the ratio to
the floor is what the palette adds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLineEdit

from inspector.ui.palette.entries import PaletteEntry
from inspector.ui.palette.palette_dialog import CommandPalette, PaletteModel

QUERIES = ("create issue 42", "gh cr", "slack post")
NS = ("github", "slack", "jira", "gdrive", "postgres", "k8s", "aws", "notion")
VERBS = ("create_issue", "post_message", "list_files", "query", "get_pod", "put_object")


def _entries(n: int) -> list[PaletteEntry]:
    actions = [PaletteEntry(f"Menu: Action number {i}", "Action", lambda: None) for i in range(60)]
    tools = [
        PaletteEntry(f"{NS[i % len(NS)]}__{VERBS[i % len(VERBS)]}_{i}", "Tool", lambda: None)
        for i in range(n)
    ]
    return actions + tools


def _keystrokes(edit: QLineEdit, query: str) -> list[float]:
    """Seconds per key: the query typed, then erased."""
    times: list[float] = []
    for ch in query:
        start = time.perf_counter()
        QTest.keyClick(edit, ch)
        times.append(time.perf_counter() - start)
    for _ in query:
        start = time.perf_counter()
        QTest.keyClick(edit, Qt.Key.Key_Backspace)
        times.append(time.perf_counter() - start)
    return times


def _median_ms(run: Callable[[], list[float]], runs: int) -> float:
    samples: list[float] = []
    for _ in range(runs):
        samples.extend(run())
    return statistics.median(samples) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    QApplication.instance() or QApplication([])
    entries = _entries(args.entries)

    floor_edit = QLineEdit()
    floor_model = PaletteModel()
    floor_edit.textChanged.connect(lambda _t: floor_model.set_rows([]))
    floor_edit.show()

    def floor() -> list[float]:
        floor_edit.clear()
        return [t for q in QUERIES for t in _keystrokes(floor_edit, q)]

    palette = CommandPalette()
    palette.show()
    opening: list[float] = []

    def typed() -> list[float]:
        start = time.perf_counter()
        palette.set_entries(entries)
        opening.append(time.perf_counter() - start)
        return [t for q in QUERIES for t in _keystrokes(palette.edit, q)]

    scratch = CommandPalette()
    scratch.show()
    scratch.set_entries(entries)
    original = scratch.filter

    def refilter(text: str) -> None:
        scratch.index._chain.clear()  # forget every earlier query: match all titles again
        original(text)

    scratch.edit.textChanged.disconnect()
    scratch.edit.textChanged.connect(refilter)

    def from_scratch() -> list[float]:
        return [t for q in QUERIES for t in _keystrokes(scratch.edit, q)]

    floor_ms = _median_ms(floor, args.runs)
    palette_ms = _median_ms(typed, args.runs)
    scratch_ms = _median_ms(from_scratch, args.runs)
    open_ms = statistics.median(opening) * 1000
    n = len(entries)
    print(f"entries: {n:,}; keystrokes per run: {2 * sum(len(q) for q in QUERIES)}")
    print(f"floor (bare line edit):      {floor_ms:7.3f} ms/key")
    for name, ms in (("palette (narrowing):", palette_ms), ("palette (from scratch):", scratch_ms)):
        print(f"{name:28} {ms:7.3f} ms/key  ratio {ms / floor_ms:6.1f}x")
    print(f"opening (set_entries):       {open_ms:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
