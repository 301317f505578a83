"""Benchmark: a long Playground conversation on screen (issue 28).

A conversation of TURNS turns, each with CALLS tool calls (a 200-character result each), is
shown as the offline view's Playground tab shows a saved one (`SavedConversations`: the
conversation read from its JSON, a `TurnView` per turn, a `ToolCallCard` per call), then
laid out and painted once. The FLOOR, measured in the same run: the same number of bare
frames, each holding the widgets a card holds (five labels, two read-only text views, four
buttons) with the same texts, laid out and painted the same way. Printed: each time, and
the ratio of ours to the floor (the machine is shared and noisy; the ratio is the figure).

The tab makes its cards only when it is first shown, so opening a recording with a long
conversation costs none of this until the person opens that tab.

    QT_QPA_PLATFORM=offscreen python bench/playground_cards.py [--turns 100] [--calls 5]
"""

from __future__ import annotations

import argparse
import json
import os
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from inspector.host.records import Conversation, ToolCallRecord, TurnRecord
from inspector.ui.playground.transcript import SavedConversations
from inspector.ui.widgets.plain_text import PlainLabel


def conversation(turns: int, calls: int) -> dict[str, object]:
    conv = Conversation(provider="stand-in", model="m", tabs=["demo"])
    for i in range(turns):
        records = []
        for j in range(calls):
            call = ToolCallRecord(
                "demo__echo", "demo", "echo", {"message": f"m{i}-{j}"}, "{}", request_id=i * 10 + j
            )
            call.result = {"content": [{"type": "text", "text": "x" * 200}]}
            records.append(call)
        conv.turns.append(TurnRecord(f"turn {i}", "answer " * 50, records, steps=calls + 1))
    return json.loads(json.dumps(conv.to_json()))  # as read from a file


def floor(app: QApplication, turns: int, calls: int) -> float:
    started = time.perf_counter()
    area = QScrollArea()
    area.setWidgetResizable(True)
    body = QWidget()
    column = QVBoxLayout(body)
    for i in range(turns):
        column.addWidget(PlainLabel(f"You: turn {i}"))
        for j in range(calls):
            frame = QFrame()
            inner = QVBoxLayout(frame)
            for text in ("demo__echo", "Sent, answered in 3 ms", "", "", ""):
                inner.addWidget(PlainLabel(text))
            for text in (json.dumps({"message": f"m{i}-{j}"}, indent=2), "x" * 200):
                edit = QPlainTextEdit(text)
                edit.setReadOnly(True)
                inner.addWidget(edit)
            for text in ("Send", "Edit arguments", "Refuse", "Show in traffic log"):
                inner.addWidget(QPushButton(text))
            column.addWidget(frame)
        column.addWidget(PlainLabel("answer " * 50))
    area.setWidget(body)
    return _shown(app, area, started)


def ours(app: QApplication, data: dict[str, object]) -> float:
    started = time.perf_counter()
    return _shown(app, SavedConversations([data]), started)


def _shown(app: QApplication, widget: QWidget, started: float) -> float:
    """Show `widget` at 1000x700 and let it lay out and paint: the seconds since `started`
    (its building included); then it is closed."""
    widget.resize(1000, 700)
    widget.show()
    app.processEvents()
    elapsed = time.perf_counter() - started
    widget.close()
    widget.deleteLater()
    app.processEvents()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--calls", type=int, default=5)
    args = parser.parse_args()
    app = QApplication([])
    data = conversation(args.turns, args.calls)
    best_floor = best_ours = float("inf")
    for _ in range(2):  # interleaved, best of two
        best_floor = min(best_floor, floor(app, args.turns, args.calls))
        best_ours = min(best_ours, ours(app, data))
    cards = args.turns * args.calls
    print(f"{args.turns} turns, {cards} cards")
    print(f"floor (bare widgets): {best_floor:.2f} s")
    print(f"SavedConversations:   {best_ours:.2f} s ({best_ours / best_floor:.2f}x the floor)")


if __name__ == "__main__":
    main()
