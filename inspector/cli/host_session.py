"""What `chat` and `eval` share: the model the command line names, the server connected as
`test` connects it (`--profile`, `--url`, or the command after `--`), and its tools in a
`ToolTable` (Ctrl+C / SIGTERM: cli/interrupts)."""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass

from inspector.cli.diagnostics import SessionDiagnostics
from inspector.cli.errors import CommandFailed, UsageError, diag
from inspector.cli.profile_args import cli_timeouts, target_profile
from inspector.cli.sampling_args import ModelExchanges
from inspector.core.server_connection import (
    ConnectError,
    ConnectTimeout,
    RequestError,
    ServerConnection,
    close_within,
    open_connection,
)
from inspector.features.providers.names import KEY_ENV
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.host.approvers import FlagApprover
from inspector.host.model import ProviderModel
from inspector.host.records import Conversation
from inspector.host.tool_table import ToolTable
from inspector.transports.base import TransportError

__all__ = ["HostServer", "conversation_from_args", "host_server", "model_from_args"]

EXIT_CONNECTION = 3
EXIT_TIMEOUT = 5


def model_from_args(ns: argparse.Namespace) -> ProviderModel:
    """The model of `--provider --base-url --model --api-key-env --model-timeout`, and the
    checks of the other shared words. Raises `UsageError`."""
    if not ns.model:
        raise UsageError("--model M is required (the model to use)")
    base_url = ns.base_url or ""
    if base_url and not base_url.startswith(("http://", "https://")):
        raise UsageError(f"--base-url {base_url!r} is not an http(s) URL")
    if ns.max_steps < 1:
        raise UsageError("--max-steps must be at least 1")
    if ns.timeout <= 0 or ns.model_timeout <= 0:
        raise UsageError("--timeout and --model-timeout must be positive")
    if not ns.server_command and not ns.url and not ns.profile:
        raise UsageError("no server: give a command after --, --url URL or --profile NAME")
    if ns.api_key_env:
        key = os.environ.get(ns.api_key_env)
        if not key:
            raise UsageError(f"--api-key-env {ns.api_key_env}: that variable is not set")
    else:
        key = os.environ.get(KEY_ENV[ns.provider]) or None
    provider = ProviderConfig(
        kind=ns.provider,
        base_url=base_url.rstrip("/"),
        models=[ModelEntry(ns.model)],
        timeout=ns.model_timeout,
        id="cli",
    )
    return ProviderModel(provider, key, timeout=ns.model_timeout)


def conversation_from_args(ns: argparse.Namespace, model: ProviderModel, tab: str) -> Conversation:
    return Conversation(
        provider=model.provider.label,
        model=ns.model,
        system_prompt=ns.system,
        include_instructions=not ns.no_instructions,
        tabs=[tab],
        policy=ns.approve,
        max_steps=ns.max_steps,
    )


def approver_from_args(ns: argparse.Namespace) -> FlagApprover:
    return FlagApprover(
        allow_destructive=ns.allow_destructive,
        send_invalid=ns.send_invalid,
        on_refusal=lambda line: diag(f"note: {line}"),
    )


@dataclass(slots=True)
class HostServer:
    """The connected server, its name as a tab, its tools, and what it said on the way."""

    conn: ServerConnection
    tab: str
    table: ToolTable
    diagnostics: SessionDiagnostics


@contextlib.asynccontextmanager
async def host_server(ns: argparse.Namespace, model: ProviderModel) -> AsyncIterator[HostServer]:
    """Connect, list the tools, and close at the end. An unreachable server raises
    `CommandFailed` (exit 3, or 5 for a timeout); the model's exchanges go to the session's
    traffic (and stderr with -v)."""
    profile, secrets = target_profile(ns)
    profile.timeouts = cli_timeouts(ns.timeout)
    diagnostics = SessionDiagnostics(
        ns.verbose, "stdio" if profile.transport == "stdio" else "http"
    )
    exchanges = ModelExchanges(ns.verbose)
    model.on_exchange = exchanges

    def observe(conn: ServerConnection) -> None:
        conn.add_listener(diagnostics)

    try:
        conn = await open_connection(profile, secrets, timeout=ns.timeout, before_connect=observe)
    except TransportError as exc:
        raise CommandFailed(f"error: could not reach the server: {exc}", EXIT_CONNECTION) from None
    except ConnectTimeout as exc:
        why = diagnostics.connect_failure(str(exc))
        raise CommandFailed(f"error: could not reach the server: {why}", EXIT_TIMEOUT) from None
    except ConnectError as exc:
        why = diagnostics.connect_failure(str(exc))
        raise CommandFailed(f"error: could not reach the server: {why}", EXIT_CONNECTION) from None
    exchanges.session = conn
    try:
        try:
            tools = await conn.list_tools()
        except RequestError as exc:
            raise CommandFailed(f"error: tools/list failed: {exc}", EXIT_CONNECTION) from None
        name = conn.server_info.get("name")
        tab = profile.name or (name if isinstance(name, str) and name.strip() else "server")
        table = ToolTable.build([(tab, tools, conn)])
        for note in table.notes:
            diag(f"note: {note}")
        if not len(table):
            diag("note: the server offers no tools; the model can only answer")
        yield HostServer(conn, tab, table, diagnostics)
    finally:
        await close_within(conn)
