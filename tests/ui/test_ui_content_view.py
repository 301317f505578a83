"""ContentBlocksView with every content type, broken input, and a huge text that must not
freeze the window (the stall is measured with a 10 ms QTimer)."""

from __future__ import annotations

import base64
import json
import struct
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer, QUrl
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from inspector.demo.png import bar_chart_png
from inspector.ui.content.blocks_view import ContentBlocksView
from inspector.ui.content.panes import AudioPane, BinaryPane, ImagePane, TextPane, multimedia

pytestmark = pytest.mark.timeout(60)

PNG = bar_chart_png([3, 1, 4, 1, 5])
PNG_B64 = base64.b64encode(PNG).decode()


def wav() -> bytes:
    frames = b"\x00\x00" * 4000
    fmt = struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16)
    body = b"WAVEfmt " + fmt + b"data" + struct.pack("<I", len(frames)) + frames
    return b"RIFF" + struct.pack("<I", len(body)) + body


@pytest.fixture
def view(qtbot: QtBot) -> ContentBlocksView:
    widget = ContentBlocksView()
    qtbot.addWidget(widget)
    widget.resize(700, 600)
    widget.show()
    return widget


def only_pane(view: ContentBlocksView) -> object:
    assert len(view.cards) == 1
    return view.cards[0].pane


def test_text_is_plain_with_a_safe_markdown_preview(view: ContentBlocksView) -> None:
    text = "# Title\n\n<b>bold?</b> <img src='file:///etc/hosts'> **real bold** [x](file:///etc)"
    view.set_blocks([{"type": "text", "text": text}])
    pane = only_pane(view)
    assert isinstance(pane, TextPane)
    assert pane.mode() == "text" and pane.plain.toPlainText() == text
    pane.show_mode("markdown")
    assert pane.markdown is not None and pane.mode() == "markdown"
    shown = pane.markdown.toPlainText()
    assert "<b>bold?</b>" in shown and "<img src='file:///etc/hosts'>" in shown  # as text
    assert "**" not in shown  # the markdown itself is rendered
    # Never a local file: an empty 1x1 image, so the document does not read one itself
    # (tests/ui/test_ui_markdown_no_local_files.py).
    loaded = pane.markdown.document().loadResource(2, QUrl("file:///etc/hosts"))
    assert isinstance(loaded, QImage) and loaded.width() == 1
    assert pane.markdown.document().toHtml().count("<img") == 0


def test_json_text_gets_a_pretty_view(view: ContentBlocksView) -> None:
    view.set_blocks([{"type": "text", "text": '{"a":1,"b":[true,null]}'}])
    pane = only_pane(view)
    assert isinstance(pane, TextPane) and pane.mode() == "json"
    assert pane.json_view is not None
    assert json.loads(pane.json_view.toPlainText()) == {"a": 1, "b": [True, None]}
    pane.show_mode("text")
    assert pane.plain.toPlainText() == '{"a":1,"b":[true,null]}'


def test_image_zoom_fit_and_save(view: ContentBlocksView, tmp_path: Path) -> None:
    view.set_blocks([{"type": "image", "mimeType": "image/png", "data": PNG_B64}])
    pane = only_pane(view)
    assert isinstance(pane, ImagePane) and pane.error is None and pane.image is not None
    width = pane.image.width()
    pane.set_zoom(2.0)
    pixmap = pane.label.pixmap()
    assert pixmap.width() == width * 2
    pane.zoom_buttons[0].click()  # zoom out
    assert pane.label.pixmap().width() == round(width * 2 / 1.25)
    pane.fit()
    assert pane.label.pixmap().width() <= max(pane.area.viewport().width(), 200)
    pane.save_to(tmp_path / "chart.png")
    assert (tmp_path / "chart.png").read_bytes() == PNG


def test_broken_images_say_why(view: ContentBlocksView) -> None:
    view.set_blocks(
        [
            {"type": "image", "mimeType": "image/png", "data": "not*base64"},
            {"type": "image", "mimeType": "image/png", "data": base64.b64encode(b"junk").decode()},
            {"type": "image", "mimeType": "image/jpeg", "data": PNG_B64},
        ]
    )
    broken, junk, mislabelled = (card.pane for card in view.cards)
    assert isinstance(broken, ImagePane) and broken.error is not None
    assert "invalid base64: character '*'" in broken.error
    assert not broken.save_button.isEnabled()
    assert isinstance(junk, ImagePane) and junk.error is not None
    assert "cannot read" in junk.error and junk.save_button.isEnabled()
    assert isinstance(mislabelled, ImagePane) and mislabelled.error is None
    assert "the bytes are PNG, mimeType says image/jpeg" in mislabelled.info.text()


def test_audio_metadata_and_play_only_with_qtmultimedia(view: ContentBlocksView) -> None:
    view.set_blocks(
        [{"type": "audio", "mimeType": "audio/wav", "data": base64.b64encode(wav()).decode()}]
    )
    pane = only_pane(view)
    assert isinstance(pane, AudioPane) and pane.error is None
    assert "8,000 Hz" in pane.info.text() and "0.50 s" in pane.info.text()
    assert pane.save_button.isEnabled()
    assert pane.play_button.isEnabled() == (multimedia() is not None)
    view.set_blocks([{"type": "audio", "mimeType": "audio/wav", "data": "%%%"}])
    broken = only_pane(view)
    assert isinstance(broken, AudioPane) and broken.error is not None


def test_resource_link_click_asks_to_read(view: ContentBlocksView, qtbot: QtBot) -> None:
    view.set_blocks(
        [
            {
                "type": "resource_link",
                "uri": "demo://docs/readme",
                "name": "readme",
                "description": "<i>x</i>",
            }
        ]
    )
    card = view.cards[0]
    with qtbot.waitSignal(view.read_resource_requested, timeout=1000) as signal:
        qtbot.mouseClick(card.read_button, Qt.MouseButton.LeftButton)
    assert signal.args == ["demo://docs/readme"]
    with qtbot.waitSignal(view.read_resource_requested, timeout=1000) as signal:
        qtbot.mouseClick(card.uri_label, Qt.MouseButton.LeftButton)
    assert signal.args == ["demo://docs/readme"]


def test_embedded_resources_text_image_and_binary(view: ContentBlocksView) -> None:
    view.set_blocks(
        [
            {
                "type": "resource",
                "resource": {"uri": "x://t", "mimeType": "text/plain", "text": "hello"},
            },
            {
                "type": "resource",
                "resource": {"uri": "x://i", "mimeType": "image/png", "blob": PNG_B64},
            },
            {
                "type": "resource",
                "resource": {"uri": "x://b", "blob": base64.b64encode(bytes(range(64))).decode()},
            },
            {"type": "resource", "resource": {"uri": "x://bad", "blob": "@@@@"}},
        ]
    )
    text, image, binary, bad = view.cards
    assert text.pane is not None and text.pane.findChild(TextPane) is not None
    found = image.pane.findChild(ImagePane) if image.pane else None
    assert found is not None and found.image is not None
    hexed = binary.pane.findChild(BinaryPane) if binary.pane else None
    assert hexed is not None and hexed.hex.toPlainText().startswith("00000000  00 01 02 03")
    assert "not valid base64" in bad.problem_label.text()


def test_unknown_types_are_raw_json_with_a_warning(view: ContentBlocksView) -> None:
    view.set_blocks([{"type": "hologram", "depth": 3}])
    card = view.cards[0]
    assert not card.problem_label.isHidden()
    assert "unknown content type 'hologram'" in card.problem_label.text()
    assert isinstance(card.pane, TextPane) and card.pane.pretty is not None
    assert json.loads(card.pane.pretty) == {"type": "hologram", "depth": 3}


def test_set_blocks_replaces_and_empty_says_so(view: ContentBlocksView) -> None:
    view.set_blocks([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])
    assert len(view.cards) == 2 and view.summary() == "2 blocks: text, text"
    view.set_blocks([])
    assert view.cards == [] and not view.empty.isHidden()


def test_huge_text_is_truncated_without_freezing(
    view: ContentBlocksView, qtbot: QtBot, qapp: QApplication
) -> None:
    text = "".join(
        f"line {i:08d} of a large block, with words to wrap around\n" for i in range(350_000)
    )
    assert len(text) > 20_000_000
    # A stall is the GUI thread busy between two ticks: its own CPU time (thread_time), which
    # a loaded machine (a parallel run) does not add to as it adds to the wall clock.
    gaps: list[float] = []
    wall_gaps: list[float] = []
    last = [time.thread_time(), time.perf_counter()]

    def tick() -> None:
        now = [time.thread_time(), time.perf_counter()]
        gaps.append(now[0] - last[0])
        wall_gaps.append(now[1] - last[1])
        last[:] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(tick)
    timer.start()
    qtbot.wait(50)
    view.set_blocks([{"type": "text", "text": text}])
    pane = only_pane(view)
    assert isinstance(pane, TextPane) and pane.truncated
    assert pane.status.text().endswith(f"of {len(text):,} characters")
    assert not pane.show_all_button.isHidden()
    pane.show_all()
    qtbot.waitUntil(lambda: not pane.truncated and not pane.loading, timeout=40_000)
    timer.stop()
    assert pane.plain.document().characterCount() >= len(text)
    assert max(gaps) < 0.2, f"the event loop stalled {max(gaps) * 1000:.0f} ms"
    assert max(wall_gaps) < 2, f"the event loop waited {max(wall_gaps) * 1000:.0f} ms"


def test_one_huge_line_is_broken_for_display(view: ContentBlocksView, qtbot: QtBot) -> None:
    line = "x" * 3_000_000
    started = time.perf_counter()
    view.set_blocks([{"type": "text", "text": line}])
    qtbot.wait(10)
    assert time.perf_counter() - started < 1.0
    pane = only_pane(view)
    assert isinstance(pane, TextPane) and pane.truncated
