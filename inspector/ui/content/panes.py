"""The panes a content block is shown in: text (plain / markdown / JSON), image, audio, hex.

Server text is untrusted: plain text goes to QPlainTextEdit; markdown is rendered with Qt's
own parser with HTML switched off (MarkdownNoHTML: tags show as text), in a browser that
loads no resources (no images from disk or anywhere) and opens only http(s) links when
clicked. Large text shows its head; "Show all" appends the rest a slice per event-loop turn.
"""

from __future__ import annotations

import importlib
import logging
from pathlib import Path
from typing import Any, Final, Literal

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QDesktopServices,
    QGuiApplication,
    QImage,
    QPixmap,
    QResizeEvent,
    QTextCursor,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.content_blocks import MARKDOWN_LIMIT, json_pretty, wav_info
from inspector.features.resource_content import (
    INITIAL_DISPLAY_CHARS,
    BlobDecodeError,
    break_long_lines,
    decode_base64,
    display_chunks,
    format_size,
    hex_dump,
    sniff_image,
    suggested_filename,
)
from inspector.ui.widgets.code_view import code_view
from inspector.ui.widgets.highlighter import JsonHighlighter
from inspector.ui.widgets.plain_text import PlainLabel, mark_checked_bold, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["AudioPane", "BinaryPane", "ImagePane", "SafeMarkdownBrowser", "TextPane", "multimedia"]

log = logging.getLogger(__name__)

_MAX_TEXT_HEIGHT: Final = 320
_CHUNK: Final = 128 * 1024
_HEX_PREVIEW: Final = 16 * 1024
_SYNC_DECODE_LIMIT: Final = 8 * 1024 * 1024  # base64 characters decoded without asking


def multimedia() -> Any | None:
    """QtMultimedia when it is installed (PySide6-Essentials lacks it), else None."""
    try:
        return importlib.import_module("PySide6.QtMultimedia")
    except ImportError:
        return None


def _fit_height(edit: QPlainTextEdit, lines: int, limit: int = _MAX_TEXT_HEIGHT) -> None:
    metrics = edit.fontMetrics()
    chrome = 2 * edit.frameWidth() + int(edit.document().documentMargin() * 2) + 4
    scrollbar = edit.horizontalScrollBar().sizeHint().height()
    edit.setFixedHeight(min(limit, metrics.lineSpacing() * max(lines, 1) + chrome + scrollbar))


def save_bytes(parent: QWidget, data: bytes, suggested: str, title: str = "Save as") -> Path | None:
    """Ask where, write `data`; returns the path (None if cancelled). Raises OSError."""
    path, _filter = QFileDialog.getSaveFileName(parent, title, suggested)
    if not path:
        return None
    Path(path).write_bytes(data)
    return Path(path)


_NO_IMAGE: Final = QImage(1, 1, QImage.Format.Format_ARGB32)
_NO_IMAGE.fill(0)


class SafeMarkdownBrowser(QTextBrowser):
    """Markdown from a server, rendered without HTML and without loading anything."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._clicked)

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        """No images or style sheets: not from disk, not from the network. A value, never
        None: given none, QTextDocument reads a local file itself (an absolute path or a
        file: URL in the server's Markdown would show a file of this machine)."""
        if kind == QTextDocument.ResourceType.ImageResource.value:
            return _NO_IMAGE
        return ""

    def set_markdown(self, text: str) -> None:
        features = (
            QTextDocument.MarkdownFeature.MarkdownNoHTML
            | QTextDocument.MarkdownFeature.MarkdownDialectGitHub
        )
        self.document().setMarkdown(text, features)
        # The document's cursor ends up at the end, and a shown browser scrolls to its
        # cursor: put it at the start, so the preview opens at the top of the document.
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.Start)
        self.setTextCursor(cursor)
        self.verticalScrollBar().setValue(0)

    def _clicked(self, url: QUrl) -> None:
        if url.scheme() in ("http", "https"):
            QDesktopServices.openUrl(url)  # the user clicked it: only http(s), never file:


TextMode = Literal["text", "markdown", "json"]


class TextPane(QWidget):
    """A text block: plain text, or a markdown or pretty-JSON view of it; long text shows
    its head with "Show all" (appended in slices, so the window stays responsive)."""

    fully_loaded = Signal()

    def __init__(self, text: str, mime_type: str | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.source = text
        self.mime_type = mime_type
        self._shown = 0
        self._timer: QTimer | None = None
        self._chunks: Any = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)

        bar = QHBoxLayout()
        bar.setSpacing(2)
        self.buttons: dict[TextMode, QToolButton] = {}
        group = QButtonGroup(self)
        self.pretty = json_pretty(text)
        modes: list[tuple[TextMode, str]] = [("text", "Text"), ("markdown", "Markdown")]
        if self.pretty is not None:
            modes.append(("json", "JSON"))
        for mode, title in modes:
            button = QToolButton(self)
            button.setText(title)
            button.setCheckable(True)
            mark_checked_bold(button)
            button.clicked.connect(lambda _on=False, m=mode: self.show_mode(m))
            group.addButton(button)
            bar.addWidget(button)
            self.buttons[mode] = button
        if len(text) > MARKDOWN_LIMIT:
            self.buttons["markdown"].setEnabled(False)
            self.buttons["markdown"].setToolTip(
                plain_tooltip(f"Markdown preview is off above {MARKDOWN_LIMIT:,} characters")
            )
        bar.addStretch(1)
        self.status = PlainLabel("")
        self.status.setStyleSheet(f"color: {colors().muted.name()};")
        bar.addWidget(self.status)
        self.show_all_button = QPushButton("Show all", self)
        self.show_all_button.clicked.connect(self.show_all)
        bar.addWidget(self.show_all_button)
        copy = QToolButton(self)
        copy.setText("Copy")
        copy.setToolTip("Copy the whole text")
        copy.clicked.connect(self.copy)
        bar.addWidget(copy)
        layout.addLayout(bar)

        self.stack = QStackedWidget(self)
        self.plain = QPlainTextEdit(self.stack)
        self.plain.setReadOnly(True)
        self.plain.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.stack.addWidget(self.plain)
        self.markdown: SafeMarkdownBrowser | None = None
        self.json_view: QPlainTextEdit | None = None
        layout.addWidget(self.stack)

        head = text[:INITIAL_DISPLAY_CHARS]
        if len(text) > INITIAL_DISPLAY_CHARS:
            cut = head.rfind("\n", INITIAL_DISPLAY_CHARS // 2)
            head = head[: cut + 1] if cut > 0 else head
        self.plain.setPlainText(break_long_lines(head))
        self._shown = len(head)
        self._fit(self.plain, head)
        self._update_status()
        default: TextMode = "json" if self.pretty is not None else "text"
        if self.pretty is None and (mime_type or "").endswith("markdown"):
            default = "markdown"
        self.show_mode(default)

    @property
    def truncated(self) -> bool:
        return self._shown < len(self.source)

    def mode(self) -> TextMode:
        current = self.stack.currentWidget()
        if current is self.markdown:
            return "markdown"
        return "json" if current is self.json_view and current is not None else "text"

    def show_mode(self, mode: TextMode) -> None:
        if mode == "markdown" and self.buttons["markdown"].isEnabled():
            if self.markdown is None:
                self.markdown = SafeMarkdownBrowser(self.stack)
                self.markdown.set_markdown(self.source)
                self.stack.addWidget(self.markdown)
            self._fit_markdown()
            self.stack.setCurrentWidget(self.markdown)
        elif mode == "json" and self.pretty is not None:
            if self.json_view is None:
                self.json_view = code_view(parent=self.stack)
                JsonHighlighter(self.json_view.document())
                self.json_view.setPlainText(self.pretty)
                self._fit(self.json_view, self.pretty)
                self.stack.addWidget(self.json_view)
            self.stack.setCurrentWidget(self.json_view)
        else:
            mode = "text"
            self.stack.setCurrentWidget(self.plain)
        self.buttons[mode].setChecked(True)
        self._fit_stack()

    def _fit_markdown(self) -> None:
        if self.markdown is None:
            return
        document = self.markdown.document()
        document.setTextWidth(max(self.width() - 24, 300))
        height = int(document.size().height()) + 2 * self.markdown.frameWidth() + 4
        self.markdown.setFixedHeight(min(_MAX_TEXT_HEIGHT, max(height, 40)))

    def _fit_stack(self) -> None:
        current = self.stack.currentWidget()
        if current is not None:
            self.stack.setFixedHeight(current.minimumHeight() or current.sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if not self.truncated and len(self.source) <= 50_000 and not self.loading:
            self._fit(self.plain, self.source)
            self._fit_markdown()
            self._fit_stack()

    def _fit(self, edit: QPlainTextEdit, text: str) -> None:
        lines = text.count("\n", 0, 200_000) + 1
        if edit is self.plain:
            # wrapped lines: estimate from the width a line of text gets
            width = max(self.width(), 400)
            per_line = max(width // max(edit.fontMetrics().averageCharWidth(), 1), 20)
            lines = sum(len(line) // per_line + 1 for line in text[:50_000].split("\n"))
        _fit_height(edit, lines)

    def _update_status(self) -> None:
        total = len(self.source)
        if self.truncated:
            self.status.setText(f"showing {self._shown:,} of {total:,} characters")
        elif self.loading:
            self.status.setText(f"loading… {self._shown:,} of {total:,}")
        else:
            self.status.setText("")
        self.show_all_button.setVisible(self.truncated and not self.loading)

    @property
    def loading(self) -> bool:
        return self._timer is not None and self._timer.isActive()

    def show_all(self) -> None:
        """Append the rest of the text, one slice per event-loop turn."""
        if not self.truncated or self.loading:
            return
        self.show_mode("text")
        self._chunks = display_chunks(self.source, self._shown, _CHUNK)
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._next_chunk)
        self._timer.start()
        self._update_status()

    def _next_chunk(self) -> None:
        try:
            end, piece = next(self._chunks)
        except StopIteration:
            if self._timer is not None:
                self._timer.stop()
            self._update_status()
            self.fully_loaded.emit()
            return
        cursor = QTextCursor(self.plain.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(piece)
        self._shown = end
        self.status.setText(f"loading… {self._shown:,} of {len(self.source):,}")

    def copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self.pretty if self.mode() == "json" and self.pretty else self.source)


class ImagePane(QWidget):
    """An image with zoom in/out, fit, 1:1 and Save as…; a broken image says why."""

    def __init__(
        self,
        data: bytes | str,
        mime_type: str | None,
        name: str = "image",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.mime_type = mime_type
        self.name = name
        self.bytes: bytes | None = None
        self.image: QImage | None = None
        self.error: str | None = None
        self.zoom = 1.0
        self._fit = True
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        bar = QHBoxLayout()
        bar.setSpacing(2)
        self.info = PlainLabel("")
        self.info.setStyleSheet(f"color: {colors().muted.name()};")
        self.zoom_buttons: list[QToolButton] = []
        for text, tip, slot in (
            ("−", "Zoom out", lambda: self.set_zoom(self.zoom / 1.25)),
            ("+", "Zoom in", lambda: self.set_zoom(self.zoom * 1.25)),
            ("Fit", "Fit to the width", self.fit),
            ("1:1", "Actual size", lambda: self.set_zoom(1.0)),
        ):
            button = QToolButton(self)
            button.setText(text)
            button.setToolTip(plain_tooltip(tip))
            button.clicked.connect(slot)
            bar.addWidget(button)
            self.zoom_buttons.append(button)
        bar.addWidget(self.info, 1)
        self.save_button = QPushButton("Save as…", self)
        self.save_button.clicked.connect(self.save_as)
        bar.addWidget(self.save_button)
        layout.addLayout(bar)
        self.message = PlainLabel("", wrap=True)
        self.message.hide()
        layout.addWidget(self.message)
        self.area = QScrollArea(self)
        self.area.setFrameShape(QFrame.Shape.StyledPanel)
        self.area.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.label = PlainLabel("", self.area)
        self.label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.area.setWidget(self.label)
        layout.addWidget(self.area)
        if isinstance(data, str) and len(data) > _SYNC_DECODE_LIMIT:
            self._pending = data
            self._fail(f"A large image ({format_size(len(data) * 3 // 4)}).", broken=False)
            show = QPushButton("Show it", self)

            def show_it() -> None:
                show.hide()
                self._load(self._pending)

            show.clicked.connect(show_it)
            layout.addWidget(show)
            return
        self._load(data)

    def _load(self, data: bytes | str) -> None:
        try:
            raw = decode_base64(data) if isinstance(data, str) else data
        except BlobDecodeError as exc:
            self._fail(f"Broken image: {exc}.")
            return
        self.bytes = raw
        sniffed = sniff_image(raw[:16])
        image = QImage()
        if not raw or not image.loadFromData(raw):
            what = f"{sniffed.upper()} " if sniffed else ""
            self._fail(
                f"Broken image: {format_size(len(raw))} of {what}data that Qt cannot read as "
                f"an image (mimeType {self.mime_type or 'missing'})."
            )
            self.save_button.setEnabled(bool(raw))
            return
        self.image = image
        notes = [f"{image.width()} × {image.height()} px", format_size(len(raw))]
        declared = (self.mime_type or "").lower().removeprefix("image/").replace("jpg", "jpeg")
        if sniffed and declared and sniffed != declared:
            notes.append(f"the bytes are {sniffed.upper()}, mimeType says {self.mime_type}")
        self.info.setText(" · ".join(notes))
        self.message.hide()
        self.area.show()
        self.fit()

    def _fail(self, why: str, *, broken: bool = True) -> None:
        self.error = why if broken else None
        self.message.setText(why)
        color = colors().error if broken else colors().muted
        self.message.setStyleSheet(f"color: {color.name()};")
        self.message.show()
        self.area.hide()
        for button in self.zoom_buttons:
            button.setEnabled(False)
        self.save_button.setEnabled(self.bytes is not None)

    def fit(self) -> None:
        if self.image is None:
            return
        self._fit = True
        width = max(self.area.viewport().width(), 200) if self.isVisible() else 480
        zoom = min(1.0, width / max(self.image.width(), 1), 360 / max(self.image.height(), 1))
        self._apply(zoom)

    def set_zoom(self, zoom: float) -> None:
        self._fit = False
        self._apply(min(max(zoom, 0.05), 32.0))

    def _apply(self, zoom: float) -> None:
        if self.image is None:
            return
        self.zoom = zoom
        w = max(1, round(self.image.width() * zoom))
        h = max(1, round(self.image.height() * zoom))
        mode = (
            Qt.TransformationMode.FastTransformation
            if zoom >= 2
            else Qt.TransformationMode.SmoothTransformation
        )
        pixmap = QPixmap.fromImage(
            self.image.scaled(w, h, Qt.AspectRatioMode.KeepAspectRatio, mode)
        )
        self.label.setPixmap(pixmap)
        self.label.resize(pixmap.size())
        frame = 2 * self.area.frameWidth()
        self.area.setFixedHeight(min(h + frame + 2, 420))
        self.info.setToolTip(plain_tooltip(f"zoom {zoom * 100:.0f} %"))

    def save_as(self) -> None:
        if self.bytes is None:
            return
        try:
            save_bytes(self, self.bytes, suggested_filename(self.name, self.mime_type, True))
        except OSError as exc:
            self._show_save_error(exc)

    def save_to(self, path: Path) -> None:
        if self.bytes is not None:
            path.write_bytes(self.bytes)

    def _show_save_error(self, exc: OSError) -> None:
        self.message.setText(f"Could not save: {exc}")
        self.message.setStyleSheet(f"color: {colors().error.name()};")
        self.message.show()


class BinaryPane(QWidget):
    """Bytes we cannot show otherwise: a hex preview and Save as…"""

    def __init__(
        self, data: bytes, mime_type: str | None, name: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.bytes = data
        self.mime_type = mime_type
        self.name = name
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        shown = min(len(data), _HEX_PREVIEW)
        more = f" (first {format_size(shown)})" if shown < len(data) else ""
        self.info = PlainLabel(f"{format_size(len(data))} of {mime_type or 'binary data'}{more}")
        self.info.setStyleSheet(f"color: {colors().muted.name()};")
        bar.addWidget(self.info, 1)
        self.save_button = QPushButton("Save as…", self)
        self.save_button.clicked.connect(self.save_as)
        bar.addWidget(self.save_button)
        layout.addLayout(bar)
        self.hex = code_view(parent=self)
        dump = hex_dump(data, 0, _HEX_PREVIEW)
        self.hex.setPlainText(dump)
        _fit_height(self.hex, dump.count("\n") + 1, 220)
        layout.addWidget(self.hex)

    def save_as(self) -> None:
        try:
            save_bytes(self, self.bytes, suggested_filename(self.name, self.mime_type, True))
        except OSError as exc:
            self.info.setText(f"Could not save: {exc}")


class AudioPane(QWidget):
    """Audio: what it is (WAV details when readable), Play where QtMultimedia exists."""

    def __init__(self, data: str, mime_type: str | None, parent: QWidget | None = None):
        super().__init__(parent)
        self.mime_type = mime_type
        self.bytes: bytes | None = None
        self.error: str | None = None
        self._player: Any = None
        self._buffer: QBuffer | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.info = PlainLabel("", wrap=True)
        layout.addWidget(self.info, 1)
        self.play_button = QPushButton("Play", self)
        self.play_button.clicked.connect(self.play)
        layout.addWidget(self.play_button)
        self.save_button = QPushButton("Save as…", self)
        self.save_button.clicked.connect(self.save_as)
        layout.addWidget(self.save_button)
        try:
            self.bytes = decode_base64(data)
        except BlobDecodeError as exc:
            self.error = f"Broken audio: {exc}."
            self.info.setText(self.error)
            self.info.setStyleSheet(f"color: {colors().error.name()};")
            self.play_button.setEnabled(False)
            self.save_button.setEnabled(False)
            return
        details = wav_info(self.bytes) or "duration unknown"
        self.info.setText(f"{mime_type or 'audio'} · {format_size(len(self.bytes))} · {details}")
        self.multimedia = multimedia()
        if self.multimedia is None:
            self.play_button.setEnabled(False)
            self.play_button.setToolTip(
                "Playing needs QtMultimedia (not part of PySide6-Essentials): use Save as…"
            )

    def play(self) -> None:
        mm = self.multimedia
        if mm is None or self.bytes is None:
            return
        if self._player is None:
            self._player = mm.QMediaPlayer(self)
            self._output = mm.QAudioOutput(self)
            self._player.setAudioOutput(self._output)
            self._buffer = QBuffer(self)
            self._buffer.setData(QByteArray(self.bytes))
            self._buffer.open(QIODevice.OpenModeFlag.ReadOnly)
            self._player.setSourceDevice(self._buffer, QUrl(f"audio.{self._extension()}"))
        if self.play_button.text() == "Stop":
            self._player.stop()
            self.play_button.setText("Play")
        else:
            self._player.play()
            self.play_button.setText("Stop")

    def _extension(self) -> str:
        return suggested_filename("audio", self.mime_type, True).rsplit(".", 1)[-1]

    def save_as(self) -> None:
        if self.bytes is None:
            return
        try:
            save_bytes(self, self.bytes, suggested_filename("audio", self.mime_type, True))
        except OSError as exc:
            self.info.setText(f"Could not save: {exc}")
