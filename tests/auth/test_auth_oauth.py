"""inspector.auth.OAuth against a fake MCP server and authorization server
(httpx.MockTransport; the loopback redirect listener is real, on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import time
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from joserfc import jwt
from joserfc.jwk import ECKey

from inspector.auth import (
    AuthError,
    AuthEvent,
    AuthStep,
    AuthStore,
    DiscoveryError,
    OAuth,
    OAuthSettings,
    RedirectError,
    RegistrationError,
    headless_opener,
)
from inspector.auth.flow.browser import AuthorizationPrompt
from inspector.auth.flow.events import REDACTED
from inspector.auth.oauth import pkce_pair, select_scope, union_scopes
from tests.helpers.auth_fakes import AS_URL, MCP_URL, FakeWorld, b64url_sha256
from tests.helpers.memory_keyring import (
    MemoryKeyring,
    installed_failing_keyring,
)

pytestmark = pytest.mark.timeout(30)


def make_oauth(
    world: FakeWorld,
    settings: OAuthSettings | None = None,
    *,
    store: AuthStore | None = None,
    events: list[AuthEvent] | None = None,
    **kwargs: Any,
) -> OAuth:
    settings = settings or OAuthSettings()
    settings.login_timeout = 10
    return OAuth(
        MCP_URL,
        settings,
        store=store or AuthStore(memory_only=True),
        opener=headless_opener(transport=world.transport),
        listener=events.append if events is not None else None,
        http_transport=world.transport,
        **kwargs,
    )


async def call(
    world: FakeWorld, oauth: OAuth, body: str = '{"jsonrpc":"2.0","id":1}'
) -> httpx.Response:
    async with httpx.AsyncClient(transport=world.transport, auth=oauth) as client:
        return await client.post(MCP_URL, content=body.encode())


# ---------------------------------------------------------------- the basic flow
async def test_login_on_401_then_the_request_succeeds() -> None:
    world = FakeWorld()
    events: list[AuthEvent] = []
    oauth = make_oauth(world, events=events)
    response = await call(world, oauth)
    assert response.status_code == 200
    assert oauth.tokens is not None and oauth.tokens.access_token in world.valid_tokens
    # DCR with application_type native (spec 2026-07-28 "Client Registration")
    assert world.registrations[0]["application_type"] == "native"
    assert world.registrations[0]["redirect_uris"][0].startswith("http://127.0.0.1:")
    auth_q = world.authorize_requests[0]
    assert auth_q["code_challenge_method"] == "S256"
    assert auth_q["resource"] == MCP_URL
    assert "scope" not in auth_q  # no challenge scope, no scopes_supported
    token_form = world.token_requests[0][0]
    assert token_form["resource"] == MCP_URL
    assert b64url_sha256(token_form["code_verifier"]) == auth_q["code_challenge"]
    steps = [e.step for e in events]
    for step in (
        "challenge",
        "discovery",
        "metadata",
        "registration",
        "authorize",
        "redirect",
        "token",
        "expiry",
    ):
        assert step in steps, step
    # the listener is closed after the login
    redirect = world.registrations[0]["redirect_uris"][0]
    with pytest.raises(OSError):
        _r, w = await asyncio.open_connection("127.0.0.1", urlsplit(redirect).port)
        w.close()


async def test_second_request_reuses_the_token() -> None:
    world = FakeWorld()
    oauth = make_oauth(world)
    await call(world, oauth)
    await call(world, oauth)
    assert len(world.authorize_requests) == 1
    assert world.rs_headers[-1]["authorization"].startswith("Bearer at-")


def test_pkce_pair_is_s256() -> None:
    verifier, challenge = pkce_pair()
    assert 43 <= len(verifier) <= 128
    assert challenge == b64url_sha256(verifier)
    assert pkce_pair()[0] != verifier


async def test_refuses_without_pkce_support() -> None:
    world = FakeWorld(pkce_methods=None)
    with pytest.raises(DiscoveryError, match="PKCE"):
        await call(world, make_oauth(world))
    assert world.authorize_requests == []


# ---------------------------------------------------------------- discovery order
async def test_prm_from_www_authenticate_first() -> None:
    world = FakeWorld(prm_path="/custom/prm.json")
    await call(world, make_oauth(world))
    gets = world.urls("GET")
    assert gets[0] == "https://mcp.test/custom/prm.json"


async def test_prm_well_known_path_variant_then_root() -> None:
    world = FakeWorld(prm_path="/.well-known/oauth-protected-resource", prm_in_header=False)
    world.prm_resource = "https://mcp.test"
    await call(world, make_oauth(world))
    gets = world.urls("GET")
    assert gets[:2] == [
        "https://mcp.test/.well-known/oauth-protected-resource/mcp",
        "https://mcp.test/.well-known/oauth-protected-resource",
    ]
    # the root PRM names the origin: that is the resource sent
    assert world.authorize_requests[0]["resource"] == "https://mcp.test"


async def test_as_metadata_order_with_a_path_issuer() -> None:
    world = FakeWorld(
        issuer="https://auth.test/tenant1",
        metadata_path="/tenant1/.well-known/openid-configuration",
    )
    await call(world, make_oauth(world))
    as_gets = [u for u in world.urls("GET") if u.startswith("https://auth.test/")]
    assert as_gets[:3] == [
        "https://auth.test/.well-known/oauth-authorization-server/tenant1",
        "https://auth.test/.well-known/openid-configuration/tenant1",
        "https://auth.test/tenant1/.well-known/openid-configuration",
    ]


async def test_as_metadata_order_without_a_path() -> None:
    world = FakeWorld(metadata_path="/.well-known/openid-configuration")
    await call(world, make_oauth(world))
    as_gets = [u for u in world.urls("GET") if u.startswith(AS_URL)]
    assert as_gets[:2] == [
        f"{AS_URL}/.well-known/oauth-authorization-server",
        f"{AS_URL}/.well-known/openid-configuration",
    ]


async def test_prm_without_authorization_servers_is_a_plain_error() -> None:
    world = FakeWorld(prm_servers=[])
    world.prm_servers = []

    def no_servers(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/.well-known/oauth-protected-resource"):
            return httpx.Response(200, json={"resource": MCP_URL, "authorization_servers": []})
        return world.handle(request)

    world_transport = httpx.MockTransport(no_servers)
    oauth = OAuth(
        MCP_URL,
        OAuthSettings(login_timeout=5),
        store=AuthStore(memory_only=True),
        opener=headless_opener(transport=world_transport),
        http_transport=world_transport,
    )
    async with httpx.AsyncClient(transport=world_transport, auth=oauth) as client:
        with pytest.raises(DiscoveryError, match="names no authorization server"):
            await client.post(MCP_URL, content=b"{}")


async def test_resource_mismatch_is_refused() -> None:
    world = FakeWorld(prm_resource="https://evil.test/mcp")
    with pytest.raises(DiscoveryError, match=r"not for https://mcp\.test/mcp"):
        await call(world, make_oauth(world))
    assert world.authorize_requests == []


async def test_metadata_issuer_mismatch_is_refused() -> None:
    world = FakeWorld(metadata_issuer="https://attacker.test")
    with pytest.raises(DiscoveryError, match="different issuer"):
        await call(world, make_oauth(world))
    assert world.authorize_requests == [] and world.registrations == []


async def test_no_prm_falls_back_to_2025_03_26_defaults() -> None:
    world = FakeWorld(prm_path=None, issuer="https://mcp.test")

    world.metadata_path = "/nothing-here"
    await call(world, make_oauth(world))
    assert world.urls("POST")[1] == "https://mcp.test/register"
    assert world.authorize_requests and world.token_requests


# ---------------------------------------------------------------- registration order
async def test_preregistered_client_comes_first() -> None:
    world = FakeWorld(auth_methods=["client_secret_basic"], cimd=True)
    settings = OAuthSettings(
        client_id="pre-id", client_secret="pre-secret-value", cimd_url="https://app.test/c.json"
    )
    await call(world, make_oauth(world, settings))
    assert world.registrations == []
    assert world.authorize_requests[0]["client_id"] == "pre-id"
    headers = world.token_requests[0][1]
    assert base64.b64decode(headers["authorization"].split()[1]) == b"pre-id:pre-secret-value"


async def test_cimd_before_dcr_when_supported() -> None:
    world = FakeWorld(cimd=True)
    await call(world, make_oauth(world, OAuthSettings(cimd_url="https://app.test/c.json")))
    assert world.registrations == []
    assert world.authorize_requests[0]["client_id"] == "https://app.test/c.json"


async def test_dcr_when_cimd_not_supported() -> None:
    world = FakeWorld(cimd=False)
    await call(world, make_oauth(world, OAuthSettings(cimd_url="https://app.test/c.json")))
    assert len(world.registrations) == 1


async def test_no_way_to_register_is_explained() -> None:
    world = FakeWorld(registration=False)
    with pytest.raises(RegistrationError, match="pre-registration"):
        await call(world, make_oauth(world))


async def test_forced_registration_modes() -> None:
    world = FakeWorld(cimd=False)
    with pytest.raises(RegistrationError, match="CIMD"):
        await call(
            world,
            make_oauth(world, OAuthSettings(registration="cimd", cimd_url="https://a.test/c")),
        )
    with pytest.raises(RegistrationError, match="no client id"):
        await call(world, make_oauth(world, OAuthSettings(registration="preregistered")))


@pytest.mark.parametrize(
    ("methods", "registered", "expect"),
    [
        (["client_secret_basic"], "client_secret_basic", "basic"),
        (["client_secret_post"], "client_secret_post", "post"),
        (["none"], "none", "none"),
    ],
)
async def test_token_endpoint_auth_methods(
    methods: list[str], registered: str, expect: str
) -> None:
    world = FakeWorld(auth_methods=methods, register_method=registered)
    if expect == "none":
        world.register_secret = None
    await call(world, make_oauth(world))
    form, headers = world.token_requests[0]
    assert ("authorization" in headers) == (expect == "basic")
    assert ("client_secret" in form) == (expect == "post")
    assert form.get("client_id") == "client-1"
    assert world.registrations[0]["token_endpoint_auth_method"] == registered


# ---------------------------------------------------------------- redirect checks
async def test_state_mismatch_is_refused() -> None:
    world = FakeWorld(state_mode="wrong")
    with pytest.raises(RedirectError, match="different state"):
        await call(world, make_oauth(world))
    assert world.token_requests == []


@pytest.mark.parametrize(
    ("iss_supported", "iss_mode", "ok"),
    [
        (True, "correct", True),
        (True, "omit", False),
        (True, "wrong", False),
        (False, "omit", True),
        (False, "wrong", False),
    ],
)
async def test_iss_validation(iss_supported: bool, iss_mode: str, ok: bool) -> None:
    world = FakeWorld(iss_supported=iss_supported, iss_mode=iss_mode)
    if ok:
        assert (await call(world, make_oauth(world))).status_code == 200
    else:
        with pytest.raises(RedirectError, match=r"iss|issuer"):
            await call(world, make_oauth(world))
        assert world.token_requests == []


async def test_iss_is_compared_without_normalisation() -> None:
    world = FakeWorld()
    original = world._authorize

    def trailing_slash(request: httpx.Request) -> httpx.Response:
        response = original(request)
        response.headers["Location"] = response.headers["Location"].replace(
            "iss=https%3A%2F%2Fauth.test", "iss=https%3A%2F%2Fauth.test%2F"
        )
        return response

    world._authorize = trailing_slash  # type: ignore[method-assign]
    with pytest.raises(RedirectError, match="issuer"):
        await call(world, make_oauth(world))


async def test_only_http_authorization_urls_are_opened() -> None:
    world = FakeWorld()
    opened: list[str] = []

    async def opener(prompt: AuthorizationPrompt) -> None:
        opened.append(prompt.url)

    original = world._metadata

    def js_endpoint() -> httpx.Response:
        response = original()
        doc = json.loads(response.content)
        doc["authorization_endpoint"] = "javascript:alert(1)"
        return httpx.Response(200, json=doc)

    world._metadata = js_endpoint  # type: ignore[method-assign]
    oauth = make_oauth(world)
    oauth.opener = opener
    with pytest.raises(AuthError, match="http"):
        await call(world, oauth)
    assert opened == []


# ---------------------------------------------------------------- scopes
def test_scope_selection_strategy() -> None:
    from inspector.auth.flow.data import ProtectedResource, ServerMetadata

    prm = ProtectedResource("u", MCP_URL, (AS_URL,), ("a", "b"))
    meta = ServerMetadata(
        AS_URL,
        "oauth",
        None,
        None,
        "t",
        None,
        ("a", "offline_access"),
        ("S256",),
        None,
        None,
        False,
        False,
        None,
    )
    assert (
        select_scope(override=None, challenge_scope="x", prm=prm, meta=None, offline_access=True)
        == "x"
    )
    assert (
        select_scope(override=None, challenge_scope=None, prm=prm, meta=None, offline_access=True)
        == "a b"
    )
    assert (
        select_scope(override=None, challenge_scope=None, prm=None, meta=meta, offline_access=True)
        is None
    )
    assert (
        select_scope(override=None, challenge_scope="x", prm=prm, meta=meta, offline_access=True)
        == "x offline_access"
    )
    assert (
        select_scope(override="mine", challenge_scope="x", prm=prm, meta=None, offline_access=False)
        == "mine"
    )
    assert union_scopes("a b", "b c") == "a b c"
    assert union_scopes(None, "c") == "c"


async def test_scope_from_challenge_then_scopes_supported() -> None:
    world = FakeWorld(challenge_scope="files:read", prm_scopes=["p1", "p2"])
    await call(world, make_oauth(world))
    assert world.authorize_requests[0]["scope"] == "files:read"
    world2 = FakeWorld(prm_scopes=["p1", "p2"])
    await call(world2, make_oauth(world2))
    assert world2.authorize_requests[0]["scope"] == "p1 p2"


async def test_step_up_unions_scopes() -> None:
    world = FakeWorld(challenge_scope="mcp:basic", required_scope="mcp:write")
    response = await call(world, make_oauth(world))
    assert response.status_code == 200
    assert [q.get("scope") for q in world.authorize_requests] == [
        "mcp:basic",
        "mcp:basic mcp:write",
    ]


async def test_step_up_retry_limit() -> None:
    world = FakeWorld(challenge_scope="mcp:admin", always_403=True)
    events: list[AuthEvent] = []
    oauth = make_oauth(world, events=events)
    response = await call(world, oauth)
    assert response.status_code == 403
    assert 1 <= len(world.authorize_requests) <= 3
    # and a later request does not start the loop again
    before = len(world.authorize_requests)
    assert (await call(world, oauth)).status_code == 403
    assert len(world.authorize_requests) == before
    assert any(e.step == "step-up" and e.level == "error" for e in events)


async def test_step_up_limit_per_request_with_new_scopes_each_time() -> None:
    world = FakeWorld(challenge_scope="s0")
    counter = {"n": 0}
    original = world._rs

    def escalating(request: httpx.Request) -> httpx.Response:
        response = original(request)
        if response.status_code == 200:
            counter["n"] += 1
            return httpx.Response(
                403,
                headers={
                    "WWW-Authenticate": 'Bearer error="insufficient_scope", '
                    f'scope="s{counter["n"]}"'
                },
            )
        return response

    world._rs = escalating  # type: ignore[method-assign]
    oauth = make_oauth(world, OAuthSettings(max_step_ups=2))
    response = await call(world, oauth)
    assert response.status_code == 403
    assert len(world.authorize_requests) == 3  # the login and two step-ups


# ---------------------------------------------------------------- refresh
async def test_refresh_before_expiry() -> None:
    world = FakeWorld(expires_in=30)  # inside the default 60 s refresh skew
    oauth = make_oauth(world)
    await call(world, oauth)
    first = oauth.tokens
    assert first is not None
    await call(world, oauth)
    grants = [form["grant_type"] for form, _ in world.token_requests]
    assert grants == ["authorization_code", "refresh_token"]
    assert world.token_requests[1][0]["resource"] == MCP_URL
    assert oauth.tokens is not None and oauth.tokens.access_token != first.access_token
    assert len(world.authorize_requests) == 1


async def test_refresh_on_401_then_relogin_when_refresh_fails() -> None:
    world = FakeWorld()
    oauth = make_oauth(world)
    await call(world, oauth)
    world.revoke_all()
    assert (await call(world, oauth)).status_code == 200
    assert [f["grant_type"] for f, _ in world.token_requests] == [
        "authorization_code",
        "refresh_token",
    ]
    world.revoke_all()
    world.refresh_works = False
    assert (await call(world, oauth)).status_code == 200
    assert [f["grant_type"] for f, _ in world.token_requests][-2:] == [
        "refresh_token",
        "authorization_code",
    ]
    assert len(world.authorize_requests) == 2


async def test_concurrent_401s_log_in_once() -> None:
    world = FakeWorld()
    oauth = make_oauth(world)
    async with httpx.AsyncClient(transport=world.transport, auth=oauth) as client:
        responses = await asyncio.gather(*(client.post(MCP_URL, content=b"{}") for _ in range(5)))
    assert [r.status_code for r in responses] == [200] * 5
    assert len(world.authorize_requests) == 1


async def test_authorization_server_migration_reregisters() -> None:
    world = FakeWorld()
    oauth = make_oauth(world)
    await call(world, oauth)
    assert len(world.registrations) == 1
    # The server now names another AS; the old token is refused.
    world.revoke_all()
    world.issuer = "https://auth2.test"
    await call(world, oauth)
    assert len(world.registrations) == 2
    assert world.authorize_requests[-1]["client_id"] == "client-2"
    assert oauth.tokens is not None and oauth.tokens.issuer == "https://auth2.test"


# ---------------------------------------------------------------- other grants, DPoP
async def test_client_credentials_with_basic_auth() -> None:
    world = FakeWorld(auth_methods=["client_secret_basic"], prm_scopes=["m2m"])
    settings = OAuthSettings(
        grant="client_credentials", client_id="svc", client_secret="svc-secret-xyz"
    )
    assert (await call(world, make_oauth(world, settings))).status_code == 200
    form, headers = world.token_requests[0]
    assert form["grant_type"] == "client_credentials" and form["scope"] == "m2m"
    assert form["resource"] == MCP_URL
    assert headers["authorization"].startswith("Basic ")
    assert world.authorize_requests == [] and world.registrations == []


async def test_client_credentials_with_private_key_jwt() -> None:
    key = ECKey.generate_key("P-256")
    pem = key.as_pem(private=True).decode()
    world = FakeWorld(auth_methods=["private_key_jwt"])
    settings = OAuthSettings(
        grant="client_credentials",
        client_id="svc",
        private_key_pem=pem,
        token_endpoint_auth_method="private_key_jwt",
    )
    await call(world, make_oauth(world, settings))
    form, _ = world.token_requests[0]
    assert form["client_assertion_type"] == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
    token = jwt.decode(form["client_assertion"], ECKey.import_key(key.as_dict(private=False)))
    assert token.claims["iss"] == token.claims["sub"] == "svc"
    assert token.claims["aud"] == AS_URL


async def test_dpop_token_and_nonces() -> None:
    world = FakeWorld(dpop_algs=["ES256"], dpop_nonce="n-123")
    oauth = make_oauth(world)
    response = await call(world, oauth)
    assert response.status_code == 200
    assert oauth.tokens is not None and oauth.tokens.token_type == "DPoP"
    # token endpoint: challenged for the nonce, then retried with it
    assert len(world.token_requests) == 2
    last = world.rs_headers[-1]
    assert last["authorization"].startswith("DPoP ")
    proof = last["dpop"]
    header = json.loads(base64.urlsafe_b64decode(proof.split(".")[0] + "=="))
    claims = json.loads(base64.urlsafe_b64decode(proof.split(".")[1] + "=="))
    assert header["typ"] == "dpop+jwt" and "d" not in header["jwk"]
    assert claims["htm"] == "POST" and claims["htu"] == MCP_URL and claims["nonce"] == "n-123"
    assert claims["ath"] == b64url_sha256(oauth.tokens.access_token)
    proofs = [h["dpop"] for h in world.rs_headers if "dpop" in h]
    jtis = {json.loads(base64.urlsafe_b64decode(p.split(".")[1] + "=="))["jti"] for p in proofs}
    assert len(proofs) == 2 and len(jtis) == 2  # nonce challenge, then a fresh proof


async def test_jwt_bearer_is_not_retried_after_a_refusal() -> None:
    world = FakeWorld()
    original = world._token

    def refuse(request: httpx.Request) -> httpx.Response:
        original(request)
        return httpx.Response(400, json={"error": "invalid_grant"})

    world._token = refuse  # type: ignore[method-assign]
    settings = OAuthSettings(
        grant="jwt_bearer", client_id="wl", assertion="eyJhbGciOi.assertion.value"
    )
    oauth = make_oauth(world, settings)
    with pytest.raises(AuthError, match="invalid_grant"):
        await call(world, oauth)
    with pytest.raises(AuthError, match=r"not retried|not trying again"):
        await call(world, oauth)
    assert len(world.token_requests) == 1
    assert world.token_requests[0][0]["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"


# ---------------------------------------------------------------- step-through hook
async def test_step_hook_runs_before_each_step_and_can_stop() -> None:
    world = FakeWorld()
    seen: list[str] = []

    async def hook(step: AuthStep) -> None:
        seen.append(step.name)

    oauth = make_oauth(world, step_hook=hook)
    await call(world, oauth)
    assert seen == ["discover-resource", "discover-server", "register", "authorize", "token"]

    async def stop(step: AuthStep) -> None:
        if step.name == "authorize":
            raise RuntimeError("user pressed stop")

    world2 = FakeWorld()
    with pytest.raises(AuthError, match="stopped before authorize"):
        await call(world2, make_oauth(world2, step_hook=stop))
    assert world2.authorize_requests == []


# ---------------------------------------------------------------- redaction
async def test_no_secret_in_events_or_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    world = FakeWorld(
        auth_methods=["client_secret_post"], register_method="client_secret_post", expires_in=30
    )
    events: list[AuthEvent] = []
    oauth = make_oauth(world, events=events)
    await call(world, oauth)
    await call(world, oauth)  # a refresh too
    world.revoke_all()
    world.refresh_works = False
    await call(world, oauth)  # and a new login
    verifiers = [
        form["code_verifier"] for form, _ in world.token_requests if "code_verifier" in form
    ]
    secrets_seen = [*world.issued, *verifiers]
    assert len(secrets_seen) > 5
    text = caplog.text + "\n".join(
        e.message + (e.url or "") + json.dumps(e.details, default=str, ensure_ascii=False)
        for e in events
    )
    for value in secrets_seen:
        assert value not in text, value
    assert REDACTED in text  # the details show that something was there


# ---------------------------------------------------------------- keyring storage
async def test_tokens_in_keyring_reused_by_a_new_instance_then_logout(
    memory_keyring: MemoryKeyring,
) -> None:
    world = FakeWorld()
    first = make_oauth(world, store=AuthStore())
    await call(world, first)
    keys = sorted(user for (service, user) in memory_keyring.store if service == "mcp-inspector-qt")
    assert keys == [
        f"oauth:client:{AS_URL}",
        f"oauth:server:{MCP_URL}",
        f"oauth:token:{AS_URL} {MCP_URL}",
    ]
    second = make_oauth(world, store=AuthStore())
    assert second.logged_in
    await call(world, second)
    assert len(world.authorize_requests) == 1  # no second login
    forgotten = second.logout()
    assert forgotten and not any(s == "mcp-inspector-qt" for s, _ in memory_keyring.store)
    assert not make_oauth(world, store=AuthStore()).logged_in


async def test_no_keyring_backend_keeps_tokens_in_memory_and_says_so(tmp_path: Any) -> None:
    for _ in installed_failing_keyring():
        world = FakeWorld()
        events: list[AuthEvent] = []
        store = AuthStore()
        oauth = make_oauth(world, store=store, events=events)
        assert (await call(world, oauth)).status_code == 200
        assert store.session_only
        warnings = [e.message for e in events if e.step == "storage" and e.level == "warning"]
        assert any("memory for this session only" in m for m in warnings)
        # a second instance in the same process, same store: still logged in
        again = make_oauth(world, store=store)
        assert again.logged_in


def test_keyring_entries_hold_no_plaintext_file(
    memory_keyring: MemoryKeyring, tmp_path: Any
) -> None:
    store = AuthStore()
    assert store.save_tokens("i", "r", {"access_token": "x"}) == "keyring"
    assert store.load_tokens("i", "r") == {"access_token": "x"}


# ---------------------------------------------------------------- expiry events
async def test_expiry_is_reported() -> None:
    world = FakeWorld(expires_in=3600)
    events: list[AuthEvent] = []
    oauth = make_oauth(world, events=events)
    await call(world, oauth)
    expiry = [e.message for e in events if e.step == "expiry"]
    assert expiry and "expires at" in expiry[0]
    assert oauth.tokens is not None
    left = oauth.tokens.expires_in(time.time())
    assert left is not None and 3500 < left <= 3600
    assert "logged in at https://auth.test" in oauth.status_line()


async def test_a_failed_login_is_not_retried_at_once() -> None:
    world = FakeWorld(state_mode="wrong")
    oauth = make_oauth(world)
    with pytest.raises(RedirectError):
        await call(world, oauth)
    with pytest.raises(AuthError, match="last login failed"):
        await call(world, oauth)
    assert len(world.authorize_requests) == 1
    world.state_mode = "echo"
    await oauth.login()  # an explicit login clears it
    assert (await call(world, oauth)).status_code == 200


async def test_a_server_refusing_every_token_gets_one_login_per_request() -> None:
    world = FakeWorld()
    original = world._rs

    def refuse(request: httpx.Request) -> httpx.Response:
        original(request)
        return httpx.Response(401, headers={"WWW-Authenticate": "Bearer"})

    world._rs = refuse  # type: ignore[method-assign]
    events: list[AuthEvent] = []
    response = await call(world, make_oauth(world, events=events))
    assert response.status_code == 401
    assert len(world.authorize_requests) == 1
    assert any("still answers 401" in e.message for e in events)
