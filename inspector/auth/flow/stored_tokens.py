"""`StoredTokens`: this server's tokens in the keyring, loaded once and saved after every
token response, with the timeline told where they went (the keyring, or memory only when
there is no keyring, which the user must know: the login will not survive a restart)."""

from __future__ import annotations

from inspector.auth.flow.context import FlowContext, expiry_text
from inspector.auth.flow.data import TokenSet
from inspector.auth.flow.events import fingerprint

__all__ = ["StoredTokens"]


class StoredTokens:
    def __init__(self, context: FlowContext) -> None:
        self._context = context
        self._loaded = False
        self._keyring_noted = False

    def load_once(self) -> None:
        """Take the stored token of this server, if any, as the current one (first call only)."""
        if self._loaded:
            return
        self._loaded = True
        context = self._context
        index = context.store.load_server(context.server_key)
        self._note_keyring()
        if index is None:
            return
        issuer = index.get("issuer")
        resource = index.get("resource")
        if not isinstance(issuer, str) or not isinstance(resource, str):
            return
        data = context.store.load_tokens(issuer, resource)
        tokens = TokenSet.from_store(data) if data else None
        if tokens is None:
            return
        context.tokens = tokens
        context.resource = resource
        context.requested_scope = tokens.scope
        context.learn(tokens)
        context.emit(
            "storage",
            f"using the stored token from {issuer} ({tokens.token_type}, "
            f"{fingerprint(tokens.access_token)}; {expiry_text(tokens)})",
            "ok",
        )

    def save(self, tokens: TokenSet) -> None:
        context = self._context
        where = context.store.save_tokens(tokens.issuer, tokens.resource, tokens.to_store())
        context.store.save_server(context.server_key, tokens.issuer, tokens.resource)
        self._note_keyring()
        context.emit(
            "storage",
            "token stored in the system keyring"
            if where == "keyring"
            else "token kept in memory for this session only (no keyring)",
            "info" if where == "keyring" else "warning",
        )

    def _note_keyring(self) -> None:
        context = self._context
        if not self._keyring_noted and context.store.session_only:
            self._keyring_noted = True
            context.emit("storage", context.store.status_message, "warning")
