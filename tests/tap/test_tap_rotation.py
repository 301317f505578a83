"""A tap left running (issue 27, files people keep): `--session-file FILE.jsonl.gz` records
compressed, `--rotate-size` goes on in FILE.part2.jsonl.gz... each part a session file of
its own, every relayed frame in one of them, in order; a name that cannot have parts or a
size that is not one is a usage error before anything runs."""

from __future__ import annotations

import gzip
import json
import subprocess
from pathlib import Path

import pytest

from tests.helpers.tap import tap_argv, tap_env


def _line(n: int) -> bytes:
    return b'{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"%d"}}\n' % n


def _parts(folder: Path, pattern: str) -> list[Path]:
    return sorted(folder.glob(pattern), key=lambda p: (len(p.name), p.name))


def _lines(path: Path) -> list[dict[str, object]]:
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        data = gzip.decompress(data)
    return [json.loads(x) for x in data.splitlines()]


@pytest.mark.parametrize(
    ("name", "extra", "pattern"),
    [
        ("tap.jsonl", ("--rotate-size", "4k"), "tap*.jsonl"),
        ("tap.jsonl.gz", (), "tap*.jsonl.gz"),
    ],
)
def test_a_tap_records_every_frame_rotated_or_compressed(
    tmp_path: Path, name: str, extra: tuple[str, ...], pattern: str
) -> None:
    data = b"".join(_line(n) for n in range(400))
    done = subprocess.run(
        tap_argv(tmp_path / name, ["cat"], *extra),
        input=data, capture_output=True, env=tap_env(tmp_path / "rt"), timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == data
    parts = _parts(tmp_path, pattern)
    assert parts[0].name == name
    if extra:
        assert len(parts) >= 3 and parts[1].name == "tap.part2.jsonl"
        assert all(p.stat().st_size <= 4096 for p in parts)
    frames: list[dict[str, object]] = []
    for n, part in enumerate(parts, 1):
        lines = _lines(part)
        assert lines[0]["type"] == "header" and lines[0].get("part") == (n if n > 1 else None)
        frames += [x for x in lines if x["type"] == "frame"]
    relayed = [f["text"] for f in frames if f["dir"] == "out"]
    assert relayed == [_line(n).decode().rstrip("\n") for n in range(400)]
    times = [float(str(f["t"])) for f in frames]
    assert times == sorted(times)


def test_rotation_words_that_are_wrong_are_a_usage_error(tmp_path: Path) -> None:
    for extra, why in (
        (("--rotate-size", "lots"), "'lots' is not a size"),
        (("--rotate-every", "1 fortnight"), "is not a duration"),
    ):
        done = subprocess.run(
            tap_argv(tmp_path / "t.jsonl", ["cat"], *extra), input=b"",
            capture_output=True, env=tap_env(tmp_path / "rt"), timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 2 and why in done.stderr.decode(), done.stderr
    done = subprocess.run(
        tap_argv(tmp_path / "t.log", ["cat"], "--rotate-every", "1h"), input=b"",
        capture_output=True, env=tap_env(tmp_path / "rt"), timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "ends in .jsonl" in done.stderr.decode()
    assert not (tmp_path / "t.log").exists()
