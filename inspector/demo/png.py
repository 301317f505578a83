"""Tiny PNG encoder (RGB, 8 bits per channel) built on zlib and struct only."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Sequence

RGB = tuple[int, int, int]


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def encode_png(width: int, height: int, pixel: Callable[[int, int], RGB]) -> bytes:
    """Encode an RGB image whose colour at (x, y) is ``pixel(x, y)``."""
    if width <= 0 or height <= 0:
        raise ValueError("image dimensions must be positive")
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter type: None
        for x in range(width):
            r, g, b = pixel(x, y)
            rows.extend((r & 0xFF, g & 0xFF, b & 0xFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + _chunk(b"IEND", b"")
    )


def gradient_png(size: int = 16) -> bytes:
    """A square diagonal gradient, used as the demo logo."""
    scale = 255 // max(size - 1, 1)
    return encode_png(size, size, lambda x, y: (x * scale, y * scale, 255 - x * scale // 2))


def bar_chart_png(values: Sequence[float], width: int = 96, height: int = 48) -> bytes:
    """A bar chart of non-negative ``values`` on a light background."""
    top = max([*values, 0.0]) or 1.0
    count = max(len(values), 1)
    slot = max(width // count, 1)
    heights = [round(max(v, 0.0) / top * (height - 4)) for v in values]
    palette: list[RGB] = [(66, 133, 244), (219, 68, 55), (244, 180, 0), (15, 157, 88)]

    def pixel(x: int, y: int) -> RGB:
        index = x // slot
        if (
            index < len(heights)
            and x % slot not in (0, slot - 1)
            and height - 1 - y < heights[index]
        ):
            return palette[index % len(palette)]
        return (245, 245, 245) if y % 8 else (220, 220, 220)

    return encode_png(width, height, pixel)
