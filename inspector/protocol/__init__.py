"""The sans-IO MCP client: JSON-RPC framing, versions and eras, the connection state machine,
the pending-request table, events, MRTR rounds, pagination, HTTP metadata. No IO at all."""
