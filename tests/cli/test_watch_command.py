"""`mcp-inspector-qt watch` end to end: a server whose file the test edits prints the added
tool (and the collection's result) within seconds; SIGINT and SIGTERM stop it cleanly with
the server gone; bad input exits 2 with the reason; the stdio path loads no Qt or HTTP."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.peers import PY, REPO
from tests.helpers.waiting import wait_until
from tests.helpers.watched import ADD_TOOL, CRASHING, MARKER, edit, server_folder

pytestmark = pytest.mark.timeout(120)

COLLECTION = """{
  "version": 1,
  "name": "watched",
  "calls": [
    {"name": "echo hi", "kind": "tool", "tool": "echo", "arguments": {"text": "hi"},
     "assert": [{"pointer": "/content/0/text", "equals": "hi"}]}
  ]
}
"""


class Watch:
    """`watch` in a child process; its stdout lines read by a thread."""

    def __init__(self, folder: Path, *args: str, server: tuple[str, ...] = ("server.py",)):
        self.proc = subprocess.Popen(
            [PY, "-m", "inspector", "watch", "--debounce", "0.3", *args, "--", PY, *server],
            cwd=folder,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def next_json(self, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("no report from watch in time")
            line = self.lines.get(timeout=left)
            if line.strip():
                data: dict[str, Any] = json.loads(line)
                return data

    def children(self) -> list[int]:
        return _children(self.proc.pid)

    def stop(self, sig: signal.Signals) -> tuple[int, str]:
        self.proc.send_signal(sig)
        _, err = self.proc.communicate(timeout=30)
        return self.proc.returncode, err


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_an_edited_server_prints_the_added_tool_and_the_collection_results(
    tmp_path: Path,
) -> None:
    folder = server_folder(tmp_path)
    (folder / "calls.json").write_text(COLLECTION)
    watch = Watch(folder, "--json", "--collection", "calls.json")
    try:
        start = watch.next_json()
        assert start["run"] == "start" and start["ok"]
        assert start["catalog"]["counts"]["tools"] == 1
        assert start["collection"]["passed"] == 1 and start["collection"]["total"] == 1
        [server_pid] = watch.children()

        edited = time.monotonic()
        server = folder / "server.py"
        edit(server, MARKER, ADD_TOOL + MARKER)
        edit(server, "    return text\n", '    return f"echo: {text}"\n')
        restart = watch.next_json()
        took = time.monotonic() - edited
        assert took < 10, f"the change was reported after {took:.1f} s"
        assert restart["run"] == "change" and restart["restart"] == 1 and restart["ok"]
        assert "server.py" in json.dumps(restart["changed"])
        added = [i for i in restart["catalog"]["differences"] if i["status"] == "added"]
        assert [(i["kind"], i["key"]) for i in added] == [("tools", "add")], restart["catalog"]
        tally = restart["catalog"]["changes"]["tools"]
        assert (tally["added"], tally["removed"], tally["changed"]) == (1, 0, 0), tally
        assert restart["catalog"]["counts"]["tools"] == 2
        assert "+1 tool" in restart["summary"] and "collection 0/1 passed" in restart["summary"]
        [call] = restart["collection"]["calls"]
        assert not call["passed"] and "echo: hi" in " ".join(call["failures"])
        assert not _alive(server_pid), "the old server was not stopped"
        [new_pid] = watch.children()
    finally:
        code, err = watch.stop(signal.SIGINT)
    assert code == 0, err
    assert "stopped" in err
    assert not _alive(new_pid)


def test_sigterm_stops_watch_and_its_server(tmp_path: Path) -> None:
    folder = server_folder(tmp_path)
    watch = Watch(folder)
    try:
        deadline = time.monotonic() + 30
        while not watch.children() and time.monotonic() < deadline:
            time.sleep(0.05)
        [server_pid] = watch.children()
        first = watch.lines.get(timeout=30)
        assert first.startswith("start · ") and first.endswith("1 tool")
    finally:
        code, err = watch.stop(signal.SIGTERM)
    assert code == 0, err
    assert not _alive(server_pid)
    assert watch.children() == []


def test_a_server_that_fails_to_start_shows_its_stderr_and_waits(tmp_path: Path) -> None:
    (tmp_path / "crash.py").write_text(CRASHING)
    watch = Watch(tmp_path, "--json", server=("crash.py",))
    try:
        report = watch.next_json()
        assert not report["ok"]
        assert report["stderr"] == ["boom: cannot start (config missing)"]
        assert "waiting for the next change" in report["summary"]
        (tmp_path / "crash.py").write_text("import sys\nsys.stderr.write('still broken\\n')\n")
        again = watch.next_json()
        assert again["run"] == "change" and not again["ok"]
        assert "still broken" in again["stderr"]
    finally:
        code, err = watch.stop(signal.SIGINT)
    assert code == 0, err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--path", "nowhere.py"], "nowhere.py: no such file or folder"),
        (["--collection", "bad.json"], "bad.json:3"),
        (["--collection", "cut.json"], "cut.json:4: column 1"),
        (["--collection", "missing.json"], "cannot read"),
        (["--debounce", "0"], "--debounce"),
    ],
)
def test_bad_input_exits_2_with_the_reason(tmp_path: Path, args: list[str], says: str) -> None:
    (tmp_path / "cut.json").write_text('{\n  "version": 1,\n  "calls": [{"name": 1}\n')
    (tmp_path / "bad.json").write_text('{\n  "version": 1,\n  "calls": [{"name": 1}]\n}\n')
    proc = subprocess.run(
        [PY, "-m", "inspector", "watch", *args, "--", PY, "server.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode == 2, proc.stderr
    assert says in proc.stderr


def test_no_server_command_is_a_usage_error(tmp_path: Path) -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "watch", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.returncode == 2
    assert "give its command after --" in proc.stderr


_PROBE = """
import json, os, signal, sys, threading
from inspector.__main__ import main
threading.Timer(4.0, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
code = main(sys.argv[1:])
heavy = sorted({name for name in sys.modules for bad in HEAVY
                if name == bad or name.startswith(bad + ".")})
sys.stderr.write("\\nPROBE " + json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""
_HEAVY = ("PySide6", "qasync", "httpx", "httpcore", "inspector.auth", "joserfc", "keyring")


def test_watch_over_stdio_loads_no_qt_no_auth_no_http(tmp_path: Path) -> None:
    (tmp_path / "calls.json").write_text(COLLECTION)
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            _PROBE.replace("HEAVY", repr(_HEAVY)),
            "watch",
            "--collection",
            "calls.json",
            "--",
            PY,
            "-m",
            "inspector",
            "demo-server",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    line = next(x for x in proc.stderr.splitlines() if x.startswith("PROBE "))
    probe = json.loads(line[len("PROBE ") :])
    assert probe["code"] == 0, proc.stderr
    assert probe["heavy"] == []
    assert proc.stdout.startswith("start · ")


class Redirected:
    """`watch` started the way a user does in a shell, `> watch.out 2> watch.err`: its
    stdout and stderr are files in `into` (the watched folder), read as they grow."""

    def __init__(self, cwd: Path, into: Path, *args: str, server: tuple[str, ...]) -> None:
        self.out, self.err = into / "watch.out", into / "watch.err"
        with self.out.open("w") as stdout, self.err.open("w") as stderr:
            self.proc = subprocess.Popen(
                [PY, "-m", "inspector", "watch", "--debounce", "0.3", *args, "--", PY, *server],
                cwd=cwd,
                stdout=stdout,
                stderr=stderr,
                env={**os.environ, "PYTHONPATH": str(REPO)},
            )

    def reports(self) -> list[dict[str, Any]]:
        """The JSON reports written so far (whole lines only)."""
        text = self.out.read_text()
        return [json.loads(line) for line in text[: text.rfind("\n") + 1].splitlines() if line]

    def headers(self) -> list[str]:
        """The first line of each text report ("start · …", "restart #1 · …")."""
        return [
            line
            for line in self.out.read_text().splitlines()
            if line.startswith(("start · ", "restart #"))
        ]

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)
        return self.err.read_text()


def test_from_another_folder_it_watches_the_servers_folder(tmp_path: Path) -> None:
    """`cd elsewhere && watch -- python ../srv/server.py`: the server's folder is watched (as
    in the GUI), not the current one; an edit restarts it once. Its own output goes into
    the watched folder and restarts nothing: each restart's changes are server.py alone,
    and the restart count follows the edits."""
    folder = server_folder(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    watch = Redirected(elsewhere, folder, "--json", server=("../srv/server.py",))
    server = folder / "server.py"
    try:
        wait_until(lambda: len(watch.reports()) == 1, "the first start", 30)
        assert f"watching {folder.resolve()} " in watch.err.read_text()
        edit(server, MARKER, ADD_TOOL + MARKER)
        wait_until(lambda: len(watch.reports()) == 2, "the restart after an edit", 30)
        edit(server, "    return text\n", '    return f"echo: {text}"\n')
        wait_until(lambda: len(watch.reports()) == 3, "the restart after a second edit", 30)
        reports = watch.reports()
    finally:
        err = watch.stop()
    assert [(r["run"], r["restart"]) for r in reports] == [
        ("start", 0),
        ("change", 1),
        ("change", 2),
    ], err
    for report in reports[1:]:
        assert report["ok"], report
        assert report["changed"]["paths"] == [{"path": str(server.resolve()), "change": "modified"}]
    assert reports[1]["catalog"]["counts"]["tools"] == 2
    assert len(watch.reports()) == 3


def test_its_own_output_in_the_watched_folder_restarts_nothing(tmp_path: Path) -> None:
    """`cd srv && watch -- python server.py > watch.out 2> watch.err` restarted forever (each
    report written was a change). Now: one restart per edit, each for server.py."""
    folder = server_folder(tmp_path)
    watch = Redirected(folder, folder, server=("server.py",))
    server = folder / "server.py"
    try:
        wait_until(lambda: len(watch.headers()) == 1, "the first start", 30)
        edit(server, MARKER, ADD_TOOL + MARKER)
        wait_until(lambda: len(watch.headers()) == 2, "the restart after an edit", 30)
        edit(server, "    return text\n", '    return f"echo: {text}"\n')
        wait_until(lambda: len(watch.headers()) == 3, "the restart after a second edit", 30)
        text = watch.out.read_text()
    finally:
        err = watch.stop()
    heads = [line.split(" · ")[0] for line in watch.headers()]
    assert heads == ["start", "restart #1", "restart #2"], err
    changed = [line for line in text.splitlines() if line.startswith("changed on disk: ")]
    assert (
        changed == ["changed on disk: server.py modified"] * 2
        or changed == [f"changed on disk: {server.resolve()} modified"] * 2
    ), text
    assert "watch.out" not in text and "watch.err" not in text
