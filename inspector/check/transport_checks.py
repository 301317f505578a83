"""The checks of the transport: stdio (nothing but JSON-RPC on stdout, exit on stdin EOF)
and streamable HTTP (202 for notifications, Origin validation, the session id, GET and
DELETE, the modern Mcp-Method header). HTTP checks speak raw httpx so they can send what
a well-behaved client never would."""

from __future__ import annotations

import re
from typing import Final

import httpx

from inspector.check.host_run import AFTER, PHASES, StdoutLine, host_run
from inspector.check.messages import initialize_request
from inspector.check.probe import CheckContext
from inspector.check.spec import Check, Outcome, fail, ok, skip
from inspector.protocol.wire.jsonrpc import Notification, Request
from inspector.protocol.wire.versions import LATEST_LEGACY, LATEST_MODERN
from inspector.settings.connect import resolved_headers

__all__ = ["TRANSPORT_CHECKS"]

_VISIBLE_ASCII: Final = re.compile(r"[\x21-\x7e]+")
_ACCEPT: Final = "application/json, text/event-stream"
_EVIL_ORIGIN: Final = "http://dns-rebinding.attacker.invalid"


# -- stdio --------------------------------------------------------------------------
_SHOWN: Final = 3  # offending lines quoted in the evidence


async def _stdout_clean(ctx: CheckContext) -> Outcome:
    """Every stdout byte of a whole host session, from the process start to its exit (the
    raw host run), and of the battery's own session."""
    await ctx.live()
    run = await host_run(ctx)
    if run.start_error is not None:
        return fail(run.start_error)
    noise = run.noise()
    seen = [e.text() for e in ctx.traffic.entries if e.direction == "in" and e.kind == "invalid"]
    if not noise and not seen:
        return ok(
            f"stdout carried only JSON-RPC, from the process start to its exit "
            f"({run.messages()} message line(s) in a host session: {run.session()}, "
            f"stdin closed); {ctx.stderr_lines} stderr line(s) (logs)"
        )
    parts = []
    if noise:
        where = ", ".join(
            f"{n} {phase}" for phase in PHASES if (n := sum(1 for x in noise if x.phase == phase))
        )
        quoted = "\n".join(f"  {x.phase}: {x.quoted()}" for x in noise[:_SHOWN])
        late = all(x.phase == AFTER for x in noise)
        parts.append(
            f"{len(noise)} line(s) on stdout that are not JSON-RPC ({where}) in a host "
            f"session ({run.session()}, stdin closed)"
            + (" (a buffered print() writes its lines out at exit)" if late else "")
            + f":\n{quoted}"
        )
    if seen:
        quoted = "\n".join(f"  {StdoutLine.of_text(t).quoted()}" for t in seen[:_SHOWN])
        parts.append(
            f"{len(seen)} line(s) on stdout that are not JSON-RPC in the battery's own "
            f"session:\n{quoted}"
        )
    return fail("\n".join(parts))


async def _exits_on_eof(ctx: CheckContext) -> Outcome:
    """The way a host ends a session: after the handshake and a request, close stdin."""
    run = await host_run(ctx)
    if run.start_error is not None:
        return fail(run.start_error)
    after = f"after {run.session()}"
    if run.unanswered:
        after += f" (no answer to {', '.join(run.unanswered)})"
    if run.ended_before and run.exited_after is not None:
        return skip(
            f"the server ended its session itself (its stdout closed, exit code "
            f"{run.exit_code}) before its stdin closed, {after}: how it ends on stdin EOF "
            "is not known"
        )
    if run.exited_after is not None:
        return ok(
            f"exited (code {run.exit_code}) {run.exited_after:.2f} s after its stdin closed, "
            f"{after}"
        )
    ended = (
        "SIGTERM ended it"
        if run.ended_by == "SIGTERM"
        else "only SIGKILL ended it (it ignores SIGTERM)"
    )
    return fail(
        f"still running {run.grace:g} s after its stdin closed, {after}. The spec's stdio "
        "shutdown (lifecycle § Shutdown): the client SHOULD close stdin and wait for the "
        "server to exit, and send SIGTERM only if it does not exit within a reasonable time, "
        f"then SIGKILL; so every host has to signal this server: {ended}"
    )


# -- HTTP -----------------------------------------------------------------------------
def _client(ctx: CheckContext) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        timeout=ctx.options.timeout, headers=resolved_headers(ctx.profile, None)
    )


async def _legacy_session(
    ctx: CheckContext, client: httpx.AsyncClient
) -> tuple[httpx.Response, str | None]:
    """POST an initialize: the answer, and the Mcp-Session-Id it gave (None: none)."""
    response = await client.post(
        ctx.profile.http.url,
        json=initialize_request(LATEST_LEGACY),
        headers={"Accept": _ACCEPT, "Content-Type": "application/json"},
    )
    value = response.headers.get("mcp-session-id")
    return response, str(value) if value is not None else None


async def _notification_202(ctx: CheckContext) -> Outcome:
    async with _client(ctx) as client:
        init, sid = await _legacy_session(ctx, client)
        if init.status_code >= 400:
            return fail(f"initialize over HTTP got {init.status_code}")
        headers = {"Accept": _ACCEPT, "MCP-Protocol-Version": LATEST_LEGACY}
        if sid:
            headers["Mcp-Session-Id"] = sid
        note = await client.post(
            ctx.profile.http.url,
            json=Notification("notifications/initialized").to_dict(),
            headers=headers,
        )
    if note.status_code != 202:
        return fail(f"a notification got HTTP {note.status_code}, expected 202 Accepted")
    return ok("202 Accepted")


async def _bad_origin(ctx: CheckContext) -> Outcome:
    async with _client(ctx) as client:
        answer = await client.post(
            ctx.profile.http.url,
            json=initialize_request(LATEST_LEGACY),
            headers={"Accept": _ACCEPT, "Origin": _EVIL_ORIGIN},
        )
    if answer.status_code == 403:
        return ok("403 Forbidden for a foreign Origin")
    if 400 <= answer.status_code < 500:
        return ok(f"refused with {answer.status_code}")
    return fail(
        f"a request from Origin {_EVIL_ORIGIN} got HTTP {answer.status_code}: the "
        "server does not validate Origin (DNS rebinding)"
    )


async def _session_id_ascii(ctx: CheckContext) -> Outcome:
    async with _client(ctx) as client:
        _, sid = await _legacy_session(ctx, client)
    if sid is None:
        return skip("the server issues no Mcp-Session-Id (stateless)")
    if not _VISIBLE_ASCII.fullmatch(sid):
        return fail(f"Mcp-Session-Id {sid!r} has characters outside 0x21-0x7E")
    return ok(f"Mcp-Session-Id is visible ASCII ({len(sid)} characters)")


async def _get_stream(ctx: CheckContext) -> Outcome:
    async with _client(ctx) as client:
        _, sid = await _legacy_session(ctx, client)
        headers = {"Accept": "text/event-stream", "MCP-Protocol-Version": LATEST_LEGACY}
        if sid:
            headers["Mcp-Session-Id"] = sid
        async with client.stream("GET", ctx.profile.http.url, headers=headers) as answer:
            status, kind = answer.status_code, answer.headers.get("content-type", "")
    if status == 405:
        return ok("405: the server offers no GET stream")
    if status == 200 and kind.startswith("text/event-stream"):
        return ok("200 text/event-stream")
    return fail(
        f"GET gave HTTP {status} ({kind or 'no content type'}); expected an event stream or 405"
    )


async def _delete(ctx: CheckContext) -> Outcome:
    async with _client(ctx) as client:
        _, sid = await _legacy_session(ctx, client)
        if sid is None:
            return skip("the server issues no Mcp-Session-Id: nothing to end")
        answer = await client.delete(
            ctx.profile.http.url,
            headers={"Mcp-Session-Id": sid, "MCP-Protocol-Version": LATEST_LEGACY},
        )
    if answer.status_code == 405 or 200 <= answer.status_code < 300:
        return ok(f"DELETE → {answer.status_code}")
    return fail(f"DELETE of the session gave HTTP {answer.status_code}; expected 2xx or 405")


async def _method_header(ctx: CheckContext) -> Outcome:
    body = Request(1, "tools/list", {"_meta": ctx.modern_meta(LATEST_MODERN)}).to_dict()
    async with _client(ctx) as client:
        answer = await client.post(
            ctx.profile.http.url,
            json=body,
            headers={
                "Accept": _ACCEPT,
                "MCP-Protocol-Version": LATEST_MODERN,
                "Mcp-Method": "prompts/list",
            },
        )
    code = None
    try:
        data = answer.json()
        code = (data.get("error") or {}).get("code") if isinstance(data, dict) else None
    except ValueError:
        pass
    if answer.status_code == 400 and code == -32020:
        return ok("400 with -32020 (header mismatch)")
    if answer.status_code == 400:
        return ok(f"400 (error code {code})")
    return fail(
        f"Mcp-Method: prompts/list on a tools/list body gave HTTP {answer.status_code}"
        f" (error {code}); expected 400 with -32020"
    )


TRANSPORT_CHECKS: Final[tuple[Check, ...]] = (
    Check(
        "stdio.stdout",
        "stdout carries nothing but JSON-RPC (logs go to stderr)",
        "basic/transports § stdio: the server MUST NOT write anything else to stdout",
        _stdout_clean,
        transport="stdio",
    ),
    Check(
        "stdio.eof",
        "the server exits when its stdin closes, within the ladder's first wait",
        "basic/lifecycle § Shutdown (stdio): close stdin, wait for the exit, then SIGTERM, "
        "then SIGKILL",
        _exits_on_eof,
        transport="stdio",
    ),
    Check(
        "http.notification",
        "a notification POST gets 202 Accepted",
        "basic/transports § Sending messages to the server",
        _notification_202,
        transport="http",
        era="legacy",
    ),
    Check(
        "http.origin",
        "a foreign Origin is refused (DNS rebinding protection)",
        "basic/transports § Security warning: servers MUST validate Origin",
        _bad_origin,
        transport="http",
    ),
    Check(
        "http.session-id",
        "Mcp-Session-Id is visible ASCII",
        "basic/transports § Session management",
        _session_id_ascii,
        transport="http",
        era="legacy",
    ),
    Check(
        "http.get",
        "GET gives an event stream or 405",
        "basic/transports § Listening for messages from the server",
        _get_stream,
        transport="http",
        era="legacy",
    ),
    Check(
        "http.delete",
        "DELETE of the session is honoured or 405",
        "basic/transports § Session management",
        _delete,
        transport="http",
        era="legacy",
    ),
    Check(
        "http.mcp-method",
        "an Mcp-Method header that contradicts the body is refused",
        "2026-07-28 basic/transports § Mcp-Method: HeaderMismatchError (-32020), 400",
        _method_header,
        transport="http",
        era="modern",
    ),
)
