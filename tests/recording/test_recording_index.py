"""The index of a session file (recording/index) gives what the eager reader gives: the
same rows, pairs, texts, catalog, notifications, errors, actions and lint, for every kind
of line, an older format, CRLF, blank lines; a corrupt or cut-off line is said with its line
number and byte offset; and a find over the file's bytes finds what a find over the texts
finds, for tricky needles."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.recording.index import text_column
from inspector.recording.index.indexed_loader import IndexedLoader, load_indexed
from inspector.recording.offline import OfflineSession, load_offline
from inspector.recording.reader import SessionFileError, read_session
from inspector.traffic.filter import TrafficFilter
from inspector.traffic.log import TrafficLog
from tests.helpers.varied_session import TRICKY_TEXTS, older_format, write_varied_session

pytestmark = pytest.mark.timeout(60)


def _rows(log: TrafficLog) -> list[tuple[object, ...]]:
    return [
        (
            *(e.direction, e.kind, e.method, e.msg_id, e.mono, e.wall, e.raw, e.pair),
            *(e.latency, e.note, e.truncated, e.http, e.error_code),
            (e.extra or {}).get("sse_event_id"),
        )
        for e in log.entries
    ]


def _same(lazy: OfflineSession, eager: OfflineSession) -> None:
    assert _rows(lazy.traffic) == _rows(eager.traffic)
    assert list(lazy.messages.rows) == list(eager.messages.rows)
    assert bytes(lazy.messages.levels) == bytes(eager.messages.levels)
    assert [(i.category, i.message, i.entry_index) for i in lazy.errors.items] == [
        (i.category, i.message, i.entry_index) for i in eager.errors.items
    ]
    for kind, lst in eager.catalog.lists.items():
        other = lazy.catalog[kind]
        assert [i.raw for i in other.items] == [i.raw for i in lst.items], kind
        assert (other.loaded, other.stale, other.error) == (lst.loaded, lst.stale, lst.error)
    assert lazy.stderr == eager.stderr
    assert lazy.actions == eager.actions
    assert [(f.index, f.rule) for f in lazy.lint.findings] == [
        (f.index, f.rule) for f in eager.lint.findings
    ]
    assert lazy.ready == eager.ready
    assert lazy.recorded.duration == eager.recorded.duration
    assert {m: (s.count, s.errors, s.latencies) for m, s in lazy.traffic.stats.items()} == {
        m: (s.count, s.errors, s.latencies) for m, s in eager.traffic.stats.items()
    }


def _both(path: Path) -> tuple[OfflineSession, OfflineSession]:
    return load_indexed(path), load_offline(read_session(path))


def test_the_index_of_every_kind_of_line_equals_the_eager_reader(tmp_path: Path) -> None:
    lazy, eager = _both(write_varied_session(tmp_path / "v.jsonl"))
    _same(lazy, eager)
    assert len(lazy.traffic) > 20 and len(lazy.messages) == len(TRICKY_TEXTS)
    assert [i.raw["name"] for i in lazy.catalog["tools"].items] == ["echo", "add"]
    assert lazy.recorded.lazy and not lazy.recorded.problems
    # A plain ASCII frame's size is its length in bytes, read from the file.
    ping = next(e for e in lazy.traffic.entries if e.method == "ping")
    assert ping.size == len(ping.raw.encode())


def test_an_older_file_without_method_and_id_opens_the_same(tmp_path: Path) -> None:
    old = older_format(write_varied_session(tmp_path / "v.jsonl"), tmp_path / "old.jsonl")
    assert '"method":"ping"' not in old.read_text(encoding="utf-8")
    lazy, eager = _both(old)
    _same(lazy, eager)
    # Its texts are still read from the file, not kept in memory.
    column = lazy.traffic._column
    assert column is not None and len(column.kept) < 5  # type: ignore[attr-defined]


def test_crlf_and_blank_lines_open_the_same(tmp_path: Path) -> None:
    path = write_varied_session(tmp_path / "v.jsonl")
    lines = path.read_bytes().split(b"\n")
    odd = tmp_path / "odd.jsonl"
    odd.write_bytes(b"\r\n".join(lines[:5]) + b"\r\n\n   \n" + b"\n".join(lines[5:]))
    lazy, eager = _both(odd)
    _same(lazy, eager)


def test_a_corrupt_middle_line_and_a_cut_last_line_say_where(tmp_path: Path) -> None:
    path = write_varied_session(tmp_path / "v.jsonl")
    lines = path.read_bytes().split(b"\n")[:-1]
    lines[6] = b'{"type":"frame","t":0.05,"wall":17\x00\x00\x00 garbage'
    cut = b"\n".join(lines) + b'\n{"type":"frame","t":9,"wall":1700000009.0,"transport":"stdio","di'
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(cut)
    lazy, eager = _both(broken)
    _same(lazy, eager)
    offset_7 = len(b"\n".join(lines[:6])) + 1
    offset_last = len(b"\n".join(lines)) + 1
    problems = lazy.recorded.problems
    assert problems[0] == (
        f"line 7 (byte offset {offset_7:,}) holds 3 NUL bytes (what a crash can leave on some "
        "filesystems); they were ignored"
    )
    assert problems[1].startswith(f"line 7 (byte offset {offset_7:,}) is not valid JSON")
    assert problems[2] == (
        f"line {len(lines) + 1} (byte offset {offset_last:,}) is incomplete (the recording "
        "was cut off, e.g. by a crash); everything before it was read"
    )
    assert [n for n in lazy.notes if "line 7" in n]
    assert [e.message for e in lazy.errors.items if e.category == "session file"] == problems


def test_two_frames_on_one_line_and_an_unusual_frame_line_read_as_the_eager_reader(
    tmp_path: Path,
) -> None:
    """As many frame heads as lines, but one line holds two and another none the pattern
    reads: the slice is read line by line, not as a run of plain lines."""
    lines = write_varied_session(tmp_path / "v.jsonl").read_bytes().split(b"\n")
    plain = [i for i, line in enumerate(lines) if line.startswith(b'{"type":"frame","t":')]
    a, b = next(i for i in plain if i + 1 in plain), plain[-1]
    lines[b] = lines[b].replace(b'"text":', b'"extra":1,"text":', 1)
    lines[a : a + 2] = [lines[a] + lines[a + 1]]
    odd = tmp_path / "odd.jsonl"
    odd.write_bytes(b"\n".join(lines))
    lazy, eager = _both(odd)
    _same(lazy, eager)
    assert lazy.recorded.problems == eager.recorded.problems
    assert f"line {a + 1} " in lazy.recorded.problems[0]


def test_a_file_that_is_not_a_session_is_refused_as_before(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    with pytest.raises(SessionFileError, match="is empty"):
        load_indexed(empty)
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(SessionFileError, match="not an MCP Inspector session file"):
        load_indexed(other)
    cut = tmp_path / "cut.jsonl"
    cut.write_text('{"type":"header","format":"mcp-inspector-sess')
    with pytest.raises(SessionFileError, match="cut off inside its header"):
        load_indexed(cut)
    with pytest.raises(SessionFileError, match="cannot read"):
        load_indexed(tmp_path / "missing.jsonl")


def test_parts_of_one_session_index_as_one(tmp_path: Path) -> None:
    path = write_varied_session(tmp_path / "v.jsonl")
    lines = path.read_bytes().split(b"\n")
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_bytes(b"\n".join(lines[:12]) + b"\n")
    second.write_bytes(lines[0] + b"\n" + b"\n".join(lines[12:]))  # with its own header
    lazy = IndexedLoader([first, second]).run()
    _same(lazy, load_offline(read_session(path)))


def test_the_index_grows_a_slice_at_a_time(tmp_path: Path) -> None:
    path = write_varied_session(tmp_path / "v.jsonl")
    indexer = IndexedLoader([path])
    steps = 1
    grown = [len(indexer.traffic)]
    while not indexer.step(max_bytes=300):
        steps += 1
        grown.append(len(indexer.traffic))
    assert steps > 5 and grown == sorted(grown) and indexer.fraction == 1.0
    _same(indexer.offline, load_offline(read_session(path)))


def test_a_flood_of_alike_lines_among_others_indexes_as_the_eager_reader(tmp_path: Path) -> None:
    """Slices of alike logging notifications are read by a template of their lines; a
    slice with another line (another level, a request, a line written with spaces, a
    line cut by a crash) is read as before, and the template comes back after it."""
    lines = write_varied_session(tmp_path / "v.jsonl").read_bytes().split(b"\n")
    flood = next(
        line for line in lines if b'"method":"notifications/message"' in line and b"info" in line
    )
    others = [line for line in lines[1:] if line.startswith(b'{"type":"frame"')]
    tail = flood.split(b',"transport":', 1)[1]
    body = []
    for n in range(600):
        times = b'{"type":"frame","t":%d.5,"wall":17%08d.25' % (n, n)
        if n == 444:
            times = b'{"type":"frame","t":1.2.3,"wall":17%08d.25' % n  # not a number
        body.append(times + b',"transport":' + tail)
        if n % 150 == 149:
            body.append(others[(n // 150) % len(others)])
    path = tmp_path / "flood.jsonl"
    path.write_bytes(b"\n".join([lines[0], *body, body[-1][:40]]))
    indexer = IndexedLoader([path])
    templated = 0
    while not indexer.step(max_bytes=2000):
        templated += indexer.scan._template is not None
    assert templated > 10
    eager = load_offline(read_session(path))
    _same(indexer.offline, eager)
    assert len(indexer.offline.messages) == 599  # all but the line with no time
    problems = indexer.offline.recorded.problems
    assert problems == eager.recorded.problems and len(problems) == 2
    assert "is not valid JSON" in problems[0] and "is incomplete" in problems[1]


NEEDLES = [
    '"hi"',
    "C:\\temp",
    "\\new",
    "\\n",
    "n",
    "u00e9",
    "\\u00e9",
    "café",
    "CAFÉ",
    "école",
    "ünïcödé",
    "🎉",
    "two\nlines",
    "\t",
    "needle",
    "Needle",
    "mixed case",
    "k",
    "istanbul",
    "i̇",
    "jsonrpc",
    '"level": "info"',
    "notifications/message",
    "text",
    "zzz",
    '\\"',
]


@pytest.mark.parametrize("old", [False, True])
def test_find_over_the_file_equals_find_over_the_texts(
    tmp_path: Path, old: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_varied_session(tmp_path / "v.jsonl")
    if old:
        path = older_format(path, tmp_path / "old.jsonl")
    lazy = load_indexed(path)
    eager = load_offline(read_session(path))
    # Indexed in small slices: some hold no capital, and a search ignoring case reads them
    # in place; the others are lowered first.
    sliced = IndexedLoader([path])
    while not sliced.step(max_bytes=200):
        pass
    assert sliced.column._plain_starts  # some slices hold no capital
    for needle in NEEDLES:
        flt = TrafficFilter(text=needle)
        assert lazy.traffic.filter_indices(flt) == eager.traffic.filter_indices(flt), needle
        with monkeypatch.context() as small:
            small.setattr(text_column, "_BLOCK", 150)  # searched a few rows at a time
            found = sliced.traffic.filter_indices(flt)
        assert found == eager.traffic.filter_indices(flt), needle
        within = lazy.traffic.filter_indices(flt, 5, 20)
        assert within == eager.traffic.filter_indices(flt, 5, 20), needle
        both = TrafficFilter(text=needle, directions=frozenset({"in"}))
        assert lazy.traffic.filter_indices(both) == eager.traffic.filter_indices(both), needle


def test_find_in_texts_written_with_ascii_escapes(tmp_path: Path) -> None:
    """Another writer may escape every non-ASCII character (\\u00e9): found all the same."""
    path = write_varied_session(tmp_path / "v.jsonl")
    lines = path.read_text(encoding="utf-8").splitlines()
    ascii_lines = [json.dumps(json.loads(line), ensure_ascii=True) for line in lines]
    escaped = tmp_path / "ascii.jsonl"
    escaped.write_text("\n".join(ascii_lines) + "\n", encoding="utf-8")
    lazy = load_indexed(escaped)
    eager = load_offline(read_session(escaped))
    _same(lazy, eager)
    for needle in NEEDLES:
        flt = TrafficFilter(text=needle)
        assert lazy.traffic.filter_indices(flt) == eager.traffic.filter_indices(flt), needle
