"""The Auth section of an HTTP connection profile: the model and its validation.

Qt-free, and free of the OAuth machinery: `inspector.settings.profile_auth` turns these options
into an `httpx.Auth` at connect time. Secrets (a bearer token, a client secret) are
`SecretValue`s: the form types `value`, `ProfileStore.put` moves it into the secret store
(the OS keyring) and the profile file only says `stored`.

Every field has a default, so profile files written before this section existed load
unchanged (as "no auth").
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Final, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AuthKind",
    "BearerOptions",
    "Finding",
    "HttpAuth",
    "OAuthOptions",
    "SecretValue",
    "TokenAuthMethod",
    "validate_auth",
]

_ENV_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E )
_SCOPE_TOKEN: Final = re.compile(r"^[\x21\x23-\x5b\x5d-\x7e]+$")

AuthKind = Literal["none", "bearer", "headers", "oauth"]
TokenAuthMethod = Literal[
    "auto", "client_secret_basic", "client_secret_post", "none", "private_key_jwt"
]
Severity = Literal["error", "warning"]
Finding = tuple[str, str, Severity]  # (field, message, severity): a profiles.Problem


class _Model(BaseModel):
    # Unknown keys (from a newer version of the app) are dropped, not fatal.
    model_config = ConfigDict(extra="ignore", validate_assignment=True)


class SecretValue(_Model):
    """A secret of the profile's auth. `value` is what the form typed (never written to
    the file); `stored` says the secret store has one (keyring, or this session only)."""

    stored: bool = False
    value: str = ""

    @property
    def present(self) -> bool:
        return self.stored or bool(self.value)


class BearerOptions(_Model):
    """A fixed access token: from the secret store (typed in the profile) or the app's env."""

    source: Literal["keyring", "env"] = "keyring"
    token: SecretValue = Field(default_factory=SecretValue)
    env_name: str = ""


class OAuthOptions(_Model):
    """What a profile sets of `inspector.auth.OAuthSettings`. Empty strings mean "not set"
    (the flow's defaults apply); the client secret lives in the secret store."""

    grant: Literal["authorization_code", "client_credentials"] = "authorization_code"
    registration: Literal["auto", "preregistered", "cimd", "dcr"] = "auto"
    client_id: str = ""
    client_secret: SecretValue = Field(default_factory=SecretValue)
    cimd_url: str = ""
    scope: str = ""  # empty: the spec's selection (the challenge, else scopes_supported)
    token_auth_method: TokenAuthMethod = "auto"
    private_key_file: str = ""  # PEM, for private_key_jwt
    authorization_server: str = ""  # the issuer a pre-registered client belongs to
    redirect_port: int = 0  # 0: a random port (or the one registered before)
    login_timeout: float = 300.0
    dpop: Literal["auto", "never"] = "auto"
    offline_access: bool = True
    allow_insecure_http: bool = False


class HttpAuth(_Model):
    """ "headers" means the headers table carries the credentials (e.g. X-API-Key marked
    secret): nothing is added to the requests."""

    kind: AuthKind = "none"
    bearer: BearerOptions = Field(default_factory=BearerOptions)
    oauth: OAuthOptions = Field(default_factory=OAuthOptions)

    def secret_values(self) -> list[tuple[str, SecretValue]]:
        """(slot name, value) of every secret of the section, in use or not (a stored
        secret is kept while the user tries another kind of auth)."""
        return [("bearer_token", self.bearer.token), ("client_secret", self.oauth.client_secret)]


# ---------------------------------------------------------------------------- validation
def _is_loopback_host(host: str | None) -> bool:
    return host is not None and (host in ("localhost", "::1") or host.startswith("127."))


def validate_auth(
    auth: HttpAuth,
    url: str,
    header_names: Sequence[str],
    header_secret: Sequence[bool],
) -> list[Finding]:
    """The chosen kind of auth, checked in words a person can act on."""
    found: list[Finding] = []
    parts = urlsplit(url.strip())
    names = {n.strip().lower() for n in header_names}
    if auth.kind in ("bearer", "oauth"):
        if "authorization" in names:
            what = "bearer token" if auth.kind == "bearer" else "OAuth access token"
            found.append(
                (
                    "http.headers",
                    f"The Authorization header on the Server tab is replaced by the {what}; "
                    "remove it, or choose “Custom headers” as the auth.",
                    "warning",
                )
            )
        if parts.scheme == "http" and parts.netloc and not _is_loopback_host(parts.hostname):
            found.append(
                (
                    "http.url",
                    "The URL is http://, not https://: the token would travel in clear text "
                    "to another machine.",
                    "warning",
                )
            )
    if auth.kind == "bearer":
        found.extend(_bearer(auth.bearer))
    elif auth.kind == "headers":
        if not header_names:
            found.append(
                (
                    "http.auth",
                    "Auth is set to custom headers, but there are none: add the header the "
                    "server expects (for example Authorization or X-API-Key) on the Server "
                    "tab, and tick Secret.",
                    "warning",
                )
            )
        elif not any(header_secret):
            found.append(
                (
                    "http.auth",
                    "Auth is set to custom headers, but no header is marked Secret: its value "
                    "would be saved in the profile file in plain text.",
                    "warning",
                )
            )
    elif auth.kind == "oauth":
        found.extend(_oauth(auth.oauth))
    return found


def _bearer(bearer: BearerOptions) -> list[Finding]:
    if bearer.source == "keyring":
        if bearer.token.present:
            return []
        return [
            (
                "http.auth.bearer",
                "Enter the bearer token (it is kept in the system keyring, never in the "
                "profile file), or take it from an environment variable.",
                "error",
            )
        ]
    name = bearer.env_name.strip()
    if not name:
        return [
            ("http.auth.bearer", "Name the environment variable that holds the token.", "error")
        ]
    if not _ENV_NAME.match(name):
        return [("http.auth.bearer", f"“{name}” is not a valid variable name.", "error")]
    if not os.environ.get(name):
        return [
            (
                "http.auth.bearer",
                f"The environment variable {name} is not set for this app: connecting will "
                "fail until it is (set it before starting the app).",
                "warning",
            )
        ]
    return []


def _oauth(o: OAuthOptions) -> list[Finding]:
    found: list[Finding] = []
    client_id = o.client_id.strip()
    secret = o.client_secret.present
    method = o.token_auth_method
    if o.grant == "client_credentials":
        if not client_id:
            found.append(
                (
                    "http.auth.oauth.client_id",
                    "The client credentials grant needs the client id (and its secret or key) "
                    "that the authorization server's owner registered for you.",
                    "error",
                )
            )
        elif not secret and method not in ("private_key_jwt", "none"):
            found.append(
                (
                    "http.auth.oauth.client_secret",
                    "The client credentials grant usually needs a client secret: enter it, or "
                    "choose private_key_jwt with a key file.",
                    "warning",
                )
            )
        if o.registration in ("cimd", "dcr"):
            found.append(
                (
                    "http.auth.oauth.registration",
                    "The client credentials grant always uses the pre-registered client id; "
                    "the registration setting is ignored.",
                    "warning",
                )
            )
    elif o.registration == "preregistered" and not client_id:
        found.append(
            (
                "http.auth.oauth.client_id",
                "Registration is set to pre-registered, but there is no client id: enter the "
                "client id the authorization server's owner gave you.",
                "error",
            )
        )
    elif o.registration == "cimd" and not o.cimd_url.strip():
        found.append(
            (
                "http.auth.oauth.cimd_url",
                "Registration is set to Client ID Metadata Document, but there is no document "
                "URL: enter the https:// URL where this client's metadata is published.",
                "error",
            )
        )
    if o.cimd_url.strip():
        cimd = urlsplit(o.cimd_url.strip())
        if cimd.scheme != "https" or not cimd.netloc or cimd.path in ("", "/"):
            found.append(
                (
                    "http.auth.oauth.cimd_url",
                    "The client metadata document URL must be an https:// URL with a path "
                    "(for example https://example.com/mcp-client.json).",
                    "error",
                )
            )
    if secret and not client_id:
        found.append(
            (
                "http.auth.oauth.client_secret",
                "A client secret is set but no client id: the secret is only used with a "
                "pre-registered client id.",
                "warning",
            )
        )
    if method in ("client_secret_basic", "client_secret_post") and not secret:
        found.append(
            (
                "http.auth.oauth.client_secret",
                f"Client authentication {method} needs a client secret: enter it, or choose auto.",
                "error",
            )
        )
    if method == "private_key_jwt":
        key = o.private_key_file.strip()
        if not key:
            found.append(
                (
                    "http.auth.oauth.private_key_file",
                    "Client authentication private_key_jwt needs the private key file (PEM).",
                    "error",
                )
            )
        elif not Path(key).expanduser().is_file():
            found.append(
                (
                    "http.auth.oauth.private_key_file",
                    f"The private key file “{key}” does not exist.",
                    "error",
                )
            )
    bad = [t for t in o.scope.split() if not _SCOPE_TOKEN.match(t)]
    if bad:
        found.append(
            (
                "http.auth.oauth.scope",
                f"“{bad[0]}” is not a valid scope: scopes are separated by spaces and cannot "
                "contain quotes, backslashes or non-ASCII characters.",
                "error",
            )
        )
    issuer = o.authorization_server.strip()
    if issuer and (urlsplit(issuer).scheme not in ("http", "https") or not urlsplit(issuer).netloc):
        found.append(
            (
                "http.auth.oauth.authorization_server",
                "The authorization server must be a URL (its issuer identifier, for example "
                "https://auth.example.com).",
                "error",
            )
        )
    if not 0 <= o.redirect_port <= 65535:
        found.append(
            (
                "http.auth.oauth.redirect_port",
                "The redirect port must be between 1 and 65535 (or 0 for a random port).",
                "error",
            )
        )
    if o.login_timeout <= 0:
        found.append(
            ("http.auth.oauth.login_timeout", "The login timeout must be positive.", "error")
        )
    return found
