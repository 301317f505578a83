"""The session floor: the async driver, calls, the MCP client API, errors, the responder."""
