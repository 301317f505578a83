"""MCP Apps in the App tab, rendered by QtWebEngine offscreen: the official basic example
(server-basic-vanillajs) gets its tool's result and calls a tool through the host, every
message in the traffic log; our hostile apps (tests/servers/apps) are refused or flagged;
the sandbox blocks fetches, navigation and popups; the consent dialog asks; reload and close
leave the session alone. The WebEngine scenarios run one process each (tests/ui/
apps_scenarios.py says why). Skipped without QtWebEngine (the `apps` extra)."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision
from inspector.ui.mcp_apps.consent_dialog import ask_consent
from inspector.ui.mcp_apps.webengine import webengine_available
from tests.helpers.gui import run, until
from tests.helpers.peers import PY, REPO, subprocess_env

pytestmark = pytest.mark.timeout(150)


needs_webengine = pytest.mark.skipif(
    not webengine_available(),
    reason="QtWebEngine is not installed (the apps extra: pip install -e '.[apps]')",
)


@needs_webengine
@pytest.mark.parametrize(
    "scenario",
    [
        "basic",  # the official example renders, gets the result, calls a tool
        "hostile",  # no handshake, invalid JSON-RPC, an unknown tool, a flood
        "sandbox",  # navigation, window.open, remote script/fetch/image, a CSP allow-list
        "consent",  # link and tool-call consent, reload, close (teardown)
        "interceptor",  # the request interceptor alone blocks what the CSP does not declare
        "size",  # size-changed resizes the view within bounds; the app is told the bounds
    ],
)
def test_app_scenario(scenario: str) -> None:
    import os

    env = {**os.environ, **subprocess_env(), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [PY, "-m", "tests.ui.mcp_apps.apps_scenarios", scenario],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=140,
    )
    if done.returncode == 3:
        pytest.skip(done.stdout.strip())
    tail = "\n".join(
        line
        for line in done.stderr.splitlines()
        if not any(n in line for n in ("QRhi", "Vulkan", "GBM", "RHI", "bus.cc", "propagateSize"))
    )[-6000:]
    assert done.returncode == 0, f"scenario {scenario} failed (rc {done.returncode}):\n{tail}"


def test_consent_dialog_asks_and_answers(
    loop: asyncio.AbstractEventLoop, qapp: QApplication
) -> None:
    async def scenario() -> None:
        parent = QWidget()  # a window stays open: closing the dialog must not quit the app
        parent.show()
        question = ConsentQuestion("tool", "echo", '{"text": "x"}', "'hostile'")
        task = asyncio.ensure_future(ask_consent(question, parent))
        box: Any = None

        def find() -> Any:
            nonlocal box
            box = next((w for w in parent.findChildren(QMessageBox) if w.isVisible()), None)
            return box

        await until(find, "the consent dialog")
        assert "echo" in box.text() and "hostile" in box.text()
        labels = [b.text() for b in box.buttons()]
        assert {"Allow once", "Always for this app", "Deny"} <= set(labels)
        next(b for b in box.buttons() if b.text() == "Always for this app").click()
        assert await task is Decision.ALWAYS
        link = asyncio.ensure_future(
            ask_consent(ConsentQuestion("link", "https://x.org", "x.org", "app"), parent)
        )
        await until(find, "the link dialog")
        assert "Always for this app" not in [b.text() for b in box.buttons()]
        box.reject()
        assert await link is Decision.DENY
        parent.close()

    run(loop, scenario(), timeout=30)


def test_without_webengine_the_tab_says_how_and_shows_the_source(
    loop: asyncio.AbstractEventLoop, controller: Any
) -> None:
    """In-process (no QtWebEngine is loaded): the App tab reads the resource, says how to
    get the extra and shows the HTML; the session goes on."""
    from inspector.ui.mcp_apps.webengine import INSTALL_HINT
    from inspector.ui.workspace.views import register_all
    from inspector.ui.workspace.workspace import ItemPage
    from tests.helpers.gui import connected, python_profile

    profile = python_profile(
        "hostile", str(REPO / "tests" / "servers" / "apps" / "hostile_app_server.py")
    )

    async def scenario() -> None:
        await connected(controller, profile, listed=("tools", "resources"))
        register_all()
        item = controller.model.catalog.tools.find("garbage")
        page = ItemPage(item, controller)
        tab = page.app_tab
        assert tab is not None and page.tabs.tabText(page.tabs.indexOf(tab)) == "App"
        assert controller.model.catalog.tools.find("echo") is not None
        echo_page = ItemPage(controller.model.catalog.tools.find("echo"), controller)
        assert echo_page.app_tab is None  # no ui:// resource, no App tab
        tab.use_webengine = False
        page.resize(800, 600)
        page.show()
        page.tabs.setCurrentWidget(tab)
        record = page.action.send()
        assert record is not None
        await until(lambda: tab.view is not None, f"the fallback ({tab.status.text()})")
        view = tab.view
        assert view is not None and view.source is not None
        assert "hostile app: garbage" in view.source.toPlainText()
        assert "QtWebEngine missing" in tab.status.text()
        assert INSTALL_HINT.split(":")[0] in view.findChild(QWidget, "appInstallHint").text()
        tab.reload()
        await until(lambda: tab.view is not None and tab.view is not view, "the reload")
        # A call card's "Show in App": that call, in the App tab.
        page.tabs.setCurrentIndex(0)
        await until(lambda: not record.running, "the call to finish")
        card = page.action.cards[0]
        assert card.app_button is not None
        card.app_button.click()
        assert page.tabs.currentWidget() is tab and tab.record is record
        assert controller.model.connected
        page.dispose()
        page.deleteLater()
        echo_page.deleteLater()

    run(loop, scenario(), timeout=30)


@needs_webengine
def test_screenshot_mode_shows_the_app_after_the_call_and_records_its_messages(
    tmp_path: Path,
) -> None:
    """`gui --open tool:get-time --call-args {} --screenshot` against the official example:
    the PNG shows the App tab once the app has the result; the session file (recording is
    on by default) has the app's ui/initialize and the tool result sent to it."""
    import os
    import shutil

    from PySide6.QtGui import QImage

    from inspector.recording.reader import read_session
    from tests.helpers.peers import BASIC_APP_JS

    node = shutil.which("node")
    if node is None or not BASIC_APP_JS.exists():
        pytest.skip("server-basic-vanillajs is not installed (scripts/install-peers.sh)")
    out = tmp_path / "app.png"
    env = {
        **os.environ,
        **subprocess_env(),
        "QT_QPA_PLATFORM": "offscreen",
        "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path / "config"),
        "MCP_INSPECTOR_DATA_DIR": str(tmp_path / "data"),
    }
    argv = [PY, "-m", "inspector", "gui", "--stdio", f"{node} {BASIC_APP_JS} --stdio"]
    argv += ["--open", "tool:get-time", "--call-args", "{}", "--screenshot", str(out)]
    done = subprocess.run(
        [*argv, "--timeout", "60"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    image = QImage(str(out))
    assert image.width() >= 1000 and image.height() >= 600
    files = sorted((tmp_path / "data").rglob("*.jsonl"))
    assert files, list((tmp_path / "data").rglob("*"))
    saved = read_session(files[-1])
    app = [
        (e.direction, e.kind, json.loads(e.raw).get("method"))
        for e in saved.frames()
        if e.direction in ("from-app", "to-app")
    ]
    assert ("from-app", "request", "ui/initialize") in app
    assert ("to-app", "response", None) in app
    assert ("to-app", "notification", "ui/notifications/tool-result") in app


def test_the_window_declares_mcp_apps_to_the_server(
    loop: asyncio.AbstractEventLoop, window: Any
) -> None:
    """A connection of the window (which has the App tab) declares the MCP Apps extension in
    `initialize`; the mcp SDK server reads it back as ext-apps' getUiCapability would."""
    from inspector.protocol.machine.config import UI_APP_MIME, UI_EXTENSION
    from tests.helpers.gui import connected, python_profile
    from tests.helpers.tabs import current_tab

    profile = python_profile("sdk", str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py"))

    async def scenario() -> None:
        controller = await connected(window, profile)
        assert current_tab(window).connection.ui_apps
        init = next(
            e
            for e in controller.model.traffic.entries
            if e.method == "initialize" and e.direction == "out"
        )
        capabilities = json.loads(init.text())["params"]["capabilities"]
        assert capabilities["extensions"] == {UI_EXTENSION: {"mimeTypes": [UI_APP_MIME]}}
        session = current_tab(window).connection.session
        result = await session.request("tools/call", {"name": "ui_support", "arguments": {}})
        assert json.loads(result["content"][0]["text"]) == {"mimeTypes": [UI_APP_MIME]}

    from tests.helpers.gui import then_shutdown

    run(loop, then_shutdown(window, scenario()))


def test_the_profile_editor_switches_mcp_apps(qapp: Any) -> None:
    from inspector.settings.profiles import ClientCapabilitySwitches, Profile
    from inspector.ui.profiles.profile_editor import ProfileEditor

    editor = ProfileEditor()
    editor.load(Profile(name="p", capabilities=ClientCapabilitySwitches(apps=False)))
    assert not editor.cap_apps.isChecked()
    editor.cap_apps.setChecked(True)
    assert editor.profile().capabilities.apps is True
    editor.deleteLater()
