"""Peak memory of `cli --method tools/list` against hostile HTTP answers, as a ratio to a
floor measured in the same run (the same command against a well-behaved answer).

  python bench/http_bounds.py [--limit-mb 64] [--sse-mb 200] [--gzip-mb 1024]

Cases (tests/servers/misbehaving/http_server.py):
  ok        a plain JSON answer (the floor)
  bigevent  one SSE data line of --sse-mb MiB before the answer
  gzipbomb  a gzip body that inflates to --gzip-mb MiB

Memory must stay bounded by the message limit: the script prints each case's peak RSS,
its excess over the floor, and that excess as a multiple of the limit.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.helpers.http_servers import free_port, serving  # noqa: E402

SERVER = ROOT / "tests" / "servers" / "misbehaving" / "http_server.py"


def peak_rss_kb(url: str, limit_mb: int) -> tuple[int, float, int]:
    """(peak RSS in KiB, seconds, exit code) of one CLI run."""
    command = [
        "/usr/bin/time",
        "-f",
        "maxrss=%M",
        sys.executable,
        "-m",
        "inspector",
        "cli",
        "--method",
        "tools/list",
        "--url",
        url,
        "--max-message-mb",
        str(limit_mb),
        "--timeout",
        "120",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.monotonic()
    proc = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    seconds = time.monotonic() - started
    found = re.findall(r"maxrss=(\d+)", proc.stderr)
    return int(found[-1]) if found else 0, seconds, proc.returncode


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit-mb", type=int, default=64)
    parser.add_argument("--sse-mb", type=int, default=200)
    parser.add_argument("--gzip-mb", type=int, default=1024)
    args = parser.parse_args()
    port = free_port()
    with serving([([sys.executable, str(SERVER), "--port", str(port)], {}, port)]) as (served,):
        cases = {
            "ok": f"{served.base}/ok/mcp",
            "bigevent": f"{served.base}/bigevent/mcp?mb={args.sse_mb}",
            "gzipbomb": f"{served.base}/gzipbomb/mcp?mb={args.gzip_mb}",
        }
        floor = 0
        for name, url in cases.items():
            rss, seconds, code = peak_rss_kb(url, args.limit_mb)
            if name == "ok":
                floor = rss
            excess = (rss - floor) / 1024
            print(
                f"{name:9} exit {code}  peak {rss / 1024:6.0f} MiB  "
                f"x{rss / max(floor, 1):4.1f} the floor  "
                f"excess {excess:6.0f} MiB = {excess / args.limit_mb:4.2f} x the "
                f"{args.limit_mb} MiB limit  ({seconds:.1f} s, server time included)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
