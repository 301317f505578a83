"""The hand-written feature table in versions.py must match each official schema.json."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from inspector.protocol.wire.versions import ALL_VERSIONS, MODERN_VERSIONS, Era, features
from tests.helpers.peers import SPEC_DIR

SPEC = SPEC_DIR


@cache
def definitions(version: str) -> dict[str, Any]:
    path = SPEC / version / "schema.json"
    if not path.is_file():
        pytest.skip(f"official schema not found at {path} (shared/spec is not laid out here)")
    schema = json.loads(path.read_text(encoding="utf-8"))
    defs = schema.get("$defs") or schema.get("definitions")
    assert isinstance(defs, dict), f"{path}: no $defs/definitions"
    return defs


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def members(version: str, union: str) -> list[dict[str, Any]]:
    """The definitions a union names. A union of one is written as the definition itself."""
    defs = definitions(version)
    node = defs[union]
    if "anyOf" in node:
        return [defs[_ref_name(item["$ref"])] for item in node["anyOf"]]
    if "$ref" in node:
        return [defs[_ref_name(node["$ref"])]]
    return [node]


def method_of(definition: dict[str, Any]) -> str:
    method = definition["properties"]["method"]
    if "const" in method:
        return str(method["const"])
    (only,) = method["enum"]
    return str(only)


def methods(version: str, union: str) -> frozenset[str]:
    return frozenset(method_of(d) for d in members(version, union))


def content_types(version: str) -> frozenset[str]:
    defs = definitions(version)
    if "ContentBlock" in defs:
        blocks = members(version, "ContentBlock")
    else:
        # 2024-11-05 and 2025-03-26 have no ContentBlock: the union sits in CallToolResult.
        items = defs["CallToolResult"]["properties"]["content"]["items"]
        blocks = [defs[_ref_name(item["$ref"])] for item in items["anyOf"]]
    return frozenset(str(block["properties"]["type"]["const"]) for block in blocks)


def server_requests(version: str) -> frozenset[str]:
    defs = definitions(version)
    if "ServerRequest" in defs:
        return methods(version, "ServerRequest")
    # 2026-07-28: servers send no requests; what they ask for is an InputRequest.
    assert "InputRequest" in defs, f"{version}: neither ServerRequest nor InputRequest"
    return methods(version, "InputRequest")


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_client_requests_match_the_schema(version: str) -> None:
    assert features(version).client_requests == methods(version, "ClientRequest")


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_server_requests_match_the_schema(version: str) -> None:
    assert features(version).server_requests == server_requests(version)


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_client_notifications_match_the_schema(version: str) -> None:
    assert features(version).client_notifications == methods(version, "ClientNotification")


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_server_notifications_match_the_schema(version: str) -> None:
    assert features(version).server_notifications == methods(version, "ServerNotification")


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_content_types_match_the_schema(version: str) -> None:
    assert features(version).content_types == content_types(version)


def test_modern_input_requests_are_the_three_asks() -> None:
    assert server_requests("2026-07-28") == {
        "sampling/createMessage",
        "roots/list",
        "elicitation/create",
    }


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_era_matches_the_handshake_the_schema_defines(version: str) -> None:
    client = methods(version, "ClientRequest")
    if features(version).era is Era.LEGACY:
        assert "initialize" in client
        assert "server/discover" not in client
    else:
        assert version in MODERN_VERSIONS
        assert "initialize" not in client
        assert "server/discover" in client


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_feature_flags_match_the_schema(version: str) -> None:
    defs = definitions(version)
    f = features(version)
    assert f.tool_annotations == ("ToolAnnotations" in defs)
    assert f.structured_content == (
        "structuredContent" in defs["CallToolResult"].get("properties", {})
    )
    assert f.titles == ("title" in defs["Tool"].get("properties", {}))
    assert f.icons == ("icons" in defs["Tool"].get("properties", {}))
    assert f.elicitation_url_mode == ("ElicitRequestURLParams" in defs)
    assert f.completions_capability == (
        "completions" in defs["ServerCapabilities"].get("properties", {})
    )
    assert f.json_rpc_batches == ("JSONRPCBatchRequest" in defs)
