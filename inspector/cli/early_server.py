"""A `cli` command's stdio server, started before the rest of the CLI is loaded.

A server such as server-everything (Node) takes about a quarter of a second to start, and
the CLI's own imports (pydantic for the profile, the session, the diagnostics) take about
as long. One after the other, they add up; started first, the server boots while the CLI
loads (`bench/cli_startup.py` measures the time to the result).

Only what a plain command line names is started early: a command after `--`, with `--env`,
`--full-env`, `--cwd`, `--max-message-mb` and `--shutdown-grace`. Anything else (`--url`,
options that do not fit a stdio server) waits for the normal path, which reports it.
`adopt_early` then keeps the early transport only if its parameters equal those the
profile gives (`settings.connect.transport_for`), so the two paths cannot drift apart: at
worst the early server is closed and the usual one started.
"""

from __future__ import annotations

import argparse
import logging

from inspector.cli.arg_words import key_values, server_command
from inspector.cli.errors import UsageError
from inspector.transports.base import Transport, TransportError
from inspector.transports.stdio import StdioParams, StdioTransport

__all__ = ["adopt_early", "early_params", "start_early"]

log = logging.getLogger(__name__)
_MIB = 1024 * 1024


def early_params(ns: argparse.Namespace) -> StdioParams | None:
    """The stdio server `ns` names, if it can be started before the profile is built."""
    if ns.url or ns.header or ns.auth != "none" or ns.transport not in ("auto", "stdio"):
        return None
    try:
        command = server_command(ns)
        env = key_values(ns.env, "--env")
    except UsageError:
        return None  # the normal path says what is wrong
    if not command or not command[0].strip():
        return None
    params = StdioParams(
        command[0],
        command[1:],
        env=env,
        cwd=ns.cwd or None,
        inherit_full_env=ns.full_env,
        max_line_bytes=ns.max_message_mb * _MIB,
    )
    params.close_grace = ns.shutdown_grace
    return params


async def start_early(ns: argparse.Namespace) -> StdioTransport | None:
    """Start the server `ns` names, or None (not a plain stdio command line, or it did not
    start: the normal path starts it again and reports the failure in its own words)."""
    params = early_params(ns)
    if params is None:
        return None
    transport = StdioTransport(params)
    try:
        await transport.start()
    except TransportError as exc:
        log.debug("early start failed (%s); the normal path reports it", exc)
        await transport.close()
        return None
    return transport


async def adopt_early(early: StdioTransport | None, transport: Transport) -> Transport:
    """`early` if it runs the server `transport` would start (then `transport`, never
    started, is dropped), else `transport`, with `early` closed."""
    if early is None:
        return transport
    if isinstance(transport, StdioTransport) and transport.params == early.params:
        return early
    log.info("the server started early is not the one the profile names; starting it again")
    await early.close()
    return transport
