"""Benchmark: the Collections tab showing a big collection (10,000 calls), against a floor
measured in the same run: a bare QTreeWidget given the same five texts per row at once.

The panel's part is measured without reading the file (the reader has its own bench,
bench/collection_load.py): `_show_read` of a loaded Collection, i.e. the rows and their
items, marks, tooltips and colours.

    QT_QPA_PLATFORM=offscreen python bench/collection_panel.py [--runs 3] [--calls 10000]

Reports the ratio to the floor (best of --runs); goal: within 4x.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication, QTreeWidget, QTreeWidgetItem

from inspector.collections.collection import Collection, OutcomeAssertion, SavedCall
from inspector.core.inspector_model import InspectorModel
from inspector.features.asks.canned_replies import CannedReplies
from inspector.features.forms.argument_memory import ArgumentMemory
from inspector.settings.profiles import ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.asks.gui_responder import GuiResponders
from inspector.ui.collections.panel import CollectionsPanel
from inspector.ui.controller.connection_controller import ConnectionController


def _best(runs: int, work: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=10_000)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="bench-panel-"))
    model = InspectorModel(
        profiles=ProfileStore(tmp / "profiles.json", SecretStore()),
        canned=CannedReplies(tmp / "canned.json"),
        arguments=ArgumentMemory.shared(),
    )
    connection = model.open_connection(GuiResponders(None, None))
    controller = ConnectionController(connection, model.arguments)
    collection = Collection(
        "big",
        [
            SavedCall(
                f"call {i}",
                "tool",
                tool="echo",
                arguments={"message": str(i)},
                assertions=(OutcomeAssertion("ok"),),
            )
            for i in range(args.calls)
        ],
    )
    panel = CollectionsPanel(controller, dict, lambda: None)
    panel.resize(1000, 400)
    panel.show()
    tree = QTreeWidget()
    tree.setColumnCount(5)
    tree.resize(1000, 400)
    tree.show()

    def floor() -> None:
        tree.clear()
        items = []
        for call in collection.calls:
            item = QTreeWidgetItem(["○", call.name, call.kind, call.target, ""])
            items.append(item)
        tree.addTopLevelItems(items)
        app.processEvents()

    def shown() -> None:
        panel.rows = []
        panel._show_read(collection)
        app.processEvents()

    base = _best(args.runs, floor)
    ours = _best(args.runs, shown)
    assert len(panel.rows) == args.calls
    print(f"floor (bare tree, {args.calls} rows): {base * 1000:.0f} ms")
    print(f"Collections tab: {ours * 1000:.0f} ms, {ours / base:.1f}x the floor (goal: within 4x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
