"""An `mcp` 2.x server protected by OAuth, with the SDK's own authorization server pieces
(mcp.server.auth): RFC 9728 metadata, RFC 8414 metadata, DCR, authorize (approves at once,
like a consented user), token with refresh, revocation. Test peer only.

    python tests/servers/sdk/oauth_server.py PORT [ACCESS_TTL_SECONDS]

POST /test/revoke-all (no auth) revokes every access and refresh token, so a test can
simulate a revoked login. The authorization endpoint redirects straight back, so the
inspector's headless opener can complete the login without a browser.
"""

from __future__ import annotations

import secrets
import sys
import time
import warnings

from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from starlette.requests import Request
from starlette.responses import JSONResponse

PORT = int(sys.argv[1])
TTL = int(sys.argv[2]) if len(sys.argv) > 2 else 3600
BASE = f"http://127.0.0.1:{PORT}"


class Provider:
    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.counts = {"authorize": 0, "code": 0, "refresh": 0}
        self.issued: list[str] = []  # every token and code handed out

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info

    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        self.counts["authorize"] += 1
        code = secrets.token_urlsafe(32)
        self.issued.append(code)
        assert client.client_id is not None
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access = "sdk-at-" + secrets.token_urlsafe(24)
        refresh = "sdk-rt-" + secrets.token_urlsafe(24)
        self.issued += [access, refresh]
        self.access[access] = AccessToken(
            token=access,
            client_id=client_id,
            scopes=scopes,
            expires_at=int(time.time()) + TTL,
            resource=resource,
        )
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource
        )
        return OAuthToken(
            access_token=access,
            token_type="Bearer",
            expires_in=TTL,
            refresh_token=refresh,
            scope=" ".join(scopes) or None,
        )

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        self.counts["code"] += 1
        assert client.client_id is not None
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)  # rotate
        self.counts["refresh"] += 1
        assert client.client_id is not None
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is not None and found.expires_at is not None and found.expires_at < time.time():
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)


provider = Provider()
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    server = MCPServer(
        "oauth-peer",
        auth_server_provider=provider,
        auth=AuthSettings(
            issuer_url=BASE,  # type: ignore[arg-type]
            resource_server_url=f"{BASE}/mcp",  # type: ignore[arg-type]
            client_registration_options=ClientRegistrationOptions(
                enabled=True, valid_scopes=["mcp"], default_scopes=["mcp"]
            ),
            revocation_options=RevocationOptions(enabled=True),
            required_scopes=["mcp"],
            validate_token_resource=True,
        ),
    )


@server.tool()
def whoami() -> str:
    """Say hello to the authorized caller."""
    return "hello, authorized caller"


@server.custom_route("/test/revoke-all", methods=["POST"])
async def revoke_all(request: Request) -> JSONResponse:
    provider.access.clear()
    provider.refresh.clear()
    return JSONResponse({"revoked": True})


@server.custom_route("/test/secrets", methods=["GET"])
async def issued_secrets(request: Request) -> JSONResponse:
    """Every secret value handed out so far (tests search their output for them)."""
    values = [c.client_secret for c in provider.clients.values() if c.client_secret]
    values += list(provider.issued)
    return JSONResponse(values)


@server.custom_route("/test/counts", methods=["GET"])
async def counts(request: Request) -> JSONResponse:
    return JSONResponse(provider.counts)


if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=PORT)
