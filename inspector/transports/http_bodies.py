"""What the streamable HTTP transport reads from bodies: the content type, a body read up
to the size limit, and the JSON-RPC facts it must know without interpreting MCP (is this
the response to that request? is it a JSON-RPC error?). Shared by the POST handling and
the SSE streams, which read the same bodies."""

from __future__ import annotations

import json
from typing import Any

import httpx

__all__ = ["answers", "as_text", "content_type", "json_rpc_error", "read_body", "response_id"]


def content_type(response: httpx.Response) -> str:
    value: str = response.headers.get("content-type", "")
    return value.split(";")[0].strip().lower()


async def read_body(response: httpx.Response, limit: int) -> tuple[str | bytes, int, bool]:
    """Read a body up to the size limit: (text or bytes, full size, truncated)."""
    chunks: list[bytes] = []
    kept = 0
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if kept < limit:
            piece = chunk[: limit - kept]
            chunks.append(piece)
            kept += len(piece)
    data = b"".join(chunks)
    try:
        return data.decode("utf-8"), size, size > kept
    except UnicodeDecodeError:
        return data, size, size > kept


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
