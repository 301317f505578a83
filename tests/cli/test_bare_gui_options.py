"""The bare command opens the desktop app, so the app's options work without `gui` (issue 18.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

import inspector.ui.shell.gui_command as gui_command
from inspector.__main__ import main
from inspector.ui.shell.gui_command import GuiOptions


@pytest.fixture
def launched(monkeypatch: pytest.MonkeyPatch) -> list[GuiOptions]:
    seen: list[GuiOptions] = []

    def fake_run_gui(options: GuiOptions) -> int:
        seen.append(options)
        return 0

    monkeypatch.setattr(gui_command, "run_gui", fake_run_gui)
    return seen


def test_bare_theme_dark_opens_the_app_dark(launched: list[GuiOptions]) -> None:
    assert main(["--theme", "dark"]) == 0
    assert launched[0].theme == "dark"
    assert launched[0].timeout == 30.0


def test_bare_command_takes_every_app_option(launched: list[GuiOptions]) -> None:
    assert main(["--profile", "demo", "--screenshot", "x.png", "--timeout", "5"]) == 0
    (opts,) = launched
    assert (opts.profile, opts.screenshot, opts.timeout) == ("demo", "x.png", 5.0)


def test_gui_subcommand_still_works_and_top_level_theme_carries(
    launched: list[GuiOptions],
) -> None:
    assert main(["--theme", "light", "gui", "--url", "http://127.0.0.1:1/mcp"]) == 0
    (opts,) = launched
    assert (opts.theme, opts.url) == ("light", "http://127.0.0.1:1/mcp")


def test_several_targets_open_a_tab_each_in_the_order_given(
    launched: list[GuiOptions],
) -> None:
    argv = ["--profile", "demo", "--url", "http://127.0.0.1:1/mcp", "--stdio", "node a.js"]
    assert main([*argv, "--profile", "other"]) == 0
    assert main(["gui", "--stdio", "x y", "--profile", "demo"]) == 0
    first, second = launched
    assert first.targets == [
        ("profile", "demo"),
        ("url", "http://127.0.0.1:1/mcp"),
        ("stdio", "node a.js"),
        ("profile", "other"),
    ]
    assert first.profile == "demo"  # the first of its kind, as before
    assert second.targets == [("stdio", "x y"), ("profile", "demo")]


def test_app_option_before_another_subcommand_is_a_clear_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--theme", "dark", "replay", "x.jsonl"])
    assert exc.value.code == 2
    assert "--theme" in capsys.readouterr().err


def test_subcommand_url_is_not_taken_for_the_apps(launched: list[GuiOptions]) -> None:
    with pytest.raises(SystemExit):
        main(["--theme", "nope"])
    assert launched == []


def test_a_session_file_alone_opens_the_app_on_it(
    launched: list[GuiOptions], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rule (inspector/cli/session_file_words.py): a command's name is the command; a
    word that names an existing path, has a slash or ends in .jsonl is a file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "check").write_text("", encoding="utf-8")  # a file named like a command
    (tmp_path / "plain").write_text("", encoding="utf-8")
    assert main(["a.jsonl", "b.jsonl"]) == 0
    assert main(["--theme", "dark", "plain", "--screenshot", "x.png"]) == 0
    assert main(["./check"]) == 0
    assert main(["gui", "check"]) == 0
    assert [o.files for o in launched] == [
        ["a.jsonl", "b.jsonl"],
        ["plain"],
        ["./check"],
        ["check"],
    ]
    assert (launched[1].theme, launched[1].screenshot) == ("dark", "x.png")
    assert main(["check"]) == 2  # the command, not the file: it wants a server
    with pytest.raises(SystemExit) as exc:
        main(["chek"])  # a typo is not taken for a file
    assert exc.value.code == 2
    assert len(launched) == 4
