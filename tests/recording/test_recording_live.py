"""Always-on recording of live sessions (Qt-free): AutoRecorder against the demo server,
the user's actions in the file, the shared redaction rules (a secret from the keyring
never reaches the file), and the offline model and timeline built from the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.recording.format import REDACTED
from inspector.recording.live import AutoRecorder
from inspector.recording.offline import load_offline
from inspector.recording.reader import read_session
from inspector.recording.redaction import (
    connection_for_profile,
    connection_secrets,
    spec_for_profile,
)
from inspector.recording.retention import RecordingSettings, list_sessions
from inspector.recording.snapshot import copy_recording, write_traffic_log
from inspector.recording.timeline import format_duration, timeline_of
from inspector.session import ConnectError, PolicyResponder, RequestError, Session
from inspector.settings.connect import client_config_for, transport_for
from inspector.settings.profiles import EnvVar, HeaderEntry, HttpSettings, Profile, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.traffic.log import TrafficLog
from inspector.traffic.record import TrafficRecord
from tests.helpers.memory_keyring import MemoryKeyring
from tests.helpers.peers import PY, REPO
from tests.helpers.waiting import until

pytestmark = pytest.mark.timeout(60)

SECRET = "s3cret-token-from-the-keyring-4711"
SAMPLING = {
    "role": "assistant",
    "content": {"type": "text", "text": "Recorded answer."},
    "model": "test-model",
}


def demo_profile(*env: EnvVar) -> Profile:
    return Profile(
        name="Demo server",
        stdio=StdioSettings(
            command=PY,
            args=["-m", "inspector.demo"],
            env=[EnvVar(name="PYTHONPATH", value=str(REPO)), *env],
        ),
    )


async def record_demo(folder: Path, profile: Profile, store: SecretStore | None) -> Path:
    auto = AutoRecorder(lambda: folder, RecordingSettings(), store)
    responder = PolicyResponder({"sampling": SAMPLING})
    session = Session(transport_for(profile, store), client_config_for(profile), responder)
    sent: list[TrafficRecord] = []
    session.add_traffic_observer(sent.append)

    def went_out(text: str) -> bool:
        return any(r.direction == "out" and text in str(r.raw) for r in sent)

    recorder = auto.attach(session, profile)
    assert recorder is not None and auto.last_path == recorder.path
    async with session:
        await session.connect(timeout=20)
        for method, key in (
            ("tools/list", "tools"),
            ("resources/list", "resources"),
            ("resources/templates/list", "resourceTemplates"),
            ("prompts/list", "prompts"),
        ):
            await session.client.list_all(method, key)
        await session.request("tools/call", {"name": "echo", "arguments": {"message": SECRET}})
        await session.request("tools/call", {"name": "ask_llm", "arguments": {"question": "q"}})
        slow = session.start_request(
            "tools/call", {"name": "slow_count", "arguments": {"steps": 20, "delay_ms": 200}}
        )
        await until(lambda: went_out('"slow_count"'), "the slow call to go out", 10)
        slow.cancel()
        with pytest.raises(RequestError):
            await slow.result()
        await until(lambda: went_out("notifications/cancelled"), "the cancellation", 10)
    assert not auto.recording, "the recording ends with the transport"
    assert auto.error is None
    assert auto.last_path is not None
    return auto.last_path


async def test_a_demo_session_is_recorded_readable_with_actions_and_no_secret(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    store = SecretStore()
    profile = demo_profile(EnvVar(name="DEMO_SETTING", value="", secret=True))
    store.set(profile.id, "env", "DEMO_SETTING", SECRET)
    path = await record_demo(tmp_path / "sessions", profile, store)

    files = list_sessions(tmp_path / "sessions")
    assert [f.path for f in files] == [path]
    assert path.name.startswith("demo-server_") and path.suffix == ".jsonl"
    text = path.read_text(encoding="utf-8")
    assert SECRET not in text, "a keyring secret reached the file"
    assert REDACTED in text
    recorded = read_session(path)
    assert recorded.problems == []
    assert recorded.connection["name"] == "Demo server"
    assert recorded.connection["env"]["DEMO_SETTING"] == REDACTED
    assert recorded.ready is not None and recorded.ready["server_info"]["name"]
    actions = [e.data["text"] for e in recorded.events if e.type == "action"]
    assert any(
        a.startswith("answered sampling (server request") and "by hand" in a for a in actions
    )
    cancelled = [a for a in actions if a.startswith("cancelled request")]
    assert cancelled and "tools/call" in cancelled[0], actions


async def test_the_offline_model_and_timeline_of_a_recording(tmp_path: Path) -> None:
    path = await record_demo(tmp_path, demo_profile(), None)
    recorded = read_session(path)
    offline = load_offline(recorded)
    traffic = offline.traffic
    frames = recorded.frames()
    stderr = [e for e in recorded.events if e.type == "stderr"]
    assert len(traffic) == sum(1 for e in recorded.events if e.type != "ready")
    # Rows keep direction, raw text and wall time; requests pair with their answers.
    first = frames[0]
    assert traffic[0].direction == first.direction == "out"
    assert traffic[0].raw == first.raw
    assert traffic[0].wall == pytest.approx(first.data["wall"])
    lists = [e for e in traffic if e.method == "tools/list" and e.kind == "request"]
    assert lists
    answer = traffic.pair_of(lists[0])
    assert answer is not None and answer.latency is not None and answer.latency >= 0
    # The catalog comes from the recorded list results.
    tools = [i.key for i in offline.catalog.tools]
    assert {"echo", "slow_count", "ask_llm"} <= set(tools)
    assert offline.catalog.resources.loaded and offline.catalog.prompts.loaded
    assert len(offline.stderr) == len(stderr) and any("demo" in s for s in offline.stderr)
    assert offline.ready is not None and offline.ready.protocol_version
    assert offline.title == "Demo server"
    assert any("cancelled request" in a.text for a in offline.actions)
    # The timeline: counts, duration and latency percentiles per method.
    timeline = timeline_of(offline)
    assert timeline.duration == pytest.approx(recorded.duration)
    assert timeline.sent == sum(1 for f in frames if f.direction == "out")
    assert timeline.received == sum(1 for f in frames if f.direction == "in")
    calls = timeline.method("tools/call")
    assert calls is not None and calls.count == 3 and calls.answered == 2
    assert calls.p50 is not None and calls.max is not None and calls.p50 <= calls.max
    assert sum(timeline.sent_per_bucket) == timeline.sent
    assert timeline.started and format_duration(timeline.duration)


def test_offline_http_lines_link_to_the_frames_they_carried(tmp_path: Path) -> None:
    lines: list[dict[str, Any]] = [
        {
            "type": "header",
            "format": "mcp-inspector-session",
            "version": 1,
            "connection": {"transport": "http", "url": "http://h/mcp", "header_names": []},
            "era": "legacy",
        },
        {
            "type": "frame",
            "t": 0.01,
            "wall": 100.0,
            "transport": "http",
            "dir": "out",
            "kind": "request",
            "text": '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        },
        {
            "type": "http",
            "t": 0.02,
            "wall": 100.01,
            "transport": "http",
            "xid": 1,
            "exchange": {
                "method": "POST",
                "url": "http://h/mcp",
                "status": 200,
                "response_headers": {"content-type": "text/event-stream"},
            },
        },
        {
            "type": "frame",
            "t": 0.05,
            "wall": 100.04,
            "transport": "http",
            "dir": "in",
            "kind": "response",
            "sse_id": "ev-1",
            "via": {"method": "POST", "url": "http://h/mcp", "status": 200, "xid": 1},
            "text": '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{}}]}}',
        },
        {
            "type": "frame",
            "t": 0.06,
            "wall": 100.05,
            "transport": "http",
            "dir": "in",
            "kind": "invalid",
            "note": "not JSON",
            "b64": "/w==",
            "invalid_utf8": True,
        },
        {"type": "future-kind", "t": 0.07},
    ]
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines) + '{"type":"fra')
    offline = load_offline(read_session(path))
    traffic = offline.traffic
    assert [e.kind for e in traffic] == ["request", "http", "response", "invalid"]
    http_row, response = traffic[1], traffic[2]
    assert http_row.http is not None and response.http is http_row.http
    assert response.extra is not None and response.extra["sse_event_id"] == "ev-1"
    assert response.latency == pytest.approx(0.04)
    assert traffic[3].raw == b"\xff" and traffic[3].note == "not JSON"
    assert [i.key for i in offline.catalog.tools] == ["a"]
    assert any("incomplete" in n for n in offline.notes), offline.notes
    assert any("future-kind" in n for n in offline.notes)
    categories = [item.category for item in offline.errors.items]
    assert "invalid frame" in categories and "session file" in categories


def test_the_shared_redaction_rules() -> None:
    found = connection_secrets(
        headers={
            "Authorization": "Bearer abcdefgh12345",
            "X-Custom": "marked-secret-value",
            "Accept": "text/plain",
            "Mcp-Session-Id": "0123456789abcdef0123",
        },
        secret_headers=["x-custom"],
        env={"API_KEY": "key-value-1", "MODE": "debug", "PLAIN": "marked-env"},
        secret_env=["PLAIN"],
        url="https://u:pw-9876@h/mcp?token=tok-555",
    )
    assert "Bearer abcdefgh12345" in found and "abcdefgh12345" in found
    assert "marked-secret-value" in found and "key-value-1" in found and "marked-env" in found
    assert "pw-9876" in found and "tok-555" in found
    assert "text/plain" not in found and "debug" not in found
    assert not any(v.startswith("0123") for v in found)


def test_a_profile_as_a_recorded_connection(memory_keyring: MemoryKeyring) -> None:
    store = SecretStore()
    profile = Profile(
        name="remote",
        transport="http",
        http=HttpSettings(
            url="https://example.test/mcp",
            headers=[HeaderEntry(name="X-Team", value="", secret=True)],
        ),
    )
    store.set(profile.id, "header", "X-Team", "team-secret-77")
    spec = spec_for_profile(profile, store)
    assert spec.connection == {
        "transport": "http",
        "name": "remote",
        "url": "https://example.test/mcp",
        "header_names": ["X-Team"],
    }
    assert "team-secret-77" in spec.secrets
    assert "team-secret-77" not in json.dumps(connection_for_profile(profile))


async def test_save_as_copies_the_recording_or_writes_the_traffic_log(
    tmp_path: Path, memory_keyring: MemoryKeyring
) -> None:
    store = SecretStore()
    profile = demo_profile(EnvVar(name="DEMO_SETTING", value="", secret=True))
    store.set(profile.id, "env", "DEMO_SETTING", SECRET)
    # Recording off: the in-memory traffic log is written through the same recorder.
    traffic = TrafficLog()
    session = Session(transport_for(profile, store), client_config_for(profile))
    session.add_traffic_observer(traffic.observe)
    async with session:
        await session.connect(timeout=20)
        await session.request("tools/call", {"name": "echo", "arguments": {"message": SECRET}})
        ready = session.ready_info
    out = tmp_path / "saved.jsonl"
    lines = write_traffic_log(
        out,
        traffic,
        spec_for_profile(profile, store),
        client_config_for(profile),
        transport="stdio",
        ready=ready,
    )
    assert lines == len(traffic) + 2  # the header and the ready line
    assert SECRET not in out.read_text(encoding="utf-8")
    saved = read_session(out)
    assert saved.problems == [] and saved.ready is not None
    types = [e.type for e in saved.events]
    answer = next(i for i, e in enumerate(saved.events) if '"serverInfo"' in str(e.raw))
    assert types.index("ready") == answer + 1  # right after the answer to initialize
    assert any("tools/call" in str(e.raw) for e in saved.frames())
    # Recording on: a copy, without a last line cut mid-write.
    copy = tmp_path / "copy.jsonl"
    out.write_bytes(out.read_bytes() + b'{"type":"stde')
    copy_recording(out, copy)
    assert read_session(copy).problems == []
    assert copy.read_bytes().endswith(b"\n")


async def test_a_connection_that_never_starts_says_why_in_its_file(tmp_path: Path) -> None:
    profile = Profile(name="broken", stdio=StdioSettings(command=str(tmp_path / "no-such-server")))
    auto = AutoRecorder(lambda: tmp_path, RecordingSettings(), None)
    session = Session(transport_for(profile, None), client_config_for(profile))
    auto.attach(session, profile)
    with pytest.raises(ConnectError):
        await session.connect(timeout=5)
    await session.close()
    assert auto.recorder is not None, "no transport ran: no 'transport closed' line ended it"
    auto.fail("command not found")
    path = auto.last_path
    assert path is not None and not recording(auto)
    notes = [e for e in read_session(path).events if e.type == "note"]
    assert notes and notes[-1].data["text"] == "could not connect: command not found"


def recording(auto: AutoRecorder) -> bool:
    return auto.recording
