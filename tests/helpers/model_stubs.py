"""Loopback model providers of our own: an OpenAI-compatible chat completions endpoint and the
Anthropic Messages API, speaking each wire format faithfully.

No real model is reachable from the test machines, so these stand in for them. Each one
validates a request the way the real API does (a request the real API would reject gets the
same status and error shape back), records what it received, and answers from a script:
a text reply (by default one that quotes the last user text), a tool call, an HTTP error
with headers (429 + retry-after, 401, 529), a garbage body, or a delay first.

Run in a thread (`ThreadingHTTPServer`), so a subprocess (the CLI) and an in-process
session can both reach it on 127.0.0.1.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Kind = Literal["openai", "anthropic"]

OPENAI_ROLES = {"system", "developer", "user", "assistant", "tool"}
OPENAI_PARTS = {"text", "image_url", "input_audio", "file"}
ANTHROPIC_BLOCKS = {"text", "image", "document", "tool_use", "tool_result", "thinking"}


@dataclass
class Reply:
    """One scripted answer. `text=None` quotes the last user text."""

    text: str | None = None
    tool_call: tuple[str, dict[str, Any]] | None = None  # (name, arguments)
    status: int = 200
    error: str = ""  # the error message of a non-200 answer
    headers: dict[str, str] = field(default_factory=dict)
    garbage: bytes | None = None  # a body that is not the API's JSON
    delay: float = 0.0
    stop: str | None = None  # the provider's finish/stop reason, raw


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: Any


class ModelStub:
    def __init__(
        self,
        kind: Kind,
        *,
        models: dict[str, int] | None = None,
        key: str | None = None,
    ) -> None:
        """`models`: the names the endpoint serves and their output-token limit.
        `key`: the API key it accepts (None: none needed, as a local server)."""
        self.kind = kind
        self.models = models or {"stub-small": 4096, "stub-large": 8192}
        self.key = key
        self.script: list[Reply] = []
        self.received: list[Received] = []
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """What a user types: OpenAI-compatible servers are addressed with `/v1`."""
        root = f"http://127.0.0.1:{self.port}"
        return root + "/v1" if self.kind == "openai" else root

    def start(self) -> ModelStub:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    # ------------------------------------------------------------ answering
    def answer(
        self, path: str, headers: dict[str, str], raw: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        try:
            body = json.loads(raw)
        except ValueError:
            self.received.append(Received(path, headers, raw.decode("utf-8", "replace")))
            return self._error(400, "invalid_request_error", "request body is not valid JSON")
        self.received.append(Received(path, headers, body))
        if self.kind == "openai":
            problem = self._check_openai(path, headers, body)
        else:
            problem = self._check_anthropic(path, headers, body)
        if problem is not None:
            return problem
        reply = self.script.pop(0) if self.script else Reply()
        if reply.delay:
            time.sleep(reply.delay)
        if reply.garbage is not None:
            return 200, {"content-type": "application/json", **reply.headers}, reply.garbage
        if reply.status != 200:
            kinds = {429: "rate_limit_error", 401: "authentication_error", 529: "overloaded_error"}
            status, head, data = self._error(
                reply.status, kinds.get(reply.status, "api_error"), reply.error or "stub error"
            )
            return status, {**head, **reply.headers}, data
        text = reply.text if reply.text is not None else f"Stub says: {_last_user_text(body)}"
        make = self._openai_reply if self.kind == "openai" else self._anthropic_reply
        return (
            200,
            {"content-type": "application/json"},
            json.dumps(make(body, text, reply)).encode(),
        )

    def _error(self, status: int, kind: str, message: str) -> tuple[int, dict[str, str], bytes]:
        if self.kind == "openai":
            data: dict[str, Any] = {
                "error": {"message": message, "type": kind, "param": None, "code": None}
            }
        else:
            data = {"type": "error", "error": {"type": kind, "message": message}}
        return status, {"content-type": "application/json"}, json.dumps(data).encode()

    # ------------------------------------------------------------ OpenAI
    def _check_openai(
        self, path: str, headers: dict[str, str], body: Any
    ) -> tuple[int, dict[str, str], bytes] | None:
        if path != "/v1/chat/completions":
            return self._error(404, "invalid_request_error", f"Unknown request URL: POST {path}")
        if self.key is not None:
            auth = headers.get("authorization", "")
            if auth != f"Bearer {self.key}":
                return self._error(401, "invalid_request_error", "Incorrect API key provided")
        bad = lambda m: self._error(400, "invalid_request_error", m)  # noqa: E731
        if not isinstance(body, dict):
            return bad("body must be an object")
        model = body.get("model")
        if not isinstance(model, str):
            return bad("you must provide a model parameter")
        if model not in self.models:
            return self._error(404, "invalid_request_error", f"The model `{model}` does not exist")
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return bad("'messages' must be a non-empty array")
        for i, message in enumerate(messages):
            if not isinstance(message, dict) or message.get("role") not in OPENAI_ROLES:
                return bad(f"messages[{i}]: invalid role")
            content = message.get("content")
            if message["role"] == "tool" and not isinstance(message.get("tool_call_id"), str):
                return bad(f"messages[{i}]: tool messages need tool_call_id")
            if content is None and not message.get("tool_calls"):
                return bad(f"messages[{i}]: content is required")
            if isinstance(content, list):
                for part in content:
                    if not isinstance(part, dict) or part.get("type") not in OPENAI_PARTS:
                        return bad(f"messages[{i}].content: invalid part type")
            elif content is not None and not isinstance(content, str):
                return bad(f"messages[{i}].content must be a string or an array")
        limit = self.models[model]
        for key in ("max_tokens", "max_completion_tokens"):
            value = body.get(key)
            if value is not None and (not isinstance(value, int) or value < 1):
                return bad(f"{key} must be a positive integer")
            if isinstance(value, int) and value > limit:
                return bad(
                    f"max_tokens is too large: {value}. This model supports at most "
                    f"{limit} completion tokens"
                )
        temperature = body.get("temperature")
        if temperature is not None and not (
            isinstance(temperature, int | float) and 0 <= temperature <= 2
        ):
            return bad("temperature must be between 0 and 2")
        stop = body.get("stop")
        if stop is not None and not (
            isinstance(stop, str) or (isinstance(stop, list) and len(stop) <= 4)
        ):
            return bad("stop: at most 4 sequences")
        tools = body.get("tools")
        if tools is not None:
            for tool in tools:
                fn = tool.get("function") if isinstance(tool, dict) else None
                if tool.get("type") != "function" or not isinstance(fn, dict) or not fn.get("name"):
                    return bad("tools: each needs type function and a function name")
        choice = body.get("tool_choice")
        if (
            choice is not None
            and choice not in ("none", "auto", "required")
            and not (isinstance(choice, dict) and choice.get("type") == "function")
        ):
            return bad("tool_choice is invalid")
        return None

    def _openai_reply(self, body: dict[str, Any], text: str, reply: Reply) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
        finish = reply.stop or "stop"
        if reply.tool_call is not None:
            name, args = reply.tool_call
            message = {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_stub1",
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps(args)},
                    }
                ],
            }
            finish = reply.stop or "tool_calls"
        return {
            "id": "chatcmpl-stub",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body["model"] + "-2026-01-01",
            "choices": [
                {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
            ],
            "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
        }

    # ------------------------------------------------------------ Anthropic
    def _check_anthropic(
        self, path: str, headers: dict[str, str], body: Any
    ) -> tuple[int, dict[str, str], bytes] | None:
        if path != "/v1/messages":
            return self._error(404, "not_found_error", f"Not found: {path}")
        # The API takes the key as x-api-key, or (as the 2.x SDK sends it) a bearer token.
        if self.key is not None and self.key not in (
            headers.get("x-api-key"),
            headers.get("authorization", "").removeprefix("Bearer "),
        ):
            return self._error(401, "authentication_error", "invalid x-api-key")
        if not headers.get("anthropic-version"):
            return self._error(400, "invalid_request_error", "anthropic-version header is required")
        bad = lambda m: self._error(400, "invalid_request_error", m)  # noqa: E731
        if not isinstance(body, dict):
            return bad("body must be an object")
        model = body.get("model")
        if not isinstance(model, str):
            return bad("model: Field required")
        if model not in self.models:
            return self._error(404, "not_found_error", f"model: {model}")
        max_tokens = body.get("max_tokens")
        if not isinstance(max_tokens, int) or max_tokens < 1:
            return bad("max_tokens: Field required")
        if max_tokens > self.models[model]:
            return bad(
                f"max_tokens: {max_tokens} > {self.models[model]}, which is the maximum "
                f"allowed number of output tokens for {model}"
            )
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return bad("messages: at least one message is required")
        for i, message in enumerate(messages):
            if not isinstance(message, dict) or message.get("role") not in ("user", "assistant"):
                return bad(f"messages.{i}.role: Input should be 'user' or 'assistant'")
            content = message.get("content")
            if isinstance(content, list):
                for block in content:
                    if not isinstance(block, dict) or block.get("type") not in ANTHROPIC_BLOCKS:
                        return bad(f"messages.{i}.content: unknown block type")
            elif not isinstance(content, str):
                return bad(f"messages.{i}.content: Input should be a string or a list")
        system = body.get("system")
        if system is not None and not isinstance(system, str | list):
            return bad("system: Input should be a string or a list")
        temperature = body.get("temperature")
        if temperature is not None and not (
            isinstance(temperature, int | float) and 0 <= temperature <= 1
        ):
            return bad("temperature: Input should be less than or equal to 1")
        stops = body.get("stop_sequences")
        if stops is not None and not (
            isinstance(stops, list) and all(isinstance(s, str) for s in stops)
        ):
            return bad("stop_sequences: Input should be a list of strings")
        for tool in body.get("tools") or []:
            if not isinstance(tool, dict) or not tool.get("name") or "input_schema" not in tool:
                return bad("tools: each needs a name and an input_schema")
        choice = body.get("tool_choice")
        if choice is not None and (
            not isinstance(choice, dict)
            or choice.get("type") not in ("auto", "any", "tool", "none")
        ):
            return bad("tool_choice: invalid type")
        return None

    def _anthropic_reply(self, body: dict[str, Any], text: str, reply: Reply) -> dict[str, Any]:
        content: list[dict[str, Any]] = [{"type": "text", "text": text}]
        stop = reply.stop or "end_turn"
        if reply.tool_call is not None:
            name, args = reply.tool_call
            content = [{"type": "tool_use", "id": "toolu_stub1", "name": name, "input": args}]
            stop = reply.stop or "tool_use"
        return {
            "id": "msg_stub",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": content,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 13, "output_tokens": 5},
        }


def _last_user_text(body: Any) -> str:
    for message in reversed(body.get("messages", [])):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        for part in content or []:
            if isinstance(part, dict) and part.get("type") == "text":
                return str(part.get("text"))
    return "(no user text)"


def _handler(stub: ModelStub) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length)
            headers = {k.lower(): v for k, v in self.headers.items()}
            status, head, data = stub.answer(self.path, headers, raw)
            try:
                self.send_response(status)
                for key, value in head.items():
                    self.send_header(key, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            return

    return Handler


@contextmanager
def model_stub(kind: Kind, **kwargs: Any) -> Iterator[ModelStub]:
    stub = ModelStub(kind, **kwargs).start()
    try:
        yield stub
    finally:
        stub.close()


def serve_forever_cli() -> None:  # pragma: no cover - a manual aid for screenshots
    """`python -m tests.helpers.model_stubs openai|anthropic PORT`: a stub to point the app at."""
    import sys

    kind: Kind = "anthropic" if sys.argv[1:2] == ["anthropic"] else "openai"
    stub = ModelStub(kind)
    stub._server.server_close()
    stub._server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])), _handler(stub))
    stub._server.serve_forever()


if __name__ == "__main__":  # pragma: no cover
    serve_forever_cli()
