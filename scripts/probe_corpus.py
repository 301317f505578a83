#!/usr/bin/env python3
"""Probe the corpus of real third-party MCP servers (tests/helpers/corpus.py) with raw pipes
and JSON lines, never through the app's own connection code, and record what each one does
in tests/corpus/behaviour.json: what it prints on stdout besides JSON-RPC, its initialize
result, its list counts, its error codes, whether it answers a notification, the
capabilities it uses without declaring them, and whether it exits when a host ends a real
session (initialize, notifications/initialized, tools/list, stdin closed).

    .venv/bin/python scripts/probe_corpus.py [NAME...]          # re-probe (all by default)
    .venv/bin/python scripts/probe_corpus.py --golden [NAME...]  # rewrite check_golden.json

--golden runs `check --json` and `diff` (the real CLI) on each server and writes what they
say to tests/corpus/check_golden.json, which tests/corpus/test_check_golden.py compares with.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.helpers.corpus import BY_NAME, SERVERS, Server  # noqa: E402
from tests.helpers.corpus_golden import GOLDEN, golden_entry  # noqa: E402

BEHAVIOUR = REPO / "tests" / "corpus" / "behaviour.json"
PROTOCOL = "2025-06-18"
WAIT = 15.0  # seconds for one answer (a cold start of a big server included)
EXIT_CAP = 5.0  # seconds a server gets to exit after its stdin closes
LINE_CAP = 160  # characters kept of a non-JSON stdout line

# Notifications a server may send only when it declared the capability named.
NEEDS = {
    "notifications/message": ("logging", None),
    "notifications/tools/list_changed": ("tools", "listChanged"),
    "notifications/resources/list_changed": ("resources", "listChanged"),
    "notifications/prompts/list_changed": ("prompts", "listChanged"),
    "notifications/resources/updated": ("resources", "subscribe"),
}


class Pipe:
    """A server process: JSON lines in, every stdout line out, raw."""

    def __init__(self, server: Server, folder: Path) -> None:
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **server.environ(folder)}
        self.proc = subprocess.Popen(
            server.argv(folder),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=folder,
            env=env,
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.raw: list[str] = []  # non-JSON stdout lines, in order
        self.messages: list[dict[str, Any]] = []
        self.first_message_seen = False
        self.before_first: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            pass

    def next_message(self, deadline: float) -> dict[str, Any] | None:
        """The next JSON message on stdout (non-JSON lines recorded on the way), or None."""
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return None
            if line is None:
                return None
            text = line.decode("utf-8", "replace").rstrip("\r\n")
            try:
                message = json.loads(text)
            except ValueError:
                message = None
            if not isinstance(message, dict):
                if text.strip():
                    shown = _stable(text)
                    self.raw.append(shown)
                    if not self.first_message_seen:
                        self.before_first.append(shown)
                continue
            self.first_message_seen = True
            self.messages.append(message)
            return message

    def request(self, ident: int, method: str, params: Any = None) -> dict[str, Any] | None:
        """Send a request; its response (other messages are kept in self.messages)."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        deadline = time.monotonic() + WAIT
        while (got := self.next_message(deadline)) is not None:
            if got.get("id") == ident and "method" not in got:
                return got
        return None

    def close_and_time_exit(self) -> str:
        """Close stdin; how the process ended, in a stable bucket."""
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        start = time.monotonic()
        try:
            self.proc.wait(EXIT_CAP)
        except subprocess.TimeoutExpired:
            self.kill()
            return f"still running {EXIT_CAP:.0f} s after stdin closed (killed)"
        took = time.monotonic() - start
        return "exits within 1 s" if took < 1 else f"exits within {EXIT_CAP:.0f} s"

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(2)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def _stable(text: str) -> str:
    """A stdout line as recorded: escaped, truncated, its clock times blanked."""
    text = re.sub(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?Z?", "<time>", text)
    text = re.sub(r"\b\d\d:\d\d:\d\d(\.\d+)?\b", "<time>", text)
    shown = text.encode("unicode_escape").decode("ascii")
    return shown if len(shown) <= LINE_CAP else shown[:LINE_CAP] + "…"


def _code(response: dict[str, Any] | None) -> int | str:
    if response is None:
        return "no response"
    error = response.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        return code if isinstance(code, int) else f"non-integer code {code!r}"
    result = response.get("result")
    if isinstance(result, dict) and result.get("isError"):
        return "result with isError: true"
    return "result (no error)"


def _count(pipe: Pipe, ident: int, method: str, key: str) -> int | str:
    response = pipe.request(ident, method)
    if response is None:
        return "no response"
    result = response.get("result")
    if isinstance(result, dict) and isinstance(result.get(key), list):
        return len(result[key])
    return f"error {_code(response)}"


def _undeclared(caps: dict[str, Any], messages: list[dict[str, Any]]) -> list[str]:
    """Notifications and requests that need a capability nobody declared."""
    used: set[str] = set()
    for message in messages:
        method = message.get("method")
        if not isinstance(method, str):
            continue
        if "id" in message:
            # A request to the client: the probe declared no client capability at all.
            used.add(f"request {method} (the client declared no capabilities)")
            continue
        need = NEEDS.get(method)
        if need is None:
            continue
        cap, sub = need
        declared = caps.get(cap)
        if not isinstance(declared, dict) or (sub is not None and declared.get(sub) is not True):
            what = cap if sub is None else f"{cap}.{sub}"
            used.add(f"{method} without declaring {what}")
    return sorted(used)


def _schema_problems(tools: list[Any]) -> list[str]:
    import jsonschema

    problems = []
    for tool in tools:
        if not isinstance(tool, dict):
            problems.append("a tool that is not an object")
            continue
        name = tool.get("name")
        for key in ("inputSchema", "outputSchema"):
            schema = tool.get(key)
            if schema is None and key == "outputSchema":
                continue
            if not isinstance(schema, dict) or schema.get("type") != "object":
                problems.append(f"{name}: {key} is not a JSON Schema of type object")
                continue
            try:
                jsonschema.validators.validator_for(schema).check_schema(schema)
            except jsonschema.SchemaError as err:
                problems.append(f"{name}: {key} invalid: {err.message[:100]}")
    return sorted(problems)


def _initialize(pipe: Pipe) -> dict[str, Any] | None:
    return pipe.request(
        1,
        "initialize",
        {
            "protocolVersion": PROTOCOL,
            "capabilities": {},
            "clientInfo": {"name": "probe_corpus", "version": "1"},
        },
    )


def probe(server: Server) -> dict[str, Any]:
    """What `server` does, verified over raw pipes."""
    record: dict[str, Any] = {
        "sdk": server.sdk,
        "language": server.language,
        "package": f"{server.registry} {server.package}=={server.version}",
    }
    with tempfile.TemporaryDirectory(prefix="probe-") as folder:
        pipe = Pipe(server, Path(folder))
        try:
            record.update(_session(pipe))
        finally:
            pipe.kill()
    with tempfile.TemporaryDirectory(prefix="probe-") as folder:
        # An unsupported version offered: the answer must be a version the server supports.
        pipe = Pipe(server, Path(folder))
        try:
            answer = pipe.request(
                1,
                "initialize",
                {
                    "protocolVersion": "1999-01-01",
                    "capabilities": {},
                    "clientInfo": {"name": "probe_corpus", "version": "1"},
                },
            )
            result = (answer or {}).get("result")
            record["answers_version_1999_01_01_with"] = (
                result.get("protocolVersion") if isinstance(result, dict) else _code(answer)
            )
        finally:
            pipe.kill()
    with tempfile.TemporaryDirectory(prefix="probe-") as folder:
        # A host's real ending, alone: initialize, initialized, tools/list, stdin closed.
        pipe = Pipe(server, Path(folder))
        try:
            init = _initialize(pipe)
            pipe.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            listed = pipe.request(2, "tools/list")
            if init is None or listed is None:
                record["exit_on_eof"] = "no answer before stdin closed"
            else:
                seen = len(pipe.raw)
                record["exit_on_eof"] = pipe.close_and_time_exit()
                # What it still prints as it goes (a buffered banner comes out only now).
                while pipe.next_message(time.monotonic() + 1.0) is not None:
                    pass
                if isinstance(record.get("stdout_non_json"), dict):
                    record["stdout_non_json"]["after_stdin_closed"] = pipe.raw[seen:][:10]
        finally:
            pipe.kill()
    return record


def _session(pipe: Pipe) -> dict[str, Any]:
    init = _initialize(pipe)
    if init is None or not isinstance(init.get("result"), dict):
        return {"initialize": f"failed: {_code(init)}", "stdout_non_json": pipe.raw[:10]}
    result = init["result"]
    caps = result.get("capabilities") if isinstance(result.get("capabilities"), dict) else {}
    # What it sends before notifications/initialized (half a second to show it).
    while pipe.next_message(time.monotonic() + 0.5) is not None:
        pass
    early = [m.get("method") for m in pipe.messages if "method" in m]
    pipe.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    tools_response = pipe.request(2, "tools/list")
    tools = (tools_response or {}).get("result", {}).get("tools", [])
    counts = {
        "tools": len(tools) if isinstance(tools, list) else "not a list",
        "resources": _count(pipe, 3, "resources/list", "resources"),
        "resource_templates": _count(pipe, 4, "resources/templates/list", "resourceTemplates"),
        "prompts": _count(pipe, 5, "prompts/list", "prompts"),
    }
    errors = {
        "unknown method": _code(pipe.request(10, "no/such_method")),
        "tools/call of an unknown tool": _code(
            pipe.request(11, "tools/call", {"name": "no_such_tool_xyz", "arguments": {}})
        ),
        "tools/call without a name (invalid params)": _code(
            pipe.request(12, "tools/call", {"arguments": {}})
        ),
        "ping": _code(pipe.request(13, "ping")),
        "resources/read of a missing URI": _code(
            pipe.request(15, "resources/read", {"uri": "probe://missing/7f3a"})
        ),
    }
    # Notifications: one the spec names, one unknown, and a request's shape without an id.
    before = len(pipe.messages)
    pipe.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}})
    pipe.send({"jsonrpc": "2.0", "method": "notifications/no_such_thing"})
    pipe.send({"jsonrpc": "2.0", "method": "ping"})
    sync = pipe.request(14, "ping")
    answered = [
        m
        for m in pipe.messages[before:]
        if "method" not in m and m.get("id") != 14 and ("result" in m or "error" in m)
    ]
    # Any answer after notifications/initialized and before the first request also counts.
    answered_initialized = [
        m for m in pipe.messages if "method" not in m and m.get("id") in (None, "")
    ]
    replies = answered or answered_initialized
    return {
        "initialize": {
            "protocolVersion": result.get("protocolVersion"),
            "serverInfo": {
                k: result.get("serverInfo", {}).get(k)
                for k in ("name", "version")
                if isinstance(result.get("serverInfo"), dict)
            },
            "capabilities": sorted(caps),
        },
        "counts": counts,
        "error_codes": errors,
        "answers_notifications": (
            sorted({json.dumps(_shape(m), sort_keys=True) for m in replies}) if replies else False
        ),
        "alive_after_notifications": sync is not None,
        "undeclared_capabilities_used": _undeclared(caps, pipe.messages),
        "sent_before_initialized": sorted(set(map(str, early))),
        "invalid_tool_schemas": _schema_problems(tools if isinstance(tools, list) else []),
        "stdout_non_json": {
            "before_first_message": pipe.before_first[:10],
            "among_messages": [line for line in pipe.raw if line not in pipe.before_first][:10],
        },
    }


def _shape(message: dict[str, Any]) -> dict[str, Any]:
    """A reply to a notification, without its free text."""
    shape: dict[str, Any] = {"id": message.get("id")}
    if isinstance(message.get("error"), dict):
        shape["error.code"] = message["error"].get("code")
    else:
        shape["result"] = "…"
    return shape


def breaks(record: dict[str, Any]) -> list[str]:
    """The rules the probe saw a server break, in words (docs/corpus.md, the golden's notes)."""
    found = []
    out = record.get("stdout_non_json", {})
    if isinstance(out, dict) and any(out.values()):
        found.append("non-JSON lines on stdout")
    if not str(record.get("exit_on_eof", "")).startswith("exits"):
        found.append(f"EOF: {record.get('exit_on_eof')}")
    if record.get("answers_notifications"):
        found.append("answers notifications")
    codes = record.get("error_codes", {})
    if codes.get("unknown method") not in (-32601, None):
        found.append(f"unknown method -> {codes.get('unknown method')} (not -32601)")
    if codes.get("tools/call without a name (invalid params)") not in (-32602, None):
        found.append(
            f"invalid params -> {codes.get('tools/call without a name (invalid params)')} "
            "(not -32602)"
        )
    if codes.get("ping") not in ("result (no error)", None):
        found.append(f"ping -> {codes.get('ping')}")
    if codes.get("tools/call of an unknown tool") == "result (no error)":
        found.append("an unknown tool's call succeeds (no error, no isError)")
    if record.get("answers_version_1999_01_01_with") == "1999-01-01":
        found.append("echoes an unsupported protocol version (1999-01-01)")
    missing = codes.get("resources/read of a missing URI")
    if isinstance(missing, int) and missing not in (-32002, -32602, -32601):
        found.append(f"resources/read of a missing URI -> {missing} (not -32002)")
    for method in record.get("sent_before_initialized", []):
        found.append(f"sends {method} before notifications/initialized")
    for used in record.get("undeclared_capabilities_used", []):
        found.append(f"undeclared: {used}")
    for problem in record.get("invalid_tool_schemas", []):
        found.append(f"schema: {problem}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="servers to probe (all by default)")
    parser.add_argument("--golden", action="store_true", help="rewrite the check golden")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown server(s): {', '.join(unknown)}; known: {', '.join(BY_NAME)}")
    chosen = [BY_NAME[n] for n in args.names] if args.names else list(SERVERS)
    target = GOLDEN if args.golden else BEHAVIOUR
    kept: dict[str, Any] = json.loads(target.read_text()) if target.exists() else {}
    for server in chosen:
        reason = server.installed()
        if reason is not None:
            sys.stderr.write(f"skipped: {reason}\n")
            continue
        sys.stderr.write(f"{'golden' if args.golden else 'probing'}: {server.name}\n")
        if args.golden:
            kept[server.name] = golden_entry(server)
        else:
            record = probe(server)
            record["breaks"] = breaks(record)
            kept[server.name] = record
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(kept, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    sys.stderr.write(f"wrote {target.relative_to(REPO)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
