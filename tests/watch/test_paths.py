"""What counts as a change: the cwd or the user's paths and globs, minus noise and our
own files; bad paths are refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.watch.paths import WatchSpec, WatchSpecError, glob_regex


def test_glob_regex_keeps_stars_inside_a_segment_and_double_stars_across() -> None:
    assert glob_regex("*.py").match("server.py")
    assert not glob_regex("*.py").match("pkg/server.py")
    assert glob_regex("**/*.py").match("server.py")
    assert glob_regex("**/*.py").match("a/b/server.py")
    assert not glob_regex("**/*.py").match("a/b/server.pyc")
    assert glob_regex("tool_?.[jt]s").match("tool_a.ts")
    assert not glob_regex("tool_?.[!j]s").match("tool_a.js")


def test_the_cwd_counts_but_not_vcs_caches_venvs_or_swap_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    watch = WatchSpec(tmp_path).resolve()
    assert watch.roots == (tmp_path.resolve(),)
    base = tmp_path.resolve()
    assert watch.counts(base / "server.py")
    assert watch.counts(base / "pkg" / "tools.py")
    for noise in (
        ".git/index",
        "pkg/__pycache__/tools.cpython-311.pyc",
        "node_modules/x/index.js",
        ".venv/lib/site.py",
        ".server.py.swp",
        "server.py~",
        ".#server.py",
        "server.py.___jb_tmp___",
        "4913",
    ):
        assert not watch.counts(base / noise), noise


def test_our_own_recordings_and_collection_never_count(tmp_path: Path) -> None:
    (tmp_path / "sessions").mkdir()
    collection = tmp_path / "calls.collection.json"
    collection.write_text("{}")
    watch = WatchSpec(tmp_path, ignore=[tmp_path / "sessions", collection]).resolve()
    base = tmp_path.resolve()
    assert not watch.counts(base / "sessions" / "2026-12-03.jsonl")
    assert not watch.counts(base / "calls.collection.json")
    assert watch.counts(base / "server.py")


def test_paths_and_globs_narrow_what_counts(tmp_path: Path) -> None:
    (tmp_path / "src" / "deep").mkdir(parents=True)
    (tmp_path / "config.toml").write_text("")
    watch = WatchSpec(tmp_path, ["src/**/*.py", "config.toml"]).resolve()
    base = tmp_path.resolve()
    assert set(watch.roots) == {base / "src", base / "config.toml"}
    assert watch.counts(base / "src" / "deep" / "a.py")
    assert watch.counts(base / "src" / "a.py")
    assert not watch.counts(base / "src" / "notes.md")
    assert watch.counts(base / "config.toml")
    assert not watch.counts(base / "README.md")
    assert "src" in watch.describe()


def test_a_folder_inside_another_is_watched_once(tmp_path: Path) -> None:
    (tmp_path / "a" / "b").mkdir(parents=True)
    watch = WatchSpec(tmp_path, ["a", "a/b"]).resolve()
    assert watch.roots == ((tmp_path / "a").resolve(),)


@pytest.mark.parametrize(
    ("words", "reason"),
    [
        (["missing.py"], "no such file or folder"),
        (["nowhere/**/*.py"], "does not exist"),
        ([" "], "empty watch path"),
    ],
)
def test_bad_paths_are_refused_with_the_reason(
    tmp_path: Path, words: list[str], reason: str
) -> None:
    with pytest.raises(WatchSpecError, match=reason):
        WatchSpec(tmp_path, words).resolve()


def test_a_missing_base_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WatchSpecError, match="does not exist"):
        WatchSpec(tmp_path / "gone").resolve()


def test_a_profile_watches_its_cwd_else_its_script_folder(tmp_path: Path) -> None:
    from inspector.settings.profiles import Profile, StdioSettings
    from inspector.watch.target import spec_for, watch_base

    script = tmp_path / "srv" / "server.py"
    script.parent.mkdir()
    script.write_text("")
    with_cwd = Profile(name="a", stdio=StdioSettings(command="python", cwd=str(tmp_path)))
    assert watch_base(with_cwd) == tmp_path
    by_script = Profile(
        name="b", stdio=StdioSettings(command="python", args=["-u", str(script), "--x"])
    )
    assert watch_base(by_script) == script.parent
    assert spec_for(by_script, ["*.py"]).resolve().roots == (script.parent.resolve(),)
    bare = Profile(name="c", stdio=StdioSettings(command="my-server", args=["--port", "1"]))
    assert watch_base(bare) == Path.cwd()
    tool = tmp_path / "srv" / "run-server"
    tool.write_text("")
    by_command = Profile(name="d", stdio=StdioSettings(command=str(tool)))
    assert watch_base(by_command) == script.parent


def test_an_interpreter_s_folder_is_never_the_server_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/usr/bin/python3 -m server` watches the module's folder (found as files in the current
    folder, or on this interpreter's own path: the demo server's profile runs sys.executable
    -m inspector.demo), never the interpreter's bin folder; an unknown module, the current
    folder."""
    import sys

    import inspector.demo
    from inspector.settings.profiles import Profile, StdioSettings, demo_profile
    from inspector.watch.target import watch_base

    monkeypatch.chdir(tmp_path)
    unknown = Profile(name="m", stdio=StdioSettings(command=sys.executable, args=["-m", "srv"]))
    assert watch_base(unknown) == tmp_path
    assert watch_base(demo_profile()) == Path(inspector.demo.__file__).resolve().parent
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "server.py").write_text("")
    other = Profile(name="o", stdio=StdioSettings(command="python3", args=["-m", "pkg.server"]))
    assert watch_base(other) == tmp_path / "pkg"


def test_a_file_this_process_writes_never_counts_by_any_name(tmp_path: Path) -> None:
    """Output redirected into the watched folder (`watch ... > watch.out`) is ours: neither
    by its path nor by another name for it (a hard link)."""
    from inspector.settings.profiles import Profile, StdioSettings
    from inspector.watch.target import spec_for

    profile = Profile(name="a", stdio=StdioSettings(command="python", cwd=str(tmp_path)))
    (tmp_path / "server.py").write_text("")
    with (tmp_path / "watch.out").open("w") as out:
        (tmp_path / "alias.out").hardlink_to(tmp_path / "watch.out")
        (tmp_path / "read.only").write_text("x")
        with (tmp_path / "read.only").open() as _reading:
            watch = spec_for(profile).resolve()
        out.write("a report\n")
    base = tmp_path.resolve()
    assert not watch.counts(base / "watch.out")
    assert not watch.counts(base / "alias.out")
    assert watch.counts(base / "read.only")  # held open for reading only: the server's
    assert watch.counts(base / "server.py")


def test_a_collection_opened_later_is_ignored_from_then_on(tmp_path: Path) -> None:
    """The window's tab opens a collection after watch mode started: updating its
    snapshots must restart nothing (WatchMode.collection_opened)."""
    base = tmp_path.resolve()
    watch = WatchSpec(tmp_path).resolve()
    assert watch.counts(base / "calls.json")
    later = watch.ignoring(tmp_path / "calls.json")
    assert not later.counts(base / "calls.json")
    assert later.counts(base / "server.py")
    assert later.roots == watch.roots
