"""The one entry point: `mcp-inspector-qt` and `python -m inspector`."""

from __future__ import annotations

import sys

from inspector.cli.run import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
