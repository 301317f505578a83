"""State, events and storage shared by every step of the OAuth flow."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Mapping
from typing import Any, Final

import httpx

from inspector.auth.browser import Opener, cli_opener
from inspector.auth.errors import (
    AuthCancelled,
    AuthError,
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
from inspector.auth.jose import DpopKey
from inspector.auth.models import (
    ClientInfo,
    OAuthSettings,
    ProtectedResource,
    ServerMetadata,
    TokenSet,
)
from inspector.auth.redirect import LoopbackRedirect
from inspector.auth.store import AuthStore
from inspector.auth.urls import (
    canonical_resource,
    origin_of,
)

log = logging.getLogger("inspector.auth")

_OFFLINE: Final = "offline_access"
_BODY_EXCERPT: Final = 300
_LOGIN_COOLDOWN: Final = 30.0  # seconds before a failed login is tried again by itself


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


class _OAuthCore(httpx.Auth):
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

    def _http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=self.http_transport,
            follow_redirects=False,
            timeout=self.settings.http_timeout,
            headers={"User-Agent": "mcp-inspector-qt"},
        )

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

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

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

    def add_secret(self, value: str | None) -> None:
        """Another value to keep out of events and logs (e.g. an ID token)."""
        self.redactor.add(value)

    def _use_dpop(self, meta: ServerMetadata) -> bool:
        return (
            self.settings.dpop == "auto"
            and meta.dpop_algs is not None
            and DpopKey.alg in meta.dpop_algs
        )

    def _remember_nonce(self, response: httpx.Response) -> None:
        nonce = response.headers.get("dpop-nonce")
        if nonce:
            self._dpop_nonces[origin_of(str(response.request.url))] = nonce
