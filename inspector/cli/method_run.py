"""`mcp-inspector-qt cli ...`: one MCP method, headless, over the same connection object as
the app (`ServerConnection`). The JSON result goes to stdout; diagnostics to stderr
(inspector/cli/diagnostics.py).

Exit codes: 0 ok, 1 tool result with isError, 2 usage, 3 connection or transport
failure, 4 JSON-RPC error response, 5 timeout, 6 a tool result that breaks the tool's
outputSchema (checked as the SDK clients do).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from typing import TYPE_CHECKING, Any, TextIO

from inspector.cli.arg_words import key_values
from inspector.cli.diagnostics import SessionDiagnostics
from inspector.cli.early_server import adopt_early
from inspector.cli.errors import diag
from inspector.cli.method_usage import not_in_modern
from inspector.cli.parser import (
    EXIT_CONNECTION,
    EXIT_OK,
    EXIT_OUTPUT_SCHEMA,
    EXIT_RPC_ERROR,
    EXIT_TIMEOUT,
    EXIT_TOOL_ERROR,
    EXIT_USAGE,
    UsageError,
)
from inspector.cli.profile_args import cli_timeouts, profile_from_args
from inspector.cli.sampling_args import ModelExchanges, sampling_responder
from inspector.common.terminal_text import terminal_json
from inspector.core.server_connection import (
    SAFE_TO_REPLAY,
    ConnectError,
    ConnectTimeout,
    InputRejected,
    PolicyResponder,
    RequestError,
    RequestNotAllowed,
    RequestTimeout,
    Responder,
    ServerConnection,
    ServerError,
    connection_for,
    load_answers,
)
from inspector.features.output_schema import output_schema_violation
from inspector.protocol.wire.errors import PaginationError
from inspector.protocol.wire.jsonrpc import error_name
from inspector.protocol.wire.versions import Era
from inspector.recording.writer import RecordingResponder, SessionRecorder
from inspector.settings.connect import SetupError, client_config_for, roots_for, transport_for
from inspector.settings.profiles import Profile

if TYPE_CHECKING:
    from inspector.auth import OAuth
    from inspector.cli.live_lint import RunLint
    from inspector.transports.stdio import StdioTransport

__all__ = ["run_cli"]

log = logging.getLogger(__name__)


def _emit(stream: TextIO, text: str) -> None:
    stream.write(text + "\n")
    stream.flush()


_diag = diag


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
    for key, value in key_values(ns.tool_arg, "--tool-arg").items():
        arguments[key] = _json_value(value)
    return arguments


async def _run_method(
    session: ServerConnection, ns: argparse.Namespace
) -> tuple[dict[str, Any], int]:
    method = ns.method
    if session.era is Era.MODERN and (why := not_in_modern(method)):
        raise UsageError(why)  # --era auto, and the server turned out modern
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
        arguments = _tool_arguments(ns)
        tool = await _tool_definition(session, ns.tool_name)
        result = await session.call_tool(
            ns.tool_name, arguments, on_progress=lambda _p: None, override=ns.override
        )
        if result.get("isError") is True:
            return result, EXIT_TOOL_ERROR
        return result, _check_output_schema(tool, ns.tool_name, result)
    if method == "resources/read":
        return await session.read_resource(ns.uri, override=ns.override), EXIT_OK
    if method == "prompts/get":
        prompt_args = key_values(ns.prompt_args, "--prompt-args")
        return await session.get_prompt(
            ns.prompt_name, prompt_args or None, override=ns.override
        ), EXIT_OK
    if method == "completion/complete":
        ref = (
            {"type": "ref/prompt", "name": ns.prompt_name}
            if ns.prompt_name
            else {"type": "ref/resource", "uri": ns.uri_template}
        )
        context = key_values(ns.context_arg, "--context-arg")
        return await session.complete(
            ref, ns.argument_name, ns.argument_value, context or None, override=ns.override
        ), EXIT_OK
    if method == "logging/setLevel":
        return await session.set_log_level(ns.log_level), EXIT_OK
    raise UsageError(f"unknown method {method}")  # pragma: no cover - argparse checks choices


async def _tool_definition(session: ServerConnection, name: str) -> dict[str, Any] | None:
    """The tool's definition, to check its result as the SDK clients do: listed (every
    page) before the call, so that the live lint (-v, --record) sees the listing too. A
    listing that fails is said, and the call goes on unchecked."""
    try:
        return await session.tool_definition(name)
    except (RequestError, RequestNotAllowed, PaginationError) as exc:
        _diag(f"note: structuredContent not checked: tools/list failed: {exc}")
        return None


def _check_output_schema(tool: dict[str, Any] | None, name: str, result: dict[str, Any]) -> int:
    """A result whose structuredContent breaks the tool's outputSchema is said on stderr,
    and exits 6."""
    violation = output_schema_violation(tool, result)
    if violation is None:
        return EXIT_OK
    _diag(f"error: tools/call {name!r}: {violation}")
    return EXIT_OUTPUT_SCHEMA


# What may be sent again after the server lost the session: nothing here changes anything
# (the session's own list, and the handshakes `cli --method` may name).
_SAFE_TO_REPLAY = SAFE_TO_REPLAY | {"initialize", "server/discover"}


async def _run_with_one_reinitialize(
    session: ServerConnection, ns: argparse.Namespace, timeout: float
) -> tuple[dict[str, Any], int]:
    """spec (streamable HTTP, session management): on HTTP 404 for its session id, the
    client MUST start a new session with a new initialize. Once, and the request again only
    when it is safe to (a list or a read; never a tool call, which may have run)."""
    try:
        return await _run_method(session, ns)
    except RequestError:
        if session.session_expired is None:
            raise
    _diag(
        "note: the server no longer knows the session (HTTP 404): re-initializing once, "
        "as the spec requires"
    )
    if ns.method not in _SAFE_TO_REPLAY:
        raise SessionLost(
            f"the session expired before {ns.method} was answered; a new session was not "
            f"started and {ns.method} was not sent again (it may have run): run the command "
            "again"
        )
    try:
        await session.reinitialize(timeout)
    except ConnectError as exc:
        raise SessionLost(f"re-initializing after HTTP 404 failed: {exc}") from exc
    _diag(f"note: a new session started; sending {ns.method} again")
    try:
        return await _run_method(session, ns)
    except RequestError as exc:
        if session.session_expired is None:
            raise
        raise SessionLost(
            f"the server answered HTTP 404 again for the new session ({exc}); giving up "
            "(re-initializing only once)"
        ) from exc


def _run_lint(
    session: ServerConnection, ns: argparse.Namespace, recorder: SessionRecorder | None
) -> RunLint | None:
    """Live lint, where its findings go somewhere: printed with -v, kept with --record.
    Otherwise nobody would see them, and the linter (jsonschema and the official schemas,
    about a quarter of a stdio run's start-up) is not even loaded."""
    if not ns.verbose and recorder is None:
        return None
    from inspector.cli.live_lint import RunLint

    return RunLint(session, verbose=ns.verbose, recorder=recorder)


class SessionLost(Exception):
    """The server lost the session and it could not be (or was not) started again."""


def _print_result(result: dict[str, Any], compact: bool) -> None:
    text = (
        json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        if compact
        else json.dumps(result, ensure_ascii=False, indent=2)
    )
    _emit(sys.stdout, terminal_json(text))  # the same JSON, what a terminal acts on escaped


def _oauth(profile: Profile, ns: argparse.Namespace) -> OAuth | None:
    """With --auth oauth, the terminal's OAuth; when the first request will wait for a
    person to log in in a browser, the run's timeouts grow to let it."""
    if profile.transport != "http":
        return None  # a stdio server: no auth machinery to load
    from inspector.cli.auth_args import browser_login_wait, terminal_oauth
    from inspector.settings.profile_auth import uses_oauth

    if not uses_oauth(profile):
        return None
    oauth = terminal_oauth(profile, login=ns.login, verbose=ns.verbose)
    wait = browser_login_wait(profile, oauth, login=ns.login)
    if wait > ns.timeout:
        profile.timeouts = cli_timeouts(wait)
    return oauth


async def run_cli(ns: argparse.Namespace, early: StdioTransport | None = None) -> int:
    """Run the method `ns` names (its usage checked already: `method_usage.check_usage`).
    `early`: the server, started before this module was loaded (`cli.early_server`); it is
    used if it is the one the profile describes, and closed otherwise."""
    profile = profile_from_args(ns)
    oauth = _oauth(profile, ns)
    timeout = profile.timeouts.request
    assert timeout is not None  # cli_timeouts always sets it
    answers: dict[str, Any] = {}
    if ns.answers:
        try:
            answers = load_answers(ns.answers)
        except (OSError, ValueError) as exc:
            raise UsageError(f"--answers {ns.answers}: {exc}") from exc
    try:
        transport = transport_for(
            profile,
            oauth=oauth,
            max_message_mb=ns.max_message_mb,
            shutdown_grace=ns.shutdown_grace,
        )
    except SetupError as exc:  # an empty command, which no transport can start
        _diag(f"error: could not connect: {exc}")
        return EXIT_CONNECTION
    transport = await adopt_early(early, transport)
    config = client_config_for(profile)
    # Per run, not per server: so not in the profile.
    if ns.protocol_version:
        config.legacy_version = ns.protocol_version
    if ns.method == "logging/setLevel" or ns.log_level:
        config.log_level = ns.log_level
    policy = PolicyResponder(answers, roots_for(profile))
    exchanges = ModelExchanges(ns.verbose)
    model = sampling_responder(ns, policy, request_timeout=timeout, on_exchange=exchanges)
    responder: Responder = model or policy
    session = connection_for(profile, responder=responder, transport=transport, config=config)
    exchanges.session = session
    if (ns.rotate_size or ns.rotate_every) and not ns.record:
        raise UsageError("--rotate-size and --rotate-every need --record FILE")
    recorder = _start_recorder(ns, session, profile) if ns.record else None
    if recorder is not None:
        how = "through the model (--sampling-*)" if model is not None else "by policy"
        session.responder = RecordingResponder(responder, recorder, how)
    diagnostics = SessionDiagnostics(ns.verbose, transport.kind)
    session.add_listener(diagnostics)
    lint = _run_lint(session, ns, recorder)
    try:
        try:
            await session.connect(timeout=timeout)
            if lint is not None:
                lint.ready(session.protocol_version)
            if recorder is not None and session.ready_info is not None:
                recorder.ready(session.ready_info)
        except ConnectTimeout as exc:
            _diag(f"error: timed out while connecting: {diagnostics.connect_failure(str(exc))}")
            return EXIT_TIMEOUT
        except ConnectError as exc:
            # Let the reader drain what the dying server still wrote (stderr, garbage).
            await asyncio.sleep(0.1)
            _diag(f"error: could not connect: {diagnostics.connect_failure(str(exc))}")
            return EXIT_CONNECTION
        if session.era is Era.LEGACY and ns.log_level and ns.method != "logging/setLevel":
            await session.set_log_level(ns.log_level)
        try:
            result, code = await _run_with_one_reinitialize(session, ns, timeout)
        except RequestNotAllowed as exc:
            _diag(f"error: {exc}")
            return EXIT_USAGE
        except ServerError as exc:
            error = exc.failure.error
            assert error is not None
            _diag(f"error: {ns.method}: {error_name(error.code)} ({error.code}): {error.message}")
            # As on the wire: a server that sent no "data" is not shown one (null).
            printed: dict[str, Any] = {"code": error.code, "message": error.message}
            if error.data is not None:
                printed["data"] = error.data
            _print_result({"error": printed}, ns.compact)
            return EXIT_RPC_ERROR
        except RequestTimeout as exc:
            # "No answer" is not the whole truth when the server wrote frames that were not
            # usable (over --max-message-mb, not JSON): say so, as a failed connect does.
            _diag(f"error: {diagnostics.connect_failure(str(exc))}")
            return EXIT_TIMEOUT
        except InputRejected as exc:
            _diag(f"error: {exc}")
            return EXIT_RPC_ERROR
        except (PaginationError, SessionLost) as exc:
            _diag(f"error: {exc}")
            return EXIT_CONNECTION
        except RequestError as exc:
            _diag(f"error: {diagnostics.connect_failure(str(exc))}")
            return EXIT_CONNECTION
        _print_result(result, ns.compact)
        return code
    finally:
        await session.close()
        if lint is not None:
            lint.finish()
        if recorder is not None:
            recorder.close()
            if recorder.error:
                _diag(f"error: {recorder.error}")
            else:
                _diag(f"recorded {recorder.lines_written} line(s) to {recorder.path}")


def _start_recorder(
    ns: argparse.Namespace, session: ServerConnection, profile: Profile
) -> SessionRecorder:
    # The rules the GUI's recordings follow (inspector/recording/redaction.py):
    # secret-looking header values ("Bearer TOKEN": the token too), env values, URL parts
    # and the --auth secrets never reach the file.
    from inspector.recording.live import start_recorder  # only with --record
    from inspector.recording.redaction import spec_for_profile
    from inspector.recording.writer import Rotation

    spec = spec_for_profile(profile, None)
    try:
        rotation = Rotation.parse(ns.rotate_size, ns.rotate_every)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    try:
        return start_recorder(ns.record, spec, session.session, rotation)
    except ValueError as exc:
        raise UsageError(f"--record {ns.record}: {exc}") from exc
    except OSError as exc:
        raise UsageError(f"--record {ns.record}: {exc.strerror or exc}") from exc
