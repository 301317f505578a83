"""The client for the official MCP conformance suite, and how it authorizes."""
