"""The DPoP (RFC 9449) state of one connection: the key the current token is bound to, and
the latest nonce each server handed out.

Both the token endpoint (proofs for token requests) and the request path (a proof on every
MCP request) sign with the same key and honour the same nonces, so they share this object
rather than each keeping a copy that could drift apart."""

from __future__ import annotations

import httpx

from inspector.auth.failures import AuthError
from inspector.auth.flow.data import OAuthSettings, ServerMetadata, TokenSet
from inspector.auth.flow.jose import DpopKey
from inspector.auth.urls import origin_of

__all__ = ["DpopState"]


class DpopState:
    def __init__(self, settings: OAuthSettings) -> None:
        self._settings = settings
        self.key: DpopKey | None = None
        self._nonces: dict[str, str] = {}  # by origin: a nonce is per server

    def wanted(self, meta: ServerMetadata) -> bool:
        """DPoP is used when the settings allow it and the AS signs with our algorithm."""
        return (
            self._settings.dpop == "auto"
            and meta.dpop_algs is not None
            and DpopKey.alg in meta.dpop_algs
        )

    def key_for(self, tokens: TokenSet) -> DpopKey:
        """The key `tokens` are bound to (rebuilt from the stored private JWK when the token
        came from the keyring or another key is loaded)."""
        if self.key is None or (
            tokens.dpop_jwk is not None and tokens.dpop_jwk.get("x") != self.key.public_jwk()["x"]
        ):
            if tokens.dpop_jwk is None:
                raise AuthError("a DPoP token without its key", step="dpop")
            self.key = DpopKey.from_private_jwk(tokens.dpop_jwk)
        return self.key

    def remember_nonce(self, response: httpx.Response) -> None:
        nonce = response.headers.get("dpop-nonce")
        if nonce:
            self._nonces[origin_of(str(response.request.url))] = nonce

    def nonce_for(self, url: str) -> str | None:
        return self._nonces.get(origin_of(url))

    def forget_key(self) -> None:
        """Logging out drops the key with the token (nonces stay: they belong to servers)."""
        self.key = None
