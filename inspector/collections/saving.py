"""A request as a saved call: what "Save call" (a form, the JSON editor, a traffic row) and
"from a session" share. The recorded outcome and result become its assertions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from inspector.collections.collection import (
    Assertion,
    CallKind,
    OutcomeAssertion,
    SavedAnswer,
    SavedCall,
    SnapshotAssertion,
)
from inspector.collections.env_refs import secret_refs
from inspector.collections.snapshots import snapshot_of

__all__ = ["KIND_OF_METHOD", "default_name", "saved_call_for"]

KIND_OF_METHOD: Final[dict[str, CallKind]] = {
    "tools/call": "tool",
    "resources/read": "resource",
    "prompts/get": "prompt",
    "completion/complete": "completion",
}


def default_name(method: str, params: Mapping[str, Any]) -> str:
    """The name a saved call gets unless the user gives one: the tool's name, `read URI`,
    `prompt NAME`, `complete NAME ARG`."""
    if method == "tools/call":
        return str(params.get("name") or "tool")
    if method == "resources/read":
        return f"read {params.get('uri')}"
    if method == "prompts/get":
        return f"prompt {params.get('name')}"
    ref, argument = params.get("ref"), params.get("argument")
    ref_name = (ref.get("name") or ref.get("uri")) if isinstance(ref, dict) else None
    arg_name = argument.get("name") if isinstance(argument, dict) else None
    return f"complete {ref_name} {arg_name}"


def saved_call_for(
    method: str,
    params: Mapping[str, Any],
    *,
    name: str | None = None,
    result: dict[str, Any] | None = None,
    error: dict[str, Any] | None = None,
    answers: tuple[SavedAnswer, ...] = (),
    snapshot: bool = True,
    secrets: Mapping[str, str] | None = None,
    other_secrets: tuple[str, ...] = (),
) -> SavedCall:
    """A saved call for a tools/call, resources/read, prompts/get or completion/complete
    request. With a `result`: an outcome assertion (ok or isError) and, with `snapshot`,
    the result as its snapshot; with an `error`: the outcome "error" with its code.
    `secrets` (env name -> value) are written as `${env:NAME}` in the arguments, and
    `other_secrets` as the redaction mark. Raises ValueError for another method or
    params that do not fit it."""
    kind = KIND_OF_METHOD.get(method)
    if kind is None:
        raise ValueError(f"{method} cannot be saved as a call (only {', '.join(KIND_OF_METHOD)})")
    clean = {k: v for k, v in params.items() if k != "_meta"}
    if secrets or other_secrets:
        clean = secret_refs(clean, secrets or {}, other_secrets)
    asserts: list[Assertion] = []
    if error is not None:
        code = error.get("code")
        asserts.append(OutcomeAssertion("error", code if isinstance(code, int) else None))
    elif result is not None:
        asserts.append(OutcomeAssertion("isError" if result.get("isError") is True else "ok"))
        if snapshot:
            asserts.append(SnapshotAssertion(snapshot_of(result)))
    fields: dict[str, Any] = {"answers": answers, "assertions": tuple(asserts)}
    if kind == "tool":
        fields["tool"] = _string(clean, "name", method)
        arguments = clean.get("arguments")
        fields["arguments"] = dict(arguments) if isinstance(arguments, dict) else {}
    elif kind == "resource":
        fields["uri"] = _string(clean, "uri", method)
    elif kind == "prompt":
        fields["prompt"] = _string(clean, "name", method)
        if isinstance(clean.get("arguments"), dict):
            fields["arguments"] = dict(clean["arguments"])
    else:
        ref, argument = clean.get("ref"), clean.get("argument")
        if not isinstance(ref, dict) or ref.get("type") not in ("ref/prompt", "ref/resource"):
            raise ValueError("completion/complete needs a ref of type ref/prompt or ref/resource")
        if not isinstance(argument, dict) or not all(
            isinstance(argument.get(k), str) for k in ("name", "value")
        ):
            raise ValueError("completion/complete needs an argument with a name and a value")
        fields.update(ref=dict(ref), argument=dict(argument))
        if isinstance(clean.get("context"), dict):
            fields["context"] = dict(clean["context"])
    return SavedCall(name or default_name(method, clean), kind, **fields)


def _string(params: Mapping[str, Any], key: str, method: str) -> str:
    value = params.get(key)
    if not isinstance(value, str) or not value:
        raise ValueError(f"{method} needs {key!r} (a string)")
    return value
