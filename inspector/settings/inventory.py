"""The inventory of the MCP servers configured on this machine: every server entry of every
client's config file (`inventory_places`: Claude Desktop, Claude Code, VS Code, Cursor,
Windsurf, Zed, Codex), each with its file and line, as a connection profile
(`config_import.profile_from_entry`, the Import dialog's reading of an entry).

Listing runs nothing: it reads files. A file that cannot be read, is not JSON or TOML, is
too large or holds something else than servers gets a note of its own, and the other files
are still listed. `inventory:KEY` (`find`) names one entry for `scan`, `check` and `diff`.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector.settings.config_import import profile_from_entry, strip_jsonc
from inspector.settings.inventory_places import Place, config_places
from inspector.settings.key_lines import key_lines
from inspector.settings.profiles import Profile

__all__ = [
    "INVENTORY_PREFIX",
    "MAX_CONFIG_BYTES",
    "ConfiguredServer",
    "FileNote",
    "Inventory",
    "read_inventory",
]

INVENTORY_PREFIX: Final = "inventory:"
MAX_CONFIG_BYTES: Final = 32 * 1024 * 1024  # ~/.claude.json keeps history: a few MB is normal
MAX_SERVERS_PER_FILE: Final = 1000


@dataclass(frozen=True)
class ConfiguredServer:
    """One server entry of one config file."""

    name: str  # as the file has it (raw: shown escaped or as plain text)
    client: str  # "Claude Code (user)"
    key: str  # "claude-code/github": what `inventory:KEY` takes (unique in an inventory)
    path: Path
    line: int  # 1-based; 0 when it could not be found
    profile: Profile
    warnings: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)

    @property
    def runs_code(self) -> bool:
        """A stdio entry: connecting starts its command on this machine."""
        return self.profile.transport == "stdio"

    def target(self) -> str:
        """The command line (shell-quoted) or the URL."""
        if self.profile.transport == "http":
            return self.profile.http.url
        return shlex.join([self.profile.stdio.command, *self.profile.stdio.args])

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "key": self.key,
            "client": self.client,
            "file": str(self.path),
            "line": self.line,
            "transport": self.profile.transport,
            "target": self.target(),
            "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class FileNote:
    """Why (part of) a config file was not listed."""

    client: str
    path: Path
    note: str

    def to_json(self) -> dict[str, Any]:
        return {"client": self.client, "file": str(self.path), "note": self.note}


@dataclass
class Inventory:
    servers: list[ConfiguredServer] = field(default_factory=list)
    notes: list[FileNote] = field(default_factory=list)
    files: list[Place] = field(default_factory=list)  # the files that exist (read or not)

    def find(self, ref: str) -> ConfiguredServer:
        """The entry `ref` names: its key (`claude-desktop/github`) or its name when only
        one entry has it. LookupError says why not (none, or which keys to choose from)."""
        ref = ref.removeprefix(INVENTORY_PREFIX).strip()
        for server in self.servers:
            if server.key == ref:
                return server
        named = [s for s in self.servers if s.name == ref]
        if len(named) == 1:
            return named[0]
        if named:
            keys = ", ".join(INVENTORY_PREFIX + s.key for s in named)
            raise LookupError(f"{ref!r} is configured {len(named)} times: name one of {keys}")
        known = ", ".join(s.key for s in self.servers[:20]) or "none configured"
        raise LookupError(f"no configured server {ref!r} (configured: {known})")

    def to_json(self) -> dict[str, Any]:
        return {
            "servers": [s.to_json() for s in self.servers],
            "notes": [n.to_json() for n in self.notes],
            "files": [{"client": p.client, "file": str(p.path)} for p in self.files],
        }


def read_inventory(
    project: Path | None = None,
    *,
    home: Path | None = None,
    platform: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Inventory:
    """Every configured server on this machine (and in `project`'s folder, when given)."""
    places = config_places(
        home if home is not None else Path.home(),
        project,
        platform=platform or sys.platform,
        env=os.environ if env is None else env,
    )
    inventory = Inventory()
    keys: dict[str, int] = {}
    seen: set[Path] = set()
    for place in places:
        if not place.path.exists() or place.path.resolve() in seen:
            continue  # (run from the home folder, ~/.cursor/mcp.json is the project's too)
        seen.add(place.path.resolve())
        inventory.files.append(place)
        try:
            for server in _read_place(place, inventory.notes):
                keys[server.key] = keys.get(server.key, 0) + 1
                if keys[server.key] > 1:  # the same name twice (Claude Code's projects)
                    server = _with_key(server, f"{server.key}#{keys[server.key]}")
                inventory.servers.append(server)
        except _Unreadable as exc:
            inventory.notes.append(FileNote(place.client, place.path, str(exc)))
    return inventory


class _Unreadable(Exception):
    """The file as a whole could not be read; the message is the note."""


def _with_key(server: ConfiguredServer, key: str) -> ConfiguredServer:
    return ConfiguredServer(
        server.name, server.client, key, server.path, server.line, server.profile, server.warnings
    )


def _load(place: Place) -> tuple[Any, str]:
    try:
        size = place.path.stat().st_size
        if not place.path.is_file():
            raise _Unreadable("not a file")
        if size > MAX_CONFIG_BYTES:
            limit = MAX_CONFIG_BYTES // (1024 * 1024)
            raise _Unreadable(f"too large to read ({size / 1e6:,.1f} MB; the limit is {limit} MB)")
        text = place.path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise _Unreadable(f"cannot be read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise _Unreadable(f"not UTF-8 text (byte {exc.start})") from exc
    try:
        if place.format == "codex":
            return tomllib.loads(text), text
        return json.loads(strip_jsonc(text)), text
    except tomllib.TOMLDecodeError as exc:
        raise _Unreadable(f"not valid TOML: {exc}") from exc
    except (ValueError, RecursionError) as exc:
        raise _Unreadable(f"not valid JSON: {exc}") from exc


def _read_place(place: Place, notes: list[FileNote]) -> Iterator[ConfiguredServer]:
    data, text = _load(place)
    if not isinstance(data, dict):
        raise _Unreadable("not a JSON object")
    lines = _codex_lines(text) if place.format == "codex" else key_lines(text)
    for client, path, entries in _groups(place, data):
        if entries is None:
            continue
        if not isinstance(entries, dict):
            notes.append(FileNote(place.client, place.path, f"{'.'.join(path)} is not an object"))
            continue
        items = list(entries.items())
        if len(items) > MAX_SERVERS_PER_FILE:
            notes.append(
                FileNote(
                    place.client,
                    place.path,
                    f"{len(items):,} servers under {'.'.join(path)}: "
                    f"the first {MAX_SERVERS_PER_FILE:,} are listed",
                )
            )
        for name, entry in items[:MAX_SERVERS_PER_FILE]:
            name = str(name)
            line = lines.get((*path, name), 0)
            where = f"{place.path}:{line}" if line else str(place.path)
            if not isinstance(entry, dict):
                notes.append(FileNote(client, place.path, f"{where}: {name!r} is not an object"))
                continue
            warnings: list[str] = []
            profile = profile_from_entry(name, _normalized(place, entry), "claude", warnings)
            if profile is None:
                said = "; ".join(warnings) or f"{name}: neither a command nor a url"
                notes.append(FileNote(client, place.path, f"{where}: {said}"))
                continue
            profile.source = f"{client}: {where}"
            key = f"{place.key}/{name}"
            yield ConfiguredServer(name, client, key, place.path, line, profile, tuple(warnings))


def _groups(place: Place, data: dict[str, Any]) -> Iterator[tuple[str, tuple[str, ...], Any]]:
    """(client, path of keys to the servers object, that object) of each group of servers."""
    fmt = place.format
    if fmt == "mcpServers":
        yield place.client, ("mcpServers",), data.get("mcpServers")
    elif fmt == "vscode":
        mcp = data.get("mcp")
        if "servers" in data or not isinstance(mcp, dict):
            yield place.client, ("servers",), data.get("servers")
        else:
            yield place.client, ("mcp", "servers"), mcp.get("servers")
    elif fmt == "zed":
        yield place.client, ("context_servers",), data.get("context_servers")
    elif fmt == "codex":
        yield place.client, ("mcp_servers",), data.get("mcp_servers")
    else:  # claude-code: the user's servers, then each project's ("local" scope)
        yield place.client, ("mcpServers",), data.get("mcpServers")
        projects = data.get("projects")
        if isinstance(projects, dict):
            for folder, project in projects.items():
                if isinstance(project, dict) and project.get("mcpServers"):
                    client = f"Claude Code (local: {folder})"
                    yield client, ("projects", str(folder), "mcpServers"), project["mcpServers"]


def _normalized(place: Place, entry: dict[str, Any]) -> dict[str, Any]:
    """An entry in the shape `profile_from_entry` reads (`command`, `args`, `env`, `url`)."""
    out = dict(entry)
    command = out.get("command")
    if place.format == "zed" and isinstance(command, dict):  # Zed's older {path, args, env}
        out["command"] = command.get("path")
        out.setdefault("args", command.get("args"))
        out.setdefault("env", command.get("env"))
    if not out.get("url") and isinstance(out.get("serverUrl"), str):  # Windsurf
        out["url"] = out["serverUrl"]
    if not out.get("url") and isinstance(out.get("httpUrl"), str):
        out["url"] = out["httpUrl"]
    return out


_CODEX_TABLE: Final = re.compile(
    r"^[ \t]*\[[ \t]*mcp_servers[ \t]*\.[ \t]*"
    r"(\"(?:[^\"\\]|\\.)*\"|'[^']*'|[A-Za-z0-9_-]+)[ \t]*\]",
    re.M,
)


def _codex_lines(text: str) -> dict[tuple[str, ...], int]:
    """("mcp_servers", NAME) -> the line of its `[mcp_servers.NAME]` table."""
    found: dict[tuple[str, ...], int] = {}
    for match in _CODEX_TABLE.finditer(text):
        raw = match.group(1)
        try:
            name = tomllib.loads(f"k = {raw}")["k"] if raw[0] in "\"'" else raw
        except tomllib.TOMLDecodeError:
            name = raw.strip("\"'")
        found.setdefault(("mcp_servers", str(name)), text.count("\n", 0, match.start()) + 1)
    return found
