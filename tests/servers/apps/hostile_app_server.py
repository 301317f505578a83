"""A stdio MCP server whose tools ship MCP Apps that misbehave on purpose (stdlib only).

Each tool NAME has the app `ui://hostile/NAME` (text/html;profile=mcp-app). The apps speak
the ext-apps postMessage JSON-RPC by hand (no SDK), so each can break one rule:

  silent    never sends ui/initialize
  garbage   posts a string, an object without jsonrpc, a JSON-RPC 1.0 request, then
            initializes
  flood     initializes, then posts 3000 notifications/message at once
  ghost     initializes, then asks the host to call a tool the server does not have
  navigate  initializes, then sets location.href to a web page
  popup     initializes, then calls window.open
  remote    loads a remote script, a remote image and fetches a remote API (no CSP)
  link      initializes, then asks the host to open a link (consent)
  call      initializes, then calls the server's `echo` tool through the host (consent)
  allowed   declares connectDomains http://127.0.0.1:9 and fetches it and a forbidden one
  resize    initializes, then waits: `askSize(width, height)` (run by a test) posts
            ui/notifications/size-changed

Plus `echo` (no app). Minimal legacy handshake.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MIME = "text/html;profile=mcp-app"

PRELUDE = """
const send = (m) => window.parent.postMessage(m, "*");
let next = 1; const waiting = {};
function request(method, params) {
  const id = next++; send({jsonrpc: "2.0", id, method, params});
  return new Promise((resolve) => { waiting[id] = resolve; });
}
window.addEventListener("message", (event) => {
  const m = event.data;
  if (m && m.id !== undefined && waiting[m.id]) { waiting[m.id](m); delete waiting[m.id]; }
  if (m && m.method === "ui/notifications/tool-result") {
    document.getElementById("out").textContent = "result: " + JSON.stringify(m.params);
  }
});
async function init() {
  await request("ui/initialize", {protocolVersion: "2026-01-26",
    appInfo: {name: "hostile", version: "1"}, appCapabilities: {}});
  send({jsonrpc: "2.0", method: "ui/notifications/initialized"});
}
"""

SCRIPTS: dict[str, str] = {
    "silent": "",
    "garbage": """
send("hello host"); send({method: "x"}); send({jsonrpc: "1.0", id: 99, method: "y"});
init();""",
    "flood": """
init().then(() => { for (let i = 0; i < 3000; i++) {
  send({jsonrpc: "2.0", method: "notifications/message",
        params: {level: "info", data: i}}); } });""",
    "ghost": """
init().then(() => request("tools/call", {name: "does-not-exist", arguments: {}}));""",
    "navigate": """
init().then(() => { location.href = "https://example.com/away"; });""",
    "popup": """
init().then(() => { const w = window.open("https://example.com/pop");
  const what = w === null ? "null" : "a window";
  send({jsonrpc: "2.0", method: "notifications/message",
        params: {level: "info", data: "window.open returned " + what}}); });""",
    "remote": """
init().then(() => fetch("https://api.example.com/data").catch(() => {}));""",
    "link": """
init().then(() => request("ui/open-link", {url: "https://example.com/docs"}));""",
    "call": """
init().then(() => request("tools/call", {name: "echo", arguments: {text: "from the app"}}));""",
    "resize": """
window.askSize = (width, height) => send({jsonrpc: "2.0",
  method: "ui/notifications/size-changed", params: {width, height}});
init();""",
    "allowed": """
init().then(() => { fetch("http://127.0.0.1:9/ok").catch(() => {});
  fetch("https://forbidden.example.org/x").catch(() => {}); });""",
}

EXTRA_HEAD = {
    "remote": '<script src="https://evil.example.com/x.js"></script>'
    '<img src="https://images.example.net/p.png">',
}
CSP = {"allowed": {"connectDomains": ["http://127.0.0.1:9"]}}


def page(name: str) -> str:
    return (
        f"<!doctype html><html><head><title>{name}</title>{EXTRA_HEAD.get(name, '')}</head>"
        f"<body><h1>hostile app: {name}</h1><p id='out'>no result yet</p>"
        f"<script>{PRELUDE}{SCRIPTS[name]}</script></body></html>"
    )


TOOLS: list[dict[str, Any]] = [
    {
        "name": name,
        "description": f"An app that misbehaves: {name}",
        "inputSchema": {"type": "object"},
        "_meta": {"ui": {"resourceUri": f"ui://hostile/{name}"}},
    }
    for name in SCRIPTS
] + [
    {
        "name": "echo",
        "description": "Echoes its text.",
        "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
    }
]


def answer(method: str, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":
        return {
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}, "resources": {}},
            "serverInfo": {"name": "hostile-apps", "version": "1"},
        }
    if method == "tools/list":
        return {"tools": TOOLS}
    if method == "resources/list":
        return {
            "resources": [
                {"uri": f"ui://hostile/{n}", "name": n, "mimeType": MIME} for n in SCRIPTS
            ]
        }
    if method == "resources/read":
        uri = str(params.get("uri", ""))
        name = uri.removeprefix("ui://hostile/")
        if name not in SCRIPTS:
            return {"contents": []}
        item: dict[str, Any] = {"uri": uri, "mimeType": MIME, "text": page(name)}
        if name in CSP:
            item["_meta"] = {"ui": {"csp": CSP[name]}}
        return {"contents": [item]}
    if method == "tools/call":
        name = params.get("name")
        args = params.get("arguments") or {}
        if name == "echo":
            return {"content": [{"type": "text", "text": f"echo: {args.get('text', '')}"}]}
        return {"content": [{"type": "text", "text": f"{name} ran"}]}
    return {}


def main() -> int:
    for line in sys.stdin:
        msg = json.loads(line)
        msg_id = msg.get("id")
        if msg_id is None or "method" not in msg:
            continue
        result = answer(str(msg["method"]), msg.get("params") or {})
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
