"""`python -m inspector.conformance`: the conformance suite's client command."""

from __future__ import annotations

import sys

from inspector.conformance.client import main

if __name__ == "__main__":
    sys.exit(main())
