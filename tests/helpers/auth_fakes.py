"""A fake MCP server + authorization server on `httpx.MockTransport`, for the OAuth tests.

Everything is configurable per test; every request is recorded in `world.log`
(method, URL) so tests can check discovery order, registrations and token requests.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx

MCP_URL = "https://mcp.test/mcp"
AS_URL = "https://auth.test"


def b64url_sha256(text: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()


@dataclass
class FakeWorld:
    # Resource server
    prm_path: str | None = "/.well-known/oauth-protected-resource/mcp"
    prm_in_header: bool = True
    prm_resource: str | None = MCP_URL
    prm_servers: list[str] | None = None  # default [issuer]
    prm_scopes: list[str] | None = None
    challenge_scope: str | None = None
    required_scope: str | None = None  # 403 insufficient_scope unless the token has it
    always_403: bool = False
    # Authorization server
    issuer: str = AS_URL
    metadata_path: str = "/.well-known/oauth-authorization-server"
    metadata_issuer: str | None = None  # default: issuer
    pkce_methods: list[str] | None = field(default_factory=lambda: ["S256"])
    auth_methods: list[str] | None = field(default_factory=lambda: ["none"])
    registration: bool = True
    cimd: bool = False
    iss_supported: bool = True
    iss_mode: str = "correct"  # correct | wrong | omit
    state_mode: str = "echo"  # echo | wrong | omit
    scopes_supported: list[str] | None = None
    dpop_algs: list[str] | None = None
    dpop_nonce: str | None = None  # require this nonce at the token endpoint and the RS
    expires_in: int | None = 3600
    issue_refresh: bool = True
    refresh_works: bool = True
    register_method: str | None = None  # token_endpoint_auth_method in the DCR response
    register_secret: str | None = "dcr-secret-0123456789"
    # State and records
    log: list[tuple[str, str]] = field(default_factory=list)
    valid_tokens: dict[str, str] = field(default_factory=dict)  # token -> scope
    refresh_tokens: dict[str, str] = field(default_factory=dict)
    codes: dict[str, dict[str, str]] = field(default_factory=dict)
    authorize_requests: list[dict[str, str]] = field(default_factory=list)
    token_requests: list[tuple[dict[str, str], dict[str, str]]] = field(default_factory=list)
    registrations: list[dict[str, Any]] = field(default_factory=list)
    rs_requests: list[httpx.Request] = field(default_factory=list)
    rs_headers: list[dict[str, str]] = field(default_factory=list)  # snapshots per attempt
    issued: list[str] = field(default_factory=list)  # every secret value handed out

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def urls(self, method: str | None = None) -> list[str]:
        return [u for m, u in self.log if method is None or m == method]

    def revoke_all(self) -> None:
        self.valid_tokens.clear()

    # ------------------------------------------------------------------ routing
    def handle(self, request: httpx.Request) -> httpx.Response:
        url = str(request.url)
        self.log.append((request.method, url.split("?")[0]))
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin == "https://mcp.test":
            if self.prm_path and parts.path == self.prm_path and request.method == "GET":
                return self._prm()
            if parts.path == "/mcp":
                return self._rs(request)
        if origin == urlsplit(self.issuer).scheme + "://" + urlsplit(self.issuer).netloc:
            if parts.path == self.metadata_path and request.method == "GET":
                return self._metadata()
            if parts.path.endswith("/authorize"):
                return self._authorize(request)
            if parts.path.endswith("/token"):
                return self._token(request)
            if parts.path.endswith("/register") and self.registration:
                return self._register(request)
        return httpx.Response(404)

    def _prm(self) -> httpx.Response:
        doc: dict[str, Any] = {"authorization_servers": self.prm_servers or [self.issuer]}
        if self.prm_resource is not None:
            doc["resource"] = self.prm_resource
        if self.prm_scopes is not None:
            doc["scopes_supported"] = self.prm_scopes
        return httpx.Response(200, json=doc)

    def _challenge(self, status: int, error: str | None = None, scope: str | None = None) -> str:
        parts = []
        if error:
            parts.append(f'error="{error}"')
        if scope:
            parts.append(f'scope="{scope}"')
        if self.prm_in_header and self.prm_path:
            parts.append(f'resource_metadata="https://mcp.test{self.prm_path}"')
        scheme = "DPoP" if self.dpop_algs else "Bearer"
        return f"{scheme} " + ", ".join(parts) if parts else scheme

    def _rs(self, request: httpx.Request) -> httpx.Response:
        self.rs_requests.append(request)
        self.rs_headers.append(dict(request.headers))
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if token not in self.valid_tokens:
            return httpx.Response(
                401,
                headers={"WWW-Authenticate": self._challenge(401, scope=self.challenge_scope)},
                json={"error": "invalid_token"},
            )
        if self.dpop_nonce and scheme.lower() == "dpop":
            proof = request.headers.get("dpop", "")
            claims = json.loads(base64.urlsafe_b64decode(proof.split(".")[1] + "=="))
            if claims.get("nonce") != self.dpop_nonce:
                return httpx.Response(
                    401,
                    headers={
                        "WWW-Authenticate": 'DPoP error="use_dpop_nonce"',
                        "DPoP-Nonce": self.dpop_nonce,
                    },
                )
        granted = self.valid_tokens[token].split()
        if self.always_403 or (self.required_scope and self.required_scope not in granted):
            return httpx.Response(
                403,
                headers={
                    "WWW-Authenticate": self._challenge(
                        403, "insufficient_scope", self.required_scope or self.challenge_scope
                    )
                },
            )
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": {"ok": True}})

    def _metadata(self) -> httpx.Response:
        base = self.issuer
        doc: dict[str, Any] = {
            "issuer": self.metadata_issuer or self.issuer,
            "authorization_endpoint": f"{base}/authorize",
            "token_endpoint": f"{base}/token",
            "response_types_supported": ["code"],
        }
        if self.registration:
            doc["registration_endpoint"] = f"{base}/register"
        if self.pkce_methods is not None:
            doc["code_challenge_methods_supported"] = self.pkce_methods
        if self.auth_methods is not None:
            doc["token_endpoint_auth_methods_supported"] = self.auth_methods
        if self.iss_supported:
            doc["authorization_response_iss_parameter_supported"] = True
        if self.cimd:
            doc["client_id_metadata_document_supported"] = True
        if self.scopes_supported is not None:
            doc["scopes_supported"] = self.scopes_supported
        if self.dpop_algs is not None:
            doc["dpop_signing_alg_values_supported"] = self.dpop_algs
        return httpx.Response(200, json=doc)

    def _authorize(self, request: httpx.Request) -> httpx.Response:
        q = {k: v[0] for k, v in parse_qs(urlsplit(str(request.url)).query).items()}
        self.authorize_requests.append(q)
        code = "code-" + secrets.token_hex(8)
        self.issued.append(code)
        self.codes[code] = q
        params = {"code": code}
        if self.state_mode == "echo":
            params["state"] = q.get("state", "")
        elif self.state_mode == "wrong":
            params["state"] = "not-the-state"
        if self.iss_mode == "correct":
            params["iss"] = self.issuer
        elif self.iss_mode == "wrong":
            params["iss"] = "https://evil.test"
        return httpx.Response(
            302, headers={"Location": q["redirect_uri"] + "?" + urlencode(params)}
        )

    def _token(self, request: httpx.Request) -> httpx.Response:
        form = {k: v[0] for k, v in parse_qs(request.content.decode()).items()}
        self.token_requests.append((form, dict(request.headers)))
        token_type = "Bearer"
        if self.dpop_algs and request.headers.get("dpop"):
            token_type = "DPoP"
            if self.dpop_nonce:
                proof = request.headers["dpop"]
                claims = json.loads(base64.urlsafe_b64decode(proof.split(".")[1] + "=="))
                if claims.get("nonce") != self.dpop_nonce:
                    return httpx.Response(
                        400,
                        headers={"DPoP-Nonce": self.dpop_nonce},
                        json={"error": "use_dpop_nonce"},
                    )
        grant = form.get("grant_type")
        scope = form.get("scope", "")
        if grant == "authorization_code":
            pending = self.codes.pop(form.get("code", ""), None)
            if pending is None:
                return httpx.Response(400, json={"error": "invalid_grant"})
            if b64url_sha256(form.get("code_verifier", "")) != pending.get("code_challenge"):
                return httpx.Response(
                    400, json={"error": "invalid_grant", "error_description": "PKCE"}
                )
            scope = pending.get("scope", "")
        elif grant == "refresh_token":
            if not self.refresh_works or form.get("refresh_token") not in self.refresh_tokens:
                return httpx.Response(400, json={"error": "invalid_grant"})
            scope = self.refresh_tokens.pop(form["refresh_token"])
        access = "at-" + secrets.token_hex(16)
        self.issued.append(access)
        self.valid_tokens[access] = scope
        body: dict[str, Any] = {"access_token": access, "token_type": token_type}
        if scope:
            body["scope"] = scope
        if self.expires_in is not None:
            body["expires_in"] = self.expires_in
        if self.issue_refresh:
            refresh = "rt-" + secrets.token_hex(16)
            self.issued.append(refresh)
            self.refresh_tokens[refresh] = scope
            body["refresh_token"] = refresh
        return httpx.Response(200, json=body)

    def _register(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.registrations.append(body)
        client_id = f"client-{len(self.registrations)}"
        doc = {"client_id": client_id, "redirect_uris": body.get("redirect_uris", [])}
        if self.register_secret:
            doc["client_secret"] = self.register_secret
            self.issued.append(self.register_secret)
        doc["token_endpoint_auth_method"] = self.register_method or body.get(
            "token_endpoint_auth_method", "none"
        )
        return httpx.Response(201, json=doc)
