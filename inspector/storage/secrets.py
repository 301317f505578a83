"""Secret values of profiles (tokens in headers, API keys in env) through `keyring`.

Secrets never go into the profile JSON. They live in the OS keyring under the
service "mcp-inspector-qt", one entry per profile id, kind and name. When there is
no keyring backend (a headless Linux without a Secret Service), we say so plainly
and, only when the user agrees, keep the value in memory for this session. We never
fall back to a plaintext file (and never depend on keyrings.alt).
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass
from typing import Final, Literal

__all__ = [
    "SERVICE",
    "KeyringStatus",
    "NoKeyringError",
    "SecretStore",
    "keyring_status",
]

log = logging.getLogger(__name__)

SERVICE: Final = "mcp-inspector-qt"
Where = Literal["keyring", "session"]


class NoKeyringError(Exception):
    """No usable keyring backend; the message says so plainly and what to do."""


@dataclass(frozen=True, slots=True)
class KeyringStatus:
    available: bool
    backend: str
    message: str


NO_KEYRING_MESSAGE: Final = (
    "No system keyring is available (no Secret Service, KWallet or macOS/Windows "
    "keychain was found), so secret values cannot be saved. They can be kept in "
    "memory for this session only; you will have to enter them again next time."
)


def keyring_status() -> KeyringStatus:
    import keyring  # here, not at import time: a run that keeps no secret never loads it

    try:
        backend = keyring.get_keyring()
    except Exception as exc:  # a broken keyring config must not stop the app
        return KeyringStatus(False, "error", f"The keyring could not be loaded: {exc}")
    name = f"{type(backend).__module__}.{type(backend).__name__}"
    priority = getattr(backend, "priority", 1)
    if "fail" in type(backend).__module__ or (isinstance(priority, int | float) and priority <= 0):
        return KeyringStatus(False, name, NO_KEYRING_MESSAGE)
    return KeyringStatus(True, name, f"Secrets are stored in the system keyring ({name}).")


def _username(profile_id: str, kind: str, name: str) -> str:
    return f"profile:{profile_id}:{kind}:{name}"


class SecretStore:
    """Keyring first; an in-memory map for values the user chose to keep for this session."""

    def __init__(self) -> None:
        self._session: dict[str, str] = {}

    def status(self) -> KeyringStatus:
        return keyring_status()

    def set(
        self, profile_id: str, kind: str, name: str, value: str, *, session_only: bool = False
    ) -> Where:
        key = _username(profile_id, kind, name)
        if session_only:
            self._session[key] = value
            return "session"
        import keyring.errors

        try:
            keyring.set_password(SERVICE, key, value)
        except keyring.errors.KeyringError as exc:
            log.info("keyring refused a secret: %s", exc)
            raise NoKeyringError(NO_KEYRING_MESSAGE) from exc
        self._session.pop(key, None)
        return "keyring"

    def get(self, profile_id: str, kind: str, name: str) -> str | None:
        key = _username(profile_id, kind, name)
        if key in self._session:
            return self._session[key]
        import keyring.errors

        try:
            return keyring.get_password(SERVICE, key)
        except keyring.errors.KeyringError:
            return None

    def where(self, profile_id: str, kind: str, name: str) -> Where | None:
        key = _username(profile_id, kind, name)
        if key in self._session:
            return "session"
        import keyring.errors

        try:
            return "keyring" if keyring.get_password(SERVICE, key) is not None else None
        except keyring.errors.KeyringError:
            return None

    def delete(self, profile_id: str, kind: str, name: str) -> None:
        key = _username(profile_id, kind, name)
        self._session.pop(key, None)
        import keyring.errors

        # Absent, or no backend: nothing to delete.
        with contextlib.suppress(keyring.errors.KeyringError):
            keyring.delete_password(SERVICE, key)
