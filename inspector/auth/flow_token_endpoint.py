"""The token endpoint: client authentication methods, token requests, refresh."""

from __future__ import annotations

import base64
import logging
import time
from typing import Final
from urllib.parse import quote

import httpx

from inspector.auth.errors import (
    TokenError,
)
from inspector.auth.events import (
    fingerprint,
)
from inspector.auth.flow_core import _describe_status, _json_object
from inspector.auth.flow_registration import _Registration
from inspector.auth.jose import CLIENT_ASSERTION_TYPE, DpopKey, sign_client_assertion
from inspector.auth.models import (
    ClientInfo,
    ServerMetadata,
    TokenSet,
)
from inspector.auth.urls import (
    origin_of,
)

log = logging.getLogger("inspector.auth")

_OFFLINE: Final = "offline_access"
_BODY_EXCERPT: Final = 300
_LOGIN_COOLDOWN: Final = 30.0  # seconds before a failed login is tried again by itself


class _TokenEndpoint(_Registration):
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
