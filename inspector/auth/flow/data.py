"""Plain data of the OAuth flow: settings, metadata found, the client, the token set."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = [
    "DEFAULT_CLIENT_NAME",
    "GRANT_JWT_BEARER",
    "AssertionContext",
    "AssertionProvider",
    "ClientInfo",
    "Grant",
    "OAuthSettings",
    "ProtectedResource",
    "RegistrationMode",
    "ServerMetadata",
    "TokenSet",
]

DEFAULT_CLIENT_NAME: Final = "MCP Inspector (Qt)"
GRANT_JWT_BEARER: Final = "urn:ietf:params:oauth:grant-type:jwt-bearer"

Grant = Literal["authorization_code", "client_credentials", "jwt_bearer"]
RegistrationMode = Literal["auto", "preregistered", "cimd", "dcr"]
AuthMethod = Literal["client_secret_basic", "client_secret_post", "none", "private_key_jwt"]


@dataclass(frozen=True, slots=True)
class AssertionContext:
    """What an assertion provider (jwt_bearer grant) knows about the target."""

    issuer: str
    token_endpoint: str
    resource: str
    scope: str | None
    note: Callable[[str, str], None]  # (step, message): report progress to the listeners


AssertionProvider = Callable[[AssertionContext], Awaitable[str]]


@dataclass
class OAuthSettings:
    """How to authorize with one server. Secrets here (client secret, private key,
    assertion) are held in memory only; the profile keeps them in keyring."""

    grant: Grant = "authorization_code"
    registration: RegistrationMode = "auto"
    # Pre-registration (spec "Client Registration": used first when present).
    client_id: str | None = None
    client_secret: str | None = None
    token_endpoint_auth_method: str | None = None  # None: choose from the AS metadata
    private_key_pem: str | None = None  # private_key_jwt client authentication
    signing_alg: str = "ES256"
    preregistered_issuer: str | None = None  # the AS the credentials belong to, if known
    # Client ID Metadata Document: the HTTPS URL of our client metadata, if one is hosted.
    cimd_url: str | None = None
    client_name: str = DEFAULT_CLIENT_NAME
    application_type: Literal["native", "web"] = "native"
    # Scope: None = the spec's selection strategy (challenge, then scopes_supported).
    scope: str | None = None
    request_offline_access: bool = True  # when the AS lists offline_access (SEP-2207)
    # The loopback redirect.
    redirect_host: str = "127.0.0.1"
    redirect_port: int = 0  # 0: reuse the registered port if any, else random
    redirect_path: str = "/callback"
    login_timeout: float = 300.0
    # Step-up (403 insufficient_scope): re-authorizations allowed per request.
    max_step_ups: int = 2
    # DPoP (RFC 9449) when the AS advertises dpop_signing_alg_values_supported with ES256.
    dpop: Literal["auto", "never"] = "auto"
    # jwt_bearer grant (RFC 7523 §2.1): a fixed assertion or a provider of one.
    assertion: str | None = None
    assertion_provider: AssertionProvider | None = None
    # Refresh this long before expiry.
    refresh_skew: float = 60.0
    # Authorization server endpoints must be HTTPS unless on loopback (spec "Communication
    # Security"); a debugger may relax that for a development server.
    allow_insecure_http: bool = False
    http_timeout: float = 30.0


@dataclass(frozen=True, slots=True)
class ProtectedResource:
    """RFC 9728 metadata of the MCP server."""

    url: str  # where it was found
    resource: str
    authorization_servers: tuple[str, ...]
    scopes_supported: tuple[str, ...] | None
    raw: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ServerMetadata:
    """RFC 8414 / OIDC metadata of the authorization server (or the 2025-03-26 defaults)."""

    issuer: str
    kind: Literal["oauth", "oidc", "fallback"]
    url: str | None  # where it was found; None for the defaults
    authorization_endpoint: str | None
    token_endpoint: str
    registration_endpoint: str | None
    scopes_supported: tuple[str, ...] | None
    code_challenge_methods: tuple[str, ...] | None
    token_endpoint_auth_methods: tuple[str, ...] | None
    grant_types: tuple[str, ...] | None
    iss_parameter_supported: bool
    cimd_supported: bool
    dpop_algs: tuple[str, ...] | None
    raw: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ClientInfo:
    client_id: str
    method: Literal["preregistered", "cimd", "dcr"]
    client_secret: str | None = None
    auth_method: str | None = None
    redirect_uris: tuple[str, ...] = ()
    issuer: str | None = None

    def to_store(self) -> dict[str, Any]:
        return {
            "client_id": self.client_id,
            "client_secret": self.client_secret,
            "token_endpoint_auth_method": self.auth_method,
            "redirect_uris": list(self.redirect_uris),
            "issuer": self.issuer,
            "registered_at": int(time.time()),
        }

    @classmethod
    def from_store(cls, data: Mapping[str, Any]) -> ClientInfo | None:
        client_id = data.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            return None
        secret = data.get("client_secret")
        method = data.get("token_endpoint_auth_method")
        uris = data.get("redirect_uris")
        issuer = data.get("issuer")
        return cls(
            client_id=client_id,
            method="dcr",
            client_secret=secret if isinstance(secret, str) else None,
            auth_method=method if isinstance(method, str) else None,
            redirect_uris=tuple(u for u in uris if isinstance(u, str))
            if isinstance(uris, list)
            else (),
            issuer=issuer if isinstance(issuer, str) else None,
        )


@dataclass
class TokenSet:
    access_token: str
    token_type: str  # "Bearer" or "DPoP"
    issuer: str
    resource: str
    refresh_token: str | None = None
    expires_at: float | None = None
    scope: str | None = None
    obtained_at: float = field(default_factory=time.time)
    dpop_jwk: dict[str, Any] | None = None  # the private DPoP key the token is bound to

    @property
    def is_dpop(self) -> bool:
        return self.token_type.lower() == "dpop"

    def expires_in(self, now: float | None = None) -> float | None:
        if self.expires_at is None:
            return None
        return self.expires_at - (time.time() if now is None else now)

    def to_store(self) -> dict[str, Any]:
        return {
            "access_token": self.access_token,
            "token_type": self.token_type,
            "issuer": self.issuer,
            "resource": self.resource,
            "refresh_token": self.refresh_token,
            "expires_at": self.expires_at,
            "scope": self.scope,
            "obtained_at": self.obtained_at,
            "dpop_jwk": self.dpop_jwk,
        }

    @classmethod
    def from_store(cls, data: Mapping[str, Any]) -> TokenSet | None:
        access = data.get("access_token")
        issuer = data.get("issuer")
        resource = data.get("resource")
        if not all(isinstance(v, str) and v for v in (access, issuer, resource)):
            return None
        assert isinstance(access, str) and isinstance(issuer, str) and isinstance(resource, str)

        def opt_str(name: str) -> str | None:
            v = data.get(name)
            return v if isinstance(v, str) and v else None

        def opt_num(name: str) -> float | None:
            v = data.get(name)
            return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None

        jwk = data.get("dpop_jwk")
        return cls(
            access_token=access,
            token_type=opt_str("token_type") or "Bearer",
            issuer=issuer,
            resource=resource,
            refresh_token=opt_str("refresh_token"),
            expires_at=opt_num("expires_at"),
            scope=opt_str("scope"),
            obtained_at=opt_num("obtained_at") or time.time(),
            dpop_jwk=dict(jwk) if isinstance(jwk, dict) else None,
        )
