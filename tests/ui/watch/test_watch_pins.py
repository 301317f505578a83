"""Watch mode and the rug-pull pins (issue 31, item 16): the author's own edit of a tool,
picked up by a watch restart, is the point of watch mode. It shows as the catalog diff
("1 changed" on the strip, the diff in the results), is re-pinned, and raises no red
"changed since pinned" banner and no error."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.ui.shell.main_window import MainWindow
from inspector.ui.watch.watch_dialogs import WatchSettings
from inspector.watch.report import RunReport
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.tabs import current_tab
from tests.helpers.watched import edit, server_folder, stdio_profile

pytestmark = pytest.mark.timeout(120)

OUT = Path(__file__).resolve().parents[3] / "out"


def _history(window: MainWindow) -> list[RunReport]:
    sup = current_tab(window).watch_mode.supervisor
    return sup.history if sup is not None else []


def test_an_edit_under_watch_mode_is_a_catalog_diff_not_a_rug_pull(
    window: MainWindow, loop: asyncio.AbstractEventLoop, tmp_path: Path
) -> None:
    folder = server_folder(tmp_path)
    profile = stdio_profile(folder)
    window.add_adhoc(profile)
    tab = current_tab(window)
    wm = tab.watch_mode
    wm.save_settings(profile, WatchSettings([], 0.3, ""))
    window.resize(1280, 800)

    async def scenario() -> None:
        wm.toggle_action.trigger()
        await until(lambda: len(_history(window)) == 1, "the first start", 30)
        errors = [e.category for e in tab.controller.model.errors.items]
        edit(folder / "server.py", "Echo the text back unchanged.", "Echo the text, louder.")
        await until(lambda: len(_history(window)) == 2, "the restart", 30)
        text = wm.strip.result.text()
        assert text.startswith("restart #1 · ") and "1 changed" in text, text
        await until(lambda: not tab.controller.model.catalog_loader.busy("tools"), "the listing")
        assert not tab.explorer.pin_banner.isVisibleTo(window), tab.explorer.pin_banner.label.text()
        assert tab.controller.model.catalog_loader.pin_alerts == {}
        assert [e.category for e in tab.controller.model.errors.items] == errors
        wm.show_results()
        assert wm.results is not None
        assert "louder" in wm.results.text.toPlainText()
        wm.results.close()
        OUT.mkdir(exist_ok=True)
        window.grab().save(str(OUT / "item16-watch-edit-no-rug-pull.png"))
        wm.toggle_action.trigger()  # off

    run(loop, then_shutdown(window, scenario()), 110)
