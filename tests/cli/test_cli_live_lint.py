"""A headless run's lint and the session's protocol violations are one list (issue 26,
item 10): after "warning: protocol violation (batch)" the run's lint summary counts that
violation as a finding with a rule id, `--record` keeps it on the batch's row, and where
the version has batches (2025-03-26) there is nothing to count."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from tests.cli.test_cli import run_cli
from tests.helpers.peers import PY, SERVERS

pytestmark = pytest.mark.timeout(90)

HOSTILE = [PY, str(SERVERS / "misbehaving" / "server.py"), "--mode", "hostile"]


def lint_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("lint: ")]


def test_a_batch_violation_is_counted_in_the_lint_summary(tmp_path: Path) -> None:
    target = tmp_path / "s.jsonl"
    code, out, err = run_cli(
        "-v", "--method", "tools/call", "--tool-name", "batch", "--record", str(target),
        server=HOSTILE,
    )  # fmt: skip
    assert code == 0, err
    assert out["content"][0]["text"] == "batched"
    assert "warning: protocol violation (batch)" in err
    # One list, one count: the summary counts the violation (said once, as the warning).
    # Four messages: initialize, tools/list (the call's outputSchema), the batch of two.
    assert lint_lines(err) == [
        "lint: 4 server message(s) checked, 1 finding(s): protocol.batch ×1"
    ], err
    # The session file keeps it as a finding of the batch's first message.
    offline = load_offline(read_session(target))
    [finding] = offline.lint.findings
    assert finding.rule == "protocol.batch" and "batch of 2 messages" in finding.message
    assert finding.where.startswith("basic § JSON-RPC")
    entry = offline.traffic.entries[finding.index]
    assert entry.direction == "in" and entry.method == "notifications/message"
    assert "message 1 of 2 in one JSON-RPC batch" in (entry.note or "")


def test_a_batch_in_2025_03_26_breaks_no_rule() -> None:
    code, _out, err = run_cli(
        "-v", "--method", "tools/call", "--tool-name", "batch",
        server=[*HOSTILE, "--protocol", "2025-03-26"],
    )  # fmt: skip
    assert code == 0, err
    assert "protocol violation" not in err
    assert lint_lines(err) == ["lint: 4 server message(s) checked, 0 finding(s)"], err


def test_a_listing_over_a_mebibyte_is_said_unlinted_not_counted_checked() -> None:
    """Issue 27: `cli -v` left a 10,000-tool listing (over 1 MiB) unlinted, as any huge row,
    yet counted it checked, with "0 finding(s)": why it looked ten times faster than the
    window. It says so now; a smaller listing is linted, its findings counted."""
    lint = [PY, str(SERVERS / "misbehaving" / "lint_server.py"), "--break", "dup-names"]
    code, out, err = run_cli("-v", "--method", "tools/list", server=[*lint, "--many", "9000"])
    assert code == 0, err
    assert len(out["tools"]) == 9003
    line = lint_lines(err)[-1]  # the summary (-v prints each finding before it)
    assert line.startswith("lint: 1 server message(s) checked, 0 finding(s); 1 over 1 MiB")
    assert "tools/list" in line and "not linted" in line
    code, out, err = run_cli("-v", "--method", "tools/list", server=[*lint, "--many", "300"])
    assert code == 0, err
    assert "unique-names at /result/tools/302/name" in err
    assert lint_lines(err)[-1] == "lint: 2 server message(s) checked, 1 finding(s): unique-names ×1"
