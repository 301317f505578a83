"""Enterprise-managed authorization (SEP-990, the "identity assertion authorization
grant"): the user's ID token from the enterprise IdP is exchanged there (RFC 8693 token
exchange) for an ID-JAG, which the MCP server's authorization server accepts as a
JWT-bearer assertion (RFC 7523 §2.1).

`id_jag_provider(...)` returns an `AssertionProvider` for `OAuthSettings(grant="jwt_bearer")`.
"""

from __future__ import annotations

import json
from typing import Final

import httpx

from inspector.auth.failures import TokenError
from inspector.auth.flow.data import AssertionContext, AssertionProvider

__all__ = ["ID_JAG_TOKEN_TYPE", "ID_TOKEN_TYPE", "TOKEN_EXCHANGE_GRANT", "id_jag_provider"]

TOKEN_EXCHANGE_GRANT: Final = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN_TYPE: Final = "urn:ietf:params:oauth:token-type:id_token"


def id_jag_provider(
    *,
    idp_token_endpoint: str,
    idp_client_id: str,
    id_token: str,
    idp_client_secret: str | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    timeout: float = 30.0,
) -> AssertionProvider:
    async def provide(context: AssertionContext) -> str:
        form = {
            "grant_type": TOKEN_EXCHANGE_GRANT,
            "requested_token_type": ID_JAG_TOKEN_TYPE,
            "audience": context.issuer,
            "resource": context.resource,
            "subject_token": id_token,
            "subject_token_type": ID_TOKEN_TYPE,
            "client_id": idp_client_id,
        }
        if idp_client_secret:
            form["client_secret"] = idp_client_secret
        if context.scope:
            form["scope"] = context.scope
        context.note(
            "assertion",
            f"exchanging the ID token for an ID-JAG at the identity provider "
            f"{idp_token_endpoint} (RFC 8693; audience {context.issuer}, resource "
            f"{context.resource})",
        )
        async with httpx.AsyncClient(transport=transport, timeout=timeout) as client:
            try:
                response = await client.post(
                    idp_token_endpoint, data=form, headers={"Accept": "application/json"}
                )
            except httpx.HTTPError as exc:
                raise TokenError(
                    f"the token exchange at the identity provider failed: {exc}"
                ) from None
        try:
            doc = json.loads(response.content)
        except ValueError:
            doc = None
        if response.status_code != 200 or not isinstance(doc, dict):
            error = doc.get("error") if isinstance(doc, dict) else None
            raise TokenError(
                f"the identity provider refused the token exchange (HTTP {response.status_code}"
                + (f": {error}" if error else "")
                + ")",
                oauth_error=str(error) if error else None,
            )
        assertion = doc.get("access_token")
        issued = doc.get("issued_token_type")
        if not isinstance(assertion, str) or not assertion:
            raise TokenError("the identity provider's token exchange response has no token")
        if issued not in (None, ID_JAG_TOKEN_TYPE):
            raise TokenError(
                f"the identity provider issued a {issued!r}, not an ID-JAG ({ID_JAG_TOKEN_TYPE})"
            )
        context.note("assertion", "received an ID-JAG from the identity provider")
        return assertion

    return provide
