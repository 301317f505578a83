"""The mcp 2.x SDK peer in the modern era: MRTR elicitation and sampling answered through the
same dialogs as legacy server requests, and the rounds grouped in the log."""

from __future__ import annotations

import asyncio

import pytest

from inspector.protocol.wire.jsonrpc import parse_frame
from inspector.protocol.wire.versions import Era
from inspector.recording.snapshot import entry_record
from inspector.settings.profiles import EnvVar, Profile, StdioSettings
from inspector.traffic.log import TrafficLog
from inspector.traffic.rounds import RequestRounds
from inspector.ui.asks.elicitation_dialog import ElicitationDialog
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.asks import (
    call_tool,
    connect,
    dialog_of,
    field_error,
    result_of,
    text_of,
    type_into,
)
from tests.helpers.gui import run, then_shutdown
from tests.helpers.peers import PY, REPO
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)
SDK_PEER = str(REPO / "tests" / "servers" / "sdk" / "sdk_server.py")


def sdk_profile(era: str) -> Profile:
    return Profile(
        name=f"sdk {era}",
        era=era,  # type: ignore[arg-type]
        stdio=StdioSettings(
            command=PY, args=[SDK_PEER], env=[EnvVar(name="PYTHONPATH", value=str(REPO))]
        ),
    )


def test_modern_mrtr_sampling_and_elicitation_through_the_dialogs(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, sdk_profile("modern"))
        assert session.era is Era.MODERN
        # Sampling: an input_required round; the dialog answers it; the call is retried.
        call = call_tool(session, "sample_llm", {"prompt": "Say hi"})
        dialog = await dialog_of(window, SamplingDialog)
        assert "MRTR" in dialog.origin.text() and "tools/call" in dialog.origin.text()
        assert "Say hi" in dialog.conversation_text()
        assert "test double" in dialog.system_prompt.toPlainText()
        assert dialog.request.max_tokens == 100
        dialog.reply_text.setPlainText("hi!")
        dialog.model_edit.setText("person")
        dialog.approve_button.click()
        assert text_of(await result_of(call)) == "LLM (person) said: hi!"

        # Elicitation: the form from the pydantic model's schema (both fields required).
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        assert dialog.message.text() == "Please tell us who you are."
        assert {(f.name, f.kind, f.required) for f in dialog.spec.fields} == {
            ("name", "string", True),
            ("age", "integer", True),
        }
        type_into(dialog, "name", "Lin")
        dialog.accept_button.click()
        assert "required" in field_error(dialog, "age")
        type_into(dialog, "age", "41")
        dialog.accept_button.click()
        assert text_of(await result_of(call)) == "accepted: name=Lin, age=41"

        # Both calls went out twice (the original and the retry), grouped in the log.
        rounds = current_tab(window).client_features.rounds
        calls = [
            e
            for e in current_tab(window).traffic
            if e.method == "tools/call" and e.kind == "request"
        ]
        assert [rounds.mark(e.index) for e in calls] == [
            "round 1/2",
            "round 2/2",
            "round 1/2",
            "round 2/2",
        ]
        assert rounds.conversation(calls[0].index) != rounds.conversation(calls[2].index)
        assert len(rounds.conversation(calls[3].index)) == 4
        # A recording of it has no core key: grouped from the SDK's frames alone, the same.
        offline = TrafficLog()
        by_content = RequestRounds(offline)
        by_content.group_by_content()
        for entry in current_tab(window).traffic:
            record = entry_record(entry, "stdio")
            record.frame = parse_frame(record.raw)  # as the recording's reader does
            offline.observe(record)
        assert [by_content.mark(e.index).split(" · ")[0] for e in calls] == [
            rounds.mark(e.index) for e in calls
        ]
        assert [op.label for op in by_content.operations()] == [
            "tools/call sample_llm",
            "tools/call ask_user",
        ]

        # Decline goes back as an ElicitResult in the retry.
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        dialog.decline_button.click()
        assert text_of(await result_of(call)) == "declined"

    run(loop, then_shutdown(window, scenario()), timeout=60)


def test_legacy_elicitation_through_the_same_dialog(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    async def scenario() -> None:
        session = await connect(window, sdk_profile("legacy"))
        assert session.era is Era.LEGACY
        call = call_tool(session, "ask_user")
        dialog = await dialog_of(window, ElicitationDialog)
        assert "legacy server request" in dialog.origin.text()
        type_into(dialog, "name", "Kay")
        type_into(dialog, "age", "7")
        dialog.accept_button.click()
        assert text_of(await result_of(call)) == "accepted: name=Kay, age=7"
        rounds = current_tab(window).client_features.rounds
        request = next(e for e in current_tab(window).traffic if e.method == "tools/call")
        assert rounds.mark(request.index) == ""  # a legacy call is one round

    run(loop, then_shutdown(window, scenario()), timeout=60)
