"""Which form fields are secrets: never remembered between calls.

A field is secret when its schema says so (`format: password`, `writeOnly`) or its name
ends, in whole words, with a name of the list the user edits (Client ▸ Secret field
names…). Whole words, not substrings: "maxTokens" is not a secret because of "token".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Final

__all__ = ["DEFAULT_SECRET_NAMES", "looks_secret", "name_key", "secret_reason"]

# Field names whose values are never remembered. A name matches when it ends with one of
# them in whole words (case, "_" and "-" aside): "apiKey", "github_token" and "accessToken"
# match; "maxTokens", "tokenCount" and "spin" do not. The user edits this list.
DEFAULT_SECRET_NAMES: Final = (
    "password",
    "passwd",
    "passphrase",
    "secret",
    "client_secret",
    "token",
    "access_token",
    "refresh_token",
    "id_token",
    "api_key",
    "auth",
    "authorization",
    "bearer",
    "cookie",
    "session_id",
    "private_key",
    "credential",
    "credentials",
    "pin",
)

_WORD: Final = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def name_key(name: str) -> str:
    """A field name as the secret names list compares it: lower case, letters and digits."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def secret_reason(
    name: str, schema: dict[str, Any] | None = None, names: Iterable[str] = DEFAULT_SECRET_NAMES
) -> str | None:
    """Why a field's value must never be remembered, or None: the schema says so
    (`format: password`, `writeOnly`), or its name is in the secret names list."""
    if isinstance(schema, dict):
        if schema.get("format") == "password":
            return "format: password"
        if schema.get("writeOnly") is True:
            return "writeOnly"
    if name:
        keys = {name_key(n) for n in names}
        words = [w.lower() for w in _WORD.findall(name)]
        if any("".join(words[i:]) in keys for i in range(len(words))):
            return "its name is in the secret field names"
    return None


def looks_secret(
    name: str, schema: dict[str, Any] | None = None, names: Iterable[str] = DEFAULT_SECRET_NAMES
) -> bool:
    return secret_reason(name, schema, names) is not None
