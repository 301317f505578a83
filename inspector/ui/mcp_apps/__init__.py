"""MCP Apps on screen: the sandboxed QWebEngineView an app runs in (imported only when an
App tab shows one; QtWebEngine comes from the optional `apps` extra), its fallback (the
HTML source and how to get the extra), and the consent dialog. The protocol is
`inspector.features.mcp_apps`; this package only moves strings and asks the user."""
