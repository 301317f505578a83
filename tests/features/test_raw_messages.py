"""Templates and warnings of the raw composer (Qt-free)."""

from __future__ import annotations

import json

from inspector.features.raw_messages import check_message, methods_for, template_for


def test_every_method_of_every_version_has_a_template_that_checks_clean() -> None:
    for version in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"):
        requests, notifications = methods_for(version)
        for method in [*requests, *notifications]:
            text = template_for(method, version, 5)
            message = json.loads(text)
            assert message["method"] == method
            assert ("id" in message) == (method in requests)
            assert check_message(text, version) == [], (version, method)


def test_modern_templates_carry_meta_and_legacy_do_not() -> None:
    modern = json.loads(template_for("tools/list", "2026-07-28", 3))
    assert modern["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    legacy = json.loads(template_for("tools/list", "2025-11-25", 3))
    assert "_meta" not in legacy["params"]


def test_warnings_are_specific() -> None:
    v = "2025-11-25"
    assert check_message("{", v)[0].startswith("not valid JSON")
    assert check_message("[]", v) == [
        "a JSON array is a batch: MCP dropped batches after 2025-03-26"
    ]
    assert '"jsonrpc" must be "2.0"' in check_message('{"id":1,"method":"ping"}', v)
    assert check_message('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}', v) == [
        "tools/call needs params.name"
    ]
    assert check_message('{"jsonrpc":"2.0","method":"tools/list"}', v) == [
        "tools/list is a request: it needs an id"
    ]
    assert check_message('{"jsonrpc":"2.0","id":true,"method":"ping"}', v) == [
        '"id" must be a string or an integer'
    ]
    assert "server/discover is not a client request in protocol 2025-11-25" in check_message(
        '{"jsonrpc":"2.0","id":1,"method":"server/discover"}', v
    )
    missing_meta = check_message('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', "2026-07-28")
    assert missing_meta and "modern requests carry _meta" in missing_meta[0]
