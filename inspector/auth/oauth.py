"""MCP authorization (OAuth 2.1) as an `httpx.Auth`, following the spec's authorization
pages (2025-06-18, 2025-11-25, 2026-07-28).

One `OAuth` object serves one MCP server URL. Give it to the HTTP transport
(`http_transport(url, auth=OAuth(url, ...))`); every request then carries the access
token, and the flow runs when the server asks:

* **401**: discovery (the `resource_metadata` of `WWW-Authenticate`, else the RFC 9728
  well-known locations, path variant then root; the resource must name this server), then
  the authorization server metadata (RFC 8414 / OpenID Connect discovery, in the spec's
  order, with the `issuer` checked); a refresh if a refresh token exists, else a login.
  With no protected resource metadata at all, the 2025-03-26 behaviour (metadata or
  default endpoints at the server's origin).
* **Login**: client registration in the spec's preference order (pre-registered, Client
  ID Metadata Document, Dynamic Client Registration with `application_type`), then the
  authorization code flow with PKCE S256, `state`, `resource` (RFC 8707) and the selected
  scope, through a loopback redirect listener; the `iss` of the response is checked
  (RFC 9207); then the token request with the client authentication the AS supports
  (client_secret_basic, client_secret_post, none, private_key_jwt). Or the
  client_credentials / jwt_bearer grant when the settings say so.
* **403 insufficient_scope**: step-up with the union of the scopes asked so far and the
  challenged ones, a bounded number of times.
* **Expiry**: refresh shortly before; a failed refresh means a new login.
* **DPoP** (RFC 9449) when the AS advertises it: proofs at the token endpoint and on every
  MCP request, nonces honoured.

Tokens and dynamic registrations live in the keyring (`AuthStore`), keyed by issuer and
resource. Every step is reported to the listeners as a redacted `AuthEvent`, and a
step-through hook, if given, is awaited before each step.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Generator
from typing import Any, Final

import httpx

from inspector.auth.failures import AuthError
from inspector.auth.flow.browser import Opener, cli_opener
from inspector.auth.flow.challenge import ChallengeInfo, challenge_info
from inspector.auth.flow.context import FlowContext
from inspector.auth.flow.data import (
    ClientInfo,
    OAuthSettings,
    ProtectedResource,
    ServerMetadata,
    TokenSet,
)
from inspector.auth.flow.discovery import Discovery
from inspector.auth.flow.events import AuthListener, AuthRedactor, StepHook
from inspector.auth.flow.grants import Grants
from inspector.auth.flow.pkce import pkce_pair
from inspector.auth.flow.registration import Registration
from inspector.auth.flow.scopes import select_scope, union_scopes
from inspector.auth.flow.stored_tokens import StoredTokens
from inspector.auth.flow.token_endpoint import TokenEndpoint
from inspector.auth.store import AuthStore
from inspector.common.listeners import Unsubscribe

# pkce_pair, select_scope and union_scopes are re-exported: callers and tests have always
# found them here.
__all__ = ["OAuth", "pkce_pair", "select_scope", "union_scopes"]

_LOGIN_COOLDOWN: Final = 30.0  # seconds before a failed login is tried again by itself


class OAuth(httpx.Auth):
    """The MCP OAuth client for one server URL. Use with an `httpx.AsyncClient`.

    It composes the steps of the flow, each an object of its own sharing one
    `FlowContext`: `Discovery`, `Registration`, `TokenEndpoint` and `Grants`, with
    `StoredTokens` for the keyring. What stays here is deciding, per request, when to
    renew the token, log in, or step up.
    """

    requires_request_body = True
    requires_response_body = False

    def __init__(
        self,
        server_url: str,
        settings: OAuthSettings | None = None,
        *,
        store: AuthStore | None = None,
        opener: Opener | None = None,
        listener: AuthListener | None = None,
        step_hook: StepHook | None = None,
        http_transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        context = FlowContext(
            server_url,
            settings or OAuthSettings(),
            store=store or AuthStore(),
            opener=opener or cli_opener(),
            step_hook=step_hook,
            http_transport=http_transport,
        )
        if listener is not None:
            context.listeners.add(listener)
        self._context = context
        self._stored = StoredTokens(context)
        self._discovery = Discovery(context)
        self._registration = Registration(context)
        self._token_endpoint = TokenEndpoint(context, self._registration, self._stored)
        self._grants = Grants(context, self._registration, self._token_endpoint)
        self._futile_scopes: set[frozenset[str]] = set()
        self._login_failure: tuple[float, AuthError] | None = None

    # ---------------------------------------------------------------- what it was given
    @property
    def server_url(self) -> str:
        return self._context.server_url

    @property
    def server_key(self) -> str:
        """The canonical resource URI of the server, the key of its keyring entries."""
        return self._context.server_key

    @property
    def settings(self) -> OAuthSettings:
        return self._context.settings

    @property
    def store(self) -> AuthStore:
        return self._context.store

    @property
    def opener(self) -> Opener:
        """Opens the authorization URL (replaceable: the GUI sets its own)."""
        return self._context.opener

    @opener.setter
    def opener(self, opener: Opener) -> None:
        self._context.opener = opener

    @property
    def step_hook(self) -> StepHook | None:
        return self._context.step_hook

    @step_hook.setter
    def step_hook(self, hook: StepHook | None) -> None:
        self._context.step_hook = hook

    @property
    def http_transport(self) -> httpx.AsyncBaseTransport | None:
        return self._context.http_transport

    @http_transport.setter
    def http_transport(self, transport: httpx.AsyncBaseTransport | None) -> None:
        self._context.http_transport = transport

    @property
    def redactor(self) -> AuthRedactor:
        """Removes every secret the flow has seen (callers redact their own messages too)."""
        return self._context.redactor

    def add_secret(self, value: str | None) -> None:
        """Another value to keep out of events and logs (e.g. an ID token)."""
        self._context.redactor.add(value)

    def add_listener(self, listener: AuthListener) -> Unsubscribe:
        return self._context.listeners.add(listener)

    def remove_listener(self, listener: AuthListener) -> None:
        self._context.listeners.remove(listener)

    # ---------------------------------------------------------------- what it found
    @property
    def prm(self) -> ProtectedResource | None:
        """The server's protected resource metadata (None before discovery, or none found)."""
        return self._discovery.prm

    @property
    def metadata(self) -> ServerMetadata | None:
        return self._discovery.metadata

    @property
    def client(self) -> ClientInfo | None:
        return self._registration.client

    @property
    def tokens(self) -> TokenSet | None:
        return self._context.tokens

    @property
    def resource(self) -> str:
        """The resource tokens are asked for (RFC 8707): the PRM's, else the server URL."""
        return self._context.resource

    @property
    def requested_scope(self) -> str | None:
        return self._context.requested_scope

    @property
    def logged_in(self) -> bool:
        self._stored.load_once()
        return self._context.tokens is not None

    # ---------------------------------------------------------------- the flow
    async def login(
        self,
        *,
        scope: str | None = None,
        resource_metadata: str | None = None,
        challenge_scope: str | None = None,
    ) -> TokenSet:
        """Log in now, without waiting for the server to ask (the GUI's "Log in", the
        CLI before connecting). Discovery uses the well-known locations, after the
        `resource_metadata` URL and with the `challenge_scope` of a 401 the caller saw
        (the GUI asks the server once without a token first)."""
        async with self._context.lock:
            self._login_failure = None
            prm = await self._discovery.discover_resource(resource_metadata)
            meta = await self._discovery.discover_server(prm)
            chosen = scope or select_scope(
                override=self._context.settings.scope,
                challenge_scope=challenge_scope,
                prm=prm,
                meta=meta,
                offline_access=self._context.settings.request_offline_access,
            )
            return await self._grants.obtain(meta, chosen)

    def logout(self) -> list[str]:
        """Forget this server's tokens and dynamic registration (keyring and memory)."""
        store = self._context.store
        forgotten = store.forget_server(self._context.server_key)
        tokens = self._context.tokens
        if tokens is not None:
            store.forget_tokens(tokens.issuer, tokens.resource)
        metadata = self._discovery.metadata
        if metadata is not None:
            store.forget_client(metadata.issuer)
        self._context.tokens = None
        self._registration.forget()
        self._context.dpop.forget_key()
        self._futile_scopes.clear()
        self._grants.forget()
        self._login_failure = None
        self._context.emit(
            "logout",
            "logged out: " + ("; ".join(forgotten) if forgotten else "nothing was stored"),
            "ok",
        )
        return forgotten

    def cancel_login(self, message: str = "the login was cancelled") -> None:
        self._grants.cancel_login(message)

    def status_line(self) -> str:
        """One sentence about the current state, for a status bar."""
        self._stored.load_once()
        t = self._context.tokens
        if t is None:
            return "not logged in"
        left = t.expires_in()
        expiry = "no expiry given" if left is None else f"expires in {max(0, int(left))} s"
        scope = f", scope {t.scope}" if t.scope else ""
        return f"logged in at {t.issuer} ({t.token_type}, {expiry}{scope})"

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response]:
        raise RuntimeError("OAuth needs an httpx.AsyncClient (the flow is asynchronous)")

    async def async_auth_flow(
        self, request: httpx.Request
    ) -> AsyncGenerator[httpx.Request, httpx.Response]:
        await self._before_request()
        sent = self._authorize(request)
        response = yield request
        nonce_retries = 0
        unauthorized = 0
        last_outcome = ""
        step_ups = 0
        while True:
            self._context.dpop.remember_nonce(response)
            status = response.status_code
            if status == 401:
                info = challenge_info(response)
                if (
                    info.wants_dpop_nonce
                    and sent is not None
                    and sent.is_dpop
                    and nonce_retries < 2
                ):
                    nonce_retries += 1
                    self._context.emit(
                        "dpop",
                        "the server asked for a DPoP nonce; retrying with a fresh proof",
                        url=str(request.url),
                    )
                    sent = self._authorize(request)
                    response = yield request
                    continue
                if unauthorized >= 2 or last_outcome == "login":
                    self._context.emit(
                        "error",
                        "the server still answers 401 Unauthorized after a new token; giving up "
                        "on this request",
                        "error",
                        url=str(request.url),
                        details=self._challenge_details(info),
                    )
                    return
                unauthorized += 1
                last_outcome = await self._on_unauthorized(info, sent, force_login=unauthorized > 1)
                sent = self._authorize(request)
                response = yield request
                continue
            if status == 403:
                info = challenge_info(response)
                if not info.insufficient_scope:
                    return
                if step_ups >= self._context.settings.max_step_ups:
                    self._context.emit(
                        "step-up",
                        f"the server still wants more scope after {step_ups} step-up "
                        "authorization(s); treating this as a permanent authorization failure",
                        "error",
                        url=str(request.url),
                        details=self._challenge_details(info),
                    )
                    return
                if not await self._on_insufficient_scope(info, sent):
                    return
                step_ups += 1
                sent = self._authorize(request)
                response = yield request
                continue
            return

    def _authorize(self, request: httpx.Request) -> TokenSet | None:
        """Put the current token (and a fresh DPoP proof) on the request."""
        tokens = self._context.tokens
        if tokens is None:
            request.headers.pop("Authorization", None)
            request.headers.pop("DPoP", None)
            return None
        if tokens.is_dpop:
            key = self._context.dpop.key_for(tokens)
            request.headers["Authorization"] = f"DPoP {tokens.access_token}"
            request.headers["DPoP"] = key.proof(
                request.method,
                str(request.url),
                access_token=tokens.access_token,
                nonce=self._context.dpop.nonce_for(str(request.url)),
            )
        else:
            request.headers["Authorization"] = f"Bearer {tokens.access_token}"
            request.headers.pop("DPoP", None)
        return tokens

    async def _before_request(self) -> None:
        self._stored.load_once()
        tokens = self._context.tokens
        if tokens is None:
            return
        left = tokens.expires_in()
        if left is None or left > self._context.settings.refresh_skew:
            return
        async with self._context.lock:
            if self._context.tokens is not tokens:
                return  # someone else renewed it meanwhile
            self._context.emit(
                "expiry",
                "the access token has expired"
                if left <= 0
                else f"the access token expires in {int(left)} s; renewing it first",
                "warning" if left <= 0 else "info",
            )
            try:
                meta = self._discovery.metadata or await self._discovery.discover_server(
                    await self._discovery.discover_resource(None)
                )
                if tokens.refresh_token and await self._token_endpoint.refresh(meta, tokens):
                    return
                if self._context.settings.grant != "authorization_code":
                    await self._grants.obtain(meta, self._context.requested_scope or tokens.scope)
                    return
            except AuthError as exc:
                self._context.emit(
                    "expiry", f"could not renew the token ahead of time: {exc}", "warning"
                )
            if left <= 0:
                # Send no stale token: the server's 401 starts a fresh login.
                self._context.tokens = None

    async def _on_unauthorized(
        self, info: ChallengeInfo, sent: TokenSet | None, *, force_login: bool
    ) -> str:
        """Get a usable token: "other" (another request renewed it meanwhile), "refresh" or
        "login". A login that failed a moment ago is not retried at once (an open GET
        stream would otherwise start one login after another)."""
        async with self._context.lock:
            if self._context.tokens is not None and self._context.tokens is not sent:
                return "other"  # another request already got a new token
            if self._login_failure is not None:
                when, error = self._login_failure
                if time.monotonic() - when < _LOGIN_COOLDOWN:
                    raise AuthError(
                        f"the last login failed {int(time.monotonic() - when)} s ago ({error}); "
                        "not trying again yet (log in again explicitly)",
                        step=error.step,
                    )
            self._context.emit(
                "challenge",
                "the server answered 401 Unauthorized"
                + (" to our token" if sent is not None else "")
                + (f": {info.error}" if info.error else ""),
                "warning" if sent is not None else "info",
                details=self._challenge_details(info),
            )
            prm = await self._discovery.discover_resource(info.resource_metadata)
            meta = await self._discovery.discover_server(prm)
            current = self._context.tokens
            if current is not None and current.issuer != meta.issuer:
                self._context.emit(
                    "migration",
                    f"the server now names a different authorization server ({meta.issuer}, "
                    f"was {current.issuer}): its tokens and client registration are not reused",
                    "warning",
                )
                self._context.tokens = None
                current = None
            if (
                current is not None
                and current.refresh_token
                and not force_login
                and await self._token_endpoint.refresh(meta, current)
            ):
                return "refresh"
            scope = select_scope(
                override=self._context.settings.scope,
                challenge_scope=info.scope,
                prm=prm,
                meta=meta,
                offline_access=self._context.settings.request_offline_access,
            )
            try:
                await self._grants.obtain(meta, scope)
            except AuthError as exc:
                self._login_failure = (time.monotonic(), exc)
                raise
            self._login_failure = None
            return "login"

    async def _on_insufficient_scope(self, info: ChallengeInfo, sent: TokenSet | None) -> bool:
        """Step up; False when it would not help (then the 403 stands)."""
        async with self._context.lock:
            if self._context.tokens is not None and self._context.tokens is not sent:
                return True
            challenged = frozenset((info.scope or "").split())
            granted = frozenset(
                ((sent.scope if sent else None) or self._context.requested_scope or "").split()
            )
            details = self._challenge_details(info)
            if challenged and challenged <= granted:
                if challenged in self._futile_scopes:
                    self._context.emit(
                        "step-up",
                        "the server refuses a token that already has the scopes it asks for "
                        f"({' '.join(sorted(challenged))}), even after a new authorization: "
                        "not asking again",
                        "error",
                        details=details,
                    )
                    return False
                self._futile_scopes.add(challenged)
            scope = union_scopes(self._context.requested_scope, info.scope)
            self._context.emit(
                "step-up",
                "the server needs more scope (403 insufficient_scope); authorizing again with "
                f"{scope or '(no scope)'}",
                "warning",
                details=details,
            )
            meta = self._discovery.metadata
            if meta is None or info.resource_metadata:
                meta = await self._discovery.discover_server(
                    await self._discovery.discover_resource(info.resource_metadata)
                )
            await self._grants.obtain(meta, scope)
            return True

    def _challenge_details(self, info: ChallengeInfo) -> dict[str, Any]:
        details: dict[str, Any] = {"status": info.status, "schemes": list(info.schemes)}
        for name in ("resource_metadata", "scope", "error", "error_description"):
            value = getattr(info, name)
            if value:
                details[name] = value
        return details
