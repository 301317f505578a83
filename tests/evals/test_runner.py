"""The evals runner: each case its number of times, a fresh conversation per run, at most
`concurrency` runs at once over the same connection; a case it should pass passes, one it
should fail fails with its reasons; Stop ends the runs in flight and starts no more."""

from __future__ import annotations

import asyncio

import pytest

from inspector.evals.cases import EvalCase, ExpectedCall
from inspector.evals.runner import EvalRun, EvalRunner, EvalSettings
from inspector.features.providers.chat_types import ChatMessage, ChatReply, ChatRequest, TextSink
from inspector.host.tool_table import list_tool_table
from inspector.protocol.machine.connection import ClientConfig
from tests.helpers.fake_server import initialize_result
from tests.helpers.scripted_model import says, uses
from tests.helpers.scripted_peer import ScriptedPeer
from tests.helpers.sessions import OpenSessions
from tests.helpers.waiting import until

pytestmark = pytest.mark.timeout(20)


class AddingModel:
    """Calls add when asked to add (else answers), then answers with the tool's result;
    counts the requests in flight at once."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most = 0
        self.requests: list[ChatRequest] = []
        self.hold: asyncio.Event | None = None

    async def __call__(self, request: ChatRequest, on_text: TextSink | None = None) -> ChatReply:
        self.requests.append(request)
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            for _ in range(3):
                await asyncio.sleep(0)
            if self.hold is not None:
                await self.hold.wait()
        finally:
            self.in_flight -= 1
        last = request.messages[-1]
        if last.role == "tool":
            return says(f"The answer is {last.text}.")
        if "add" in last.text:
            return uses(("srv__add", {"a": 2, "b": 3}))
        return says("I will not use a tool.")


async def test_cases_run_their_times_with_bounded_concurrency_and_are_judged(
    sessions: OpenSessions,
) -> None:
    peer = ScriptedPeer()
    peer.on("initialize", initialize_result(), always=True)
    peer.on("tools/list", {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]})
    peer.on("tools/call", {"content": [{"type": "text", "text": "5"}]}, always=True)
    conn = await sessions.connection(peer.transport(), ClientConfig())
    table = await list_tool_table({"srv": conn})
    good = EvalCase(
        "adds",
        "please add 2 and 3",
        history=(ChatMessage("user", "hello"), ChatMessage("assistant", "hi")),
        expected_calls=(ExpectedCall("add", {"a": 2}),),
        answer_contains=("5",),
        runs=3,
    )
    bad = EvalCase("echoes", "say hi", expected_calls=(ExpectedCall("echo"),), runs=2)
    model = AddingModel()
    heard: list[EvalRun] = []
    runner = EvalRunner(model, table, EvalSettings(model="m", concurrency=2, system="Be brief."))
    report = await runner.run([good, bad], on_run=heard.append)
    assert [(c.case.name, c.passed_runs, c.passed) for c in report.cases] == [
        ("adds", 3, True),
        ("echoes", 0, False),
    ]
    assert report.cases[1].verdicts[0].reasons[0].startswith("expected a call to echo")
    assert not report.passed and len(heard) == 5 and model.most == 2
    assert len(peer.requests("tools/call")) == 3  # each run of "adds" called the server
    # a fresh conversation per run: each starts from the case's own messages
    firsts = [r for r in model.requests if r.messages[-1].text == "please add 2 and 3"]
    assert len(firsts) == 3 and all(len(r.messages) == 3 for r in firsts)
    assert all(r.system == "Be brief." for r in model.requests)
    run = next(r for r in heard if r.case is good)
    assert run.turn is not None and run.turn.tool_calls[0].tool == "add"
    # Stop: the runs in flight end as stopped, the rest never start
    model.hold = asyncio.Event()
    task = asyncio.ensure_future(runner.run([EvalCase("long", "add", runs=5)]))
    await until(lambda: model.in_flight == 2, "two runs in flight")
    runner.stop()
    report = await task
    [long] = report.cases
    assert long.passed_runs == 0 and long.missing_runs == 3 and not long.passed
    assert all("stopped" in v.reasons[0].lower() for v in long.verdicts)
