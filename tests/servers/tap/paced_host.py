"""A host that talks to a server the way an IDE would, slowly enough to be watched: it
starts `COMMAND` (a tap, typically), initializes, lists tools, resources and prompts, then
calls the `echo` tool every `--every` seconds, `--calls` times, and waits for each answer.
A file named by `--go` (if given) must exist before the calls start (tests release it).

    python paced_host.py [--calls N] [--every S] [--go FILE] -- COMMAND [ARGS...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any


def main() -> int:
    argv = sys.argv[1:]
    cut = argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=5)
    parser.add_argument("--every", type=float, default=0.3)
    parser.add_argument("--go")
    ns = parser.parse_args(argv[:cut])
    proc = subprocess.Popen(argv[cut + 1 :], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin and proc.stdout
    next_id = 0

    def ask(method: str, params: dict[str, Any] | None = None) -> Any:
        nonlocal next_id
        next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": next_id, "method": method}
        if params is not None:
            message["params"] = params
        proc.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        while True:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise SystemExit("the server went away")
            answer = json.loads(line)
            if answer.get("id") == next_id and "method" not in answer:
                return answer

    ask(
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {"roots": {"listChanged": True}},
            "clientInfo": {"name": "paced-host", "version": "1.0"},
        },
    )
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    proc.stdin.flush()
    for method in ("tools/list", "resources/list", "prompts/list"):
        ask(method)
    if ns.go:
        while not Path(ns.go).exists():
            time.sleep(0.05)
    for i in range(ns.calls):
        time.sleep(ns.every)
        ask("tools/call", {"name": "echo", "arguments": {"message": f"call {i + 1} from the host"}})
    proc.stdin.close()
    return proc.wait(20)


if __name__ == "__main__":
    sys.exit(main())
