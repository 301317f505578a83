"""The one report writer of the commands that judge a server (`check`, `test`, `watch`,
`diff`): what they print on stdout and the report files they write.

- stdout: the report as text for a person (`print_text`), or as JSON (`print_json`:
  indented, or one line per report for a stream such as `watch --json`);
- files: each report-file option the command line was given (`--junit OUT.xml`) is written
  by `write_report_files`, from the report's method of that format. A write that fails is
  said on stderr (`error: --junit OUT.xml: ...`) and the run's exit code stands.

A new format is one row of `REPORT_FILES` (as SARIF: `ReportFile("--sarif", "sarif",
"sarif")`, a `--sarif` option on the commands that have it, `check` and `scan`, and a
`sarif() -> str` on their reports); nothing else changes.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.cli.errors import diag
from inspector.common.terminal_text import terminal_json, terminal_text

__all__ = ["REPORT_FILES", "ReportFile", "print_json", "print_text", "write_report_files"]


@dataclass(frozen=True)
class ReportFile:
    flag: str  # the command line's option: "--junit"
    dest: str  # where argparse keeps its value: "junit"
    method: str  # the report's method that gives the file's text: "junit"


REPORT_FILES: Final = (
    ReportFile("--junit", "junit", "junit"),
    ReportFile("--sarif", "sarif", "sarif"),
)


def print_text(text: str) -> None:
    """`text` and a newline on stdout, flushed (a person or a pipe sees it now); what a
    server wrote in it is shown escaped (inspector/common/terminal_text.py)."""
    sys.stdout.write(terminal_text(text) + "\n")
    sys.stdout.flush()


def print_json(data: Any, *, one_line: bool = False) -> None:
    """`data` as JSON on stdout: indented by 2, or on one compact line. What a terminal
    would act on is written as JSON escapes (`\\u009b`): the same JSON, safe to show."""
    if one_line:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(data, ensure_ascii=False, indent=2)
    sys.stdout.write(terminal_json(text) + "\n")
    sys.stdout.flush()


def write_report_files(ns: argparse.Namespace, report: object) -> None:
    """Write `report` in each file format `ns` asks for."""
    for kind in REPORT_FILES:
        path = getattr(ns, kind.dest, None)
        if not path:
            continue
        try:
            Path(path).write_text(getattr(report, kind.method)(), encoding="utf-8")
        except OSError as exc:
            diag(f"error: {kind.flag} {path}: {exc.strerror or exc}")
