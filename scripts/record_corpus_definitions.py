"""Record what each corpus server offers (docs/corpus.md): its `instructions` and every
page of tools/list, prompts/list, resources/list and resources/templates/list, into
tests/corpus/definitions.json, which the security rules' false-alarm test reads
(tests/security/test_corpus_definitions.py). Raw pipes, as scripts/probe_corpus.py.

    .venv/bin/python scripts/record_corpus_definitions.py [NAME...]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from probe_corpus import Pipe, _initialize  # noqa: E402

from tests.helpers.corpus import BY_NAME, SERVERS, Server  # noqa: E402

DEFINITIONS = REPO / "tests" / "corpus" / "definitions.json"
LISTS = (
    ("tools", "tools/list", "tools"),
    ("prompts", "prompts/list", "prompts"),
    ("resources", "resources/list", "resources"),
    ("templates", "resources/templates/list", "resourceTemplates"),
)
MAX_PAGES = 20


def record(server: Server) -> dict[str, Any]:
    """What `server` offers, every page of each list it answers."""
    entry: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="defs-") as folder:
        pipe = Pipe(server, Path(folder))
        try:
            init = _initialize(pipe)
            result = (init or {}).get("result")
            if not isinstance(result, dict):
                return {"error": "no initialize result"}
            entry["instructions"] = result.get("instructions")
            pipe.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            ident = 2
            for kind, method, key in LISTS:
                items: list[Any] = []
                cursor = None
                for _ in range(MAX_PAGES):
                    ident += 1
                    answer = pipe.request(ident, method, {"cursor": cursor} if cursor else None)
                    page = (answer or {}).get("result")
                    if not isinstance(page, dict):
                        break
                    items.extend(page.get(key) or [])
                    cursor = page.get("nextCursor")
                    if not cursor:
                        break
                entry[kind] = items
        finally:
            pipe.kill()
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="servers to record (all by default)")
    args = parser.parse_args(argv)
    chosen = [BY_NAME[n] for n in args.names] if args.names else list(SERVERS)
    kept: dict[str, Any] = json.loads(DEFINITIONS.read_text()) if DEFINITIONS.exists() else {}
    for server in chosen:
        reason = server.installed()
        if reason is not None:
            sys.stderr.write(f"skipped: {reason}\n")
            continue
        sys.stderr.write(f"recording: {server.name}\n")
        kept[server.name] = record(server)
    DEFINITIONS.write_text(json.dumps(kept, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    sys.stderr.write(f"wrote {DEFINITIONS.relative_to(REPO)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
