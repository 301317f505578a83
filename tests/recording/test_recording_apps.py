"""An MCP App's messages in session files: a live session reports them as side traffic
(directions from-app and to-app, transport "app"); the saved file keeps them; the offline
viewer reads them back with their directions and pairs; an old file still reads."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.features.mcp_apps.handshake import HostContext
from inspector.features.mcp_apps.host import AppHost
from inspector.features.mcp_apps.meta import AppResource
from inspector.recording.live import spec_for_profile
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.recording.snapshot import write_traffic_log
from inspector.session import Session
from inspector.settings.connect import client_config_for, transport_for
from inspector.settings.profiles import EnvVar, Profile, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.traffic.format import DIRECTION_ARROWS
from inspector.traffic.log import TrafficLog
from tests.features.mcp_apps.fake_services import FakeServices
from tests.helpers.peers import PY, REPO
from tests.helpers.waiting import until


def demo() -> Profile:
    return Profile(
        name="demo",
        stdio=StdioSettings(
            command=PY,
            args=["-m", "inspector.demo"],
            env=[EnvVar(name="PYTHONPATH", value=str(REPO))],
        ),
    )


async def test_app_messages_are_saved_and_read_back_with_their_directions(
    tmp_path: Path,
) -> None:
    profile = demo()
    store = SecretStore()
    traffic = TrafficLog()
    session = Session(transport_for(profile, store), client_config_for(profile))
    session.add_traffic_observer(traffic.observe)
    async with session:
        await session.connect(timeout=20)
        services = FakeServices()
        services.report = session.report_side_traffic  # type: ignore[method-assign]
        host = AppHost(AppResource("ui://demo/app", "<p>"), services, services.send, HostContext())
        host.set_call({"a": 1}, {"content": [{"type": "text", "text": "r"}]})
        host.receive(
            json.dumps(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "ui/initialize",
                    "params": {"protocolVersion": "2026-01-26", "appInfo": {"name": "a"}},
                }
            )
        )
        await until(lambda: any(m.get("id") == 1 for m in services.sent), "the host's answer", 10)
        host.receive('{"jsonrpc":"2.0","method":"ui/notifications/initialized"}')
        host.receive("not json")
        ready = session.ready_info
    live = [
        (e.direction, e.method) for e in traffic.entries if e.direction in ("from-app", "to-app")
    ]
    assert ("from-app", "ui/initialize") in live
    assert ("to-app", "ui/notifications/tool-result") in live
    out = tmp_path / "with-app.jsonl"
    write_traffic_log(
        out,
        traffic,
        spec_for_profile(profile, store),
        client_config_for(profile),
        transport="stdio",
        ready=ready,
    )
    saved = read_session(out)
    assert saved.problems == []
    dirs = {e.direction for e in saved.frames()}
    assert {"from-app", "to-app", "in", "out"} <= dirs
    offline = load_offline(saved).traffic
    rows = [e for e in offline.entries if e.direction in ("from-app", "to-app")]
    assert [(e.direction, e.method) for e in rows] == [
        (e.direction, e.method) for e in traffic.entries if e.direction in ("from-app", "to-app")
    ]
    init = next(e for e in rows if e.method == "ui/initialize" and e.kind == "request")
    answer = offline.pair_of(init)
    assert answer is not None and answer.direction == "to-app" and answer.kind == "response"
    invalid = next(e for e in rows if e.kind == "invalid")
    assert invalid.note and "invalid JSON-RPC" in invalid.note
    assert DIRECTION_ARROWS["from-app"] == "app→" and DIRECTION_ARROWS["to-app"] == "→app"


def test_an_unknown_direction_in_an_old_or_foreign_file_reads_as_none(tmp_path: Path) -> None:
    out = tmp_path / "odd.jsonl"
    header = {"type": "header", "format": "mcp-inspector-session", "version": 1}
    frame = {
        "type": "frame",
        "t": 0.1,
        "wall": 1.0,
        "transport": "stdio",
        "dir": "sideways",
        "kind": "notification",
        "text": '{"jsonrpc":"2.0","method":"x"}',
    }
    out.write_text(json.dumps(header) + "\n" + json.dumps(frame) + "\n", encoding="utf-8")
    saved = read_session(out)
    offline = load_offline(saved).traffic
    assert [e.direction for e in offline.entries] == [""]
