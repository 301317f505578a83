"""The session file format (docs/session-format.md): JSON Lines, one object per line.

Line 1 is the header; every later line is one event: a frame in or out (raw text kept
verbatim; bytes that are not UTF-8 as base64 with a flag), a stderr line, an HTTP
exchange, a note, the handshake outcome, or a user action worth knowing.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, unquote_plus, urlsplit

from inspector import __version__
from inspector.protocol.wire.jsonrpc import ErrorResponse, Notification, Request, Response
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import HttpExchange

if TYPE_CHECKING:
    from inspector.protocol.machine.events import SessionReady

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "REDACTED",
    "Redactor",
    "connection_summary",
    "header_line",
    "ready_line",
    "record_line",
    "url_secrets",
]

FORMAT_NAME: Final = "mcp-inspector-session"
FORMAT_VERSION: Final = 1
REDACTED: Final = "•••redacted•••"


class Redactor:
    """Replaces every known secret value wherever it would be written.

    A secret is matched as given and as it appears inside JSON text (escaped, with or
    without \\uXXXX escapes), since raw frames are JSON and may echo it. Redaction works on
    string values (and keys) before serialization, so it never breaks the JSON of a line,
    and on the bytes of frames that are not UTF-8.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: list[str] = []
        self._forms: list[str] = []
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str) -> None:
        if len(secret) < 4 or secret in self._secrets:
            return
        self._secrets.append(secret)
        forms = {secret}
        for ascii_only in (False, True):
            forms.add(json.dumps(secret, ensure_ascii=ascii_only)[1:-1])
        # Longest first, so a secret that contains another is replaced whole.
        self._forms = sorted(set(self._forms) | forms, key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._forms)

    def text(self, value: str) -> str:
        for form in self._forms:
            if form in value:
                value = value.replace(form, REDACTED)
        return value

    def redact_bytes(self, value: bytes) -> bytes:
        for form in self._forms:
            encoded = form.encode("utf-8")
            if encoded in value:
                value = value.replace(encoded, REDACTED.encode("utf-8"))
        return value

    @property
    def active(self) -> bool:
        """False when there is nothing to redact (the writer's fast path applies)."""
        return bool(self._forms)

    def deep(self, value: Any) -> Any:
        if not self._forms:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(k)): self.deep(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.deep(v) for v in value]
        return value


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def connection_summary(
    *,
    transport: str,
    command: str | None = None,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    secret_env: Iterable[str] = (),
    cwd: str | None = None,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    name: str | None = None,
) -> dict[str, Any]:
    """The connection profile as recorded: env values only when not secret, header names
    only (header values may carry credentials)."""
    secret = {k.lower() for k in secret_env}
    out: dict[str, Any] = {"transport": transport}
    if name:
        out["name"] = name
    if command is not None:
        out["command"] = command
        out["args"] = list(args)
        out["env"] = {
            k: (REDACTED if k.lower() in secret or _looks_secret(k) else v)
            for k, v in (env or {}).items()
        }
        out["cwd"] = cwd
    if url is not None:
        out["url"] = _redact_url(url)
        out["header_names"] = sorted((headers or {}).keys())
    return out


def url_secrets(url: str | None) -> list[str]:
    """The secret parts of a URL: a password, and query values whose names look secret
    (`?api_key=...`, `?token=...`). The recorder's Redactor replaces them everywhere."""
    if not url:
        return []
    parts = urlsplit(url)
    found = [parts.password] if parts.password else []
    found += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if _looks_secret(k)]
    # ... and as written in the URL, percent-encoded
    for pair in parts.query.split("&"):
        name, _, value = pair.partition("=")
        if _looks_secret(unquote_plus(name)):
            found.append(value)
    return [v for v in dict.fromkeys(found) if v]


def _redact_url(url: str) -> str:
    redactor = Redactor(url_secrets(url))
    return redactor.text(url) if redactor else url


def _looks_secret(name: str) -> bool:
    low = name.lower()
    return any(h in low for h in ("token", "secret", "password", "key", "auth", "credential"))


def header_line(
    connection: dict[str, Any],
    *,
    era: str,
    client_info: dict[str, Any],
    client_capabilities: dict[str, Any],
    protocol_version: str | None = None,
) -> dict[str, Any]:
    return {
        "type": "header",
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "app_version": __version__,
        "created": _now_iso(),
        "connection": connection,
        "era": era,
        "protocol_version": protocol_version,
        "client_info": client_info,
        "client_capabilities": client_capabilities,
    }


def ready_line(ready: SessionReady) -> dict[str, Any]:
    """The `ready` line: what the handshake agreed (docs/session-format.md)."""
    return {
        "type": "ready",
        "era": str(ready.era),
        "protocol_version": ready.protocol_version,
        "server_info": ready.server_info,
        "capabilities": ready.capabilities,
        "instructions": ready.instructions,
        "result": ready.result,
    }


def _raw_fields(raw: str | bytes, redactor: Redactor | None = None) -> dict[str, Any]:
    if isinstance(raw, bytes):
        if redactor:
            raw = redactor.redact_bytes(raw)
        return {"b64": base64.b64encode(raw).decode("ascii"), "invalid_utf8": True}
    return {"text": raw}


def _http_fields(exchange: HttpExchange) -> dict[str, Any]:
    return {k: v for k, v in asdict(exchange).items() if v not in (None, {}, "")}


_LINE_TYPES: Final = {"stderr": "stderr", "http": "http", "note": "note", "model": "model"}


_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_encode_text = json.encoder.encode_basestring  # what _dumps does for a str, without its wrapper


def plain_frame_line(record: TrafficRecord, t0: float) -> str | None:
    """The serialized line of a plain frame (text, no HTTP, no note, not truncated), built
    without an intermediate dict: the recorder's hot path under a message flood. None when
    the record needs the general `record_line`."""
    return plain_frame_lines([record], t0)[0]


# The constant middle of a plain frame's line, by (transport, direction, kind, method).
_TAILS: dict[tuple[str, str, str, str | None], str] = {}


def plain_frame_lines(records: Sequence[TrafficRecord], t0: float) -> list[str | None]:
    """`plain_frame_line` of each record, for a batch: frames that arrived together share
    their timestamps, so those are formatted once per run of equal ones, and their
    constant middle (transport, direction, kind, method) once per run of equal ones."""
    out: list[str | None] = []
    append = out.append
    last_mono = last_wall = math.nan
    stamp = ""
    last: tuple[str, str, str, str | None] | None = None
    tail = ""
    for record in records:
        raw = record.raw
        if (
            type(raw) is not str
            or record.kind in _LINE_TYPES
            or record.http is not None
            or record.note
            or record.truncated
            or record.sse_event_id is not None
        ):
            append(None)
            continue
        if record.mono != last_mono or record.wall != last_wall:
            last_mono, last_wall = record.mono, record.wall
            stamp = (
                f'{{"type":"frame","t":{round(last_mono - t0, 6)!r},"wall":{round(last_wall, 6)!r},'
            )
        frame = record.frame
        kind_of_frame = type(frame)
        msg_id: object = None
        if kind_of_frame is Notification:  # the flood's frame first
            method: str | None = frame.method  # type: ignore[union-attr]
        elif kind_of_frame is Request:
            method = frame.method  # type: ignore[union-attr]
            msg_id = frame.id  # type: ignore[union-attr]
        else:
            method = None
            if kind_of_frame is Response or kind_of_frame is ErrorResponse:
                msg_id = frame.id  # type: ignore[union-attr]
        if (
            last is None
            or method != last[3]
            or record.kind != last[2]
            or record.direction != last[1]
            or record.transport != last[0]
        ):
            last = (record.transport, record.direction, record.kind, method)
            tail = _tail(last)
        if type(msg_id) is int or type(msg_id) is str:
            append(f'{stamp}{tail}"id":{_dumps(msg_id)},"text":{_encode_text(raw)}}}')
        else:
            append(f'{stamp}{tail}"text":{_encode_text(raw)}}}')
    return out


def _tail(key: tuple[str, str, str, str | None]) -> str:
    """The constant middle of a plain frame's line (cached by its key)."""
    tail = _TAILS.get(key)
    if tail is None:
        method = key[3]
        named = f'"method":{_dumps(method)},' if isinstance(method, str) else ""
        tail = _TAILS[key] = (
            f'"transport":{_dumps(key[0])},"dir":{_dumps(key[1])},"kind":{_dumps(key[2])},{named}'
        )
    return tail


# Frames whose method and id a line repeats (`method`, `id`): an index of the file reads
# them without parsing the text (recording/index). Invalid frames are left to the text.
_HAS_METHOD: Final = frozenset({Request, Notification})
_HAS_ID: Final = frozenset({Request, Response, ErrorResponse})


def _id_of(frame: object) -> int | str | None:
    if type(frame) not in _HAS_ID:
        return None
    msg_id = getattr(frame, "id", None)
    if type(msg_id) is int or type(msg_id) is str:
        return msg_id
    return None


def record_line(
    record: TrafficRecord,
    t0: float,
    *,
    xid: int | None = None,
    redactor: Redactor | None = None,
) -> dict[str, Any]:
    """One traffic record as a line. `t0` is the session's monotonic start; `xid` numbers
    the HTTP exchange of an `http` line, or of the exchange that carried a frame, so the two
    can be linked (HAR export). String values are redacted by the writer, bytes here."""
    line: dict[str, Any] = {
        "type": _LINE_TYPES.get(record.kind, "frame"),
        "t": round(record.mono - t0, 6),
        "wall": round(record.wall, 6),
        "transport": record.transport,
    }
    if line["type"] == "frame":
        line["dir"] = record.direction
        line["kind"] = record.kind
        frame = record.frame
        if type(frame) in _HAS_METHOD:
            line["method"] = frame.method  # type: ignore[union-attr]
        msg_id = _id_of(frame)
        if msg_id is not None:
            line["id"] = msg_id
        if record.truncated:
            line["truncated"] = True
            line["size"] = record.size
        if record.sse_event_id is not None:
            line["sse_id"] = record.sse_event_id
        if record.http is not None:
            via = record.http
            line["via"] = {"method": via.method, "url": via.url, "status": via.status}
            if xid is not None:
                line["via"]["xid"] = xid
    elif line["type"] == "model":
        line["dir"] = record.direction
    elif line["type"] == "stderr" and record.truncated:
        line["truncated"] = True  # an over-long stderr line: only its head was kept
    if record.note:
        line["note"] = record.note
    if record.http is not None and line["type"] == "http":
        if xid is not None:
            line["xid"] = xid
        line["exchange"] = _http_fields(record.http)
    else:
        line.update(_raw_fields(record.raw, redactor))
    return line
