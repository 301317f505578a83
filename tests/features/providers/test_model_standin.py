"""The model stand-in itself: its script is checked, its answers depend only on the
conversation (so concurrent runs get the same ones), a looping model and an unknown tool
can be scripted, and it runs as a process that prints its base URL."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from inspector.features.providers.chat import chat
from inspector.features.providers.chat_types import ChatMessage, ChatRequest, ToolSpec
from tests.helpers.model_standin import model_standin, provider_for
from tests.helpers.peers import REPO
from tests.servers.model_standin.script import Script

TOOLS = (ToolSpec("srv__echo", "Echoes", {"type": "object"}),)
LOOPING = {
    "rules": [
        {
            "when": {"lastUserContains": "ghost"},
            "reply": {"toolCalls": [{"name": "vanish", "arguments": {}}]},
        },
        {
            "name": "loop",
            "when": {},
            "reply": {"toolCalls": [{"name": "echo", "arguments": {"text": "again"}}]},
        },
    ]
}


def test_a_script_with_unknown_keys_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"rules\[0\]: unknown keys \['lastUserSays'\]"):
        Script.load({"rules": [{"when": {"lastUserSays": "x"}}]})


async def test_answers_depend_only_on_the_conversation_even_concurrently() -> None:
    script = {
        "rules": [{"when": {"lastUserContains": "hello"}, "reply": {"text": "Hi, {lastUser}!"}}]
    }
    with model_standin(script) as standin:
        provider = provider_for(standin)

        async def one(i: int) -> str:
            text = f"hello {i}" if i % 2 else f"bye {i}"
            request = ChatRequest("standin", "", (ChatMessage("user", text),))
            return (await chat(provider, None, request, timeout=10)).text

        answers = await asyncio.gather(*(one(i) for i in range(8)))
        assert answers == [f"Hi, hello {i}!" if i % 2 else f"You said: bye {i}" for i in range(8)]
        assert len(standin.received) == 8


async def test_a_looping_model_and_a_tool_that_does_not_exist() -> None:
    with model_standin(LOOPING) as standin:
        provider = provider_for(standin, "anthropic")
        ghost = ChatRequest("standin", "", (ChatMessage("user", "ghost"),), TOOLS)
        assert (await chat(provider, None, ghost, timeout=10)).tool_uses[0].name == "vanish"
        history: tuple[ChatMessage, ...] = (ChatMessage("user", "echo"),)
        for _ in range(3):  # it never stops calling, whatever the result
            reply = await chat(
                provider, None, ChatRequest("standin", "", history, TOOLS), timeout=10
            )
            (use,) = reply.tool_uses
            assert use.name == "srv__echo" and use.arguments == {"text": "again"}
            history += (
                ChatMessage("assistant", "", reply.tool_uses),
                ChatMessage("tool", "again", tool_use_id=use.id),
            )
        assert [r.rule for r in standin.received] == ["", "loop", "loop", "loop"]


def test_it_runs_as_a_process_and_prints_its_base_url(tmp_path: Path) -> None:
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"default": {"text": "scripted"}}))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.servers.model_standin", "--script", str(script)],
        stdout=subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    try:
        assert process.stdout is not None
        base = process.stdout.readline().decode().strip()
        assert base.startswith("http://127.0.0.1:") and base.endswith("/v1")
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
        answer = httpx.post(base + "/chat/completions", json=body, timeout=10).json()
        assert answer["choices"][0]["message"]["content"] == "scripted"
    finally:
        process.kill()
        process.wait(10)
