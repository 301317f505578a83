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

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import AsyncGenerator, Generator, Mapping
from typing import Any, Final
from urllib.parse import quote, urlencode, urlsplit

import httpx

from inspector.auth.browser import AuthorizationPrompt, Opener, check_openable, cli_opener
from inspector.auth.challenge import ChallengeInfo, challenge_info
from inspector.auth.errors import (
    AuthCancelled,
    AuthError,
    DiscoveryError,
    RedirectError,
    RegistrationError,
    TokenError,
)
from inspector.auth.events import (
    AuthEvent,
    AuthListener,
    AuthRedactor,
    AuthStep,
    Level,
    StepHook,
    fingerprint,
)
from inspector.auth.jose import CLIENT_ASSERTION_TYPE, DpopKey, sign_client_assertion
from inspector.auth.models import (
    GRANT_JWT_BEARER,
    AssertionContext,
    ClientInfo,
    OAuthSettings,
    ProtectedResource,
    ServerMetadata,
    TokenSet,
)
from inspector.auth.redirect import LoopbackRedirect
from inspector.auth.store import AuthStore
from inspector.auth.urls import (
    as_metadata_urls,
    canonical_resource,
    is_http_url,
    is_loopback_url,
    origin_of,
    prm_urls,
    resource_covers,
)

__all__ = ["OAuth", "pkce_pair", "select_scope", "union_scopes"]

log = logging.getLogger("inspector.auth")

_OFFLINE: Final = "offline_access"
_BODY_EXCERPT: Final = 300
_LOGIN_COOLDOWN: Final = 30.0  # seconds before a failed login is tried again by itself


# ----------------------------------------------------------------------- helpers
def pkce_pair() -> tuple[str, str]:
    """(code_verifier, S256 code_challenge), RFC 7636 §4.1-4.2."""
    verifier = secrets.token_urlsafe(64)[:96]  # 43..128 unreserved characters
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
    return verifier, challenge


def union_scopes(previous: str | None, new: str | None) -> str | None:
    """The scopes asked before plus the challenged ones, order kept (spec 2026-07-28
    "Step-Up Authorization Flow")."""
    if not previous:
        return new
    if not new:
        return previous
    merged = previous.split()
    for scope in new.split():
        if scope not in merged:
            merged.append(scope)
    return " ".join(merged)


def select_scope(
    *,
    override: str | None,
    challenge_scope: str | None,
    prm: ProtectedResource | None,
    meta: ServerMetadata | None,
    offline_access: bool,
) -> str | None:
    """The spec's "Scope Selection Strategy": the user's override, else the scope of the
    challenge, else all of the PRM's `scopes_supported`, else none (the parameter is
    omitted). `offline_access` is added when the AS lists it (SEP-2207)."""
    scope = override or challenge_scope
    if scope is None and prm is not None and prm.scopes_supported:
        scope = " ".join(prm.scopes_supported)
    if (
        scope
        and offline_access
        and meta is not None
        and meta.scopes_supported is not None
        and _OFFLINE in meta.scopes_supported
        and _OFFLINE not in scope.split()
    ):
        scope = f"{scope} {_OFFLINE}"
    return scope or None


def _str_tuple(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return None


def _json_object(response: httpx.Response) -> dict[str, Any] | None:
    try:
        value = json.loads(response.content)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _describe_status(response: httpx.Response) -> str:
    return f"HTTP {response.status_code} {response.reason_phrase}".strip()


class OAuth(httpx.Auth):
    """The MCP OAuth client for one server URL. Use with an `httpx.AsyncClient`."""

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
        self.server_url = server_url
        self.server_key = canonical_resource(server_url)
        self.settings = settings or OAuthSettings()
        self.store = store or AuthStore()
        self.opener: Opener = opener or cli_opener()
        self.step_hook = step_hook
        self.http_transport = http_transport  # tests inject an httpx.MockTransport
        self._listeners: list[AuthListener] = [listener] if listener else []
        self.redactor = AuthRedactor()
        for value in (
            self.settings.client_secret,
            self.settings.private_key_pem,
            self.settings.assertion,
        ):
            self.redactor.add(value)
        self.prm: ProtectedResource | None = None
        self.metadata: ServerMetadata | None = None
        self.client: ClientInfo | None = None
        self.tokens: TokenSet | None = None
        self.requested_scope: str | None = None
        self.resource: str = self.server_key
        self._dpop: DpopKey | None = None
        self._dpop_nonces: dict[str, str] = {}
        self._lock: asyncio.Lock | None = None
        self._loaded = False
        self._pending: LoopbackRedirect | None = None
        self._futile_scopes: set[frozenset[str]] = set()
        self._grant_failure: str | None = None
        self._login_failure: tuple[float, AuthError] | None = None
        self._keyring_noted = False

    # ================================================================ public API
    def add_listener(self, listener: AuthListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: AuthListener) -> None:
        with contextlib.suppress(ValueError):
            self._listeners.remove(listener)

    def add_secret(self, value: str | None) -> None:
        """Another value to keep out of events and logs (e.g. an ID token)."""
        self.redactor.add(value)

    @property
    def logged_in(self) -> bool:
        self._load_stored()
        return self.tokens is not None

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
        async with self._get_lock():
            self._login_failure = None
            prm = await self._discover_resource(resource_metadata)
            meta = await self._discover_server(prm)
            chosen = scope or select_scope(
                override=self.settings.scope,
                challenge_scope=challenge_scope,
                prm=prm,
                meta=meta,
                offline_access=self.settings.request_offline_access,
            )
            return await self._obtain(meta, chosen)

    def logout(self) -> list[str]:
        """Forget this server's tokens and dynamic registration (keyring and memory)."""
        forgotten = self.store.forget_server(self.server_key)
        if self.tokens is not None:
            self.store.forget_tokens(self.tokens.issuer, self.tokens.resource)
        if self.metadata is not None:
            self.store.forget_client(self.metadata.issuer)
        self.tokens = None
        self.client = None
        self._dpop = None
        self._futile_scopes.clear()
        self._grant_failure = None
        self._login_failure = None
        self._emit(
            "logout",
            "logged out: " + ("; ".join(forgotten) if forgotten else "nothing was stored"),
            "ok",
        )
        return forgotten

    def cancel_login(self, message: str = "the login was cancelled") -> None:
        if self._pending is not None:
            self._pending.cancel(message)

    def status_line(self) -> str:
        """One sentence about the current state, for a status bar."""
        self._load_stored()
        t = self.tokens
        if t is None:
            return "not logged in"
        left = t.expires_in()
        expiry = "no expiry given" if left is None else f"expires in {max(0, int(left))} s"
        scope = f", scope {t.scope}" if t.scope else ""
        return f"logged in at {t.issuer} ({t.token_type}, {expiry}{scope})"

    # ================================================================ httpx.Auth
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
            self._remember_nonce(response)
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
                    self._emit(
                        "dpop",
                        "the server asked for a DPoP nonce; retrying with a fresh proof",
                        url=str(request.url),
                    )
                    sent = self._authorize(request)
                    response = yield request
                    continue
                if unauthorized >= 2 or last_outcome == "login":
                    self._emit(
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
                if step_ups >= self.settings.max_step_ups:
                    self._emit(
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

    # ================================================================ per request
    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def _authorize(self, request: httpx.Request) -> TokenSet | None:
        """Put the current token (and a fresh DPoP proof) on the request."""
        tokens = self.tokens
        if tokens is None:
            request.headers.pop("Authorization", None)
            request.headers.pop("DPoP", None)
            return None
        if tokens.is_dpop:
            key = self._dpop_key_for(tokens)
            request.headers["Authorization"] = f"DPoP {tokens.access_token}"
            request.headers["DPoP"] = key.proof(
                request.method,
                str(request.url),
                access_token=tokens.access_token,
                nonce=self._dpop_nonces.get(origin_of(str(request.url))),
            )
        else:
            request.headers["Authorization"] = f"Bearer {tokens.access_token}"
            request.headers.pop("DPoP", None)
        return tokens

    def _remember_nonce(self, response: httpx.Response) -> None:
        nonce = response.headers.get("dpop-nonce")
        if nonce:
            self._dpop_nonces[origin_of(str(response.request.url))] = nonce

    async def _before_request(self) -> None:
        self._load_stored()
        tokens = self.tokens
        if tokens is None:
            return
        left = tokens.expires_in()
        if left is None or left > self.settings.refresh_skew:
            return
        async with self._get_lock():
            if self.tokens is not tokens:
                return  # someone else renewed it meanwhile
            self._emit(
                "expiry",
                "the access token has expired"
                if left <= 0
                else f"the access token expires in {int(left)} s; renewing it first",
                "warning" if left <= 0 else "info",
            )
            try:
                meta = self.metadata or await self._discover_server(
                    await self._discover_resource(None)
                )
                if tokens.refresh_token and await self._refresh(meta, tokens):
                    return
                if self.settings.grant != "authorization_code":
                    await self._obtain(meta, self.requested_scope or tokens.scope)
                    return
            except AuthError as exc:
                self._emit("expiry", f"could not renew the token ahead of time: {exc}", "warning")
            if left <= 0:
                # Send no stale token: the server's 401 starts a fresh login.
                self.tokens = None

    async def _on_unauthorized(
        self, info: ChallengeInfo, sent: TokenSet | None, *, force_login: bool
    ) -> str:
        """Get a usable token: "other" (another request renewed it meanwhile), "refresh" or
        "login". A login that failed a moment ago is not retried at once (an open GET
        stream would otherwise start one login after another)."""
        async with self._get_lock():
            if self.tokens is not None and self.tokens is not sent:
                return "other"  # another request already got a new token
            if self._login_failure is not None:
                when, error = self._login_failure
                if time.monotonic() - when < _LOGIN_COOLDOWN:
                    raise AuthError(
                        f"the last login failed {int(time.monotonic() - when)} s ago ({error}); "
                        "not trying again yet (log in again explicitly)",
                        step=error.step,
                    )
            self._emit(
                "challenge",
                "the server answered 401 Unauthorized"
                + (" to our token" if sent is not None else "")
                + (f": {info.error}" if info.error else ""),
                "warning" if sent is not None else "info",
                details=self._challenge_details(info),
            )
            prm = await self._discover_resource(info.resource_metadata)
            meta = await self._discover_server(prm)
            current = self.tokens
            if current is not None and current.issuer != meta.issuer:
                self._emit(
                    "migration",
                    f"the server now names a different authorization server ({meta.issuer}, "
                    f"was {current.issuer}): its tokens and client registration are not reused",
                    "warning",
                )
                self.tokens = None
                current = None
            if (
                current is not None
                and current.refresh_token
                and not force_login
                and await self._refresh(meta, current)
            ):
                return "refresh"
            scope = select_scope(
                override=self.settings.scope,
                challenge_scope=info.scope,
                prm=prm,
                meta=meta,
                offline_access=self.settings.request_offline_access,
            )
            try:
                await self._obtain(meta, scope)
            except AuthError as exc:
                self._login_failure = (time.monotonic(), exc)
                raise
            self._login_failure = None
            return "login"

    async def _on_insufficient_scope(self, info: ChallengeInfo, sent: TokenSet | None) -> bool:
        """Step up; False when it would not help (then the 403 stands)."""
        async with self._get_lock():
            if self.tokens is not None and self.tokens is not sent:
                return True
            challenged = frozenset((info.scope or "").split())
            granted = frozenset(
                ((sent.scope if sent else None) or self.requested_scope or "").split()
            )
            details = self._challenge_details(info)
            if challenged and challenged <= granted:
                if challenged in self._futile_scopes:
                    self._emit(
                        "step-up",
                        "the server refuses a token that already has the scopes it asks for "
                        f"({' '.join(sorted(challenged))}), even after a new authorization: "
                        "not asking again",
                        "error",
                        details=details,
                    )
                    return False
                self._futile_scopes.add(challenged)
            scope = union_scopes(self.requested_scope, info.scope)
            self._emit(
                "step-up",
                "the server needs more scope (403 insufficient_scope); authorizing again with "
                f"{scope or '(no scope)'}",
                "warning",
                details=details,
            )
            meta = self.metadata
            if meta is None or info.resource_metadata:
                meta = await self._discover_server(
                    await self._discover_resource(info.resource_metadata)
                )
            await self._obtain(meta, scope)
            return True

    def _challenge_details(self, info: ChallengeInfo) -> dict[str, Any]:
        details: dict[str, Any] = {"status": info.status, "schemes": list(info.schemes)}
        for name in ("resource_metadata", "scope", "error", "error_description"):
            value = getattr(info, name)
            if value:
                details[name] = value
        return details

    # ================================================================ storage
    def _load_stored(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        index = self.store.load_server(self.server_key)
        self._note_keyring()
        if index is None:
            return
        issuer = index.get("issuer")
        resource = index.get("resource")
        if not isinstance(issuer, str) or not isinstance(resource, str):
            return
        data = self.store.load_tokens(issuer, resource)
        tokens = TokenSet.from_store(data) if data else None
        if tokens is None:
            return
        self.tokens = tokens
        self.resource = resource
        self.requested_scope = tokens.scope
        self._learn(tokens)
        self._emit(
            "storage",
            f"using the stored token from {issuer} ({tokens.token_type}, "
            f"{fingerprint(tokens.access_token)}; {self._expiry_text(tokens)})",
            "ok",
        )

    def _note_keyring(self) -> None:
        if not self._keyring_noted and self.store.session_only:
            self._keyring_noted = True
            self._emit("storage", self.store.status_message, "warning")

    def _save(self, tokens: TokenSet) -> None:
        where = self.store.save_tokens(tokens.issuer, tokens.resource, tokens.to_store())
        self.store.save_server(self.server_key, tokens.issuer, tokens.resource)
        self._note_keyring()
        self._emit(
            "storage",
            "token stored in the system keyring"
            if where == "keyring"
            else "token kept in memory for this session only (no keyring)",
            "info" if where == "keyring" else "warning",
        )

    def _learn(self, tokens: TokenSet) -> None:
        self.redactor.add(tokens.access_token)
        self.redactor.add(tokens.refresh_token)
        if tokens.dpop_jwk:
            self.redactor.add(str(tokens.dpop_jwk.get("d", "")))

    def _dpop_key_for(self, tokens: TokenSet) -> DpopKey:
        if self._dpop is None or (
            tokens.dpop_jwk is not None and tokens.dpop_jwk.get("x") != self._dpop.public_jwk()["x"]
        ):
            if tokens.dpop_jwk is None:
                raise AuthError("a DPoP token without its key", step="dpop")
            self._dpop = DpopKey.from_private_jwk(tokens.dpop_jwk)
        return self._dpop

    # ================================================================ events
    def _emit(
        self,
        step: str,
        message: str,
        level: Level = "info",
        *,
        url: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        event = AuthEvent(
            step=step,
            message=self.redactor.text(message),
            level=level,
            url=self.redactor.text(url) if url else None,
            details=self.redactor.data(dict(details or {})),
        )
        log.log(
            logging.WARNING if level == "error" else logging.INFO,
            "%s",
            event.line(),
        )
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("an auth listener failed")

    async def _step(self, name: str, description: str, url: str | None = None) -> None:
        if self.step_hook is None:
            return
        try:
            await self.step_hook(AuthStep(name, description, url))
        except AuthError:
            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            raise AuthCancelled(f"stopped before {name}: {exc}") from None

    # ================================================================ HTTP
    def _http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=self.http_transport,
            follow_redirects=False,
            timeout=self.settings.http_timeout,
            headers={"User-Agent": "mcp-inspector-qt"},
        )

    async def _get_json(
        self, client: httpx.AsyncClient, url: str, what: str
    ) -> tuple[dict[str, Any] | None, str]:
        """GET a metadata document; (document or None, what happened)."""
        try:
            response = await client.get(url, headers={"Accept": "application/json"})
        except httpx.HTTPError as exc:
            return None, f"{type(exc).__name__}: {exc or 'no response'}"
        if response.status_code != 200:
            return None, _describe_status(response)
        doc = _json_object(response)
        if doc is None:
            return None, f"{_describe_status(response)}, but the body is not a JSON object"
        return doc, "found"

    def _check_endpoint(self, url: str | None, what: str) -> None:
        if url is None:
            return
        if not is_http_url(url):
            raise DiscoveryError(f"the {what} {url!r} is not an http(s) URL")
        if (
            urlsplit(url).scheme.lower() != "https"
            and not is_loopback_url(url)
            and not self.settings.allow_insecure_http
        ):
            raise DiscoveryError(
                f"the {what} {url} is not HTTPS: authorization server endpoints must be "
                "served over HTTPS (tokens would travel in clear text)"
            )

    # ================================================================ discovery
    async def _discover_resource(self, hint: str | None) -> ProtectedResource | None:
        """RFC 9728: the challenge's URL first, else the well-known locations in order."""
        urls: list[str] = []
        if hint:
            if not is_http_url(hint):
                self._emit(
                    "discovery",
                    f"ignoring the resource_metadata URL of the challenge (not http(s)): {hint!r}",
                    "warning",
                )
            else:
                urls.append(hint)
        urls += [u for u in prm_urls(self.server_url) if u not in urls]
        await self._step(
            "discover-resource", "fetch the protected resource metadata (RFC 9728)", urls[0]
        )
        async with self._http() as client:
            for i, url in enumerate(urls):
                source = "from WWW-Authenticate" if hint and i == 0 else "well-known"
                doc, result = await self._get_json(client, url, "protected resource metadata")
                self._emit(
                    "discovery",
                    f"protected resource metadata ({source}): {result}",
                    "ok" if doc is not None else "info",
                    url=url,
                )
                if doc is None:
                    continue
                prm = self._parse_prm(url, doc)
                self.prm = prm
                if prm is not None:
                    return prm
        self._emit(
            "discovery",
            "the server publishes no protected resource metadata; falling back to the "
            "2025-03-26 behaviour (authorization server at the server's origin)",
            "warning",
        )
        self.prm = None
        self.resource = self.server_key
        return None

    def _parse_prm(self, url: str, doc: dict[str, Any]) -> ProtectedResource:
        servers = _str_tuple(doc.get("authorization_servers"))
        if not servers:
            raise DiscoveryError(
                f"the server's protected resource metadata ({url}) names no authorization server"
            )
        resource = doc.get("resource")
        if not isinstance(resource, str) or not resource:
            raise DiscoveryError(
                f"the server's protected resource metadata ({url}) has no `resource` identifier"
            )
        if not resource_covers(resource, self.server_url):
            raise DiscoveryError(
                f"the server's protected resource metadata is for {resource}, not for "
                f"{self.server_key}: refusing to authorize (a token for one server must not "
                "be obtained for, or sent to, another)"
            )
        scopes = _str_tuple(doc.get("scopes_supported"))
        self.resource = canonical_resource(resource) if resource.endswith("/") else resource
        prm = ProtectedResource(url, resource, servers, scopes, doc)
        self._emit(
            "metadata",
            f"protected resource {resource}: authorization server(s) {', '.join(servers)}"
            + (f"; scopes_supported {' '.join(scopes)}" if scopes else "; no scopes_supported"),
            "ok",
            url=url,
            details={"resource_metadata": doc},
        )
        return prm

    def _choose_issuer(self, prm: ProtectedResource) -> str:
        servers = prm.authorization_servers
        if self.settings.preregistered_issuer in servers:
            return str(self.settings.preregistered_issuer)
        if len(servers) > 1:
            self._emit(
                "metadata",
                f"the server lists {len(servers)} authorization servers; using the first, "
                f"{servers[0]}",
            )
        return servers[0]

    async def _discover_server(self, prm: ProtectedResource | None) -> ServerMetadata:
        if prm is None:
            return await self._discover_legacy()
        issuer = self._choose_issuer(prm)
        if not is_http_url(issuer):
            raise DiscoveryError(f"the authorization server {issuer!r} is not an http(s) URL")
        candidates = as_metadata_urls(issuer)
        await self._step(
            "discover-server",
            "fetch the authorization server metadata (RFC 8414 / OpenID Connect discovery)",
            candidates[0][1],
        )
        rejected: list[str] = []
        async with self._http() as client:
            for kind, url in candidates:
                doc, result = await self._get_json(client, url, "authorization server metadata")
                label = "OAuth" if kind == "oauth" else "OpenID Connect"
                self._emit(
                    "discovery",
                    f"{label} authorization server metadata: {result}",
                    "ok" if doc is not None else "info",
                    url=url,
                )
                if doc is None:
                    continue
                if doc.get("issuer") != issuer:
                    rejected.append(url)
                    self._emit(
                        "metadata",
                        f"the metadata at {url} names the issuer {doc.get('issuer')!r}, not "
                        f"{issuer!r}: it is not used (RFC 8414 §3.3)",
                        "error",
                        url=url,
                    )
                    continue
                meta = self._parse_metadata(issuer, kind, url, doc)
                self.metadata = meta
                return meta
        if rejected:
            raise DiscoveryError(
                f"the authorization server metadata found for {issuer} names a different "
                "issuer, so it cannot be trusted (possible mix-up attack); no login attempted"
            )
        raise DiscoveryError(
            f"no authorization server metadata was found for {issuer} (tried "
            + ", ".join(url for _, url in candidates)
            + ")"
        )

    async def _discover_legacy(self) -> ServerMetadata:
        """2025-03-26: metadata at the origin of the MCP server, else default endpoints."""
        origin = origin_of(self.server_url)
        url = f"{origin}/.well-known/oauth-authorization-server"
        await self._step(
            "discover-server", "fetch the authorization server metadata at the origin", url
        )
        async with self._http() as client:
            doc, result = await self._get_json(client, url, "authorization server metadata")
        self._emit(
            "discovery",
            f"authorization server metadata at the server's origin: {result}",
            "ok" if doc is not None else "info",
            url=url,
        )
        if doc is not None:
            issuer = doc.get("issuer")
            if not isinstance(issuer, str) or not issuer:
                issuer = origin
            elif issuer != origin:
                self._emit(
                    "metadata",
                    f"the metadata names the issuer {issuer!r}, not the server's origin {origin!r}",
                    "warning",
                    url=url,
                )
            meta = self._parse_metadata(issuer, "oauth", url, doc)
        else:
            self._emit(
                "metadata",
                "no authorization server metadata either: using the default endpoints "
                f"{origin}/authorize, /token and /register (2025-03-26)",
                "warning",
            )
            meta = ServerMetadata(
                issuer=origin,
                kind="fallback",
                url=None,
                authorization_endpoint=f"{origin}/authorize",
                token_endpoint=f"{origin}/token",
                registration_endpoint=f"{origin}/register",
                scopes_supported=None,
                code_challenge_methods=("S256",),
                token_endpoint_auth_methods=None,
                grant_types=None,
                iss_parameter_supported=False,
                cimd_supported=False,
                dpop_algs=None,
            )
        self.metadata = meta
        return meta

    def _parse_metadata(
        self, issuer: str, kind: str, url: str, doc: dict[str, Any]
    ) -> ServerMetadata:
        def opt_url(name: str) -> str | None:
            value = doc.get(name)
            return value if isinstance(value, str) and value else None

        token_endpoint = opt_url("token_endpoint")
        if token_endpoint is None:
            raise DiscoveryError(f"the authorization server metadata ({url}) has no token_endpoint")
        meta = ServerMetadata(
            issuer=issuer,
            kind="oidc" if kind == "oidc" else "oauth",
            url=url,
            authorization_endpoint=opt_url("authorization_endpoint"),
            token_endpoint=token_endpoint,
            registration_endpoint=opt_url("registration_endpoint"),
            scopes_supported=_str_tuple(doc.get("scopes_supported")),
            code_challenge_methods=_str_tuple(doc.get("code_challenge_methods_supported")),
            token_endpoint_auth_methods=_str_tuple(
                doc.get("token_endpoint_auth_methods_supported")
            ),
            grant_types=_str_tuple(doc.get("grant_types_supported")),
            iss_parameter_supported=doc.get("authorization_response_iss_parameter_supported")
            is True,
            cimd_supported=doc.get("client_id_metadata_document_supported") is True,
            dpop_algs=_str_tuple(doc.get("dpop_signing_alg_values_supported")),
            raw=doc,
        )
        for name, value in (
            ("authorization endpoint", meta.authorization_endpoint),
            ("token endpoint", meta.token_endpoint),
            ("registration endpoint", meta.registration_endpoint),
        ):
            self._check_endpoint(value, name)
        pkce = ",".join(meta.code_challenge_methods or ()) or "not advertised"
        auth_methods = ",".join(
            meta.token_endpoint_auth_methods or ("client_secret_basic (default)",)
        )
        facts = [
            f"issuer {issuer}",
            f"PKCE {pkce}",
            "registration endpoint" if meta.registration_endpoint else "no registration endpoint",
            "Client ID Metadata Documents" if meta.cimd_supported else "no CIMD",
            f"token endpoint auth {auth_methods}",
        ]
        if meta.iss_parameter_supported:
            facts.append("iss in responses (RFC 9207)")
        if meta.dpop_algs:
            facts.append(f"DPoP {','.join(meta.dpop_algs)}")
        self._emit(
            "metadata",
            "authorization server: " + "; ".join(facts),
            "ok",
            url=url,
            details={"authorization_server_metadata": doc},
        )
        return meta

    # ================================================================ obtaining tokens
    async def _obtain(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        grant = self.settings.grant
        if self._grant_failure is not None and grant == "jwt_bearer":
            raise TokenError(
                f"the JWT-bearer grant was refused earlier ({self._grant_failure}); it is not "
                "retried with the same assertion"
            )
        if grant == "client_credentials":
            return await self._client_credentials(meta, scope)
        if grant == "jwt_bearer":
            return await self._jwt_bearer(meta, scope)
        return await self._authorization_code(meta, scope)

    def _use_dpop(self, meta: ServerMetadata) -> bool:
        return (
            self.settings.dpop == "auto"
            and meta.dpop_algs is not None
            and DpopKey.alg in meta.dpop_algs
        )

    async def _authorization_code(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        if meta.authorization_endpoint is None:
            raise DiscoveryError(
                f"the authorization server {meta.issuer} has no authorization_endpoint"
            )
        if meta.kind != "fallback":
            methods = meta.code_challenge_methods
            if not methods:
                raise DiscoveryError(
                    f"the authorization server {meta.issuer} does not advertise PKCE support "
                    "(code_challenge_methods_supported is missing): MCP clients must refuse to "
                    "proceed"
                )
            if "S256" not in methods:
                raise DiscoveryError(
                    f"the authorization server {meta.issuer} does not support PKCE S256 "
                    f"(it lists {', '.join(methods)})"
                )
        listener = await self._open_listener(meta)
        self._pending = listener
        try:
            client = await self._client_for(meta, listener.redirect_uri, scope)
            verifier, challenge = pkce_pair()
            self.redactor.add(verifier)
            state = secrets.token_urlsafe(32)
            params: dict[str, str] = {
                "response_type": "code",
                "client_id": client.client_id,
                "redirect_uri": listener.redirect_uri,
                "code_challenge": challenge,
                "code_challenge_method": "S256",
                "state": state,
                "resource": self.resource,
            }
            if scope:
                params["scope"] = scope
            endpoint = meta.authorization_endpoint
            url = endpoint + ("&" if urlsplit(endpoint).query else "?") + urlencode(params)
            check_openable(url)
            self.requested_scope = scope
            self._emit(
                "authorize",
                f"authorization URL ready (PKCE S256, scope {scope or '(omitted)'}, resource "
                f"{self.resource}); waiting for the redirect to {listener.redirect_uri}",
                url=url,
                details={"parameters": params},
            )
            await self._step("authorize", "open the authorization URL in the browser", url)
            listener.expect(state)
            await self.opener(AuthorizationPrompt(url, listener.redirect_uri))
            response = await listener.wait(self.settings.login_timeout)
        finally:
            self._pending = None
            await listener.close()
        self.redactor.add(response.code)
        # RFC 9207 §2.4 (spec 2026-07-28 "Authorization Response Validation"), before
        # anything else is done with the response, errors included.
        if response.iss is not None:
            if response.iss != meta.issuer:
                raise RedirectError(
                    f"the authorization response names the issuer {response.iss!r}, but this "
                    f"login went to {meta.issuer!r}: possible mix-up attack, the response was "
                    "discarded"
                )
        elif meta.iss_parameter_supported:
            raise RedirectError(
                "the authorization server promises an `iss` parameter in its responses "
                "(authorization_response_iss_parameter_supported), but the redirect has none: "
                "the response was discarded"
            )
        if response.error:
            description = f" ({response.error_description})" if response.error_description else ""
            raise RedirectError(
                f"the authorization server refused the login: {response.error}{description}"
            )
        if not response.code:
            raise RedirectError("the redirect carried no authorization code")
        self._emit(
            "redirect",
            "the redirect came back with an authorization code"
            + (" and a matching iss" if response.iss else "")
            + "; state checked",
            "ok",
        )
        form = {
            "grant_type": "authorization_code",
            "code": response.code,
            "redirect_uri": listener.redirect_uri,
            "code_verifier": verifier,
            "resource": self.resource,
        }
        return await self._token_request(meta, client, form, scope, what="token exchange")

    async def _open_listener(self, meta: ServerMetadata) -> LoopbackRedirect:
        settings = self.settings
        port = settings.redirect_port
        if port == 0 and settings.client_id is None:
            stored = self.store.load_client(meta.issuer)
            info = ClientInfo.from_store(stored) if stored else None
            for uri in info.redirect_uris if info else ():
                parts = urlsplit(uri)
                if parts.hostname == settings.redirect_host and parts.port:
                    port = parts.port
                    break
        listener = LoopbackRedirect(
            host=settings.redirect_host, port=port, path=settings.redirect_path
        )
        try:
            await listener.start()
        except OSError as exc:
            if port == 0 or settings.redirect_port:
                raise AuthError(
                    f"cannot listen for the redirect on {settings.redirect_host}:{port}: {exc}",
                    step="authorize",
                ) from None
            listener = LoopbackRedirect(host=settings.redirect_host, path=settings.redirect_path)
            await listener.start()
        self._emit(
            "redirect",
            f"listening for the redirect on {listener.redirect_uri} (this login only)",
        )
        return listener

    # ---------------------------------------------------------------- registration
    async def _client_for(
        self, meta: ServerMetadata, redirect_uri: str | None, scope: str | None
    ) -> ClientInfo:
        """Registration in the spec's order: pre-registered, CIMD, DCR."""
        s = self.settings
        mode = s.registration
        if s.client_id and mode in ("auto", "preregistered"):
            if s.preregistered_issuer and s.preregistered_issuer != meta.issuer:
                raise RegistrationError(
                    f"the pre-registered client belongs to {s.preregistered_issuer}, but the "
                    f"server now uses {meta.issuer}: those credentials are not sent there"
                )
            client = ClientInfo(
                client_id=s.client_id,
                method="preregistered",
                client_secret=s.client_secret,
                auth_method=s.token_endpoint_auth_method,
                issuer=meta.issuer,
            )
            self._emit(
                "registration",
                f"using the pre-registered client {s.client_id}"
                + (" (with a secret)" if s.client_secret else "")
                + (" (private_key_jwt)" if s.private_key_pem else ""),
                "ok",
            )
            self.client = client
            return client
        if mode == "preregistered":
            raise RegistrationError(
                "registration is set to pre-registered, but no client id is configured"
            )
        if mode in ("auto", "cimd"):
            if s.cimd_url and meta.cimd_supported:
                client = ClientInfo(
                    client_id=s.cimd_url, method="cimd", auth_method="none", issuer=meta.issuer
                )
                self._emit(
                    "registration",
                    f"using the Client ID Metadata Document {s.cimd_url} as the client id "
                    "(the authorization server supports CIMD)",
                    "ok",
                )
                self.client = client
                return client
            if mode == "cimd":
                raise RegistrationError(
                    "registration is set to CIMD, but "
                    + (
                        "no metadata document URL is configured"
                        if not s.cimd_url
                        else f"the authorization server {meta.issuer} does not advertise "
                        "client_id_metadata_document_supported"
                    )
                )
            if meta.cimd_supported:
                self._emit(
                    "registration",
                    "the authorization server supports Client ID Metadata Documents, but no "
                    "metadata document URL is configured; trying Dynamic Client Registration",
                )
        return await self._dynamic_registration(meta, redirect_uri, scope)

    async def _dynamic_registration(
        self, meta: ServerMetadata, redirect_uri: str | None, scope: str | None
    ) -> ClientInfo:
        s = self.settings
        stored = self.store.load_client(meta.issuer)
        known = ClientInfo.from_store(stored) if stored else None
        if known is not None and (redirect_uri is None or redirect_uri in known.redirect_uris):
            self.redactor.add(known.client_secret)
            self._emit(
                "registration",
                f"using the client registered earlier at {meta.issuer}: {known.client_id}",
                "ok",
            )
            self.client = known
            return known
        if meta.registration_endpoint is None:
            raise RegistrationError(
                f"the authorization server {meta.issuer} offers no Dynamic Client Registration "
                "(no registration_endpoint) and no client id is configured: register a client "
                "with the server's owner and enter its client id (pre-registration)"
            )
        supported = meta.token_endpoint_auth_methods
        if supported is None or "none" in supported:
            wanted = "none"
        elif "client_secret_basic" in supported:
            wanted = "client_secret_basic"
        elif "client_secret_post" in supported:
            wanted = "client_secret_post"
        else:
            wanted = supported[0]
        grant_types = ["authorization_code", "refresh_token"]
        body: dict[str, Any] = {
            "client_name": s.client_name,
            "redirect_uris": [redirect_uri] if redirect_uri else [],
            "grant_types": grant_types,
            "response_types": ["code"],
            "token_endpoint_auth_method": wanted,
            "application_type": s.application_type,
        }
        if scope:
            body["scope"] = scope
        if self._use_dpop(meta):
            body["dpop_bound_access_tokens"] = True
        if known is not None:
            self._emit(
                "registration",
                "the client registered earlier has another redirect URI; registering again",
            )
        self._emit(
            "registration",
            f"registering a client (Dynamic Client Registration, application_type "
            f"{s.application_type}, auth method {wanted})",
            url=meta.registration_endpoint,
            details={"request": body},
        )
        await self._step(
            "register",
            "register the client (Dynamic Client Registration)",
            meta.registration_endpoint,
        )
        async with self._http() as http:
            try:
                response = await http.post(
                    meta.registration_endpoint,
                    json=body,
                    headers={"Accept": "application/json"},
                )
            except httpx.HTTPError as exc:
                raise RegistrationError(f"the registration request failed: {exc}") from None
        doc = _json_object(response)
        if response.status_code not in (200, 201) or doc is None:
            raise RegistrationError(
                f"the authorization server refused the registration ({_describe_status(response)}"
                + (
                    f": {doc.get('error')} {doc.get('error_description') or ''}".rstrip()
                    if doc and doc.get("error")
                    else ""
                )
                + ")"
            )
        client_id = doc.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise RegistrationError("the registration response has no client_id")
        secret = doc.get("client_secret")
        method = doc.get("token_endpoint_auth_method")
        client = ClientInfo(
            client_id=client_id,
            method="dcr",
            client_secret=secret if isinstance(secret, str) and secret else None,
            auth_method=method if isinstance(method, str) else wanted,
            redirect_uris=tuple(body["redirect_uris"]),
            issuer=meta.issuer,
        )
        self.redactor.add(client.client_secret)
        self.redactor.add(
            doc.get("registration_access_token")
            if isinstance(doc.get("registration_access_token"), str)
            else None
        )
        where = self.store.save_client(meta.issuer, client.to_store())
        self._emit(
            "registration",
            f"registered as {client_id}"
            + (" with a client secret" if client.client_secret else " (public client)")
            + f", token endpoint auth {client.auth_method}; "
            + ("kept in the keyring" if where == "keyring" else "kept in memory only"),
            "ok",
            details={"response": doc},
        )
        self.client = client
        return client

    # ---------------------------------------------------------------- other grants
    def _configured_client(self, meta: ServerMetadata, grant: str) -> ClientInfo:
        s = self.settings
        if not s.client_id:
            raise RegistrationError(f"the {grant} grant needs a client id (pre-registered)")
        if s.preregistered_issuer and s.preregistered_issuer != meta.issuer:
            raise RegistrationError(
                f"the client belongs to {s.preregistered_issuer}, but the server now uses "
                f"{meta.issuer}: its credentials are not sent there"
            )
        client = ClientInfo(
            client_id=s.client_id,
            method="preregistered",
            client_secret=s.client_secret,
            auth_method=s.token_endpoint_auth_method,
            issuer=meta.issuer,
        )
        self.client = client
        return client

    async def _client_credentials(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        client = self._configured_client(meta, "client_credentials")
        if meta.grant_types is not None and "client_credentials" not in meta.grant_types:
            self._emit(
                "token",
                "the authorization server does not list client_credentials in "
                "grant_types_supported; trying anyway",
                "warning",
            )
        form = {"grant_type": "client_credentials", "resource": self.resource}
        if scope:
            form["scope"] = scope
        self.requested_scope = scope
        return await self._token_request(meta, client, form, scope, what="client credentials grant")

    async def _jwt_bearer(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        s = self.settings
        client = self._configured_client(meta, "JWT-bearer")
        if s.assertion_provider is not None:
            context = AssertionContext(
                issuer=meta.issuer,
                token_endpoint=meta.token_endpoint,
                resource=self.resource,
                scope=scope,
                note=lambda step, message: self._emit(step, message),
            )
            await self._step("assertion", "obtain the assertion for the JWT-bearer grant")
            assertion = await s.assertion_provider(context)
        elif s.assertion:
            assertion = s.assertion
        else:
            raise TokenError("the JWT-bearer grant needs an assertion, and none is configured")
        self.redactor.add(assertion)
        form = {"grant_type": GRANT_JWT_BEARER, "assertion": assertion, "resource": self.resource}
        if scope:
            form["scope"] = scope
        self.requested_scope = scope
        try:
            return await self._token_request(meta, client, form, scope, what="JWT-bearer grant")
        except TokenError as exc:
            # RFC 7523 / SEP-1933: surface the error; no retry, no other grant.
            self._grant_failure = exc.oauth_error or "refused"
            raise

    # ---------------------------------------------------------------- token endpoint
    def _auth_method(self, meta: ServerMetadata, client: ClientInfo) -> str:
        supported = meta.token_endpoint_auth_methods or ("client_secret_basic",)
        if client.auth_method:
            if meta.token_endpoint_auth_methods and client.auth_method not in supported:
                self._emit(
                    "token",
                    f"the client is set up for {client.auth_method}, which the authorization "
                    f"server does not list ({', '.join(supported)}); using it anyway",
                    "warning",
                )
            return client.auth_method
        if self.settings.private_key_pem and client.method == "preregistered":
            return "private_key_jwt"
        if client.client_secret:
            if "client_secret_basic" in supported:
                return "client_secret_basic"
            if "client_secret_post" in supported:
                return "client_secret_post"
            return "client_secret_basic"
        return "none"

    def _client_auth(
        self,
        meta: ServerMetadata,
        client: ClientInfo,
        form: dict[str, str],
        headers: dict[str, str],
    ) -> str:
        method = self._auth_method(meta, client)
        if method == "client_secret_basic":
            if not client.client_secret:
                raise TokenError("client_secret_basic needs a client secret, and there is none")
            # RFC 6749 §2.3.1: form-urlencode id and secret before Base64.
            pair = f"{quote(client.client_id, safe='')}:{quote(client.client_secret, safe='')}"
            headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
            # Not an authentication method of its own (RFC 6749 §3.2.1), and some servers
            # (the mcp SDK's) look the client up by it before reading the header.
            form["client_id"] = client.client_id
        elif method == "client_secret_post":
            if not client.client_secret:
                raise TokenError("client_secret_post needs a client secret, and there is none")
            form["client_id"] = client.client_id
            form["client_secret"] = client.client_secret
        elif method == "private_key_jwt":
            if not self.settings.private_key_pem:
                raise TokenError("private_key_jwt needs a private key, and none is configured")
            assertion = sign_client_assertion(
                client_id=client.client_id,
                audience=meta.issuer,
                private_key_pem=self.settings.private_key_pem,
                alg=self.settings.signing_alg,
            )
            self.redactor.add(assertion)
            form["client_id"] = client.client_id
            form["client_assertion_type"] = CLIENT_ASSERTION_TYPE
            form["client_assertion"] = assertion
        else:
            form["client_id"] = client.client_id
        return method

    async def _token_request(
        self,
        meta: ServerMetadata,
        client: ClientInfo,
        form: dict[str, str],
        requested_scope: str | None,
        *,
        what: str,
        refreshing: TokenSet | None = None,
    ) -> TokenSet:
        headers = {
            "Accept": "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        method = self._client_auth(meta, client, form, headers)
        dpop: DpopKey | None = None
        if refreshing is not None and refreshing.is_dpop:
            dpop = self._dpop_key_for(refreshing)
        elif self._use_dpop(meta):
            dpop = DpopKey()
            self.redactor.add(str(dpop.private_jwk().get("d", "")))
        url = meta.token_endpoint
        shown = {k: v for k, v in form.items()}
        self._emit(
            "token",
            f"{what} at the token endpoint (client authentication {method}"
            + (", DPoP proof" if dpop else "")
            + ")",
            url=url,
            details={"form": shown},
        )
        await self._step("refresh" if refreshing else "token", what, url)
        async with self._http() as http:
            response: httpx.Response | None = None
            for attempt in range(2):
                if dpop is not None:
                    headers["DPoP"] = dpop.proof(
                        "POST", url, nonce=self._dpop_nonces.get(origin_of(url))
                    )
                try:
                    response = await http.post(url, data=form, headers=headers)
                except httpx.HTTPError as exc:
                    raise TokenError(f"the {what} request failed: {exc}") from None
                self._remember_nonce(response)
                doc = _json_object(response)
                if (
                    dpop is not None
                    and attempt == 0
                    and response.status_code in (400, 401)
                    and doc is not None
                    and doc.get("error") == "use_dpop_nonce"
                    and response.headers.get("dpop-nonce")
                ):
                    self._emit(
                        "dpop",
                        "the authorization server asked for a DPoP nonce; retrying with it",
                        url=url,
                    )
                    continue
                break
        assert response is not None
        doc = _json_object(response)
        if response.status_code != 200 or doc is None:
            error = doc.get("error") if doc else None
            description = doc.get("error_description") if doc else None
            text = (
                f"{error}" + (f" ({description})" if description else "")
                if error
                else self.redactor.text(response.text[:_BODY_EXCERPT])
            )
            self._emit(
                "token",
                f"the {what} was refused: {_describe_status(response)}: {text}",
                "error",
                url=url,
            )
            raise TokenError(
                f"the token endpoint refused the {what} ({_describe_status(response)}: {text})",
                oauth_error=str(error) if error else None,
            )
        access = doc.get("access_token")
        token_type = doc.get("token_type")
        if not isinstance(access, str) or not access:
            raise TokenError(f"the {what} response has no access_token")
        self.redactor.add(access)
        refresh = doc.get("refresh_token")
        self.redactor.add(refresh if isinstance(refresh, str) else None)
        self.redactor.add(doc.get("id_token") if isinstance(doc.get("id_token"), str) else None)
        if not isinstance(token_type, str) or token_type.lower() not in ("bearer", "dpop"):
            raise TokenError(
                f"the {what} response has an unsupported token_type {token_type!r} "
                "(expected Bearer or DPoP)"
            )
        if token_type.lower() == "dpop" and dpop is None:
            raise TokenError("the authorization server issued a DPoP token without a DPoP proof")
        if token_type.lower() == "bearer" and dpop is not None:
            self._emit(
                "dpop",
                "the authorization server issued a Bearer token despite the DPoP proof",
                "warning",
            )
        expires_in = doc.get("expires_in")
        now = time.time()
        tokens = TokenSet(
            access_token=access,
            token_type="DPoP" if token_type.lower() == "dpop" else "Bearer",
            issuer=meta.issuer,
            resource=self.resource,
            refresh_token=refresh
            if isinstance(refresh, str) and refresh
            else (refreshing.refresh_token if refreshing else None),
            expires_at=now + float(expires_in)
            if isinstance(expires_in, int | float) and not isinstance(expires_in, bool)
            else None,
            scope=doc.get("scope") if isinstance(doc.get("scope"), str) else requested_scope,
            obtained_at=now,
            dpop_jwk=dpop.private_jwk()
            if dpop is not None and token_type.lower() == "dpop"
            else None,
        )
        if tokens.is_dpop:
            self._dpop = dpop
        self.tokens = tokens
        self._learn(tokens)
        self._emit(
            "token",
            f"received an access token ({tokens.token_type}, {fingerprint(access)}), "
            + ("a refresh token" if tokens.refresh_token else "no refresh token")
            + f", scope {tokens.scope or '(none given)'}",
            "ok",
            url=url,
            details={"response": doc},
        )
        self._emit("expiry", self._expiry_text(tokens))
        self._save(tokens)
        return tokens

    async def _refresh(self, meta: ServerMetadata, tokens: TokenSet) -> bool:
        """Refresh; on failure forget the refresh token and return False (then log in)."""
        assert tokens.refresh_token is not None
        client = self.client or await self._known_client(meta)
        if client is None:
            self._emit(
                "refresh",
                "cannot refresh: the client the token was issued to is not known any more",
                "warning",
            )
            return False
        form = {
            "grant_type": "refresh_token",
            "refresh_token": tokens.refresh_token,
            "resource": tokens.resource,
        }
        try:
            await self._token_request(
                meta, client, form, tokens.scope, what="token refresh", refreshing=tokens
            )
        except TokenError as exc:
            self._emit("refresh", f"the refresh failed ({exc}); a new login is needed", "warning")
            tokens.refresh_token = None
            return False
        return True

    async def _known_client(self, meta: ServerMetadata) -> ClientInfo | None:
        s = self.settings
        if s.client_id and s.registration in ("auto", "preregistered"):
            return ClientInfo(
                client_id=s.client_id,
                method="preregistered",
                client_secret=s.client_secret,
                auth_method=s.token_endpoint_auth_method,
                issuer=meta.issuer,
            )
        if s.cimd_url and meta.cimd_supported and s.registration in ("auto", "cimd"):
            return ClientInfo(client_id=s.cimd_url, method="cimd", auth_method="none")
        stored = self.store.load_client(meta.issuer)
        client = ClientInfo.from_store(stored) if stored else None
        if client is not None:
            self.redactor.add(client.client_secret)
        return client

    def _expiry_text(self, tokens: TokenSet) -> str:
        left = tokens.expires_in()
        if left is None:
            return "the token has no stated expiry"
        stamp = time.strftime("%H:%M:%S", time.localtime(tokens.expires_at or 0))
        if left <= 0:
            return f"the token expired at {stamp}"
        return f"the token expires at {stamp} (in {int(left)} s)" + (
            "; it will be refreshed before then" if tokens.refresh_token else ""
        )
