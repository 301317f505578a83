"""A client of an MCP registry's HTTP API (the official one by default): list and search
its servers a page at a time, list one server's versions, get one entry, and import an entry
into profiles through `import_server_json`, the same path as a pasted server.json.

Qt-free, async (httpx). The registry's published API (modelcontextprotocol/registry,
docs/reference/api/openapi.yaml): `GET /v0.1/servers?search=&cursor=&limit=&version=latest`
answers `{"servers": [{"server": {...server.json...}, "_meta": {...}}], "metadata":
{"nextCursor": ...}}`; `GET /v0.1/servers/{name}/versions` and
`/v0.1/servers/{name}/versions/{version}` (the name URL-encoded, `latest` allowed). A
registry that only has `/v0/` is tried there after a 404.

Nothing the registry sends is trusted: each answer is capped in size and in time as a whole
(a server that drips bytes is cut off), and every failure (unreachable, HTTP errors, not JSON,
not a registry page, too big, too slow) is a `RegistryError` whose text is one sentence for
the user. An entry that is not the shape is listed with its problem, never dropped silently.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import quote as url_quote
from urllib.parse import urlsplit

from inspector.registry.to_profiles import ServerJsonImport, import_server_json

if TYPE_CHECKING:  # httpx loads with the first request, not with the window
    import httpx

__all__ = [
    "DEFAULT_REGISTRY_URL",
    "MAX_RESPONSE_BYTES",
    "REGISTRY_URL_ENV",
    "RegistryClient",
    "RegistryEntry",
    "RegistryError",
    "RegistryPage",
    "default_registry_url",
    "import_entry",
]

DEFAULT_REGISTRY_URL: Final = "https://registry.modelcontextprotocol.io"
REGISTRY_URL_ENV: Final = "MCP_INSPECTOR_REGISTRY_URL"
MAX_RESPONSE_BYTES: Final = 4 * 1024 * 1024
DEFAULT_TIMEOUT: Final = 20.0
PAGE_SIZE: Final = 30
_OFFICIAL: Final = "io.modelcontextprotocol.registry/official"
_API_VERSIONS: Final = ("v0.1", "v0")


class RegistryError(Exception):
    """A registry request that failed; the text is one sentence for the user."""


@dataclass(frozen=True)
class RegistryEntry:
    """One server as the registry lists it: what a list row shows, and the entry itself
    (`{"server": ..., "_meta": ...}`) for import. `problem` is set for an entry that is not
    the shape (it cannot be imported)."""

    name: str
    description: str
    version: str
    title: str = ""
    status: str = ""
    is_latest: bool | None = None
    document: Mapping[str, Any] = field(default_factory=dict)
    problem: str | None = None

    @property
    def label(self) -> str:
        return self.title or self.name

    @property
    def named(self) -> str:
        """Its name and version for a sentence ("io.github.x/y 1.0.0"; no version, no gap)."""
        return " ".join(part for part in (self.name, self.version) if part)


@dataclass(frozen=True)
class RegistryPage:
    entries: list[RegistryEntry]
    next_cursor: str | None = None


def default_registry_url() -> str:
    """The registry to browse: $MCP_INSPECTOR_REGISTRY_URL, else the official one."""
    return os.environ.get(REGISTRY_URL_ENV, "").strip() or DEFAULT_REGISTRY_URL


def import_entry(entry: RegistryEntry, registry_url: str) -> ServerJsonImport:
    """An entry's profiles, exactly as a pasted server.json of it would give them."""
    if entry.problem is not None:
        from inspector.registry.schema import SchemaProblem

        return ServerJsonImport(problems=[SchemaProblem("", entry.problem)])
    source = f"registry {registry_url} ({entry.named})"
    # A deprecated or deleted entry imports with a note saying so (its _meta is read there).
    return import_server_json(json.dumps(dict(entry.document)), source=source)


class RegistryClient:
    """Talks to one registry. Use as `async with RegistryClient(url) as client:`."""

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int = MAX_RESPONSE_BYTES,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = _checked_base(base_url)
        self.timeout = timeout
        self.max_bytes = max_bytes
        self._api = _API_VERSIONS[0]
        import httpx

        self._http = httpx.AsyncClient(
            transport=transport,
            timeout=httpx.Timeout(timeout),
            follow_redirects=True,
            headers={"Accept": "application/json"},
        )

    async def __aenter__(self) -> RegistryClient:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # ---------------------------------------------------------------- requests
    async def search(
        self, text: str = "", *, cursor: str | None = None, limit: int = PAGE_SIZE
    ) -> RegistryPage:
        """One page of the latest version of each server whose name contains `text`."""
        params: dict[str, str] = {"limit": str(limit), "version": "latest"}
        if text.strip():
            params["search"] = text.strip()
        if cursor:
            params["cursor"] = cursor
        return _page(await self._get_json("servers", params, what="the server list"))

    async def versions(self, name: str) -> RegistryPage:
        """Every published version of one server (newest first, as the registry orders)."""
        path = f"servers/{url_quote(name, safe='')}/versions"
        return _page(await self._get_json(path, {}, what=f"server {_q(name)}"))

    async def get(self, name: str, version: str = "latest") -> RegistryEntry:
        """One entry; `latest` is the newest version."""
        path = f"servers/{url_quote(name, safe='')}/versions/{url_quote(version, safe='')}"
        what = f"server {_q(name)}" + ("" if version == "latest" else f" version {_q(version)}")
        document = await self._get_json(path, {}, what=what)
        entry = _entry(document, "the answer")
        if entry.problem is not None:
            raise RegistryError(
                f"The registry's answer for {what} is not an entry: {entry.problem}"
            )
        return entry

    async def _get_json(self, path: str, params: dict[str, str], *, what: str) -> Any:
        try:
            async with asyncio.timeout(self.timeout):
                return await self._get_json_now(path, params, what=what)
        except TimeoutError:
            raise RegistryError(
                f"The registry at {self.base_url} did not answer within {self.timeout:g} s."
            ) from None

    async def _get_json_now(self, path: str, params: dict[str, str], *, what: str) -> Any:
        order = [self._api, *(v for v in _API_VERSIONS if v != self._api)]
        for i, api in enumerate(order):
            status, body, content_type = await self._fetch(f"{self.base_url}/{api}/{path}", params)
            if status == 404 and path == "servers" and i + 1 < len(order):
                continue  # a registry with only the older /v0/ API
            self._api = api
            break
        if status == 404:
            if path == "servers":
                raise RegistryError(
                    f"{self.base_url} has no server list at /v0.1/servers or /v0/servers: "
                    "is it an MCP registry's URL?"
                )
            raise RegistryError(f"The registry has no {what} (HTTP 404).")
        if status >= 400:
            raise RegistryError(
                f"The registry answered HTTP {status} for {what}{_error_text(body)}."
            )
        try:
            return json.loads(body)
        except (ValueError, RecursionError):
            kind = f" ({content_type})" if content_type else ""
            raise RegistryError(
                f"The registry's answer for {what} is not JSON{kind}: is {self.base_url} "
                "an MCP registry's URL?"
            ) from None

    async def _fetch(self, url: str, params: dict[str, str]) -> tuple[int, bytes, str]:
        import httpx

        try:
            async with self._http.stream("GET", url, params=params) as response:
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > self.max_bytes:
                    raise self._too_big()
                chunks: list[bytes] = []
                size = 0
                async for chunk in response.aiter_bytes():
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise self._too_big()
                    chunks.append(chunk)
                content_type = response.headers.get("content-type", "").split(";")[0].strip()
                return response.status_code, b"".join(chunks), content_type
        except httpx.TimeoutException:
            raise RegistryError(
                f"The registry at {self.base_url} did not answer within {self.timeout:g} s."
            ) from None
        except httpx.HTTPError as exc:
            reason = str(exc) or type(exc).__name__
            raise RegistryError(
                f"Cannot reach the registry at {self.base_url}: {reason}."
            ) from None

    def _too_big(self) -> RegistryError:
        return RegistryError(
            f"The registry's answer is larger than {self.max_bytes // (1024 * 1024)} MiB; "
            "it was not read."
        )


def _checked_base(url: str) -> str:
    url = url.strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RegistryError(f"{_q(url)} is not a registry URL (http:// or https://).")
    return url


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _error_text(body: bytes) -> str:
    """The registry's own words about an error, short: `{"error": ...}` or the text."""
    try:
        data = json.loads(body)
        text = (
            data.get("error") or data.get("detail") or data.get("title")
            if isinstance(data, dict)
            else None
        )
    except (ValueError, RecursionError):
        text = body.decode("utf-8", "replace")
    if not isinstance(text, str) or not text.strip():
        return ""
    text = " ".join(text.split())
    return f": {text[:200]}" + ("…" if len(text) > 200 else "")


def _page(data: Any) -> RegistryPage:
    servers = data.get("servers") if isinstance(data, dict) else None
    if not isinstance(servers, list):
        raise RegistryError('The registry\'s answer is not a page of servers (no "servers" list).')
    metadata = data.get("metadata")
    cursor = metadata.get("nextCursor") if isinstance(metadata, dict) else None
    entries = [_entry(item, f"servers[{i}]") for i, item in enumerate(servers)]
    return RegistryPage(entries, cursor if isinstance(cursor, str) and cursor else None)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _entry(item: Any, where: str) -> RegistryEntry:
    server = item.get("server") if isinstance(item, dict) else None
    if not isinstance(server, dict) or not isinstance(server.get("name"), str):
        name = _text(server.get("name")) if isinstance(server, dict) else ""
        return RegistryEntry(
            name=name or f"({where})",
            description="",
            version="",
            problem=f"{where} is not a registry entry (no server with a name).",
        )
    meta = item.get("_meta")
    official = meta.get(_OFFICIAL) if isinstance(meta, dict) else None
    official = official if isinstance(official, dict) else {}
    latest = official.get("isLatest")
    return RegistryEntry(
        name=server["name"],
        description=_text(server.get("description")),
        version=_text(server.get("version")),
        title=_text(server.get("title")),
        status=_text(official.get("status")),
        is_latest=latest if isinstance(latest, bool) else None,
        document=item,
    )
