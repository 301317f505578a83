"""What the driver makes of a received frame before the log shows it: an oversized frame's
id recovered from its head, and the note an event puts on the frame that caused it."""

from __future__ import annotations

import json
import re

from inspector.protocol.machine.events import (
    Event,
    LateResponse,
    ProtocolViolation,
    UnmatchedResponse,
)
from inspector.protocol.wire.json_text import split_array
from inspector.protocol.wire.jsonrpc import Invalid, RequestId
from inspector.protocol.wire.versions import features, is_supported
from inspector.transports.base import FrameReceived

__all__ = [
    "REINIT_ONCE",
    "REINIT_REFUSED",
    "batch_members",
    "frame_note",
    "oversized",
    "typed_wire",
]

# What the log says when the server lost the session (HTTP 404) and the driver starts one.
REINIT_ONCE = (
    "re-initializing once: a new initialize without a session id (spec: the client MUST "
    "start a new session after HTTP 404)"
)
REINIT_REFUSED = (
    "the server lost the new session too: not re-initializing again (once per request; "
    "reconnect to start over)"
)

# The start of a response: {"jsonrpc":"2.0","id":ID,"result"|"error" (either key order).
_RESPONSE_HEAD = re.compile(
    rb'\A\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")'
    rb'\s*,\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"(?:result|error)"\s*:'
)


def oversized(event: FrameReceived) -> Invalid:
    """A frame over the size limit, of which only the head was kept.

    When the head shows it is a response, keep its id (and a stand-in value without a
    method) so the connection fails the request it answers now, instead of at its timeout.
    """
    reason = (
        f"an HTTP response of more than {event.size - 1:,} bytes exceeds the size limit "
        "(reading stopped there); only its head was kept"
        if event.size_unknown
        else f"frame of {event.size:,} bytes exceeds the size limit; only its head was kept"
    )
    head = event.raw if isinstance(event.raw, bytes) else event.raw.encode("utf-8", "replace")
    match = _RESPONSE_HEAD.match(head)
    if match is None:
        return Invalid(event.raw, reason)
    try:
        msg_id: RequestId = json.loads(match.group(1))  # an integer or a string, by the pattern
    except ValueError:  # e.g. a bad escape in a string id
        return Invalid(event.raw, reason)
    return Invalid(event.raw, reason, id=msg_id, value={"jsonrpc": "2.0", "id": msg_id})


def frame_note(event: Event) -> str | None:
    """What the traffic log should say about the frame that caused `event`."""
    if isinstance(event, UnmatchedResponse | ProtocolViolation):
        return event.message
    if isinstance(event, LateResponse):
        return f"late response to {event.method} (given up: {event.why_given_up})"
    return None


def batch_members(
    event: FrameReceived, frame: Invalid, version: str | None
) -> tuple[list[tuple[FrameReceived, str]], ProtocolViolation | None] | None:
    """A JSON-RPC batch split into its members: each with its exact text (so the log shows
    what was sent) and a note saying it came in a batch; and the violation, when the
    agreed version has no batches (only 2025-03-26 has them). None: not a batch to split
    (empty, cut, not UTF-8)."""
    if event.truncated or not isinstance(event.raw, str) or not isinstance(frame.value, list):
        return None
    members = split_array(event.raw)
    if not members:
        return None
    count = len(members)
    split = [
        (
            FrameReceived(
                text,
                len(text.encode("utf-8", "surrogatepass")),
                http=event.http,
                sse_event_id=event.sse_event_id,
            ),
            f"message {n} of {count} in one JSON-RPC batch",
        )
        for n, text in enumerate(members, 1)
    ]
    allowed = version is not None and is_supported(version) and features(version).json_rpc_batches
    violation = None
    if not allowed:
        violation = ProtocolViolation(
            "batch",
            f"the server sent a JSON-RPC batch of {count} messages; batches exist only in "
            f"protocol 2025-03-26 (this session: {version or 'not agreed yet'}); each "
            "message handled on its own",
        )
    return split, violation


def typed_wire(text: str) -> str:
    """A message typed by hand as the one line sent: valid JSON compacted (stdio frames are
    lines); invalid text as typed with its line breaks replaced by spaces, so servers'
    parse errors can be tested."""
    try:
        return json.dumps(json.loads(text), ensure_ascii=False, separators=(",", ":"))
    except ValueError:
        return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ")
