"""Run the demo MCP server: ``python -m inspector.demo``."""

import sys

from inspector.demo.server import main

sys.exit(main())
