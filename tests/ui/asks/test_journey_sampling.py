"""Journey (issue 26): server-everything asks the window for a sampling, and the person
answers it with a model. A model provider is set up (a loopback OpenAI-compatible stub in
the config folder, as the Model providers dialog saves it); choose the saved profile,
Connect, click "Trigger Sampling Request Tool", type a prompt, Run; the sampling dialog
shows the server's message and which model will draft; click "Draft with stub-small",
read the draft, Approve; the tool's result card shows the model's answer."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from inspector.features.providers.providers import ModelEntry, ModelSettings, ProviderConfig
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.workspace.tool_view import ToolCallView
from tests.helpers.gui import run, until
from tests.helpers.journeys import (
    click,
    click_row,
    everything_profile,
    field_edit,
    shows_connected,
    type_into,
    type_keys,
    visible_texts,
    visible_window,
)
from tests.helpers.model_stubs import model_stub

pytestmark = [pytest.mark.timeout(120), pytest.mark.peers]


def test_everything_asks_for_a_sampling_answered_with_a_model(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    everything_command: list[str],
    tmp_path: Path,
    config_dir: Path,
) -> None:
    window.store.put(everything_profile(everything_command, tmp_path))

    async def scenario() -> None:
        tab = window.current_tab
        type_keys(tab.bar.profile_combo, "Ever")
        click(tab.bar.connect_button)
        await until(lambda: shows_connected(tab, 17), "everything's 17 tools")

        click_row(tab.explorer.panes["tools"].tree, "Trigger Sampling Request Tool")
        view = getattr(tab.workspace.stack.currentWidget(), "action", None)
        assert isinstance(view, ToolCallView) and view.isVisible()
        type_into(field_edit(view.form, "prompt"), "What is MCP?")
        click(view.run_button)

        await until(lambda: visible_window(SamplingDialog) is not None, "the sampling dialog")
        dialog = visible_window(SamplingDialog)
        assert isinstance(dialog, SamplingDialog)
        shown = "\n".join(visible_texts(dialog))
        assert "Resource trigger-sampling-request context: What is MCP?" in shown
        assert "You are a helpful test server." in shown
        panel = dialog.model_panel
        assert panel.draft_button.text() == "Draft with stub-small"
        assert panel.reason.text() == (
            "Chosen: stub-small · Local stub, because the default model (the first configured)."
        )

        click(panel.draft_button)
        await until(lambda: dialog.reply_text.toPlainText(), "the model's draft")
        draft = dialog.reply_text.toPlainText()
        assert draft == "Stub says: Resource trigger-sampling-request context: What is MCP?"
        assert dialog.model_edit.text() == "stub-small-2026-01-01"  # the provider's name
        assert " tokens in, " in panel.status.text()
        # Every message the status bar shows (a later one may replace it before a look).
        shown: list[str] = [tab.status.currentMessage()]
        tab.status.message_given.connect(shown.append)
        click(dialog.approve_button)
        await until(lambda: not dialog.isVisible(), "the dialog to close")
        await until(
            lambda: any(
                re.fullmatch(r"Sampling request \(server request \d+\) answered\.", text)
                for text in shown
            ),
            "the status bar to say it was answered",
        )

        # The server got the answer: its tool result quotes the model's reply.
        await until(
            lambda: any("LLM sampling result" in t for t in visible_texts(view.results)),
            "the tool's result",
        )
        result = "\n".join(visible_texts(view.results))
        assert draft in result and "stub-small-2026-01-01" in result
        assert "OK" in visible_texts(view.results)

    config_dir.mkdir(parents=True, exist_ok=True)
    with model_stub("openai") as stub:
        settings = ModelSettings(config_dir / "models.json")
        settings.providers.append(
            ProviderConfig(
                "openai",
                name="Local stub",
                base_url=stub.base_url,
                models=[ModelEntry("stub-small", speed=0.9)],
                id="stubprov",
                timeout=10,
            )
        )
        settings.save()
        run(loop, scenario(), timeout=90)
        (asked,) = stub.received
        assert asked.body["model"] == "stub-small" and asked.body["max_tokens"] == 100
