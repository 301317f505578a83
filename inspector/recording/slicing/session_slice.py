"""A slice of a recorded session as a new session file: a time range, some methods, or the
rows a view shows.

What is kept, in the file's order, each line exactly as it was recorded:
- the header (with a `slice` object saying where the slice came from) and the first
  `ready` line, always, so the slice opens and replays like any session;
- the traffic lines chosen (`SliceSpec`): frames, stderr, HTTP exchanges, notes and user
  actions within the time range; with methods given, only the frames of those methods;
  with rows given (a view's shown or selected rows), only those rows;
- a request and its answer (response or error, matched by id and direction) together: a
  kept request keeps its answer and a kept answer its request, wherever they fall;
- the HTTP exchange (`http` line) that carried a kept frame;
- the lint lines about kept lines, their `row` renumbered for the slice; the others drop.

Times (`t`) keep counting from the original recording's start, so a row shows the same
time in the slice as in the whole session. Qt-free.
"""

from __future__ import annotations

import fnmatch
import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Final, cast

from inspector.recording.reader import RecordedEvent, RecordedSession

__all__ = ["LINT_LINES", "ROW_LINES", "SliceResult", "SliceSpec", "slice_lines", "write_slice"]

# The lines that are rows of a view of the session (the offline view makes one row each).
ROW_LINES: Final = frozenset({"frame", "stderr", "http", "note", "model", "action"})
# The lines a `lint` line's `row` counts (see docs/session-format.md).
LINT_LINES: Final = frozenset({"frame", "stderr", "http", "note", "model"})
_ANSWERS: Final = frozenset({"response", "error"})


@dataclass(frozen=True)
class SliceSpec:
    start: float | None = None  # t, seconds since the recording started (inclusive)
    end: float | None = None  # inclusive
    methods: tuple[str, ...] = ()  # method names or glob patterns (`tools/*`)
    rows: frozenset[int] | None = None  # the view's rows (0-based, ROW_LINES in file order)

    def describe(self) -> dict[str, Any]:
        """The `slice` object of the new header."""
        out: dict[str, Any] = {}
        if self.start is not None:
            out["from"] = self.start
        if self.end is not None:
            out["to"] = self.end
        if self.methods:
            out["methods"] = list(self.methods)
        if self.rows is not None:
            out["rows"] = len(self.rows)
        return out


@dataclass
class SliceResult:
    lines: int = 0  # written, the header included
    frames: int = 0
    rows: int = 0  # traffic lines (ROW_LINES) kept
    lint: int = 0
    first_t: float | None = None
    last_t: float | None = None
    problems: list[str] = field(default_factory=list)  # the source's, as read

    def summary(self) -> str:
        span = (
            f", t {self.first_t:.3f}–{self.last_t:.3f} s"
            if self.first_t is not None and self.last_t is not None
            else ""
        )
        lint = f", {self.lint} lint finding(s)" if self.lint else ""
        return f"{self.rows:,} row(s), {self.frames:,} of them frames{lint}{span}"


def _method_and_id(event: RecordedEvent) -> tuple[str | None, Any]:
    data = event.data
    method, msg_id = data.get("method"), data.get("id")
    if method is None and msg_id is None and isinstance(data.get("text"), str):
        try:
            message = json.loads(data["text"])
        except ValueError:
            return None, None
        if isinstance(message, dict):
            method, msg_id = message.get("method"), message.get("id")
    if isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
        msg_id = None
    return (method if isinstance(method, str) else None), msg_id


_OTHER_SIDE: Final = {"out": "in", "in": "out", "to-app": "from-app", "from-app": "to-app"}


def _pairs(events: list[RecordedEvent]) -> dict[int, int]:
    """Event position -> its pair's position (a request and its answer, both ways)."""
    open_requests: dict[tuple[str, Any], int] = {}
    pairs: dict[int, int] = {}
    for pos, event in enumerate(events):
        if event.type != "frame":
            continue
        method, msg_id = _method_and_id(event)
        if msg_id is None:
            continue
        if method is not None and event.kind == "request":
            open_requests[(event.direction, msg_id)] = pos
        elif event.kind in _ANSWERS:
            asker = _OTHER_SIDE.get(event.direction, "")
            request = open_requests.pop((asker, msg_id), None)
            if request is not None:
                pairs[pos] = request
                pairs[request] = pos
    return pairs


def _matches(method: str | None, patterns: tuple[str, ...]) -> bool:
    return method is not None and any(fnmatch.fnmatchcase(method, p) for p in patterns)


def slice_lines(recorded: RecordedSession, spec: SliceSpec) -> Iterator[dict[str, Any]]:
    """The slice's lines (header first), each the recorded line's object (see the doc)."""
    events = recorded.events
    chosen: set[int] = set()
    row = -1
    for pos, event in enumerate(events):
        if event.type not in ROW_LINES:
            continue
        row += 1
        if spec.rows is not None and row not in spec.rows:
            continue
        t = event.t
        if (spec.start is not None and t < spec.start) or (spec.end is not None and t > spec.end):
            continue
        if spec.methods:
            if event.type != "frame":
                continue
            method, _ = _method_and_id(event)
            if not _matches(method, spec.methods):
                continue
        chosen.add(pos)
    pairs = _pairs(events)
    if spec.methods:  # an answer's method is its request's
        for pos, event in enumerate(events):
            if event.type == "frame" and event.kind in _ANSWERS and pos in pairs:
                method, _ = _method_and_id(events[pairs[pos]])
                if _matches(method, spec.methods) and _in_range(event, spec):
                    chosen.add(pos)
    chosen |= {pairs[p] for p in list(chosen) if p in pairs}
    carried = {
        via["xid"]
        for p in chosen
        if isinstance(via := events[p].data.get("via"), dict) and isinstance(via.get("xid"), int)
    }
    header = {k: v for k, v in recorded.header.items() if k != "part"}
    header["slice"] = {"of": recorded.path.name, **spec.describe()}
    yield header
    ready_done = False
    lint_row = -1
    new_rows: dict[int, int] = {}  # the source's lint row -> the slice's
    kept_lint_lines = 0
    for pos, event in enumerate(events):
        if event.type in LINT_LINES:
            lint_row += 1
        keep = pos in chosen or (event.type == "http" and event.data.get("xid") in carried)
        if event.type == "ready" and not ready_done:
            ready_done = True
            yield event.data
        elif event.type == "lint":
            source_row = event.data.get("row")
            if isinstance(source_row, int) and source_row in new_rows:
                yield {**event.data, "row": new_rows[source_row]}
        elif keep:
            if event.type in LINT_LINES:
                new_rows[lint_row] = kept_lint_lines
                kept_lint_lines += 1
            yield event.data


def _in_range(event: RecordedEvent, spec: SliceSpec) -> bool:
    t = event.t
    return not (
        (spec.start is not None and t < spec.start) or (spec.end is not None and t > spec.end)
    )


def write_slice(recorded: RecordedSession, spec: SliceSpec, target: Path) -> SliceResult:
    """Write the slice to `target` (gzip- or zstd-compressed when its name ends in `.gz`,
    `.zst` or `.zstd`), through a temporary file next to it. Raises OSError, ValueError
    (the target is the source)."""
    sources = {p.resolve() for p in (recorded.parts or [recorded.path]) if p.exists()}
    if target.exists() and target.resolve() in sources:
        raise ValueError(f"{target} is the session being sliced: write the slice elsewhere")
    result = SliceResult(problems=list(recorded.problems))
    temp = target.with_name(target.name + ".writing")
    try:
        with _open_for(temp, target.name) as out:
            for line in slice_lines(recorded, spec):
                out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode())
                out.write(b"\n")
                result.lines += 1
                kind = line.get("type")
                if kind in ROW_LINES:
                    result.rows += 1
                    result.frames += kind == "frame"
                    t = line.get("t")
                    if isinstance(t, int | float):
                        result.first_t = t if result.first_t is None else result.first_t
                        result.last_t = t
                elif kind == "lint":
                    result.lint += 1
        temp.replace(target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return result


def _open_for(path: Path, name: str) -> BinaryIO:
    if name.endswith(".gz"):
        return cast(BinaryIO, gzip.open(path, "wb"))
    if name.endswith((".zst", ".zstd")):
        import zstandard

        return cast(BinaryIO, zstandard.ZstdCompressor().stream_writer(path.open("wb")))
    return path.open("wb")
