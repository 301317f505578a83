"""A registry stand-in: a small HTTP server speaking the MCP registry's read API
(`/v0.1/servers` with search, cursor paging and `version=latest`, `/servers/{name}/versions`
and `/versions/{version}`), so that no test reaches the network.

Its six entries come two pages at a time at most three each: a stdio npm server with a secret,
a remote server with a secret header, a PyPI server, an entry that breaks the server.json schema,
an entry with no server at all, and one more. A first path part picks a misbehaving registry:
`/slow` drips its answer, `/huge` sends more than the client reads, `/broken` answers HTTP 500,
`/html` a web page, `/shape` JSON that is no page, `/old` has only the older `/v0/` API.

In tests: `with serving_registry() as base: ...`. By hand:
`python tests/servers/registry_standin.py --port 8765` (Ctrl+C stops it).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Final
from urllib.parse import parse_qs, unquote, urlsplit

SCHEMA: Final = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"
PAGE: Final = 3
OFFICIAL: Final = "io.modelcontextprotocol.registry/official"


def _server(name: str, version: str, description: str, **more: Any) -> dict[str, Any]:
    return {"$schema": SCHEMA, "name": name, "description": description, "version": version, **more}


def _entry(
    server: dict[str, Any], *, latest: bool = True, status: str = "active"
) -> dict[str, Any]:
    meta = {"status": status, "isLatest": latest, "publishedAt": "2025-11-01T10:00:00Z"}
    return {"server": server, "_meta": {OFFICIAL: meta}}


WEATHER_OLD: Final = _entry(
    _server(
        "io.github.example/weather",
        "0.9.0",
        "Weather forecasts (old release).",
        packages=[
            {
                "registryType": "npm",
                "identifier": "@example/weather-mcp",
                "version": "0.9.0",
                "transport": {"type": "stdio"},
            }
        ],
    ),
    latest=False,
)
ENTRIES: Final[list[dict[str, Any]]] = [
    _entry(
        _server(
            "io.github.example/weather",
            "1.0.0",
            "Weather forecasts from an npm package.",
            title="Weather",
            packages=[
                {
                    "registryType": "npm",
                    "identifier": "@example/weather-mcp",
                    "version": "1.0.0",
                    "transport": {"type": "stdio"},
                    "environmentVariables": [
                        {"name": "WEATHER_KEY", "isSecret": True, "isRequired": True}
                    ],
                }
            ],
        )
    ),
    _entry(
        _server(
            "com.example/notes",
            "2.1.0",
            "Notes over streamable HTTP.",
            remotes=[
                {
                    "type": "streamable-http",
                    "url": "https://notes.example.com/mcp",
                    "headers": [{"name": "Authorization", "isSecret": True, "isRequired": True}],
                }
            ],
        )
    ),
    _entry(
        _server(
            "io.github.example/files",
            "0.3.1",
            "Files from a PyPI package.",
            packages=[
                {
                    "registryType": "pypi",
                    "identifier": "example-files-mcp",
                    "version": "0.3.1",
                    "transport": {"type": "stdio"},
                }
            ],
        ),
        status="deprecated",
    ),
    # Breaks the server.json schema: a number for a version, a remote of type "ftp".
    _entry(
        {
            "name": "io.github.example/broken",
            "description": "An entry that breaks the schema.",
            "version": 2,
            "remotes": [{"type": "ftp", "url": "ftp://example.com"}],
        }
    ),
    {"_meta": {}, "note": "an entry without a server"},
    _entry(
        _server(
            "io.github.example/search",
            "1.2.0",
            "Web search.\x1b[31m with a terminal escape",
            remotes=[{"type": "sse", "url": "https://search.example.com/sse"}],
        )
    ),
]


def _name_of(entry: dict[str, Any]) -> str:
    server = entry.get("server")
    return str(server.get("name", "")) if isinstance(server, dict) else ""


class _Handler(BaseHTTPRequestHandler):
    server_version = "RegistryStandIn/1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        path = parts.path
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        mode = ""
        for candidate in ("/slow", "/huge", "/broken", "/html", "/shape", "/old"):
            if path.startswith(candidate + "/"):
                mode, path = candidate[1:], path[len(candidate) :]
        if mode == "slow":
            self._drip()
        elif mode == "huge":
            self._huge()
        elif mode == "broken":
            self._send(500, {"error": "the database is down"})
        elif mode == "html":
            self._send_bytes(200, b"<html><body>Not a registry</body></html>", "text/html")
        elif mode == "shape":
            self._send(200, {"items": []})
        elif mode == "old" and path.startswith("/v0.1/"):
            self._send(404, {"error": "Not found"})
        else:
            self._route(path.replace("/v0/", "/v0.1/", 1), query)

    def _route(self, path: str, query: dict[str, str]) -> None:
        if path == "/v0.1/servers":
            self._list(query)
            return
        prefix = "/v0.1/servers/"
        if path.startswith(prefix) and "/versions" in path:
            name_part, _, version_part = path[len(prefix) :].partition("/versions")
            name = unquote(name_part)
            versions = [e for e in [*ENTRIES, WEATHER_OLD] if _name_of(e) == name]
            if not versions:
                self._send(404, {"error": "Server not found"})
            elif version_part in ("", "/"):
                self._send(200, {"servers": versions, "metadata": {"count": len(versions)}})
            else:
                wanted = unquote(version_part.lstrip("/"))
                found = [
                    e
                    for e in versions
                    if (wanted == "latest" and e["_meta"][OFFICIAL]["isLatest"])
                    or e["server"]["version"] == wanted
                ]
                if found:
                    self._send(200, found[0])
                else:
                    self._send(404, {"error": "Server version not found"})
            return
        self._send(404, {"error": "Not found"})

    def _list(self, query: dict[str, str]) -> None:
        search = query.get("search", "").lower()
        chosen = [e for e in ENTRIES if search in _name_of(e).lower() or not _name_of(e)]
        if search:
            chosen = [e for e in chosen if _name_of(e)]
        start = int(query.get("cursor") or 0)
        size = min(int(query.get("limit") or PAGE), PAGE)
        page = chosen[start : start + size]
        metadata: dict[str, Any] = {"count": len(page)}
        if start + size < len(chosen):
            metadata["nextCursor"] = str(start + size)
        self._send(200, {"servers": page, "metadata": metadata})

    def _drip(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        try:
            for _ in range(600):  # a byte every 50 ms: 30 s in all, never a whole answer
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:
            return

    def _huge(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")  # no length: it must be counted
        self.end_headers()
        chunk = b" " * 65536
        try:
            self.wfile.write(b'{"servers": [')
            for _ in range(200):  # 12.5 MiB, more than any cap
                self.wfile.write(chunk)
        except OSError:
            return

    def _send(self, status: int, body: Any) -> None:
        self._send_bytes(status, json.dumps(body).encode(), "application/json")

    def _send_bytes(self, status: int, data: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(data)


@contextlib.contextmanager
def serving_registry(port: int = 0) -> Iterator[str]:
    """Serve the stand-in on a thread of this process; yields its base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
    server.daemon_threads = True
    thread = threading.Thread(
        target=server.serve_forever, args=(0.05,), name="registry stand-in", daemon=True
    )
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    port = parser.parse_args().port
    with serving_registry(port) as base:
        print(f"registry stand-in at {base} (also {base}/slow, /huge, /broken, /html, /shape)")
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
