"""A usage error found by a subcommand itself (not by argparse) prints that subcommand's
usage, not the top-level one (issue 31, item 23)."""

from __future__ import annotations

import pytest

from inspector.__main__ import main


@pytest.mark.parametrize(
    ("argv", "usage", "error"),
    [
        (
            ["cli", "--method", "tools/call", "--", "python3", "x.py"],
            "usage: mcp-inspector-qt cli --method METHOD",
            "mcp-inspector-qt cli: error:",
        ),
        (
            ["diff", "--left", "python3 a.py", "--right", "python3 b.py", "--timeout", "-1"],
            "usage: mcp-inspector-qt diff",
            "mcp-inspector-qt diff: error: --timeout must be positive",
        ),
    ],
)
def test_a_subcommand_usage_error_prints_the_subcommands_usage(
    argv: list[str], usage: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(usage), err
    assert "{cli,gui,demo-server" not in err  # not the top-level usage
    assert error in err
