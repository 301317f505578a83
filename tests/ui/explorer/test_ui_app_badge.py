"""The explorer marks the tools that have an MCP App (`_meta.ui.resourceUri`, a `ui://`
resource) with an "App" badge, so they are found without clicking each tool (issue 31,
item 26); a tool without one has none."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.ui.explorer.catalog_models import BADGES_ROLE
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.gui import connected, python_profile, run, then_shutdown
from tests.helpers.peers import REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(60)

APPS = python_profile("apps", str(REPO / "tests" / "servers" / "apps" / "hostile_app_server.py"))
OUT = Path(__file__).resolve().parents[3] / "out"


def test_tools_with_an_app_show_an_app_badge(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        await connected(window, APPS, listed=("tools",))
        pane = current_tab(window).explorer.panes["tools"]
        badges: dict[str, list[str]] = {}
        tips: dict[str, str] = {}
        for row in range(pane.proxy.rowCount()):
            index = pane.proxy.index(row, 0)
            labels = pane.proxy.data(index, BADGES_ROLE) or []
            name = str(pane.proxy.data(index))
            badges[name] = [b.label for b in labels]
            tips[name] = " ".join(b.tooltip for b in labels)
        assert "App" not in badges["echo"]
        apps = [n for n in badges if n != "echo"]
        assert apps and all("App" in badges[n] for n in apps), badges
        assert "ui://hostile/" in tips[apps[0]]
        window.resize(1280, 800)
        OUT.mkdir(exist_ok=True)
        window.grab().save(str(OUT / "item26-app-badge.png"))

    run(loop, then_shutdown(window, scenario()), 50)
