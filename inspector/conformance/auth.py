"""How the conformance client authorizes in the suite's `auth/*` scenarios: the real
`inspector.auth.OAuth`, with the settings a user would give, taken from the scenario's
`MCP_CONFORMANCE_CONTEXT`, tokens in memory only (a test run must not touch the keyring),
and the headless opener (the suite's mock authorization server redirects at once).
"""

from __future__ import annotations

import logging
from typing import Any, Final

from inspector.auth import AuthStore, OAuth, OAuthSettings, headless_opener
from inspector.auth.flow.enterprise import id_jag_provider

__all__ = ["CIMD_URL", "oauth_for_scenario", "settings_for_scenario"]

log = logging.getLogger("inspector.conformance.auth")

# The suite's mock authorization server accepts this URL as a Client ID Metadata Document
# client id without fetching it (auth/basic-cimd).
CIMD_URL: Final = "https://conformance-test.local/client-metadata.json"
LOGIN_TIMEOUT: Final = 15.0


def _text(context: dict[str, Any], key: str) -> str | None:
    value = context.get(key)
    return value if isinstance(value, str) and value else None


def settings_for_scenario(name: str, context: dict[str, Any]) -> OAuthSettings:
    settings = OAuthSettings(cimd_url=CIMD_URL, login_timeout=LOGIN_TIMEOUT, http_timeout=10.0)
    settings.client_id = _text(context, "client_id")
    settings.client_secret = _text(context, "client_secret")
    if name in ("auth/client-credentials-basic", "auth/client-credentials-jwt"):
        settings.grant = "client_credentials"
    if name == "auth/client-credentials-jwt":
        settings.private_key_pem = _text(context, "private_key_pem")
        settings.signing_alg = _text(context, "signing_algorithm") or "ES256"
        settings.token_endpoint_auth_method = "private_key_jwt"
    if name == "auth/wif-jwt-bearer":
        settings.grant = "jwt_bearer"
        settings.assertion = _text(context, "valid_jwt")
    if name == "auth/enterprise-managed-authorization":
        settings.grant = "jwt_bearer"
        endpoint = _text(context, "idp_token_endpoint")
        idp_client = _text(context, "idp_client_id")
        id_token = _text(context, "idp_id_token")
        if endpoint and idp_client and id_token:
            settings.assertion_provider = id_jag_provider(
                idp_token_endpoint=endpoint, idp_client_id=idp_client, id_token=id_token
            )
    return settings


def oauth_for_scenario(name: str, url: str, context: dict[str, Any]) -> OAuth:
    oauth = OAuth(
        url,
        settings_for_scenario(name, context),
        store=AuthStore(memory_only=True),
        opener=headless_opener(),
    )
    for key in ("idp_id_token", "valid_jwt", "wrong_audience_jwt", "expired_jwt"):
        oauth.add_secret(_text(context, key))
    return oauth
