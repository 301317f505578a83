"""The Auth section of HTTP profiles (Qt-free): the model in the profile file (backward
compatible, secrets only in the keyring), validation in plain words, the httpx.Auth that
transport_for builds, and ProfileAuth (probe, login before connecting, reuse, step-through,
cancel, logout) against the fake MCP + authorization server on httpx.MockTransport."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest

from inspector.auth import AuthCancelled, BearerAuth, DiscoveryError, OAuth, headless_opener
from inspector.settings.auth_options import HttpAuth, OAuthOptions, SecretValue
from inspector.settings.connect import SetupError, transport_for
from inspector.settings.profile_auth import (
    ProfileAuth,
    ProfileAuthError,
    auth_for,
    bearer_token_for,
    oauth_settings_for,
)
from inspector.settings.profiles import (
    HeaderEntry,
    HttpSettings,
    Profile,
    ProfileStore,
    validate_profile,
)
from inspector.storage.secrets import NoKeyringError, SecretStore
from tests.helpers.auth_fakes import MCP_URL, FakeWorld
from tests.helpers.memory_keyring import (
    MemoryKeyring,
    installed_failing_keyring,
)

pytestmark = pytest.mark.timeout(30)

CLIENT_SECRET = "cs-5up3r-s3cret-value"
BEARER = "bt-0p4que-token-value"


def http_profile(
    name: str = "remote", url: str = "https://mcp.example.com/mcp", **auth: object
) -> Profile:
    return Profile(
        name=name,
        transport="http",
        http=HttpSettings(url=url, auth=HttpAuth.model_validate(auth) if auth else HttpAuth()),
    )


def oauth_profile(url: str = MCP_URL, **options: object) -> Profile:
    return Profile(
        name="oauth",
        transport="http",
        http=HttpSettings(
            url=url, auth=HttpAuth(kind="oauth", oauth=OAuthOptions.model_validate(options))
        ),
    )


def messages(profile: Profile) -> list[str]:
    return [p.message for p in validate_profile(profile)]


# ---------------------------------------------------------------- the profile file
def test_an_old_profile_file_loads_as_no_auth(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    old = {
        "version": 1,
        "profiles": [
            {
                "id": "abc",
                "name": "old http",
                "transport": "http",
                "http": {"url": "https://x.example/mcp", "transport": "auto", "headers": []},
            }
        ],
    }
    path.write_text(json.dumps(old))
    store = ProfileStore(path, SecretStore())
    profile = store.get("abc")
    assert profile is not None and profile.http.auth.kind == "none"
    assert profile.http.auth.oauth.grant == "authorization_code"
    store.put(profile)  # saving again writes the new section with its defaults
    saved = json.loads(path.read_text())["profiles"][0]["http"]["auth"]
    assert saved["kind"] == "none" and saved["oauth"]["registration"] == "auto"
    assert ProfileStore(path, SecretStore()).get("abc") == store.get("abc")


def test_unknown_auth_keys_from_a_newer_app_are_ignored(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    item = http_profile(kind="oauth").stored_form()
    item["http"]["auth"]["future_thing"] = {"x": 1}
    item["http"]["auth"]["oauth"]["another"] = True
    path.write_text(json.dumps({"version": 1, "profiles": [item]}))
    loaded = ProfileStore(path, SecretStore()).profiles[1]
    assert loaded.http.auth.kind == "oauth"


def test_oauth_client_secret_goes_to_the_keyring_and_round_trips(
    store: ProfileStore, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    profile = oauth_profile(
        url="https://mcp.example.com/mcp",
        client_id="my-client",
        client_secret={"value": CLIENT_SECRET},
        scope="mcp  read",
        registration="preregistered",
        token_auth_method="client_secret_post",
        redirect_port=8765,
        authorization_server="https://auth.example.com",
    )
    saved = store.put(profile)
    text = (tmp_path / "profiles.json").read_text()
    assert CLIENT_SECRET not in text
    assert CLIENT_SECRET in memory_keyring.store.values()
    assert saved.http.auth.oauth.client_secret == SecretValue(stored=True, value="")
    on_disk = json.loads(text)["profiles"][0]["http"]["auth"]
    assert on_disk["oauth"]["client_secret"] == {"stored": True}
    assert on_disk["oauth"]["client_id"] == "my-client"

    reloaded = ProfileStore(tmp_path / "profiles.json", SecretStore()).get(saved.id)
    assert reloaded is not None
    settings = oauth_settings_for(reloaded, SecretStore())
    assert settings.client_id == "my-client" and settings.client_secret == CLIENT_SECRET
    assert settings.scope == "mcp read"
    assert settings.registration == "preregistered"
    assert settings.token_endpoint_auth_method == "client_secret_post"
    assert settings.redirect_port == 8765
    assert settings.preregistered_issuer == "https://auth.example.com"
    assert settings.cimd_url is None and settings.private_key_pem is None

    # Forgetting the secret (the editor's "Forget") deletes it from the keyring on save.
    edited = reloaded.model_copy(deep=True)
    edited.http.auth.oauth.client_secret = SecretValue()
    with pytest.raises(ValueError, match="client_secret_post needs a client secret"):
        store.put(edited)
    edited.http.auth.oauth.token_auth_method = "auto"
    store.put(edited)
    assert CLIENT_SECRET not in memory_keyring.store.values()
    # Deleting a profile deletes its auth secrets too.
    again = store.put(
        edited.model_copy(
            update={"http": http_profile(kind="bearer", bearer={"token": {"value": BEARER}}).http}
        )
    )
    assert BEARER in memory_keyring.store.values()
    store.delete(again.id)
    assert BEARER not in memory_keyring.store.values()


def test_a_stored_secret_survives_switching_the_kind_of_auth(
    store: ProfileStore, memory_keyring: MemoryKeyring
) -> None:
    saved = store.put(oauth_profile(client_id="c", client_secret={"value": CLIENT_SECRET}))
    switched = saved.model_copy(deep=True)
    switched.http.auth.kind = "none"
    store.put(switched)
    assert CLIENT_SECRET in memory_keyring.store.values()


def test_without_a_keyring_the_secret_is_refused_plainly(
    store: ProfileStore, tmp_path: Path
) -> None:
    for _ in installed_failing_keyring():
        profile = http_profile(kind="bearer", bearer={"token": {"value": BEARER}})
        with pytest.raises(NoKeyringError, match="No system keyring"):
            store.put(profile)
        saved = store.put(profile, session_only_secrets=True)
        assert BEARER not in (tmp_path / "profiles.json").read_text()
        assert bearer_token_for(saved, store.secrets) == BEARER


def test_typed_secrets_are_noticed() -> None:
    assert not oauth_profile(client_id="x").has_typed_secrets()
    assert oauth_profile(client_secret={"value": "s"}).has_typed_secrets()
    assert not oauth_profile(client_secret={"stored": True}).has_typed_secrets()


# ---------------------------------------------------------------- validation
def test_validation_speaks_plainly() -> None:
    assert messages(http_profile()) == []
    assert "Enter the bearer token" in messages(http_profile(kind="bearer"))[0]
    assert messages(http_profile(kind="bearer", bearer={"token": {"stored": True}})) == []
    env = http_profile(kind="bearer", bearer={"source": "env", "env_name": "NO_SUCH_VAR_X1"})
    assert "NO_SUCH_VAR_X1 is not set" in messages(env)[0]
    assert (
        "Name the environment variable"
        in messages(http_profile(kind="bearer", bearer={"source": "env"}))[0]
    )
    assert (
        "not a valid variable name"
        in messages(http_profile(kind="bearer", bearer={"source": "env", "env_name": "1BAD"}))[0]
    )
    headers = http_profile(kind="headers")
    assert "there are none" in messages(headers)[0]
    headers.http.headers = [HeaderEntry(name="X-API-Key", value="k")]
    assert "no header is marked Secret" in messages(headers)[0]

    assert messages(oauth_profile(url="https://mcp.example.com/mcp")) == []
    cases = {
        "there is no client id": {"registration": "preregistered"},
        "there is no document URL": {"registration": "cimd"},
        "must be an https:// URL with a path": {"cimd_url": "http://example.com/c.json"},
        "needs the client id": {"grant": "client_credentials"},
        "needs a client secret": {"client_id": "c", "token_auth_method": "client_secret_basic"},
        "needs the private key file": {"client_id": "c", "token_auth_method": "private_key_jwt"},
        "is not a valid scope": {"scope": 'mcp "quoted"'},
        "must be a URL": {"authorization_server": "auth.example.com"},
        "between 1 and 65535": {"redirect_port": 70000},
        "login timeout must be positive": {"login_timeout": 0},
    }
    for expected, options in cases.items():
        found = messages(oauth_profile(url="https://mcp.example.com/mcp", **options))
        assert any(expected in m for m in found), (expected, found)
        problems = validate_profile(oauth_profile(url="https://mcp.example.com/mcp", **options))
        assert any(p.severity == "error" for p in problems), expected

    warnings = validate_profile(
        oauth_profile(url="http://mcp.example.com/mcp", client_secret={"stored": True})
    )
    texts = " ".join(p.message for p in warnings)
    assert all(p.severity == "warning" for p in warnings)
    assert "clear text" in texts and "no client id" in texts
    shadowed = oauth_profile(url="https://mcp.example.com/mcp")
    shadowed.http.headers = [HeaderEntry(name="Authorization", value="x", secret=True)]
    assert "is replaced by the OAuth access token" in messages(shadowed)[0]
    # loopback http is fine (a local development server)
    assert messages(oauth_profile(url="http://127.0.0.1:3000/mcp")) == []


# ---------------------------------------------------------------- transport_for
def test_bearer_token_from_the_keyring_or_the_env(
    store: ProfileStore, memory_keyring: MemoryKeyring
) -> None:
    saved = store.put(http_profile(kind="bearer", bearer={"token": {"value": BEARER}}))
    auth = auth_for(saved, store.secrets)
    assert isinstance(auth, BearerAuth)
    request = httpx.Request("GET", "https://mcp.example.com/mcp")
    flow = auth.auth_flow(request)
    assert next(flow).headers["Authorization"] == f"Bearer {BEARER}"
    env = http_profile(kind="bearer", bearer={"source": "env", "env_name": "MY_TOKEN"})
    assert bearer_token_for(env, None, {"MY_TOKEN": "from-env"}) == "from-env"
    with pytest.raises(ProfileAuthError, match="MY_TOKEN, which is not set"):
        bearer_token_for(env, None, {})
    # a token marked stored but missing from the keyring: a plain SetupError
    lost = http_profile(kind="bearer", bearer={"token": {"stored": True}})
    with pytest.raises(SetupError, match="bearer token of “remote” has no value"):
        transport_for(lost, store.secrets)
    assert auth_for(http_profile(kind="headers"), store.secrets) is None
    assert isinstance(auth_for(oauth_profile(), store.secrets), OAuth)


def test_transport_for_puts_the_oauth_on_the_transport(memory_keyring: MemoryKeyring) -> None:
    profile = oauth_profile()
    oauth = OAuth(MCP_URL)
    transport = transport_for(profile, SecretStore(), oauth=oauth)
    params = getattr(transport, "params", None)
    assert params is not None and params.auth is oauth


def test_an_unreadable_private_key_file_is_a_plain_error(tmp_path: Path) -> None:
    profile = oauth_profile(
        client_id="c", token_auth_method="private_key_jwt", private_key_file=str(tmp_path / "k")
    )
    with pytest.raises(ProfileAuthError, match="Cannot read the private key file"):
        oauth_settings_for(profile, None)
    (tmp_path / "k").write_text("-----BEGIN PRIVATE KEY-----\n")
    assert oauth_settings_for(profile, None).private_key_pem is not None


# ---------------------------------------------------------------- ProfileAuth
def make_auth(world: FakeWorld) -> ProfileAuth:
    auth = ProfileAuth(SecretStore(), opener=headless_opener(transport=world.transport))
    auth.http_transport = world.transport
    return auth


async def test_prepare_probes_logs_in_once_and_reuses_the_token(
    memory_keyring: MemoryKeyring,
) -> None:
    # The resource metadata is only in the 401 (not at a well-known location): the probe
    # is what finds it.
    world = FakeWorld(prm_path="/meta/prm.json", prm_scopes=["mcp"])
    auth = make_auth(world)
    profile = oauth_profile(login_timeout=10)
    oauth = await auth.prepare(profile)
    assert oauth is not None and oauth.logged_in
    assert len(world.authorize_requests) == 1
    steps = [e.step for e in auth.timeline.events]
    for step in ("connect", "probe", "discovery", "metadata", "registration", "token", "login"):
        assert step in steps, step
    probe = next(e for e in auth.timeline.events if e.step == "probe")
    assert "https://mcp.test/meta/prm.json" in probe.message
    assert not auth.logging_in and auth.prompt is None

    # Reconnect: the same OAuth, the token reused, no login.
    assert await auth.prepare(profile) is oauth
    assert len(world.authorize_requests) == 1
    # A fresh ProfileAuth (a new app run) finds the token in the keyring.
    again = make_auth(world)
    assert (await again.prepare(profile)) is not oauth
    assert len(world.authorize_requests) == 1
    assert "logged in at" in again.status(profile)

    forgotten = again.logout(profile)
    assert forgotten and "not logged in" in again.status(profile)
    await again.prepare(profile)
    assert len(world.authorize_requests) == 2
    # no token value in any event
    text = json.dumps([(e.message, e.url, dict(e.details)) for e in again.timeline.events])
    for value in world.issued:
        assert value not in text


async def test_step_through_pauses_before_each_step_and_stop_cancels(
    memory_keyring: MemoryKeyring,
) -> None:
    world = FakeWorld()
    auth = make_auth(world)
    waits: list[str] = []
    auth.on_changed(lambda: waits.append(auth.gate.waiting.name) if auth.gate.waiting else None)
    auth.gate.set_enabled(True)
    profile = oauth_profile(login_timeout=10)
    task = asyncio.ensure_future(auth.login(profile))
    for _ in range(12):
        for _ in range(200):
            if auth.gate.waiting is not None or task.done():
                break
            await asyncio.sleep(0.01)
        if task.done():
            break
        auth.gate.advance()
        await asyncio.sleep(0)
    await asyncio.wait_for(task, 10)
    assert waits[:2] == ["probe", "discover-resource"]
    assert "authorize" in waits and "token" in waits

    # Stop at the first step: the login fails with a plain "cancelled".
    auth.logout(profile)
    task = asyncio.ensure_future(auth.login(profile))
    for _ in range(200):
        if auth.gate.waiting is not None:
            break
        await asyncio.sleep(0.01)
    assert auth.logging_in
    assert auth.cancel_login()
    with pytest.raises(AuthCancelled):
        await asyncio.wait_for(task, 5)
    assert not auth.logging_in
    assert auth.timeline.events[-1].message.startswith("login stopped")


async def test_cancel_while_waiting_for_the_browser(memory_keyring: MemoryKeyring) -> None:
    world = FakeWorld()
    auth = make_auth(world)
    opened = asyncio.Event()

    async def never_comes_back(prompt: object) -> None:
        opened.set()

    auth.opener = never_comes_back  # type: ignore[assignment]
    task = asyncio.ensure_future(auth.login(oauth_profile(login_timeout=30)))
    await asyncio.wait_for(opened.wait(), 10)
    assert auth.prompt is not None and auth.prompt.url.startswith("https://auth.test/authorize?")
    assert auth.cancel_login()
    with pytest.raises(AuthCancelled):
        await asyncio.wait_for(task, 5)
    assert auth.prompt is None


async def test_a_bad_authorization_server_is_a_plain_error(memory_keyring: MemoryKeyring) -> None:
    world = FakeWorld(prm_servers=["https://nowhere.test"])
    auth = make_auth(world)
    with pytest.raises(DiscoveryError, match="no authorization server metadata was found"):
        await auth.prepare(oauth_profile())
    errors = auth.timeline.errors()
    assert errors and errors[-1].message.startswith("login failed: no authorization server")


async def test_a_server_that_does_not_ask_is_not_logged_into_ahead(
    memory_keyring: MemoryKeyring,
) -> None:
    def open_server(request: httpx.Request) -> httpx.Response:
        return httpx.Response(405)

    auth = ProfileAuth(SecretStore(), http_transport=httpx.MockTransport(open_server))
    oauth = await auth.prepare(oauth_profile())
    assert oauth is not None and not oauth.logged_in
    assert any("without asking for a token" in e.message for e in auth.timeline.events)


async def test_no_keyring_says_so_and_keeps_tokens_for_the_session() -> None:
    for _ in installed_failing_keyring():
        world = FakeWorld()
        auth = make_auth(world)
        assert "No system keyring" in auth.keyring_note
        profile = oauth_profile(login_timeout=10)
        await auth.prepare(profile)
        assert await auth.prepare(profile) is not None
        assert len(world.authorize_requests) == 1  # kept in memory for this session
        assert any("memory for this session only" in e.message for e in auth.timeline.events)
