"""What the OAuth flow reports, step by step, for the Auth panel and the CLI.

Every event is redacted before it leaves the flow: token values, client secrets,
authorization codes, PKCE verifiers and assertions never appear in an event's text or
details. Tokens are shown by a short fingerprint (the first 8 hex digits of their SHA-256)
so two tokens can be told apart without revealing either.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

__all__ = [
    "REDACTED",
    "AuthEvent",
    "AuthListener",
    "AuthRedactor",
    "AuthStep",
    "Level",
    "StepHook",
    "fingerprint",
]

log = logging.getLogger("inspector.auth")

REDACTED: Final = "•••redacted•••"
Level = Literal["info", "ok", "warning", "error"]

# Fields whose values are secret wherever they appear (token responses, form bodies, ...).
SECRET_FIELDS: Final = frozenset(
    {
        "access_token",
        "refresh_token",
        "id_token",
        "client_secret",
        "code",
        "code_verifier",
        "assertion",
        "client_assertion",
        "subject_token",
        "actor_token",
        "password",
        "private_key_pem",
        "private_key",
        "d",  # the private part of a JWK
        "authorization",
        "dpop",
        "registration_access_token",
    }
)


def fingerprint(secret: str) -> str:
    """A short, non-reversible name for a secret value: `sha256:1a2b3c4d`."""
    return "sha256:" + hashlib.sha256(secret.encode("utf-8")).hexdigest()[:8]


class AuthRedactor:
    """Knows every secret value the flow has seen and removes it from text and data."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: list[str] = []
        for secret in secrets:
            self.add(secret)

    def add(self, secret: str | None) -> None:
        if not secret or len(secret) < 4 or secret in self._secrets:
            return
        forms = {secret, json.dumps(secret)[1:-1]}
        self._secrets.extend(forms - set(self._secrets))
        self._secrets.sort(key=len, reverse=True)  # a secret containing another goes whole

    def text(self, value: str) -> str:
        for secret in self._secrets:
            if secret in value:
                value = value.replace(secret, REDACTED)
        return value

    def data(self, value: Any, key: str | None = None) -> Any:
        if key is not None and key.lower() in SECRET_FIELDS and value not in (None, ""):
            return REDACTED
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {str(k): self.data(v, str(k)) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value


@dataclass(frozen=True, slots=True)
class AuthEvent:
    """One thing that happened in the flow.

    `step` names the phase ("challenge", "discovery", "metadata", "registration",
    "authorize", "redirect", "token", "refresh", "expiry", "storage", "step-up", "error",
    ...); `message` is a plain sentence; `url` the URL involved, if any; `details` extra
    facts (already redacted). `time` is the wall clock.
    """

    step: str
    message: str
    level: Level = "info"
    url: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    time: float = field(default_factory=time.time)

    def line(self) -> str:
        """One line for a log or a terminal."""
        where = f" [{self.url}]" if self.url else ""
        return f"auth {self.step}: {self.message}{where}"


@dataclass(frozen=True, slots=True)
class AuthStep:
    """The step about to run, handed to the step-through hook before it runs."""

    name: str
    description: str
    url: str | None = None


AuthListener = Callable[[AuthEvent], None]
StepHook = Callable[[AuthStep], Awaitable[None]]
