"""Auto-detect (streamable HTTP, then HTTP+SSE): when the HTTP+SSE attempt fails for a
reason of its own, the user reads that reason, not only the first POST's refusal."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from inspector.protocol.wire.versions import EraSetting
from inspector.session import ConnectError
from tests.helpers.http_fakes import Seen
from tests.transports.test_http_transport import OldSseServer, Opened, start


class CrossOriginSseServer(OldSseServer):
    """A 2024-11-05 server whose endpoint event points to another origin."""

    def _stream(self, _seen: Seen) -> httpx.Response:
        async def relay() -> AsyncIterator[bytes]:
            yield b"event: endpoint\ndata: http://elsewhere.example/messages?s=1\n\n"
            while True:
                yield await self.outbox.get()

        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=relay())


async def test_a_cross_origin_endpoint_is_the_reason_given(opened: list[Opened]) -> None:
    fake = CrossOriginSseServer(httpx.Response(405, headers={"allow": "GET"}))
    with pytest.raises(ConnectError) as caught:
        await start(opened, fake, kind="auto")
    message = str(caught.value)
    assert "another origin" in message and "elsewhere.example" in message
    assert "405" in message  # the first attempt is still named


async def test_auto_era_still_finds_an_old_sse_server_that_refuses_with_json(
    opened: list[Opened],
) -> None:
    """The discover probe's JSON 400 does not decide the transport; the initialize POST,
    refused the same way, does: HTTP+SSE is found and initialize is sent there."""
    refusal = httpx.Response(
        400,
        json={"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": "Bad Request"}},
    )
    fake = OldSseServer(refusal)
    item = await start(opened, fake, kind="auto", era=EraSetting.AUTO)
    assert item.session.transport.kind == "sse"
    posts = [s.rpc_method for s in fake.seen if s.method == "POST"]
    assert posts[:3] == ["server/discover", "initialize", "initialize"], posts
    assert [t["name"] for t in await item.session.client.list_tools()] == ["echo"]
