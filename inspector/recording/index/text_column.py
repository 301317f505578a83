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
        # A literal every hit holds as is: a block without it is not even copied.
        probe = plan.caseless if plan.fold else plan.prefilter
        if probe is not None:
            k = self.parts.part_of(lo)
            base = self.parts.bases[k]
            if self.parts.maps[k].find(probe, lo - base, hi - base) < 0:
                return []
        data = self.parts.slice(lo, hi)
        low = data.lower() if plan.fold else data
        if plan.prefilter is not None and low.find(plan.prefilter) < 0:
            return []
        hay = low if plan.lower else data
        first = array("q", map(add, starts[row:end_row], repeat(1 - lo)))  # after the quote
        last = array("q", map(sub, ends[row:end_row], repeat(1 + lo)))  # at the quote
        pattern = plan.pattern if plan.needs_pattern(hay) else None
        out: list[int] = []
        if pattern is None:
            literal = plan.literal
            hits = list(map(hay.find, repeat(literal), first, last))
            idx = list(compress(range(len(hits)), map(ge, hits, repeat(0))))
            if not idx:
                return out
            if len(idx) == len(hits):  # a hit in every row (a dense needle)
                ps, fs = hits, list(first)
            else:
                ps = [hits[i] for i in idx]
                fs = [first[i] for i in idx]
            # Plainly on a character: no \u escape just before, no backslash right before
            # (a hit is at or after its row's first character: p - 1 is in the row).
            unicode_escapes = list(
                map(hay.rfind, repeat(b"\\u"), map(max, fs, map(sub, ps, repeat(5))), ps)
            )
            prev = bytes(map(hay.__getitem__, map(sub, ps, repeat(1))))
            if _BACKSLASH not in prev and all(map(lt, unicode_escapes, repeat(0))):
                return list(map(add, idx, repeat(row)))
            checks = list(zip(idx, ps, unicode_escapes, prev, strict=True))
            out = [row + i for i, _p, u, b in checks if u < 0 and b != _BACKSLASH]
            if len(out) == len(checks):
                return out
            for i, p, u, b in checks:  # near an escape: look closer
                if u < 0 and b != _BACKSLASH:
                    continue
                while p >= 0 and mid_escape(hay, first[i], p):
                    p = hay.find(literal, p + 1, last[i])
                if p >= 0:
                    out.append(row + i)
            return sorted(out)
        matches = list(map(pattern.search, repeat(data), first, last))
        for i in compress(range(len(matches)), matches):
            m = matches[i]
            while m is not None and mid_escape(data, first[i], m.start()):
                m = pattern.search(data, m.start() + 1, last[i])
            if m is not None:
                out.append(row + i)
        return out
