"""`FlowContext`: what every step of one server's OAuth flow shares.

The steps (discovery, registration, the token endpoint, the grants) are separate objects;
each is handed this context instead of reaching into the others. It holds the settings,
the keyring store, the HTTP client factory, the event listeners with the redactor every
event passes through, the step-through hook, the browser opener, the DPoP state, the lock
that lets one request at a time renew the token, and the few facts several steps write:
the current tokens, the resource they are for, and the scope last asked for.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

import httpx

from inspector.auth.failures import AuthCancelled, AuthError
from inspector.auth.flow.browser import Opener
from inspector.auth.flow.data import OAuthSettings, TokenSet
from inspector.auth.flow.dpop_state import DpopState
from inspector.auth.flow.events import AuthEvent, AuthRedactor, AuthStep, Level, StepHook
from inspector.auth.store import AuthStore
from inspector.auth.urls import canonical_resource
from inspector.common.listeners import Listeners

__all__ = ["FlowContext", "expiry_text"]

log = logging.getLogger("inspector.auth")


def expiry_text(tokens: TokenSet) -> str:
    """When `tokens` expire, in a sentence for the timeline."""
    left = tokens.expires_in()
    if left is None:
        return "the token has no stated expiry"
    stamp = time.strftime("%H:%M:%S", time.localtime(tokens.expires_at or 0))
    if left <= 0:
        return f"the token expired at {stamp}"
    return f"the token expires at {stamp} (in {int(left)} s)" + (
        "; it will be refreshed before then" if tokens.refresh_token else ""
    )


class FlowContext:
    def __init__(
        self,
        server_url: str,
        settings: OAuthSettings,
        *,
        store: AuthStore,
        opener: Opener,
        step_hook: StepHook | None,
        http_transport: httpx.AsyncBaseTransport | None,
    ) -> None:
        self.server_url = server_url
        self.server_key = canonical_resource(server_url)
        self.settings = settings
        self.store = store
        self.opener = opener
        self.step_hook = step_hook
        self.http_transport = http_transport  # tests inject an httpx.MockTransport
        self.listeners: Listeners[[AuthEvent]] = Listeners("an auth listener")
        self.redactor = AuthRedactor()
        for value in (settings.client_secret, settings.private_key_pem, settings.assertion):
            self.redactor.add(value)
        self.dpop = DpopState(settings)
        # Written by more than one step: the token endpoint and the keyring set the tokens;
        # discovery and the keyring say which resource they are for; the grants record the
        # scope asked for, which a step-up widens.
        self.tokens: TokenSet | None = None
        self.resource: str = self.server_key
        self.requested_scope: str | None = None
        self._lock: asyncio.Lock | None = None

    def emit(
        self,
        step: str,
        message: str,
        level: Level = "info",
        *,
        url: str | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        """Report a step to the log and the listeners, with every known secret removed."""
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
        self.listeners.emit(event)

    async def step(self, name: str, description: str, url: str | None = None) -> None:
        """Wait for the step-through hook before a step; a hook failing for any reason
        other than an `AuthError` or a cancellation stops the login."""
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

    def http(self) -> httpx.AsyncClient:
        """A client for the authorization server: no redirects followed (a redirect would
        carry credentials to a place nobody checked)."""
        return httpx.AsyncClient(
            transport=self.http_transport,
            follow_redirects=False,
            timeout=self.settings.http_timeout,
            headers={"User-Agent": "mcp-inspector-qt"},
        )

    @property
    def lock(self) -> asyncio.Lock:
        """Held while the token is renewed, so concurrent requests renew it once. Made on
        first use, inside the event loop that runs the flow."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    def learn(self, tokens: TokenSet) -> None:
        """Keep the secrets of `tokens` out of every later event and log line."""
        self.redactor.add(tokens.access_token)
        self.redactor.add(tokens.refresh_token)
        if tokens.dpop_jwk:
            self.redactor.add(str(tokens.dpop_jwk.get("d", "")))
