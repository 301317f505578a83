"""The token endpoint: client authentication methods, token requests (with DPoP proofs and
the nonce retry), and refresh.

`TokenEndpoint` turns a grant's form into a `TokenSet`: it authenticates the client the way
the authorization server supports, checks the response, makes the new tokens the context's
current ones and saves them. It asks `Registration` for the client only to refresh a token
obtained before (the login's own client is handed to `request`).
"""

from __future__ import annotations

import base64
import time
from typing import Final
from urllib.parse import quote

import httpx

from inspector.auth.failures import TokenError
from inspector.auth.flow.context import FlowContext, expiry_text
from inspector.auth.flow.data import ClientInfo, ServerMetadata, TokenSet
from inspector.auth.flow.events import fingerprint
from inspector.auth.flow.jose import CLIENT_ASSERTION_TYPE, DpopKey, sign_client_assertion
from inspector.auth.flow.registration import Registration
from inspector.auth.flow.responses import describe_status, json_object
from inspector.auth.flow.stored_tokens import StoredTokens

__all__ = ["TokenEndpoint"]

_BODY_EXCERPT: Final = 300  # characters of a non-JSON error body shown in the error


class TokenEndpoint:
    def __init__(
        self, context: FlowContext, registration: Registration, stored: StoredTokens
    ) -> None:
        self._context = context
        self._registration = registration
        self._stored = stored

    def _auth_method(self, meta: ServerMetadata, client: ClientInfo) -> str:
        supported = meta.token_endpoint_auth_methods or ("client_secret_basic",)
        if client.auth_method:
            if meta.token_endpoint_auth_methods and client.auth_method not in supported:
                self._context.emit(
                    "token",
                    f"the client is set up for {client.auth_method}, which the authorization "
                    f"server does not list ({', '.join(supported)}); using it anyway",
                    "warning",
                )
            return client.auth_method
        if self._context.settings.private_key_pem and client.method == "preregistered":
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
            if not self._context.settings.private_key_pem:
                raise TokenError("private_key_jwt needs a private key, and none is configured")
            assertion = sign_client_assertion(
                client_id=client.client_id,
                audience=meta.issuer,
                private_key_pem=self._context.settings.private_key_pem,
                alg=self._context.settings.signing_alg,
            )
            self._context.redactor.add(assertion)
            form["client_id"] = client.client_id
            form["client_assertion_type"] = CLIENT_ASSERTION_TYPE
            form["client_assertion"] = assertion
        else:
            form["client_id"] = client.client_id
        return method

    async def request(
        self,
        meta: ServerMetadata,
        client: ClientInfo,
        form: dict[str, str],
        requested_scope: str | None,
        *,
        what: str,
        refreshing: TokenSet | None = None,
    ) -> TokenSet:
        """POST `form` (a grant, or a refresh of `refreshing`) and return the tokens, now the
        current ones and saved. A DPoP proof goes along when the tokens are, or are to be,
        DPoP-bound; one `use_dpop_nonce` answer is retried with the nonce given."""
        headers = {
            "Accept": "application/json",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        method = self._client_auth(meta, client, form, headers)
        dpop: DpopKey | None = None
        if refreshing is not None and refreshing.is_dpop:
            dpop = self._context.dpop.key_for(refreshing)
        elif self._context.dpop.wanted(meta):
            dpop = DpopKey()
            self._context.redactor.add(str(dpop.private_jwk().get("d", "")))
        url = meta.token_endpoint
        shown = {k: v for k, v in form.items()}
        self._context.emit(
            "token",
            f"{what} at the token endpoint (client authentication {method}"
            + (", DPoP proof" if dpop else "")
            + ")",
            url=url,
            details={"form": shown},
        )
        await self._context.step("refresh" if refreshing else "token", what, url)
        async with self._context.http() as http:
            response: httpx.Response | None = None
            for attempt in range(2):
                if dpop is not None:
                    headers["DPoP"] = dpop.proof(
                        "POST", url, nonce=self._context.dpop.nonce_for(url)
                    )
                try:
                    response = await http.post(url, data=form, headers=headers)
                except httpx.HTTPError as exc:
                    raise TokenError(f"the {what} request failed: {exc}") from None
                self._context.dpop.remember_nonce(response)
                doc = json_object(response)
                if (
                    dpop is not None
                    and attempt == 0
                    and response.status_code in (400, 401)
                    and doc is not None
                    and doc.get("error") == "use_dpop_nonce"
                    and response.headers.get("dpop-nonce")
                ):
                    self._context.emit(
                        "dpop",
                        "the authorization server asked for a DPoP nonce; retrying with it",
                        url=url,
                    )
                    continue
                break
        assert response is not None
        doc = json_object(response)
        if response.status_code != 200 or doc is None:
            error = doc.get("error") if doc else None
            description = doc.get("error_description") if doc else None
            text = (
                f"{error}" + (f" ({description})" if description else "")
                if error
                else self._context.redactor.text(response.text[:_BODY_EXCERPT])
            )
            self._context.emit(
                "token",
                f"the {what} was refused: {describe_status(response)}: {text}",
                "error",
                url=url,
            )
            raise TokenError(
                f"the token endpoint refused the {what} ({describe_status(response)}: {text})",
                oauth_error=str(error) if error else None,
            )
        access = doc.get("access_token")
        token_type = doc.get("token_type")
        if not isinstance(access, str) or not access:
            raise TokenError(f"the {what} response has no access_token")
        self._context.redactor.add(access)
        refresh = doc.get("refresh_token")
        self._context.redactor.add(refresh if isinstance(refresh, str) else None)
        self._context.redactor.add(
            doc.get("id_token") if isinstance(doc.get("id_token"), str) else None
        )
        if not isinstance(token_type, str) or token_type.lower() not in ("bearer", "dpop"):
            raise TokenError(
                f"the {what} response has an unsupported token_type {token_type!r} "
                "(expected Bearer or DPoP)"
            )
        if token_type.lower() == "dpop" and dpop is None:
            raise TokenError("the authorization server issued a DPoP token without a DPoP proof")
        if token_type.lower() == "bearer" and dpop is not None:
            self._context.emit(
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
            resource=self._context.resource,
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
            self._context.dpop.key = dpop
        self._context.tokens = tokens
        self._context.learn(tokens)
        self._context.emit(
            "token",
            f"received an access token ({tokens.token_type}, {fingerprint(access)}), "
            + ("a refresh token" if tokens.refresh_token else "no refresh token")
            + f", scope {tokens.scope or '(none given)'}",
            "ok",
            url=url,
            details={"response": doc},
        )
        self._context.emit("expiry", expiry_text(tokens))
        self._stored.save(tokens)
        return tokens

    async def refresh(self, meta: ServerMetadata, tokens: TokenSet) -> bool:
        """Refresh; on failure forget the refresh token and return False (then log in)."""
        assert tokens.refresh_token is not None
        client = self._registration.client or await self._registration.known_client(meta)
        if client is None:
            self._context.emit(
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
            await self.request(
                meta, client, form, tokens.scope, what="token refresh", refreshing=tokens
            )
        except TokenError as exc:
            self._context.emit(
                "refresh", f"the refresh failed ({exc}); a new login is needed", "warning"
            )
            tokens.refresh_token = None
            return False
        return True
