"""Screenshots of the auth GUI: the profile's Auth section and the Auth panel after a
login against the OAuth-protected mcp peer (tests/servers/sdk/oauth_server.py, which needs the
`mcp` test dependency), in the light and dark themes. Offscreen; the login follows the
authorization URL with httpx (the peer approves at once); tokens live in a throwaway
in-memory keyring.

    PYTHONPATH=. python scripts/auth_screenshots.py [OUT_DIR]   (default docs/screenshots)
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import httpx
import keyring
from keyring.backend import KeyringBackend
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from inspector.auth import headless_opener
from inspector.settings.auth_options import HttpAuth, OAuthOptions, SecretValue
from inspector.settings.profiles import HttpSettings, Profile, ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.profiles.profiles_dialog import ProfilesDialog
from inspector.ui.shell.event_loop import run_qt_async
from inspector.ui.shell.gui_command import build_gui_app
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.widgets.theme import apply_theme

REPO = Path(__file__).resolve().parents[1]


class _Memory(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.values.pop((service, username), None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_peer() -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    peer = REPO / "tests" / "servers" / "sdk" / "oauth_server.py"
    proc = subprocess.Popen([sys.executable, str(peer), str(port)], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{base}/.well-known/oauth-protected-resource/mcp", timeout=1)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the OAuth peer did not start (is the mcp SDK installed?)")


async def _shots(out: Path, base: str) -> int:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    tmp = Path(tempfile.mkdtemp())
    store = ProfileStore(tmp / "profiles.json", SecretStore())
    profile = store.put(
        Profile(
            name="OAuth peer",
            transport="http",
            http=HttpSettings(
                url=f"{base}/mcp",
                transport="streamable-http",
                auth=HttpAuth(
                    kind="oauth",
                    oauth=OAuthOptions(scope="mcp", client_secret=SecretValue()),
                ),
            ),
        )
    )
    for theme in ("light", "dark"):
        apply_theme(app, theme)
        settings = QSettings(str(tmp / f"{theme}.ini"), QSettings.Format.IniFormat)
        app_model = build_gui_app(store, settings, opener=lambda _note: headless_opener())
        window = MainWindow(app_model, settings)
        window.resize(1280, 800)
        window.show()
        window.refresh_colors()
        try:
            if theme == "dark":  # a second run: the stored token, then a fresh login
                window.current_tab.controller.model.auth.logout(profile)
            task = window.connect_profile(profile)
            assert task is not None
            await asyncio.wait_for(task, 30)
            window.current_tab.bottom.setCurrentWidget(window.current_tab.auth_panel)
            window.current_tab.right_split.setSizes([380, 360])
            panel = window.current_tab.auth_panel
            rows = panel.model.rowCount()
            for row in range(rows):
                if panel.model.event(row).step == "token" and panel.model.event(row).level == "ok":
                    panel.table.selectRow(row)
            await asyncio.sleep(0.3)
            window.grab().save(str(out / f"auth-panel-{theme}.png"))

            dialog = ProfilesDialog(store, window)
            dialog.select(profile.id)
            dialog.editor.tabs.setCurrentWidget(dialog.editor.auth)
            dialog.show()
            await asyncio.sleep(0.3)
            dialog.grab().save(str(out / f"auth-section-{theme}.png"))
            dialog.close()
        finally:
            await window.current_tab.controller.model.shutdown()
            window.close()
    await _paused_and_failed(out, store, profile, tmp)
    sys.stderr.write(f"saved 6 screenshots in {out}\n")
    return 0


async def _paused_and_failed(out: Path, store: ProfileStore, profile: Profile, tmp: Path) -> None:
    """Light theme: step-through paused before the registration; then a bad server."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    apply_theme(app, "light")
    settings = QSettings(str(tmp / "more.ini"), QSettings.Format.IniFormat)
    app_model = build_gui_app(store, settings, opener=lambda _note: headless_opener())
    window = MainWindow(app_model, settings)
    window.resize(1280, 800)
    window.show()
    window.refresh_colors()
    window.current_tab.right_split.setSizes([380, 360])
    panel = window.current_tab.auth_panel
    try:
        window.current_tab.controller.model.auth.logout(profile)
        panel.step_box.setChecked(True)
        window.connect_profile(profile)
        for _ in range(2000):
            waiting = panel.auth.gate.waiting
            if waiting is not None and waiting.name == "register":
                break
            if waiting is not None:
                panel.next_button.click()
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        window.grab().save(str(out / "auth-paused-light.png"))
        panel.stop_button.click()
        panel.step_box.setChecked(False)
        await asyncio.sleep(0.3)
        bad = profile.model_copy(deep=True)  # the peer's AS does not do CIMD
        bad.http.auth.oauth.registration = "cimd"
        bad.http.auth.oauth.cimd_url = "https://client.example.com/mcp-inspector.json"
        task = window.connect_profile(bad)
        assert task is not None
        await asyncio.wait_for(task, 30)
        await asyncio.sleep(0.3)
        window.grab().save(str(out / "auth-error-light.png"))
    finally:
        await window.current_tab.controller.model.shutdown()
        window.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    keyring.set_keyring(_Memory())
    proc, base = _start_peer()
    try:
        return run_qt_async(lambda: _shots(out, base))
    finally:
        proc.terminate()
        proc.wait(5)


if __name__ == "__main__":
    sys.exit(main())
