"""Two-line rows for the explorer trees: icon, title and marks; then the item's identity
(name, uri...) and its badges as small pills. Text is drawn with QPainter.drawText, which
never interprets markup."""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from inspector.features.catalog.format import Badge, Tone
from inspector.ui.explorer.catalog_models import BADGES_ROLE, MARKS_ROLE, SECONDARY_ROLE
from inspector.ui.widgets.theme import ThemeColors, colors

__all__ = ["CatalogDelegate", "tone_color"]

_PAD: Final = 6
_ICON: Final = 18
_GAP: Final = 4


def tone_color(tone: Tone, c: ThemeColors) -> QColor:
    return {
        "ok": c.ok,
        "warn": c.warn,
        "error": c.error,
        "info": c.out,
        "muted": c.muted,
    }[tone]


class CatalogDelegate(QStyledItemDelegate):
    def _fonts(self, option: QStyleOptionViewItem) -> tuple[QFont, QFont, QFont]:
        title = QFont(option.font)
        title.setWeight(QFont.Weight.DemiBold)
        small = QFont(option.font)
        small.setPointSizeF(max(7.0, small.pointSizeF() * 0.88))
        pill = QFont(small)
        pill.setPointSizeF(max(6.5, small.pointSizeF() * 0.95))
        return title, small, pill

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        title, small, _pill = self._fonts(option)
        height = QFontMetrics(title).height() + QFontMetrics(small).height() + 2 * _PAD + 2
        return QSize(200, max(height, _ICON + 2 * _PAD))

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        opt.text = ""
        opt.icon = QIcon()
        style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, opt, painter, widget)

        c = colors()
        rect: QRect = opt.rect
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        text_color = palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        foreground = index.data(Qt.ItemDataRole.ForegroundRole)
        excluded = isinstance(foreground, QColor)
        muted = text_color if selected else c.muted
        title_font, small_font, pill_font = self._fonts(option)
        title_fm, small_fm = QFontMetrics(title_font), QFontMetrics(small_font)

        painter.save()
        x = rect.left() + _PAD
        right = rect.right() - _PAD
        y1 = rect.top() + _PAD
        line1 = QRect(x, y1, right - x, title_fm.height())
        line2 = QRect(x, line1.bottom() + 2, right - x, small_fm.height())

        icon = index.data(Qt.ItemDataRole.DecorationRole)
        if isinstance(icon, QIcon) and not icon.isNull():
            icon.paint(painter, QRect(x, y1, _ICON, _ICON))
            line1.setLeft(x + _ICON + _GAP)
            line2.setLeft(x + _ICON + _GAP)

        marks = index.data(MARKS_ROLE)
        mark_list = [m for m in marks if isinstance(m, Badge)] if isinstance(marks, list) else []
        badges = index.data(BADGES_ROLE)
        badge_list = [b for b in badges if isinstance(b, Badge)] if isinstance(badges, list) else []
        badge_list = [b for b in badge_list if b not in mark_list]

        # line 1: title, marks on the right
        mark_x = line1.right()
        for mark in reversed(mark_list):
            width = self._pill_width(pill_font, mark)
            if mark_x - width < line1.left() + 60:
                break
            mark_x -= width
            self._pill(
                painter,
                pill_font,
                QRect(mark_x, line1.top() + 1, width, line1.height() - 2),
                mark,
                c,
                selected,
            )
            mark_x -= _GAP
        painter.setFont(title_font)
        painter.setPen(c.muted if excluded and not selected else text_color)
        title = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        title_rect = QRect(line1.left(), line1.top(), max(0, mark_x - line1.left()), line1.height())
        painter.drawText(
            title_rect,
            int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
            title_fm.elidedText(title, Qt.TextElideMode.ElideRight, title_rect.width()),
        )

        # line 2: identity, then pills as far as they fit
        secondary = str(index.data(SECONDARY_ROLE) or "")
        pill_widths = [self._pill_width(pill_font, b) for b in badge_list]
        pills_total = sum(pill_widths) + _GAP * len(pill_widths)
        avail = line2.width()
        text_width = small_fm.horizontalAdvance(secondary) + 2 if secondary else 0
        if secondary and pills_total:
            text_width = min(text_width, max(avail - pills_total - _GAP, avail * 55 // 100))
        px = line2.left()
        if secondary:
            painter.setFont(small_font)
            painter.setPen(muted)
            painter.drawText(
                QRect(px, line2.top(), text_width, line2.height()),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                small_fm.elidedText(secondary, Qt.TextElideMode.ElideMiddle, text_width),
            )
            px += text_width + _GAP * 2
        hidden = 0
        for badge, width in zip(badge_list, pill_widths, strict=True):
            if px + width > line2.right():
                hidden += 1
                continue
            self._pill(
                painter,
                pill_font,
                QRect(px, line2.top(), width, line2.height()),
                badge,
                c,
                selected,
            )
            px += width + _GAP
        if hidden and px + 16 <= line2.right():
            painter.setFont(pill_font)
            painter.setPen(muted)
            painter.drawText(
                QRect(px, line2.top(), line2.right() - px, line2.height()),
                int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                f"+{hidden}",
            )
        painter.restore()

    @staticmethod
    def _pill_width(font: QFont, badge: Badge) -> int:
        return QFontMetrics(font).horizontalAdvance(badge.label) + 10

    @staticmethod
    def _pill(
        painter: QPainter,
        font: QFont,
        rect: QRect,
        badge: Badge,
        c: ThemeColors,
        selected: bool,
    ) -> None:
        color = tone_color(badge.tone, c)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(color if not selected else QColor("white"))
        if badge.implied:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        fill = QColor(color)
        fill.setAlpha(0 if badge.implied else (70 if c.dark else 38))
        painter.setBrush(fill)
        r = rect.adjusted(0, 1, 0, -1)
        painter.drawRoundedRect(r, r.height() / 2, r.height() / 2)
        painter.setFont(font)
        if badge.implied:
            f = QFont(font)
            f.setItalic(True)
            painter.setFont(f)
        painter.setPen(color if not selected else QColor("white"))
        painter.drawText(r, int(Qt.AlignmentFlag.AlignCenter), badge.label)
        painter.restore()
