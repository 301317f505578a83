"""A session file opened through its index: the offline view's stores, filled a slice at a
time, with no frame's text parsed unless it must be.

`IndexedLoader(paths)` maps the files (the parts of one session, in order) and reads the
header; each `step()` indexes the next slice of lines into the same `OfflineSession` the
eager `load_offline` builds (a file-backed `TrafficLog`, the catalog, stderr, logging
notifications, errors, actions, lint), so a view can show the first rows at once and
grow as the rest is read. Plain frame lines (`line_scan.FrameRun`) go in column by column;
any other line goes through `OfflineLoader` as parsed JSON. Parsed too, being few: the
list requests and their results (the catalog), and a logging notification whose level a
pattern cannot read for sure. A line that cannot be read is said with where it is.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Sequence
from itertools import compress, repeat
from operator import is_not
from pathlib import Path
from typing import Final

from inspector.common.log_levels import level_index
from inspector.features.catalog.lists import KIND_OF_LIST
from inspector.protocol.wire.jsonrpc import RequestId, parse_frame
from inspector.recording.index.line_scan import FrameRun, LineScan, OtherLine, decode_id
from inspector.recording.index.parts import OpenedParts
from inspector.recording.index.text_column import FileTextColumn, MappedParts
from inspector.recording.offline import OfflineLoader, OfflineSession
from inspector.recording.reader import (
    RecordedEvent,
    RecordedSession,
    SessionFileError,
    without_nuls,
)
from inspector.traffic.bulk_rows import extend_rows
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import DIRECTIONS, KINDS

__all__ = ["FIRST_BYTES", "SLICE_BYTES", "IndexedLoader", "load_indexed"]

_IN: Final = DIRECTIONS.index("in")
_OUT: Final = DIRECTIONS.index("out")
_REQUEST: Final = KINDS.index("request")
_RESPONSE: Final = KINDS.index("response")
_MESSAGE: Final = b"notifications/message"
_LIST_CHANGED: Final = {
    b"notifications/tools/list_changed": "tools",
    b"notifications/resources/list_changed": "resources",
    b"notifications/prompts/list_changed": "prompts",
}
_LISTS: Final = frozenset(m.encode() for m in KIND_OF_LIST)
# The level of a logging notification, read in its escaped text when it is said once.
_LEVEL_KEY: Final = b'\\"level\\":'
_LEVEL: Final = re.compile(rb'\\"level\\": ?\\"([a-z]+)\\"')
_SPANNED: Final = frozenset({"frame", "stderr", "note", "model"})
SLICE_BYTES: Final = 512 << 10  # one step: about 1,700 lines, a few milliseconds
FIRST_BYTES: Final = 256 << 10  # the first step: a screenful of rows and more, at once


class _MethodCodes(dict[bytes | None, int]):
    """A method as written (bytes) -> its code in the log's method column."""

    def __init__(self, log: TrafficLog) -> None:
        super().__init__({None: 0})
        self.log = log

    def __missing__(self, key: bytes | None) -> int:
        assert key is not None
        code = self[key] = self.log.method_code(key.decode("utf-8", "replace"))
        return code


class _LevelCodes(dict[bytes, int]):
    """A level as written (bytes) -> its index (common.log_levels)."""

    def __missing__(self, key: bytes) -> int:
        code = self[key] = level_index(key.decode("ascii", "replace"))
        return code


class IndexedLoader:
    """The index of one session's files, built `step()` by `step()` into `offline`."""

    def __init__(self, paths: Sequence[Path], *, opened: OpenedParts | None = None) -> None:
        """`paths`: plain files, in order. `opened`: what they were opened from (the path a
        person chose, its parts' names and problems; it keeps decompressed copies alive)."""
        self.paths = list(paths)
        self.opened = opened
        self.names = opened.names if opened is not None else [p.name for p in self.paths]
        try:
            self.parts = MappedParts(self.paths)
        except OSError as exc:
            where = exc.filename or self.paths[0]
            raise SessionFileError(f"cannot read {where}: {exc.strerror or exc}") from exc
        self.column = FileTextColumn(self.parts)
        self.scan = LineScan(self.parts, seen=self.column.note_plain)
        source = opened.path if opened is not None else self.paths[0]
        problems = list(opened.problems) if opened is not None else []
        recorded = RecordedSession(
            source, self.scan.header, problems=problems, lazy=True, last_t=0.0
        )
        recorded.parts = opened.sources if opened is not None else list(self.paths)
        self.loader = OfflineLoader(recorded, TrafficLog(raw=self.column))
        self.offline: OfflineSession = self.loader.out
        self.traffic = self.loader.traffic
        self._codes = _MethodCodes(self.traffic)
        self._levels = _LevelCodes()
        self.finished = False

    @classmethod
    def open(cls, path: Path) -> IndexedLoader:
        """The session `path` names: its parts found, decompressed when compressed."""
        opened = OpenedParts(path)
        try:
            return cls(opened.paths, opened=opened)
        except BaseException:
            opened.close()
            raise

    @property
    def fraction(self) -> float:
        """How much of the files is indexed, 0..1."""
        return self.scan.offset / self.parts.size if self.parts.size else 1.0

    def step(self, max_bytes: int | None = None) -> bool:
        """Index the next slice (SLICE_BYTES); True once everything is (the stores are then
        complete)."""
        if self.finished:
            return True
        for item in self.scan.step(SLICE_BYTES if max_bytes is None else max_bytes):
            if isinstance(item, FrameRun):
                self._frames(item)
            else:
                self._other(item)
        if self.scan.done:
            self.loader.finish()
            self.finished = True
        return self.finished

    def run(self) -> OfflineSession:
        while not self.step():
            pass
        return self.offline

    # ------------------------------------------------------------------ plain frames
    def _frames(self, run: FrameRun) -> None:
        traffic = self.traffic
        first = len(traffic)
        n = len(run.mono)
        codes = self._codes
        self.column.extend_spans(run.starts, run.ends)
        ids: list[tuple[int, RequestId]] = []
        if run.ids.count(None) != n:
            ids = [(i, decode_id(x)) for i, x in enumerate(run.ids) if x is not None]
        extend_rows(
            traffic,
            mono=run.mono,
            wall=run.wall,
            size=run.size,
            methods=_codes_of(run.methods, codes),
            kinds=run.kinds,
            dirs=run.dirs,
            ids=ids,
        )
        self.loader.record_rows.extend(range(first, first + n))
        recorded = self.loader.recorded
        recorded.last_t = max(recorded.last_t or 0.0, max(run.mono))
        methods = set(run.methods)
        if _MESSAGE in methods or run.levels.count(None) != n:
            self._messages(run, first)
        changes: list[int] = []
        if not methods.isdisjoint(_LIST_CHANGED):
            changes = [i for i, m in enumerate(run.methods) if m in _LIST_CHANGED]
        if ids or changes:
            self._catalog(run, first, ids, changes, methods)

    def _messages(self, run: FrameRun, first: int) -> None:
        """The logging notifications of a run: their rows and levels. The scan read the
        level of those written as SDKs write them; the others are read here."""
        n = len(run.mono)
        levels = run.levels
        codes = self._levels
        if levels.count(None) == n:
            rows: Sequence[int] = []
            found = b""
        elif run.dirs.count(_IN) == n and levels.count(levels[0]) == n:  # a flood
            rows = range(first, first + n)
            found = bytes((codes[levels[0]],)) * n  # type: ignore[index]
        elif run.dirs.count(_IN) == n:
            rows = list(compress(range(first, first + n), map(is_not, levels, repeat(None))))
            found = bytes(map(codes.__getitem__, filter(None, levels)))
        else:
            rows = [first + i for i, lv in enumerate(levels) if lv and run.dirs[i] == _IN]
            found = bytes(codes[lv] for i, lv in enumerate(levels) if lv and run.dirs[i] == _IN)
        if len(rows) != run.methods.count(_MESSAGE):  # some not read at once
            pairs = dict(zip(rows, found, strict=True))
            for i, method in enumerate(run.methods):
                if method == _MESSAGE and run.dirs[i] == _IN and first + i not in pairs:
                    pairs[first + i] = self._level_of(run, i, first + i)
            rows = sorted(pairs)
            found = bytes(pairs[r] for r in rows)
        self.offline.messages.add_many(rows, found)

    def _level_of(self, run: FrameRun, i: int, index: int) -> int:
        """A logging notification's level: by a pattern when its text says it once, else
        from the parsed text."""
        s, e = run.starts[i] - run.chunk_base, run.ends[i] - run.chunk_base
        chunk = run.chunk
        match = _LEVEL.search(chunk, s, e)
        if match is not None and chunk.count(_LEVEL_KEY, s, e) == 1:
            return self._levels[match[1]]
        frame = self.traffic.entries[index].parse()
        params = getattr(frame, "params", None)
        level = params.get("level", "info") if isinstance(params, dict) else "info"
        return level_index(str(level))

    def _catalog(
        self,
        run: FrameRun,
        first: int,
        ids: list[tuple[int, RequestId]],
        changes: list[int],
        methods: set[bytes | None],
    ) -> None:
        """List requests, their results (parsed: they are few) and list changes, in order."""
        loader = self.loader
        asks_lists = not methods.isdisjoint(_LISTS)
        events: list[tuple[int, RequestId | None]] = sorted([*ids, *((i, None) for i in changes)])
        for i, msg_id in events:
            kind, direction = run.kinds[i], run.dirs[i]
            if msg_id is None:
                if direction == _IN:
                    self.offline.catalog.list_changed(_LIST_CHANGED[run.methods[i]])  # type: ignore[index]
                continue
            wanted = (
                kind == _REQUEST and direction == _OUT and asks_lists and run.methods[i] in _LISTS
            ) or (kind == _RESPONSE and direction == _IN and msg_id in loader.list_requests)
            if wanted:
                index = first + i
                frame = parse_frame(self.traffic.entries[index].raw)
                loader._follow(frame, DIRECTIONS[direction], index)

    # ------------------------------------------------------------------ other lines
    def _other(self, line: OtherLine) -> None:
        data = line.data
        if b"\0" in data:
            said: list[str] = []
            data = without_nuls(data, self._where(line), said)
            for problem in said:
                self._problem(problem)
            if not data.strip():
                return
        try:
            value = json.loads(data)
        except (UnicodeDecodeError, ValueError) as exc:
            if line.last:
                self._problem(
                    f"{self._where(line)} is incomplete (the recording was cut off, e.g. by a "
                    "crash); everything before it was read"
                )
            else:
                self._problem(f"{self._where(line)} is not valid JSON ({exc}); skipped")
            return
        if not isinstance(value, dict) or not isinstance(value.get("type"), str):
            self._problem(f"{self._where(line)} is not an event object; skipped")
            return
        event = RecordedEvent(line.line_no, value["type"], value)
        recorded = self.loader.recorded
        if event.type == "ready":
            recorded.events.append(event)
        before = len(self.traffic)
        self.loader.feed(event)
        if "t" in value:
            recorded.last_t = max(recorded.last_t or 0.0, event.t)
        text = value.get("text")
        spanned = event.type in _SPANNED and data is line.data  # (no NULs taken out)
        if len(self.traffic) > before and spanned and isinstance(text, str):
            self._span(line, text, len(self.traffic) - 1)

    def _span(self, line: OtherLine, text: str, index: int) -> None:
        """Keep the row's text as its span of the file, when the line ends with it."""
        data = line.data.rstrip(b"\r")
        at = data.rfind(b'"text":"')
        if at < 0 or not data.endswith(b'"}'):
            return
        try:
            same = json.loads(data[at + 7 : -1]) == text
        except ValueError:
            return
        if same:
            self.column.set_span(index, line.start + at + 7, line.start + len(data) - 1)

    def _where(self, line: OtherLine) -> str:
        where = f"line {line.line_no} (byte offset {line.offset:,})"
        if len(self.paths) > 1:
            where += f" of {self.names[line.part]}"
        return where

    def _problem(self, problem: str) -> None:
        self.loader.recorded.problems.append(problem)
        self.offline.notes.append(f"the file: {problem}")


def _codes_of(methods: tuple[bytes | None, ...], codes: _MethodCodes) -> array[int]:
    """The method column's codes of a run's methods (one look-up when they are alike)."""
    if methods.count(methods[0]) == len(methods):
        return array("I", (codes[methods[0]],)) * len(methods)
    return array("I", map(codes.__getitem__, methods))


def load_indexed(path: Path) -> OfflineSession:
    """The whole session `path` names, indexed (what `load_offline(read_session(path))`
    gives, file-backed)."""
    return IndexedLoader.open(path).run()
