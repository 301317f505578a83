"""An HTTP server's code is not on this machine: "Save call…" offers a new collection in
the app's data folder (`collections/PROFILE.collection.json`, one per profile), never
loose in $HOME, and saving the first call creates it there (issue 31, item 24)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from inspector.collections.file import load_collection
from inspector.settings.profiles import HttpSettings, Profile
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.demo_http import demo_http_server
from tests.helpers.gui import connected, run, until
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(120)

OUT = Path(__file__).resolve().parents[3] / "out"


def test_an_http_profile_s_new_collection_goes_to_the_data_folder(
    recording_window: MainWindow, loop: asyncio.AbstractEventLoop, data_dir: Path
) -> None:
    win = recording_window
    profile = Profile(name="Demo over HTTP", transport="http", http=HttpSettings(url=""))

    async def scenario(url: str) -> None:
        http = profile.http.model_copy(update={"url": url})
        controller = await connected(
            win, profile.model_copy(update={"http": http}), listed=("tools",)
        )
        try:
            item = controller.model.catalog.tools.find("echo")
            assert item is not None
            page = current_tab(win).workspace.show_item(item)
            assert page is not None and isinstance(page.action, ToolCallView)
            view = page.action
            view.form.set_values({"message": "hi"})
            record = view.run()
            assert record is not None
            await until(lambda: not record.running, "the call")
            view.save_button.click()
            dialog = current_tab(win).collections.dialog
            assert dialog is not None, "no Save call dialog"
            shown = Path(dialog.file_combo.currentText())
            expected = data_dir / "collections" / "demo-over-http.collection.json"
            assert shown == expected, shown
            assert Path.home() != shown.parent
            OUT.mkdir(exist_ok=True)
            dialog.grab().save(str(OUT / "item24-http-collection-default.png"))
            assert dialog.save() is not None
            assert [c.name for c in load_collection(expected).calls] == ["echo"]
        finally:
            await controller.model.shutdown()

    with demo_http_server() as url:
        run(loop, scenario(url), timeout=60)
