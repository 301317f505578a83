"""The sampling dialog drafts with a model (a loopback OpenAI-compatible stub), against the
demo server in both eras: which model and why, the draft to edit and approve, usage and
latency, the provider's model and stopReason; failures with Retry / by hand / reject;
auto-approve for the session with its banner; the providers dialog keeping keys out of files.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.features.providers.providers import (
    MappingRule,
    ModelEntry,
    ModelSettings,
    ProviderConfig,
)
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.traffic.format import summarize
from inspector.ui.asks.model_providers_dialog import ModelProvidersDialog
from inspector.ui.asks.sampling_dialog import SamplingDialog
from inspector.ui.shell.main_window import MainWindow
from tests.helpers.asks import (
    call_tool,
    connect,
    dialog_of,
    no_dialog,
    responder,
    result_of,
    text_of,
)
from tests.helpers.gui import run, then_shutdown, until
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.model_stubs import ModelStub, Reply, model_stub
from tests.helpers.tabs import current_tab

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
def fresh_openai_stub() -> Iterator[ModelStub]:
    with model_stub("openai") as server:
        yield server


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(folder))
    return folder


def demo(win: MainWindow, era: str = "legacy") -> Profile:
    profile = win.store.find("demo")
    assert profile is not None
    return profile.model_copy(update={"era": era})


def save_provider(
    config: Path, stub: ModelStub, rules: dict[str, list[MappingRule]] | None = None
) -> ProviderConfig:
    settings = ModelSettings(config / "models.json")
    provider = ProviderConfig(
        "openai",
        name="Local stub",
        base_url=stub.base_url,
        models=[ModelEntry("stub-small", speed=0.9), ModelEntry("stub-large", speed=0.2)],
        id="stubprov",
        timeout=10,
    )
    settings.providers.append(provider)
    settings.mappings.update(rules or {})
    settings.save()
    return provider


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_draft_with_the_model_then_approve(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    fresh_openai_stub: ModelStub,
    config: Path,
    era: str,
) -> None:
    profile = demo(window, era)
    save_provider(
        config, fresh_openai_stub, {profile.id: [MappingRule("claude", "stubprov", "stub-large")]}
    )

    async def scenario() -> None:
        session = await connect(window, profile)
        call = call_tool(session, "ask_llm", {"question": "What is MCP?", "maxTokens": 123})
        dialog = await dialog_of(window, SamplingDialog)
        panel = dialog.model_panel
        # Which model, and why: the demo hints "claude", the profile maps it.
        assert panel.draft_button.text() == "Draft with stub-large"
        assert "mapping 'claude'" in panel.reason.text()
        panel.draft_button.click()
        await until(lambda: panel.draft is not None, "the draft")
        assert dialog.reply_text.toPlainText() == "Stub says: What is MCP?"
        assert dialog.model_edit.text() == "stub-large-2026-01-01"  # the provider's
        assert dialog.stop_combo.currentText() == "endTurn"
        assert "11 tokens in, 7 out" in panel.status.text() and " ms" in panel.status.text()
        sent = fresh_openai_stub.received[-1].body
        assert sent["max_tokens"] == 123 and sent["model"] == "stub-large"
        # The exchange is in the traffic log as its own kind of row, not an MCP frame.
        rows = [e for e in current_tab(window).traffic if e.kind == "model"]
        assert [e.direction for e in rows] == ["out", "in"]
        assert json.loads(rows[0].text())["body"]["model"] == "stub-large"
        assert summarize(rows[0]).startswith("to stub-large: POST http://127.0.0.1:")
        assert summarize(rows[1]).startswith("from stub-large-2026-01-01: HTTP 200, ")
        assert rows[1].note is None  # not flagged: it went well
        dialog.reply_text.setPlainText(dialog.reply_text.toPlainText() + " (edited)")
        dialog.approve_button.click()
        result = await result_of(call)
        assert "stub-large-2026-01-01 answered" in text_of(result)
        assert "Stub says: What is MCP? (edited)" in text_of(result)
        await no_dialog(window)

    run(loop, then_shutdown(window, scenario()))


def test_hints_matching_no_model_are_flagged(
    window: MainWindow, loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub, config: Path
) -> None:
    save_provider(config, fresh_openai_stub)

    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "x"})
        dialog = await dialog_of(window, SamplingDialog)
        reason = dialog.model_panel.reason.text()
        assert reason.startswith("⚠") and "no hint matched" in reason and "'claude'" in reason
        # The speed priority of 0.5 picks the fast model.
        assert dialog.model_panel.chosen is not None
        assert dialog.model_panel.chosen.model.name == "stub-small"
        dialog.reject_button.click()
        await result_of(call)

    run(loop, then_shutdown(window, scenario()))


def test_a_failing_model_can_be_retried_or_answered_by_hand(
    window: MainWindow, loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub, config: Path
) -> None:
    save_provider(config, fresh_openai_stub)
    fresh_openai_stub.script.append(
        Reply(status=429, error="Too many requests", headers={"retry-after": "120"})
    )

    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "retry me"})
        dialog = await dialog_of(window, SamplingDialog)
        panel = dialog.model_panel
        panel.draft_button.click()
        await until(lambda: panel.last_error is not None, "the error")
        assert "HTTP 429" in panel.status.text() and "retry after 120 s" in panel.status.text()
        assert dialog.notice.isVisible() and "answer by hand" in dialog.notice.label.text()
        assert panel.draft_button.text() == "Retry with stub-small"
        failed = [
            e for e in current_tab(window).traffic if e.kind == "model" and e.direction == "in"
        ]
        assert failed and "HTTP 429" in (failed[-1].note or "")  # flagged in the log
        panel.draft_button.click()  # the stub answers this time
        await until(lambda: panel.draft is not None, "the retried draft")
        assert not dialog.notice.isVisible()
        dialog.approve_button.click()
        assert "Stub says: retry me" in text_of(await result_of(call))

    run(loop, then_shutdown(window, scenario()))


def test_auto_approve_for_the_session_with_a_banner(
    window: MainWindow, loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub, config: Path
) -> None:
    save_provider(config, fresh_openai_stub)

    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "first"})
        dialog = await dialog_of(window, SamplingDialog)
        assert not dialog.model_panel.auto_approve.isChecked()  # off by default
        dialog.model_panel.auto_approve.setChecked(True)
        dialog.model_panel.draft_button.click()
        await until(lambda: dialog.model_panel.draft is not None, "the draft")
        dialog.approve_button.click()
        await result_of(call)
        r = responder(window)
        assert r.auto_approve and r.banner is not None and r.banner.isVisible()
        assert "Auto-approve is ON" in r.banner.label.text()
        # The next request is answered by the model without a dialog.
        second = await result_of(call_tool(session, "ask_llm", {"question": "second"}))
        assert "Stub says: second" in text_of(second)
        assert r.dialog is None
        # Turned off from the banner: the dialog is back.
        r.banner.turn_off.click()
        assert not r.auto_approve and not r.banner.isVisible()
        third = call_tool(session, "ask_llm", {"question": "third"})
        dialog = await dialog_of(window, SamplingDialog)
        dialog.reject_button.click()
        await result_of(third)

    run(loop, then_shutdown(window, scenario()))


def test_no_provider_says_how_to_add_one(
    window: MainWindow, loop: asyncio.AbstractEventLoop, config: Path
) -> None:
    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "x"})
        dialog = await dialog_of(window, SamplingDialog)
        panel = dialog.model_panel
        assert "No model provider is set up" in panel.reason.text()
        assert panel.draft_button.isHidden() and not panel.providers_button.isHidden()
        dialog.reject_button.click()
        await result_of(call)

    run(loop, then_shutdown(window, scenario()))


def test_providers_dialog_keeps_the_key_in_the_keyring(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    path = tmp_path / "models.json"
    dialog = ModelProvidersDialog(
        ModelSettings(path), SecretStore(), profile_id="p1", profile_name="demo"
    )
    dialog.add_provider("anthropic")
    dialog.name_edit.setText("Claude")
    dialog.key_edit.setText("sk-ant-very-secret")
    dialog.models_table.insertRow(0)
    for column, text in enumerate(("claude-haiku-4-5", "0.7", "0.8", "0.6", "8192")):
        from PySide6.QtWidgets import QTableWidgetItem

        dialog.models_table.setItem(0, column, QTableWidgetItem(text))
    dialog._keep()
    dialog._add_rule_row(None)
    from PySide6.QtWidgets import QTableWidgetItem

    dialog.mapping_table.setItem(0, 0, QTableWidgetItem("gpt"))
    dialog.save()
    text = path.read_text()
    assert "sk-ant-very-secret" not in text
    assert "sk-ant-very-secret" in memory_keyring.store.values()
    saved = ModelSettings.load(path)
    provider = saved.providers[0]
    assert provider.name == "Claude" and provider.models[0].max_output_tokens == 8192
    assert saved.rules_for("p1") == [MappingRule("gpt", provider.id, "claude-haiku-4-5")]
    assert json.loads(text)["providers"][0]["kind"] == "anthropic"
    dialog.deleteLater()


def test_a_tool_use_draft_is_shown_as_the_raw_result_to_edit(
    loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub
) -> None:
    """spec 2025-11-25: a request with tools; the model answers with a tool call, which the
    person sees (and may edit) as the CreateMessageResult before approving."""
    from inspector.features.providers.drafter import Drafter
    from inspector.protocol.machine.asks import ServerAsk
    from inspector.protocol.wire.versions import Era

    params = {
        "messages": [{"role": "user", "content": {"type": "text", "text": "Weather in Lyon?"}}],
        "maxTokens": 50,
        "tools": [{"name": "weather", "inputSchema": {"type": "object"}}],
        "toolChoice": {"mode": "required"},
    }
    provider = ProviderConfig(
        "openai", base_url=fresh_openai_stub.base_url, models=[ModelEntry("stub-small")]
    )
    fresh_openai_stub.script.append(Reply(tool_call=("weather", {"city": "Lyon"})))

    async def scenario() -> None:
        ask = ServerAsk(1, "sampling", "sampling/createMessage", params, Era.LEGACY, wire_id=7)
        dialog = SamplingDialog(ask, None, drafter=Drafter([provider], lambda _p: None))
        dialog.show()
        dialog.model_panel.draft_button.click()
        await until(lambda: dialog.model_panel.draft is not None, "the draft")
        assert dialog.reply_tabs.currentIndex() == 1
        shown = json.loads(dialog.raw_edit.toPlainText())
        assert shown["content"]["type"] == "tool_use"
        assert shown["content"]["input"] == {"city": "Lyon"}
        assert shown["stopReason"] == "toolUse"
        assert fresh_openai_stub.received[-1].body["tool_choice"] == "required"
        dialog.approve_button.click()
        assert dialog.answer.result()["content"]["name"] == "weather"
        dialog.deleteLater()

    run(loop, scenario())


def test_the_client_menu_opens_the_providers_with_the_profiles_mapping(
    window: MainWindow, loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub, config: Path
) -> None:
    profile = demo(window)
    save_provider(
        config, fresh_openai_stub, {profile.id: [MappingRule("gpt", "stubprov", "stub-small")]}
    )
    features = current_tab(window).client_features
    assert features.models_action in features.menu.actions()

    async def scenario() -> None:
        await connect(window, profile)
        features.models_action.trigger()
        dialog = features.models_dialog
        assert dialog is not None and dialog.isVisible()
        assert dialog.provider_list.count() == 1
        assert dialog.url_edit.text() == fresh_openai_stub.base_url
        assert dialog.rules() == [MappingRule("gpt", "stubprov", "stub-small")]
        dialog.reject()

    run(loop, then_shutdown(window, scenario()))


def test_a_withdrawn_request_stops_the_draft_in_flight(
    window: MainWindow, loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub, config: Path
) -> None:
    save_provider(config, fresh_openai_stub)
    fresh_openai_stub.script.append(Reply(delay=5))

    async def scenario() -> None:
        session = await connect(window, demo(window))
        call = call_tool(session, "ask_llm", {"question": "slow"})
        dialog = await dialog_of(window, SamplingDialog)
        panel = dialog.model_panel
        panel.draft_button.click()
        await until(lambda: panel.busy, "the draft to start")
        # The request ends (here cancelled; a timeout goes the same way): the server
        # withdraws its ask, the model call is stopped, nothing is sent.
        call.cancel("test: the tool call timed out")
        await until(lambda: dialog.withdrawn is not None, "the withdrawal")
        await until(lambda: not panel.busy, "the draft task to stop")
        assert panel.draft is None
        await no_dialog(window)

    run(loop, then_shutdown(window, scenario()))


def test_auto_approve_falls_back_to_the_dialog_when_the_model_fails(
    window: MainWindow, loop: asyncio.AbstractEventLoop, fresh_openai_stub: ModelStub, config: Path
) -> None:
    save_provider(config, fresh_openai_stub)

    async def scenario() -> None:
        session = await connect(window, demo(window))
        responder(window).set_auto_approve(True)
        fresh_openai_stub.script.append(Reply(status=500, error="model crashed"))
        call = call_tool(session, "ask_llm", {"question": "x"})
        dialog = await dialog_of(window, SamplingDialog)
        text = dialog.notice.label.text()
        assert "Auto-approve could not draft this one" in text and "HTTP 500" in text
        assert "model crashed" in text
        dialog.reply_text.setPlainText("by hand then")
        dialog.approve_button.click()
        assert "by hand then" in text_of(await result_of(call))

    run(loop, then_shutdown(window, scenario()))


def test_a_saved_session_keeps_the_model_rows_without_the_key(
    window: MainWindow,
    loop: asyncio.AbstractEventLoop,
    config: Path,
    tmp_path: Path,
    memory_keyring: MemoryKeyring,
) -> None:
    with model_stub("openai", key="sk-gui-secret-42") as keyed:
        provider = save_provider(config, keyed)
        from inspector.features.providers.providers import set_provider_key

        set_provider_key(SecretStore(), provider, "sk-gui-secret-42")

        async def scenario() -> None:
            session = await connect(window, demo(window))
            call = call_tool(session, "ask_llm", {"question": "keep me"})
            dialog = await dialog_of(window, SamplingDialog)
            dialog.model_panel.draft_button.click()
            await until(lambda: dialog.model_panel.draft is not None, "the draft")
            dialog.approve_button.click()
            await result_of(call)
            assert keyed.received[-1].headers["authorization"] == "Bearer sk-gui-secret-42"
            recording = current_tab(window).controller.model.recording
            assert recording is not None
            target = tmp_path / "saved.jsonl"
            recording.write_live(target)
            text = target.read_text()
            assert "sk-gui-secret-42" not in text
            lines = [json.loads(line) for line in text.splitlines()]
            models = [line for line in lines if line["type"] == "model"]
            assert [m["dir"] for m in models] == ["out", "in"]
            assert json.loads(models[0]["text"])["headers"]["authorization"] == "[redacted]"

        run(loop, then_shutdown(window, scenario()))


def test_a_key_kept_for_this_session_only_is_used_without_a_keyring(
    window: MainWindow, loop: asyncio.AbstractEventLoop, config: Path
) -> None:
    """No keyring daemon (these machines): the person keeps the key in memory for the
    session (the providers dialog offers it); the sampling dialog finds it in the app's
    store."""
    with model_stub("anthropic", key="sk-session-only") as keyed:
        settings = ModelSettings(config / "models.json")
        provider = ProviderConfig(
            "anthropic", base_url=keyed.base_url, models=[ModelEntry("stub-small")]
        )
        settings.providers.append(provider)
        settings.save()
        secrets = window.app.secrets
        assert secrets is not None
        secrets.set("model-provider", provider.id, "api-key", "sk-session-only", session_only=True)

        async def scenario() -> None:
            session = await connect(window, demo(window))
            call = call_tool(session, "ask_llm", {"question": "session key"})
            dialog = await dialog_of(window, SamplingDialog)
            dialog.model_panel.draft_button.click()
            await until(lambda: dialog.model_panel.draft is not None, "the draft")
            dialog.approve_button.click()
            assert "Stub says: session key" in text_of(await result_of(call))

        run(loop, then_shutdown(window, scenario()))
