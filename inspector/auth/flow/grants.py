"""The grants: authorization code with PKCE through the loopback redirect, client
credentials, JWT bearer (an assertion, or one from a provider such as the enterprise ID-JAG).

`Grants` gets the client from `Registration` and the tokens from `TokenEndpoint`; what it
keeps itself is the login waiting for the browser (so it can be cancelled) and a refused
JWT-bearer grant (never retried with the same assertion).
"""

from __future__ import annotations

import secrets
from urllib.parse import urlencode, urlsplit

from inspector.auth.failures import AuthError, DiscoveryError, RedirectError, TokenError
from inspector.auth.flow.browser import AuthorizationPrompt, check_openable
from inspector.auth.flow.context import FlowContext
from inspector.auth.flow.data import (
    GRANT_JWT_BEARER,
    AssertionContext,
    ClientInfo,
    ServerMetadata,
    TokenSet,
)
from inspector.auth.flow.pkce import pkce_pair
from inspector.auth.flow.redirect import LoopbackRedirect
from inspector.auth.flow.registration import Registration
from inspector.auth.flow.token_endpoint import TokenEndpoint

__all__ = ["Grants"]


class Grants:
    def __init__(
        self, context: FlowContext, registration: Registration, token_endpoint: TokenEndpoint
    ) -> None:
        self._context = context
        self._registration = registration
        self._token_endpoint = token_endpoint
        self._pending: LoopbackRedirect | None = None
        self._grant_failure: str | None = None

    def cancel_login(self, message: str) -> None:
        """End the wait for the browser's redirect (the login fails with `message`)."""
        if self._pending is not None:
            self._pending.cancel(message)

    def forget(self) -> None:
        """Logging out: a refused JWT-bearer grant may be tried again after a new setup."""
        self._grant_failure = None

    async def obtain(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        """New tokens by the grant the settings name."""
        grant = self._context.settings.grant
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
            client = await self._registration.client_for(meta, listener.redirect_uri, scope)
            verifier, challenge = pkce_pair()
            self._context.redactor.add(verifier)
            state = secrets.token_urlsafe(32)
            params: dict[str, str] = {
                "response_type": "code",
                "client_id": client.client_id,
                "redirect_uri": listener.redirect_uri,
                "code_challenge": challenge,
                "code_challenge_method": "S256",
                "state": state,
                "resource": self._context.resource,
            }
            if scope:
                params["scope"] = scope
            endpoint = meta.authorization_endpoint
            url = endpoint + ("&" if urlsplit(endpoint).query else "?") + urlencode(params)
            check_openable(url)
            self._context.requested_scope = scope
            self._context.emit(
                "authorize",
                f"authorization URL ready (PKCE S256, scope {scope or '(omitted)'}, resource "
                f"{self._context.resource}); waiting for the redirect to {listener.redirect_uri}",
                url=url,
                details={"parameters": params},
            )
            await self._context.step("authorize", "open the authorization URL in the browser", url)
            listener.expect(state)
            await self._context.opener(AuthorizationPrompt(url, listener.redirect_uri))
            response = await listener.wait(self._context.settings.login_timeout)
        finally:
            self._pending = None
            await listener.close()
        self._context.redactor.add(response.code)
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
        self._context.emit(
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
            "resource": self._context.resource,
        }
        return await self._token_endpoint.request(meta, client, form, scope, what="token exchange")

    async def _open_listener(self, meta: ServerMetadata) -> LoopbackRedirect:
        settings = self._context.settings
        port = settings.redirect_port
        if port == 0 and settings.client_id is None:
            stored = self._context.store.load_client(meta.issuer)
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
        self._context.emit(
            "redirect",
            f"listening for the redirect on {listener.redirect_uri} (this login only)",
        )
        return listener

    async def _client_credentials(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        client = self._registration.configured_client(meta, "client_credentials")
        if meta.grant_types is not None and "client_credentials" not in meta.grant_types:
            self._context.emit(
                "token",
                "the authorization server does not list client_credentials in "
                "grant_types_supported; trying anyway",
                "warning",
            )
        form = {"grant_type": "client_credentials", "resource": self._context.resource}
        if scope:
            form["scope"] = scope
        self._context.requested_scope = scope
        return await self._token_endpoint.request(
            meta, client, form, scope, what="client credentials grant"
        )

    async def _jwt_bearer(self, meta: ServerMetadata, scope: str | None) -> TokenSet:
        s = self._context.settings
        client = self._registration.configured_client(meta, "JWT-bearer")
        if s.assertion_provider is not None:
            asked = AssertionContext(
                issuer=meta.issuer,
                token_endpoint=meta.token_endpoint,
                resource=self._context.resource,
                scope=scope,
                note=lambda step, message: self._context.emit(step, message),
            )
            await self._context.step("assertion", "obtain the assertion for the JWT-bearer grant")
            assertion = await s.assertion_provider(asked)
        elif s.assertion:
            assertion = s.assertion
        else:
            raise TokenError("the JWT-bearer grant needs an assertion, and none is configured")
        self._context.redactor.add(assertion)
        form = {
            "grant_type": GRANT_JWT_BEARER,
            "assertion": assertion,
            "resource": self._context.resource,
        }
        if scope:
            form["scope"] = scope
        self._context.requested_scope = scope
        try:
            return await self._token_endpoint.request(
                meta, client, form, scope, what="JWT-bearer grant"
            )
        except TokenError as exc:
            # RFC 7523 / SEP-1933: surface the error; no retry, no other grant.
            self._grant_failure = exc.oauth_error or "refused"
            raise
