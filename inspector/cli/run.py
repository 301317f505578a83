"""The command line: `mcp-inspector-qt cli ...`, headless, over the same Session API.

The vocabulary follows the official Inspector CLI (`--method`, `--tool-name`,
`--tool-arg k=v`, `--uri`, `--prompt-name`, `--prompt-args`, `--log-level`) so
users can switch easily. The JSON result goes to stdout; diagnostics to stderr.

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
from typing import Any, Final, NoReturn, TextIO

from inspector import __version__
from inspector.cli.auth import (
    AuthUsageError,
    add_auth_arguments,
    add_logout_parser,
    build_auth,
    run_logout,
)
from inspector.cli.export import add_export_parser, run_export_har
from inspector.cli.replay import add_replay_parser, run_replay, split_server_command
from inspector.protocol.connection import ClientConfig
from inspector.protocol.errors import PaginationError
from inspector.protocol.events import (
    InvalidFrame,
    LateResponse,
    NotificationReceived,
    ProgressUpdate,
    ProtocolViolation,
    UnmatchedResponse,
    VersionRenegotiated,
)
from inspector.protocol.jsonrpc import error_name
from inspector.protocol.methods import CLI_METHODS
from inspector.protocol.versions import LEGACY_VERSIONS, Era, EraSetting
from inspector.recording.live import start_recorder
from inspector.recording.redaction import spec_for_connection
from inspector.recording.writer import RecordingResponder, SessionRecorder
from inspector.session.driver import (
    ConnectError,
    InputRejected,
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    ServerError,
    Session,
)
from inspector.session.responder import PolicyResponder, load_answers
from inspector.transports.base import (
    HttpExchange,
    StderrLine,
    Transport,
    TransportClosed,
    TransportError,
)
from inspector.transports.factory import http_transport
from inspector.transports.http_common import check_url
from inspector.transports.stdio import StdioParams, StdioTransport

__all__ = ["EXIT_CODES", "main"]

log = logging.getLogger(__name__)

EXIT_OK: Final = 0
EXIT_TOOL_ERROR: Final = 1
EXIT_USAGE: Final = 2
EXIT_CONNECTION: Final = 3
EXIT_RPC_ERROR: Final = 4
EXIT_TIMEOUT: Final = 5
EXIT_CODES: Final = {
    EXIT_OK: "ok",
    EXIT_TOOL_ERROR: "the tool result has isError: true",
    EXIT_USAGE: "usage error",
    EXIT_CONNECTION: "connection or transport failure",
    EXIT_RPC_ERROR: "the server answered with a JSON-RPC error",
    EXIT_TIMEOUT: "timeout",
}

METHODS: Final = CLI_METHODS
LOG_LEVELS: Final = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)


class UsageError(Exception):
    pass


def _emit(stream: TextIO, text: str) -> None:
    stream.write(text + "\n")
    stream.flush()


def _diag(text: str) -> None:
    _emit(sys.stderr, text)


def build_parser() -> argparse.ArgumentParser:
    epilog = "exit codes:\n" + "\n".join(f"  {k}  {v}" for k, v in EXIT_CODES.items())
    parser = argparse.ArgumentParser(
        prog="mcp-inspector-qt",
        description="Inspect and debug Model Context Protocol servers.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command")
    cli = sub.add_parser(
        "cli",
        help="run one MCP method headlessly and print the JSON result",
        usage="mcp-inspector-qt cli --method METHOD [options] -- COMMAND [ARGS...]\n"
        "       mcp-inspector-qt cli --method METHOD --url URL [--header 'K: V']",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cli.add_argument("--method", required=True, choices=METHODS, metavar="METHOD")
    target = cli.add_argument_group("server")
    target.add_argument("--url", help="an HTTP server URL (streamable HTTP or SSE)")
    target.add_argument(
        "--transport", choices=("auto", "stdio", "streamable-http", "sse"), default="auto"
    )
    target.add_argument("--header", action="append", default=[], metavar="'K: V'")
    add_auth_arguments(cli)
    target.add_argument("--env", action="append", default=[], metavar="K=V")
    target.add_argument("--full-env", action="store_true", help="pass the whole environment")
    target.add_argument("--cwd")
    target.add_argument(
        "--max-message-mb",
        type=int,
        default=64,
        metavar="MIB",
        help="the largest message accepted; bigger ones are cut and flagged (default 64)",
    )
    proto = cli.add_argument_group("protocol")
    proto.add_argument("--era", choices=[e.value for e in EraSetting], default="legacy")
    proto.add_argument(
        "--protocol-version",
        choices=LEGACY_VERSIONS,
        help="legacy version to offer in initialize (default: the newest)",
    )
    proto.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS")
    proto.add_argument(
        "--override",
        action="store_true",
        help="send even if the server did not declare the capability",
    )
    proto.add_argument(
        "--answers",
        metavar="FILE",
        help='JSON answers for server asks: {"sampling": ..., "elicitation": ..., "roots": ...}'
        " (default: decline)",
    )
    proto.add_argument("--root", action="append", default=[], metavar="URI")
    args_group = cli.add_argument_group("method arguments")
    args_group.add_argument("--tool-name")
    args_group.add_argument("--tool-arg", action="append", default=[], metavar="K=V")
    args_group.add_argument("--tool-args-json", metavar="JSON")
    args_group.add_argument("--uri")
    args_group.add_argument("--prompt-name")
    args_group.add_argument("--prompt-args", action="append", default=[], metavar="K=V")
    args_group.add_argument("--uri-template", help="completion/complete: a template reference")
    args_group.add_argument("--argument-name", help="completion/complete: the argument")
    args_group.add_argument("--argument-value", default="", help="completion/complete: prefix")
    args_group.add_argument("--context-arg", action="append", default=[], metavar="K=V")
    args_group.add_argument("--log-level", choices=LOG_LEVELS)
    out = cli.add_argument_group("output")
    out.add_argument("-v", "--verbose", action="store_true", help="show server stderr, traffic")
    out.add_argument("--compact", action="store_true", help="print JSON on one line")
    out.add_argument(
        "--record", metavar="FILE", help="record the session to FILE (JSON Lines; replayable)"
    )
    cli.add_argument("server_command", nargs=argparse.REMAINDER, metavar="-- COMMAND [ARGS...]")
    gui = sub.add_parser(
        "gui",
        help="open the desktop app (the default with no command)",
        description="Open the desktop app; optionally connect at once and take a screenshot.",
    )
    gui_target = gui.add_mutually_exclusive_group()
    gui_target.add_argument("--profile", metavar="NAME", help="connect to a saved profile")
    gui_target.add_argument("--stdio", metavar='"CMD"', help="connect to this stdio command")
    gui_target.add_argument("--url", help="connect to this HTTP server URL")
    gui.add_argument(
        "--screenshot",
        metavar="PATH",
        help="connect, wait for server info and tools, save a PNG of the window and exit",
    )
    gui.add_argument(
        "--open",
        metavar="KIND:KEY",
        help="screenshot mode: select tool:NAME, resource:URI, template:URI-TEMPLATE or "
        "prompt:NAME and show its form",
    )
    gui.add_argument(
        "--call-args",
        metavar="JSON",
        help="screenshot mode, with --open: call (read, get) it with these arguments and "
        "wait for the result",
    )
    gui.add_argument("--theme", choices=("system", "light", "dark"), help="color theme")
    gui.add_argument(
        "--timeout", type=float, default=30.0, metavar="SECONDS", help="screenshot mode wait"
    )
    sub.add_parser("demo-server", help="run the bundled demo MCP server on stdio")
    add_replay_parser(sub)
    add_logout_parser(sub)
    add_export_parser(sub)
    return parser


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


class _Diagnostics:
    """Session listener that reports what a debugger must never hide, on stderr."""

    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose
        self.invalid: list[str] = []
        self.closed: TransportClosed | None = None

    def __call__(self, item: object) -> None:
        if isinstance(item, StderrLine):
            if self.verbose:
                _diag(f"[server] {item.text}")
        elif isinstance(item, InvalidFrame):
            raw = item.invalid.raw
            shown = raw if isinstance(raw, str) else repr(raw)
            self.invalid.append(f"{item.invalid.reason}: {shown[:120]!r}")
            _diag(f"warning: invalid frame from the server ({item.invalid.reason}): {shown[:200]}")
        elif isinstance(item, ProtocolViolation):
            _diag(f"warning: protocol violation ({item.rule}): {item.message}")
        elif isinstance(item, UnmatchedResponse | LateResponse):
            text = (
                item.message
                if isinstance(item, UnmatchedResponse)
                else f"late response to {item.method} (given up: {item.why_given_up})"
            )
            _diag(f"warning: {text}")
        elif isinstance(item, VersionRenegotiated):
            _diag(f"note: protocol {item.old} → {item.new}: {item.reason}")
        elif isinstance(item, NotificationReceived) and self.verbose:
            typed = item.typed
            if isinstance(typed, ProgressUpdate):
                total = f"/{typed.total:g}" if typed.total is not None else ""
                _diag(f"progress {typed.progress:g}{total} {typed.message or ''}".rstrip())
            else:
                params = json.dumps(item.notification.params or {}, ensure_ascii=False)
                _diag(f"notification {item.notification.method} {params[:300]}")
        elif isinstance(item, HttpExchange):
            if self.verbose:
                status = item.status if item.status is not None else "no response"
                note = f" ({item.note})" if item.note else ""
                _diag(f"http {item.method} {item.url} → {status}{note}")
        elif isinstance(item, TransportClosed):
            self.closed = item

    def connect_failure(self, message: str) -> str:
        parts = [message]
        if self.invalid:
            parts.append(
                f"the server wrote {len(self.invalid)} invalid line(s) to stdout, first: "
                f"{self.invalid[0]}"
            )
        if self.closed and self.closed.stderr_tail and self.closed.stderr_tail[-1] not in message:
            parts.append("last stderr: " + " | ".join(self.closed.stderr_tail[-3:]))
        return "; ".join(parts)


async def _run_method(session: Session, ns: argparse.Namespace) -> tuple[dict[str, Any], int]:
    method = ns.method
    if method in ("initialize", "server/discover"):
        ready = session.ready_info
        assert ready is not None
        result = ready.result or {}
        return result, EXIT_OK
    if method == "ping":
        return await session.ping(), EXIT_OK
    if method == "tools/list":
        tools = await session.list_tools()
        for name, why in session.excluded_tools.items():
            _diag(f"warning: tool {name!r} excluded from the list: {why}")
        return {"tools": tools}, EXIT_OK
    if method == "resources/list":
        return {"resources": await session.list_resources()}, EXIT_OK
    if method == "resources/templates/list":
        return {"resourceTemplates": await session.list_resource_templates()}, EXIT_OK
    if method == "prompts/list":
        return {"prompts": await session.list_prompts()}, EXIT_OK
    if method == "tools/call":
        result = await session.request(
            "tools/call",
            {"name": ns.tool_name, "arguments": _tool_arguments(ns)},
            on_progress=lambda _p: None,
            override=ns.override,
        )
        return result, EXIT_TOOL_ERROR if result.get("isError") is True else EXIT_OK
    if method == "resources/read":
        return await session.request(
            "resources/read", {"uri": ns.uri}, override=ns.override
        ), EXIT_OK
    if method == "prompts/get":
        params: dict[str, Any] = {"name": ns.prompt_name}
        prompt_args = _pairs(ns.prompt_args, "--prompt-args")
        if prompt_args:
            params["arguments"] = prompt_args
        return await session.request("prompts/get", params, override=ns.override), EXIT_OK
    if method == "completion/complete":
        ref = (
            {"type": "ref/prompt", "name": ns.prompt_name}
            if ns.prompt_name
            else {"type": "ref/resource", "uri": ns.uri_template}
        )
        params = {"ref": ref, "argument": {"name": ns.argument_name, "value": ns.argument_value}}
        context = _pairs(ns.context_arg, "--context-arg")
        if context:
            params["context"] = {"arguments": context}
        return await session.request("completion/complete", params, override=ns.override), EXIT_OK
    if method == "logging/setLevel":
        if session.era is Era.MODERN:
            _diag("note: the modern era has no logging/setLevel; the level rides in each request")
        return await session.set_log_level(ns.log_level), EXIT_OK
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
    diagnostics = _Diagnostics(ns.verbose)
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
            await session.set_log_level(ns.log_level)
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


def _usage_exit(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    parser.print_usage(sys.stderr)
    _diag(f"mcp-inspector-qt: error: {message}")
    raise SystemExit(EXIT_USAGE)


def main(argv: Sequence[str] | None = None) -> int:
    argv, replay_command = split_server_command(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    ns = parser.parse_args(argv)  # argparse exits 2 on usage errors, as documented
    if replay_command is not None:
        ns.server_command = replay_command
    logging.basicConfig(
        level=logging.INFO if getattr(ns, "verbose", False) else logging.WARNING,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)  # -v shows exchanges our own way
    if ns.command == "logout":
        return run_logout(ns)
    if ns.command == "replay":
        return run_replay(ns)
    if ns.command == "export-har":
        return run_export_har(ns)
    if ns.command == "demo-server":
        from inspector.demo.server import main as demo_main

        demo_main([])
        return EXIT_OK
    if ns.command in (None, "gui"):
        from inspector.ui.window.gui_command import GuiOptions, run_gui

        return run_gui(
            GuiOptions(
                profile=getattr(ns, "profile", None),
                stdio=getattr(ns, "stdio", None),
                url=getattr(ns, "url", None),
                screenshot=getattr(ns, "screenshot", None),
                theme=getattr(ns, "theme", None),
                timeout=getattr(ns, "timeout", 30.0),
                open_item=getattr(ns, "open", None),
                call_args=getattr(ns, "call_args", None),
            )
        )
    try:
        return asyncio.run(run_cli(ns))
    except UsageError as exc:
        _usage_exit(parser, str(exc))
    except KeyboardInterrupt:
        _diag("interrupted")
        return 130


if __name__ == "__main__":
    sys.exit(main())
