"""Files people keep: gzip and zstd session files read transparently (known by their magic
bytes), rotated parts opened as one session from any part, and damaged files read as far
as they go, each problem naming its line and byte offset."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import zstandard

from inspector.recording.parts import session_parts
from inspector.recording.reader import SessionFileError, read_session
from tests.helpers.session_lines import (
    calls,
    encode,
    header,
    ready_line,
    session_lines,
    write,
    write_parts,
)

REPO = Path(__file__).resolve().parents[2]


def _methods(session_path: Path) -> list[str]:
    session = read_session(session_path)
    return [json.loads(e.raw).get("method", "") for e in session.frames() if e.direction == "out"]


# ------------------------------------------------------------------ compression


@pytest.mark.parametrize("compression", ["gzip", "zstd"])
@pytest.mark.parametrize("name", ["s.jsonl.gz", "s.jsonl.zst", "s.jsonl"])
def test_compressed_files_are_known_by_their_magic_bytes(
    tmp_path: Path, compression: str, name: str
) -> None:
    path = write(tmp_path / name, session_lines(["ping", "tools/list"]), compression)
    session = read_session(path)
    assert session.problems == []
    assert session.path == path and session.parts == [path]
    assert [e.type for e in session.events] == ["ready", "frame", "frame", "frame", "frame"]
    assert session.ready is not None and session.duration == pytest.approx(2.1)


def test_a_plain_file_named_gz_is_read_as_plain(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl.gz", session_lines(["ping"]))
    assert _methods(path) == ["ping"]


def test_the_decompressed_copy_lives_in_the_callers_folder_and_read_session_cleans_up(
    tmp_path: Path,
) -> None:
    path = write(tmp_path / "s.jsonl.zst", session_lines(["ping"]), "zstd")
    parts = session_parts(path, tmp_path / "temp")
    [part] = parts.parts
    assert part.compression == "zstd" and part.plain.parent == tmp_path / "temp"
    assert part.plain.read_bytes() == encode(session_lines(["ping"]))
    before = set(Path(os.environ.get("TMPDIR", "/tmp")).glob("mcp-inspector-read-*"))
    read_session(path)
    assert set(Path(os.environ.get("TMPDIR", "/tmp")).glob("mcp-inspector-read-*")) <= before


def test_a_temporary_folder_that_cannot_be_written_is_said(tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl.gz", session_lines(["ping"]), "gzip")
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    with pytest.raises(SessionFileError, match=r"cannot decompress .*s\.jsonl\.gz into .*"):
        session_parts(path, blocker / "temp")


def test_several_gzip_members_are_one_stream(tmp_path: Path) -> None:
    data = encode(session_lines(["ping", "tools/list"]))
    cut = data.index(b"\n", len(data) // 2) + 1
    path = tmp_path / "s.jsonl.gz"
    path.write_bytes(gzip.compress(data[:cut]) + gzip.compress(data[cut:]))
    assert _methods(path) == ["ping", "tools/list"]


@pytest.mark.parametrize("compression", ["gzip", "zstd"])
def test_a_compressed_file_cut_mid_stream_opens_up_to_its_last_whole_line(
    tmp_path: Path, compression: str
) -> None:
    """A kill -9 while recording: the stream has no end, the last line is half written."""
    data = encode(session_lines(["ping", "tools/list", "prompts/list"]))
    path = tmp_path / "s.jsonl.x"
    if compression == "gzip":
        encoder = zlib_gzip()
        body = encoder.compress(data) + encoder.flush(__import__("zlib").Z_SYNC_FLUSH)
        path.write_bytes(body)  # no end of stream: flushed, then killed
    else:
        writer = zstandard.ZstdCompressor().compressobj()
        half = data[: len(data) - 40]  # the last line only partly written
        body = writer.compress(half) + writer.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        path.write_bytes(body)
    session = read_session(path)
    sent = [json.loads(e.raw)["method"] for e in session.frames() if e.direction == "out"]
    assert sent == ["ping", "tools/list", "prompts/list"]
    [problem] = session.problems
    assert problem.startswith(f"the {compression} stream of s.jsonl.x is cut off after ")
    assert "read up to its last whole line, line " in problem
    if compression == "zstd":
        assert "bytes of a partial line after it dropped" in problem


def zlib_gzip():  # type: ignore[no-untyped-def]
    import zlib

    return zlib.compressobj(wbits=31)


def test_garbage_after_a_valid_gzip_member_is_ignored_and_said(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl.gz"
    path.write_bytes(gzip.compress(encode(session_lines(["ping"]))) + b"this is not gzip")
    session = read_session(path)
    assert [e.type for e in session.events] == ["ready", "frame", "frame"]
    [problem] = session.problems
    assert problem.startswith(
        "16 bytes that are not compressed session data after the gzip data of s.jsonl.gz"
    )


def test_nul_bytes_after_a_zstd_frame_are_named_as_a_crash_leftover(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl.zst"
    data = zstandard.ZstdCompressor().compress(encode(session_lines(["ping"])))
    path.write_bytes(data + bytes(4096))
    session = read_session(path)
    assert len(session.frames()) == 2
    assert session.problems == [
        "4,096 NUL bytes (what a crash can leave on some filesystems) after the zstd data of "
        f"s.jsonl.zst (at compressed byte {len(data):,}); ignored, everything before it was read"
    ]


def test_damaged_gzip_data_keeps_what_came_before_the_damage(tmp_path: Path) -> None:
    lines = [header(), ready_line(), *calls([f"m{n}" for n in range(400)])]
    packed = bytearray(gzip.compress(encode(lines), compresslevel=0))  # stored blocks
    packed[len(packed) // 2 : len(packed) // 2 + 8] = b"\xff" * 8
    path = tmp_path / "s.jsonl.gz"
    path.write_bytes(bytes(packed))
    session = read_session(path)
    assert 0 < len(session.frames()) < 800
    assert any(
        "the gzip data of s.jsonl.gz is damaged at compressed byte" in p for p in session.problems
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x1f\x8bnot really gzip at all", "starts like a gzip-compressed file but is not one"),
        (b"\xfd7zXZ\x00\x00\x04", "is xz-compressed; only gzip and zstd session files are read"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "(it holds binary data, not JSON lines)"),
        (b"\x00" * 5000, "(it holds binary data, not JSON lines)"),
        (b'{"hello": "world"}\n', "(no 'mcp-inspector-session' header)"),
    ],
)
def test_what_is_not_a_session_is_one_clear_sentence(
    tmp_path: Path, data: bytes, message: str
) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(data)
    with pytest.raises(SessionFileError) as caught:
        read_session(path)
    assert message in str(caught.value) and str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


# ------------------------------------------------------------------ damaged plain files


def test_a_nul_filled_tail_is_named_and_everything_before_it_read(tmp_path: Path) -> None:
    data = encode(session_lines(["ping"]))
    path = tmp_path / "s.jsonl"
    path.write_bytes(data + bytes(4096))
    session = read_session(path)
    assert len(session.frames()) == 2
    assert session.problems == [
        f"line 5 (byte offset {len(data):,}) holds 4,096 NUL bytes and nothing else (what a crash "
        "can leave on some filesystems); ignored"
    ]


def test_nul_bytes_before_a_resumed_line_do_not_lose_it(tmp_path: Path) -> None:
    lines = session_lines(["ping", "tools/list"])
    head = encode(lines[:4])
    path = tmp_path / "s.jsonl"
    path.write_bytes(head + bytes(512) + encode(lines[4:]))
    session = read_session(path)
    assert len(session.frames()) == 4
    assert session.problems == [
        f"line 5 (byte offset {len(head):,}) holds 512 NUL bytes (what a crash can leave on some "
        "filesystems); they were ignored"
    ]


def test_a_huge_line_is_skipped_without_being_held(tmp_path: Path) -> None:
    lines = session_lines(["ping"])
    big = {"type": "note", "t": 0.5, "text": "x" * 300_000}
    path = write(tmp_path / "s.jsonl", [*lines[:2], big, *lines[2:]])
    session = read_session(path, max_line_bytes=100_000)
    assert len(session.frames()) == 2
    [problem] = session.problems
    offset = len(encode(lines[:2]))
    assert problem == (
        f"line 3 (byte offset {offset:,}) is 0.3 MB long, over the 0 MiB a session line may have "
        "(a damaged file?); skipped"
    )


# ------------------------------------------------------------------ rotated parts


def _rotated(tmp_path: Path, suffix: str = "", compression: str | None = None) -> list[Path]:
    return write_parts(
        tmp_path / "tap.jsonl",
        [
            [ready_line(), *calls(["ping", "tools/list"])],
            calls(["prompts/list"], start=3.0),
            calls(["resources/list", "tools/call"], start=4.0),
        ],
        suffix,
        compression,
    )


@pytest.mark.parametrize("which", [0, 1, 2])
def test_any_part_opens_every_part_as_one_session(tmp_path: Path, which: int) -> None:
    paths = _rotated(tmp_path)
    session = read_session(paths[which])
    assert session.problems == []
    assert session.parts == paths
    assert session.header["created"] and "part" not in session.header
    assert _methods(paths[which]) == [
        "ping", "tools/list", "prompts/list", "resources/list", "tools/call"
    ]  # fmt: skip
    times = [e.t for e in session.events]
    assert times == sorted(times) and session.duration == pytest.approx(5.1)
    numbers = [e.line_no for e in session.events]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    assert sum(e.type == "header" for e in session.events) == 0


def test_compressed_parts_open_as_one_session(tmp_path: Path) -> None:
    paths = _rotated(tmp_path, ".gz", "gzip")
    assert [p.name for p in paths] == ["tap.jsonl.gz", "tap.part2.jsonl.gz", "tap.part3.jsonl.gz"]
    assert len(read_session(paths[1]).frames()) == 10


def test_a_missing_middle_part_is_named_and_the_rest_opens(tmp_path: Path) -> None:
    paths = _rotated(tmp_path)
    paths[1].unlink()
    session = read_session(paths[0])
    assert session.problems == [
        "part 2 of this recording (tap.part2.jsonl) is missing: the session jumps from part 1 "
        "to part 3 there"
    ]
    assert _methods(paths[2]) == ["ping", "tools/list", "resources/list", "tools/call"]


def test_a_missing_first_part_is_said_and_the_next_header_used(tmp_path: Path) -> None:
    paths = _rotated(tmp_path)
    paths[0].unlink()
    session = read_session(paths[2])
    assert session.problems[0].startswith(
        "the first part of this recording, tap.jsonl, is missing: the session is read from "
        "part 2 (tap.part2.jsonl) on"
    )
    assert "part" not in session.header and len(session.frames()) == 6


def test_an_empty_part_and_a_stale_part_are_skipped_and_said(tmp_path: Path) -> None:
    paths = _rotated(tmp_path)
    paths[1].write_bytes(b"")
    stale = header(part=4, created="2026-11-01T09:00:00.000+00:00")
    write(tmp_path / "tap.part4.jsonl", [stale, *calls(["old/method"], start=9.0)])
    session = read_session(paths[0])
    assert session.problems == [
        "tap.part4.jsonl belongs to another recording (created 2026-11-01T09:00:00.000+00:00, "
        "this one 2026-12-01T10:00:00.000+00:00); skipped",
        "tap.part2.jsonl is empty; skipped",
    ]
    assert len(session.frames()) == 8


def test_the_part_named_decides_which_recording_is_read(tmp_path: Path) -> None:
    """A recording restarted under the same name left an older part 2: opening that part
    opens its own recording, not the newer first part."""
    old = "2026-11-01T09:00:00.000+00:00"
    write(tmp_path / "tap.jsonl", [header(), ready_line(), *calls(["new/method"])])
    write(tmp_path / "tap.part2.jsonl", [header(part=2, created=old), *calls(["old/method"])])
    session = read_session(tmp_path / "tap.part2.jsonl")
    assert session.header["created"] == old and "part" not in session.header
    assert session.problems[0].startswith("tap.jsonl belongs to another recording")
    assert _methods(tmp_path / "tap.part2.jsonl") == ["old/method"]
    assert _methods(tmp_path / "tap.jsonl") == ["new/method"]


def test_problems_in_a_part_name_the_part_line_and_byte(tmp_path: Path) -> None:
    paths = _rotated(tmp_path)
    good = paths[1].read_bytes()
    first_line = good.index(b"\n") + 1
    paths[1].write_bytes(good[:first_line] + b"{oops\n" + good[first_line:] + b'{"type":"fr')
    session = read_session(paths[0])
    assert session.problems[0].startswith(
        f"tap.part2.jsonl: line 2 (byte offset {first_line:,}) is not valid JSON ("
    )
    assert session.problems[1] == (
        f"tap.part2.jsonl: line 5 (byte offset {len(good) + 6:,}) is incomplete (the recording was "
        "cut off, e.g. by a crash); everything before it was read"
    )
    assert len(session.frames()) == 10


def test_export_har_reads_a_compressed_rotated_session(tmp_path: Path) -> None:
    paths = _rotated(tmp_path, ".zst", "zstd")
    paths[1].unlink()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "export-har", str(paths[2]), "-o", "out.har"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "note: part 2 of this recording (tap.part2.jsonl.zst) is missing" in done.stderr
    assert json.loads((tmp_path / "out.har").read_text())["log"]["entries"] == []
