"""Discovery: protected resource metadata (RFC 9728), then authorization server metadata
(RFC 8414 / OpenID Connect), in the spec's order; with no resource metadata at all, the
2025-03-26 fallback at the server's origin.

`Discovery` keeps what it found (`prm`, `metadata`) for the other steps to be handed, and
sets the context's `resource` (the PRM's resource identifier, else the server's URL): the
resource a token is asked for must be the one the server says it is.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx

from inspector.auth.failures import DiscoveryError
from inspector.auth.flow.context import FlowContext
from inspector.auth.flow.data import ProtectedResource, ServerMetadata
from inspector.auth.flow.responses import describe_status, json_object, str_tuple
from inspector.auth.urls import (
    as_metadata_urls,
    canonical_resource,
    is_http_url,
    is_loopback_url,
    origin_of,
    prm_urls,
    resource_covers,
)

__all__ = ["Discovery"]


class Discovery:
    def __init__(self, context: FlowContext) -> None:
        self._context = context
        self.prm: ProtectedResource | None = None
        self.metadata: ServerMetadata | None = None

    async def _fetch(
        self, client: httpx.AsyncClient, url: str, label: str
    ) -> dict[str, Any] | None:
        """GET a metadata document, or None; the discovery line says `label: what happened`."""
        doc, result = await self._get_json(client, url)
        self._context.emit(
            "discovery", f"{label}: {result}", "ok" if doc is not None else "info", url=url
        )
        return doc

    async def _get_json(
        self, client: httpx.AsyncClient, url: str
    ) -> tuple[dict[str, Any] | None, str]:
        """GET a metadata document; (document or None, what happened)."""
        try:
            response = await client.get(url, headers={"Accept": "application/json"})
        except httpx.HTTPError as exc:
            return None, f"{type(exc).__name__}: {exc or 'no response'}"
        if response.status_code != 200:
            return None, describe_status(response)
        doc = json_object(response)
        if doc is None:
            return None, f"{describe_status(response)}, but the body is not a JSON object"
        return doc, "found"

    def _check_endpoint(self, url: str | None, what: str) -> None:
        if url is None:
            return
        if not is_http_url(url):
            raise DiscoveryError(f"the {what} {url!r} is not an http(s) URL")
        if (
            urlsplit(url).scheme.lower() != "https"
            and not is_loopback_url(url)
            and not self._context.settings.allow_insecure_http
        ):
            raise DiscoveryError(
                f"the {what} {url} is not HTTPS: authorization server endpoints must be "
                "served over HTTPS (tokens would travel in clear text)"
            )

    async def discover_resource(self, hint: str | None) -> ProtectedResource | None:
        """RFC 9728: the challenge's URL first, else the well-known locations in order."""
        urls: list[str] = []
        if hint:
            if not is_http_url(hint):
                self._context.emit(
                    "discovery",
                    f"ignoring the resource_metadata URL of the challenge (not http(s)): {hint!r}",
                    "warning",
                )
            else:
                urls.append(hint)
        urls += [u for u in prm_urls(self._context.server_url) if u not in urls]
        await self._context.step(
            "discover-resource", "fetch the protected resource metadata (RFC 9728)", urls[0]
        )
        async with self._context.http() as client:
            for i, url in enumerate(urls):
                source = "from WWW-Authenticate" if hint and i == 0 else "well-known"
                doc = await self._fetch(client, url, f"protected resource metadata ({source})")
                if doc is None:
                    continue
                prm = self._parse_prm(url, doc)
                self.prm = prm
                if prm is not None:
                    return prm
        self._context.emit(
            "discovery",
            "the server publishes no protected resource metadata; falling back to the "
            "2025-03-26 behaviour (authorization server at the server's origin)",
            "warning",
        )
        self.prm = None
        self._context.resource = self._context.server_key
        return None

    def _parse_prm(self, url: str, doc: dict[str, Any]) -> ProtectedResource:
        servers = str_tuple(doc.get("authorization_servers"))
        if not servers:
            raise DiscoveryError(
                f"the server's protected resource metadata ({url}) names no authorization server"
            )
        resource = doc.get("resource")
        if not isinstance(resource, str) or not resource:
            raise DiscoveryError(
                f"the server's protected resource metadata ({url}) has no `resource` identifier"
            )
        if not resource_covers(resource, self._context.server_url):
            raise DiscoveryError(
                f"the server's protected resource metadata is for {resource}, not for "
                f"{self._context.server_key}: refusing to authorize (a token for one server "
                "must not be obtained for, or sent to, another)"
            )
        scopes = str_tuple(doc.get("scopes_supported"))
        self._context.resource = (
            canonical_resource(resource) if resource.endswith("/") else resource
        )
        prm = ProtectedResource(url, resource, servers, scopes, doc)
        self._context.emit(
            "metadata",
            f"protected resource {resource}: authorization server(s) {', '.join(servers)}"
            + (f"; scopes_supported {' '.join(scopes)}" if scopes else "; no scopes_supported"),
            "ok",
            url=url,
            details={"resource_metadata": doc},
        )
        return prm

    def _choose_issuer(self, prm: ProtectedResource) -> str:
        servers = prm.authorization_servers
        if self._context.settings.preregistered_issuer in servers:
            return str(self._context.settings.preregistered_issuer)
        if len(servers) > 1:
            self._context.emit(
                "metadata",
                f"the server lists {len(servers)} authorization servers; using the first, "
                f"{servers[0]}",
            )
        return servers[0]

    async def discover_server(self, prm: ProtectedResource | None) -> ServerMetadata:
        """The metadata of the authorization server `prm` names (its issuer checked), or of
        the server's origin when there is no PRM."""
        if prm is None:
            return await self._discover_legacy()
        issuer = self._choose_issuer(prm)
        if not is_http_url(issuer):
            raise DiscoveryError(f"the authorization server {issuer!r} is not an http(s) URL")
        candidates = as_metadata_urls(issuer)
        await self._context.step(
            "discover-server",
            "fetch the authorization server metadata (RFC 8414 / OpenID Connect discovery)",
            candidates[0][1],
        )
        rejected: list[str] = []
        async with self._context.http() as client:
            for kind, url in candidates:
                label = "OAuth" if kind == "oauth" else "OpenID Connect"
                doc = await self._fetch(client, url, f"{label} authorization server metadata")
                if doc is None:
                    continue
                if doc.get("issuer") != issuer:
                    rejected.append(url)
                    self._context.emit(
                        "metadata",
                        f"the metadata at {url} names the issuer {doc.get('issuer')!r}, not "
                        f"{issuer!r}: it is not used (RFC 8414 §3.3)",
                        "error",
                        url=url,
                    )
                    continue
                meta = self._parse_metadata(issuer, kind, url, doc)
                self.metadata = meta
                return meta
        if rejected:
            raise DiscoveryError(
                f"the authorization server metadata found for {issuer} names a different "
                "issuer, so it cannot be trusted (possible mix-up attack); no login attempted"
            )
        raise DiscoveryError(
            f"no authorization server metadata was found for {issuer} (tried "
            + ", ".join(url for _, url in candidates)
            + ")"
        )

    async def _discover_legacy(self) -> ServerMetadata:
        """2025-03-26: metadata at the origin of the MCP server, else default endpoints."""
        origin = origin_of(self._context.server_url)
        url = f"{origin}/.well-known/oauth-authorization-server"
        await self._context.step(
            "discover-server", "fetch the authorization server metadata at the origin", url
        )
        async with self._context.http() as client:
            doc = await self._fetch(
                client, url, "authorization server metadata at the server's origin"
            )
        if doc is not None:
            issuer = doc.get("issuer")
            if not isinstance(issuer, str) or not issuer:
                issuer = origin
            elif issuer != origin:
                self._context.emit(
                    "metadata",
                    f"the metadata names the issuer {issuer!r}, not the server's origin {origin!r}",
                    "warning",
                    url=url,
                )
            meta = self._parse_metadata(issuer, "oauth", url, doc)
        else:
            self._context.emit(
                "metadata",
                "no authorization server metadata either: using the default endpoints "
                f"{origin}/authorize, /token and /register (2025-03-26)",
                "warning",
            )
            meta = ServerMetadata(
                issuer=origin,
                kind="fallback",
                url=None,
                authorization_endpoint=f"{origin}/authorize",
                token_endpoint=f"{origin}/token",
                registration_endpoint=f"{origin}/register",
                scopes_supported=None,
                code_challenge_methods=("S256",),
                token_endpoint_auth_methods=None,
                grant_types=None,
                iss_parameter_supported=False,
                cimd_supported=False,
                dpop_algs=None,
            )
        self.metadata = meta
        return meta

    def _parse_metadata(
        self, issuer: str, kind: str, url: str, doc: dict[str, Any]
    ) -> ServerMetadata:
        def opt_url(name: str) -> str | None:
            value = doc.get(name)
            return value if isinstance(value, str) and value else None

        token_endpoint = opt_url("token_endpoint")
        if token_endpoint is None:
            raise DiscoveryError(f"the authorization server metadata ({url}) has no token_endpoint")
        meta = ServerMetadata(
            issuer=issuer,
            kind="oidc" if kind == "oidc" else "oauth",
            url=url,
            authorization_endpoint=opt_url("authorization_endpoint"),
            token_endpoint=token_endpoint,
            registration_endpoint=opt_url("registration_endpoint"),
            scopes_supported=str_tuple(doc.get("scopes_supported")),
            code_challenge_methods=str_tuple(doc.get("code_challenge_methods_supported")),
            token_endpoint_auth_methods=str_tuple(doc.get("token_endpoint_auth_methods_supported")),
            grant_types=str_tuple(doc.get("grant_types_supported")),
            iss_parameter_supported=doc.get("authorization_response_iss_parameter_supported")
            is True,
            cimd_supported=doc.get("client_id_metadata_document_supported") is True,
            dpop_algs=str_tuple(doc.get("dpop_signing_alg_values_supported")),
            raw=doc,
        )
        for name, value in (
            ("authorization endpoint", meta.authorization_endpoint),
            ("token endpoint", meta.token_endpoint),
            ("registration endpoint", meta.registration_endpoint),
        ):
            self._check_endpoint(value, name)
        pkce = ",".join(meta.code_challenge_methods or ()) or "not advertised"
        auth_methods = ",".join(
            meta.token_endpoint_auth_methods or ("client_secret_basic (default)",)
        )
        facts = [
            f"issuer {issuer}",
            f"PKCE {pkce}",
            "registration endpoint" if meta.registration_endpoint else "no registration endpoint",
            "Client ID Metadata Documents" if meta.cimd_supported else "no CIMD",
            f"token endpoint auth {auth_methods}",
        ]
        if meta.iss_parameter_supported:
            facts.append("iss in responses (RFC 9207)")
        if meta.dpop_algs:
            facts.append(f"DPoP {','.join(meta.dpop_algs)}")
        self._context.emit(
            "metadata",
            "authorization server: " + "; ".join(facts),
            "ok",
            url=url,
            details={"authorization_server_metadata": doc},
        )
        return meta
