"""A stdio MCP server (stdlib only, legacy handshake) that breaks the lint rules and the
check battery's rules named in --break (comma-separated), and behaves otherwise.

Lint rules:
  tool-name      a tool named "bad name!" (2025-11-25 tool name format)
  dup-names      the tool "echo" listed twice
  input-schema   a tool whose inputSchema is not valid JSON Schema
  structured     tool "weather" declares an outputSchema; its result breaks it
  log-level      a notifications/message with level "loud" (schema enum)
  undeclared-log notifications/message without the logging capability
  cursor-loop    prompts/list: nextCursor always "again"
  notify-reply   answers notifications/initialized (a notification) with a response
  bad-result     tools/call "echo": a result without "content" (schema required)
  list-changed   notifications/tools/list_changed without tools.listChanged
  output-schema  tool "weather" declares an outputSchema that is not valid JSON Schema
--many N lists N more tools (`gw__tool_<i>`, a gateway's catalog) before those: a big
listing, linted in slices.
Drift (a server that changed since a collection was saved from it):
  schema-drift   tool "weather" takes a "city" now (its inputSchema changed)
  no-weather     tool "weather" is no longer listed
Check rules:
  unknown-method answer an unknown method with a result instead of -32601
  unknown-tool   answer tools/call of an unknown tool with a success result
  no-ping        answer ping with -32601
  bad-version    answer an unsupported protocol version by echoing it back
  crash-unknown  exit when an unknown method arrives
  missing-uri    answer resources/read of an unknown URI with empty contents
  stdout-noise   print a non-JSON line on stdout after initialize
  ignore-eof     keep running after stdin EOF
  eof-after-work keep running after stdin EOF once a session went past the handshake
  eof-if-locked  keep running after stdin EOF only while it holds the lock file given by
                 --lock (a second instance, without the lock, exits: as mcp-cron does
                 with its database)
                 (notifications/initialized, then a request), as a real server did; an
                 EOF right after initialize still ends it
  no-name-603    tools/call without the required "name" gets -32603 (as the TS SDK answers)
                 instead of -32602 invalid params
  notify-error   answers every notification with an error whose id is null (as a
                 hand-rolled server did)
  early-notify   sends notifications/tools/list_changed right after the initialize answer,
                 before notifications/initialized
  early-request  sends a roots/list request right after the initialize answer, before
                 notifications/initialized
  unstable       the tool "echo"'s description differs on every start (it names the pid,
                 as a Go map's order shuffles a description)
  banner         four non-JSON lines on stdout at start, before the first message
  late-banner    four non-JSON lines print()ed at start, before the first message, while
                 messages go straight to the stdout file (as the Python SDK writes them):
                 Python holds the banner in its buffer until it exits, after stdin EOF
Modern era (a request whose params._meta names a protocol version is answered the
2026-07-28 way: server/discover, resultType, cacheScope/ttlMs, -32022 for other versions):
  bad-version    an unsupported version gets -32602 instead of -32022 with the list
  meta-strict    a request with an unknown _meta key is refused (-32602)
  bad-discover   server/discover answers ttlMs as a string
  no-discover    server/discover is "method not found"
  bad-read       resources/read of the listed resource fails (-32603)
  bad-prompt     prompts/get fails (-32603)
  bad-template   lists a resource template that is not RFC 6570 ("mem://{a")
  bad-cache      cache hints of the wrong types: tools/list ttlMs "5000" (a string),
                 prompts/list ttlMs -1, resources/list cacheScope "session", resources/read
                 resultType "partial"
Values the check cannot make up (as server-everything's resource-prompt and templates):
  typed-args     completions declared; a prompt "pick" (required argument "id") and a
                 template "mem://item/{id}": only a positive integer id is valid, any other
                 gets -32603; the completion offers an id only once a positive integer is
                 typed
  typed-broken   with typed-args: a valid id fails too (-32603): a broken prompt and template
  opaque-args    "pick" and "mem://item/{id}" without completions: no valid id can be known
  strict-tool    a read-only tool "lookup" whose inputSchema needs an id though none is
                 "required" (minProperties 1); called without one it answers a tool error
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

SUPPORTED = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


RAW_STDOUT: list[bool] = [False]  # late-banner: messages bypass sys.stdout's buffer
MANY: list[int] = [0]  # --many: that many more tools


def send(message: dict[str, Any]) -> None:
    if RAW_STDOUT[0]:
        os.write(1, (json.dumps(message) + "\n").encode())
        return
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def banner() -> None:
    for line in (
        "lint-breaker v1",
        "=" * 15,
        "\x1b[32mready\x1b[0m: listening on stdio",
        "(debug build)",
    ):
        print(line)


def tools(broken: set[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {
            "name": "echo",
            "description": f"Echo the text (start {os.getpid()})"
            if "unstable" in broken
            else "Echo the text",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": "weather",
            "inputSchema": {"type": "object"},
            "outputSchema": {
                "type": "object",
                "properties": {"temp": {"type": "number"}},
                "required": ["temp"],
            },
            "annotations": {"readOnlyHint": True},
        },
    ]
    if "output-schema" in broken:
        out[1]["outputSchema"] = {"type": "object", "required": "temp"}
    if "schema-drift" in broken:
        out[1]["inputSchema"] = {"type": "object", "properties": {"city": {"type": "string"}}}
    if "no-weather" in broken:
        del out[1]
    if "strict-tool" in broken:
        schema = {
            "type": "object",
            "properties": {"id": {"type": "integer", "minimum": 1}},
            "minProperties": 1,
        }
        out.append({"name": "lookup", "inputSchema": schema, "annotations": {"readOnlyHint": True}})
    out += [
        {
            "name": f"gw__tool_{i}",
            "description": f"Gateway tool {i}.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "integer"}}},
        }
        for i in range(MANY[0])
    ]
    if "tool-name" in broken:
        out.append({"name": "bad name!", "inputSchema": {"type": "object"}})
    if "dup-names" in broken:
        out.append(dict(out[0]))
    if "input-schema" in broken:
        out.append(
            {
                "name": "broken_schema",
                "inputSchema": {"type": "object", "properties": {"x": {"type": "nope"}}},
            }
        )
    return out


TYPED = {"typed-args", "typed-broken", "opaque-args"}


class Refused(Exception):
    """An error answer with its own code and message."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.error = {"code": code, "message": message}


def capabilities(broken: set[str]) -> dict[str, Any]:
    caps: dict[str, Any] = {"tools": {}, "resources": {}, "prompts": {}}
    if broken & {"typed-args", "typed-broken"}:
        caps["completions"] = {}
    return caps


def valid_id(value: Any) -> bool:
    return isinstance(value, str) and value.isdigit() and int(value) > 0


def typed(method: str | None, params: dict[str, Any], broken: set[str]) -> dict[str, Any] | None:
    """The typed-args answers (None: not one of theirs)."""
    if method == "completion/complete":
        typed_value = (params.get("argument") or {}).get("value")
        return {"completion": {"values": [typed_value] if valid_id(typed_value) else []}}
    if method == "prompts/get" and params.get("name") == "pick":
        given = (params.get("arguments") or {}).get("id")
        if not valid_id(given):
            raise Refused(-32603, f"Invalid id: {given}. Must be a positive integer.")
        if "typed-broken" in broken:
            raise Refused(-32603, "pick: template engine crashed")
        return {"messages": [{"role": "user", "content": {"type": "text", "text": given}}]}
    uri = str(params.get("uri", ""))
    if method == "resources/read" and uri.startswith("mem://item/"):
        if not valid_id(uri.removeprefix("mem://item/")):
            raise Refused(-32603, f"Unknown resource: {uri}")
        if "typed-broken" in broken:
            raise Refused(-32603, "item store offline")
        return {"contents": [{"uri": uri, "text": "item", "mimeType": "text/plain"}]}
    return None


def answer(msg: dict[str, Any], broken: set[str]) -> dict[str, Any] | None:
    method = msg.get("method")
    params = msg.get("params") or {}
    if broken & TYPED and (done := typed(method, params, broken)) is not None:
        return done
    if method == "initialize":
        asked = params.get("protocolVersion")
        version = asked if asked in SUPPORTED else SUPPORTED[-1]
        if "bad-version" in broken:
            version = asked
        caps = capabilities(broken)
        if "undeclared-log" not in broken:
            caps["logging"] = {}
        return {
            "protocolVersion": version,
            "capabilities": caps,
            "serverInfo": {"name": "lint-breaker", "version": "1"},
        }
    if method == "ping":
        return None if "no-ping" in broken else {}
    if method == "tools/list":
        return {"tools": tools(broken)}
    if method == "tools/call":
        name = params.get("name")
        if name is None and "no-name-603" in broken:
            raise Refused(-32603, "Cannot read properties of undefined (reading 'name')")
        if name == "weather":
            temp: Any = "hot" if "structured" in broken else 21.5
            return {
                "content": [{"type": "text", "text": json.dumps({"temp": temp})}],
                "structuredContent": {"temp": temp},
            }
        if name == "echo":
            if "bad-result" in broken:
                return {"text": "no content"}
            text = str((params.get("arguments") or {}).get("text", ""))
            return {"content": [{"type": "text", "text": text}]}
        if name == "lookup" and "strict-tool" in broken:
            text = f"lookup of {(params.get('arguments') or {}).get('id')}"
            return {"content": [{"type": "text", "text": text}], "isError": True}
        if "unknown-tool" in broken and name is not None:
            return {"content": [{"type": "text", "text": "sure"}]}
        return None
    if method == "resources/list":
        return {"resources": [{"uri": "mem://a", "name": "a", "mimeType": "text/plain"}]}
    if method == "resources/templates/list":
        if "bad-template" in broken:
            return {"resourceTemplates": [{"uriTemplate": "mem://{a", "name": "broken"}]}
        if broken & TYPED:
            return {"resourceTemplates": [{"uriTemplate": "mem://item/{id}", "name": "item"}]}
        return {"resourceTemplates": []}
    if method == "resources/read":
        if params.get("uri") == "mem://a" and "bad-read" not in broken:
            return {"contents": [{"uri": "mem://a", "text": "A", "mimeType": "text/plain"}]}
        return {"contents": []} if "missing-uri" in broken else None
    if method == "prompts/list":
        page: dict[str, Any] = {"prompts": [{"name": "hello"}]}
        if broken & TYPED:
            pick = {"name": "pick", "arguments": [{"name": "id", "required": True}]}
            page["prompts"].append(pick)
        if "cursor-loop" in broken:
            page["nextCursor"] = "again"
        return page
    if method == "prompts/get":
        if "bad-prompt" in broken:
            return None
        return {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}]}
    if method == "logging/setLevel":
        return {}
    if "unknown-method" in broken:
        return {}
    return None


MODERN_KEY = "io.modelcontextprotocol/protocolVersion"
MODERN = "2026-07-28"
CACHED = {
    "tools/list",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "server/discover",
}


BAD_CACHE: dict[str, dict[str, Any]] = {
    "tools/list": {"ttlMs": "5000"},
    "prompts/list": {"ttlMs": -1},
    "resources/list": {"cacheScope": "session"},
    "resources/read": {"resultType": "partial"},
}


def modern_answer(msg: dict[str, Any], meta: dict[str, Any], broken: set[str]) -> dict[str, Any]:
    """One answer of a modern (2026-07-28) request."""
    rid, method = msg["id"], msg.get("method")
    asked = meta.get(MODERN_KEY)
    if asked != MODERN:
        if "bad-version" in broken:
            error: dict[str, Any] = {"code": -32602, "message": f"bad version {asked}"}
        else:
            error = {
                "code": -32022,
                "message": "unsupported protocol version",
                "data": {"requested": asked, "supported": [MODERN]},
            }
        return {"jsonrpc": "2.0", "id": rid, "error": error}
    if "meta-strict" in broken and any(not k.startswith("io.modelcontextprotocol/") for k in meta):
        return {
            "jsonrpc": "2.0",
            "id": rid,
            "error": {"code": -32602, "message": "unknown _meta key"},
        }
    if method == "server/discover" and "no-discover" in broken:
        return {
            "jsonrpc": "2.0",
            "id": rid,
            "error": {"code": -32601, "message": "method not found: server/discover"},
        }
    if method == "server/discover":
        result: dict[str, Any] | None = {
            "supportedVersions": [MODERN],
            "capabilities": capabilities(broken),
            "_meta": {
                "io.modelcontextprotocol/serverInfo": {"name": "lint-breaker", "version": "1"}
            },
        }
        if "bad-discover" in broken:
            result["ttlMs"] = "forever"  # the schema says an integer
    elif method == "ping":
        result = None
    else:
        try:
            result = answer(msg, broken)
        except Refused as exc:
            return {"jsonrpc": "2.0", "id": rid, "error": exc.error}
    if result is None:
        return {"jsonrpc": "2.0", "id": rid, "error": error_for(msg, broken)}
    if "bad-cache" in broken and isinstance(result, dict):
        result.update(BAD_CACHE.get(str(method), {}))
    result.setdefault("resultType", "complete")
    if method in CACHED:
        result.setdefault("cacheScope", "private")
        result.setdefault("ttlMs", 0)
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def error_for(msg: dict[str, Any], broken: set[str]) -> dict[str, Any]:
    method = msg.get("method")
    if method == "tools/call":
        return {"code": -32602, "message": "unknown tool"}
    if method == "resources/read":
        if "bad-read" in broken:
            return {"code": -32603, "message": "disk on fire"}
        return {"code": -32002, "message": "resource not found"}
    if method == "prompts/get":
        return {"code": -32603, "message": "prompt engine down"}
    return {"code": -32601, "message": f"method not found: {method}"}


def early(broken: set[str]) -> None:
    """What early-notify and early-request send right after the initialize answer."""
    if "early-notify" in broken:
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    if "early-request" in broken:
        send({"jsonrpc": "2.0", "id": "early-1", "method": "roots/list"})


def _take_lock(path: str) -> bool:
    """An exclusive lock held for the process's life; False when another holds it."""
    import fcntl

    handle = open(path, "a")  # noqa: SIM115 (held open: the lock lives with it)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return False
    _HELD.append(handle)
    return True


_HELD: list[object] = []


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--break", dest="broken", default="")
    ap.add_argument("--lock", default="")
    ap.add_argument("--many", type=int, default=0)
    args = ap.parse_args()
    MANY[0] = args.many
    broken = {b for b in args.broken.split(",") if b}
    locked = "eof-if-locked" in broken and _take_lock(args.lock)
    if "late-banner" in broken:
        RAW_STDOUT[0] = True
        banner()  # stays in sys.stdout's buffer (a pipe): written out at exit
    elif "banner" in broken:
        banner()
        sys.stdout.flush()
    worked = False  # eof-after-work: the session went past the handshake
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if not isinstance(msg, dict):
            continue
        method = msg.get("method")
        if "id" not in msg:
            if "notify-error" in broken:
                error = {"code": -32000, "message": f"unknown method {method}"}
                send({"jsonrpc": "2.0", "id": None, "error": error})
            if method == "notifications/initialized":
                worked = True
                if "notify-reply" in broken:
                    send({"jsonrpc": "2.0", "id": None, "result": {}})
                if "stdout-noise" in broken:
                    sys.stdout.write("debug: initialized!\n")
                    sys.stdout.flush()
                if "list-changed" in broken:
                    send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
                if "log-level" in broken or "undeclared-log" in broken:
                    level = "loud" if "log-level" in broken else "info"
                    send(
                        {
                            "jsonrpc": "2.0",
                            "method": "notifications/message",
                            "params": {"level": level, "data": "hello"},
                        }
                    )
            continue
        if "method" not in msg:
            continue
        known = method in (
            "initialize",
            "ping",
            "tools/list",
            "tools/call",
            "resources/list",
            "prompts/get",
            "resources/templates/list",
            "resources/read",
            "prompts/list",
            "logging/setLevel",
            "completion/complete",
        )
        if not known and method != "server/discover" and "crash-unknown" in broken:
            return 3
        meta = (msg.get("params") or {}).get("_meta") or {}
        if isinstance(meta, dict) and MODERN_KEY in meta:
            send(modern_answer(msg, meta, broken))
            continue
        try:
            result = answer(msg, broken)
        except Refused as exc:
            send({"jsonrpc": "2.0", "id": msg["id"], "error": exc.error})
            continue
        if result is None:
            send({"jsonrpc": "2.0", "id": msg["id"], "error": error_for(msg, broken)})
        else:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
        if method == "initialize":
            early(broken)
    if "ignore-eof" in broken or (worked and "eof-after-work" in broken) or locked:
        time.sleep(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
