"""Moving frames: stdio, streamable HTTP (both eras), HTTP+SSE, behind one `Transport`
interface. They report transport facts and never interpret MCP."""
