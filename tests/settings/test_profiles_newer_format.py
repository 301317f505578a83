"""A profiles.json written by a newer version of the app: read what this version knows, say
so, and never write over what only the newer version understands."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from inspector.settings.profiles import FILE_VERSION, Profile, ProfileStore, StdioSettings

NEWER = {
    "version": FILE_VERSION + 6,
    "profiles": [
        {"id": "f1", "name": "future", "transport": "carrier-pigeon", "coop": {"birds": 3}},
        {
            "id": "k1",
            "name": "known",
            "stdio": {"command": sys.executable, "args": ["-V"]},
            "hologram": True,
        },
    ],
}


@pytest.fixture
def newer_file(tmp_path: Path) -> Path:
    path = tmp_path / "profiles.json"
    path.write_text(json.dumps(NEWER), encoding="utf-8")
    return path


def test_a_newer_file_is_read_as_far_as_known_and_said_so(newer_file: Path) -> None:
    store = ProfileStore(newer_file)
    assert [p.name for p in store.profiles if not p.builtin] == ["known"]
    assert store.load_error is not None
    assert "newer version" in store.load_error
    assert f"format {FILE_VERSION + 6}" in store.load_error
    assert f"profiles.format-{FILE_VERSION + 6}.json" in store.load_error
    assert json.loads(newer_file.read_text(encoding="utf-8")) == NEWER  # untouched by reading


def test_saving_over_a_newer_file_keeps_it_whole_aside_first(newer_file: Path) -> None:
    store = ProfileStore(newer_file)
    store.put(Profile(name="added", stdio=StdioSettings(command=sys.executable)))
    aside = newer_file.with_name(f"profiles.format-{FILE_VERSION + 6}.json")
    assert json.loads(aside.read_text(encoding="utf-8")) == NEWER
    saved = json.loads(newer_file.read_text(encoding="utf-8"))
    assert saved["version"] == FILE_VERSION
    assert sorted(p["name"] for p in saved["profiles"]) == ["added", "known"]
    assert store.load_error is None
    # The next save writes normally: the aside copy is not replaced by a later state.
    store.put(Profile(name="second", stdio=StdioSettings(command=sys.executable)))
    assert json.loads(aside.read_text(encoding="utf-8")) == NEWER


def test_an_older_or_current_file_is_not_flagged(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    path.write_text(json.dumps({"version": FILE_VERSION, "profiles": []}), encoding="utf-8")
    assert ProfileStore(path).load_error is None
    path.write_text(json.dumps({"profiles": []}), encoding="utf-8")  # no version at all
    assert ProfileStore(path).load_error is None
