"""`mcp-inspector-qt registry search [TEXT]` and `registry import NAME`: an MCP registry's
servers (default: the official registry, or $MCP_INSPECTOR_REGISTRY_URL, or --registry URL)
a page at a time, and one entry imported as profiles the way `profiles import` imports a
server.json (`inspector.registry.client`). What the registry sends is escaped on the terminal.

Exit codes: 0 done, 2 usage or an entry that cannot be imported, 3 the registry could not be
read (the message says why).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
import sys
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from inspector.cli.commands.profiles import import_profiles, open_store
from inspector.cli.errors import EXIT_USAGE, CommandFailed, diag, guarded
from inspector.common.terminal_text import terminal_text
from inspector.registry.client import (
    RegistryClient,
    RegistryEntry,
    RegistryError,
    RegistryPage,
    default_registry_url,
    import_entry,
)

__all__ = ["run"]

EXIT_REGISTRY: Final = 3  # as `cli`'s "connection or transport failure"
_PROG: Final = "mcp-inspector-qt registry"
T = TypeVar("T")


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    base = ns.registry or default_registry_url()
    if ns.registry_command == "search":
        return guarded(_PROG, parser, lambda: _search(ns, base))
    return guarded(_PROG, parser, lambda: _import(ns, base))


def _ask(base: str, timeout: float, call: Callable[[RegistryClient], Awaitable[T]]) -> T:
    async def go() -> T:
        async with RegistryClient(base, timeout=timeout) as client:
            return await call(client)

    try:
        return asyncio.run(go())
    except RegistryError as exc:
        raise CommandFailed(f"registry: {exc}", EXIT_REGISTRY) from None


def _line(text: str) -> str:
    return terminal_text(" ".join(text.split()), keep="")


def _search(ns: argparse.Namespace, base: str) -> int:
    page: RegistryPage = _ask(
        base, ns.timeout, lambda client: client.search(ns.text, cursor=ns.cursor)
    )
    if ns.json:
        rows = [
            {
                "name": e.name,
                "version": e.version,
                "title": e.title,
                "description": e.description,
                "status": e.status,
                "problem": e.problem,
            }
            for e in page.entries
        ]
        out = {"servers": rows, "nextCursor": page.next_cursor}
        sys.stdout.write(json.dumps(out, indent=2, ensure_ascii=True) + "\n")
        return 0
    if not page.entries:
        sys.stderr.write(f"no server in {base} matches {_line(json.dumps(ns.text))}\n")
    for entry in page.entries:
        sys.stdout.write(_row(entry) + "\n")
    if page.next_cursor:
        text = shlex.quote(ns.text) if ns.text else "''"
        # The same registry: a --registry given is repeated ($MCP_INSPECTOR_REGISTRY_URL stays)
        where = f" --registry {shlex.quote(ns.registry)}" if ns.registry else ""
        cursor = shlex.quote(page.next_cursor)
        more = f"more: mcp-inspector-qt registry{where} search {text} --cursor {cursor}"
        sys.stderr.write(_line(more) + "\n")
    return 0


def _row(entry: RegistryEntry) -> str:
    if entry.problem is not None:
        return f"{_line(entry.name)}\t-\t(cannot be imported: {_line(entry.problem)})"
    status = f" [{_line(entry.status)}]" if entry.status not in ("", "active") else ""
    return f"{_line(entry.name)}\t{_line(entry.version)}{status}\t{_line(entry.description)}"


def _import(ns: argparse.Namespace, base: str) -> int:
    entry: RegistryEntry = _ask(base, ns.timeout, lambda client: client.get(ns.name, ns.version))
    result = import_entry(entry, base)
    if result.problems:
        for problem in result.problems:
            diag(f"  {problem}")
        raise CommandFailed(
            f"registry import: the entry {entry.named} has the problem(s) above; nothing imported",
            EXIT_USAGE,
        )
    what = f"registry entry ({entry.named})"
    return import_profiles(
        open_store(),
        list(result.profiles),
        result.notes,
        what,
        only=ns.server,
        rename=ns.rename,
        without_secrets=ns.without_secret_values,
    )
