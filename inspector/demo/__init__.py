"""The bundled demo MCP server (stdio, both eras, stdlib only): `python -m inspector.demo`."""
