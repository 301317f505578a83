"""The collection model: a named list of saved calls, each with its assertions.

Plain dataclasses; `to_json()` gives the file's objects in a stable key order (the loader,
`file.py`, reads them back with precise errors)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, get_args

from inspector.collections.pointer import parse_pointer
from inspector.common.terminal_text import terminal_text, terminal_value
from inspector.core.server_connection import tool_call_params

__all__ = [
    "CALL_KINDS",
    "FORMAT_VERSION",
    "JSON_TYPES",
    "METHOD_OF_KIND",
    "OUTCOMES",
    "Assertion",
    "CallKind",
    "Collection",
    "InputSchemaAssertion",
    "LatencyAssertion",
    "OutcomeAssertion",
    "OutputSchemaAssertion",
    "PointerAssertion",
    "SavedAnswer",
    "SavedCall",
    "SnapshotAssertion",
    "ToolExistsAssertion",
]

FORMAT_VERSION: Final = 1
CallKind = Literal["tool", "resource", "prompt", "completion", "catalog"]
CALL_KINDS: Final[tuple[CallKind, ...]] = ("tool", "resource", "prompt", "completion", "catalog")
METHOD_OF_KIND: Final[dict[CallKind, str]] = {
    "tool": "tools/call",
    "resource": "resources/read",
    "prompt": "prompts/get",
    "completion": "completion/complete",
    "catalog": "tools/list",
}
Expected = Literal["ok", "isError", "error", "timeout"]
PointerOp = Literal["equals", "contains", "matches", "type"]
# The words a file may use: what an outcome assertion expects, the JSON types of "type".
OUTCOMES: Final[tuple[Expected, ...]] = get_args(Expected)
JSON_TYPES: Final = ("string", "number", "integer", "boolean", "object", "array", "null")


@dataclass(frozen=True)
class OutcomeAssertion:
    """The call ends this way: ok, a tool result with isError: true, a JSON-RPC error
    (with this code, when given), or a timeout."""

    expect: Expected = "ok"
    code: int | None = None

    def describe(self) -> str:
        if self.expect == "error" and self.code is not None:
            return f"outcome is a JSON-RPC error {self.code}"
        return f"outcome is {self.expect}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"outcome": self.expect}
        if self.code is not None:
            out["code"] = self.code
        return out


@dataclass(frozen=True)
class PointerAssertion:
    """The value at a JSON Pointer equals a value, contains one (a substring, a list
    member or a sub-object), matches a regular expression, or has a JSON type."""

    pointer: str
    op: PointerOp
    value: Any

    @property
    def tokens(self) -> tuple[str, ...]:
        return parse_pointer(self.pointer)

    def describe(self) -> str:
        where = self.pointer or "(the whole result)"
        if self.op == "matches" and isinstance(self.value, str):
            # The pattern as written, /like this/: as a JSON string its backslashes doubled.
            return f"{where} matches /{_short_text(self.value)}/"
        verb = {"equals": "equals", "contains": "contains", "matches": "matches", "type": "is a"}
        return f"{where} {verb[self.op]} {_short(self.value)}"

    def to_json(self) -> dict[str, Any]:
        return {"pointer": self.pointer, self.op: self.value}


@dataclass(frozen=True)
class OutputSchemaAssertion:
    """structuredContent validates against the tool's outputSchema (from tools/list)."""

    def describe(self) -> str:
        return "structuredContent matches the tool's outputSchema"

    def to_json(self) -> dict[str, Any]:
        return {"outputSchema": "valid"}


@dataclass(frozen=True)
class SnapshotAssertion:
    """The result matches a stored one, structurally, with ignore paths (JSON Pointers
    where '*' is one segment and '**' any number) on top of the volatile defaults."""

    snapshot: Any
    ignore: tuple[str, ...] = ()
    default_ignores: bool = True

    def describe(self) -> str:
        return "result matches the snapshot"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"snapshot": self.snapshot}
        if self.ignore:
            out["ignore"] = list(self.ignore)
        if not self.default_ignores:
            out["defaultIgnores"] = False
        return out


@dataclass(frozen=True)
class LatencyAssertion:
    """The call answers within this many milliseconds."""

    max_ms: float

    def describe(self) -> str:
        return f"latency under {self.max_ms:g} ms"

    def to_json(self) -> dict[str, Any]:
        return {"latencyUnderMs": _number(self.max_ms)}


@dataclass(frozen=True)
class ToolExistsAssertion:
    """Catalog: the call's tool is listed (or, with false, is not)."""

    exists: bool = True

    def describe(self) -> str:
        return "tool is listed" if self.exists else "tool is not listed"

    def to_json(self) -> dict[str, Any]:
        return {"toolExists": self.exists}


@dataclass(frozen=True)
class InputSchemaAssertion:
    """Catalog: the tool's inputSchema has not changed from this snapshot."""

    schema: Any

    def describe(self) -> str:
        return "inputSchema unchanged"

    def to_json(self) -> dict[str, Any]:
        return {"inputSchema": self.schema}


Assertion = (
    OutcomeAssertion
    | PointerAssertion
    | OutputSchemaAssertion
    | SnapshotAssertion
    | LatencyAssertion
    | ToolExistsAssertion
    | InputSchemaAssertion
)


@dataclass(frozen=True)
class SavedAnswer:
    """A recorded answer to what the server asks during the call (sampling, elicitation,
    roots): its method, the params it answered (matched first), and the result or the
    rejection message."""

    method: str
    params: dict[str, Any] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    reject: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"method": self.method}
        if self.params:
            out["params"] = self.params
        if self.reject is not None:
            out["reject"] = self.reject
        else:
            out["result"] = self.result if self.result is not None else {}
        return out


@dataclass(frozen=True)
class SavedCall:
    """One saved call. Which fields apply depends on `kind`:

    - tool: `tool`, `arguments`;  resource: `uri`;  prompt: `prompt`, `arguments`;
    - completion: `ref` ({"type": "ref/prompt", "name"} or {"type": "ref/resource",
      "uri"}), `argument` ({"name", "value"}), `context` (other arguments, optional);
    - catalog: `tool` (checked in tools/list; nothing is called).

    Strings in arguments may hold `${env:NAME}`, resolved when the call runs.
    """

    name: str
    kind: CallKind
    tool: str | None = None
    uri: str | None = None
    prompt: str | None = None
    ref: dict[str, Any] | None = None
    argument: dict[str, Any] | None = None
    context: dict[str, Any] | None = None
    arguments: dict[str, Any] | None = None
    timeout_ms: float | None = None
    answers: tuple[SavedAnswer, ...] = ()
    assertions: tuple[Assertion, ...] = ()

    @property
    def method(self) -> str:
        return METHOD_OF_KIND[self.kind]

    @property
    def target(self) -> str:
        """What is called: the tool or prompt name, the URI, or the completion's ref."""
        if self.kind in ("tool", "catalog"):
            return self.tool or ""
        if self.kind == "resource":
            return self.uri or ""
        if self.kind == "prompt":
            return self.prompt or ""
        ref = self.ref or {}
        return str(ref.get("name") or ref.get("uri") or "")

    def params(self) -> dict[str, Any]:
        """The request's params, before `${env:NAME}` is resolved."""
        if self.kind == "tool":
            return tool_call_params(self.tool, dict(self.arguments or {}))
        if self.kind == "resource":
            return {"uri": self.uri}
        if self.kind == "prompt":
            out: dict[str, Any] = {"name": self.prompt}
            if self.arguments:
                out["arguments"] = dict(self.arguments)
            return out
        if self.kind == "completion":
            params: dict[str, Any] = {"ref": self.ref, "argument": self.argument}
            if self.context:
                params["context"] = self.context
            return params
        return {}

    def with_assertions(self, assertions: tuple[Assertion, ...]) -> SavedCall:
        return replace(self, assertions=assertions)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        for key, value in (
            ("tool", self.tool),
            ("uri", self.uri),
            ("prompt", self.prompt),
            ("ref", self.ref),
            ("argument", self.argument),
            ("context", self.context),
            ("arguments", self.arguments),
        ):
            if value is not None:
                out[key] = value
        if self.timeout_ms is not None:
            out["timeoutMs"] = _number(self.timeout_ms)
        if self.answers:
            out["answers"] = [a.to_json() for a in self.answers]
        out["assert"] = [a.to_json() for a in self.assertions]
        return out


@dataclass
class Collection:
    """A named list of saved calls (names unique), as kept in one file."""

    name: str = ""
    calls: list[SavedCall] = field(default_factory=list)
    description: str = ""
    era: str = ""  # legacy | modern | auto: how to connect when the runner is not told
    version: int = FORMAT_VERSION

    def call(self, name: str) -> SavedCall | None:
        return next((c for c in self.calls if c.name == name), None)

    def unique_name(self, base: str) -> str:
        """`base`, or `base (2)`, `base (3)`... : a name no call has yet."""
        taken = {c.name for c in self.calls}
        if base not in taken:
            return base
        n = 2
        while f"{base} ({n})" in taken:
            n += 1
        return f"{base} ({n})"

    def add(self, call: SavedCall) -> SavedCall:
        """Append `call` (renamed with unique_name if its name is taken); returns it."""
        if self.call(call.name) is not None:
            call = replace(call, name=self.unique_name(call.name))
        self.calls.append(call)
        return call

    def put(self, call: SavedCall) -> None:
        """Replace the call of the same name (or append it)."""
        for i, old in enumerate(self.calls):
            if old.name == call.name:
                self.calls[i] = call
                return
        self.calls.append(call)

    def remove(self, name: str) -> bool:
        before = len(self.calls)
        self.calls = [c for c in self.calls if c.name != name]
        return len(self.calls) != before

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": self.version, "name": self.name}
        if self.description:
            out["description"] = self.description
        if self.era:
            out["era"] = self.era
        out["calls"] = [c.to_json() for c in self.calls]
        return out


def _number(value: float) -> float | int:
    """2500.0 is written 2500, as a person would."""
    return int(value) if float(value).is_integer() else value


def _short(value: Any, limit: int = 60) -> str:
    return terminal_value(value, limit)


def _short_text(text: str, limit: int = 60) -> str:
    """A pattern on one line, safe to print (controls shown as escapes), cut with …."""
    shown = terminal_text(text, keep="")
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"
