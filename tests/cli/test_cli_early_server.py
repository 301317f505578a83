"""`cli` starts a stdio server before it loads the machinery that runs the method
(`inspector.cli.early_server`), and keeps it only if it is the server the profile names."""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli.command_args import split_server_command
from inspector.cli.early_server import adopt_early, early_params, start_early
from inspector.cli.parser import build_parser
from inspector.cli.profile_args import profile_from_args
from inspector.settings.connect import transport_for
from inspector.transports.stdio import StdioTransport
from tests.helpers.peers import PY, REPO, demo_command

pytestmark = pytest.mark.timeout(60)


def parse(*argv: str) -> argparse.Namespace:
    words, command = split_server_command(["cli", "--method", "tools/list", *argv])
    ns = build_parser().parse_args(words)
    if command is not None:
        ns.server_command = command
    return ns


@pytest.mark.parametrize(
    "argv",
    [
        ("--", "node", "server.js"),
        ("--env", "A=1", "--env", "B=x=y", "--cwd", "/tmp", "--", "srv", "--flag", "a b"),
        ("--full-env", "--max-message-mb", "9000", "--shutdown-grace", "0.5", "--", "srv"),
        ("--era", "modern", "--timeout", "3", "--root", "file:///x", "--", "srv"),
    ],
)
def test_the_early_server_is_the_one_the_profile_names(argv: tuple[str, ...]) -> None:
    ns = parse(*argv)
    early = early_params(ns)
    assert early is not None
    usual = transport_for(
        profile_from_args(ns), max_message_mb=ns.max_message_mb, shutdown_grace=ns.shutdown_grace
    )
    assert isinstance(usual, StdioTransport)
    assert usual.params == early


@pytest.mark.parametrize(
    "argv",
    [
        ("--url", "http://127.0.0.1:1/mcp"),
        ("--header", "A: b", "--", "srv"),
        ("--transport", "sse", "--", "srv"),
        ("--env", "not-a-pair", "--", "srv"),
        ("--auth", "bearer", "--", "srv"),
    ],
)
def test_what_does_not_fit_a_stdio_server_waits_for_the_usual_path(argv: tuple[str, ...]) -> None:
    assert early_params(parse(*argv)) is None


def test_a_server_that_differs_is_closed_and_the_usual_one_kept() -> None:
    async def scenario() -> tuple[int | None, bool]:
        ns = parse("--", *demo_command())
        os.environ.setdefault("PYTHONPATH", str(REPO))
        early = await start_early(ns)
        assert early is not None and early.pid is not None
        other = transport_for(profile_from_args(parse("--env", "X=1", "--", *demo_command())))
        kept = await adopt_early(early, other)
        assert early._proc is not None
        return early._proc.returncode, kept is other

    code, kept_other = asyncio.run(scenario())
    assert kept_other
    assert code is not None  # the early server was stopped


def test_a_command_that_does_not_start_is_reported_by_the_usual_path() -> None:
    assert asyncio.run(start_early(parse("--", "no-such-command-here"))) is None


def test_the_entry_point_loads_no_profile_model_and_no_session() -> None:
    """What makes the overlap possible: the server starts before these are imported."""
    probe = (
        "import sys, inspector.cli.commands.cli; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic' "
        "or m.startswith(('inspector.session', 'inspector.settings'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        check=True,
    ).stdout
    assert out.strip() == "[]"


def test_one_server_process_is_started_per_run(tmp_path: Path) -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "cli", "-v", "--method", "tools/list", "--", *demo_command()],
        capture_output=True,
        text=True,
        timeout=30,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
    )
    assert proc.returncode == 0, proc.stderr
    started = [
        line for line in proc.stderr.splitlines() if "inspector.transports.stdio: started" in line
    ]
    assert len(started) == 1, proc.stderr
