"""The sessions folder: names of new recordings and cleanup by age and total size."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from inspector.recording.retention import (
    RecordingSettings,
    cleanup,
    list_sessions,
    new_session_path,
    slug,
)
from inspector.storage.paths import DATA_DIR_ENV, data_dir, sessions_dir

DAY = 86400.0


def make(folder: Path, name: str, size: int, age_days: float, now: float) -> Path:
    path = folder / name
    path.write_bytes(b"x" * size)
    when = now - age_days * DAY
    os.utime(path, (when, when))
    return path


def test_names_carry_the_profile_and_the_time(tmp_path: Path) -> None:
    assert slug("Demo server") == "demo-server"
    assert slug("  ../My Server (prod)! ") == "my-server-prod"
    assert slug("☃") == "server"
    when = time.mktime((2026, 11, 29, 20, 50, 2, 0, 0, -1))
    first = new_session_path(tmp_path, "Demo server", when)
    assert first.name == "demo-server_20261129-205002.jsonl"
    first.write_text("")
    second = new_session_path(tmp_path, "Demo server", when)
    assert second.name == "demo-server_20261129-205002-2.jsonl"
    assert not second.exists()


def test_cleanup_by_age_keeps_the_current_recording_and_other_files(tmp_path: Path) -> None:
    now = time.time()
    old = make(tmp_path, "a_20260101-000000.jsonl", 10, 40, now)
    current = make(tmp_path, "b_20260101-000001.jsonl", 10, 45, now)
    fresh = make(tmp_path, "c_20260201-000000.jsonl", 10, 2, now)
    notes = make(tmp_path, "my-notes.jsonl", 10, 400, now)  # not ours: never touched
    removed = cleanup(tmp_path, RecordingSettings(max_age_days=30), keep=[current], now=now)
    assert removed == [old]
    assert current.exists() and fresh.exists() and notes.exists()


def test_cleanup_by_size_deletes_the_oldest_first(tmp_path: Path) -> None:
    now = time.time()
    mb = 1024 * 1024
    oldest = make(tmp_path, "a_20260101-000000.jsonl", mb, 5, now)
    older = make(tmp_path, "a_20260102-000000.jsonl", mb, 4, now)
    newer = make(tmp_path, "a_20260103-000000.jsonl", mb, 3, now)
    newest = make(tmp_path, "a_20260104-000000.jsonl", mb, 1, now)
    settings = RecordingSettings(max_total_mb=2, max_age_days=0)
    removed = cleanup(tmp_path, settings, keep=[oldest], now=now)
    assert removed == [older, newer]
    assert [f.path for f in list_sessions(tmp_path)] == [oldest, newest]
    # No limits: nothing goes.
    assert cleanup(tmp_path, RecordingSettings(max_total_mb=0, max_age_days=0), now=now) == []


def test_cleanup_of_a_missing_folder_is_a_no_op(tmp_path: Path) -> None:
    assert cleanup(tmp_path / "absent", RecordingSettings()) == []


def test_the_data_dir_has_an_override(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    assert data_dir() == tmp_path / "data"
    assert sessions_dir() == tmp_path / "data" / "sessions"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert "mcp-inspector-qt" in str(data_dir())
