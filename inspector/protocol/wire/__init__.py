"""The wire vocabulary of MCP: JSON-RPC framing, JSON text at its edges, protocol versions and
eras, the errors of the core, pagination and the 2026-07-28 HTTP metadata headers. Knows no
connection."""
