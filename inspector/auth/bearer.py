"""`--auth bearer`: a fixed access token from the environment or the keyring."""

from __future__ import annotations

import os
from collections.abc import Generator, Mapping
from typing import Final

import httpx
import keyring
import keyring.errors

from inspector.auth.urls import canonical_resource
from inspector.storage.secrets import SERVICE

__all__ = [
    "DEFAULT_BEARER_ENV",
    "BearerAuth",
    "bearer_key",
    "find_bearer_token",
    "store_bearer_token",
]

DEFAULT_BEARER_ENV: Final = "MCP_BEARER_TOKEN"


def bearer_key(server_url: str) -> str:
    return f"bearer:{canonical_resource(server_url)}"


def find_bearer_token(
    server_url: str, *, env_name: str | None = None, environ: Mapping[str, str] | None = None
) -> tuple[str | None, str]:
    """(token, where it came from). A named env var first, else MCP_BEARER_TOKEN, else the
    keyring entry for the server."""
    env = os.environ if environ is None else environ
    if env_name:
        value = env.get(env_name)
        return (value, f"the environment variable {env_name}") if value else (None, "")
    value = env.get(DEFAULT_BEARER_ENV)
    if value:
        return value, f"the environment variable {DEFAULT_BEARER_ENV}"
    try:
        value = keyring.get_password(SERVICE, bearer_key(server_url))
    except keyring.errors.KeyringError:
        value = None
    return (value, "the keyring") if value else (None, "")


def store_bearer_token(server_url: str, token: str) -> None:
    """Save a bearer token for a server in the keyring (raises KeyringError without one)."""
    keyring.set_password(SERVICE, bearer_key(server_url), token)


class BearerAuth(httpx.Auth):
    """Adds `Authorization: Bearer <token>` to every request."""

    def __init__(self, token: str) -> None:
        self._header = f"Bearer {token}"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response]:
        request.headers["Authorization"] = self._header
        yield request
