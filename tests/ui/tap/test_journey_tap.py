"""Journey (issue 26): follow a live tap in the window, as a person does. A host talks to
server-everything through `mcp-inspector-qt tap`; in the window, File ▸ Live Taps lists it;
picking it opens a read-only tab whose banner says whose session it is, whose log shows the
handshake and the lists the host asked for, then each call as the host makes it, paired
with its answer; when the host is done the banner says the tap ended."""

from __future__ import annotations

import asyncio
import subprocess
from pathlib import Path

import pytest

from inspector.ui.shell.main_window import MainWindow
from inspector.ui.traffic.traffic_model import COL_KIND, COL_METHOD, COL_SUMMARY
from tests.helpers.gui import run, until
from tests.helpers.journeys import menu_action, row_texts, tab_titles, visible_texts
from tests.helpers.peers import PY, SERVERS
from tests.helpers.tap import tap_argv, tap_env

pytestmark = [pytest.mark.timeout(120), pytest.mark.peers]

HOST = SERVERS / "tap" / "paced_host.py"
NAME = "everything via tap"


def test_follow_a_live_tap_around_everything(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runtime = tmp_path / "rt"  # where taps announce themselves, for the host and the window
    monkeypatch.setenv("MCP_INSPECTOR_RUNTIME_DIR", str(runtime))
    go = tmp_path / "go"
    session = tmp_path / "tap.jsonl"
    # server-everything keeps running after its stdin closes while the roots/list it sent
    # the host is unanswered (the paced host never answers it): the tap's grace ends it.
    tap = tap_argv(session, everything_command, "--name", NAME, "--grace", "1")
    host = subprocess.Popen(
        [PY, str(HOST), "--calls", "3", "--every", "0.1", "--go", str(go), "--", *tap],
        env=tap_env(runtime),
        stderr=subprocess.DEVNULL,
    )

    def entries() -> list[str]:
        live = menu_action(window, "File", "Live Taps").menu()
        assert live is not None
        return [a.text() for a in live.actions()]

    def log() -> list[list[str]]:
        table = window.current_tab.session_files.stack.currentWidget().log_panel.table  # type: ignore[attr-defined]
        return row_texts(table)

    def methods(kind: str) -> list[str]:
        return [r[COL_METHOD] for r in log() if r[COL_KIND] == kind]

    async def scenario() -> None:
        await until(lambda: entries()[0].startswith(f"{NAME} — pid "), "the tap in the menu")
        menu_action(window, "File", "Live Taps", f"{NAME} — pid ").trigger()
        tab = window.current_tab
        await until(lambda: tab.session_files.view is not None, "the followed session")
        view = tab.session_files.view
        assert view is not None and view.isVisible()
        assert view.banner.title.text() == f"Live tap (read-only): the host's session with “{NAME}”"
        assert f"following {session}" in view.banner.detail.text()
        assert tab.status.currentMessage() == f"Following the tap of {NAME} (read-only)"
        assert not tab.bar.connect_button.isEnabled()  # the host's session: nothing sent here
        assert tab_titles(window.tabs) == ["tap.jsonl"]

        # The handshake and the lists the host asked for, before any call.
        await until(lambda: "prompts/list" in methods("response"), "the host's lists")
        assert methods("request")[:4] == [
            "initialize",
            "tools/list",
            "resources/list",
            "prompts/list",
        ]
        assert "tools/call" not in methods("request")
        server = view.server_panel
        await until(lambda: "Everything" in " ".join(visible_texts(server)), "the server's name")

        go.write_text("")  # the host starts calling
        await until(lambda: methods("response").count("tools/call") == 3, "the three calls")
        answers = [r[COL_SUMMARY] for r in log() if r[COL_KIND] == "response"]
        assert any("Echo: call 3 from the host" in a for a in answers), answers
        await until(lambda: "ended" in view.banner.title.text(), "the tap to end", timeout=30)
        assert view.banner.title.text() == f"Read-only: the tap of “{NAME}” ended"
        assert "its session file stays" in view.banner.detail.text()

    try:
        run(loop, scenario(), timeout=60)
    finally:
        host.kill()
        host.wait()
