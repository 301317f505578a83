"""Every example message of the official 2026-07-28 examples (copied under data/, so the
test does not depend on the spec folder) lints clean against the shipped schema; and the
shipped schemas are the official ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.lint.messages import MessageLinter
from inspector.lint.schema_bundle import bundle_for
from inspector.lint.schema_check import schema_findings
from inspector.protocol.wire.versions import ALL_VERSIONS
from tests.helpers.peers import REPO, SPEC_DIR

DATA = Path(__file__).parent / "data" / "examples-2026-07-28"
EXAMPLES = sorted(DATA.glob("*/*.json"))
BUNDLE = bundle_for("2026-07-28")
# Result definition -> the request that asks for it (to lint as a real response).
RESULT_METHOD = {
    name[: -len("Request")] + "Result": method for method, name in BUNDLE.request_defs.items()
}


def test_the_examples_are_all_there() -> None:
    assert len(EXAMPLES) >= 120
    assert {p.parent.name for p in EXAMPLES} >= {"CallToolResult", "DiscoverResult", "Tool"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_example_is_valid_against_its_definition(path: Path) -> None:
    definition = path.parent.name
    value = json.loads(path.read_text(encoding="utf-8"))
    assert schema_findings(BUNDLE, definition, value, index=0) == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_each_example_message_lints_clean_as_the_server_would_send_it(path: Path) -> None:
    """Whole messages through the message linter (method tables, the extra rules)."""
    definition = path.parent.name
    value = json.loads(path.read_text(encoding="utf-8"))
    linter = MessageLinter("2026-07-28")
    linter.ctx.capabilities = {
        "logging": {},
        "tools": {"listChanged": True},
        "prompts": {"listChanged": True},
        "resources": {"listChanged": True, "subscribe": True},
    }
    if definition in BUNDLE.notification_defs.values() and definition.endswith("Notification"):
        found = linter.incoming(0, "notification", value["method"], value)
    elif definition in RESULT_METHOD:
        found = linter.incoming(
            0, "response", RESULT_METHOD[definition], {"jsonrpc": "2.0", "id": 1, "result": value}
        )
    elif definition.endswith("ResultResponse"):
        method = RESULT_METHOD[definition[: -len("Response")]]
        found = linter.incoming(0, "response", method, value)
    elif definition.endswith("Error") and "error" in value:
        found = linter.incoming(0, "error", "tools/call", value)
    else:
        pytest.skip(f"{definition} is not a message a server sends on its own")
    assert found == []


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_the_shipped_schema_is_the_official_one(version: str) -> None:
    shipped = REPO / "inspector" / "lint" / "schemas" / version / "schema.json"
    official = SPEC_DIR / version / "schema.json"
    if not official.exists():
        pytest.skip("the spec folder is not beside the repository")
    assert json.loads(shipped.read_text("utf-8")) == json.loads(official.read_text("utf-8"))


@pytest.mark.parametrize("version", ALL_VERSIONS)
def test_every_version_knows_the_core_methods(version: str) -> None:
    bundle = bundle_for(version)
    assert bundle.version == version
    assert bundle.result_def("tools/list") == "ListToolsResult"
    assert bundle.result_def("tools/call") == "CallToolResult"
    assert bundle.notification_defs["notifications/message"] == "LoggingMessageNotification"
    assert bundle.draft == ("draft-07" if version < "2025-11-25" else "2020-12")
