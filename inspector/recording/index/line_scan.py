"""Reading a session file's lines for its index, a slice at a time, without parsing texts.

A frame line written by our recorder has a fixed shape (docs/session-format.md): type,
times, transport, direction, kind, the frame's method and id, then its text, last. One
compiled pattern over the mapped file reads all but the text of a run of such lines at C
speed (`FrameRun`: columns, and where each text is). Any other line (a handshake, stderr,
HTTP, a note, an error or invalid frame, a file written before lines had method and id)
is handed over whole (`OtherLine`) to be parsed as JSON. A line that cannot be read is
said with its line number and byte offset; the scan goes on after it.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import add, methodcaller, sub
from typing import Any, Final

from inspector.recording.index.text_column import MappedParts
from inspector.recording.reader import SessionFileError, parse_first_line
from inspector.traffic.record import DIRECTIONS, KINDS

__all__ = ["FrameRun", "LineScan", "OtherLine"]

# The head of a plain frame line, up to its text (an empty group marks where the text's
# JSON string starts). The text itself is not scanned: a line's end is the next line's
# start, checked to be `"}` and a newline.
_TIMES: Final = rb'\{"type":"frame","t":(-?[0-9][0-9.eE+-]*),"wall":(-?[0-9][0-9.eE+-]*)'
_FRAME: Final = re.compile(
    _TIMES + rb","
    rb'"transport":"[a-z_-]*",'
    rb'"dir":"((?:in|out|from-app|to-app|)","kind":"(?:request|response|notification))",'
    rb'(?:"method":"([^"\\\n]*)",)?(?:"id":(-?[0-9]{1,18}|"[^"\\\n]*"),)?'
    rb'"text":(?="'
    # A logging notification's level, when its text starts as SDKs write one (else None).
    rb'(?:\{(?:\\"jsonrpc\\": ?\\"2\.0\\", ?)?\\"method\\": ?\\"notifications/message\\", ?'
    rb'\\"params\\": ?\{\\"level\\": ?\\"([a-z]{1,20})\\")?)'
)
_LINE_END: Final = b'"}\n'
# A plain frame line's first bytes, and one line's end with the next one's start: counted
# over a slice (C-level searches), they say that every line of it is a plain frame line.
_HEAD: Final = b'{"type":"frame","t":'
_JOINT: Final = _LINE_END + _HEAD

# The direction and kind as the pattern reads them together ('in","kind":"request').
_DIR_KIND: Final = {
    f'{d}","kind":"{k}'.encode(): (DIRECTIONS.index(d), KINDS.index(k))
    for d in DIRECTIONS
    for k in ("request", "response", "notification")
}
_DIR_OF: Final = {key: codes[0] for key, codes in _DIR_KIND.items()}
_KIND_OF: Final = {key: codes[1] for key, codes in _DIR_KIND.items()}
_RESPONSE: Final = KINDS.index("response")
_NOTIFICATION: Final = KINDS.index("notification")
_GROUPS: Final = methodcaller("groups")
_TEXT_START: Final = methodcaller("end")
_SPAN: Final = methodcaller("span")


@dataclass(slots=True)
class FrameRun:
    """Consecutive plain frame lines, as columns (offsets are the parts' shared range)."""

    mono: array[float]
    wall: array[float]
    dirs: bytes  # codes into record.DIRECTIONS
    kinds: bytes  # codes into record.KINDS
    methods: tuple[bytes | None, ...]
    ids: tuple[bytes | None, ...]  # as written: digits, or a JSON string
    levels: tuple[bytes | None, ...]  # a logging notification's level, when read at once
    starts: array[int]  # each text's opening quote
    ends: array[int]  # after its closing quote
    size: array[int]  # each text's length, escapes counted as one byte
    part: int  # the part (file) the run is in
    chunk: bytes  # the slice of the file it was read from
    chunk_base: int  # the chunk's first byte, in the shared range


@dataclass(slots=True)
class OtherLine:
    """A line to parse as JSON (or to report): its number and place in its part."""

    line_no: int
    offset: int  # of the line's first byte, in its part's file
    start: int  # the same, in the parts' shared range
    data: bytes  # without its newline
    last: bool  # the part's last line, without a newline: perhaps cut off
    part: int


@dataclass
class LineScan:
    """Walks the parts' lines in order, `step()` a slice at a time."""

    parts: MappedParts
    header: dict[str, Any] = field(init=False)
    part: int = 0
    pos: int = 0  # in the current part
    line_no: int = 1  # of the line at pos, in the current part
    done: bool = False
    # Told of each slice read (its range and bytes): the raw column notes where no capital is.
    seen: Callable[[int, int, bytes], None] | None = None
    _template: _Template | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        first = self.parts.maps[0] if self.parts.maps else b""
        path = self.parts.paths[0]
        if not bytes(first[:4096]).strip() and (len(first) <= 4096 or not bytes(first).strip()):
            raise SessionFileError(f"{path} is empty")
        nl = first.find(b"\n")
        line = first[: nl if nl >= 0 else len(first)]
        self.header = parse_first_line(path, line, complete=nl >= 0)
        self.pos = nl + 1 if nl >= 0 else len(first)
        self.line_no = 2
        self._skip_empty_parts()

    @property
    def offset(self) -> int:
        """How far the scan got, in the parts' shared range (for progress)."""
        if self.done:
            return self.parts.size
        return self.parts.bases[self.part] + self.pos

    def _skip_empty_parts(self) -> None:
        while self.part < len(self.parts.maps) and self.pos >= len(self.parts.maps[self.part]):
            self.part += 1
            if self.part < len(self.parts.maps):
                self.pos = 0
                self.line_no = 1
                if self.part > 0:
                    self._skip_part_header()
        if self.part >= len(self.parts.maps):
            self.done = True

    def _skip_part_header(self) -> None:
        """A later part may start with its own header line (a rotated file): skip it."""
        buf = self.parts.maps[self.part]
        if buf[:16] == b'{"type":"header"' or buf[:17] == b'{"type": "header"':
            nl = buf.find(b"\n")
            self.pos = nl + 1 if nl >= 0 else len(buf)
            self.line_no = 2

    def step(self, max_bytes: int = 4 << 20) -> Iterator[FrameRun | OtherLine]:
        """The next slice of about `max_bytes` (whole lines), in order."""
        if self.done:
            return
        buf = self.parts.maps[self.part]
        size = len(buf)
        end = buf.find(b"\n", min(self.pos + max_bytes, size) - 1) if self.pos < size else -1
        endpos = end + 1 if end >= 0 else size
        chunk = buf[self.pos : endpos]  # a copy: bytes are searched and counted at C speed
        base = self.parts.bases[self.part] + self.pos
        if self.seen is not None:
            self.seen(base, base + len(chunk), chunk)
        lines = chunk.count(b"\n")
        run = self._uniform(chunk, lines, base) if self._template is not None else None
        if run is not None:
            yield run
        else:
            matches = list(_FRAME.finditer(chunk))
            if _all_plain(chunk, lines, len(matches)):
                spans = array("q", chain.from_iterable(map(_SPAN, matches)))
                run = _run(matches, _ends(spans, chunk), chunk, base, self.part, spans[1::2])
                if run is not None:
                    self._template = _Template.of(run, matches[0], chunk)
                    yield run
                else:
                    yield from self._mixed(chunk, base, [], endpos == size)
            else:
                yield from self._mixed(chunk, base, matches, endpos == size)
        self.line_no += lines
        self.pos = endpos
        self._skip_empty_parts()

    def _uniform(self, chunk: bytes, lines: int, base: int) -> FrameRun | None:
        """The slice as a run of lines like the last slice's (`_Template`), or None (the
        template is then dropped until a slice of such lines comes again)."""
        template = self._template
        assert template is not None
        matches = list(template.pattern.finditer(chunk))
        if not _all_plain(chunk, lines, len(matches)):
            self._template = None
            return None
        spans = array("q", chain.from_iterable(map(_SPAN, matches)))
        t, wall = zip(*map(_GROUPS, matches), strict=True)
        n = len(matches)
        starts = array("q", map(sub, spans[1::2], repeat(template.back)))
        run = _columns(
            (t, wall, bytes((template.dir,)) * n, bytes((template.kind,)) * n),
            ((template.method,) * n, (None,) * n, (template.level,) * n),
            (starts, _ends(spans, chunk)),
            chunk,
            base,
            self.part,
        )
        if run is None:
            self._template = None
        return run

    def _mixed(
        self, chunk: bytes, base: int, matches: list[re.Match[bytes]], at_end: bool
    ) -> Iterator[FrameRun | OtherLine]:
        """A slice with other lines, line by line: runs of plain frame lines between them,
        each other line alone."""
        heads = {m.start(): m for m in matches}
        line_no = self.line_no
        run: list[re.Match[bytes]] = []
        ends = array("q")
        run_line = line_no
        at = 0
        size = len(chunk)
        while at < size:
            nl = chunk.find(b"\n", at)
            stop = nl if nl >= 0 else size
            m = heads.get(at)
            if (
                m is not None
                and nl >= 0
                and chunk.startswith(_LINE_END, nl - 2)
                and chunk.find(_HEAD, m.end(), nl) < 0  # not two frames run together
            ):
                if not run:
                    run_line = line_no
                run.append(m)
                ends.append(nl - 1)
            else:
                if run:
                    yield from self._frames_or_lines(run, ends, chunk, base, run_line)
                    run, ends = [], array("q")
                data = chunk[at:stop]
                if data.strip():
                    yield self._line(line_no, at, base, data, nl < 0 and at_end)
            line_no += 1
            at = stop + 1
        if run:
            yield from self._frames_or_lines(run, ends, chunk, base, run_line)

    def _line(self, line_no: int, at: int, base: int, data: bytes, last: bool) -> OtherLine:
        return OtherLine(line_no, self.pos + at, base + at, data, last, self.part)

    def _frames_or_lines(
        self,
        run: list[re.Match[bytes]],
        ends: array[int],
        chunk: bytes,
        base: int,
        line_no: int,
    ) -> Iterator[FrameRun | OtherLine]:
        frames = _run(run, ends, chunk, base, self.part)
        if frames is not None:
            yield frames
            return
        for k, m in enumerate(run):  # lines without the method or id their kind has
            data = chunk[m.start() : ends[k] + 1]
            yield self._line(line_no + k, m.start(), base, data, False)


def _run(
    matches: list[re.Match[bytes]],
    ends: array[int],
    chunk: bytes,
    base: int,
    part: int,
    starts: array[int] | None = None,
) -> FrameRun | None:
    """The run's columns (`ends`: after each text's closing quote; `starts`: each text's
    opening quote, when known); None when a line lacks the method or id its kind has
    (written before lines repeated them: parse its frame)."""
    t, wall, dir_kind, methods, ids, levels = zip(*map(_GROUPS, matches), strict=True)
    kinds = bytes(map(_KIND_OF.__getitem__, dir_kind))
    if methods.count(None) != kinds.count(_RESPONSE) or ids.count(None) != kinds.count(
        _NOTIFICATION
    ):
        return None
    if starts is None:
        starts = array("q", map(_TEXT_START, matches))
    return _columns(
        (t, wall, bytes(map(_DIR_OF.__getitem__, dir_kind)), kinds),
        (methods, ids, levels),
        (starts, ends),
        chunk,
        base,
        part,
    )


def _columns(
    heads: tuple[Sequence[bytes], Sequence[bytes], bytes, bytes],
    named: tuple[tuple[bytes | None, ...], tuple[bytes | None, ...], tuple[bytes | None, ...]],
    spans: tuple[array[int], array[int]],
    chunk: bytes,
    base: int,
    part: int,
) -> FrameRun | None:
    """A run from its lines' fields as read: (t, wall, dirs, kinds), (methods, ids,
    levels), and (starts, ends) of the texts in `chunk`; None when a time is no number."""
    t, wall, dirs, kinds = heads
    starts, ends = spans
    # The text's byte length: its span less the quotes and one byte per backslash (exact
    # unless the text holds backslashes or control characters).
    backslashes = map(chunk.count, repeat(b"\\"), starts, ends)
    size = array("q", map(sub, map(sub, ends, map(add, starts, repeat(2))), backslashes))
    try:
        mono, walls = array("d", map(float, t)), array("d", map(float, wall))
    except ValueError:  # a time such as 1.2.3: its line is said as not valid JSON
        return None
    if base:
        starts = array("q", map(add, starts, repeat(base)))
        ends = array("q", map(add, ends, repeat(base)))
    return FrameRun(
        mono,
        walls,
        dirs,
        kinds,
        *named,
        starts,
        ends,
        size,
        part,
        chunk,
        base,
    )


def _all_plain(chunk: bytes, lines: int, matched: int) -> bool:
    """Is every line of `chunk` a plain frame line, `matched` (as many as the lines) being
    where they start? Each line ends with `"}` and the next starts with the head (the
    joints), and the heads, as many as the lines and the matches, are where the lines and
    the matches start (C-level counts, no check per line)."""
    return (
        matched == lines > 0
        and chunk.startswith(_HEAD)
        and chunk.endswith(_LINE_END)
        and chunk.count(_JOINT) == lines - 1
        and chunk.count(_HEAD) == lines
    )


def _ends(spans: array[int], chunk: bytes) -> array[int]:
    """After each text's closing quote: 2 bytes before the next line (`"}` and newline)."""
    nexts = spans[2::2]
    nexts.append(len(chunk))
    return array("q", map(sub, nexts, repeat(2)))


@dataclass(frozen=True, slots=True)
class _Template:
    """The lines of a flood of logging notifications differ only in their times and the
    rest of their texts: a pattern of one such line, read as literal bytes but for its
    times, reads a slice of them at twice the speed of `_FRAME` and with two groups."""

    pattern: re.Pattern[bytes]
    back: int  # from a match's end back to its text's opening quote
    dir: int
    kind: int
    method: bytes | None
    level: bytes

    @classmethod
    def of(cls, run: FrameRun, first: re.Match[bytes], chunk: bytes) -> _Template | None:
        """A template of the run's lines when they are all alike (the same direction, kind,
        method and level, no id), else None."""
        n = len(run.kinds)
        method, level = run.methods[0], run.levels[0]
        if (
            level is None
            or run.levels.count(level) != n
            or run.methods.count(method) != n
            or run.dirs.count(run.dirs[0]) != n
            or run.kinds.count(run.kinds[0]) != n
            or run.ids.count(None) != n
        ):
            return None
        level_end = first.end(6) + 2  # after the level's closing escaped quote
        same = chunk[first.end(2) : level_end]  # from after the wall time
        if len(same) > 1024:  # a huge method name: no pattern of it
            return None
        pattern = re.compile(_TIMES + re.escape(same))
        return cls(pattern, level_end - first.end(), run.dirs[0], run.kinds[0], method, level)


def decode_id(raw: bytes) -> int | str:
    """An id as written in a frame line: digits, or a JSON string."""
    if raw[:1] == b'"':
        value = json.loads(raw)
        return value if isinstance(value, str) else str(value)
    return int(raw)
