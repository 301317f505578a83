"""Run the demo MCP server: ``python -m inspector.demo [--http HOST:PORT]``."""

import sys

from inspector.demo.cli import main

sys.exit(main())
