"""MCP Apps, the host side (the `io.modelcontextprotocol/ui` extension, ext-apps 2026-01-26):
which tools declare a `ui://` app and how to read it (`meta`), the sandbox's network policy
(`csp`), the app <-> host JSON-RPC over postMessage with its consent and rate limits
(`host`, `limits`), and the trace rows of those messages (`trace`). Qt-free: the WebEngine
view in `inspector.ui.mcp_apps` only moves strings."""
