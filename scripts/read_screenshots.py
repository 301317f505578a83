"""Screenshots of the Read and Get views, light and dark, against the bundled demo: a text
resource (demo://readme), a blob shown as an image while subscribed (demo://logo.png), the
note template with its variable filled (demo://notes/{topic}) and the review_code prompt
rendered as a conversation. Under Xvfb when DISPLAY is set, else offscreen.

    PYTHONPATH=. python scripts/read_screenshots.py [OUT_DIR]   (default docs/screenshots)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

if not os.environ.get("DISPLAY"):
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_TMP = Path(tempfile.mkdtemp())
os.environ["MCP_INSPECTOR_CONFIG_DIR"] = str(_TMP / "config")

from PySide6.QtCore import QSettings  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from inspector.features.catalog.lists import CatalogKind  # noqa: E402
from inspector.settings.profiles import EnvVar, Profile, ProfileStore, StdioSettings  # noqa: E402
from inspector.storage.secrets import SecretStore  # noqa: E402
from inspector.ui.controller.connection_controller import ConnState  # noqa: E402
from inspector.ui.shell.event_loop import run_qt_async  # noqa: E402
from inspector.ui.shell.gui_command import build_gui_app  # noqa: E402
from inspector.ui.shell.main_window import MainWindow  # noqa: E402
from inspector.ui.widgets.theme import apply_theme  # noqa: E402
from inspector.ui.workspace.prompt_view import PromptGetView  # noqa: E402
from inspector.ui.workspace.resource_view import ResourceReadView  # noqa: E402
from inspector.ui.workspace.template_view import TemplateReadView  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
CODE = "def add(a, b):\n    return a - b\n"


async def _until(predicate: Callable[[], object], what: str, timeout: float = 20) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def _shown(window: MainWindow, cls: type[QWidget]) -> Any:
    return next(v for v in window.current_tab.workspace.findChildren(cls) if v.isVisible())


async def _read(view: Any) -> None:
    await view.read()


async def _subscribed(view: Any) -> None:
    await view.read()
    view.reader.toggle_subscription()
    await _until(lambda: "updated at" in view.reader.watch_label.text(), "an update")


async def _template(view: Any) -> None:
    view.form.set_values({"topic": "debugging"})
    await _until(lambda: view.reader.read_button.isEnabled(), "the URI")
    await view.read()


async def _prompt(view: Any) -> None:
    view.form.set_values({"code": CODE, "language": "python"})
    await view.get()


SHOTS: list[tuple[str, CatalogKind, str, type[QWidget], Callable[[Any], Awaitable[None]]]] = [
    ("resource-text", "resources", "demo://readme", ResourceReadView, _read),
    ("resource-image", "resources", "demo://logo.png", ResourceReadView, _subscribed),
    ("template-read", "templates", "demo://notes/{topic}", TemplateReadView, _template),
    ("prompt-get", "prompts", "review_code", PromptGetView, _prompt),
]


async def shoot(out: Path) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    for theme in ("light", "dark"):
        apply_theme(app, theme)
        await _one_theme(theme, out)


async def _one_theme(theme: str, out: Path) -> None:
    store = ProfileStore(_TMP / f"profiles-{theme}.json", SecretStore())
    settings = QSettings(str(_TMP / f"window-{theme}.ini"), QSettings.Format.IniFormat)
    window = MainWindow(build_gui_app(store, settings), settings)
    window.resize(1280, 860)
    window.show()
    env = [EnvVar(name="PYTHONPATH", value=str(REPO))]
    profile = Profile(
        name="Demo server",
        stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"], env=env),
    )
    window.connect_profile(profile)
    c = window.current_tab.controller
    await _until(lambda: c.state is ConnState.CONNECTED, "connect")
    kinds: tuple[CatalogKind, ...] = ("resources", "templates", "prompts")
    await _until(lambda: all(c.catalog[k].loaded for k in kinds), "the catalog")
    for name, kind, key, cls, act in SHOTS:
        window.current_tab.explorer.select(kind, key)
        window.current_tab.right_split.setSizes([860, 0])  # the workspace, not the bottom tabs
        await asyncio.sleep(0.1)
        await act(_shown(window, cls))
        await asyncio.sleep(0.3)
        window.grab().save(str(out / f"{name}-{theme}.png"))
    await c.shutdown()
    window.close()


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    run_qt_async(lambda: shoot(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
