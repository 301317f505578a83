"""The semantic diff: keyed lists, added/removed/changed, ignore pointers, volatile values,
and the replay statuses for requests that now fail or newly succeed."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.recording.diff import DEFAULT_IGNORES, Change, IgnoreRules, diff_json
from inspector.recording.replay import CallOutcome, RecordedCall, ReplayReport, _replay_one
from inspector.session import ServerError

TOOLS = [
    {"name": "echo", "description": "Echo", "inputSchema": {"type": "object"}},
    {"name": "add", "description": "Add", "inputSchema": {"type": "object"}},
    {"name": "fail", "description": "Fail", "inputSchema": {"type": "object"}},
]


def paths(changes: list[Change]) -> list[tuple[str, str]]:
    return [(c.path, c.kind) for c in changes]


def test_equal_values_have_no_changes() -> None:
    assert diff_json({"tools": TOOLS}, {"tools": [dict(t) for t in TOOLS]}) == []


def test_a_reordered_keyed_list_is_not_drift() -> None:
    assert diff_json({"tools": TOOLS}, {"tools": list(reversed(TOOLS))}) == []
    resources = [{"uri": "a://1", "name": "same"}, {"uri": "a://2", "name": "same"}]
    # Names repeat, so the list is keyed by uri.
    assert diff_json({"resources": resources}, {"resources": resources[::-1]}) == []


def test_keyed_lists_report_removed_added_and_changed_by_name() -> None:
    new = [
        {**TOOLS[1], "description": "Add two numbers"},
        TOOLS[0],
        {"name": "reverse", "description": "Reverse", "inputSchema": {"type": "object"}},
    ]
    changes = diff_json({"tools": TOOLS}, {"tools": new})
    assert paths(changes) == [
        ("/tools/name=add/description", "changed"),
        ("/tools/name=fail", "removed"),
        ("/tools/name=reverse", "added"),
    ]
    assert changes[0].old == "Add" and changes[0].new == "Add two numbers"
    assert changes[1].old == TOOLS[2]
    assert changes[1].describe().startswith("- /tools/name=fail: ")
    assert changes[2].describe().startswith("+ /tools/name=reverse: ")


def test_a_list_that_lost_every_item_still_names_them() -> None:
    changes = diff_json({"tools": TOOLS[:2]}, {"tools": []})
    assert paths(changes) == [("/tools/name=echo", "removed"), ("/tools/name=add", "removed")]


def test_unkeyed_lists_are_compared_by_position() -> None:
    old = {"content": [{"type": "text", "text": "Echo: hi"}]}
    new = {"content": [{"type": "text", "text": "hi"}, {"type": "text", "text": "more"}]}
    changes = diff_json(old, new)
    assert paths(changes) == [("/content/0/text", "changed"), ("/content/1", "added")]
    assert changes[0].describe() == '~ /content/0/text: "Echo: hi" → "hi"'


def test_added_and_removed_keys_and_type_changes() -> None:
    changes = diff_json({"a": 1, "b": "x", "c": True}, {"a": "1", "c": True, "d": None})
    assert paths(changes) == [("/a", "changed"), ("/b", "removed"), ("/d", "added")]


def test_numbers_compare_as_json_numbers_and_booleans_are_not_numbers() -> None:
    assert diff_json({"n": 1}, {"n": 1.0}) == []
    assert paths(diff_json({"n": 1}, {"n": True})) == [("/n", "changed")]


def test_change_order_is_stable() -> None:
    old = {f"k{i}": i for i in range(30)}
    new = {f"k{i}": -i for i in range(1, 30)}
    assert [c.path for c in diff_json(old, new)] == [f"/k{i}" for i in range(30)]


@pytest.mark.parametrize(
    ("pattern", "ignored"),
    [
        ("/content/*/text", True),
        ("/content/0/text", True),
        ("/content/1/text", False),
        ("/**/text", True),
        ("/**", True),
        ("/content/*", True),
        ("/*/text", False),
    ],
)
def test_wildcard_ignore_pointers(pattern: str, ignored: bool) -> None:
    old = {"content": [{"type": "text", "text": "a"}]}
    new = {"content": [{"type": "text", "text": "b"}]}
    changes = diff_json(old, new, IgnoreRules([pattern]))
    assert (changes == []) is ignored


def test_double_star_ignores_ids_at_any_depth() -> None:
    old = {"id": 1, "ticket": {"id": "TCK-101", "title": "t", "links": [{"id": 7}]}}
    new = {"id": 2, "ticket": {"id": "TCK-102", "title": "t", "links": [{"id": 8}]}}
    assert len(diff_json(old, new, IgnoreRules([]))) == 3
    assert diff_json(old, new, IgnoreRules(["/**/id"])) == []


def test_ignored_paths_cover_added_and_removed_items_too() -> None:
    old = {"content": [{"type": "text", "text": "a"}]}
    new = {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "extra"}]}
    assert diff_json(old, new, IgnoreRules(["/content/1"])) == []
    assert diff_json({"tools": TOOLS}, {"tools": TOOLS[:2]}, IgnoreRules(["/tools/*"])) == []
    assert (
        diff_json({"tools": TOOLS}, {"tools": TOOLS[:2]}, IgnoreRules(["/tools/name=fail"])) == []
    )


def test_escaped_pointer_segments_match_keys_with_slashes() -> None:
    # The default ignore of the modern per-result serverInfo stamp: "~1" is "/".
    old = {"x": 1, "_meta": {"io.modelcontextprotocol/serverInfo": {"version": "1.0"}}}
    new = {"x": 1, "_meta": {"io.modelcontextprotocol/serverInfo": {"version": "2.0"}}}
    assert diff_json(old, new) == []
    assert paths(diff_json(old, new, IgnoreRules([]))) == [
        ("/_meta/io.modelcontextprotocol~1serverInfo/version", "changed")
    ]
    assert diff_json({"a~b": 1}, {"a~b": 2}, IgnoreRules(["/a~0b"])) == []


def test_timestamps_and_volatile_fields_are_ignored_by_default() -> None:
    old = {
        "created": "2026-01-01T10:00:00Z",
        "at": "2026-01-01 10:00:00.123+01:00",
        "timestamp": 1700000000,
        "_meta": {"progressToken": "p2", "sessionId": "abc"},
        "requestState": "xyz",
        "resultType": "complete",
    }
    new = {
        "created": "2026-11-29T20:51:54.668+00:00",
        "at": "2027-02-02 11:11:11+01:00",
        "timestamp": 1800000000,
        "_meta": {"progressToken": "p9", "sessionId": "def"},
        "requestState": "uvw",
    }
    assert diff_json(old, new) == []
    # Without the default ignores, only the point-in-time strings stay quiet (by value).
    assert [c.path for c in diff_json(old, new, IgnoreRules([]))] == [
        "/timestamp",
        "/_meta/progressToken",
        "/_meta/sessionId",
        "/requestState",
        "/resultType",
    ]
    # A timestamp that became a non-timestamp is drift.
    assert paths(diff_json({"at": "2026-01-01T10:00:00Z"}, {"at": "soon"})) == [("/at", "changed")]
    assert "/**/timestamp" in DEFAULT_IGNORES


def test_an_ignore_path_must_be_a_pointer() -> None:
    with pytest.raises(ValueError, match="JSON Pointer"):
        IgnoreRules(["content/0"])


class _FakeSession:
    """Just enough of Session for _replay_one: answers with a result or raises."""

    def __init__(self, result: dict[str, Any] | None = None, error: Exception | None = None):
        self.result = result
        self.error = error
        self.client = self  # learn_tool (modern HTTP headers) has nothing to learn here

    async def learn_tool(self, name: str) -> None:
        return None

    async def request(self, method: str, params: object, **_: object) -> dict[str, Any]:
        if self.error is not None:
            raise self.error
        assert self.result is not None
        return self.result


def _server_error(code: int, message: str) -> ServerError:
    from inspector.protocol.machine.events import RequestFailed
    from inspector.protocol.wire.jsonrpc import ErrorResponse

    return ServerError(
        RequestFailed(1, "tools/call", "error", message, ErrorResponse(9, code, message))
    )


async def _outcome(call: RecordedCall, session: _FakeSession) -> CallOutcome:
    return await _replay_one(session, call, IgnoreRules())  # type: ignore[arg-type]


def _call(
    result: dict[str, Any] | None = None, error: dict[str, Any] | None = None
) -> RecordedCall:
    return RecordedCall(1, "tools/call", {"name": "t"}, wire_id=2, result=result, error=error)


OK = {"content": [{"type": "text", "text": "ok"}]}


async def test_a_request_that_now_fails_with_a_json_rpc_error() -> None:
    outcome = await _outcome(_call(result=OK), _FakeSession(error=_server_error(-32602, "no")))
    assert outcome.status == "now-fails"
    assert outcome.new_error == {"code": -32602, "message": "no"}


async def test_a_request_that_newly_succeeds() -> None:
    outcome = await _outcome(_call(error={"code": -32603, "message": "boom"}), _FakeSession(OK))
    assert outcome.status == "newly-succeeds"
    assert "-32603 boom" in (outcome.message or "")


async def test_the_same_error_is_no_drift_and_a_different_one_is() -> None:
    recorded = _call(error={"code": -32603, "message": "boom"})
    same = await _outcome(recorded, _FakeSession(error=_server_error(-32603, "boom")))
    assert same.status == "same"
    other = await _outcome(recorded, _FakeSession(error=_server_error(-32602, "bad")))
    assert other.status == "error-changed"
    assert paths(other.changes) == [("/code", "changed"), ("/message", "changed")]


async def test_a_tool_result_that_flips_is_error_fails_or_succeeds() -> None:
    failed = {"content": [{"type": "text", "text": "nope"}], "isError": True}
    now_fails = await _outcome(_call(result=OK), _FakeSession(failed))
    assert now_fails.status == "now-fails"
    assert ("/isError", "added") in paths(now_fails.changes)
    newly = await _outcome(_call(result=failed), _FakeSession(OK))
    assert newly.status == "newly-succeeds"


async def test_cancelled_and_unanswered_requests_are_skipped() -> None:
    cancelled = _call()
    cancelled.cancelled = True
    assert (await _outcome(cancelled, _FakeSession(OK))).status == "skipped"
    assert (await _outcome(_call(), _FakeSession(OK))).status == "skipped"


def test_the_report_summary_names_each_drifted_field() -> None:
    report = ReplayReport()
    call = _call(result=OK)
    report.outcomes.append(
        CallOutcome(call, "drift", diff_json(OK, {"content": [{"type": "text", "text": "ko"}]}))
    )
    report.outcomes.append(CallOutcome(_call(result=OK), "same"))
    text = report.summary()
    assert "1 same, 1 drifted" in text
    assert '~ /content/0/text: "ok" → "ko"' in text
    assert text.endswith("DRIFT")
    assert report.drifted
    assert ReplayReport(outcomes=[CallOutcome(call, "skipped")]).summary().endswith("no drift")
