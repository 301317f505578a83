"""PKCE (RFC 7636): the verifier kept by the client and the S256 challenge sent with the
authorization request, so a stolen authorization code is useless on its own."""

from __future__ import annotations

import base64
import hashlib
import secrets

__all__ = ["pkce_pair"]


def pkce_pair() -> tuple[str, str]:
    """(code_verifier, S256 code_challenge), RFC 7636 §4.1-4.2."""
    verifier = secrets.token_urlsafe(64)[:96]  # 43..128 unreserved characters
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
    return verifier, challenge
