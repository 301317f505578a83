"""The checks over MCP itself, on any transport: handshake, lists, errors, resources,
prompts, read-only tools. Each is bounded (the battery gives it a time limit; lists and
calls stop at `max_items`) and says what it saw."""

from __future__ import annotations

from typing import Any, Final

from inspector.check.known_values import known_values
from inspector.check.messages import initialize_request
from inspector.check.probe import CheckContext
from inspector.check.spec import Check, Outcome, fail, ok, skip
from inspector.common.terminal_text import terminal_value
from inspector.features.forms.validation import validate_values
from inspector.features.uri_template import UriTemplate
from inspector.protocol.wire.errors import PaginationError
from inspector.protocol.wire.jsonrpc import Request
from inspector.protocol.wire.versions import ALL_VERSIONS, Era
from inspector.session import ServerError

__all__ = ["LINT_CHECK", "PROTOCOL_CHECKS"]

_BOGUS_VERSION: Final = "1999-01-01"
_UNKNOWN_METHOD: Final = "inspector-check/no-such-method"
_UNKNOWN_TOOL: Final = "inspector_check_no_such_tool_7f3a"
_MISSING_URI: Final = "inspector-check://missing/7f3a"


def _short(value: Any, limit: int = 300) -> str:
    return terminal_value(value, limit)


def _lint_since(ctx: CheckContext, start: int) -> list[str]:
    ctx.linter.flush()
    return [f"row {f.index}: {f.line()}" for f in ctx.lint.findings if f.index >= start]


async def _version_negotiation(ctx: CheckContext) -> Outcome:
    await ctx.live()
    if ctx.era is Era.MODERN:
        params = {"_meta": ctx.modern_meta(_BOGUS_VERSION)}
        message = Request(1, "server/discover", params).to_dict()
        answer = await ctx.raw(message, era=Era.MODERN, version=_BOGUS_VERSION)
        error = (answer.message or {}).get("error")
        if not isinstance(error, dict):
            return fail(
                f"offered {_BOGUS_VERSION}; expected error -32022, got: {answer.describe()}"
            )
        data = error.get("data") if isinstance(error.get("data"), dict) else {}
        supported = data.get("supported") if isinstance(data, dict) else None
        if error.get("code") != -32022 or not isinstance(supported, list) or not supported:
            return fail(
                f"offered {_BOGUS_VERSION}; expected -32022 with data.supported, got: "
                f"{_short(error)}"
            )
        return ok(f"-32022, supported: {', '.join(map(str, supported))}")
    answer = await ctx.raw(
        initialize_request(_BOGUS_VERSION), era=Era.LEGACY, version=_BOGUS_VERSION
    )
    msg = answer.message
    if msg is None:
        return fail(f"offered {_BOGUS_VERSION} in initialize: {answer.describe()}")
    if "error" in msg:
        return ok(f"refused with an error: {_short(msg['error'])}")
    result = msg.get("result") if isinstance(msg.get("result"), dict) else {}
    version = result.get("protocolVersion") if isinstance(result, dict) else None
    if version in ALL_VERSIONS:
        return ok(f"answered with a supported version: {version}")
    return fail(
        f"offered {_BOGUS_VERSION}; the server answered protocolVersion {version!r}, "
        "which is not a version it could support"
    )


async def _discover(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    start = len(ctx.traffic)
    try:
        result = await session.request("server/discover", {}, timeout=ctx.options.timeout)
    except ServerError as exc:
        return fail(str(exc))
    found = _lint_since(ctx, start)
    if found:
        return fail("\n".join(found))
    return ok(f"versions: {_short(result.get('supportedVersions'))}")


async def _meta_handling(ctx: CheckContext) -> Outcome:
    """Unknown `_meta` keys are to be ignored (2026-07-28 basic: _meta is extensible)."""
    session = await ctx.live()
    try:
        await session.request(
            "server/discover",
            {"_meta": {"com.example.inspector-check/unknown": {"x": 1}}},
            timeout=ctx.options.timeout,
        )
    except ServerError as exc:
        if exc.code == -32601:
            return skip("the server has no server/discover to ask (see handshake.discover)")
        return fail(f"a request with an unknown _meta key was refused: {exc}")
    return ok("a request with an extra, unknown _meta key was answered")


async def _capabilities(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    caps = ctx.capabilities
    problems = []
    for cap, method in (
        ("tools", "tools/list"),
        ("resources", "resources/list"),
        ("prompts", "prompts/list"),
    ):
        if cap not in caps:
            continue
        try:
            await session.request(method, {}, timeout=ctx.options.timeout)
        except ServerError as exc:
            problems.append(f"{cap} declared, but {exc}")
    ctx.linter.flush()
    problems += [f.line() for f in ctx.lint.findings if f.rule == "undeclared-capability"]
    if problems:
        return fail("\n".join(problems))
    return ok(f"declared: {', '.join(sorted(caps)) or 'none'}")


def _list_check(cap: str, method: str, key: str) -> Check:
    async def run(ctx: CheckContext) -> Outcome:
        session = await ctx.live()
        if cap not in ctx.capabilities:
            return skip(f"the server does not declare {cap}")
        start = len(ctx.traffic)
        try:
            items = await session.list_all(method, key)
        except PaginationError as exc:
            return fail(f"{method}: {exc}")
        except ServerError as exc:
            return fail(str(exc))
        found = _lint_since(ctx, start)
        if found:
            return fail("\n".join(found))
        return ok(f"{len(items)} item(s), every page linted clean")

    return Check(
        f"lists.{key}",
        f"{method}: every page, each definition linted",
        "server/* list results; utilities/pagination",
        run,
    )


async def _unknown_method(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    try:
        result = await session.request(
            _UNKNOWN_METHOD, {}, timeout=ctx.options.timeout, override=True
        )
    except ServerError as exc:
        if exc.code == -32601:
            return ok("-32601 method not found")
        return fail(f"expected -32601, got {exc.code}: {exc}")
    return fail(f"expected -32601; the server answered a result: {_short(result)}")


async def _unknown_tool(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    if "tools" not in ctx.capabilities:
        return skip("the server does not declare tools")
    try:
        call = session.start_tool_call(_UNKNOWN_TOOL, timeout=ctx.options.timeout)
        result = await call.result()
    except ServerError as exc:
        if exc.code == -32602:
            return ok("-32602 invalid params")
        return fail(f"expected -32602 (or a result with isError), got {exc.code}: {exc}")
    if result.get("isError") is True:
        return ok("a tool result with isError: true")
    return fail(f"an unknown tool was 'called' successfully: {_short(result)}")


async def _ping(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    try:
        result = await session.request("ping", None, timeout=ctx.options.timeout, override=True)
    except ServerError as exc:
        return fail(str(exc))
    if result != {}:
        return fail(f"ping must answer an empty result, got {_short(result)}")
    return ok("{}")


async def _read_resources(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    if "resources" not in ctx.capabilities:
        return skip("the server does not declare resources")
    listed = await session.list_resources()
    if not listed:
        return skip("the server lists no resources")
    start = len(ctx.traffic)
    problems = []
    for res in listed[: ctx.options.max_items]:
        uri = res.get("uri")
        try:
            result = await session.read_resource(str(uri))
        except ServerError as exc:
            problems.append(f"{uri}: {exc}")
            continue
        if not isinstance(result.get("contents"), list):
            problems.append(f"{uri}: no contents list")
    problems += _lint_since(ctx, start)
    if problems:
        return fail("\n".join(problems))
    shown = min(len(listed), ctx.options.max_items)
    return ok(f"{shown} of {len(listed)} resource(s) read")


async def _templates(ctx: CheckContext) -> Outcome:
    """Each template expanded with values known valid and read: an error then means a
    broken template. Where no valid value can be known, a made-up one is tried: a refusal
    of it says nothing about the template (left out, with the reason)."""
    session = await ctx.live()
    if "resources" not in ctx.capabilities:
        return skip("the server does not declare resources")
    templates = await session.list_resource_templates()
    if not templates:
        return skip("the server lists no resource templates")
    start = len(ctx.traffic)
    broken: list[str] = []
    left_out: list[str] = []
    read = 0
    for tpl in templates[: ctx.options.max_items]:
        text = str(tpl.get("uriTemplate", ""))
        parsed = UriTemplate(text)
        if not parsed.valid:
            broken.append(f"template {text} is broken: {'; '.join(parsed.problems)}")
            continue
        ref = {"type": "ref/resource", "uri": text}
        known = await known_values(ctx, ref, list(parsed.names), "template variables")
        uri = parsed.expand(known.filled()).uri
        try:
            result = await session.read_resource(uri)
        except ServerError as exc:
            if known.complete:
                broken.append(f"template {text} is broken: {uri} {known.source()}: {exc}")
            else:
                left_out.append(f"{text}: {known.refused(exc, 'template')}")
            continue
        if not isinstance(result.get("contents"), list):
            broken.append(f"template {text} is broken: {uri} read without a contents list")
            continue
        read += 1
    return _judged(
        broken + _lint_since(ctx, start), left_out, read, "template(s) expanded and read"
    )


def _judged(broken: list[str], left_out: list[str], done: int, what: str) -> Outcome:
    """Failed when anything is broken; skipped when nothing could be judged (each item left
    out, with the reason); else passed, naming what was left out."""
    if broken:
        return fail("\n".join(broken + left_out))
    if not done:
        return skip("\n".join(left_out))
    return ok("; ".join([f"{done} {what}", *left_out]))


async def _missing_resource(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    if "resources" not in ctx.capabilities:
        return skip("the server does not declare resources")
    try:
        result = await session.read_resource(_MISSING_URI)
    except ServerError as exc:
        if exc.code == -32002:
            return ok("-32002 resource not found")
        if exc.code == -32602:  # what the SDKs and the newer drafts answer
            return ok("-32602 invalid params (unknown resource)")
        return fail(f"expected -32002 (or -32602) for a missing URI, got {exc.code}: {exc}")
    return fail(f"a missing URI was read successfully: {_short(result)}")


async def _prompts(ctx: CheckContext) -> Outcome:
    """Each prompt got with its required arguments, values known valid: an error then
    means a broken prompt. Where no valid value can be known, a made-up one is tried: a
    refusal of it says nothing about the prompt (left out, with the reason)."""
    session = await ctx.live()
    if "prompts" not in ctx.capabilities:
        return skip("the server does not declare prompts")
    prompts = await session.list_prompts()
    if not prompts:
        return skip("the server lists no prompts")
    start = len(ctx.traffic)
    broken: list[str] = []
    left_out: list[str] = []
    got = 0
    for prompt in prompts[: ctx.options.max_items]:
        name = str(prompt.get("name"))
        required = [
            str(arg.get("name"))
            for arg in prompt.get("arguments") or []
            if isinstance(arg, dict) and arg.get("required")
        ]
        ref = {"type": "ref/prompt", "name": name}
        known = await known_values(ctx, ref, required, "prompt arguments")
        try:
            await session.get_prompt(name, known.filled() or None)
        except ServerError as exc:
            if known.complete:
                broken.append(f"prompt {name} is broken: {known.source()}, {exc}")
            else:
                left_out.append(f"{name}: {known.refused(exc, 'prompt')}")
            continue
        got += 1
    return _judged(broken + _lint_since(ctx, start), left_out, got, "prompt(s) got")


def _takes_nothing(tool: dict[str, Any]) -> bool:
    """Does the tool's inputSchema accept {} (the only arguments the check sends)?"""
    report = validate_values(tool.get("inputSchema") or {"type": "object"}, {})
    return report.schema_problem is None and not report.errors


async def _read_only_tools(ctx: CheckContext) -> Outcome:
    if not ctx.options.call_read_only:
        return skip(
            "tools are called only with --call-read-only (never a tool that may change something)"
        )
    session = await ctx.live()
    if "tools" not in ctx.capabilities:
        return skip("the server does not declare tools")
    tools = await session.list_tools()
    chosen = [
        t
        for t in tools
        if (t.get("annotations") or {}).get("readOnlyHint") is True and _takes_nothing(t)
    ][: ctx.options.max_items]
    if not chosen:
        return skip(
            "no tool is annotated readOnlyHint: true with an inputSchema that {} (no "
            "arguments) satisfies; the check never makes up tool arguments"
        )
    start = len(ctx.traffic)
    notes = []
    for tool in chosen:
        try:
            result = await session.call_tool(str(tool["name"]), {}, on_progress=lambda _p: None)
        except ServerError as exc:  # a protocol error is the server's right: noted
            notes.append(f"{tool['name']}: JSON-RPC error {exc.code}")
            continue
        if result.get("isError") is True:
            notes.append(f"{tool['name']}: a tool error (isError)")
    problems = _lint_since(ctx, start)
    if problems:
        return fail("\n".join(problems + notes))
    called = ", ".join(str(t["name"]) for t in chosen)
    return ok(
        f"called {called}; results and structuredContent lint clean"
        + (f" ({'; '.join(notes)})" if notes else "")
    )


async def _lint_all(ctx: CheckContext) -> Outcome:
    ctx.linter.flush()
    if not ctx.lint.findings:
        return ok(f"{ctx.lint.checked} server message(s) linted clean")
    counts = ", ".join(f"{r} ×{n}" for r, n in sorted(ctx.lint.counts.items()))
    first = [f"row {f.index}: {f.line()}" for f in ctx.lint.findings[:8]]
    return fail(f"{len(ctx.lint.findings)} finding(s): {counts}\n" + "\n".join(first))


PROTOCOL_CHECKS: Final[tuple[Check, ...]] = (
    Check(
        "handshake.version",
        "an unsupported version gets a supported one or the documented error",
        "basic/lifecycle § Version negotiation; 2026-07-28: -32022 with data.supported",
        _version_negotiation,
    ),
    Check(
        "handshake.discover",
        "server/discover answers with a valid DiscoverResult",
        "2026-07-28 server/discover: servers MUST implement it",
        _discover,
        era="modern",
    ),
    Check(
        "handshake.meta",
        "unknown _meta keys are ignored",
        "2026-07-28 basic § _meta",
        _meta_handling,
        era="modern",
    ),
    Check(
        "handshake.capabilities",
        "declared capabilities work; nothing undeclared is used",
        "basic/lifecycle § Capability negotiation",
        _capabilities,
    ),
    _list_check("tools", "tools/list", "tools"),
    _list_check("resources", "resources/list", "resources"),
    _list_check("resources", "resources/templates/list", "resourceTemplates"),
    _list_check("prompts", "prompts/list", "prompts"),
    Check(
        "errors.unknown-method",
        "an unknown method gets -32601",
        "basic § JSON-RPC errors: -32601 Method not found",
        _unknown_method,
    ),
    Check(
        "errors.unknown-tool",
        "an unknown tool gets -32602 (or isError)",
        "server/tools § Error handling",
        _unknown_tool,
    ),
    Check("errors.ping", "ping is answered with {}", "basic/utilities/ping", _ping, era="legacy"),
    Check(
        "resources.read",
        "each listed resource reads",
        "server/resources § Reading",
        _read_resources,
    ),
    Check(
        "resources.templates",
        "each template expands, with values known valid, and reads",
        "server/resources § Resource templates (RFC 6570)",
        _templates,
    ),
    Check(
        "resources.missing",
        "a missing URI gets -32002 (or -32602)",
        "server/resources § Error handling",
        _missing_resource,
    ),
    Check(
        "prompts.get",
        "each prompt gets with its required arguments (values known valid)",
        "server/prompts § Getting a prompt",
        _prompts,
    ),
    Check(
        "tools.read-only",
        "read-only tools that take no arguments ({} fits their inputSchema) call cleanly",
        "server/tools § Calling tools; § Output schema",
        _read_only_tools,
    ),
)
LINT_CHECK: Final = Check(
    "lint.messages",
    "every message of the battery lints clean",
    "schema.json of the negotiated version; the lint rules",
    _lint_all,
)
