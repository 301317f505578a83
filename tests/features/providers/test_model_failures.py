"""Every way a model call goes wrong gives a ModelError with a sentence a person can act
on, in time: the provider down or slow, rate-limited (retry-after waited out only when it
fits before the deadline), garbage, a wrong key, maxTokens over the limit, content the model
cannot take, no model at all, the SDK missing."""

from __future__ import annotations

import socket
import time
from typing import Any

import pytest

from inspector.features.asks.sampling import parse_sampling_request
from inspector.features.providers import client as client_module
from inspector.features.providers.drafter import Drafter
from inspector.features.providers.providers import ModelEntry, ProviderConfig
from inspector.features.providers.types import ModelError, ModelExchange
from tests.helpers.model_stubs import Kind, ModelStub, Reply, model_stub

ASK: dict[str, Any] = {
    "messages": [{"role": "user", "content": {"type": "text", "text": "hello"}}],
    "maxTokens": 100,
}
KINDS: list[Kind] = ["openai", "anthropic"]


def provider(stub: ModelStub | None, kind: Kind = "openai", **kw: Any) -> ProviderConfig:
    url = stub.base_url if stub is not None else kw.pop("base_url")
    models = kw.pop("models", [ModelEntry("stub-small")])
    return ProviderConfig(stub.kind if stub else kind, base_url=url, models=models, **kw)


def drafter(
    p: ProviderConfig, key: str | None = None, **kw: Any
) -> tuple[Drafter, list[ModelExchange]]:
    seen: list[ModelExchange] = []
    return Drafter([p], lambda _p: key, on_exchange=seen.append, **kw), seen


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("kind", KINDS)
async def test_provider_down(kind: Kind) -> None:
    p = provider(None, kind, base_url=f"http://127.0.0.1:{free_port()}", timeout=5)
    d, seen = drafter(p)
    with pytest.raises(ModelError, match=r"could not reach http://127\.0\.0\.1") as info:
        await d.draft(parse_sampling_request(ASK))
    assert info.value.kind == "connection" and info.value.retryable
    assert seen and seen[0].error  # the failed exchange is logged too


@pytest.mark.parametrize("kind", KINDS)
async def test_provider_slow_is_cut_at_the_deadline(kind: Kind) -> None:
    with model_stub(kind) as stub:
        stub.script.append(Reply(delay=3))
        d, _ = drafter(provider(stub, timeout=30))
        started = time.monotonic()
        with pytest.raises(ModelError, match=r"no answer from .* within") as info:
            await d.draft(parse_sampling_request(ASK), deadline=time.monotonic() + 1.5)
        assert info.value.kind == "timeout"
        assert time.monotonic() - started < 2.5  # the MCP request's timeout, not the model's


@pytest.mark.parametrize("kind", KINDS)
async def test_rate_limit_retry_after_is_waited_out_when_it_fits(kind: Kind) -> None:
    with model_stub(kind) as stub:
        stub.script.append(Reply(status=429, error="slow down", headers={"retry-after": "7"}))
        waits: list[float] = []

        async def sleep(seconds: float) -> None:
            waits.append(seconds)

        d, seen = drafter(provider(stub), sleep=sleep)
        draft = await d.draft(parse_sampling_request(ASK), deadline=time.monotonic() + 60)
        assert waits == [7.0]
        assert draft.attempts == 2
        assert [e.status for e in seen] == [429, 200]


@pytest.mark.parametrize("kind", KINDS)
async def test_rate_limit_past_the_deadline_is_said_at_once(kind: Kind) -> None:
    with model_stub(kind) as stub:
        stub.script.append(Reply(status=429, error="slow down", headers={"retry-after": "120"}))
        d, _ = drafter(provider(stub))
        with pytest.raises(
            ModelError, match=r"rate-limiting \(HTTP 429\): slow down; it asks to retry after 120 s"
        ) as info:
            await d.draft(parse_sampling_request(ASK), deadline=time.monotonic() + 30)
        assert info.value.retry_after == 120.0


@pytest.mark.parametrize("kind", KINDS)
async def test_garbage_answer(kind: Kind) -> None:
    with model_stub(kind) as stub:
        stub.script.append(Reply(garbage=b"<html>502 Bad Gateway</html>"))
        d, seen = drafter(provider(stub))
        with pytest.raises(ModelError, match="not JSON") as info:
            await d.draft(parse_sampling_request(ASK))
        assert info.value.kind == "garbage"
        assert "502 Bad Gateway" in seen[0].response_body  # kept for the log, byte for byte
        stub.script.append(Reply(garbage=b'{"id": "x", "choices": []}'))
        with pytest.raises(ModelError, match=r"is not a"):
            await d.draft(parse_sampling_request(ASK))


@pytest.mark.parametrize("kind", KINDS)
async def test_wrong_key(kind: Kind) -> None:
    with model_stub(kind, key="right") as stub:
        d, seen = drafter(provider(stub), key="wrong-key-999")
        with pytest.raises(ModelError, match=r"refused the API key \(HTTP 401\)") as info:
            await d.draft(parse_sampling_request(ASK))
        assert info.value.kind == "auth" and not info.value.retryable
        assert "wrong-key-999" not in str(seen[0].to_json())


@pytest.mark.parametrize("kind", KINDS)
async def test_server_error_and_overload(kind: Kind) -> None:
    with model_stub(kind) as stub:
        stub.script.append(Reply(status=529, error="Overloaded"))
        d, _ = drafter(provider(stub))
        with pytest.raises(ModelError, match=r"failed \(HTTP 529\): Overloaded") as info:
            await d.draft(parse_sampling_request(ASK))
        assert info.value.kind == "server"


@pytest.mark.parametrize("kind", KINDS)
async def test_max_tokens_over_the_providers_limit(kind: Kind) -> None:
    with model_stub(kind, models={"stub-small": 4096}) as stub:
        d, _ = drafter(provider(stub))
        big = {**ASK, "maxTokens": 100_000}
        with pytest.raises(ModelError, match=r"rejected the request .*100000") as info:
            await d.draft(parse_sampling_request(big))
        assert info.value.kind == "rejected"
        # With the limit known, it is cut to it and said so.
        d, _ = drafter(provider(stub, models=[ModelEntry("stub-small", max_output_tokens=4096)]))
        draft = await d.draft(parse_sampling_request(big))
        assert stub.received[-1].body["max_tokens"] == 4096
        assert (
            "maxTokens 100,000 is over the limit of stub-small (4,096); sent 4,096" in draft.notes
        )


@pytest.mark.parametrize("kind", KINDS)
async def test_unknown_model(kind: Kind) -> None:
    with model_stub(kind) as stub:
        d, _ = drafter(provider(stub, models=[ModelEntry("no-such-model")]))
        with pytest.raises(ModelError, match=r"rejected the request \(HTTP 404\)"):
            await d.draft(parse_sampling_request(ASK))


@pytest.mark.parametrize("kind", KINDS)
async def test_audio_and_unknown_content_become_said_placeholders(kind: Kind) -> None:
    ask = {
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "audio", "mimeType": "audio/wav", "data": "UklGRg=="},
                    {"type": "hologram", "frames": 3},
                ],
            }
        ],
        "maxTokens": 50,
    }
    with model_stub(kind) as stub:
        d, _ = drafter(provider(stub))
        draft = await d.draft(parse_sampling_request(ask))
        sent = str(stub.received[-1].body["messages"])
        assert "audio content in messages[0] left out" in sent
        assert any("audio in messages[0] sent as a placeholder text" in n for n in draft.notes)
        assert any("'hologram' content in messages[0] is unknown" in n for n in draft.notes)


async def test_no_model_configured() -> None:
    d = Drafter([], lambda _p: None)
    with pytest.raises(ModelError, match="no model is configured") as info:
        await d.draft(parse_sampling_request(ASK))
    assert info.value.kind == "no-model"


async def test_sdk_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str) -> Any:
        raise ImportError(name)

    monkeypatch.setattr(client_module.importlib, "import_module", refuse)
    assert not client_module.sdk_available("openai")
    d, _ = drafter(provider(None, base_url="http://127.0.0.1:9"))
    with pytest.raises(ModelError, match=r"pip install 'mcp-inspector-qt\[models\]'"):
        await d.draft(parse_sampling_request(ASK))
