"""Collection files: read with precise errors (file, line, which call, what is wrong),
written as stable, reviewable JSON (indent 2, fixed key order, a trailing newline)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, NoReturn

from inspector.collections.collection import (
    CALL_KINDS,
    FORMAT_VERSION,
    JSON_TYPES,
    OUTCOMES,
    Assertion,
    Collection,
    InputSchemaAssertion,
    LatencyAssertion,
    OutcomeAssertion,
    OutputSchemaAssertion,
    PointerAssertion,
    SavedAnswer,
    SavedCall,
    SnapshotAssertion,
    ToolExistsAssertion,
)
from inspector.collections.located_json import line_of, loads_located
from inspector.collections.pointer import parse_pointer
from inspector.storage.atomic_file import write_text_atomically

__all__ = [
    "MAX_CALLS",
    "MAX_FILE_BYTES",
    "CollectionError",
    "dumps_collection",
    "load_collection",
    "loads_collection",
    "save_collection",
]

MAX_FILE_BYTES: Final = 32 * 1024 * 1024
MAX_CALLS: Final = 10_000
ERAS: Final = ("legacy", "modern", "auto")
ASSERTION_KEYS: Final = (
    "outcome",
    "pointer",
    "outputSchema",
    "snapshot",
    "latencyUnderMs",
    "toolExists",
    "inputSchema",
)
_POINTER_OPS: Final = ("equals", "contains", "matches", "type")
_CALL_KEYS: Final = frozenset(
    {
        "name",
        "kind",
        "tool",
        "uri",
        "prompt",
        "ref",
        "argument",
        "context",
        "arguments",
        "timeoutMs",
        "answers",
        "assert",
    }
)


class CollectionError(Exception):
    """A collection file that cannot be used: `str()` is `FILE:LINE: WHERE: REASON`."""

    def __init__(self, source: str, line: int | None, where: str, reason: str) -> None:
        self.source = source
        self.line = line
        self.where = where
        self.reason = reason
        place = f"{source}:{line}" if line is not None else source
        super().__init__(f"{place}: {where + ': ' if where else ''}{reason}")


def load_collection(path: str | Path) -> Collection:
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise CollectionError(
                str(path),
                None,
                "",
                f"{size:,} bytes is too big for a collection "
                f"(at most {MAX_FILE_BYTES // (1024 * 1024)} MiB)",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise CollectionError(str(path), None, "", f"cannot read: {exc.strerror or exc}") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CollectionError(str(path), line, "", "not UTF-8 text") from exc
    return loads_collection(text, str(path))


def loads_collection(text: str, source: str = "<collection>") -> Collection:
    if len(text) > MAX_FILE_BYTES:
        raise CollectionError(source, None, "", "too big for a collection")
    text = text.removeprefix("\ufeff")
    # Fast path: the C parser and the checks. Only a file with something wrong is parsed
    # again, with positions, so that the error names its line.
    try:
        fast = json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
        return _Reader(text, source).collection(fast)
    except (ValueError, RecursionError, CollectionError) as exc:
        first: Exception = exc
    try:
        doc = loads_located(text)
    except json.JSONDecodeError as exc:
        raise CollectionError(source, exc.lineno, f"column {exc.colno}", exc.msg) from None
    except RecursionError:
        raise CollectionError(source, None, "", "nested too deeply to be a collection") from None
    except ValueError as exc:  # NaN, Infinity
        raise CollectionError(source, None, "", f"not valid JSON: {exc}") from None
    _Reader(text, source).collection(doc)  # raises, now with the line
    raise CollectionError(source, None, "", str(first))  # both parsers should agree


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise ValueError("a key appears twice in one object")
    return out


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source

    def fail(self, node: Any, where: str, reason: str) -> NoReturn:
        raise CollectionError(self.source, line_of(self.text, node), where, reason)

    def collection(self, doc: Any) -> Collection:
        if not isinstance(doc, dict):
            self.fail(doc, "", "a collection is a JSON object with 'version' and 'calls'")
        unknown = sorted(set(doc) - {"version", "name", "description", "era", "calls"})
        if unknown:
            self.fail(doc, "", f"unknown key(s) {', '.join(map(repr, unknown))}")
        version = doc.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            self.fail(doc, "version", f"must be the number {FORMAT_VERSION}")
        if version > FORMAT_VERSION:
            self.fail(
                doc,
                "version",
                f"format {version} was written by a newer MCP Inspector; this one reads "
                f"format {FORMAT_VERSION}",
            )
        if version < 1:
            self.fail(doc, "version", f"must be the number {FORMAT_VERSION}")
        name = self.string(doc, "name", doc.get("name", ""), "")
        description = self.string(doc, "description", doc.get("description", ""), "")
        era = self.string(doc, "era", doc.get("era", ""), "")
        if era not in ("", *ERAS):
            self.fail(doc, "era", f"must be one of {', '.join(ERAS)} (got {era!r})")
        calls = doc.get("calls")
        if not isinstance(calls, list):
            self.fail(doc, "calls", "must be a list of saved calls")
        if len(calls) > MAX_CALLS:
            self.fail(calls, "calls", f"{len(calls):,} calls; at most {MAX_CALLS:,}")
        out = Collection(name=name, description=description, era=era)
        names: set[str] = set()
        for i, node in enumerate(calls):
            call = self.call(node, f"calls[{i}]")
            if call.name in names:
                self.fail(node, f"calls[{i}]", f"the name {call.name!r} is used twice")
            names.add(call.name)
            out.calls.append(call)
        return out

    def string(self, node: Any, where: str, value: Any, default: str | None) -> str:
        if value is None and default is not None:
            return default
        if not isinstance(value, str):
            self.fail(node, where, "must be a string")
        return value

    def obj(self, node: Any, where: str, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(node if not isinstance(value, list) else value, where, "must be an object")
        return value

    def call(self, node: Any, where: str) -> SavedCall:
        if not isinstance(node, dict):
            self.fail(node, where, "a saved call is an object with 'name' and 'kind'")
        name = node.get("name")
        if not isinstance(name, str) or not name.strip():
            self.fail(node, where, "needs a 'name' (a non-empty string)")
        where = f"{where} {name!r}"
        unknown = sorted(set(node) - _CALL_KEYS)
        if unknown:
            self.fail(node, where, f"unknown key(s) {', '.join(map(repr, unknown))}")
        kind = node.get("kind")
        if kind not in CALL_KINDS:
            self.fail(node, where, f"'kind' must be one of {', '.join(CALL_KINDS)} (got {kind!r})")
        fields: dict[str, Any] = {}
        required = {
            "tool": ("tool",),
            "catalog": ("tool",),
            "resource": ("uri",),
            "prompt": ("prompt",),
            "completion": ("ref", "argument"),
        }[kind]
        for key in required:
            if key not in node:
                self.fail(node, where, f"a {kind} call needs {key!r}")
        for key in ("tool", "uri", "prompt"):
            if key in node:
                fields[key] = self.string(node, f"{where} {key}", node[key], None)
        for key in ("ref", "argument", "context", "arguments"):
            if key in node:
                fields[key] = self.obj(node, f"{where} {key}", node[key])
        if kind == "completion":
            self.completion(node, where, fields)
        if "timeoutMs" in node:
            fields["timeout_ms"] = self.positive(node, f"{where} timeoutMs", node["timeoutMs"])
        answers = node.get("answers", [])
        if not isinstance(answers, list):
            self.fail(node, f"{where} answers", "must be a list")
        fields["answers"] = tuple(
            self.answer(a, f"{where} answers[{i}]") for i, a in enumerate(answers)
        )
        asserts = node.get("assert", [])
        if not isinstance(asserts, list):
            self.fail(node, f"{where} assert", "must be a list of assertions")
        fields["assertions"] = tuple(
            self.assertion(a, f"{where} assert[{i}]", kind) for i, a in enumerate(asserts)
        )
        return SavedCall(name=name, kind=kind, **fields)

    def completion(self, node: Any, where: str, fields: dict[str, Any]) -> None:
        ref, argument = fields["ref"], fields["argument"]
        if ref.get("type") not in ("ref/prompt", "ref/resource"):
            self.fail(ref, f"{where} ref", "'type' must be ref/prompt or ref/resource")
        if not isinstance(argument.get("name"), str) or not isinstance(argument.get("value"), str):
            self.fail(argument, f"{where} argument", "needs 'name' and 'value' (strings)")

    def positive(self, node: Any, where: str, value: Any) -> float:
        if not isinstance(value, int | float) or isinstance(value, bool) or value <= 0:
            self.fail(node, where, "must be a positive number of milliseconds")
        return float(value)

    def answer(self, node: Any, where: str) -> SavedAnswer:
        if not isinstance(node, dict) or not isinstance(node.get("method"), str):
            self.fail(node, where, "an answer is an object with 'method' and 'result' or 'reject'")
        unknown = sorted(set(node) - {"method", "params", "result", "reject"})
        if unknown:
            self.fail(node, where, f"unknown key(s) {', '.join(map(repr, unknown))}")
        params = self.obj(node, f"{where} params", node.get("params", {}))
        if ("result" in node) == ("reject" in node):
            self.fail(node, where, "give exactly one of 'result' and 'reject'")
        if "reject" in node:
            return SavedAnswer(
                node["method"],
                params,
                reject=self.string(node, f"{where} reject", node["reject"], None),
            )
        return SavedAnswer(
            node["method"], params, self.obj(node, f"{where} result", node["result"])
        )

    def assertion(self, node: Any, where: str, kind: str) -> Assertion:
        if not isinstance(node, dict):
            self.fail(node, where, 'an assertion is an object, e.g. {"outcome": "ok"}')
        keys = [k for k in ASSERTION_KEYS if k in node]
        if len(keys) != 1:
            found = ", ".join(map(repr, node)) or "no keys"
            self.fail(
                node,
                where,
                f"unknown assertion ({found}); an assertion has one of {', '.join(ASSERTION_KEYS)}",
            )
        reader = _ASSERTION_READERS[keys[0]]
        return reader(self, node, f"{where} {keys[0]}", kind)

    def extra(self, node: dict[str, Any], where: str, allowed: set[str]) -> None:
        unknown = sorted(set(node) - allowed)
        if unknown:
            self.fail(node, where, f"unknown key(s) {', '.join(map(repr, unknown))}")


def _outcome(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    r.extra(node, where, {"outcome", "code"})
    expect = node["outcome"]
    if expect not in OUTCOMES:
        r.fail(node, where, f"must be one of {', '.join(OUTCOMES)} (got {expect!r})")
    code = node.get("code")
    if code is not None and (
        expect != "error" or not isinstance(code, int) or isinstance(code, bool)
    ):
        r.fail(node, where, '\'code\' (an integer) goes with "outcome": "error" only')
    return OutcomeAssertion(expect, code)


def _pointer(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    pointer = node["pointer"]
    if not isinstance(pointer, str):
        r.fail(node, where, "must be a JSON Pointer string, e.g. /content/0/text")
    try:
        parse_pointer(pointer)
    except ValueError as exc:
        r.fail(node, where, str(exc))
    ops = [k for k in _POINTER_OPS if k in node]
    r.extra(node, where, {"pointer", *_POINTER_OPS})
    if len(ops) != 1:
        r.fail(node, where, f"give exactly one of {', '.join(_POINTER_OPS)} with a pointer")
    op, value = ops[0], node[ops[0]]
    if op == "matches":
        if not isinstance(value, str):
            r.fail(node, where, "'matches' takes a regular expression (a string)")
        try:
            re.compile(value)
        except re.error as exc:
            r.fail(node, where, f"'matches' is not a valid regular expression: {exc}")
    if op == "type" and value not in JSON_TYPES:
        r.fail(node, where, f"'type' must be one of {', '.join(JSON_TYPES)} (got {value!r})")
    return PointerAssertion(pointer, op, value)


def _output_schema(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    r.extra(node, where, {"outputSchema"})
    if node["outputSchema"] != "valid":
        r.fail(node, where, 'write it as {"outputSchema": "valid"}')
    if kind != "tool":
        r.fail(node, where, "applies to tool calls only")
    return OutputSchemaAssertion()


def _snapshot(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    r.extra(node, where, {"snapshot", "ignore", "defaultIgnores"})
    ignore = node.get("ignore", [])
    if not isinstance(ignore, list) or not all(isinstance(p, str) for p in ignore):
        r.fail(node, where, "'ignore' must be a list of JSON Pointers")
    for pattern in ignore:
        if pattern not in ("", "/") and not pattern.startswith("/"):
            r.fail(
                node, where, f"the ignore path {pattern!r} is not a JSON Pointer (start with '/')"
            )
    defaults = node.get("defaultIgnores", True)
    if not isinstance(defaults, bool):
        r.fail(node, where, "'defaultIgnores' must be true or false")
    return SnapshotAssertion(node["snapshot"], tuple(ignore), defaults)


def _latency(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    r.extra(node, where, {"latencyUnderMs"})
    return LatencyAssertion(r.positive(node, where, node["latencyUnderMs"]))


def _tool_exists(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    r.extra(node, where, {"toolExists"})
    if not isinstance(node["toolExists"], bool):
        r.fail(node, where, "must be true or false")
    if kind != "catalog":
        r.fail(node, where, 'applies to catalog entries only ("kind": "catalog")')
    return ToolExistsAssertion(node["toolExists"])


def _input_schema(r: _Reader, node: dict[str, Any], where: str, kind: str) -> Assertion:
    r.extra(node, where, {"inputSchema"})
    if kind != "catalog":
        r.fail(node, where, 'applies to catalog entries only ("kind": "catalog")')
    if not isinstance(node["inputSchema"], dict):
        r.fail(node, where, "must be the expected inputSchema (an object)")
    return InputSchemaAssertion(node["inputSchema"])


_ASSERTION_READERS: Final[dict[str, Callable[[_Reader, dict[str, Any], str, str], Assertion]]] = {
    "outcome": _outcome,
    "pointer": _pointer,
    "outputSchema": _output_schema,
    "snapshot": _snapshot,
    "latencyUnderMs": _latency,
    "toolExists": _tool_exists,
    "inputSchema": _input_schema,
}


def dumps_collection(collection: Collection) -> str:
    """The file's text: indent 2, keys in the model's order, non-ASCII kept, one newline
    at the end."""
    return json.dumps(collection.to_json(), ensure_ascii=False, indent=2) + "\n"


def save_collection(path: str | Path, collection: Collection) -> None:
    """Write atomically (a temporary file beside it, then a rename): a crash never leaves
    half a collection. Raises OSError."""
    path = Path(path)
    text = dumps_collection(collection)
    write_text_atomically(path, text)
