"""Client registration in the spec's preference order: pre-registered, Client ID Metadata
Document (CIMD), Dynamic Client Registration (RFC 7591).

`Registration` keeps the client the login uses (`client`), which the token endpoint needs
again to refresh; a dynamically registered client is stored per issuer, so the next login at
the same authorization server reuses it.
"""

from __future__ import annotations

from typing import Any

import httpx

from inspector.auth.failures import RegistrationError
from inspector.auth.flow.context import FlowContext
from inspector.auth.flow.data import ClientInfo, ServerMetadata
from inspector.auth.flow.responses import describe_status, json_object

__all__ = ["Registration"]


class Registration:
    def __init__(self, context: FlowContext) -> None:
        self._context = context
        self.client: ClientInfo | None = None

    def forget(self) -> None:
        """Logging out: the next login registers (or picks its client) again."""
        self.client = None

    async def client_for(
        self, meta: ServerMetadata, redirect_uri: str | None, scope: str | None
    ) -> ClientInfo:
        """Registration in the spec's order: pre-registered, CIMD, DCR."""
        s = self._context.settings
        mode = s.registration
        if s.client_id and mode in ("auto", "preregistered"):
            if s.preregistered_issuer and s.preregistered_issuer != meta.issuer:
                raise RegistrationError(
                    f"the pre-registered client belongs to {s.preregistered_issuer}, but the "
                    f"server now uses {meta.issuer}: those credentials are not sent there"
                )
            client = self._preregistered(meta)
            self._context.emit(
                "registration",
                f"using the pre-registered client {s.client_id}"
                + (" (with a secret)" if s.client_secret else "")
                + (" (private_key_jwt)" if s.private_key_pem else ""),
                "ok",
            )
            self.client = client
            return client
        if mode == "preregistered":
            raise RegistrationError(
                "registration is set to pre-registered, but no client id is configured"
            )
        if mode in ("auto", "cimd"):
            if s.cimd_url and meta.cimd_supported:
                client = ClientInfo(
                    client_id=s.cimd_url, method="cimd", auth_method="none", issuer=meta.issuer
                )
                self._context.emit(
                    "registration",
                    f"using the Client ID Metadata Document {s.cimd_url} as the client id "
                    "(the authorization server supports CIMD)",
                    "ok",
                )
                self.client = client
                return client
            if mode == "cimd":
                raise RegistrationError(
                    "registration is set to CIMD, but "
                    + (
                        "no metadata document URL is configured"
                        if not s.cimd_url
                        else f"the authorization server {meta.issuer} does not advertise "
                        "client_id_metadata_document_supported"
                    )
                )
            if meta.cimd_supported:
                self._context.emit(
                    "registration",
                    "the authorization server supports Client ID Metadata Documents, but no "
                    "metadata document URL is configured; trying Dynamic Client Registration",
                )
        return await self._dynamic_registration(meta, redirect_uri, scope)

    async def _dynamic_registration(
        self, meta: ServerMetadata, redirect_uri: str | None, scope: str | None
    ) -> ClientInfo:
        s = self._context.settings
        stored = self._context.store.load_client(meta.issuer)
        known = ClientInfo.from_store(stored) if stored else None
        if known is not None and (redirect_uri is None or redirect_uri in known.redirect_uris):
            self._context.redactor.add(known.client_secret)
            self._context.emit(
                "registration",
                f"using the client registered earlier at {meta.issuer}: {known.client_id}",
                "ok",
            )
            self.client = known
            return known
        if meta.registration_endpoint is None:
            raise RegistrationError(
                f"the authorization server {meta.issuer} offers no Dynamic Client Registration "
                "(no registration_endpoint) and no client id is configured: register a client "
                "with the server's owner and enter its client id (pre-registration)"
            )
        supported = meta.token_endpoint_auth_methods
        if supported is None or "none" in supported:
            wanted = "none"
        elif "client_secret_basic" in supported:
            wanted = "client_secret_basic"
        elif "client_secret_post" in supported:
            wanted = "client_secret_post"
        else:
            wanted = supported[0]
        grant_types = ["authorization_code", "refresh_token"]
        body: dict[str, Any] = {
            "client_name": s.client_name,
            "redirect_uris": [redirect_uri] if redirect_uri else [],
            "grant_types": grant_types,
            "response_types": ["code"],
            "token_endpoint_auth_method": wanted,
            "application_type": s.application_type,
        }
        if scope:
            body["scope"] = scope
        if self._context.dpop.wanted(meta):
            body["dpop_bound_access_tokens"] = True
        if known is not None:
            self._context.emit(
                "registration",
                "the client registered earlier has another redirect URI; registering again",
            )
        self._context.emit(
            "registration",
            f"registering a client (Dynamic Client Registration, application_type "
            f"{s.application_type}, auth method {wanted})",
            url=meta.registration_endpoint,
            details={"request": body},
        )
        await self._context.step(
            "register",
            "register the client (Dynamic Client Registration)",
            meta.registration_endpoint,
        )
        async with self._context.http() as http:
            try:
                response = await http.post(
                    meta.registration_endpoint,
                    json=body,
                    headers={"Accept": "application/json"},
                )
            except httpx.HTTPError as exc:
                raise RegistrationError(f"the registration request failed: {exc}") from None
        doc = json_object(response)
        if response.status_code not in (200, 201) or doc is None:
            raise RegistrationError(
                f"the authorization server refused the registration ({describe_status(response)}"
                + (
                    f": {doc.get('error')} {doc.get('error_description') or ''}".rstrip()
                    if doc and doc.get("error")
                    else ""
                )
                + ")"
            )
        client_id = doc.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise RegistrationError("the registration response has no client_id")
        secret = doc.get("client_secret")
        method = doc.get("token_endpoint_auth_method")
        client = ClientInfo(
            client_id=client_id,
            method="dcr",
            client_secret=secret if isinstance(secret, str) and secret else None,
            auth_method=method if isinstance(method, str) else wanted,
            redirect_uris=tuple(body["redirect_uris"]),
            issuer=meta.issuer,
        )
        self._context.redactor.add(client.client_secret)
        self._context.redactor.add(
            doc.get("registration_access_token")
            if isinstance(doc.get("registration_access_token"), str)
            else None
        )
        where = self._context.store.save_client(meta.issuer, client.to_store())
        self._context.emit(
            "registration",
            f"registered as {client_id}"
            + (" with a client secret" if client.client_secret else " (public client)")
            + f", token endpoint auth {client.auth_method}; "
            + ("kept in the keyring" if where == "keyring" else "kept in memory only"),
            "ok",
            details={"response": doc},
        )
        self.client = client
        return client

    def configured_client(self, meta: ServerMetadata, grant: str) -> ClientInfo:
        """The client of a grant without a browser (client credentials, JWT bearer): only a
        configured client will do, and only at the authorization server it belongs to."""
        s = self._context.settings
        if not s.client_id:
            raise RegistrationError(f"the {grant} grant needs a client id (pre-registered)")
        if s.preregistered_issuer and s.preregistered_issuer != meta.issuer:
            raise RegistrationError(
                f"the client belongs to {s.preregistered_issuer}, but the server now uses "
                f"{meta.issuer}: its credentials are not sent there"
            )
        client = self._preregistered(meta)
        self.client = client
        return client

    async def known_client(self, meta: ServerMetadata) -> ClientInfo | None:
        """The client a stored token was issued to, for a refresh without a login in this
        process: the configured one, the CIMD URL, else the stored registration."""
        s = self._context.settings
        if s.client_id and s.registration in ("auto", "preregistered"):
            return self._preregistered(meta)
        if s.cimd_url and meta.cimd_supported and s.registration in ("auto", "cimd"):
            return ClientInfo(client_id=s.cimd_url, method="cimd", auth_method="none")
        stored = self._context.store.load_client(meta.issuer)
        client = ClientInfo.from_store(stored) if stored else None
        if client is not None:
            self._context.redactor.add(client.client_secret)
        return client

    def _preregistered(self, meta: ServerMetadata) -> ClientInfo:
        """The client the settings name, as a client of this authorization server."""
        s = self._context.settings
        assert s.client_id is not None
        return ClientInfo(
            client_id=s.client_id,
            method="preregistered",
            client_secret=s.client_secret,
            auth_method=s.token_endpoint_auth_method,
            issuer=meta.issuer,
        )
