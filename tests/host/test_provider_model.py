"""The engine over the real provider client (`ProviderModel` → providers.chat) and the model
stand-in: a provider that times out, answers 429 or 500, or sends JSON that stops half-way
ends the turn with outcome model-error and a sentence; the conversation goes on after."""

from __future__ import annotations

import pytest

from inspector.host.engine import TurnEngine
from inspector.host.interface import HostEvent, TextDelta
from inspector.host.model import ProviderModel
from inspector.host.records import Conversation
from inspector.host.tool_table import ToolTable
from tests.helpers.model_standin import model_standin, provider_for

pytestmark = pytest.mark.timeout(30)

FAULTS = {
    "rules": [
        {"when": {"lastUserContains": "slow"}, "fault": {"delay": 30}},
        {"when": {"lastUserContains": "busy"}, "fault": {"status": 429, "retryAfter": 7}},
        {"when": {"lastUserContains": "boom"}, "fault": {"status": 500, "message": "oops"}},
        {"when": {"lastUserContains": "garbled"}, "fault": {"malformedJson": True}},
    ]
}


@pytest.mark.parametrize("streamed", [True, False])
async def test_provider_failures_end_the_turn_with_a_sentence_and_the_conversation_goes_on(
    streamed: bool,
) -> None:
    events: list[HostEvent] = []
    table = ToolTable.build([("srv", [{"name": "echo"}], None)])
    with model_standin(FAULTS) as standin:
        model = ProviderModel(provider_for(standin), None, timeout=0.5)
        engine = TurnEngine(
            model,
            table,
            Conversation(model="standin"),
            on_event=events.append if streamed else None,
        )
        said = {}
        for prompt in ("slow", "busy", "boom", "garbled"):
            turn = await engine.run_turn(prompt)
            assert turn.outcome == "model-error", prompt
            assert turn.error.startswith("The model request failed: ")
            said[prompt] = engine.model_error
        turn = await engine.run_turn("hello")
    assert (turn.outcome, turn.final_text) == ("answered", "You said: hello")
    kinds = {p: e.kind if e is not None else None for p, e in said.items()}
    assert kinds == {
        "slow": "timeout",
        "busy": "rate-limited",
        "boom": "server",
        "garbled": "garbage",
    }
    assert said["busy"] is not None and said["busy"].retry_after == 7
    assert any(isinstance(e, TextDelta) for e in events) == streamed
