"""The MCP Apps GUI scenarios, each run in a process of its own by
tests/ui/mcp_apps/test_ui_apps.py.

QtWebEngine tears its context down on QCoreApplication::aboutToQuit, which qasync emits
each time a `run_until_complete` ends; a second run with a web view alive then crashes the
process. The app runs its loop once; a test fixture runs it several times. So each scenario
runs here, in one loop run (connect, scenario, shutdown), and exits with 0 (passed),
1 (failed: the traceback on stderr) or 3 (skipped: the reason on stdout).

    python -m tests.ui.mcp_apps.apps_scenarios NAME
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import tempfile
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import qasync

from inspector.features.mcp_apps.consent import ConsentQuestion, Decision
from inspector.features.mcp_apps.sizing import fit_height
from inspector.settings.profiles import Profile, StdioSettings
from inspector.traffic.log import TrafficEntry
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.mcp_apps.app_tab import AppTab
from inspector.ui.shell.event_loop import ensure_application
from inspector.ui.workspace.views import register_all
from inspector.ui.workspace.workspace import ItemPage
from tests.helpers.gui import connected, make_controller, python_profile, until
from tests.helpers.peers import BASIC_APP_JS, REPO


class Skip(Exception):
    pass


HOSTILE = python_profile(
    "hostile", str(REPO / "tests" / "servers" / "apps" / "hostile_app_server.py")
)


class User:
    """Consent answers and opened links, instead of dialogs and a browser."""

    def __init__(self, decision: Decision = Decision.ONCE) -> None:
        self.decision = decision
        self.questions: list[ConsentQuestion] = []
        self.links: list[str] = []

    async def confirm(self, question: ConsentQuestion) -> Decision:
        self.questions.append(question)
        return self.decision

    def open_link(self, url: str) -> bool:
        self.links.append(url)
        return True


def app_rows(controller: ConnectionController) -> list[TrafficEntry]:
    return [e for e in controller.model.traffic.entries if e.direction in ("from-app", "to-app")]


def notes(controller: ConnectionController) -> list[str]:
    return [e.note or "" for e in controller.model.traffic.entries if e.kind == "note" and e.note]


async def open_app(
    controller: ConnectionController, name: str, user: User, *, ready: bool = True
) -> tuple[ItemPage, AppTab]:
    register_all()
    item = controller.model.catalog.tools.find(name)
    assert item is not None, name
    page = ItemPage(item, controller)
    tab = page.app_tab
    assert tab is not None
    tab.confirm = user.confirm
    tab.link_opener = user.open_link
    page.resize(900, 700)
    page.show()
    page.tabs.setCurrentWidget(tab)
    record = page.action.send()  # type: ignore[union-attr]
    assert record is not None
    await until(lambda: tab.view is not None, f"the {name} app to render ({tab.status.text()})")
    if ready:
        view = tab.view
        assert view is not None
        await until(lambda: view.host.initialized, f"the {name} app to initialize", timeout=30)
    return page, tab


def close_page(page: ItemPage) -> None:
    page.dispose()
    page.hide()
    page.deleteLater()


def basic_profile() -> Profile:
    node = shutil.which("node")
    if node is None or not BASIC_APP_JS.exists():
        raise Skip("server-basic-vanillajs is not installed (scripts/install-peers.sh)")
    return Profile(
        name="basic-app", stdio=StdioSettings(command=node, args=[str(BASIC_APP_JS), "--stdio"])
    )


async def basic(controller: ConnectionController) -> None:
    if True:
        await connected(controller, basic_profile(), listed=("tools", "resources"))
        user = User(Decision.ALWAYS)
        page, tab = await open_app(controller, "get-time", user)
        view = tab.view
        assert view is not None and view.host.app_info.get("name") == "Get Time App"
        await until(lambda: view.host.delivered, "the tool result sent to the app")
        # The official App reports its size (autoResize): the view takes that height.
        await until(lambda: view.asked_height is not None, "the app's size-changed")
        visible = view.app_area.viewport().height()
        expected = fit_height(view.asked_height, visible).height
        await until(lambda: view.shown_height == expected, f"the view at {expected} px")
        rows = app_rows(controller)
        methods = [(e.direction, e.method) for e in rows]
        assert ("from-app", "ui/initialize") in methods
        assert ("to-app", "ui/notifications/tool-input") in methods
        assert ("to-app", "ui/notifications/tool-result") in methods
        init = next(e for e in rows if e.method == "ui/initialize" and e.kind == "request")
        answer = controller.model.traffic.pair_of(init)
        assert answer is not None and answer.direction == "to-app" and answer.kind == "response"
        assert '"hostContext"' in answer.text()
        # The app's own button calls get-time through the host (and so the server).
        before = sum(
            1
            for e in controller.model.traffic.entries
            if e.method == "tools/call" and e.direction == "out"
        )
        page_frame = view.surface.page.mainFrame()
        await until(lambda: page_frame.children(), "the app's frame")
        page_frame.children()[0].runJavaScript("document.getElementById('get-time-btn').click()", 0)
        await until(
            lambda: any(
                e.method == "tools/call" and e.direction == "from-app" and e.kind == "request"
                for e in app_rows(controller)
            ),
            "the app's tools/call",
        )
        await until(
            lambda: (
                sum(
                    1
                    for e in controller.model.traffic.entries
                    if e.method == "tools/call" and e.direction == "out"
                )
                > before
            ),
            "the host's tools/call to the server",
        )
        call = next(
            e for e in app_rows(controller) if e.method == "tools/call" and e.kind == "request"
        )
        await until(
            lambda: controller.model.traffic.pair_of(call) is not None, "the answer to the app"
        )
        answer = controller.model.traffic.pair_of(call)
        assert answer is not None and answer.kind == "response"
        assert [q.kind for q in user.questions] == ["tool"]
        assert controller.model.connected
        close_page(page)


async def hostile(controller: ConnectionController) -> None:
    if True:
        await connected(controller, HOSTILE, listed=("tools", "resources"))
        user = User()

        # Never answers ui/initialize: a timeout message (the timeout shortened).
        page, tab = await open_app(controller, "silent", user, ready=False)
        view = tab.view
        assert view is not None
        view.host.page_loaded(timeout=0.5)
        await until(lambda: any("no ui/initialize" in p for p in view.problems), "the timeout")
        close_page(page)

        # Invalid JSON-RPC: each flagged, the request with an id answered -32600.
        page, tab = await open_app(controller, "garbage", user)
        invalid = [e for e in app_rows(controller) if e.kind == "invalid"]
        assert len(invalid) >= 3 and all(e.note for e in invalid)
        close_page(page)

        # A tool the server does not have: refused without asking the user.
        page, tab = await open_app(controller, "ghost", user)
        await until(
            lambda: any(
                "does-not-exist" in e.text() and e.kind == "error" for e in app_rows(controller)
            ),
            "the refusal",
        )
        assert user.questions == []
        close_page(page)

        # A flood: rate limited, flagged once, not 3000 rows.
        page, tab = await open_app(controller, "flood", user)
        view = tab.view
        assert view is not None
        await until(lambda: any("floods" in p for p in view.problems), "the flood flag")
        flagged = [e for e in app_rows(controller) if e.note and "rate limit" in e.note]
        # The first dropped message of each second of flooding is a row (a few at most).
        assert 1 <= len(flagged) <= 5, [e.note for e in flagged]
        assert len(app_rows(controller)) < 1500
        close_page(page)
        assert controller.model.connected


async def sandbox(controller: ConnectionController) -> None:
    if True:
        await connected(controller, HOSTILE, listed=("tools", "resources"))
        user = User()
        page, tab = await open_app(controller, "navigate", user)
        view = tab.view
        assert view is not None
        await until(
            # Refused by the CSP (frame-src 'none', which covers the frame's own navigation)
            # or by acceptNavigationRequest, whichever comes first: either way flagged.
            lambda: any(
                "example.com" in p and ("navigation" in p or "Refused" in p) for p in view.problems
            ),
            f"the refused navigation ({view.problems})",
        )
        close_page(page)

        page, tab = await open_app(controller, "popup", user)
        await until(
            lambda: any("window.open returned null" in e.text() for e in app_rows(controller)),
            "window.open to fail",
        )
        close_page(page)

        page, tab = await open_app(controller, "remote", user)
        await until(
            lambda: (
                any("evil.example.com" in n for n in notes(controller))
                and any("api.example.com" in n for n in notes(controller))
            ),
            "the blocked script and fetch",
        )
        assert any(
            "resourceDomains" in n or "Content Security Policy" in n for n in notes(controller)
        )
        close_page(page)

        page, tab = await open_app(controller, "allowed", user)
        await until(
            lambda: any("forbidden.example.org" in n for n in notes(controller)),
            "the blocked fetch",
        )
        assert not any("127.0.0.1:9" in n and "blocked" in n for n in notes(controller))
        close_page(page)
        assert controller.model.connected


async def consent(controller: ConnectionController) -> None:
    if True:
        await connected(controller, HOSTILE, listed=("tools", "resources"))
        user = User(Decision.ONCE)
        page, tab = await open_app(controller, "link", user)
        await until(lambda: user.links == ["https://example.com/docs"], "the link")
        assert user.questions[0].kind == "link"
        close_page(page)

        user = User(Decision.DENY)
        page, tab = await open_app(controller, "call", user)
        await until(lambda: user.questions, "the consent question")
        await until(
            lambda: any("declined" in e.text() for e in app_rows(controller)), "the refusal"
        )
        assert not any(
            e.method == "tools/call" and e.direction == "out" and "from the app" in e.text()
            for e in controller.model.traffic.entries
        )
        # Reload: a fresh page and host; the session is untouched.
        tab.reload()
        await until(lambda: tab.view is not None and tab.view.host.initialized, "the reload")
        tab.close_app()
        await until(lambda: tab.view is None and not tab.close_button.isEnabled(), "the close")
        await asyncio.sleep(0.3)
        assert any(e.method == "ui/resource-teardown" for e in app_rows(controller))
        assert controller.model.connected
        close_page(page)


def container_sent(controller: ConnectionController) -> dict[str, Any]:
    """The latest containerDimensions told to the app (ui/initialize's answer, then each
    host-context-changed)."""
    latest: dict[str, Any] = {}
    for e in app_rows(controller):
        if e.direction != "to-app":
            continue
        data = json.loads(e.text())
        context = (data.get("result") or {}).get("hostContext") or (
            data.get("params") if e.method == "ui/notifications/host-context-changed" else None
        )
        if isinstance(context, dict) and "containerDimensions" in context:
            latest = context["containerDimensions"]
    return latest


async def size(controller: ConnectionController) -> None:
    """size-changed: the web view takes the asked height within 120 px .. 4 × the visible
    area (the tab scrolls), keeps the area's width, and the app is told the same bounds."""
    await connected(controller, HOSTILE, listed=("tools", "resources"))
    page, tab = await open_app(controller, "resize", User())
    view = tab.view
    assert view is not None and view.app_area is not None
    web = view.surface.view
    area = view.app_area.viewport()

    def told_now() -> bool:
        return container_sent(controller) == {
            "width": area.width(),
            "maxHeight": 4 * area.height(),
        }

    await until(told_now, f"the container size to be told ({container_sent(controller)})")
    assert view.asked_height is None and web.height() == area.height()  # fills until asked
    frame = view.surface.page.mainFrame()
    await until(lambda: frame.children(), "the app's frame")
    app_frame = frame.children()[0]

    async def ask(width: object, height: object, expected: int) -> None:
        app_frame.runJavaScript(f"askSize({json.dumps(width)}, {json.dumps(height)})", 0)
        await until(lambda: web.height() == expected, f"height {expected} (is {web.height()})")
        assert web.width() == area.width()  # the width stays the area's

    bar = view.app_area.verticalScrollBar()
    await ask(5000, 400, 400)
    assert view.shown_height == 400
    # The scroll area lays out after the view's resize, in a later event: wait for its range.
    await until(lambda: bar.maximum() == 0, f"no scrolling at 400 px (range {bar.maximum()})")
    await ask(None, 50, 120)  # at least 120 px
    await ask(300, 1_000_000, 4 * area.height())  # at most 4 visible areas, scrolling
    await until(lambda: bar.maximum() > 0, "the tab to scroll at 4 visible areas")
    events = tab.event_box.toPlainText()
    assert "shown at 120 px" in events and "cut: at most 4" in events, events
    # Nonsense is flagged and changes nothing.
    before = web.height()
    app_frame.runJavaScript("askSize(10, -3)", 0)
    await until(lambda: any("finite numbers >= 0" in p for p in view.problems), "the flag")
    app_frame.runJavaScript("askSize(640, undefined)", 0)  # width only: height kept
    await asyncio.sleep(0.3)
    assert web.height() == before
    # A smaller tab: the cap follows, the app is told the new bounds.
    page.resize(900, 500)
    await until(lambda: web.height() == 4 * area.height(), "the height to follow the cap")
    await until(told_now, f"the new container size to be told ({container_sent(controller)})")
    assert any(e.method == "ui/notifications/host-context-changed" for e in app_rows(controller))
    # A reload (a new view) starts over: the app fills the area until it asks again.
    tab.reload()
    await until(
        lambda: tab.view is not None and tab.view is not view and tab.view.host.initialized,
        "the reload",
    )
    fresh = tab.view
    assert fresh.asked_height is None and fresh.app_area is not None
    fresh_area = fresh.app_area.viewport()
    await until(
        lambda: fresh.surface.view.height() == fresh_area.height(), "the app to fill the area"
    )
    assert controller.model.connected
    close_page(page)


async def interceptor(_controller: ConnectionController) -> None:
    """The request interceptor and the navigation rule alone (a page without any CSP): what
    the resource's _meta.ui.csp does not declare is blocked and reported with the reason;
    what it declares goes out; file:// never; the frame cannot navigate away."""
    from PySide6.QtWidgets import QWidget

    from inspector.features.mcp_apps.csp import NetworkPolicy
    from inspector.features.mcp_apps.meta import CspDeclaration
    from inspector.features.mcp_apps.shell import shell_document
    from inspector.ui.mcp_apps.surface import AppSurface

    policy = NetworkPolicy(CspDeclaration(resource=("http://127.0.0.1:9",)))
    page = (
        "<img src='https://images.example.net/p.png'><img src='http://127.0.0.1:9/ok.png'>"
        "<img src='file:///etc/hostname'>"
        "<script>fetch('https://api.example.com/data').catch(() => {});"
        "setTimeout(() => { location.href = 'https://example.com/away'; }, 300);</script>"
    )
    refused: list[str] = []
    host = QWidget()
    host.resize(300, 200)
    host.show()
    surface = AppSurface(
        shell_document(""),  # no CSP at all: only the interceptor stands
        page,
        policy,
        host,
        on_message=lambda _text: None,
        on_refused=refused.append,
        on_console=lambda _level, _text: None,
        on_loaded=lambda _ok: None,
        on_crashed=refused.append,
    )
    await until(
        lambda: (
            any("images.example.net" in r for r in refused)
            and any("api.example.com" in r for r in refused)
        ),
        f"the interceptor's blocks ({refused})",
    )
    await asyncio.sleep(0.5)
    image = next(r for r in refused if "images.example.net" in r)
    assert "blocked" in image and "resourceDomains" in image, image
    fetch = next(r for r in refused if "api.example.com" in r)
    assert "connectDomains" in fetch, fetch
    assert not any("127.0.0.1:9" in r for r in refused), refused
    # No CSP either to stop it: the frame's navigation is refused by the page itself.
    await until(
        lambda: any(
            "navigation of the app's frame to https://example.com/away" in r for r in refused
        ),
        f"the refused navigation ({refused})",
    )
    surface.dispose()


SCENARIOS: dict[str, Callable[[ConnectionController], Awaitable[None]]] = {
    "basic": basic,
    "hostile": hostile,
    "sandbox": sandbox,
    "consent": consent,
    "interceptor": interceptor,
    "size": size,
}


def main() -> int:
    name = sys.argv[1]
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = ensure_application()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    tmp = Path(tempfile.mkdtemp(prefix="mcp-apps-test-"))
    controller = make_controller(tmp)

    async def run() -> int:
        try:
            await SCENARIOS[name](controller)
            return 0
        except Skip as exc:
            print(exc)
            return 3
        except BaseException:
            traceback.print_exc()
            return 1
        finally:
            await controller.model.shutdown()

    code = loop.run_until_complete(asyncio.wait_for(run(), 100))
    sys.stdout.flush()
    sys.stderr.flush()
    shutil.rmtree(tmp, ignore_errors=True)
    os._exit(code)  # no second loop run, no WebEngine teardown after aboutToQuit


if __name__ == "__main__":
    main()
