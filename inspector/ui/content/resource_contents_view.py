"""Shows what a resources/read returned: each part as text, image or hex, with Save as.

Huge contents never freeze the window: text shows its head first and "Load all" appends
the rest in slices, one per event-loop turn (with Stop); a blob's base64 is decoded only
when the user looks at it, in a thread when it is large; the hex view dumps 64 KiB at a
time. Everything the server sent is shown as plain text.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Final, Literal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QFontDatabase,
    QGuiApplication,
    QImage,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.features.content_blocks import MARKDOWN_LIMIT, json_pretty, looks_like_markdown
from inspector.features.resource_content import (
    DISPLAY_CHUNK,
    HEX_PREVIEW_BYTES,
    INITIAL_DISPLAY_CHARS,
    BlobDecodeError,
    ReadResult,
    ResourcePart,
    break_long_lines,
    display_chunks,
    format_size,
    has_long_lines,
    hex_dump,
    suggested_filename,
)
from inspector.ui.content.image_view import ImageView
from inspector.ui.content.panes import SafeMarkdownBrowser
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.theme import colors

__all__ = ["PartView", "ResourceContentsView"]

log = logging.getLogger(__name__)

Mode = Literal["text", "markdown", "json", "image", "hex"]
_TEXTUAL_MIME: Final = ("text/", "application/json", "application/xml", "application/yaml")
_TEXTUAL_SUFFIX: Final = ("+json", "+xml", "+yaml")


# A checked mode button must stand out in both themes (the dark palette's is faint).
_CHECKED_STYLE: Final = (
    "QToolButton:checked { background: palette(highlight); color: palette(highlighted-text); "
    "border-radius: 3px; }"
)


def _textual(mime: str | None) -> bool:
    m = (mime or "").split(";", 1)[0].strip().lower()
    return m.startswith(_TEXTUAL_MIME) or m.endswith(_TEXTUAL_SUFFIX)


def _mono_editor(name: str) -> QPlainTextEdit:
    view = QPlainTextEdit()
    view.setObjectName(name)
    view.setReadOnly(True)
    view.setUndoRedoEnabled(False)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    return view


class PartView(QWidget):
    """One part of a read result."""

    saved = Signal(str)  # path

    def __init__(self, part: ResourcePart) -> None:
        super().__init__()
        self.part = part
        self.mode: Mode | None = None
        self.loading: asyncio.Task[None] | None = None
        self.decoding: asyncio.Task[None] | None = None
        self._text_source: str = ""  # what the text view shows, in full
        self._shown_chars = 0
        self._hex_shown = 0
        self._image: QImage | None = None
        self._pretty: str | None = None
        self.markdown_view: SafeMarkdownBrowser | None = None

        self.uri_label = ElidedLabel(part.uri or "(no uri)")
        self.uri_label.setObjectName("partUri")
        self.uri_label.setToolTip(plain_tooltip(part.uri or ""))
        self.meta_label = PlainLabel(self._meta_text())
        self.meta_label.setObjectName("partMeta")
        self.meta_label.setStyleSheet(f"color: {colors().muted.name()}")
        self.mode_buttons: dict[Mode, QToolButton] = {}
        group = QButtonGroup(self)
        group.setExclusive(True)
        head = QHBoxLayout()
        head.addWidget(self.uri_label, 1)
        head.addWidget(self.meta_label)
        modes: tuple[tuple[Mode, str], ...] = (
            ("text", "Text"),
            ("markdown", "Markdown"),
            ("json", "JSON"),
            ("image", "Image"),
            ("hex", "Hex"),
        )
        for mode, title in modes:
            button = QToolButton()
            button.setText(title)
            button.setCheckable(True)
            button.setStyleSheet(_CHECKED_STYLE)
            button.setObjectName(f"mode_{mode}")
            button.clicked.connect(lambda _c=False, m=mode: self.show_mode(m))
            group.addButton(button)
            self.mode_buttons[mode] = button
            head.addWidget(button)
        self.zoom_combo = QComboBox()
        self.zoom_combo.setObjectName("imageZoom")
        self.zoom_combo.addItems(list(ImageView.ZOOMS))
        self.zoom_combo.setToolTip("Zoom")
        self.zoom_combo.setVisible(False)
        head.addWidget(self.zoom_combo)
        self.copy_button = QToolButton()
        self.copy_button.setText("Copy")
        self.copy_button.setToolTip("Copy the whole text (not only what is shown)")
        self.copy_button.clicked.connect(self.copy_text)
        self.save_button = QToolButton()
        self.save_button.setText("Save as…")
        self.save_button.setObjectName("saveAs")
        self.save_button.clicked.connect(self.save_as)
        head.addWidget(self.copy_button)
        head.addWidget(self.save_button)

        self.problems = PlainLabel(wrap=True)
        self.problems.setObjectName("partProblems")
        self.problems.setStyleSheet(f"color: {colors().warn.name()}")
        self.problems.setVisible(False)
        self.banner = PlainLabel(wrap=True)
        self.banner.setObjectName("truncationBanner")
        self.load_all_button = QPushButton("Load all")
        self.load_all_button.setObjectName("loadAll")
        self.load_all_button.clicked.connect(self.load_all)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop_loading)
        self.more_hex_button = QPushButton(f"Show {HEX_PREVIEW_BYTES // 1024} KiB more")
        self.more_hex_button.clicked.connect(self.more_hex)
        banner_row = QHBoxLayout()
        banner_row.setContentsMargins(0, 0, 0, 0)
        banner_row.addWidget(self.banner, 1)
        banner_row.addWidget(self.load_all_button)
        banner_row.addWidget(self.more_hex_button)
        banner_row.addWidget(self.stop_button)
        self.banner_box = QWidget()
        self.banner_box.setObjectName("bannerBox")
        self.banner_box.setLayout(banner_row)
        self.banner_box.setVisible(False)

        self.text_view = _mono_editor("partText")
        self.hex_view = _mono_editor("partHex")
        self.hex_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.image_scroll = ImageView()
        self.image_label = self.image_scroll.label
        self.message = PlainLabel(wrap=True)
        self.message.setObjectName("partMessage")
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.zoom_combo.currentTextChanged.connect(self.image_scroll.set_zoom)
        self.stack = QStackedWidget()
        for widget in (self.text_view, self.image_scroll, self.hex_view, self.message):
            self.stack.addWidget(widget)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(head)
        layout.addWidget(self.problems)
        layout.addWidget(self.banner_box)
        layout.addWidget(self.stack, 1)
        self._show_problems()
        self._init_modes()

    # ---------------------------------------------------------------- setup
    def _meta_text(self) -> str:
        p = self.part
        bits = [p.mime_type or "no mimeType", p.kind if p.kind != "invalid" else "invalid"]
        if p.size_text:
            bits.append(p.size_text)
        return " · ".join(bits)

    def _show_problems(self, extra: str | None = None) -> None:
        problems = list(self.part.problems)
        if extra:
            problems.append(extra)
        self.problems.setText("\n".join(f"⚠ {p}" for p in problems))
        self.problems.setVisible(bool(problems))

    def _init_modes(self) -> None:
        p = self.part
        text = p.text if p.kind == "text" else None
        self._pretty = json_pretty(text) if text is not None else None
        markdown = (
            text is not None
            and len(text) <= MARKDOWN_LIMIT
            and ("markdown" in (p.mime_type or "") or looks_like_markdown(text))
        )
        self.mode_buttons["text"].setVisible(
            p.kind == "blob" or markdown or self._pretty is not None
        )
        self.mode_buttons["markdown"].setVisible(markdown)
        self.mode_buttons["json"].setVisible(self._pretty is not None)
        self.mode_buttons["image"].setVisible(p.kind == "blob")
        self.mode_buttons["hex"].setVisible(p.kind == "blob")
        self.mode_buttons["image"].setEnabled(p.image_format() is not None)
        self.copy_button.setVisible(p.kind == "text")
        self.save_button.setEnabled(p.kind != "invalid")
        if p.kind == "invalid":
            self._message("This part has neither text nor a blob; see the raw result in the log.")
        elif p.kind == "text":
            self.show_mode("text")
        elif p.image_format() is not None:
            self.show_mode("image")
        elif _textual(p.mime_type):
            self.show_mode("text")
        else:
            self.show_mode("hex")

    def _message(self, text: str) -> None:
        self.message.setText(text)
        self.stack.setCurrentWidget(self.message)
        self.banner_box.setVisible(False)

    # ---------------------------------------------------------------- modes
    def show_mode(self, mode: Mode) -> None:
        self.stop_loading()
        self.mode = mode
        self.zoom_combo.setVisible(False)
        button = self.mode_buttons[mode]
        button.setChecked(True)
        if mode == "markdown":
            self._show_markdown(self.part.text or "")
            return
        if mode == "json" and self._pretty is not None:
            self._show_text(self._pretty)
            return
        if self.part.kind == "text":
            self._show_text(self.part.text or "")
            return
        if not self.part.decoded:
            self._decode_then_show()
            return
        self._show_decoded()

    def _decode_then_show(self) -> None:
        if self.part.decode_error is not None:
            self._decode_failed(self.part.decode_error)
            return
        if not self.part.needs_thread:
            try:
                self.part.decode()
            except BlobDecodeError as exc:
                self._decode_failed(str(exc))
                return
            self._show_decoded()
            return
        self._message(f"Decoding {self.part.size_text} of base64…")
        if self.decoding is None or self.decoding.done():
            self.decoding = asyncio.get_running_loop().create_task(self._decode_in_thread())

    async def _decode_in_thread(self) -> None:
        try:
            await asyncio.to_thread(self.part.decode)
        except BlobDecodeError as exc:
            self._decode_failed(str(exc))
            return
        self.meta_label.setText(self._meta_text())
        self._show_decoded()

    def _decode_failed(self, why: str) -> None:
        self.mode_buttons["image"].setEnabled(False)
        self.save_button.setEnabled(False)
        self._show_problems(f"the blob cannot be decoded: {why}")
        self._message(f"The blob is not valid base64:\n{why}\n\nThe raw frame is in the log.")

    def _show_decoded(self) -> None:
        data = self.part.decode()
        if self.mode == "image":
            self._show_image(data)
        elif self.mode == "text":
            self._show_text(data.decode("utf-8", "replace"))
        else:
            self._show_hex(data)

    # ---------------------------------------------------------------- text
    def _show_text(self, text: str) -> None:
        self._text_source = text
        head, more = text[:INITIAL_DISPLAY_CHARS], len(text) > INITIAL_DISPLAY_CHARS
        if more:
            cut = head.rfind("\n", INITIAL_DISPLAY_CHARS // 2)
            if cut > 0:
                head = head[: cut + 1]
        self.text_view.setPlainText(break_long_lines(head))
        self._shown_chars = len(head)
        self.stack.setCurrentWidget(self.text_view)
        self._text_banner()

    def _text_banner(self, loading: bool = False) -> None:
        total = len(self._text_source)
        more = self._shown_chars < total
        broken = has_long_lines(self._text_source)
        parts = []
        if more or loading:
            parts.append(f"Showing {self._shown_chars:,} of {total:,} characters.")
        if broken:
            parts.append("Long lines are broken for display; Copy and Save keep the original.")
        self.banner.setText(" ".join(parts))
        self.banner_box.setVisible(bool(parts))
        self.load_all_button.setVisible(more and not loading)
        self.stop_button.setVisible(loading)
        self.more_hex_button.setVisible(False)

    @property
    def fully_shown(self) -> bool:
        return self._shown_chars >= len(self._text_source)

    def load_all(self) -> asyncio.Task[None] | None:
        """Append the rest of the text, one slice per event-loop turn."""
        if self.fully_shown or (self.loading is not None and not self.loading.done()):
            return self.loading
        self.loading = asyncio.get_running_loop().create_task(self._load_rest())
        return self.loading

    async def _load_rest(self) -> None:
        self._text_banner(loading=True)
        cursor = QTextCursor(self.text_view.document())
        try:
            for end, piece in display_chunks(self._text_source, self._shown_chars, DISPLAY_CHUNK):
                cursor.movePosition(QTextCursor.MoveOperation.End)
                cursor.insertText(piece)
                self._shown_chars = end
                self.banner.setText(
                    f"Loading… {self._shown_chars:,} of {len(self._text_source):,} characters."
                )
                await asyncio.sleep(0)
        finally:
            self._text_banner()

    def stop_loading(self) -> None:
        if self.loading is not None and not self.loading.done():
            self.loading.cancel()

    def copy_text(self) -> None:
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(self._text_source)

    def _show_markdown(self, text: str) -> None:
        if self.markdown_view is None:
            self.markdown_view = SafeMarkdownBrowser()
            self.markdown_view.setObjectName("partMarkdown")
            self.stack.addWidget(self.markdown_view)
            self.markdown_view.set_markdown(text)
        self.stack.setCurrentWidget(self.markdown_view)
        self.banner_box.setVisible(False)

    # ---------------------------------------------------------------- image
    def _show_image(self, data: bytes) -> None:
        if self._image is None:
            image = QImage()
            if not image.loadFromData(data):
                self.mode_buttons["image"].setEnabled(False)
                self._show_problems("the blob does not decode as an image; showing hex")
                self.mode = "hex"
                self.mode_buttons["hex"].setChecked(True)
                self._show_hex(data)
                return
            self._image = image
        image = self._image
        self.image_scroll.set_image(image)
        self.zoom_combo.setVisible(True)
        self.image_label.setToolTip(plain_tooltip(f"{image.width()} × {image.height()} px"))
        self.meta_label.setText(f"{self._meta_text()} · {image.width()}×{image.height()} px")
        self.stack.setCurrentWidget(self.image_scroll)
        self.banner_box.setVisible(False)

    # ---------------------------------------------------------------- hex
    def _show_hex(self, data: bytes) -> None:
        self._hex_shown = min(len(data), HEX_PREVIEW_BYTES)
        self.hex_view.setPlainText(hex_dump(data, 0, HEX_PREVIEW_BYTES))
        self.stack.setCurrentWidget(self.hex_view)
        self._hex_banner(len(data))

    def _hex_banner(self, total: int) -> None:
        more = self._hex_shown < total
        self.banner.setText(
            f"Showing the first {format_size(self._hex_shown)} of {format_size(total)}; "
            "Save as… writes all of it."
            if more
            else ""
        )
        self.banner_box.setVisible(more)
        self.more_hex_button.setVisible(more)
        self.load_all_button.setVisible(False)
        self.stop_button.setVisible(False)

    def more_hex(self) -> None:
        data = self.part.decode()
        dump = hex_dump(data, self._hex_shown, HEX_PREVIEW_BYTES)
        cursor = QTextCursor(self.hex_view.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText("\n" + dump)
        self._hex_shown = min(len(data), self._hex_shown + HEX_PREVIEW_BYTES)
        self._hex_banner(len(data))

    # ---------------------------------------------------------------- save
    def save_as(self) -> None:
        p = self.part
        name = suggested_filename(p.uri, p.mime_type, p.kind == "blob")
        path, _filter = QFileDialog.getSaveFileName(self, "Save resource", name)
        if path:
            self._save_task = asyncio.get_running_loop().create_task(self.save_to(Path(path)))

    async def save_to(self, path: Path) -> None:
        """Write the whole part: the decoded bytes of a blob, the UTF-8 of a text."""
        p = self.part
        try:
            if p.kind == "blob":
                data = await asyncio.to_thread(p.decode)
            else:
                data = (p.text or "").encode("utf-8")
            await asyncio.to_thread(path.write_bytes, data)
        except (OSError, BlobDecodeError) as exc:
            self._show_problems(f"could not save to {path}: {exc}")
            return
        self.saved.emit(str(path))


class ResourceContentsView(QWidget):
    """All parts of one read result: one part directly, several in tabs."""

    def __init__(self) -> None:
        super().__init__()
        self.summary = PlainLabel()
        self.summary.setObjectName("readSummary")
        self.problems = PlainLabel(wrap=True)
        self.problems.setObjectName("readProblems")
        self.problems.setVisible(False)
        self.placeholder = PlainLabel("Nothing read yet.", wrap=True)
        self.placeholder.setObjectName("readPlaceholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setStyleSheet(f"color: {colors().muted.name()}")
        self.body = QStackedWidget()
        self.body.addWidget(self.placeholder)
        self.parts: list[PartView] = []
        self.result: ReadResult | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.problems)
        layout.addWidget(self.body, 1)
        self.summary.setVisible(False)

    def clear(self, message: str = "Nothing read yet.", *, error: bool = False) -> None:
        for view in self.parts:
            view.stop_loading()
        self.parts = []
        self.result = None
        while self.body.count() > 1:
            widget = self.body.widget(1)
            if widget is None:
                break
            self.body.removeWidget(widget)
            widget.deleteLater()
        self.placeholder.setText(message)
        color = colors().error if error else colors().muted
        self.placeholder.setStyleSheet(f"color: {color.name()}")
        self.body.setCurrentWidget(self.placeholder)
        self.summary.setVisible(False)
        self.problems.setVisible(False)

    def show_result(self, result: ReadResult) -> None:
        self.clear()
        self.result = result
        # One part says it all in its own header; several get a summary line.
        if len(result.parts) > 1:
            size = result.total_size
            bits = [result.summary()]
            if size:
                blob = any(p.kind == "blob" for p in result.parts)
                bits.append(format_size(size) if blob else f"{size:,} characters")
            self.summary.setText(" · ".join(bits))
            self.summary.setVisible(True)
        if result.problems:
            self.problems.setText("\n".join(f"⚠ {p}" for p in result.problems))
            self.problems.setStyleSheet(f"color: {colors().warn.name()}")
            self.problems.setVisible(True)
        if not result.parts:
            self.placeholder.setText("The server returned no contents.")
            return
        self.parts = [PartView(part) for part in result.parts]
        if len(self.parts) == 1:
            self.body.addWidget(self.parts[0])
            self.body.setCurrentWidget(self.parts[0])
            return
        tabs = QTabWidget()
        tabs.setObjectName("partTabs")
        tabs.setDocumentMode(True)
        for view in self.parts:
            p = view.part
            tabs.addTab(view, f"{p.index + 1}: {p.mime_type or p.kind}")
            tabs.setTabToolTip(tabs.count() - 1, p.uri or "")
        self.body.addWidget(tabs)
        self.body.setCurrentWidget(tabs)
