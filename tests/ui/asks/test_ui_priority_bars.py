"""A sampling request's priorities read in one colour (issue 31, item 12): the value is a
label beside its bar, not text drawn across the bar's fill ("0.5" half on the chunk, half
on the groove)."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QFormLayout, QLabel, QProgressBar

from inspector.protocol.machine.asks import ServerAsk
from inspector.protocol.wire.versions import Era
from inspector.ui.asks.sampling_dialog import SamplingDialog
from tests.helpers.gui import run


def test_a_priority_shows_its_value_beside_its_bar(loop: asyncio.AbstractEventLoop) -> None:
    params = {
        "messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}],
        "maxTokens": 20,
        "modelPreferences": {"speedPriority": 0.5, "costPriority": 1},
    }
    ask = ServerAsk(1, "sampling", "sampling/createMessage", params, Era.LEGACY, wire_id=3)

    async def opened() -> SamplingDialog:  # (a dialog's answer is a future of the loop)
        return SamplingDialog(ask, None)

    dialog = run(loop, opened())
    dialog.show()
    rows = {}
    for form in dialog.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if label is not None and field is not None and isinstance(label.widget(), QLabel):
                rows[label.widget().text()] = field.widget()
    speed = rows["Speed priority:"]
    bars = [speed, *speed.findChildren(QProgressBar)]
    bar = next(b for b in bars if isinstance(b, QProgressBar))
    assert bar.isVisible() and bar.value() == 50
    assert not bar.isTextVisible()  # nothing drawn across the fill
    values = [w.text() for w in speed.findChildren(QLabel) if w.isVisible()]
    assert values == ["0.5"]
    cost = rows["Cost priority:"]
    assert [w.text() for w in cost.findChildren(QLabel) if w.isVisible()] == ["1"]
    dialog.close()
