"""The frozen app's entry point: the same `main` as `mcp-inspector-qt` and `python -m inspector`."""

import sys

from inspector.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
