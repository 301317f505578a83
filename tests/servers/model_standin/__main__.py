"""`python -m tests.servers.model_standin --script FILE [--port N]`: serve the stand-in,
print its base URL on stdout, serve until killed."""

from __future__ import annotations

import argparse
import contextlib
import sys

from tests.servers.model_standin.server import StandIn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.servers.model_standin")
    parser.add_argument("--script", help="the JSON script (see the package docstring)")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    args = parser.parse_args(argv)
    standin = StandIn(args.script or {"rules": []}, args.port)
    print(standin.base_url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        standin.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
