"""MCP Server Cards (a draft: SEP-2127, the experimental-ext-server-card extension): fetch
the card that describes an HTTP server before anyone connects, and read it.

Where a card is looked for, in order: `<streamable-http-url>/server-card` (the location the
current draft reserves) and `<origin>/.well-known/mcp/server-card` (the location earlier
drafts of SEP-2127 named). Nothing is sent but a GET with `Accept:
application/mcp-server-card+json`: no profile header, no token (a card is public metadata).
A 404 (or 410) at every location is "no card", not an error. What comes back is capped in
size and time; a card that is not JSON, or not the shape of the vendored v1 schema
(`schemas/server-card.schema.v1.json`), gives findings that name the place. Qt-free.
"""

from __future__ import annotations

import asyncio
import enum
import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit, urlunsplit

import jsonschema

from inspector.registry.schema import SchemaProblem, load_json, problems_from, quote

if TYPE_CHECKING:  # httpx loads with the first fetch, not with the window
    import httpx

__all__ = [
    "CARD_MEDIA_TYPE",
    "CARD_SCHEMA_FILE",
    "CARD_SCHEMA_URL",
    "MAX_CARD_BYTES",
    "CardFetch",
    "CardState",
    "card_locations",
    "card_schema",
    "fetch_server_card",
    "read_card",
    "summary_lines",
    "validate_card",
]

CARD_MEDIA_TYPE: Final = "application/mcp-server-card+json"
CARD_SCHEMA_FILE: Final = "server-card.schema.v1.json"
CARD_SCHEMA_URL: Final = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json"
MAX_CARD_BYTES: Final = 256 * 1024  # a card is a few hundred bytes; a page this big is not one
TIMEOUT: Final = 5.0  # seconds for the whole of one location (connect, headers, body)
_NOT_HERE: Final = frozenset({404, 410})


class CardState(enum.StrEnum):
    FOUND = "found"  # a card, maybe with findings
    MISSING = "missing"  # no card at any location (not an error)
    BROKEN = "broken"  # something answered, but not with a readable card
    UNREACHABLE = "unreachable"  # the server could not be asked


@dataclass
class CardFetch:
    """What looking for a card found: its state, where, the card, and the findings."""

    state: CardState
    url: str = ""  # where the card (or the broken answer) came from
    card: dict[str, Any] | None = None
    problems: list[SchemaProblem] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)  # every location asked, in order
    note: str = ""  # one sentence for the user (why missing, why broken)

    def describe(self) -> str:
        if self.state is CardState.FOUND:
            found = f"Found a Server Card (draft) at {self.url}"
            return found if not self.problems else f"{found}, with {len(self.problems)} finding(s)"
        if self.state is CardState.MISSING:
            return "No Server Card (not an error): " + self.note
        return self.note


def card_locations(url: str) -> list[str]:
    """Where a card for the MCP endpoint `url` may be, in the order they are asked."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return []
    path = parts.path.rstrip("/")
    here = urlunsplit((parts.scheme, parts.netloc, f"{path}/server-card", "", ""))
    well_known = urlunsplit((parts.scheme, parts.netloc, "/.well-known/mcp/server-card", "", ""))
    return [here] if here == well_known else [here, well_known]


@cache
def card_schema() -> dict[str, Any]:
    """The vendored v1 Server Card schema (package data), rooted at its ServerCard."""
    text = resources.files("inspector.registry").joinpath("schemas", CARD_SCHEMA_FILE)
    loaded: dict[str, Any] = json.loads(text.read_text("utf-8"))
    return {**loaded, "$ref": "#/$defs/ServerCard"}


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(card_schema(), format_checker=jsonschema.FormatChecker())


def validate_card(document: Any) -> list[SchemaProblem]:
    """Every problem of a card against the v1 schema; [] when it has the shape."""
    try:
        return problems_from(_validator().iter_errors(document))
    except RecursionError:
        return [SchemaProblem("", "It is nested too deeply to validate.")]


def read_card(
    data: bytes, content_type: str = ""
) -> tuple[dict[str, Any] | None, list[SchemaProblem]]:
    """The card in a body: (card, findings). A body that is not a JSON object gives None."""
    value, problems = load_json(data)
    if problems:
        kind = content_type.split(";")[0].strip() or "no Content-Type"
        lead = SchemaProblem("", f"It is not JSON ({kind}).")
        return None, [lead, *problems]
    if not isinstance(value, dict):
        return None, [SchemaProblem("", f"It must be a JSON object, not {quote(value)}.")]
    return value, validate_card(value)


async def _get(client: httpx.AsyncClient, url: str) -> tuple[int, str, bytes, bool]:
    """(status, content type, body up to the cap, whether the body was cut)."""
    headers = {"Accept": f"{CARD_MEDIA_TYPE}, application/json;q=0.9"}
    async with client.stream("GET", url, headers=headers) as response:
        if response.status_code != 200:
            return response.status_code, response.headers.get("content-type", ""), b"", False
        body = bytearray()
        async for chunk in response.aiter_raw():
            body += chunk
            if len(body) > MAX_CARD_BYTES:
                return 200, response.headers.get("content-type", ""), bytes(body), True
        return 200, response.headers.get("content-type", ""), bytes(body), False


async def fetch_server_card(
    url: str,
    *,
    timeout: float = TIMEOUT,
    transport: httpx.AsyncBaseTransport | None = None,
    verify: bool = True,
) -> CardFetch:
    """Look for the card of the MCP endpoint `url` (see the module's docstring)."""
    locations = card_locations(url)
    if not locations:
        return CardFetch(CardState.MISSING, note=f"{url!r} is not an http(s) URL")
    result = CardFetch(CardState.MISSING, tried=[])
    import httpx

    async with httpx.AsyncClient(
        transport=transport, verify=verify, follow_redirects=True, max_redirects=3
    ) as client:
        for where in locations:
            result.tried.append(where)
            try:
                status, kind, body, cut = await asyncio.wait_for(_get(client, where), timeout)
            except TimeoutError:
                return _broken(result, where, f"{where} did not answer within {timeout:g} s")
            except (httpx.HTTPError, OSError) as exc:
                return CardFetch(
                    CardState.UNREACHABLE,
                    url=where,
                    tried=result.tried,
                    note=f"Could not reach {where} ({(str(exc) or type(exc).__name__)[:200]}): "
                    "is the server running, and is its URL right?",
                )
            if status in _NOT_HERE:
                continue
            if status != 200:
                return _broken(result, where, f"{where} answered HTTP {status}")
            if cut:
                kib = MAX_CARD_BYTES // 1024
                return _broken(result, where, f"{where} sent more than {kib} KiB: not read")
            card, problems = read_card(body, kind)
            if card is None:
                result.problems = problems
                return _broken(result, where, f"{where} answered, but not with a card")
            return CardFetch(CardState.FOUND, where, card, problems, result.tried)
    result.note = "404 at " + " and ".join(result.tried)
    return result


def _broken(result: CardFetch, where: str, note: str) -> CardFetch:
    return CardFetch(CardState.BROKEN, where, None, result.problems, result.tried, note)


def _text(value: Any) -> str:
    """A card's value for a line of plain text: strings as they are (shortened), else JSON."""
    text = value if isinstance(value, str) else quote(value)
    return text if len(text) <= 200 else text[:199] + "…"


def summary_lines(card: dict[str, Any]) -> list[str]:
    """The card as "Field: value" lines for people (plain text; the caller never renders
    it as rich text). Unknown fields are named, not shown."""
    lines = []
    for key in ("name", "title", "version", "description", "websiteUrl"):
        if key in card:
            lines.append(f"{key}: {_text(card[key])}")
    repo = card.get("repository")
    if isinstance(repo, dict) and "url" in repo:
        lines.append(f"repository: {_text(repo.get('url'))}")
    remotes = card.get("remotes")
    for i, remote in enumerate(remotes if isinstance(remotes, list) else []):
        if not isinstance(remote, dict):
            continue
        versions = remote.get("supportedProtocolVersions")
        shown = ", ".join(map(_text, versions)) if isinstance(versions, list) else "(not given)"
        lines.append(f"remote {i + 1}: {_text(remote.get('type'))} {_text(remote.get('url'))}")
        lines.append(f"  protocol versions: {shown}")
        headers = remote.get("headers")
        for header in headers if isinstance(headers, list) else []:
            if isinstance(header, dict):
                secret = " (secret)" if header.get("isSecret") else ""
                lines.append(f"  header: {_text(header.get('name'))}{secret}")
    for kind in ("tools", "prompts", "resources"):
        listed = card.get(kind)
        if isinstance(listed, list):
            lines.append(f"{kind}: {len(listed)} listed (a field of earlier drafts)")
    known = {"$schema", "name", "title", "version", "description", "websiteUrl", "repository"}
    known |= {"remotes", "icons", "_meta", "tools", "prompts", "resources"}
    extra = sorted(k for k in card if k not in known)
    if extra:
        lines.append("other fields: " + ", ".join(_text(k) for k in extra[:10]))
    return lines
