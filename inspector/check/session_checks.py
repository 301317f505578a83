"""The checks of a session's conduct: the code of invalid params, no reply to a
notification, nothing asked before `notifications/initialized`, and the same definitions
on every start. The last two read the raw host session (`host_run`), a start of its own:
no extra server start."""

from __future__ import annotations

import contextlib
import json
from typing import Any, Final

from inspector.check.host_run import HostRun, StdoutLine, host_run
from inspector.check.probe import CheckContext
from inspector.check.spec import Check, Outcome, fail, ok, skip
from inspector.protocol.wire.versions import Era
from inspector.session import ServerError
from inspector.settings.connect import client_config_for
from inspector.traffic.log import TrafficEntry

__all__ = ["SESSION_CHECKS"]

_UNKNOWN_NOTIFICATION: Final = "notifications/inspector-check/unknown"
_SHOWN: Final = 3  # items quoted in the evidence
_BEFORE: Final = 20  # characters kept before the first that differs
_LIST_KEYS: Final = {
    "tools/list": ("tools", "name", "tool"),
    "prompts/list": ("prompts", "name", "prompt"),
    "resources/list": ("resources", "uri", "resource"),
}


def _quote(value: Any, limit: int = 120) -> str:
    """A value from the server as evidence: JSON, escaped, cut."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return StdoutLine.of_text(text).quoted(limit)


# -- errors.invalid-params ----------------------------------------------------------------
async def _invalid_params(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    if "tools" not in ctx.capabilities:
        return skip("the server does not declare tools")
    try:
        result = await session.request(
            "tools/call", {"arguments": {}}, timeout=ctx.options.timeout, override=True
        )
    except ServerError as exc:
        if exc.code == -32602:
            return ok("-32602 invalid params for a tools/call without its required name")
        if exc.code == -32020 and ctx.transport_kind == "http":
            return skip(
                "over HTTP in the modern era the Mcp-Name header is checked first: a call "
                "without a name has none to match (-32020 header mismatch), so its params "
                "are never judged"
            )
        return fail(
            f"a tools/call without its required name got {exc.code}, expected -32602 "
            f"(JSON-RPC Invalid params): {_quote(str(exc))}"
        )
    return fail(
        "a tools/call without its required name was answered with a result, expected "
        f"-32602 (JSON-RPC Invalid params): {_quote(result)}"
    )


# -- notifications.no-reply -----------------------------------------------------------------
_UNREADABLE: Final = (-32700, -32600)  # an answer to a frame the server could not read


def _unpaired_answer(entry: TrafficEntry) -> bool:
    """A server message shaped as an answer (a result or an error; with a null id it is
    not even valid JSON-RPC) that pairs with no request of ours."""
    if entry.direction != "in" or entry.kind in ("request", "notification") or entry.pair >= 0:
        return False
    try:
        value = json.loads(entry.text())
    except ValueError:
        return False
    if not isinstance(value, dict) or "method" in value:
        return False
    error = value.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    return ("result" in value or "error" in value) and code not in _UNREADABLE


async def _no_reply(ctx: CheckContext) -> Outcome:
    """The session's notifications (notifications/initialized, and one the server cannot
    know), then a request: no answer may come that pairs with no request."""
    session = await ctx.live()
    began = ctx.session_began
    note = {"jsonrpc": "2.0", "method": _UNKNOWN_NOTIFICATION, "params": {}}
    await session.send_raw(json.dumps(note, separators=(",", ":")))
    sync = "ping" if ctx.era is not Era.MODERN else "server/discover"
    with contextlib.suppress(ServerError):  # its answer, an error too, is the sync point
        await session.request(sync, None, timeout=ctx.options.timeout, override=True)
    sent = ["notifications/initialized"] if ctx.era is not Era.MODERN else []
    sent.append(_UNKNOWN_NOTIFICATION)
    replies = [e for e in ctx.traffic.entries[began:] if _unpaired_answer(e)]
    if not replies:
        return ok(f"no answer to the notifications ({', '.join(sent)}); {sync} answered")
    quoted = "\n".join(f"  {StdoutLine.of_text(e.text()).quoted()}" for e in replies[:_SHOWN])
    return fail(
        f"{len(replies)} answer(s) that pair with no request, after the notifications "
        f"{', '.join(sent)}: the server answered a notification:\n{quoted}"
    )


# -- lifecycle.initialized ------------------------------------------------------------------
def _method_list(messages: list[dict[str, Any]]) -> str:
    names = [_quote(str(m.get("method")), 60) for m in messages[:_SHOWN]]
    more = f" and {len(messages) - _SHOWN} more" if len(messages) > _SHOWN else ""
    return ", ".join(names) + more


async def _initialized_first(ctx: CheckContext) -> Outcome:
    """What the server sent between its initialize answer and the host's
    notifications/initialized (the host waited for it to fall silent first)."""
    run = await host_run(ctx)
    if run.start_error is not None:
        return fail(run.start_error)
    if "initialize" in run.unanswered:
        return skip("initialize got no answer in the host session")
    requests = [m for m in run.early if "id" in m and m.get("method") != "ping"]
    notes = [m for m in run.early if "id" not in m]
    told = (
        f"; {len(notes)} notification(s) came before it: {_method_list(notes)} (the spec "
        "limits requests before initialized, not notifications; a host may not be ready "
        "for them yet)"
        if notes
        else ""
    )
    if requests:
        return fail(
            f"{len(requests)} request(s) sent before notifications/initialized: "
            f"{_method_list(requests)}; the server SHOULD NOT send requests other than "
            f"pings and logging before it{told}"
        )
    return ok(f"no request before notifications/initialized{told}")


# -- lists.stable -----------------------------------------------------------------------------
def _items(answer: dict[str, Any], key: str, ident: str) -> dict[str, dict[str, Any]] | None:
    result = answer.get("result")
    items = result.get(key) if isinstance(result, dict) else None
    if not isinstance(items, list):
        return None
    return {str(i.get(ident)): i for i in items if isinstance(i, dict)}


def _first_difference(first: Any, second: Any, path: str) -> tuple[str, Any, Any]:
    """Where two definitions first part: the JSON path and the two values there."""
    if isinstance(first, dict) and isinstance(second, dict):
        for key in sorted(set(first) | set(second), key=str):
            if first.get(key) != second.get(key):
                return _first_difference(first.get(key), second.get(key), f"{path}/{key}")
    if isinstance(first, list) and isinstance(second, list) and len(first) == len(second):
        for index, (one, other) in enumerate(zip(first, second, strict=True)):
            if one != other:
                return _first_difference(one, other, f"{path}/{index}")
    return path, first, second


def _window(first: Any, second: Any) -> tuple[Any, Any]:
    """Two strings from a little before where they part (so a cut quote shows it)."""
    if not (isinstance(first, str) and isinstance(second, str)):
        return first, second
    at = next((i for i, (a, b) in enumerate(zip(first, second, strict=False)) if a != b), None)
    at = min(len(first), len(second)) if at is None else at
    start = max(0, at - _BEFORE)
    lead = "…" if start else ""
    return lead + first[start:], lead + second[start:]


def _differs(name: str, kind: str, first: dict[str, Any], second: dict[str, Any]) -> str:
    path, one, other = _first_difference(first, second, "")
    changed = [f for f in sorted(set(first) | set(second)) if first.get(f) != second.get(f)]
    more = f" (and {', '.join(changed[1:])})" if len(changed) > 1 else ""
    one, other = _window(one, other)
    return (
        f"{kind} {_quote(name, 60)}: {path.lstrip('/')}{more} differs:\n"
        f"    one start:   {_quote(one)}\n"
        f"    other start: {_quote(other)}"
    )


def _compare(
    kind: str, host: dict[str, dict[str, Any]], battery: dict[str, dict[str, Any]]
) -> list[str]:
    """What differs in the definitions both starts list."""
    return [
        _differs(name, kind, host[name], battery[name])
        for name in host
        if name in battery and host[name] != battery[name]
    ]


def _one_start_only(
    host: dict[str, dict[str, Any]], battery: dict[str, dict[str, Any]], paged: bool
) -> list[str]:
    out = []
    if gone := [n for n in host if n not in battery]:
        out.append(f"listed by one start only: {', '.join(_quote(n, 60) for n in gone)}")
    if not paged and (new := [n for n in battery if n not in host]):
        out.append(f"listed by the other start only: {', '.join(_quote(n, 60) for n in new)}")
    return out


async def _stable(ctx: CheckContext) -> Outcome:
    """The host session's list (a start of its own) against the battery session's."""
    run: HostRun = await host_run(ctx)
    if run.start_error is not None:
        return fail(run.start_error)
    if run.listed is None:
        return skip("the host session listed nothing (no tools, prompts or resources declared)")
    method, answer = run.listed
    key, ident, kind = _LIST_KEYS[method]
    host = _items(answer, key, ident)
    if host is None:
        return skip(f"{method} in the host session gave no {key} list")
    session = await ctx.live()
    battery = {str(i.get(ident)): i for i in await session.list_all(method, key)}
    result = answer.get("result")
    paged = isinstance(result, dict) and result.get("nextCursor") is not None
    problems = _compare(kind, host, battery)
    only = _one_start_only(host, battery, paged)
    declared = sorted(client_config_for(ctx.profile).capabilities)
    if only and declared:  # the host session declares none: a server may list by them
        note = (
            f"; {'; '.join(only)} (the sessions declared different client capabilities, "
            f"none and {', '.join(declared)}: a server may offer {key} by them)"
        )
    else:
        problems += only
        note = ""
    if problems:
        shown = "\n".join(problems[:_SHOWN])
        return fail(
            f"two starts of the server listed different {key} ({method}):\n{shown}\n"
            "A host pins the definitions it approved: a change between starts looks like a "
            "changed tool (a rug pull) and may ask the user again"
        )
    same = sum(1 for name in host if name in battery)
    return ok(f"{same} {key} defined the same by two starts of the server{note}")


SESSION_CHECKS: Final[tuple[Check, ...]] = (
    Check(
        "errors.invalid-params",
        "a tools/call without its required name gets -32602 (invalid params)",
        "basic § JSON-RPC errors: -32602 Invalid params; server/tools § Error handling",
        _invalid_params,
    ),
    Check(
        "notifications.no-reply",
        "notifications get no answer (an unknown one and notifications/initialized)",
        "basic § Notifications: the receiver MUST NOT send a response",
        _no_reply,
    ),
    Check(
        "lifecycle.initialized",
        "no request but ping before notifications/initialized",
        "basic/lifecycle § Initialization: the server SHOULD NOT send requests other than "
        "pings and logging before receiving the initialized notification",
        _initialized_first,
        transport="stdio",
        era="legacy",
    ),
    Check(
        "lists.stable",
        "two starts of the server list the same definitions",
        "no spec rule: a stability check (hosts pin the definitions they approved; a change "
        "between starts looks like a rug pull)",
        _stable,
        transport="stdio",
    ),
)
