"""The official schema of one protocol version, loaded from package data, with validators
compiled once per definition (jsonschema, the draft each schema declares)."""

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final

from jsonschema import validators
from jsonschema.protocols import Validator
from referencing import Registry
from referencing.jsonschema import specification_with

from inspector.protocol.wire.versions import ALL_VERSIONS, LATEST_LEGACY, LATEST_MODERN, Era, era_of

__all__ = ["ItemSplit", "SchemaBundle", "bundle_for", "schema_version_for"]

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


@dataclass(frozen=True)
class ItemSplit:
    """A definition whose one array member (`tools`, `resources`, ...) is checked item by
    item: the rest of the message against `envelope` (the definition without that
    member's `items`), each item against `item` (a definition's name); `schema_path` and
    `instance_path` lead from the definition to the array (for the findings' `where` and
    pointer, as a check of the whole message would say them)."""

    envelope: Validator
    item: str
    schema_path: tuple[str, ...]
    instance_path: tuple[str, ...]


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
        self._splits: dict[tuple[str, bool, str], ItemSplit | None] = {}

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

    def item_split(self, name: str, wrapped: bool, member: str) -> ItemSplit | None:
        """How to check definition `name` item by item over its array `member` (found in
        the definition itself, or under `result` when `wrapped`): None when the schema
        does not lead there by plain properties and references (an anyOf on the way would
        make the findings of the parts differ from the whole's)."""
        key = (name, wrapped, member)
        if key not in self._splits:
            self._splits[key] = self._item_split(name, wrapped, member)
        return self._splits[key]

    def _resolve(self, node: Any) -> tuple[str, Any] | None:
        """Follow a local `$ref` to its definition: (name, body)."""
        ref = node.get("$ref") if isinstance(node, dict) else None
        prefix = f"#/{self.defs_key}/"
        if not isinstance(ref, str) or not ref.startswith(prefix):
            return None
        target = ref[len(prefix) :]
        return (target, self.defs[target]) if target in self.defs else None

    def _item_split(self, name: str, wrapped: bool, member: str) -> ItemSplit | None:
        if name not in self.defs:
            return None
        owner, node = name, self.defs[name]
        schema_path: list[str] = []
        instance_path: list[str] = []
        if wrapped:
            inner = node.get("properties", {}).get("result")
            resolved = self._resolve(inner)
            if resolved is None or set(inner) - {"$ref"} - _ANNOTATIONS:
                return None
            schema_path += ["properties", "result"]
            instance_path.append("result")
            owner, node = resolved
        array = node.get("properties", {}).get(member)
        if not isinstance(array, dict) or set(array) - {"items", "type"} - _ANNOTATIONS:
            return None
        item = self._resolve(array.get("items"))
        if item is None or set(array["items"]) != {"$ref"}:
            return None
        schema_path += ["properties", member, "items"]
        # The envelope: the same schema, but the owner's array says nothing of its items.
        body = copy.deepcopy(self.defs[owner])
        del body["properties"][member]["items"]
        schema = dict(self.schema)
        schema[self.defs_key] = {**self.defs, owner: body}
        base = f"{_BASE}-envelope-{owner}-{member}"
        meta = str(self.schema.get("$schema", "https://json-schema.org/draft/2020-12/schema"))
        spec = specification_with(meta.rstrip("#"))
        registry: Registry[Any] = Registry().with_resource(base, spec.create_resource(schema))
        envelope = self._cls({"$ref": f"{base}#/{self.defs_key}/{name}"}, registry=registry)
        return ItemSplit(envelope, item[0], tuple(schema_path), tuple(instance_path))

    def string_members(self, name: str) -> frozenset[str]:
        """The members of definition `name` that may hold any string (`{"type": "string"}`
        and annotations, nothing else): a value's validity depends on them only through
        their being strings. Empty when the definition itself says more than properties,
        required and type (a condition between members could read their values)."""
        body = self.defs.get(name)
        if not isinstance(body, dict) or set(body) - {"properties", "required", "type"} - (
            _ANNOTATIONS | {"title"}
        ):
            return frozenset()
        props = body.get("properties", {})
        return frozenset(
            key
            for key, sub in props.items()
            if isinstance(sub, dict)
            and sub.get("type") == "string"
            and set(sub) <= _ANNOTATIONS | {"title", "type"}
        )

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
