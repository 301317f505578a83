"""The official schema of one protocol version, loaded from package data, with validators
compiled once per definition (jsonschema, the draft each schema declares)."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any, Final

from jsonschema import validators
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.jsonschema import specification_with

from inspector.protocol.wire.versions import ALL_VERSIONS, LATEST_LEGACY, LATEST_MODERN, Era, era_of

__all__ = ["SchemaBundle", "bundle_for", "schema_version_for"]

_BASE: Final = "urn:mcp-schema"
_ANNOTATIONS: Final = frozenset({"description", "title", "$comment"})

# Results whose definition is not named after the request (`FooRequest` -> `FooResult`).
_RESULT_OVERRIDES: Final[dict[str, str]] = {
    "ping": "EmptyResult",
    "logging/setLevel": "EmptyResult",
    "resources/subscribe": "EmptyResult",
    "resources/unsubscribe": "EmptyResult",
    "tasks/result": "GetTaskPayloadResult",
}


def schema_version_for(version: str | None) -> str:
    """The shipped schema that judges `version`: itself when supported, else the latest
    of its era (an unknown future date is judged by the newest modern schema)."""
    if version in ALL_VERSIONS:
        return version
    if version and era_of(version) is Era.LEGACY:
        return LATEST_LEGACY
    return LATEST_MODERN if version else LATEST_LEGACY


class SchemaBundle:
    """One version's `schema.json`: definitions, the method tables derived from them, and
    compiled validators (built on first use, then kept)."""

    def __init__(self, version: str, schema: dict[str, Any]) -> None:
        self.version = version
        self.schema = schema
        self.defs_key = "$defs" if "$defs" in schema else "definitions"
        self.defs: dict[str, Any] = schema.get(self.defs_key, {})
        meta = str(schema.get("$schema", "https://json-schema.org/draft/2020-12/schema"))
        self._cls = validators.validator_for({"$schema": meta})
        spec = specification_with(meta.rstrip("#"))
        self._registry: Registry[Any] = Registry().with_resource(
            _BASE, spec.create_resource(schema)
        )
        self.request_defs: dict[str, str] = {}
        self.notification_defs: dict[str, str] = {}
        for name, body in self.defs.items():
            method = body.get("properties", {}).get("method", {}).get("const")
            if not isinstance(method, str):
                continue
            if name.endswith("Request"):
                self.request_defs[method] = name
            elif name.endswith("Notification"):
                self.notification_defs[method] = name
        self._validators: dict[str, Validator] = {}
        self._free: dict[str, frozenset[str]] = {}

    @property
    def draft(self) -> str:
        return "2020-12" if self.defs_key == "$defs" else "draft-07"

    def result_def(self, method: str) -> str | None:
        """The definition a successful result of `method` must match (None: not a method
        of this version)."""
        override = _RESULT_OVERRIDES.get(method)
        if override is not None and override in self.defs:
            return override
        request = self.request_defs.get(method)
        if request is None:
            return None
        name = request[: -len("Request")] + "Result"
        return name if name in self.defs else ("Result" if "Result" in self.defs else None)

    def has(self, name: str) -> bool:
        return name in self.defs

    def validator(self, name: str) -> Validator:
        """The compiled validator of definition `name` (KeyError when there is none)."""
        found = self._validators.get(name)
        if found is None:
            if name not in self.defs:
                raise KeyError(name)
            ref = {"$ref": f"{_BASE}#/{self.defs_key}/{name}"}
            found = self._cls(ref, registry=self._registry)
            self._validators[name] = found
        return found

    def free_params(self, name: str) -> frozenset[str]:
        """The `params` members of definition `name` whose schema says nothing but a
        description: any value is valid there, so a value's validity never depends on
        them (the log's `data`). Used to remember results across a flood."""
        found = self._free.get(name)
        if found is None:
            params = self.defs.get(name, {}).get("properties", {}).get("params", {})
            ref = params.get("$ref") if isinstance(params, dict) else None
            if isinstance(ref, str) and ref.rsplit("/", 1)[-1] in self.defs:
                params = self.defs[ref.rsplit("/", 1)[-1]]
            props = params.get("properties", {}) if isinstance(params, dict) else {}
            found = frozenset(
                key
                for key, sub in props.items()
                if isinstance(sub, dict) and set(sub) <= _ANNOTATIONS
            )
            self._free[name] = found
        return found

    def error_def(self) -> str | None:
        for name in ("Error", "JSONRPCErrorObject"):
            if name in self.defs:
                return name
        return None


def _load(version: str) -> dict[str, Any]:
    ref = resources.files("inspector.lint").joinpath("schemas", version, "schema.json")
    with ref.open("r", encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"the shipped schema of {version} is not a JSON object")
    return data


@functools.cache
def bundle_for(version: str | None) -> SchemaBundle:
    """The bundle that judges messages of `version` (loaded once per process)."""
    chosen = schema_version_for(version)
    return SchemaBundle(chosen, _load(chosen))
