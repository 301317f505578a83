"""MCP Apps in the App tab, rendered by QtWebEngine offscreen: the official basic example
(server-basic-vanillajs) gets its tool's result and calls a tool through the host, every
message in the traffic log; our hostile apps (tests/servers/apps) are refused or flagged;
the sandbox blocks fetches, navigation and popups; the consent dialog asks; reload and close
leave the session alone. The WebEngine scenarios run one process each (tests/ui/
apps_scenarios.py says why). Skipped without QtWebEngine (the `apps` extra)."""

from __future__ import annotations

import asyncio
import subprocess
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from inspector.features.apps.consent import ConsentQuestion, Decision
from inspector.ui.apps.consent_dialog import ask_consent
from inspector.ui.apps.webengine import webengine_available
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
    ],
)
def test_app_scenario(scenario: str) -> None:
    import os

    env = {**os.environ, **subprocess_env(), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [PY, "-m", "tests.ui.apps_scenarios", scenario],
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
