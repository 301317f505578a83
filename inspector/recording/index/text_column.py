"""The raw-text column of a traffic log opened from session files: offsets into the files.

A live log keeps each row's raw text in a list. An opened file already holds the texts, as
JSON strings in its lines, so this column keeps only where each one is (two integers a
row: 16 bytes), maps the files (the kernel pages them in and out), and decodes a row's
string when the row is read. Rows whose raw text is not a span of a file (an HTTP summary,
a user action, bytes kept as base64) are kept as given, in a small map.

The files (the parts of one session, in order) share one range of offsets: a part starts
where the previous one ended. `find_rows` searches the files' bytes for a needle (see
`text_find`), so a find or text filter over a million rows does not decode them.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import re
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from itertools import compress, repeat
from operator import add, ge, lt, sub
from pathlib import Path
from typing import overload

from inspector.recording.index.text_find import FindPlan, mid_escape
from inspector.traffic.filter import text_hit

__all__ = ["FileTextColumn", "MappedParts"]

_BLOCK = 8 << 20  # bytes searched at once by find_rows
_BACKSLASH = 0x5C
_SAMPLE = 64 << 10  # the bytes of a block that say whether its hits are many
# Non-ASCII characters whose lower case is ASCII (K, İ), raw or escaped.
_LOWERING = (b"\xe2\x84\xaa", b"\xc4\xb0", b"\\u21", b"\\u01")
_ESCAPED_LOWERING = re.compile(rb"\\u[02]1")  # the escaped ones (one search of the block)


def _has_lowering(data: bytes) -> bool:
    """Does `data` hold one of `_LOWERING`? In two searches at most: an ASCII block (checked
    a word at a time) holds neither raw form, and one pattern finds both escaped forms."""
    if not data.isascii() and (b"\xe2\x84\xaa" in data or b"\xc4\xb0" in data):
        return True
    return _ESCAPED_LOWERING.search(data) is not None


class MappedParts:
    """The files of one session, mapped read-only, at consecutive offsets."""

    def __init__(self, paths: Sequence[Path]) -> None:
        self.paths = list(paths)
        self.bases: list[int] = []
        self.maps: list[mmap.mmap | bytes] = []
        base = 0
        for path in self.paths:
            with path.open("rb") as f:
                size = f.seek(0, 2)
                buf: mmap.mmap | bytes = (
                    mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
                )
            self.bases.append(base)
            self.maps.append(buf)
            base += size
        self.size = base

    def part_of(self, offset: int) -> int:
        return bisect_right(self.bases, offset) - 1 if len(self.bases) > 1 else 0

    def slice(self, start: int, end: int) -> bytes:
        """Bytes [start, end) (within one part)."""
        k = self.part_of(start)
        base = self.bases[k]
        return self.maps[k][start - base : end - base]

    def close(self) -> None:
        for buf in self.maps:
            if isinstance(buf, mmap.mmap):
                # A view of it may still be alive: the GC unmaps it then.
                with contextlib.suppress(BufferError):
                    buf.close()


class FileTextColumn:
    """A `TrafficLog` raw column (see `TrafficLog(raw=...)`): spans of JSON strings in the
    session's files, decoded on access; other rows kept as given."""

    def __init__(self, parts: MappedParts) -> None:
        self.parts = parts
        self.starts = array("q")  # offset of the string's opening quote
        self.ends = array("q")  # offset after its closing quote (== start: kept as given)
        self.kept: dict[int, str | bytes] = {}
        # Blocks of the files known to hold no capital (nothing a lower case changes): a
        # search ignoring case reads them in place (find_rows).
        self._lower_case: dict[tuple[int, int], bool] = {}
        self._plain_starts: list[int] = []  # ranges of the files the index saw hold no
        self._plain_ends: list[int] = []  # capital (merged, in order)

    def note_plain(self, start: int, end: int, chunk: bytes) -> None:
        """The index read bytes [start, end): remember whether they hold no capital."""
        if chunk.lower() != chunk or _has_lowering(chunk):  # (lower(): ASCII letters only)
            return
        if self._plain_ends and self._plain_ends[-1] == start:
            self._plain_ends[-1] = end
        else:
            self._plain_starts.append(start)
            self._plain_ends.append(end)

    def _plain(self, lo: int, hi: int) -> bool | None:
        i = bisect_right(self._plain_starts, lo) - 1
        if i >= 0 and self._plain_ends[i] >= hi:
            return True
        return self._lower_case.get((lo, hi))

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, index: int) -> str | bytes: ...
    @overload
    def __getitem__(self, index: slice) -> list[str | bytes]: ...
    def __getitem__(self, index: int | slice) -> str | bytes | list[str | bytes]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.starts)))]
        if index < 0:
            index += len(self.starts)
        start, end = self.starts[index], self.ends[index]
        if start == end:
            return self.kept[index]
        data = self.parts.slice(start, end)
        try:
            text = json.loads(data)
        except ValueError:  # the file was damaged there: show what is there
            return data[1:-1].decode("utf-8", "replace")
        return text if isinstance(text, str) else data.decode("utf-8", "replace")

    def __iter__(self) -> Iterator[str | bytes]:
        return (self[i] for i in range(len(self.starts)))

    # -- growing
    def append(self, raw: str | bytes) -> None:
        """A row whose text is not a span of the files."""
        at = self.ends[-1] if self.ends else 0
        self.kept[len(self.starts)] = raw
        self.starts.append(at)
        self.ends.append(at)

    def extend_spans(self, starts: array[int], ends: array[int]) -> None:
        self.starts.extend(starts)
        self.ends.extend(ends)

    def set_span(self, index: int, start: int, end: int) -> None:
        """Row `index` (the last one) is the JSON string at [start, end) after all."""
        self.kept.pop(index, None)
        self.starts[index] = start
        self.ends[index] = end

    def clear(self) -> None:
        del self.starts[:]
        del self.ends[:]
        self.kept.clear()

    def __delitem__(self, index: slice) -> None:
        self.clear()

    # -- finding
    def find_rows(self, needle: str, start: int, stop: int) -> list[int]:
        """The rows in [start, stop) whose text holds `needle` (ignoring case when it is
        all lower case, as `text_hit`), found in the files' bytes a block at a time: a
        block without the needle costs one C-level search; in a block with it, each row's
        span is searched (C-level calls mapped over the rows)."""
        stop = min(stop, len(self.starts))
        found: list[int] = []
        if stop > start:
            plan = FindPlan(needle)
            row = start
            while row < stop:
                end_row = self._block_end(row, stop)
                found.extend(self._find_in_block(plan, row, end_row))
                row = end_row
        if self.kept:
            hit = text_hit(needle)
            extra = [i for i, raw in self.kept.items() if start <= i < stop and hit(raw)]
            if extra:
                found = sorted(set(found).union(extra))
        return found

    def _block_end(self, row: int, stop: int) -> int:
        """The end of the block of rows from `row`: about _BLOCK bytes, within one part."""
        starts = self.starts
        first = starts[row]
        limit = first + _BLOCK
        parts = self.parts
        k = parts.part_of(first)
        if k + 1 < len(parts.bases):
            limit = min(limit, parts.bases[k + 1])
        return max(row + 1, bisect_left(starts, limit, row, stop))

    def _find_in_block(self, plan: FindPlan, row: int, end_row: int) -> list[int]:
        starts, ends = self.starts, self.ends
        lo, hi = starts[row], ends[end_row - 1]
        if hi <= lo:
            return []
        k = self.parts.part_of(lo)
        buf, base = self.parts.maps[k], self.parts.bases[k]
        a, b = lo - base, hi - base
        probe = plan.caseless if plan.fold else plan.prefilter
        if probe is not None and buf.find(probe, a, b) < 0:
            return []  # a literal every hit holds as is: not there, the block is not read
        plain = self._plain(lo, hi) if plan.fold else None
        as_is = not plan.fold or plain  # a match holds the prefilter as is
        if as_is and plan.prefilter is not None and buf.find(plan.prefilter, a, b) < 0:
            return []
        rows = end_row - row
        in_place_first = array("q", map(add, starts[row:end_row], repeat(1 - base)))
        in_place_last = array("q", map(sub, ends[row:end_row], repeat(1 + base)))
        if not plan.simple:  # the pattern of alternatives, over the mapped file
            if as_is and plan.prefilter is not None and plan.anchor is not None:
                return _anchored(
                    buf, plan, in_place_first, in_place_last, row, a, b
                )  # searched only around the prefilter's places
            return _sparse(buf, plan.pattern, in_place_first, in_place_last, row, a, b) or []
        if not plan.lower or plain:  # the literal as is: no case to fold, or none to lower
            sample = buf[a : min(b, a + _SAMPLE)]
            sampled_rows = bisect_right(in_place_first, a + len(sample))
            found = None
            if sample.count(plan.literal) * 8 < max(sampled_rows, 1):  # not dense: hit by hit
                found = _sparse(
                    buf, plan.literal, in_place_first, in_place_last, row, a, b, rows // 8
                )
            if found is not None:
                return found
            hay = buf[a:b]  # many hits: row by row, below
        else:
            data = buf[a:b]
            hay = data.lower()
            self._lower_case[(lo, hi)] = hay == data and not _has_lowering(data)
            if plan.prefilter is not None and hay.find(plan.prefilter) < 0:
                return []
            first = array("q", map(add, starts[row:end_row], repeat(1 - lo)))
            last = array("q", map(sub, ends[row:end_row], repeat(1 + lo)))
            if plan.needs_pattern(data):
                return _sparse(data, plan.pattern, first, last, row, 0, len(data)) or []
            found = _sparse(hay, plan.literal, first, last, row, 0, len(hay), rows // 8)
            if found is not None:
                return found
        return _dense(
            hay,
            plan.literal,
            array("q", map(sub, in_place_first, repeat(a))),
            array("q", map(sub, in_place_last, repeat(a))),
            row,
        )


Haystack = bytes | mmap.mmap


def _sparse(
    hay: Haystack,
    needle: bytes | re.Pattern[bytes],
    first: array[int],
    last: array[int],
    row: int,
    pos: int,
    stop: int,
    limit: int | None = None,
) -> list[int] | None:
    """Rows with a hit in hay[pos:stop], hit by hit: each hit's row by bisection over the
    texts' first characters (`first`; `last`: each closing quote), kept when the hit is
    inside the text and on a character of it. None past `limit` rows (a dense needle)."""
    out: list[int] = []
    size = len(needle) if isinstance(needle, bytes) else 0
    while True:
        if isinstance(needle, bytes):
            p = hay.find(needle, pos, stop)
            end = p + size
        else:
            m = needle.search(hay, pos, stop)
            p, end = (m.start(), m.end()) if m is not None else (-1, -1)
        if p < 0:
            return out
        i = bisect_right(first, p) - 1
        if i >= 0 and end <= last[i] and not mid_escape(hay, first[i], p):
            out.append(row + i)
            if limit is not None and len(out) > limit:
                return None
            pos = last[i]
        else:
            pos = p + 1


def _anchored(
    hay: Haystack,
    plan: FindPlan,
    first: array[int],
    last: array[int],
    row: int,
    pos: int,
    stop: int,
) -> list[int]:
    """`_sparse` for a pattern whose every match holds `plan.prefilter` as is: the pattern
    is tried only in a window around each place of the prefilter."""
    assert plan.prefilter is not None and plan.anchor is not None
    run, (back, ahead) = plan.prefilter, plan.anchor
    pattern = plan.pattern
    out: list[int] = []
    while True:
        q = hay.find(run, pos, stop)
        if q < 0:
            return out
        start, window_end = max(pos, q - back), min(stop, q + len(run) + ahead)
        accepted = -1
        while accepted < 0:
            m = pattern.search(hay, start, window_end)
            if m is None:
                break
            p, end = m.span()
            i = bisect_right(first, p) - 1
            if i >= 0 and end <= last[i] and not mid_escape(hay, first[i], p):
                accepted = i
            start = p + 1
        if accepted >= 0:
            out.append(row + accepted)
            pos = max(last[accepted], q + 1)
        else:
            pos = q + 1


def _dense(hay: bytes, literal: bytes, first: array[int], last: array[int], row: int) -> list[int]:
    """Rows with a hit, row by row (C-level calls mapped over the rows): for a needle in
    many rows of the block."""
    hits = list(map(hay.find, repeat(literal), first, last))
    idx = list(compress(range(len(hits)), map(ge, hits, repeat(0))))
    if not idx:
        return []
    if len(idx) == len(hits):  # a hit in every row
        ps, fs = hits, list(first)
    else:
        ps = [hits[i] for i in idx]
        fs = [first[i] for i in idx]
    # Plainly on a character: no \u escape just before, no backslash right before (a hit
    # is at or after its row's first character: p - 1 is in the row).
    unicode_escapes = list(
        map(hay.rfind, repeat(b"\\u"), map(max, fs, map(sub, ps, repeat(5))), ps)
    )
    prev = bytes(map(hay.__getitem__, map(sub, ps, repeat(1))))
    if _BACKSLASH not in prev and all(map(lt, unicode_escapes, repeat(0))):
        return list(map(add, idx, repeat(row)))
    out: list[int] = []
    for i, p, u, b in zip(idx, ps, unicode_escapes, prev, strict=True):
        while p >= 0 and (u >= 0 or b == _BACKSLASH) and mid_escape(hay, first[i], p):
            p = hay.find(literal, p + 1, last[i])
            u, b = -1, 0  # found again: look closer (mid_escape) from here on
            if p >= 0:
                u, b = hay.rfind(b"\\u", max(first[i], p - 5), p), hay[p - 1]
        if p >= 0:
            out.append(row + i)
    return out
