"""The raw host session of `check` (inspector/check/host_run.py) on its edges: a server
that floods stdout with lines that are not JSON-RPC, and one that ends its session itself
before the host closes its stdin."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from inspector.check.host_run import AMONG, BEFORE, StdoutLine, _Reader, host_run
from inspector.check.probe import CheckContext, CheckOptions
from inspector.check.spec import Status
from inspector.check.transport_checks import TRANSPORT_CHECKS
from inspector.settings.profiles import Profile, StdioSettings

pytestmark = pytest.mark.timeout(120)

# Answers initialize, then ends when the host says notifications/initialized: it exits
# before its stdin closes, so its exit shows nothing of how it ends on EOF.
_QUITTER = """
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"],
                  "capabilities": {"tools": {}}, "serverInfo": {"name": "q", "version": "1"}}
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
    elif message.get("method") == "notifications/initialized":
        sys.exit(0)
"""


class _CountedLines(list[StdoutLine]):
    """The reader's kept lines, counting every walk over them."""

    walks = 0

    def __iter__(self) -> Iterator[StdoutLine]:
        type(self).walks += 1
        return super().__iter__()


def test_a_flood_of_stdout_lines_is_read_in_linear_time() -> None:
    """60k log lines before the first message (a chatty server logging to stdout): no line
    walks the lines kept before it (before: every line did, so 60k lines took about a
    minute, and a check timed out instead of failing). Counted, not timed."""
    loop = asyncio.new_event_loop()
    try:
        reader = _Reader(asyncio.StreamReader(loop=loop))
    finally:
        loop.close()
    reader.lines = kept = _CountedLines()
    flood = b"".join(b"log line %d\n" % i for i in range(60_000))
    reader._feed(flood + b'{"jsonrpc":"2.0","id":1,"result":{}}\nafter\n')
    assert kept.walks == 0
    assert len(reader.lines) == 60_002
    assert {line.phase for line in reader.lines[:60_001]} == {BEFORE}
    assert reader.lines[60_001].phase == AMONG and not reader.lines[60_001].message
    assert reader.answers[1]["result"] == {}


def test_a_line_past_the_message_limit_keeps_only_its_head_and_size() -> None:
    """A hostile server's endless line (no newline for megabytes) is never buffered whole:
    past the profile's limit only its head and its size are kept, and the messages after it
    are still read; after the first lines only sizes and phases are kept."""
    loop = asyncio.new_event_loop()
    try:
        reader = _Reader(asyncio.StreamReader(loop=loop), max_line=1024 * 1024)
    finally:
        loop.close()
    reader._feed(b"x" * 1024 * 1024)  # at the limit: still a line that may be a message
    for _ in range(2):
        reader._feed(b"x" * 1024 * 1024)
        assert len(reader._buf) <= 4096
    reader._feed(b'tail\n{"jsonrpc":"2.0","id":1,"result":{}}\n')
    [long, message] = reader.lines
    assert long.size == 3 * 1024 * 1024 + 4 and not long.message and long.phase == BEFORE
    assert long.raw == b"x" * 4096 and long.quoted(10) == "'xxxxxxxxxx'…"
    assert message.message and reader.answers[1]["result"] == {}
    reader._feed(b"".join(b"noise %d\n" % i for i in range(2000)))
    assert reader.lines[500].raw == b"noise 498"
    assert reader.lines[1500].raw == b"" and reader.lines[1500].size == len(b"noise 1498")


def test_a_server_that_ends_itself_before_stdin_closes_is_not_judged_on_eof(
    tmp_path: Path,
) -> None:
    """stdio.eof is not passed by a server that had already exited when the host closed
    its stdin (before: "exited (code 0) 0.00 s after its stdin closed", a pass it never
    earned), and the steps the host took are kept."""
    script = tmp_path / "quitter.py"
    script.write_text(_QUITTER)
    profile = Profile(name="", stdio=StdioSettings(command=sys.executable, args=[str(script)]))
    ctx = CheckContext(profile, CheckOptions(timeout=10))
    eof = next(c for c in TRANSPORT_CHECKS if c.id == "stdio.eof")

    async def scenario() -> tuple[Status, str, list[str]]:
        run = await host_run(ctx)
        status, evidence = await eof.run(ctx)
        return status, evidence, run.steps

    status, evidence, steps = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert steps[:2] == ["initialize", "notifications/initialized"], steps
    assert status is Status.SKIPPED, evidence
    assert "before its stdin closed" in evidence and "is not known" in evidence
    assert "exit code 0" in evidence


class _Completer:
    """A session whose completion/complete answers are not shaped as the spec says."""

    def __init__(self, answers: list[object]) -> None:
        self.answers = answers

    async def complete(self, *_args: object) -> object:
        return self.answers.pop(0) if self.answers else {}


class _Ctx:
    capabilities: ClassVar[dict[str, object]] = {"completions": {}}

    def __init__(self, session: _Completer) -> None:
        self.session = session

    async def live(self) -> _Completer:
        return self.session


def test_a_completion_answer_of_the_wrong_shape_offers_nothing() -> None:
    """`completion` a list, `values` a string: no value is known (before: the check
    stopped with an AttributeError and failed prompts.get, or took the string's first
    character for a value the server offered)."""
    from inspector.check.known_values import known_values

    session = _Completer([{"completion": ["1"]}, {"completion": {"values": "42"}}, {}])
    known = asyncio.run(
        known_values(_Ctx(session), {"type": "ref/prompt", "name": "p"}, ["id"], "arguments")  # type: ignore[arg-type]
    )
    assert known.values == {} and known.unknown == ["id"]
    assert "offered none" in known.why
