"""The plain files one session is read from: compressed files decompressed, rotated parts
gathered in order.

`session_parts(path, temp_dir)` turns the path a user gives into the ordered list of plain
JSON Lines files that form its session, with a sentence for everything odd on the way:

- **Compression** is known by its magic bytes, whatever the name (gzip `1f 8b`, zstd
  `28 b5 2f fd`). A compressed file is decompressed, streaming with bounded memory, into a
  plain file in `temp_dir` (the caller makes it and deletes it when it is done with the
  files: `read_session` at once, a view when it closes). A stream cut off mid-way (a
  `kill -9` while recording) or damaged keeps its data up to the last whole line before the
  cut; bytes after a gzip or zstd stream (garbage, or the NUL bytes a crash can leave) are
  ignored; each is said.
- **Rotation** (the recorder's naming, agreed with the writer): the first part is the path
  the recording was given (`tap.jsonl`, `tap.jsonl.gz`); later parts insert `.partN` before
  `.jsonl` (`tap.part2.jsonl`, `tap.part3.jsonl.zst`). Naming any part gives all of them,
  first to last; a missing part is named and the others are read.

Every later part starts with a header line (the session's, plus `"part": N`); the reader
skips it. A part whose header has another `created` than the part the user named was left
by an earlier recording under the same name: it is skipped, and said. Qt-free; only the
parts' header lines are parsed here.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final

__all__ = [
    "GZIP_MAGIC",
    "ZSTD_MAGIC",
    "Part",
    "SessionFileError",
    "SessionParts",
    "compression_of",
    "part_name",
    "plain_file",
    "session_parts",
]

GZIP_MAGIC: Final = b"\x1f\x8b"
ZSTD_MAGIC: Final = b"\x28\xb5\x2f\xfd"
_SUFFIXES: Final = ("", ".gz", ".zst", ".zstd")
# Compressed formats we do not read, so that the message can say what the file is.
_OTHER_MAGIC: Final = (
    (b"\xfd7zXZ\x00", "xz"),
    (b"BZh", "bzip2"),
    (b"PK\x03\x04", "zip"),
    (b"\x04\x22\x4d\x18", "lz4"),
)
_NAME: Final = re.compile(
    r"^(?P<stem>.+?)(?:\.part(?P<n>[1-9][0-9]*))?\.jsonl(?P<suffix>\.gz|\.zst|\.zstd)?$"
)
# Compressed bytes read at a time: a damaged stream loses at most this chunk's output.
_READ: Final = 1 << 16
_OUT: Final = 1 << 20  # the most gzip output made from one call
# zstd cannot bound one call's output; 2 KiB of input makes at most ~64 MiB (RLE blocks).
_ZSTD_IN: Final = 2048


class SessionFileError(Exception):
    """The file cannot be read as a session; the message says why."""


@dataclass(frozen=True, slots=True)
class Part:
    number: int  # 1 for the first part
    source: Path  # the file on disk
    plain: Path  # the plain JSON Lines to read: `source`, or its decompressed copy
    compression: str | None = None  # "gzip" or "zstd"


@dataclass
class SessionParts:
    parts: list[Part] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def plain_files(self) -> list[Path]:
        return [p.plain for p in self.parts]


def compression_of(head: bytes) -> str | None:
    """`gzip`, `zstd` or None (plain), from a file's first bytes."""
    if head.startswith(GZIP_MAGIC):
        return "gzip"
    if head.startswith(ZSTD_MAGIC):
        return "zstd"
    return None


def part_name(first: Path, number: int) -> Path:
    """The name of part `number` of the recording whose first part is `first`."""
    match = _NAME.match(first.name)
    if number == 1:
        return first
    if match is None:
        raise ValueError(f"{first.name} does not end in .jsonl: it has no part names")
    suffix = match["suffix"] or ""
    return first.with_name(f"{match['stem']}.part{number}.jsonl{suffix}")


def session_parts(path: str | Path, temp_dir: Path) -> SessionParts:
    """The plain files of the session `path` belongs to (see the module's doc). Raises
    SessionFileError when `path` cannot be read at all; problems with other parts are said
    in `problems` and the rest is read."""
    path = Path(path)
    _check_readable(path)
    found = _find_parts(path)
    result = SessionParts()
    numbers = sorted(found)
    first_name = _first_name(path)
    if numbers and numbers[0] != 1:
        result.problems.append(
            f"the first part of this recording, {first_name.name}, is missing: the session is "
            f"read from part {numbers[0]} ({found[numbers[0]].name}) on"
        )
    for before, after in itertools.pairwise(numbers):
        for gap in range(before + 1, after):
            result.problems.append(
                f"part {gap} of this recording ({part_name(first_name, gap).name}) is "
                f"missing: the session jumps from part {before} to part {after} there"
            )
    for number in numbers:
        source = found[number]
        try:
            part = _plain(number, source, temp_dir, result.problems)
        except SessionFileError as exc:
            if source == path and len(numbers) == 1:
                raise
            result.problems.append(f"{exc}; that part is skipped")
            continue
        result.parts.append(part)
    if len(result.parts) > 1:
        _drop_other_recordings(path, result)
    return result


def _drop_other_recordings(path: Path, result: SessionParts) -> None:
    """Parts left by an earlier recording under the same name (another `created` in their
    header than the part the user named) are not this session's."""
    created = {part.number: _created(part.plain) for part in result.parts}
    named = next((p for p in result.parts if p.source == path), result.parts[0])
    mine = created[named.number]
    if mine is None:
        return
    kept = []
    for part in result.parts:
        theirs = created[part.number]
        if theirs is not None and theirs != mine:
            result.problems.append(
                f"{part.source.name} belongs to another recording (created {theirs}, this "
                f"one {mine}); skipped"
            )
        else:
            kept.append(part)
    result.parts = kept


def _created(plain: Path) -> str | None:
    """The `created` of a part's header line (None when it has none to compare)."""
    try:
        with plain.open("rb") as fh:
            first = fh.readline(1 << 20)
        header = json.loads(first.decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    created = header.get("created") if isinstance(header, dict) else None
    return created if isinstance(created, str) else None


# ------------------------------------------------------------------ finding the parts


def _check_readable(path: Path) -> None:
    try:
        with path.open("rb") as fh:
            fh.read(1)
    except IsADirectoryError:
        raise SessionFileError(f"{path} is a folder, not a session file") from None
    except OSError as exc:
        raise SessionFileError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _first_name(path: Path) -> Path:
    match = _NAME.match(path.name)
    if match is None or match["n"] is None:
        return path
    return path.with_name(f"{match['stem']}.jsonl{match['suffix'] or ''}")


def _find_parts(path: Path) -> dict[int, Path]:
    """Part number -> file, for the recording `path` is a part of (only `path` itself
    when its name is not a part's)."""
    match = _NAME.match(path.name)
    given = int(match["n"]) if match is not None and match["n"] is not None else 1
    if match is None or (given < 2 and match["n"] is not None):
        return {1: path}
    stem, suffix = match["stem"], match["suffix"] or ""
    sibling = re.compile(
        rf"^{re.escape(stem)}(?:\.part(?P<n>[1-9][0-9]*))?\.jsonl(?P<suffix>\.gz|\.zst|\.zstd)?$"
    )
    candidates: dict[int, list[str]] = {}
    try:
        names = os.listdir(path.parent if str(path.parent) else ".")
    except OSError:
        names = []
    for name in names:
        found = sibling.match(name)
        if found is None:
            continue
        number = int(found["n"]) if found["n"] is not None else 1
        if number == 1 and found["n"] is not None:
            continue  # `.part1` is not a name the recorder writes
        candidates.setdefault(number, []).append(found["suffix"] or "")
    result: dict[int, Path] = {}
    for number, suffixes in candidates.items():
        # Two files for one part (a plain one and a compressed copy): the kind the user
        # named, else the plain one.
        pick = suffix if suffix in suffixes else min(suffixes, key=_SUFFIXES.index)
        part = f".part{number}" if number > 1 else ""
        candidate = path.with_name(f"{stem}{part}.jsonl{pick}")
        if number == given or candidate.is_file():
            result[number] = candidate
    result[given] = path
    return result


# ------------------------------------------------------------------ decompressing


def plain_file(source: Path, temp_dir: Path) -> Path:
    """`source` as plain JSON Lines: itself, or decompressed into `temp_dir` as far as it
    reads (a recording still being written has no end yet). Raises SessionFileError."""
    return _plain(1, source, temp_dir, []).plain


def _plain(number: int, source: Path, temp_dir: Path, problems: list[str]) -> Part:
    try:
        with source.open("rb") as fh:
            head = fh.read(8)
            kind = compression_of(head)
            if kind is None:
                other = next((name for magic, name in _OTHER_MAGIC if head.startswith(magic)), None)
                if other is not None:
                    raise SessionFileError(
                        f"{source} is {other}-compressed; only gzip and zstd session files are "
                        f"read: decompress it first"
                    )
                return Part(number, source, source)
            fh.seek(0)
            target = temp_dir / f"part{number}-{_plain_name(source)}"
            try:
                temp_dir.mkdir(parents=True, exist_ok=True)
                with target.open("wb") as out:
                    problem = _decompress(kind, fh, out, source)
            except OSError as exc:  # most likely the temporary folder's disk is full
                raise SessionFileError(
                    f"cannot decompress {source} into {temp_dir}: {exc.strerror or exc}"
                ) from exc
    except OSError as exc:
        raise SessionFileError(f"cannot read {source}: {exc.strerror or exc}") from exc
    if problem is not None:
        problems.append(problem)
    return Part(number, source, target, kind)


def _plain_name(source: Path) -> str:
    name = source.name
    for suffix in (".gz", ".zst", ".zstd"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name + ".plain"


class _Sink:
    """Writes the decompressed bytes, counting lines and where the last whole one ends."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self.size = 0
        self.lines = 0
        self.whole = 0  # the size up to the end of the last whole line

    def write(self, data: bytes) -> None:
        if not data:
            return
        newline = data.rfind(b"\n")
        if newline >= 0:
            self.lines += data.count(b"\n")
            self.whole = self.size + newline + 1
        self.out.write(data)
        self.size += len(data)

    def cut(self) -> int:
        """Drop the partial line after the last whole one; how many bytes were dropped."""
        dropped = self.size - self.whole
        if dropped:
            self.out.truncate(self.whole)
            self.out.seek(self.whole)
        return dropped


def _decompress(kind: str, fh: BinaryIO, out: BinaryIO, source: Path) -> str | None:
    """Decompress `fh` into `out`; a sentence when it did not end cleanly."""
    sink = _Sink(out)
    stream = _gzip_members(fh, sink) if kind == "gzip" else _zstd_frames(fh, sink)
    trouble = next(stream, None)
    if trouble is None:
        return None
    what, offset, detail = trouble
    if what == "trailing":
        return (
            f"{detail} after the {kind} data of {source.name} (at compressed byte "
            f"{offset:,}); ignored, everything before it was read"
        )
    dropped = sink.cut()
    tail = f" ({dropped:,} bytes of a partial line after it dropped)" if dropped else ""
    if what == "cut":
        return (
            f"the {kind} stream of {source.name} is cut off after {offset:,} compressed bytes "
            f"(e.g. the recording was killed); read up to its last whole line, line "
            f"{sink.lines:,}{tail}"
        )
    if sink.size == 0:
        raise SessionFileError(
            f"{source} starts like a {kind}-compressed file but is not one ({detail})"
        )
    return (
        f"the {kind} data of {source.name} is damaged at compressed byte {offset:,} "
        f"({detail}); read up to the last whole line before it, line {sink.lines:,}{tail}"
    )


_Trouble = tuple[str, int, str]  # what (cut | damaged | trailing), compressed offset, detail


def _gzip_members(fh: BinaryIO, sink: _Sink) -> Iterator[_Trouble]:
    """Every gzip member of `fh` into `sink` (several members are one stream, as gzip has
    it); yields once if the data did not end cleanly."""
    decoder = zlib.decompressobj(wbits=31)
    consumed = 0  # compressed bytes given to the decoders before the current chunk
    pending = b""
    while True:
        chunk = pending or fh.read(_READ)
        pending = b""
        if not chunk:
            if decoder.eof or consumed == 0:
                return
            yield ("cut", consumed, "")
            return
        data = chunk
        try:
            while data and not decoder.eof:
                sink.write(decoder.decompress(data, _OUT))
                data = decoder.unconsumed_tail
        except zlib.error as exc:
            yield ("damaged", consumed, str(exc))
            return
        if not decoder.eof:
            consumed += len(chunk)
            continue
        rest = decoder.unused_data
        consumed += len(chunk) - len(rest)
        if not rest:
            rest = fh.read(_READ)
            if not rest:
                return
        if rest.startswith(GZIP_MAGIC) or (len(rest) == 1 and rest == GZIP_MAGIC[:1]):
            decoder = zlib.decompressobj(wbits=31)
            pending = rest
            continue
        yield ("trailing", consumed, _describe_trailing(rest, fh))
        return


def _zstd_frames(fh: BinaryIO, sink: _Sink) -> Iterator[_Trouble]:
    """Every zstd frame of `fh` into `sink`; yields once if the data did not end cleanly."""
    import zstandard

    factory = zstandard.ZstdDecompressor()
    decoder = factory.decompressobj()
    consumed = 0
    fresh = True  # no byte of the current frame given yet
    pending = b""
    while True:
        chunk = pending or fh.read(_ZSTD_IN)
        pending = b""
        if not chunk:
            if fresh or decoder.eof:
                return
            yield ("cut", consumed, "")
            return
        if fresh and not (chunk.startswith(ZSTD_MAGIC) or ZSTD_MAGIC.startswith(chunk)):
            yield ("trailing", consumed, _describe_trailing(chunk, fh))
            return
        fresh = False
        try:
            sink.write(decoder.decompress(chunk))
        except zstandard.ZstdError as exc:
            yield ("damaged", consumed, str(exc))
            return
        if not decoder.eof:
            consumed += len(chunk)
            continue
        rest = decoder.unused_data
        consumed += len(chunk) - len(rest)
        decoder = factory.decompressobj()
        fresh = True
        pending = rest


def _describe_trailing(rest: bytes, fh: BinaryIO) -> str:
    count = len(rest)
    zeros = not rest.strip(b"\x00")
    for more in iter(lambda: fh.read(_READ), b""):
        count += len(more)
        zeros = zeros and not more.strip(b"\x00")
    if zeros:
        return f"{count:,} NUL bytes (what a crash can leave on some filesystems)"
    return f"{count:,} bytes that are not compressed session data"
