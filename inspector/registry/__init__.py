"""The MCP Registry's server.json: validation against the vendored schema, import into
profiles and export back. Qt-free; above `inspector.settings` (it builds `Profile`s)."""
