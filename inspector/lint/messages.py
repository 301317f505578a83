"""The linter of one session's messages: picks the definition a server message must match
(by its method, or by the request it answers), checks it, and applies the extra rules."""

from __future__ import annotations

from typing import Any, Final

from inspector.lint import rules
from inspector.lint.finding import Finding
from inspector.lint.rules import LintContext
from inspector.lint.schema_bundle import SchemaBundle, bundle_for
from inspector.lint.schema_check import SchemaMemo, schema_findings, short
from inspector.protocol.wire.versions import ALL_VERSIONS, Era, era_of

__all__ = ["MessageLinter"]

_METHOD_NOT_FOUND: Final = -32601
_UNREADABLE: Final = (-32700, -32600)  # parse error, invalid request: the id may be null


class MessageLinter:
    """Feed it every frame of a session in order (`outgoing` for ours, `incoming` for the
    server's); it returns the findings of each server message."""

    def __init__(self, version: str | None = None) -> None:
        self.version = version
        self.ctx = LintContext()
        self.memo = SchemaMemo()

    def reset(self, version: str | None) -> None:
        """A new session (or the version became known)."""
        self.version = version
        self.ctx = LintContext()

    @property
    def bundle(self) -> SchemaBundle:
        return bundle_for(self.version)

    def outgoing(self, kind: str) -> None:
        if kind == "notification":
            self.ctx.notifications_sent += 1

    def incoming(
        self,
        index: int,
        kind: str,
        method: str | None,
        value: Any,
        request: dict[str, Any] | None = None,
    ) -> list[Finding]:
        """Findings of one server message (`value` parsed; `method` the request's for a
        response; `request` the request it answers, when known)."""
        if not isinstance(value, dict):
            return []  # invalid frames are the core's to flag
        if kind == "notification" or kind == "request":
            return self._asked(index, kind, method or "", value)
        if kind == "response":
            return self._result(index, method, value, request)
        if kind == "error":
            return self._error(index, method, value)
        if kind == "invalid" and "method" not in value and ("result" in value or "error" in value):
            return self._unpaired(index, value)
        return []

    def http_headers(self, index: int, headers: dict[str, str]) -> list[Finding]:
        return self.stamp(list(rules.session_id_findings(self.ctx, index, headers)))

    # ------------------------------------------------------------------
    def stamp(self, found: list[Finding]) -> list[Finding]:
        """Findings that name no schema version get the session's."""
        version = self.bundle.version
        return [
            f
            if f.version
            else Finding(f.index, f.rule, f.message, f.pointer, f.value, f.where, version)
            for f in found
        ]

    def _asked(self, index: int, kind: str, method: str, value: dict[str, Any]) -> list[Finding]:
        bundle = self.bundle
        table = bundle.notification_defs if kind == "notification" else bundle.request_defs
        definition = table.get(method)
        found: list[Finding] = []
        if definition is None or not (
            definition.endswith("Notification") if kind == "notification" else True
        ):
            found.append(
                Finding(
                    index,
                    "unknown-method",
                    f"{method!r} is not a {kind} of protocol {bundle.version}",
                    "/method",
                    short(method),
                    rules.SPEC["unknown-method"],
                )
            )
        else:
            found += self.memo.findings(bundle, definition, value, index)
        if kind == "notification":
            found += rules.capability_findings(self.ctx, index, method)
        return self.stamp(found)

    def _unpaired(self, index: int, value: dict[str, Any]) -> list[Finding]:
        """An answer without an id, after we sent notifications: a result can answer
        nothing else; an error too, unless it is about a frame it could not read."""
        error = value.get("error")
        code = error.get("code") if isinstance(error, dict) else None
        if value.get("id") is None and self.ctx.notifications_sent and code not in _UNREADABLE:
            return self.stamp(
                [
                    Finding(
                        index,
                        "response-to-notification",
                        "the server answered a notification",
                        "/id",
                        short(value.get("id")),
                        rules.SPEC["response-to-notification"],
                    )
                ]
            )
        return []

    def _learn(self, method: str, result: dict[str, Any]) -> None:
        if method == "initialize":
            version = result.get("protocolVersion")
            if isinstance(version, str) and version in ALL_VERSIONS:
                self.version = version
        if method in ("initialize", "server/discover"):
            caps = result.get("capabilities")
            if isinstance(caps, dict):
                self.ctx.capabilities = caps

    def _result(
        self,
        index: int,
        method: str | None,
        value: dict[str, Any],
        request: dict[str, Any] | None,
    ) -> list[Finding]:
        if method is None:
            return self._unpaired(index, value)
        result = value.get("result")
        if isinstance(result, dict):
            self._learn(method, result)
        bundle = self.bundle
        definition = bundle.result_def(method)
        if isinstance(result, dict):
            if result.get("resultType") == "input_required" and bundle.has("InputRequiredResult"):
                definition = "InputRequiredResult"
            elif "task" in result and "content" not in result and bundle.has("CreateTaskResult"):
                definition = "CreateTaskResult"
        found: list[Finding] = []
        if definition is not None and bundle.has(definition + "Response"):
            # The modern schema names the whole answer (`CallToolResultResponse`: the
            # result or an InputRequiredResult): judge the message as the spec does.
            found += schema_findings(bundle, definition + "Response", value, index=index)
        elif definition is not None:
            found += schema_findings(bundle, definition, result, index=index, prefix=("result",))
        if isinstance(result, dict):
            params = request.get("params") if isinstance(request, dict) else None
            params = params if isinstance(params, dict) else {}
            found += rules.list_findings(
                self.ctx, index, method, result, params.get("cursor"), bundle.version
            )
            if method == "tools/list":
                found += rules.schema_of_tool_findings(self.ctx, index, result, bundle.draft)
            elif method == "tools/call":
                found += rules.structured_content_findings(
                    self.ctx, index, params.get("name"), result, bundle.draft
                )
        return self.stamp(found)

    def _error(self, index: int, method: str | None, value: dict[str, Any]) -> list[Finding]:
        if method is None:
            found = self._unpaired(index, value)
            if found:
                return found
        bundle = self.bundle
        found = []
        for definition in ("JSONRPCErrorResponse", "JSONRPCError"):
            if bundle.has(definition):
                found += schema_findings(bundle, definition, value, index=index)
                break
        error = value.get("error")
        code = error.get("code") if isinstance(error, dict) else None
        if (
            method == "server/discover"
            and code == _METHOD_NOT_FOUND
            and self.version is not None
            and era_of(self.version) is Era.MODERN
        ):
            found.append(
                Finding(
                    index,
                    "discover-missing",
                    "server/discover answered 'method not found' in the modern era",
                    "/error/code",
                    short(code),
                    rules.SPEC["discover-missing"],
                )
            )
        return self.stamp(found)
