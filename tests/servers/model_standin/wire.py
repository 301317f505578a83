"""The stand-in's answers in each wire format: a whole JSON reply, or the SSE events of a
stream (text in small deltas, tool arguments in fragments, usage as each API sends it)."""

from __future__ import annotations

import json
from typing import Any

from tests.servers.model_standin.script import Format, Rule, Seen, reply_text, resolve

CREATED = 1_780_000_000  # a fixed time: answers are byte-for-byte deterministic


def _calls(rule: Rule, seen: Seen) -> list[tuple[str, str, str]]:
    """(id, name, arguments as text) of each tool call the rule makes."""
    out = []
    for i, call in enumerate(rule.tool_calls):
        raw = call.raw_arguments
        if raw is None:
            raw = json.dumps(call.arguments if call.arguments is not None else {})
        out.append((f"call_{i + 1}", resolve(call.name, seen.tools), raw))
    return out


def _tokens(body: dict[str, Any], text: str) -> tuple[int, int]:
    return max(1, len(json.dumps(body.get("messages"))) // 4), max(1, len(text) // 4)


def pieces(text: str, size: int = 8) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def whole(fmt: Format, rule: Rule, seen: Seen, body: dict[str, Any]) -> dict[str, Any]:
    text = reply_text(rule, seen)
    calls = _calls(rule, seen)
    tokens_in, tokens_out = _tokens(body, text)
    model = str(body.get("model", "standin"))
    if fmt == "openai":
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if calls:
            message["tool_calls"] = [
                {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
                for i, n, a in calls
            ]
        usage: dict[str, Any] = {
            "prompt_tokens": tokens_in,
            "completion_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        }
        if rule.cost is not None:
            usage["cost"] = rule.cost
        return {
            "id": "chatcmpl-standin",
            "object": "chat.completion",
            "created": CREATED,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": "tool_calls" if calls else "stop",
                }
            ],
            "usage": usage,
        }
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    for i, n, a in calls:
        try:
            arguments = json.loads(a)
        except ValueError:
            arguments = {"_raw": a}  # the real API always sends an object
        content.append({"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": arguments})
    return {
        "id": "msg_standin",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": "tool_use" if calls else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
    }


def _sse(data: Any, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def stream(fmt: Format, rule: Rule, seen: Seen, body: dict[str, Any]) -> list[bytes]:
    """The stream's events, each one chunk (the server may cut or spoil it per the fault)."""
    text = reply_text(rule, seen)
    calls = _calls(rule, seen)
    tokens_in, tokens_out = _tokens(body, text)
    model = str(body.get("model", "standin"))
    if fmt == "openai":
        base = {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": CREATED}
        base["model"] = model

        def chunk(delta: dict[str, Any], finish: str | None = None) -> bytes:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return _sse({**base, "choices": [choice]})

        out = [chunk({"role": "assistant", "content": ""})]
        out += [chunk({"content": p}) for p in pieces(text)]
        for index, (i, n, a) in enumerate(calls):
            start = {"index": index, "id": i, "type": "function"}
            out.append(chunk({"tool_calls": [{**start, "function": {"name": n, "arguments": ""}}]}))
            for fragment in pieces(a, 5):
                call = {"index": index, "function": {"arguments": fragment}}
                out.append(chunk({"tool_calls": [call]}))
        out.append(chunk({}, "tool_calls" if calls else "stop"))
        usage: dict[str, Any] = {"prompt_tokens": tokens_in, "completion_tokens": tokens_out}
        if rule.cost is not None:
            usage["cost"] = rule.cost
        out.append(_sse({**base, "choices": [], "usage": usage}))
        out.append(b"data: [DONE]\n\n")
        return out
    message = {
        "id": "msg_standin",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "usage": {"input_tokens": tokens_in, "output_tokens": 1},
    }
    out = [_sse({"type": "message_start", "message": message}, "message_start")]
    index = 0
    if text:
        block = {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": ""},
        }
        out.append(_sse(block, "content_block_start"))
        out.append(_sse({"type": "ping"}, "ping"))
        for p in pieces(text):
            delta = {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "text_delta", "text": p},
            }
            out.append(_sse(delta, "content_block_delta"))
        out.append(_sse({"type": "content_block_stop", "index": 0}, "content_block_stop"))
        index = 1
    for offset, (i, n, a) in enumerate(calls):
        at = index + offset
        use = {"type": "tool_use", "id": f"toolu_{i}", "name": n, "input": {}}
        start = {"type": "content_block_start", "index": at, "content_block": use}
        out.append(_sse(start, "content_block_start"))
        for fragment in pieces(a, 5):
            delta = {"type": "input_json_delta", "partial_json": fragment}
            out.append(
                _sse(
                    {"type": "content_block_delta", "index": at, "delta": delta},
                    "content_block_delta",
                )
            )
        out.append(_sse({"type": "content_block_stop", "index": at}, "content_block_stop"))
    stop = {"stop_reason": "tool_use" if calls else "end_turn", "stop_sequence": None}
    end = {"type": "message_delta", "delta": stop, "usage": {"output_tokens": tokens_out}}
    out.append(_sse(end, "message_delta"))
    out.append(_sse({"type": "message_stop"}, "message_stop"))
    return out


def error_body(fmt: Format, status: int, message: str) -> dict[str, Any]:
    kinds = {429: "rate_limit_error", 401: "authentication_error", 529: "overloaded_error"}
    kind = kinds.get(status, "api_error" if status >= 500 else "invalid_request_error")
    if fmt == "openai":
        return {"error": {"message": message, "type": kind, "param": None, "code": None}}
    return {"type": "error", "error": {"type": kind, "message": message}}
