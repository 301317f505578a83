"""What the streamable HTTP transport reads from bodies: the content type, a body read up
to the size limit, and the JSON-RPC facts it must know without interpreting MCP (is this
the response to that request? is it a JSON-RPC error?). Shared by the POST handling and
the SSE streams, which read the same bodies."""

from __future__ import annotations

import contextlib
import json
import zlib
from collections.abc import Iterator
from typing import Any, Final

import httpx

__all__ = ["answers", "as_text", "content_type", "json_rpc_error", "read_body", "response_id"]


def content_type(response: httpx.Response) -> str:
    value: str = response.headers.get("content-type", "")
    return value.split(";")[0].strip().lower()


HEAD_BYTES: Final = 64 * 1024  # what is kept of a body over the limit


class _Inflater:
    """gzip or deflate, inflated at most `room` bytes at a time: a small body that
    inflates to gigabytes (a "zip bomb") costs no more than the limit."""

    def __init__(self, encoding: str) -> None:
        self._raw_fallback = encoding == "deflate"  # servers send zlib or raw deflate
        self._d = zlib.decompressobj(47 if encoding == "deflate" else 31)  # 47: zlib|gzip
        self._started = False

    def inflate(self, data: bytes, room: int) -> bytes:
        """Up to `room` bytes of what `data` (and what is left of earlier data) inflates to."""
        try:
            out = self._d.decompress(self._d.unconsumed_tail + data, room)
        except zlib.error:
            if not self._raw_fallback or self._started:
                raise
            self._d = zlib.decompressobj(-zlib.MAX_WBITS)
            out = self._d.decompress(data, room)
        self._started = True
        return out

    def pieces(self, data: bytes, step: int = 1024 * 1024) -> Iterator[bytes]:
        """What `data` inflates to, `step` bytes at a time (the caller stops when it has
        enough: the rest is never inflated)."""
        yield self.inflate(data, step)
        while self._d.unconsumed_tail:
            yield self.inflate(b"", step)


async def read_body(response: httpx.Response, limit: int) -> tuple[str | bytes, int, bool]:
    """Read a body up to the size limit: (text or bytes, size, truncated).

    Reading stops at the limit (a compressed body is never inflated beyond it): a
    truncated body keeps its first 64 KiB, and `size` is what was read, a lower bound."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    inflater = _Inflater(encoding) if encoding in ("gzip", "x-gzip", "deflate") else None
    chunks: list[bytes] = []
    kept = 0
    over = False
    stream = response.aiter_raw() if inflater is not None else response.aiter_bytes()
    try:
        async for chunk in stream:
            for piece in inflater.pieces(chunk) if inflater else (chunk,):
                chunks.append(piece[: limit + 1 - kept] if kept + len(piece) > limit else piece)
                kept += len(chunks[-1])
                if kept > limit:
                    over = True
                    break
            if over:
                break
    except zlib.error as exc:
        raise httpx.DecodingError(f"the {encoding} body cannot be inflated: {exc}") from exc
    if over:  # only the head is joined: no second copy of a body the size of the limit
        head: list[bytes] = []
        for chunk in chunks:
            head.append(chunk)
            if sum(map(len, head)) >= HEAD_BYTES:
                break
        chunks = head
    data = b"".join(chunks)
    if over:
        data = data[:HEAD_BYTES]
    # A cut may split a character at the end: only bytes before it count as invalid.
    for cut in range(4 if over else 1):
        with contextlib.suppress(UnicodeDecodeError):
            return data[: len(data) - cut].decode("utf-8"), kept, over
    return data, kept, over


def as_text(body: str | bytes) -> str:
    """A body as text for a note (undecodable bytes replaced)."""
    return body if isinstance(body, str) else body.decode("utf-8", "replace")


def json_rpc_error(body: str) -> tuple[dict[str, Any] | None, str | int | None]:
    """(the error object, its id) when the body is a JSON-RPC error response."""
    try:
        value = json.loads(body)
    except ValueError:
        return None, None
    if isinstance(value, dict) and isinstance(value.get("error"), dict):
        rid = value.get("id")
        usable = rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None
        return value["error"], usable
    return None, None


def response_id(data: str | bytes) -> str | int | None:
    """The id of a JSON-RPC response (result or error), else None."""
    if isinstance(data, bytes):
        data = data.decode("utf-8", "replace")
    if '"id"' not in data:
        return None
    try:
        value = json.loads(data)
    except ValueError:
        return None
    if not isinstance(value, dict) or not ("result" in value or "error" in value):
        return None
    rid = value.get("id")
    return rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None


def answers(data: str | bytes, wire_id: str | int) -> bool:
    """Is this the response to the request sent with `wire_id` (same value, same type)?"""
    rid = response_id(data)
    return rid is not None and rid == wire_id and type(rid) is type(wire_id)
