"""Light and dark: follow the system's color scheme, or a choice from the command line.

The Fusion style with a palette we set ourselves looks the same everywhere, and
lets the app switch when the system does (QStyleHints.colorSchemeChanged).
Colors for log rows and JSON highlighting come from `colors()`, chosen for the
current palette.

A switch while the window is open (View ▸ Theme, or the system's scheme) reaches what is
already on screen too (`_restyle`): a widget styled with a style sheet keeps the palette
it was polished with until it is polished again, and its sheet names the old theme's
colours, so each sheet is given again with every colour of the old theme replaced by the
same role's colour in the new one, and every JSON highlighter takes the new colours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QSyntaxHighlighter
from PySide6.QtWidgets import QApplication, QPlainTextEdit, QTextEdit

__all__ = ["ThemeChoice", "ThemeColors", "apply_theme", "colors", "is_dark"]

ThemeChoice = Literal["system", "light", "dark"]
_choice: ThemeChoice = "system"


@dataclass(frozen=True)
class ThemeColors:
    dark: bool
    out: QColor  # requests we sent
    incoming: QColor
    error: QColor
    invalid_bg: QColor
    pair_bg: QColor
    muted: QColor
    ok: QColor
    warn: QColor
    json_key: QColor
    json_string: QColor
    json_number: QColor
    json_keyword: QColor
    json_punct: QColor


_LIGHT = ThemeColors(
    dark=False,
    out=QColor("#1f5fbf"),
    incoming=QColor("#1d7a3a"),
    error=QColor("#c62828"),
    invalid_bg=QColor("#fde2e1"),
    pair_bg=QColor("#fff1b8"),
    muted=QColor("#6b6b6b"),
    ok=QColor("#1d7a3a"),
    warn=QColor("#a35c00"),
    json_key=QColor("#0b4f9e"),
    json_string=QColor("#a31515"),
    json_number=QColor("#098658"),
    json_keyword=QColor("#7b30d0"),
    json_punct=QColor("#555555"),
)
_DARK = ThemeColors(
    dark=True,
    out=QColor("#7cb7ff"),
    incoming=QColor("#7bd88f"),
    error=QColor("#ff7b72"),
    invalid_bg=QColor("#5a1f1f"),
    pair_bg=QColor("#4d4220"),
    muted=QColor("#9a9a9a"),
    ok=QColor("#7bd88f"),
    warn=QColor("#f0b35a"),
    json_key=QColor("#9cdcfe"),
    json_string=QColor("#ce9178"),
    json_number=QColor("#b5cea8"),
    json_keyword=QColor("#c586c0"),
    json_punct=QColor("#bbbbbb"),
)


def _dark_palette() -> QPalette:
    p = QPalette()
    window, base, alt, text = (
        QColor("#2b2d30"),
        QColor("#1e1f22"),
        QColor("#26282b"),
        QColor("#dfe1e5"),
    )
    disabled = QColor("#7a7d82")
    p.setColor(QPalette.ColorRole.Window, window)
    p.setColor(QPalette.ColorRole.WindowText, text)
    p.setColor(QPalette.ColorRole.Base, base)
    p.setColor(QPalette.ColorRole.AlternateBase, alt)
    p.setColor(QPalette.ColorRole.ToolTipBase, window)
    p.setColor(QPalette.ColorRole.ToolTipText, text)
    p.setColor(QPalette.ColorRole.PlaceholderText, disabled)
    p.setColor(QPalette.ColorRole.Text, text)
    p.setColor(QPalette.ColorRole.Button, QColor("#3a3d41"))
    p.setColor(QPalette.ColorRole.ButtonText, text)
    p.setColor(QPalette.ColorRole.BrightText, QColor("#ff6b6b"))
    p.setColor(QPalette.ColorRole.Light, QColor("#4a4d52"))
    p.setColor(QPalette.ColorRole.Midlight, QColor("#3a3d41"))
    p.setColor(QPalette.ColorRole.Mid, QColor("#303236"))
    p.setColor(QPalette.ColorRole.Dark, QColor("#18191b"))
    p.setColor(QPalette.ColorRole.Shadow, QColor("#000000"))
    p.setColor(QPalette.ColorRole.Highlight, QColor("#2f65ca"))
    p.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    p.setColor(QPalette.ColorRole.Link, QColor("#7cb7ff"))
    for role in (
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.Text,
        QPalette.ColorRole.ButtonText,
    ):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


def _system_is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    return bool(hints is not None and hints.colorScheme() == Qt.ColorScheme.Dark)


def apply_theme(app: QApplication, choice: ThemeChoice = "system") -> None:
    """Fusion with a light or dark palette; "system" follows the system, live."""
    global _choice
    first = app.property("inspector_theme_applied") is None
    _choice = choice
    before = colors()
    app.setStyle("Fusion")
    dark = choice == "dark" or (choice == "system" and _system_is_dark())
    app.setPalette(_dark_palette() if dark else app.style().standardPalette())
    after = colors()
    if after is not before:
        _restyle(app, before, after)
    if first:
        app.setProperty("inspector_theme_applied", True)
        hints = QGuiApplication.styleHints()
        if hints is not None:
            hints.colorSchemeChanged.connect(lambda _scheme: apply_theme(app, _choice))


def _swaps(old: ThemeColors, new: ThemeColors) -> dict[str, str]:
    """Each colour of `old` as a sheet writes it ("#1d7a3a", "29, 122, 58") → `new`'s."""
    out: dict[str, str] = {}
    for f in fields(ThemeColors):
        a, b = getattr(old, f.name), getattr(new, f.name)
        if isinstance(a, QColor) and isinstance(b, QColor):
            out.setdefault(a.name().lower(), b.name())
            out.setdefault(
                f"{a.red()}, {a.green()}, {a.blue()}", f"{b.red()}, {b.green()}, {b.blue()}"
            )
    return out


def restyled(sheet: str, old: ThemeColors, new: ThemeColors) -> str:
    """`sheet` with the old theme's colours (hex, or rgba's three numbers) as the new's."""
    swaps = _swaps(old, new)
    pattern = re.compile(
        "|".join(re.escape(k) for k in sorted(swaps, key=len, reverse=True)), re.IGNORECASE
    )
    return pattern.sub(lambda m: swaps[m.group(0).lower()], sheet)


def _restyle(app: QApplication, old: ThemeColors, new: ThemeColors) -> None:
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if sheet:
            widget.setStyleSheet(restyled(sheet, old, new))  # polished again, new palette
        if isinstance(widget, QPlainTextEdit | QTextEdit):
            # Re-colouring is no edit: the field must not say its text changed (a form's
            # JSON view would be read back into the form, over what was typed since).
            blocked = widget.blockSignals(True)
            try:
                for highlighter in widget.document().findChildren(QSyntaxHighlighter):
                    refresh = getattr(highlighter, "refresh_colors", None)  # ours (JSON)
                    if callable(refresh):
                        refresh()
            finally:
                widget.blockSignals(blocked)


def is_dark(palette: QPalette | None = None) -> bool:
    pal = palette if palette is not None else QGuiApplication.palette()
    return pal.color(QPalette.ColorRole.Window).lightness() < 128


def colors() -> ThemeColors:
    return _DARK if is_dark() else _LIGHT
