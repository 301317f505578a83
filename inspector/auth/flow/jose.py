"""JOSE pieces the flow needs, on joserfc (the typed JOSE library of the authlib project):
DPoP proofs (RFC 9449) and signed client assertions (RFC 7523, private_key_jwt)."""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from typing import Any, Final

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import ECKey, Key, OKPKey, RSAKey, import_key

from inspector.auth.failures import AuthError
from inspector.auth.urls import strip_query

__all__ = ["DpopKey", "sign_client_assertion"]

CLIENT_ASSERTION_TYPE: Final = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
_KEY_TYPES: Final = {"ES": "EC", "RS": "RSA", "PS": "RSA", "Ed": "OKP"}


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class DpopKey:
    """A DPoP key pair (P-256, ES256) and the proofs it signs."""

    alg: Final = "ES256"

    def __init__(self, key: ECKey | None = None) -> None:
        self.key = key or ECKey.generate_key("P-256")

    @classmethod
    def from_private_jwk(cls, data: dict[str, Any]) -> DpopKey:
        return cls(ECKey.import_key(data))

    def private_jwk(self) -> dict[str, Any]:
        return dict(self.key.as_dict(private=True))

    def public_jwk(self) -> dict[str, Any]:
        return dict(self.key.as_dict(private=False))

    @property
    def thumbprint(self) -> str:
        return str(self.key.thumbprint())

    def proof(
        self,
        method: str,
        url: str,
        *,
        access_token: str | None = None,
        nonce: str | None = None,
    ) -> str:
        """A fresh proof (unique jti) for one HTTP request (RFC 9449 §4.2)."""
        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(24),
            "htm": method.upper(),
            "htu": strip_query(url),
            "iat": int(time.time()),
        }
        if access_token is not None:
            claims["ath"] = _b64url(hashlib.sha256(access_token.encode("ascii")).digest())
        if nonce is not None:
            claims["nonce"] = nonce
        header = {"typ": "dpop+jwt", "alg": self.alg, "jwk": self.public_jwk()}
        return jwt.encode(header, claims, self.key, algorithms=[self.alg])


def sign_client_assertion(
    *, client_id: str, audience: str, private_key_pem: str, alg: str = "ES256"
) -> str:
    """A `private_key_jwt` client assertion (RFC 7523 §2.2): iss = sub = client_id, aud =
    the authorization server's issuer identifier (RFC 7523bis), short-lived, unique jti."""
    key_type = _KEY_TYPES.get(alg[:2])
    if key_type is None:
        raise AuthError(f"unsupported client assertion algorithm {alg!r}", step="token")
    try:
        key: Key = import_key(private_key_pem, key_type)  # type: ignore[call-overload]
    except (JoseError, ValueError, TypeError) as exc:
        raise AuthError(
            f"the private key for private_key_jwt could not be read as a {key_type} key: {exc}",
            step="token",
        ) from None
    assert isinstance(key, ECKey | RSAKey | OKPKey)
    now = int(time.time())
    claims = {
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + 300,
        "jti": secrets.token_urlsafe(24),
    }
    return jwt.encode({"alg": alg, "typ": "JWT"}, claims, key, algorithms=[alg])
