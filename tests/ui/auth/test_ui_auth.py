"""Authorization in the GUI (pytest-qt, offscreen, qasync): the profile's Auth section
through the profile store (secrets only in an in-memory keyring), and the Auth panel
against an mcp 2.x server protected by OAuth (tests/servers/sdk/oauth_server.py), with the
headless opener standing in for the browser: login before connecting, the steps shown,
reconnect without a login, log out then a new login, step-through, a bad authorization
server, and no keyring. Nothing secret reaches the profile file, a recording, the log
or the panel."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtWidgets import QApplication

from inspector.auth import headless_opener
from inspector.core.server_connection import ServerConnection
from inspector.recording.live import start_recorder
from inspector.recording.redaction import spec_for_profile
from inspector.recording.writer import SessionRecorder
from inspector.settings.auth_options import HttpAuth, OAuthOptions
from inspector.settings.profiles import HttpSettings, Profile, ProfileStore
from inspector.storage.secrets import NoKeyringError, SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.profiles.profiles_dialog import ProfilesDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import close_window, run, then_shutdown, until, window_for
from tests.helpers.http_servers import free_port, oauth_peer
from tests.helpers.memory_keyring import (
    MemoryKeyring,
)
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(120)

CLIENT_SECRET = "gui-client-s3cret-4242"
BEARER = "gui-bearer-t0ken-9191"


# ---------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def oauth_server() -> Iterator[str]:
    """The OAuth peer, its tokens valid for an hour."""
    with oauth_peer(3600) as base:
        yield base


class _BadAuthHandler(BaseHTTPRequestHandler):
    """/mcp asks for a token; its metadata names a dead authorization server.
    /noas/mcp: the metadata names no authorization server at all."""

    dead_port = 9

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, status: int, body: dict[str, Any], headers: dict[str, str]) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        for name, value in {**headers, "Content-Type": "application/json"}.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _route(self) -> None:
        host = f"http://{self.headers['Host']}"
        path = self.path.split("?")[0]
        if path.startswith("/.well-known/oauth-protected-resource"):
            resource = host + path.removeprefix("/.well-known/oauth-protected-resource")
            doc: dict[str, Any] = {"resource": resource}
            if not resource.endswith("/noas/mcp"):
                doc["authorization_servers"] = [f"http://127.0.0.1:{self.dead_port}"]
            self._send(200, doc, {})
        elif path.endswith("/mcp"):
            meta = f"{host}/.well-known/oauth-protected-resource{path}"
            self._send(
                401,
                {"error": "invalid_token"},
                {"WWW-Authenticate": f'Bearer resource_metadata="{meta}"'},
            )
        else:
            self._send(404, {}, {})

    def do_GET(self) -> None:
        self._route()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self._route()


@pytest.fixture(scope="module")
def bad_auth_server() -> Iterator[str]:
    _BadAuthHandler.dead_port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _BadAuthHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def counts(base: str) -> dict[str, int]:
    return dict(httpx.get(f"{base}/test/counts").json())


def oauth_profile(base: str, name: str = "oauth peer") -> Profile:
    return Profile(
        name=name,
        transport="http",
        http=HttpSettings(
            url=f"{base}/mcp",
            transport="streamable-http",
            auth=HttpAuth(kind="oauth", oauth=OAuthOptions(login_timeout=20)),
        ),
    )


def open_window(store: ProfileStore, tmp: Path) -> MainWindow:
    # the browser, headless
    window = window_for(store, tmp, "w.ini", opener=lambda _note: headless_opener())
    window.resize(1280, 800)
    window.show()
    return window


def panel_rows(window: MainWindow) -> list[tuple[str, str, str]]:
    model = current_tab(window).auth_panel.model
    return [
        (
            str(model.index(r, 1).data()),
            str(model.index(r, 2).data()),
            str(model.index(r, 3).data()),
        )
        for r in range(model.rowCount())
    ]


async def connect(window: MainWindow, profile: Profile | None = None) -> None:
    """Connect (or reconnect, without a profile) and wait for the outcome: connected."""
    task = (
        window.connect_profile(profile)
        if profile
        else current_tab(window).controller.model.reconnect()
    )
    assert task is not None
    await asyncio.wait_for(task, 40)
    c = current_tab(window).controller.model
    assert c.state is ConnState.CONNECTED, c.detail


# ---------------------------------------------------------------- the profile's Auth section
def test_auth_section_round_trips_with_the_secret_only_in_the_keyring(
    qapp: QApplication, memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    dialog = ProfilesDialog(store)
    dialog.new_profile()
    editor = dialog.editor
    section = editor.auth
    editor.name.setText("remote")
    editor.transport.setCurrentIndex(1)
    editor.url.setText("https://mcp.example.com/mcp")
    assert section.http_box.isVisibleTo(section) and not section.stdio_note.isVisibleTo(section)
    section.kind.setCurrentIndex(section.kind.findData("oauth"))
    o = section.oauth
    o.registration.setCurrentIndex(o.registration.findData("preregistered"))
    assert dialog.save() is None  # no client id: a plain error under the form
    assert "there is no client id" in editor.problems.text()
    o.client_id.setText("inspector-client")
    o.client_secret.edit.setText(CLIENT_SECRET)
    o.scope.setText("mcp read")
    o.method.setCurrentIndex(o.method.findData("client_secret_basic"))
    o.redirect_port.setValue(8123)
    o.issuer.setText("https://auth.example.com")
    assert not o.form.isRowVisible(o.cimd_url)  # pre-registered: no metadata URL row
    saved = dialog.save()
    assert saved is not None, editor.problems.text()

    text = (tmp_path / "profiles.json").read_text()
    assert CLIENT_SECRET not in text
    assert list(memory_keyring.store.values()) == [CLIENT_SECRET]
    stored = json.loads(text)["profiles"][0]["http"]["auth"]
    assert stored["kind"] == "oauth"
    assert stored["oauth"]["client_id"] == "inspector-client"
    assert stored["oauth"]["client_secret"] == {"stored": True}
    assert stored["oauth"]["token_auth_method"] == "client_secret_basic"

    # Loaded back: the secret is not shown, only where it is kept.
    dialog.select(saved.id)
    assert o.client_secret.edit.text() == ""
    assert "stored (in the keyring)" in o.client_secret.edit.placeholderText()
    assert o.client_id.text() == "inspector-client" and o.scope.text() == "mcp read"
    assert o.redirect_port.value() == 8123
    assert editor.profile().http.auth == saved.http.auth

    # Bearer from the keyring; the OAuth settings stay; Forget removes the client secret.
    section.kind.setCurrentIndex(section.kind.findData("bearer"))
    assert "Enter the bearer token" in editor.problems.text()
    section.bearer.token.edit.setText(BEARER)
    o.method.setCurrentIndex(o.method.findData("auto"))
    o.client_secret.forget.click()
    again = dialog.save()
    assert again is not None, editor.problems.text()
    assert list(memory_keyring.store.values()) == [BEARER]
    assert BEARER not in (tmp_path / "profiles.json").read_text()
    reloaded = ProfileStore(tmp_path / "profiles.json", SecretStore()).get(saved.id)
    assert reloaded is not None and reloaded.http.auth.kind == "bearer"
    assert reloaded.http.auth.oauth.client_id == "inspector-client"
    assert not reloaded.http.auth.oauth.client_secret.stored

    # A stdio profile says where its credentials go instead.
    editor.transport.setCurrentIndex(0)
    assert section.stdio_note.isVisibleTo(section) and not section.http_box.isVisibleTo(section)
    dialog.deleteLater()


# ---------------------------------------------------------------- OAuth end to end
def test_login_before_connect_reconnect_logout_and_nothing_secret_anywhere(
    oauth_server: str,
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
) -> None:
    base = oauth_server
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    profile = store.put(oauth_profile(base))
    window = open_window(store, tmp_path)
    panel = current_tab(window).auth_panel
    recorders: list[SessionRecorder] = []

    def record(server: ServerConnection) -> None:
        path = tmp_path / f"session-{len(recorders)}.jsonl"
        spec = spec_for_profile(profile, store.secrets)
        recorders.append(start_recorder(path, spec, server.session))

    current_tab(window).connection.session_started.add(record)

    async def scenario() -> None:
        before = counts(base)
        await connect(window, profile)
        assert counts(base)["authorize"] == before["authorize"] + 1
        assert (
            current_tab(window).bottom.currentWidget().isAncestorOf(panel)
        )  # the login raised the Auth tab
        steps = [step for step, _level, _text in panel_rows(window)]
        for step in (
            "connect",
            "probe",
            "discovery",
            "metadata",
            "registration",
            "authorize",
            "redirect",
            "token",
            "expiry",
            "storage",
            "login",
        ):
            assert step in steps, (step, steps)
        texts = [text for _s, _l, text in panel_rows(window)]
        assert any("the server answered 401 Unauthorized: resource_metadata" in t for t in texts)
        assert any(t.startswith("authorization URL ready (PKCE S256") for t in texts)
        assert any(t.startswith("received an access token (Bearer, sha256:") for t in texts)
        assert "logged in at" in panel.status.text()
        assert not panel.error_bar.isVisible()
        session = current_tab(window).controller.model.session
        assert session is not None
        result = await session.client.call_tool("whoami", {})
        assert "authorized caller" in json.dumps(result)

        # Reconnect: the token comes from the keyring, no login.
        await connect(window)
        assert counts(base)["authorize"] == before["authorize"] + 1
        assert "no login needed" in panel_rows(window)[-1][2] or any(
            "no login needed" in t for _s, _l, t in panel_rows(window)[-6:]
        )

        # A new app run (another window, another ProfileAuth): only the keyring knows it.
        (tmp_path / "second").mkdir()
        second = open_window(store, tmp_path / "second")
        try:
            await connect(second, profile)
            assert counts(base)["authorize"] == before["authorize"] + 1
            assert any("stored token" in t for _s, _l, t in panel_rows(second))
        finally:
            await close_window(second)

        # Log out (disconnects first); the next connect logs in again.
        task = panel.log_out()
        assert task is not None
        await task
        assert current_tab(window).controller.model.state is ConnState.DISCONNECTED
        assert "not logged in" in panel.status.text()
        assert not any(
            k[1].startswith(("oauth:token:", "oauth:client:")) for k in memory_keyring.store
        )
        await connect(window, profile)
        assert counts(base)["authorize"] == before["authorize"] + 2

    run(loop, then_shutdown(window, scenario()), timeout=90)
    for recorder in recorders:
        recorder.close()

    issued = httpx.get(f"{base}/test/secrets").json()
    assert len(issued) >= 4  # client secrets, codes, access and refresh tokens
    looked_at = {
        "profile file": (tmp_path / "profiles.json").read_text(),
        "keyring values are the only place": "",
        "recordings": "\n".join(p.read_text() for p in tmp_path.glob("session-*.jsonl")),
        "traffic log": "\n".join(entry.text() for entry in current_tab(window).traffic),
        "auth panel": "\n".join(" ".join(row) for row in panel_rows(window)),
    }
    details = []
    for row in range(panel.model.rowCount()):
        panel.table.selectRow(row)
        details.append(panel.details.toPlainText())
    looked_at["auth panel details"] = "\n".join(details)
    assert "Authorization" in looked_at["recordings"] or "authorization" in looked_at["recordings"]
    assert "received an access token" in looked_at["auth panel details"]
    for where, text in looked_at.items():
        for value in issued:
            assert value not in text, where
        assert "sdk-at-" not in text and "sdk-rt-" not in text, where
    run(loop, close_window(window))


def test_step_through_pauses_before_each_step_and_stop_ends_the_login(
    oauth_server: str,
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    profile = store.put(oauth_profile(oauth_server, "stepped"))
    window = open_window(store, tmp_path)
    panel = current_tab(window).auth_panel
    current_tab(window).bar.set_profiles(window.all_profiles(), profile.id)
    panel.step_box.setChecked(True)

    async def scenario() -> None:
        window.connect_profile(profile)
        paused: list[str] = []
        while current_tab(window).controller.model.state is not ConnState.CONNECTED:
            await until(
                lambda: (
                    panel.next_button.isEnabled()
                    or current_tab(window).controller.model.state
                    in (ConnState.CONNECTED, ConnState.FAILED)
                ),
                "a pause or the connection",
            )
            assert current_tab(window).controller.model.state is not ConnState.FAILED, current_tab(
                window
            ).controller.model.detail
            if panel.next_button.isEnabled():
                assert panel.pause_bar.isVisible()
                assert panel.auth.gate.waiting is not None
                paused.append(panel.auth.gate.waiting.name)
                assert "Paused before:" in panel.pause_bar.label.text()
                assert (
                    current_tab(window).controller.model.state is ConnState.CONNECTING
                )  # held, not timed out
                panel.next_button.click()
                await asyncio.sleep(0.01)
        assert paused[:3] == ["probe", "discover-resource", "discover-server"]
        assert "register" in paused and "authorize" in paused and "token" in paused
        assert not panel.pause_bar.isVisible()

        # Stop at the first pause: the connect fails plainly, the app carries on.
        await panel._log_out(profile)
        window.connect_profile(profile)
        await until(lambda: panel.stop_button.isEnabled(), "the first pause")
        panel.stop_button.click()
        await until(
            lambda: current_tab(window).controller.model.state is ConnState.FAILED,
            "the failed connect",
        )
        assert "cancelled" in current_tab(window).controller.model.detail
        assert panel.error_bar.isVisible()
        assert "stopped by the user" in panel.error_bar.label.text()
        # Connecting elsewhere while a login is paused cancels that login, not the connect.
        window.connect_profile(profile)
        await until(lambda: panel.next_button.isEnabled(), "the first pause again")
        other = store.put(oauth_profile(oauth_server, "other"))
        task = window.connect_profile(other)
        auth = panel.auth
        await until(
            lambda: auth.login_profile is not None and auth.login_profile.id == other.id,
            "the other profile's login",
        )
        # Step-through off: the paused step runs, and the rest goes straight through.
        panel.step_box.setChecked(False)
        assert task is not None
        await asyncio.wait_for(task, 40)
        assert current_tab(window).controller.model.state is ConnState.CONNECTED, current_tab(
            window
        ).controller.model.detail
        assert current_tab(window).controller.model.profile is not None
        assert current_tab(window).controller.model.profile.id == other.id

    run(loop, then_shutdown(window, scenario()), timeout=90)
    run(loop, close_window(window))


def test_a_bad_authorization_server_is_a_plain_error_and_the_app_keeps_running(
    bad_auth_server: str,
    oauth_server: str,
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    dead = store.put(oauth_profile(bad_auth_server, "dead AS"))
    no_as = store.put(oauth_profile(f"{bad_auth_server}/noas", "no AS"))
    good = store.put(oauth_profile(oauth_server, "good"))
    window = open_window(store, tmp_path)
    panel = current_tab(window).auth_panel

    async def failed(profile: Profile) -> str:
        task = window.connect_profile(profile)
        assert task is not None
        await asyncio.wait_for(task, 40)
        assert current_tab(window).controller.model.state is ConnState.FAILED
        return current_tab(window).controller.model.detail

    async def scenario() -> None:
        detail = await failed(dead)
        assert detail.startswith("authorization failed: no authorization server metadata")
        assert panel.error_bar.isVisible()
        assert "no authorization server metadata was found" in panel.error_bar.label.text()
        assert current_tab(window).bottom.currentWidget().isAncestorOf(panel)
        assert any("could not connect" in e.message for e in current_tab(window).errors.items)

        detail = await failed(no_as)
        assert "names no authorization server" in detail
        assert "names no authorization server" in panel.error_bar.label.text()

        # The app carries on: a good server connects, and the banner goes.
        await connect(window, good)
        assert not panel.error_bar.isVisible()

    run(loop, then_shutdown(window, scenario()), timeout=90)
    run(loop, close_window(window))


def test_without_a_keyring_the_panel_says_so_and_the_session_keeps_the_token(
    oauth_server: str, no_keyring: None, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    with_secret = Profile.model_validate(
        {
            "name": "with a secret",
            "transport": "http",
            "http": {
                "url": f"{oauth_server}/mcp",
                "auth": {"kind": "bearer", "bearer": {"token": {"value": BEARER}}},
            },
        }
    )
    with pytest.raises(NoKeyringError, match="No system keyring"):
        store.put(with_secret)  # the profile dialog then offers "this session only"
    profile = store.put(oauth_profile(oauth_server, "no keyring"))
    window = open_window(store, tmp_path)
    panel = current_tab(window).auth_panel
    current_tab(window).bar.set_profiles(window.all_profiles(), profile.id)
    panel.refresh()
    assert panel.keyring_note.isVisibleTo(panel)
    assert "No system keyring" in panel.keyring_note.text()
    assert "memory for this session only" in panel.keyring_note.text()

    async def scenario() -> None:
        before = counts(oauth_server)
        await connect(window, profile)
        await connect(window)
        assert counts(oauth_server)["authorize"] == before["authorize"] + 1
        texts = [t for _s, _l, t in panel_rows(window)]
        assert any("memory for this session only" in t for t in texts)

    run(loop, then_shutdown(window, scenario()), timeout=60)
    run(loop, close_window(window))


def test_an_oauth_connect_builds_the_unseen_auth_panel_and_raises_its_tab(
    oauth_server: str,
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
) -> None:
    # The Auth panel is built lazily (cold start): a login must still show it, with every
    # step, although nobody opened the tab before connecting.
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    profile = store.put(oauth_profile(oauth_server))
    window = open_window(store, tmp_path)
    tabs = current_tab(window).bottom
    auth_tab = next(i for i in range(tabs.count()) if tabs.tabText(i) == "Auth")
    assert tabs.currentIndex() != auth_tab

    async def scenario() -> None:
        await connect(window, profile)
        assert tabs.currentIndex() == auth_tab  # the login raised the Auth tab
        steps = [step for step, _level, _text in panel_rows(window)]
        assert "connect" in steps and "authorize" in steps and "token" in steps, steps

    run(loop, then_shutdown(window, scenario()), timeout=90)
    run(loop, close_window(window))
