"""Which tools have an app, reading the app resource, and the network policy from its CSP."""

from __future__ import annotations

import base64

import pytest

from inspector.features.mcp_apps.csp import NetworkPolicy, csp_header
from inspector.features.mcp_apps.meta import (
    AppResourceError,
    CspDeclaration,
    app_resource_uri,
    parse_app_resource,
)

MIME = "text/html;profile=mcp-app"


def test_resource_uri_from_both_meta_forms() -> None:
    assert app_resource_uri({"_meta": {"ui": {"resourceUri": "ui://a/b"}}}) == "ui://a/b"
    assert app_resource_uri({"_meta": {"ui/resourceUri": "ui://a/c"}}) == "ui://a/c"
    assert app_resource_uri({"_meta": {"ui": {"resourceUri": "https://x"}}}) is None
    assert app_resource_uri({"_meta": "junk"}) is None
    assert app_resource_uri({}) is None


def test_parse_text_and_blob_and_csp() -> None:
    meta = {"ui": {"csp": {"connectDomains": ["https://api.x.com", 5], "resourceDomains": "no"}}}
    result = {"contents": [{"uri": "ui://a", "mimeType": MIME, "text": "<p>", "_meta": meta}]}
    app = parse_app_resource("ui://a", result)
    assert app.html == "<p>"
    assert app.csp.connect == ("https://api.x.com",)
    assert len(app.warnings) == 2
    blob = base64.b64encode(b"<b>").decode()
    app = parse_app_resource(
        "ui://a", {"contents": [{"uri": "ui://a", "mimeType": MIME, "blob": blob}]}
    )
    assert app.html == "<b>"


@pytest.mark.parametrize(
    ("result", "reason"),
    [
        ({}, "no contents"),
        ({"contents": [{"uri": "ui://a", "mimeType": "text/html", "text": "x"}]}, "not an MCP App"),
        ({"contents": [{"uri": "ui://a", "mimeType": MIME}]}, "neither text nor blob"),
        ({"contents": [{"uri": "ui://a", "mimeType": MIME, "blob": "%%"}]}, "not base64"),
    ],
)
def test_bad_resources_say_why(result: dict[str, object], reason: str) -> None:
    with pytest.raises(AppResourceError, match=reason):
        parse_app_resource("ui://a", result)


def test_policy_allows_only_declared_origins() -> None:
    policy = NetworkPolicy(
        CspDeclaration(
            connect=("https://api.x.com", "https://*.cdn.io:8443"),
            resource=("https://static.y.org", "'unsafe-eval'", "https://a.b; script-src *"),
        )
    )
    assert policy.check("https://api.x.com/v1", "connect") is None
    assert policy.check("wss://api.x.com/ws", "connect") is None
    assert policy.check("https://a.cdn.io:8443/x", "connect") is None
    assert policy.check("https://cdn.io:8443/x", "connect") is not None
    assert policy.check("https://api.x.com/v1", "resource") is not None
    reason = policy.check("https://evil.com/x.js", "resource")
    assert reason is not None and "resourceDomains" in reason
    assert policy.check("file:///etc/passwd", "resource") == "the app may not read local files"
    assert policy.check("data:image/png;base64,AA", "resource") is None
    assert len(policy.warnings) == 2  # the keyword and the smuggled directive
    header = csp_header(policy)
    assert "unsafe-eval" not in header and "script-src *" not in header
    assert "connect-src https://api.x.com https://*.cdn.io:8443" in header


def test_nothing_declared_means_no_network() -> None:
    header = csp_header(NetworkPolicy(CspDeclaration()))
    assert "connect-src 'none'" in header and "frame-src 'none'" in header
    assert "default-src 'none'" in header
