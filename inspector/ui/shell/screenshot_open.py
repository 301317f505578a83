"""Screenshot mode's `--open KIND:KEY [--call-args JSON]`: select an item in the explorer,
show its form, optionally fill it and run it (call a tool, read a resource or template,
get a prompt), and wait for the result, so README screenshots show real results.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import Any, Final

from inspector.features.catalog.lists import CatalogKind
from inspector.ui.shell.main_window import MainWindow

__all__ = ["Opening", "open_and_run", "parse_open"]

_APP_PAINT: Final = 0.8  # seconds for an app to draw the result it was sent
_KINDS: Final[dict[str, CatalogKind]] = {
    "tool": "tools",
    "resource": "resources",
    "template": "templates",
    "prompt": "prompts",
}


@dataclass(frozen=True)
class Opening:
    kind: CatalogKind
    key: str
    arguments: dict[str, Any] | None  # None: only show the form


def parse_open(spec: str | None, call_args: str | None) -> Opening | None:
    """Raises ValueError with a usage message."""
    if spec is None:
        if call_args is not None:
            raise ValueError("--call-args needs --open")
        return None
    kind, sep, key = spec.partition(":")
    if not sep or kind not in _KINDS or not key:
        raise ValueError(
            f"--open expects tool:NAME, resource:URI, template:URI-TEMPLATE or prompt:NAME, "
            f"got {spec!r}"
        )
    arguments: dict[str, Any] | None = None
    if call_args is not None:
        try:
            value = json.loads(call_args)
        except ValueError as exc:
            raise ValueError(f"--call-args is not valid JSON: {exc}") from exc
        if not isinstance(value, dict):
            raise ValueError("--call-args must be a JSON object")
        arguments = value
    return Opening(_KINDS[kind], key, arguments)


async def _wait(predicate: Any, deadline: float) -> bool:
    while time.monotonic() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.02)
    return False


async def open_and_run(window: MainWindow, opening: Opening, deadline: float) -> str | None:
    """Select, fill and run. Returns a problem sentence, or None when it worked."""
    catalog = window.current_tab.controller.model.catalog
    listing = catalog[opening.kind]
    if not await _wait(lambda: listing.loaded, deadline):
        return f"timed out waiting for the {opening.kind} list"
    if listing.find(opening.key) is None:
        known = ", ".join(i.key for i in list(listing)[:20]) or "none"
        return f"no {opening.kind[:-1]} {opening.key!r} on this server (it has: {known})"
    window.current_tab.centre.setCurrentWidget(window.current_tab.workspace)
    if not window.current_tab.explorer.select(opening.kind, opening.key):
        return f"could not select {opening.key!r} in the explorer"
    await asyncio.sleep(0.1)
    page = window.current_tab.workspace.current
    action = getattr(page, "action", None) if page is not None else None
    if action is None:
        return f"{opening.key!r} has no action view"
    if opening.arguments is None:
        await asyncio.sleep(0.2)
        return None
    form = getattr(action, "form", None)
    if form is not None and opening.arguments:
        form.set_values(opening.arguments)
    problem = await _run(action, opening, deadline)
    app_tab = getattr(page, "app_tab", None)
    if problem is None and app_tab is not None:
        problem = await _show_app(page, app_tab, deadline)
    return problem


async def _show_app(page: Any, app_tab: Any, deadline: float) -> str | None:
    """A tool with an MCP App: show its App tab once the app has the result (its
    ui/notifications/initialized came and the result went out), bounded by the deadline."""
    page.tabs.setCurrentWidget(app_tab)
    if not await _wait(lambda: app_tab.view is not None, deadline):
        return f"the app was not rendered: {app_tab.status.text()}"
    view = app_tab.view
    if not view.webengine:
        await asyncio.sleep(0.3)
        return None
    if not await _wait(lambda: view.host.initialized and view.host.delivered, deadline):
        return "timed out waiting for the app to initialize (see the App tab's events)"
    await asyncio.sleep(_APP_PAINT)  # the app draws the result it just got
    return None


async def _run(action: Any, opening: Opening, deadline: float) -> str | None:
    if opening.kind == "tools":
        # Validated like a click on Run; arguments the form rejects are sent anyway (the
        # screenshot then shows what the server makes of them).
        record = action.run() or action.send(validated=False)
        if record is None:
            return "the tool could not be called (not connected?)"
        if not await _wait(lambda: record.status != "running", deadline):
            return "timed out waiting for the tool result"
    else:
        run = action.get if opening.kind == "prompts" else action.read
        task = run()
        if task is None:
            return f"could not run {opening.key!r} (check the arguments)"
        remaining = max(0.1, deadline - time.monotonic())
        try:
            await asyncio.wait_for(asyncio.shield(task), remaining)
        except TimeoutError:
            return "timed out waiting for the result"
    await asyncio.sleep(0.3)  # let the result view lay itself out
    return None
