"""completion/complete for prompt arguments and template variables, Qt-free.

Whether to ask at all depends on the protocol version: 2024-11-05 had completion/complete
but no `completions` capability, so it is allowed there; from 2025-03-26 on the server
must declare `capabilities.completions`. `context.arguments` (the arguments already
filled) exists from 2025-06-18 on and is sent only there. Debouncing is the UI's job.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from inspector.protocol.wire.versions import features

__all__ = [
    "MAX_VALUES",
    "Completer",
    "CompletionResult",
    "completion_params",
    "completions_available",
    "context_arguments",
    "parse_completion_result",
    "prompt_ref",
    "resource_ref",
]

# spec: completion.values "Must not exceed 100 items".
MAX_VALUES: Final = 100
_CONTEXT_SINCE: Final = "2025-06-18"


class _SessionLike(Protocol):
    @property
    def protocol_version(self) -> str | None: ...

    @property
    def server_capabilities(self) -> dict[str, Any]: ...

    async def request(
        self, method: str, params: dict[str, Any] | None = None
    ) -> dict[str, Any]: ...


def prompt_ref(name: str) -> dict[str, Any]:
    return {"type": "ref/prompt", "name": name}


def resource_ref(uri_template: str) -> dict[str, Any]:
    """spec 2025-06-18: ResourceTemplateReference ("ref/resource" with the template's uri)."""
    return {"type": "ref/resource", "uri": uri_template}


def completions_available(
    capabilities: dict[str, Any] | None, protocol_version: str | None
) -> tuple[bool, str]:
    """(may we ask, why not). 2024-11-05 had no capability for it: allowed."""
    if protocol_version is None:
        return False, "not connected"
    if not features(protocol_version).completions_capability:
        return True, ""
    caps = capabilities or {}
    if isinstance(caps.get("completions"), dict):
        return True, ""
    return False, "the server does not declare the completions capability"


def context_arguments(
    values: dict[str, Any], field_name: str, names: list[str] | None = None
) -> dict[str, str]:
    """The other arguments already filled, as strings (the spec's context.arguments is a
    string map). Empty values are left out; so is the field being completed."""
    out: dict[str, str] = {}
    for name, value in values.items():
        if name == field_name or (names is not None and name not in names):
            continue
        if value is None or value == "" or value == [] or value == {}:
            continue
        if isinstance(value, str):
            out[name] = value
        elif isinstance(value, bool):
            out[name] = "true" if value else "false"
        elif isinstance(value, int | float):
            out[name] = str(value)
        elif isinstance(value, list):
            out[name] = ",".join(str(v) for v in value)
    return out


def completion_params(
    ref: dict[str, Any],
    argument: str,
    value: str,
    filled: dict[str, str],
    protocol_version: str | None,
) -> dict[str, Any]:
    params: dict[str, Any] = {"ref": ref, "argument": {"name": argument, "value": value}}
    if filled and protocol_version is not None and protocol_version >= _CONTEXT_SINCE:
        params["context"] = {"arguments": dict(filled)}
    return params


@dataclass(frozen=True)
class CompletionResult:
    values: list[str]
    total: int | None = None
    has_more: bool = False
    problems: list[str] = field(default_factory=list)


def parse_completion_result(result: Any) -> CompletionResult:
    """Lenient: keep string values, report the rest."""
    if not isinstance(result, dict) or not isinstance(result.get("completion"), dict):
        return CompletionResult([], problems=["the result has no 'completion' object"])
    completion = result["completion"]
    raw = completion.get("values")
    problems: list[str] = []
    if not isinstance(raw, list):
        return CompletionResult([], problems=["'completion.values' is not a list"])
    values = [v for v in raw if isinstance(v, str)]
    if len(values) != len(raw):
        problems.append(f"{len(raw) - len(values)} value(s) are not strings")
    if len(raw) > MAX_VALUES:
        problems.append(f"{len(raw)} values (the spec allows at most {MAX_VALUES})")
    total = completion.get("total")
    has_more = completion.get("hasMore")
    return CompletionResult(
        values,
        total if isinstance(total, int) and not isinstance(total, bool) else None,
        has_more is True,
        problems,
    )


class Completer:
    """Asks one session for completions of one reference (a prompt or a template)."""

    def __init__(
        self, session: _SessionLike, ref: dict[str, Any], names: list[str] | None = None
    ) -> None:
        self.session = session
        self.ref = ref
        self.names = names
        self.last: CompletionResult | None = None

    @property
    def available(self) -> tuple[bool, str]:
        return completions_available(
            self.session.server_capabilities, self.session.protocol_version
        )

    async def complete(self, field_name: str, prefix: str, values: dict[str, Any]) -> list[str]:
        """Suggestions for `field_name` given what is typed; raises the session's errors."""
        ok, _why = self.available
        if not ok:
            return []
        params = completion_params(
            self.ref,
            field_name,
            prefix,
            context_arguments(values, field_name, self.names),
            self.session.protocol_version,
        )
        self.last = parse_completion_result(
            await self.session.request("completion/complete", params)
        )
        return self.last.values
