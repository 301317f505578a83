"""The loopback redirect listener (RFC 8252 §7.3) for the authorization code flow.

It listens on 127.0.0.1 with a random port (or a given one) only while a login is in
progress, answers only `GET <path>` with a matching Host, only once, checks `state`, then
closes. Any other request gets a 404 and is otherwise ignored. The page it answers with is
plain text, and never echoes what the authorization server sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qs, urlsplit

from inspector.auth.failures import AuthCancelled, RedirectError

__all__ = ["AuthorizationResponse", "LoopbackRedirect", "send_loopback_get"]

log = logging.getLogger(__name__)

_MAX_HEAD: Final = 16 * 1024
_READ_TIMEOUT: Final = 10.0
_OK_PAGE: Final = (
    "Authorization received by MCP Inspector. You can close this window and return to the app."
)
_SINGLE: Final = ("code", "state", "iss", "error", "error_description", "error_uri")


@dataclass(frozen=True, slots=True)
class AuthorizationResponse:
    """The parameters of the redirect (RFC 6749 §4.1.2), state already checked."""

    code: str | None
    state: str | None
    iss: str | None
    error: str | None
    error_description: str | None
    error_uri: str | None


class LoopbackRedirect:
    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, path: str = "/callback") -> None:
        self.host = host
        self.port = port
        self.path = path if path.startswith("/") else "/" + path
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[AuthorizationResponse] | None = None
        self._state: str | None = None
        self.answered = False

    @property
    def redirect_uri(self) -> str:
        return f"http://{self.host}:{self.port}{self.path}"

    async def start(self) -> str:
        """Bind and listen; returns the redirect URI. `OSError` if the port is taken."""
        loop = asyncio.get_running_loop()
        self._result = loop.create_future()
        self._server = await asyncio.start_server(self._handle, self.host, self.port)
        sock = self._server.sockets[0]
        self.port = int(sock.getsockname()[1])
        log.info("redirect listener open on %s", self.redirect_uri)
        return self.redirect_uri

    def expect(self, state: str) -> None:
        self._state = state

    async def wait(self, timeout: float) -> AuthorizationResponse:
        assert self._result is not None, "start() first"
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise RedirectError(
                f"no authorization response arrived within {timeout:g} s "
                "(the browser never came back to the app)"
            ) from None

    def cancel(self, message: str = "the login was cancelled") -> None:
        if self._result is not None and not self._result.done():
            self._result.set_exception(AuthCancelled(message))

    async def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(server.wait_closed(), 2.0)
            log.info("redirect listener closed")
        if self._result is not None and not self._result.done():
            self._result.cancel()

    # ---------------------------------------------------------------- serving
    def _host_ok(self, host_header: str | None) -> bool:
        if host_header is None:
            return False
        return host_header.strip().lower() in (
            f"{self.host}:{self.port}",
            f"localhost:{self.port}",
        )

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _READ_TIMEOUT)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
                return
            if len(head) > _MAX_HEAD:
                await _respond(writer, 431, "Request header too large.")
                return
            lines = head.decode("latin-1").split("\r\n")
            parts = lines[0].split(" ")
            headers = {}
            for line in lines[1:]:
                name, sep, value = line.partition(":")
                if sep:
                    headers[name.strip().lower()] = value.strip()
            if len(parts) != 3 or parts[0] != "GET":
                await _respond(writer, 405 if len(parts) == 3 else 400, "Not supported.")
                return
            target = urlsplit(parts[1])
            if (
                target.path != self.path
                or not self._host_ok(headers.get("host"))
                or self.answered
                or self._result is None
                or self._result.done()
            ):
                await _respond(writer, 404, "Not found.")
                return
            self.answered = True
            outcome = self._parse(target.query)
            if isinstance(outcome, RedirectError):
                await _respond(writer, 400, f"MCP Inspector refused this response: {outcome}")
                self._result.set_exception(outcome)
            else:
                await _respond(writer, 200, _OK_PAGE)
                self._result.set_result(outcome)
            # Answer once, then stop listening.
            if self._server is not None:
                self._server.close()
        except Exception:  # a broken client connection must not break the login
            log.debug("redirect listener: a connection failed", exc_info=True)
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    def _parse(self, query: str) -> AuthorizationResponse | RedirectError:
        params = parse_qs(query, keep_blank_values=True)
        for name in _SINGLE:
            if len(params.get(name, [])) > 1:
                return RedirectError(f"the redirect carried the parameter {name!r} twice")

        def one(name: str) -> str | None:
            values = params.get(name)
            return values[0] if values else None

        state = one("state")
        if self._state is not None and state != self._state:
            return RedirectError(
                "the redirect came back with a different state than this login sent "
                "(it may belong to another login, or be forged): it was discarded"
                if state
                else "the redirect came back without the state this login sent: it was discarded"
            )
        return AuthorizationResponse(
            code=one("code"),
            state=state,
            iss=one("iss"),
            error=one("error"),
            error_description=one("error_description"),
            error_uri=one("error_uri"),
        )


async def _respond(writer: asyncio.StreamWriter, status: int, text: str) -> None:
    reason = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}.get(
        status, "Error"
    )
    body = (text + "\n").encode("utf-8")
    writer.write(
        f"HTTP/1.1 {status} {reason}\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Cache-Control: no-store\r\n"
        "Referrer-Policy: no-referrer\r\n"
        "Connection: close\r\n\r\n".encode("ascii")
        + body
    )
    with contextlib.suppress(Exception):
        await writer.drain()


async def send_loopback_get(url: str, timeout: float = 10.0) -> int:
    """GET a loopback URL over a plain socket (the headless path delivers the redirect to
    our own listener this way, so the authorization code never reaches an HTTP client's
    request log). Returns the status code."""
    parts = urlsplit(url)
    host = parts.hostname or "127.0.0.1"
    port = parts.port or 80
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), timeout)
    try:
        writer.write(
            f"GET {target} HTTP/1.1\r\nHost: {parts.netloc}\r\nConnection: close\r\n\r\n".encode(
                "latin-1"
            )
        )
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), timeout)
        fields = status_line.decode("latin-1").split(" ")
        return int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()
