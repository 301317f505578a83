"""`mcp-inspector-qt cli ...`: one MCP method, headless, over the same Session API as the
app. The JSON result goes to stdout; diagnostics to stderr (inspector/cli/diagnostics.py).

Exit codes: 0 ok, 1 tool result with isError, 2 usage, 3 connection or transport
failure, 4 JSON-RPC error response, 5 timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from inspector.cli.auth import (
    AuthUsageError,
    build_auth,
)
from inspector.cli.diagnostics import SessionDiagnostics, diag
from inspector.cli.parser import (
    EXIT_CONNECTION,
    EXIT_OK,
    EXIT_RPC_ERROR,
    EXIT_TIMEOUT,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    UsageError,
)
from inspector.protocol.connection import ClientConfig
from inspector.protocol.errors import PaginationError
from inspector.protocol.jsonrpc import error_name
from inspector.protocol.versions import Era, EraSetting
from inspector.recording.live import start_recorder
from inspector.recording.redaction import spec_for_connection
from inspector.recording.writer import RecordingResponder, SessionRecorder
from inspector.session import (
    ConnectError,
    InputRejected,
    PolicyResponder,
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    ServerError,
    Session,
    load_answers,
)
from inspector.transports.base import (
    Transport,
    TransportError,
)
from inspector.transports.factory import http_transport
from inspector.transports.http_common import check_url
from inspector.transports.stdio import StdioParams, StdioTransport

__all__ = ["run_cli", "run_cli_command"]

log = logging.getLogger(__name__)


def _emit(stream: TextIO, text: str) -> None:
    stream.write(text + "\n")
    stream.flush()


_diag = diag


def _pairs(values: Sequence[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"{what} expects K=V, got {item!r}")
        out[key] = value
    return out


def _json_value(text: str) -> Any:
    """`--tool-arg n=5` gives 5, `flag=true` gives true, `s=hello` stays a string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _tool_arguments(ns: argparse.Namespace) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    if ns.tool_args_json:
        try:
            parsed = json.loads(ns.tool_args_json)
        except ValueError as exc:
            raise UsageError(f"--tool-args-json is not valid JSON: {exc}") from exc
        if not isinstance(parsed, dict):
            raise UsageError("--tool-args-json must be a JSON object")
        arguments.update(parsed)
    for key, value in _pairs(ns.tool_arg, "--tool-arg").items():
        arguments[key] = _json_value(value)
    return arguments


def _check_usage(ns: argparse.Namespace) -> list[str]:
    command = list(ns.server_command)
    if command and command[0] == "--":
        command = command[1:]
    if ns.url and command:
        raise UsageError("give either --url or a server command after --, not both")
    if not ns.url and not command:
        raise UsageError("no server: give a command after -- (or --url URL)")
    needs = {
        "tools/call": ("tool_name", "--tool-name"),
        "resources/read": ("uri", "--uri"),
        "prompts/get": ("prompt_name", "--prompt-name"),
        "logging/setLevel": ("log_level", "--log-level"),
        "completion/complete": ("argument_name", "--argument-name"),
    }
    if ns.method in needs:
        attr, flag = needs[ns.method]
        if not getattr(ns, attr):
            raise UsageError(f"{ns.method} needs {flag}")
    if ns.method == "completion/complete" and bool(ns.prompt_name) == bool(ns.uri_template):
        raise UsageError("completion/complete needs exactly one of --prompt-name, --uri-template")
    if ns.method == "server/discover" and ns.era == "legacy":
        raise UsageError("server/discover is a modern-era method: add --era modern or --era auto")
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if ns.max_message_mb < 1:
        raise UsageError("--max-message-mb must be at least 1")
    return command


async def _run_method(session: Session, ns: argparse.Namespace) -> tuple[dict[str, Any], int]:
    method = ns.method
    if method in ("initialize", "server/discover"):
        ready = session.ready_info
        assert ready is not None
        result = ready.result or {}
        return result, EXIT_OK
    if method == "ping":
        return await session.client.ping(), EXIT_OK
    if method == "tools/list":
        tools = await session.client.list_tools()
        for name, why in session.client.excluded_tools.items():
            _diag(f"warning: tool {name!r} excluded from the list: {why}")
        return {"tools": tools}, EXIT_OK
    if method == "resources/list":
        return {"resources": await session.client.list_resources()}, EXIT_OK
    if method == "resources/templates/list":
        return {"resourceTemplates": await session.client.list_resource_templates()}, EXIT_OK
    if method == "prompts/list":
        return {"prompts": await session.client.list_prompts()}, EXIT_OK
    client = session.client
    if method == "tools/call":
        result = await client.call_tool(
            ns.tool_name, _tool_arguments(ns), on_progress=lambda _p: None, override=ns.override
        )
        return result, EXIT_TOOL_ERROR if result.get("isError") is True else EXIT_OK
    if method == "resources/read":
        return await client.read_resource(ns.uri, override=ns.override), EXIT_OK
    if method == "prompts/get":
        prompt_args = _pairs(ns.prompt_args, "--prompt-args")
        return await client.get_prompt(
            ns.prompt_name, prompt_args or None, override=ns.override
        ), EXIT_OK
    if method == "completion/complete":
        ref = (
            {"type": "ref/prompt", "name": ns.prompt_name}
            if ns.prompt_name
            else {"type": "ref/resource", "uri": ns.uri_template}
        )
        context = _pairs(ns.context_arg, "--context-arg")
        return await client.complete(
            ref, ns.argument_name, ns.argument_value, context or None, override=ns.override
        ), EXIT_OK
    if method == "logging/setLevel":
        if session.era is Era.MODERN:
            _diag("note: the modern era has no logging/setLevel; the level rides in each request")
        return await session.client.set_log_level(ns.log_level), EXIT_OK
    raise UsageError(f"unknown method {method}")  # pragma: no cover - argparse checks choices


def _print_result(result: dict[str, Any], compact: bool) -> None:
    text = (
        json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        if compact
        else json.dumps(result, ensure_ascii=False, indent=2)
    )
    _emit(sys.stdout, text)


def _headers(values: Sequence[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for item in values:
        name, sep, value = item.partition(":")
        if not sep or not name.strip():
            raise UsageError(f"--header expects 'Name: value', got {item!r}")
        headers[name.strip()] = value.strip()
    return headers


def _transport(ns: argparse.Namespace, command: list[str]) -> Transport:
    if ns.url:
        if ns.transport == "stdio":
            raise UsageError("--transport stdio needs a command after --, not --url")
        try:
            check_url(ns.url)
        except TransportError as exc:
            raise UsageError(f"--url: {exc}") from exc
        try:
            auth = build_auth(ns, verbose=ns.verbose)
        except AuthUsageError as exc:
            raise UsageError(str(exc)) from exc
        return http_transport(
            ns.url,
            kind=ns.transport,
            headers=_headers(ns.header),
            auth=auth,
            max_message_bytes=ns.max_message_mb * 1024 * 1024,
        )
    if ns.transport not in ("auto", "stdio"):
        raise UsageError(f"--transport {ns.transport} needs --url")
    if ns.header:
        raise UsageError("--header applies to --url servers only")
    if ns.auth != "none":
        raise UsageError(f"--auth {ns.auth} applies to --url servers only")
    params = StdioParams(
        command[0],
        command[1:],
        env=_pairs(ns.env, "--env"),
        cwd=ns.cwd,
        inherit_full_env=ns.full_env,
        max_line_bytes=ns.max_message_mb * 1024 * 1024,
    )
    return StdioTransport(params)


async def run_cli(ns: argparse.Namespace) -> int:
    command = _check_usage(ns)
    transport = _transport(ns, command)  # first: an OAuth browser login extends ns.timeout
    answers: dict[str, Any] = {}
    if ns.answers:
        try:
            answers = load_answers(ns.answers)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--answers {ns.answers}: {exc}") from exc
    roots = [{"uri": uri, "name": uri.rsplit("/", 1)[-1] or uri} for uri in ns.root]
    config = ClientConfig(
        era=EraSetting(ns.era),
        request_timeout=ns.timeout,
        max_total_timeout=max(ns.timeout, 600.0),
        auto_probe_timeout=min(ns.timeout, 5.0),
    )
    if ns.protocol_version:
        config.legacy_version = ns.protocol_version
    if ns.method == "logging/setLevel" or ns.log_level:
        config.log_level = ns.log_level
    responder = PolicyResponder(answers, roots)
    session = Session(transport, config, responder)
    recorder = _start_recorder(ns, session, command) if ns.record else None
    if recorder is not None:
        session.responder = RecordingResponder(responder, recorder)
    diagnostics = SessionDiagnostics(ns.verbose)
    session.add_listener(diagnostics)
    try:
        try:
            await session.connect(timeout=ns.timeout)
            if recorder is not None and session.ready_info is not None:
                recorder.ready(session.ready_info)
        except ConnectError as exc:
            # Let the reader drain what the dying server still wrote (stderr, garbage).
            await asyncio.sleep(0.1)
            _diag(f"error: could not connect: {diagnostics.connect_failure(str(exc))}")
            return EXIT_CONNECTION
        if session.era is Era.LEGACY and ns.log_level and ns.method != "logging/setLevel":
            await session.client.set_log_level(ns.log_level)
        try:
            result, code = await _run_method(session, ns)
        except RequestNotAllowed as exc:
            _diag(f"error: {exc}")
            return EXIT_USAGE
        except ServerError as exc:
            error = exc.failure.error
            assert error is not None
            _diag(f"error: {ns.method}: {error_name(error.code)} ({error.code}): {error.message}")
            _print_result(
                {"error": {"code": error.code, "message": error.message, "data": error.data}},
                ns.compact,
            )
            return EXIT_RPC_ERROR
        except RequestTimeout as exc:
            _diag(f"error: {exc}")
            return EXIT_TIMEOUT
        except InputRejected as exc:
            _diag(f"error: {exc}")
            return EXIT_RPC_ERROR
        except PaginationError as exc:
            _diag(f"error: {exc}")
            return EXIT_CONNECTION
        except RequestError as exc:
            _diag(f"error: {diagnostics.connect_failure(str(exc))}")
            return EXIT_CONNECTION
        _print_result(result, ns.compact)
        return code
    finally:
        await session.close()
        if recorder is not None:
            recorder.close()
            if recorder.error:
                _diag(f"error: {recorder.error}")
            else:
                _diag(f"recorded {recorder.lines_written} line(s) to {recorder.path}")


def _start_recorder(
    ns: argparse.Namespace, session: Session, command: list[str]
) -> SessionRecorder:
    # The shared rules (inspector/recording/redaction.py): secret-looking header values
    # ("Bearer TOKEN": the token too), env values and URL parts never reach the file.
    spec = (
        spec_for_connection(transport="http", url=ns.url, headers=_headers(ns.header))
        if ns.url
        else spec_for_connection(
            transport="stdio",
            command=command[0],
            args=command[1:],
            env=_pairs(ns.env, "--env"),
            cwd=ns.cwd,
        )
    )
    try:
        return start_recorder(ns.record, spec, session)
    except OSError as exc:
        raise UsageError(f"--record {ns.record}: {exc.strerror or exc}") from exc


def run_cli_command(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """`mcp-inspector-qt cli ...`: run one method, print its JSON result, exit with its code."""
    try:
        return asyncio.run(run_cli(ns))
    except UsageError as exc:
        parser.print_usage(sys.stderr)
        _diag(f"mcp-inspector-qt: error: {exc}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        _diag("interrupted")
        return 130
