"""The page an app runs in, as text: a shell document holding the app in a sandboxed
`<iframe srcdoc>` (opaque origin: no storage, no access to the shell), and the bridge script
that runs in an isolated JavaScript world of the shell (the app's scripts cannot see it).
The bridge relays `postMessage` between the frame and one QWebChannel object that carries
JSON strings only; the app's HTML gets the CSP as its first `<meta>` too."""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["BRIDGE_JS", "SANDBOX_FLAGS", "app_document", "shell_document"]

# Scripts and forms only: no allow-same-origin (an opaque origin), no popups, no top
# navigation, no downloads, no modals.
SANDBOX_FLAGS: Final = "allow-scripts allow-forms"

_HEAD: Final = re.compile(r"<head(\s[^>]*)?>", re.IGNORECASE)


def _csp_meta(csp: str) -> str:
    return f'<meta http-equiv="Content-Security-Policy" content="{html.escape(csp)}">'


def app_document(page: str, csp: str) -> str:
    """The app's HTML with the CSP first in its head (a policy set later does not cover
    what already ran)."""
    meta = _csp_meta(csp)
    match = _HEAD.search(page)
    if match is not None:
        return page[: match.end()] + meta + page[match.end() :]
    return f"<!doctype html><head>{meta}</head>" + page


def shell_document(csp: str) -> str:
    """The outer page: the same CSP (a srcdoc frame inherits it as well), the frame."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"{_csp_meta(csp)}"
        "<style>html,body{margin:0;padding:0;height:100%;overflow:hidden}"
        "iframe{border:0;width:100%;height:100%;display:block}</style></head>"
        f"<body><iframe id='mcp-app' sandbox='{SANDBOX_FLAGS}' title='MCP App'></iframe>"
        "</body></html>"
    )


# Runs in QWebEngineScript.ApplicationWorld of the main frame only, after qwebchannel.js.
BRIDGE_JS: Final = """
(function () {
  "use strict";
  new QWebChannel(qt.webChannelTransport, function (channel) {
    var host = channel.objects.mcpAppHost;
    var frame = document.getElementById("mcp-app");
    if (!host || !frame) { return; }
    window.addEventListener("message", function (event) {
      if (event.source !== frame.contentWindow) { return; }
      var text;
      try { text = JSON.stringify(event.data); } catch (e) { text = String(event.data); }
      if (typeof text !== "string") { text = String(text); }
      host.post(text);
    });
    host.deliver.connect(function (text) {
      var value;
      try { value = JSON.parse(text); } catch (e) { return; }
      if (frame.contentWindow) { frame.contentWindow.postMessage(value, "*"); }
    });
    frame.srcdoc = host.page;
  });
})();
"""
