"""The small parts: JSON Pointers, ${env:NAME} and secrets, JSON equality, "Save call"
from a request, update snapshot, JUnit text that XML can carry."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

from inspector.collections.checks import json_equal, json_type, judge
from inspector.collections.collection import (
    Collection,
    OutcomeAssertion,
    PointerAssertion,
    SavedCall,
    SnapshotAssertion,
)
from inspector.collections.env_refs import UnsetVariable, resolve_env, secret_refs
from inspector.collections.pointer import MISSING, parse_pointer, resolve_pointer
from inspector.collections.results import CallResult, Outcome, RunReport
from inspector.collections.saving import saved_call_for
from inspector.collections.snapshots import update_call_snapshot
from inspector.common.junit import JUnitCase, junit_xml
from inspector.recording.format import REDACTED


def test_pointers() -> None:
    doc = {"a/b": {"~x": [10, 20]}, "": 1}
    assert resolve_pointer(doc, parse_pointer("/a~1b/~0x/1")) == 20
    assert resolve_pointer(doc, parse_pointer("/")) == 1
    assert resolve_pointer(doc, parse_pointer("")) is doc
    for missing in ("/a~1b/~0x/2", "/a~1b/~0x/01", "/a~1b/~0x/-", "/nope", "/a~1b/~0x/0/deeper"):
        assert resolve_pointer(doc, parse_pointer(missing)) is MISSING
    for bad in ("a", "/~2", "/x~"):
        with pytest.raises(ValueError):
            parse_pointer(bad)


def test_env_references() -> None:
    args = {"token": "Bearer ${env:TOKEN}", "literal": "$${env:TOKEN}", "n": [1, "${env:A}"]}
    assert resolve_env(args, {"TOKEN": "t0k", "A": "a"}) == {
        "token": "Bearer t0k",
        "literal": "${env:TOKEN}",
        "n": [1, "a"],
    }
    with pytest.raises(UnsetVariable, match="environment variable TOKEN is not set"):
        resolve_env(args, {"A": "a"})


def test_secrets_become_references_or_redaction_marks() -> None:
    params = {"name": "login", "arguments": {"key": "sk-live-123456", "note": "pw hunter22!"}}
    call = saved_call_for(
        "tools/call",
        params,
        secrets={"API_KEY": "sk-live-123456"},
        other_secrets=("hunter22!",),
    )
    assert call.arguments == {"key": "${env:API_KEY}", "note": f"pw {REDACTED}"}
    assert secret_refs("abc", {"X": "abc"}) == "abc"  # too short to be a secret


def test_saved_call_for_each_kind() -> None:
    tool = saved_call_for(
        "tools/call",
        {"name": "echo", "arguments": {"m": 1}, "_meta": {"progressToken": 1}},
        result={"content": [], "_meta": {"io.modelcontextprotocol/serverInfo": {}}},
    )
    assert (tool.name, tool.kind, tool.tool, tool.arguments) == ("echo", "tool", "echo", {"m": 1})
    assert tool.assertions == (OutcomeAssertion("ok"), SnapshotAssertion({"content": []}))
    failed = saved_call_for(
        "resources/read", {"uri": "x://y"}, error={"code": -32002, "message": "no"}
    )
    assert failed.name == "read x://y" and failed.assertions == (OutcomeAssertion("error", -32002),)
    prompt = saved_call_for("prompts/get", {"name": "greet", "arguments": {"n": "A"}}, name="hi")
    assert (prompt.name, prompt.prompt, prompt.assertions) == ("hi", "greet", ())
    done = saved_call_for(
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": "v"}},
    )
    assert done.name == "complete p a" and done.params()["argument"] == {"name": "a", "value": "v"}
    for method, params in [
        ("tools/list", {}),
        ("tools/call", {"arguments": {}}),
        ("completion/complete", {"ref": {"type": "x"}, "argument": {}}),
    ]:
        with pytest.raises(ValueError):
            saved_call_for(method, params)


def test_json_equality_and_types() -> None:
    assert json_equal(1, 1.0) and not json_equal(True, 1) and not json_equal(0, False)
    assert json_equal({"a": [1, {"b": None}]}, {"a": [1.0, {"b": None}]})
    assert [json_type(v) for v in (None, True, 3, 3.0, 3.5, "s", [], {})] == [
        "null", "boolean", "integer", "integer", "number", "string", "array", "object",
    ]  # fmt: skip


def test_a_hostile_result_is_judged_without_harm() -> None:
    call = SavedCall("x", "tool", tool="x")
    huge = "a" * 5_000_000 + "\x00\x1b[31m"
    seen = CallResult(call, Outcome("ok"), 1.0, {"content": [{"type": "text", "text": huge}]})
    verdict = judge(PointerAssertion("/content/0/text", "matches", "^a+$"), seen)
    assert not verdict.passed and len(verdict.message) < 400  # the message is cut
    seen.assertions = [verdict]
    report = RunReport("hostile", [seen])
    suite = ET.fromstring(report.junit())  # NUL and ESC would make invalid XML
    assert suite.get("failures") == "1"


def test_update_call_snapshot_keeps_ignores_and_can_add() -> None:
    call = SavedCall("x", "tool", tool="x", assertions=(SnapshotAssertion({"a": 1}, ("/t",)),))
    seen = CallResult(call, Outcome("ok"), 1.0, {"a": 2, "_meta": {"progressToken": 5}})
    updated = update_call_snapshot(call, seen)
    assert updated.assertions == (SnapshotAssertion({"a": 2}, ("/t",)),)
    bare = SavedCall("y", "tool", tool="y")
    assert update_call_snapshot(bare, seen).assertions == ()
    assert update_call_snapshot(bare, seen, add=True).assertions == (SnapshotAssertion({"a": 2}),)
    nothing = CallResult(call, Outcome("timeout"))
    assert update_call_snapshot(call, nothing) == call
    c = Collection(calls=[call])
    assert c.call("x") is call


def test_junit_writer_shared_by_check_and_test() -> None:
    xml = junit_xml(
        "suite \x07",
        [
            JUnitCase("a", "passes", 0.5, output="fine"),
            JUnitCase("a", "fails", failure=("short", "long\ntext")),
            JUnitCase("b", "errs", error="boom"),
            JUnitCase("b", "skips", skipped="n/a"),
        ],
    )
    suite = ET.fromstring(xml)
    assert suite.get("name") == "suite \\x07"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("4", "1", "1")
    assert suite.get("skipped") == "1"
    cases = {c.get("name"): c for c in suite}
    assert cases["passes"].get("time") == "0.500"
    assert cases["fails"].find("failure").text == "long\ntext"  # type: ignore[union-attr]


def test_the_demo_profile_runs_this_checkout_without_shadowing_the_stdlib() -> None:
    from pathlib import Path

    from inspector.settings.profiles import demo_profile

    env = {e.name: e.value for e in demo_profile().stdio.env}
    folder = Path(env["PYTHONPATH"])
    assert (folder / "inspector" / "__init__.py").is_file()  # the folder holding the package
    assert not (folder / "collections").exists()  # not inspector/ (its collections/ package)


def test_secrets_of_a_profile_for_save_call() -> None:
    from inspector.collections.secrets import secrets_for_profile
    from inspector.settings.profiles import (
        EnvVar,
        HeaderEntry,
        HttpSettings,
        Profile,
        StdioSettings,
    )

    stdio = Profile(
        name="s",
        stdio=StdioSettings(
            command="srv",
            env=[
                EnvVar(name="API_TOKEN", value="tok-123456789"),  # looks secret
                EnvVar(name="PLAIN", value="visible-value"),
            ],
        ),
    )
    found = secrets_for_profile(stdio, None)
    assert found.named == {"API_TOKEN": "tok-123456789"} and found.other == ()
    call = saved_call_for(
        "tools/call",
        {"name": "t", "arguments": {"a": "tok-123456789", "b": "visible-value"}},
        secrets=found.named,
        other_secrets=found.other,
    )
    assert call.arguments == {"a": "${env:API_TOKEN}", "b": "visible-value"}
    http = Profile(
        name="h",
        transport="http",
        http=HttpSettings(
            url="https://u:pass-word-9@example.com/mcp",
            headers=[HeaderEntry(name="Authorization", value="Bearer abcdefghijkl")],
        ),
    )
    found = secrets_for_profile(http, None)
    assert found.named == {} and {"pass-word-9", "abcdefghijkl"} <= set(found.other)


class _F:
    def __init__(self, direction: str, raw: str) -> None:
        self.direction, self.raw = direction, raw


def test_answers_during_a_request_in_both_eras_and_hostile_ids() -> None:
    from inspector.collections.answers import answers_during
    from inspector.collections.collection import SavedAnswer

    sampled = {"role": "assistant", "content": {"type": "text", "text": "x"}, "model": "m"}
    ask = {"messages": [], "maxTokens": 5}
    legacy = [
        _F("out", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}'),
        _F("in", '{"jsonrpc":"2.0","id":[1],"method":"roots/list"}'),  # unhashable id
        _F("in", '{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":'
                 + json.dumps(ask) + "}"),
        _F("out", '{"jsonrpc":"2.0","id":"s1","result":' + json.dumps(sampled) + "}"),
        _F("in", '{"jsonrpc":"2.0","id":"s2","method":"elicitation/create","params":{}}'),
        _F("out", '{"jsonrpc":"2.0","id":"s2","error":{"code":-1,"message":"no thanks"}}'),
        _F("in", '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}'),
        _F("in", "not json"),
    ]  # fmt: skip
    assert answers_during(legacy, 1) == (
        SavedAnswer("sampling/createMessage", ask, sampled),
        SavedAnswer("elicitation/create", {}, reject="no thanks"),
    )
    modern = [
        _F("out", '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a"}}'),
        _F("in", '{"jsonrpc":"2.0","id":7,"result":{"resultType":"input_required",'
                 '"inputRequests":{"k":{"method":"sampling/createMessage","params":'
                 + json.dumps(ask) + "}},\"requestState\":\"s\"}}"),
        _F("out", '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"a",'
                  '"inputResponses":{"k":' + json.dumps(sampled) + '},"requestState":"s"}}'),
        _F("in", '{"jsonrpc":"2.0","id":8,"result":{"content":[]}}'),
    ]  # fmt: skip
    assert answers_during(modern, 7) == (SavedAnswer("sampling/createMessage", ask, sampled),)
    assert answers_during(modern, 8) == ()


def test_changes_since_the_last_run() -> None:
    a, b, c = (SavedCall(n, "tool", tool=n) for n in "abc")

    def result(call: SavedCall, ok: bool) -> CallResult:
        seen = CallResult(call, Outcome("ok" if ok else "isError"))
        seen.assertions = [judge(OutcomeAssertion("ok"), seen)]
        return seen

    first = RunReport("x", [result(a, True), result(b, False)])
    second = RunReport("x", [result(a, False), result(b, True), result(c, True)])
    assert second.changes_since(first) == {"a": "broke", "b": "fixed", "c": "new"}
    assert second.changes_since(second) == {}
    assert first.changes_since(None) == {"a": "new", "b": "new"}
