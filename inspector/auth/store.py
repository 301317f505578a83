"""Where tokens and client registrations live: the OS keyring, never a file.

Entries go under the service `mcp-inspector-qt` (shared with profile secrets), as JSON:

* `oauth:token:<issuer> <resource>`: the token set (access and refresh token, type, expiry,
  granted scope, and the DPoP key when the token is sender-constrained);
* `oauth:client:<issuer>`: a dynamically registered client (id, secret, auth method,
  redirect URIs). CIMD and pre-registered clients are not stored here;
* `oauth:server:<server URL>`: which issuer and resource protect that server (not secret;
  it lets a later run find the token before the server asks, and "log out" find it all).

Without a usable keyring backend (a headless Linux has none), everything is kept in this
process's memory only, and `session_only` says so; `status_message` explains it plainly.
Nothing is ever written to a plaintext file (and keyrings.alt is not a dependency).
"""

from __future__ import annotations

import json
import logging
from typing import Any, Final, Literal

import keyring
import keyring.errors

from inspector.storage.secrets import NO_KEYRING_MESSAGE, SERVICE, keyring_status

__all__ = ["SESSION_ONLY_MESSAGE", "AuthStore", "Where"]

log = logging.getLogger(__name__)

Where = Literal["keyring", "memory"]
SESSION_ONLY_MESSAGE: Final = (
    NO_KEYRING_MESSAGE.split(", so ")[0]
    + ", so tokens and client registrations are kept in memory for this session only: "
    "you will have to log in again next time. Nothing is written to a file."
)


def token_key(issuer: str, resource: str) -> str:
    return f"oauth:token:{issuer} {resource}"


def client_key(issuer: str) -> str:
    return f"oauth:client:{issuer}"


def server_key(server_url: str) -> str:
    return f"oauth:server:{server_url}"


class AuthStore:
    """Keyring first; process memory when there is no keyring (or `memory_only`)."""

    def __init__(self, *, service: str = SERVICE, memory_only: bool = False) -> None:
        self.service = service
        self.memory_only = memory_only
        self._memory: dict[str, str] = {}
        self._keyring_failed = False

    # ------------------------------------------------------------------ state
    @property
    def session_only(self) -> bool:
        """True when values are (or will be) kept in memory only."""
        if self.memory_only or self._keyring_failed:
            return True
        return not keyring_status().available

    @property
    def status_message(self) -> str:
        if self.memory_only:
            return "Tokens are kept in memory for this session only (by request)."
        if self.session_only:
            return SESSION_ONLY_MESSAGE
        return keyring_status().message

    # ------------------------------------------------------------------ raw
    def _get(self, key: str) -> str | None:
        if key in self._memory or self.memory_only:
            return self._memory.get(key)
        try:
            return keyring.get_password(self.service, key)
        except keyring.errors.KeyringError as exc:
            self._note_failure(exc)
            return None

    def _set(self, key: str, value: str) -> Where:
        if not self.memory_only and not self._keyring_failed:
            try:
                keyring.set_password(self.service, key, value)
            except keyring.errors.KeyringError as exc:
                self._note_failure(exc)
            else:
                self._memory.pop(key, None)
                return "keyring"
        self._memory[key] = value
        return "memory"

    def _delete(self, key: str) -> bool:
        found = self._memory.pop(key, None) is not None
        if self.memory_only:
            return found
        try:
            keyring.delete_password(self.service, key)
            found = True
        except keyring.errors.PasswordDeleteError:
            pass  # not there
        except keyring.errors.KeyringError as exc:
            self._note_failure(exc)
        return found

    def _note_failure(self, exc: Exception) -> None:
        if not self._keyring_failed:
            log.info("keyring unavailable (%s): keeping auth state in memory", type(exc).__name__)
        self._keyring_failed = True

    def _get_json(self, key: str) -> dict[str, Any] | None:
        raw = self._get(key)
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except ValueError:
            log.warning("ignoring an unreadable keyring entry %s", key.split(" ")[0])
            return None
        return value if isinstance(value, dict) else None

    def _set_json(self, key: str, value: dict[str, Any]) -> Where:
        return self._set(key, json.dumps(value, separators=(",", ":")))

    # ------------------------------------------------------------------ tokens
    def load_tokens(self, issuer: str, resource: str) -> dict[str, Any] | None:
        return self._get_json(token_key(issuer, resource))

    def save_tokens(self, issuer: str, resource: str, tokens: dict[str, Any]) -> Where:
        return self._set_json(token_key(issuer, resource), tokens)

    def forget_tokens(self, issuer: str, resource: str) -> bool:
        return self._delete(token_key(issuer, resource))

    # ------------------------------------------------------------------ clients
    def load_client(self, issuer: str) -> dict[str, Any] | None:
        return self._get_json(client_key(issuer))

    def save_client(self, issuer: str, client: dict[str, Any]) -> Where:
        return self._set_json(client_key(issuer), client)

    def forget_client(self, issuer: str) -> bool:
        return self._delete(client_key(issuer))

    # ------------------------------------------------------------------ index
    def load_server(self, server_url: str) -> dict[str, Any] | None:
        return self._get_json(server_key(server_url))

    def save_server(self, server_url: str, issuer: str, resource: str) -> Where:
        return self._set_json(server_key(server_url), {"issuer": issuer, "resource": resource})

    def forget_server(self, server_url: str) -> list[str]:
        """Log out of a server: forget its tokens, its dynamic registration and the index.
        Returns what was forgotten, as phrases for the user."""
        forgotten: list[str] = []
        index = self.load_server(server_url)
        if index is not None:
            issuer = str(index.get("issuer", ""))
            resource = str(index.get("resource", ""))
            if self.forget_tokens(issuer, resource):
                forgotten.append(f"the tokens for {resource} from {issuer}")
            if self.forget_client(issuer):
                forgotten.append(f"the client registration at {issuer}")
        if self._delete(server_key(server_url)):
            forgotten.append(f"what protects {server_url}")
        return forgotten
