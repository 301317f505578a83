"""An HTTP profile from the GUI: the secret header comes from the keyring, reaches the
server, and shows up nowhere in the profile file or the log (the exchange is redacted)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.settings.profiles import HeaderEntry, HttpSettings, Profile, ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.controller.connection_controller import ConnState
from inspector.ui.traffic.traffic_model import went_wrong
from tests.helpers.gui import close_window, run, then_shutdown, until, window_for
from tests.helpers.http_servers import Served
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.tabs import current_tab

SECRET = "Bearer gui-secret-777"
pytestmark = pytest.mark.timeout(90)


def test_http_profile_with_a_secret_header(
    misbehaving_http: Served,
    memory_keyring: MemoryKeyring,
    loop: asyncio.AbstractEventLoop,
    tmp_path: Path,
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    profile = store.put(
        Profile(
            name="http ok",
            transport="http",
            http=HttpSettings(
                url=f"{misbehaving_http.base}/ok/mcp",
                transport="streamable-http",
                headers=[HeaderEntry(name="Authorization", value=SECRET, secret=True)],
            ),
        )
    )
    assert SECRET not in (tmp_path / "profiles.json").read_text()
    assert SECRET in memory_keyring.store.values()
    window = window_for(store, tmp_path, "w.ini")
    window.show()

    async def scenario() -> None:
        window.connect_profile(profile)
        await until(
            lambda: (
                current_tab(window).controller.model.state is ConnState.CONNECTED
                and current_tab(window).controller.model.tools is not None
            ),
            "the HTTP connection",
        )
        assert current_tab(window).explorer.tool_names() == ["echo"]

    run(loop, then_shutdown(window, scenario()))
    assert f"authorization={SECRET!r}" in misbehaving_http.log()  # it reached the server
    http_rows = [e for e in current_tab(window).traffic if e.kind == "http"]
    assert http_rows, "the HTTP exchanges are in the log"
    current_tab(window).log_panel.select_entry(http_rows[0].index)
    details = current_tab(window).log_panel.detail.details.toPlainText()
    assert "HTTP POST" in details and "status: 200" in details
    for entry in current_tab(window).traffic:
        assert SECRET not in entry.text()
        assert SECRET not in current_tab(window).log_panel.model.summary(entry)
    for entry in http_rows:
        current_tab(window).log_panel.select_entry(entry.index)
        assert "gui-secret-777" not in current_tab(window).log_panel.detail.details.toPlainText()
    # Issue 18.8: a normal session's HTTP rows (SSE responses, the GET stream) are not red.
    assert not [e.note for e in http_rows if went_wrong(e)]
    run(loop, close_window(window))
