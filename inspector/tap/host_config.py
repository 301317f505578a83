"""Putting a tap into a host's config (Claude Desktop, VS Code, Cursor) and taking it out.

"Tap this server" rewrites one stdio server entry so the host launches it through
`mcp-inspector-qt tap --name NAME -- COMMAND ARGS...`; everything else in the entry (env,
cwd, type) stays. Only that entry's text is replaced: other entries, comments and
formatting keep every byte. The entry's original text is kept in the app's config folder
(`tap-installs.json`), so "Remove tap" puts back exactly what was there; if the entry was
edited since, or that record is gone, the command is rebuilt from the tap's own arguments
(everything after `--`) and the plan says so. Every write is preceded by a backup of the
whole file (`<file>.bak-<time>`) and refused if the file changed since it was planned.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.settings.config_import import FORMAT_LABELS, ConfigFormat, detect_format
from inspector.storage.paths import config_dir
from inspector.tap.jsonc import JsoncError, Spans, parse_spans

__all__ = [
    "ConfigEdit",
    "ConfigEditError",
    "apply_edit",
    "installs_path",
    "is_tapped",
    "plan_install",
    "plan_uninstall",
    "tap_launcher",
]

_TAP: Final = "tap"


class ConfigEditError(ValueError):
    """The edit cannot be planned or made; the message says why, for the user."""


@dataclass(frozen=True)
class ConfigEdit:
    path: Path
    name: str
    format: ConfigFormat
    action: str  # "install" | "uninstall"
    original_text: str  # the whole file as read
    new_text: str  # the whole file as it would be written
    before: str  # the entry's text before
    after: str  # the entry's text after
    note: str = ""  # e.g. "rebuilt from the tap's arguments"


def tap_launcher() -> list[str]:
    """How a host starts the tap: this interpreter, so no PATH is needed."""
    return [sys.executable, "-m", "inspector", _TAP]


def installs_path() -> Path:
    return config_dir() / "tap-installs.json"


def _tap_split(entry: dict[str, Any]) -> tuple[list[str], list[str]] | None:
    """(the tap's own words, the server command) of a tapped entry; None if not tapped."""
    args = entry.get("args")
    command = entry.get("command")
    if not isinstance(command, str) or not isinstance(args, list):
        return None
    words = [command, *(str(a) for a in args)]
    if _TAP not in words or "--" not in words:
        return None
    at = words.index(_TAP)
    head = words[:at]
    launcher = head[-1] if head else ""
    by_module = len(head) >= 3 and head[-2:] == ["-m", "inspector"]
    if not (by_module or Path(launcher).name.startswith("mcp-inspector-qt")):
        return None
    cut = words.index("--", at)
    server = words[cut + 1 :]
    return (words[at:cut], server) if server else None


def is_tapped(entry: Any) -> bool:
    return isinstance(entry, dict) and _tap_split(entry) is not None


def _servers_path(data: Any, fmt: ConfigFormat) -> tuple[str, ...]:
    if fmt == "vscode":
        if isinstance(data.get("servers"), dict):
            return ("servers",)
        if isinstance(data.get("mcp"), dict) and isinstance(data["mcp"].get("servers"), dict):
            return ("mcp", "servers")
        raise ConfigEditError('no "servers" object in this VS Code config')
    if not isinstance(data.get("mcpServers"), dict):
        raise ConfigEditError(f'no "mcpServers" object in this {FORMAT_LABELS[fmt]} config')
    return ("mcpServers",)


def _load(path: Path, name: str) -> tuple[str, Any, Spans, ConfigFormat, tuple[str, ...]]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigEditError(f"cannot read {path}: {exc.strerror or exc}") from exc
    try:
        data, spans = parse_spans(text)
    except JsoncError as exc:
        raise ConfigEditError(f"{path} is not valid JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ConfigEditError(f"{path}: the config must be a JSON object")
    try:
        fmt = detect_format(data, path)
    except ValueError as exc:
        raise ConfigEditError(f"{path}: {exc}") from exc
    key = (*_servers_path(data, fmt), name)
    if key not in spans:
        raise ConfigEditError(f'{path} has no server named "{name}"')
    return text, data, spans, fmt, key


def _entry(data: Any, key: tuple[str, ...]) -> Any:
    for part in key:
        data = data[part]
    return data


def _indent_of(text: str, start: int) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    line = text[line_start:start]
    return line[: len(line) - len(line.lstrip())]


def _dump(entry: dict[str, Any], indent: str) -> str:
    """The entry as JSON, indented like the line it starts on (tabs where the file has)."""
    text = json.dumps(entry, indent="\t" if "\t" in indent else 2, ensure_ascii=False)
    return text.replace("\n", "\n" + indent)


def plan_install(
    path: str | Path,
    name: str,
    *,
    launcher: Sequence[str] | None = None,
    session_file: str | None = None,
) -> ConfigEdit:
    path = Path(path).expanduser()
    text, data, spans, fmt, key = _load(path, name)
    entry = _entry(data, key)
    if not isinstance(entry, dict):
        raise ConfigEditError(f'"{name}" in {path} is not an object')
    if is_tapped(entry):
        raise ConfigEditError(f'"{name}" already runs through the tap')
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        raise ConfigEditError(
            f'"{name}" is not a local (stdio) server: the stdio tap needs a command'
            " (an HTTP server can be watched with tap --listen ... --upstream URL)"
        )
    args = entry.get("args", [])
    if not isinstance(args, list):
        raise ConfigEditError(f'"{name}": args is not a list')
    words = list(launcher or tap_launcher())
    ours = ["--name", name]
    if session_file:
        ours += ["--session-file", session_file]
    tapped = dict(entry)
    tapped["command"] = words[0]
    tapped["args"] = [*words[1:], *ours, "--", command, *(str(a) for a in args)]
    start, end = spans[key]
    after = _dump(tapped, _indent_of(text, start))
    return ConfigEdit(
        path, name, fmt, "install", text, text[:start] + after + text[end:], text[start:end], after
    )


def plan_uninstall(path: str | Path, name: str) -> ConfigEdit:
    path = Path(path).expanduser()
    text, data, spans, fmt, key = _load(path, name)
    entry = _entry(data, key)
    split = _tap_split(entry) if isinstance(entry, dict) else None
    if split is None:
        raise ConfigEditError(f'"{name}" in {path} does not run through the tap')
    start, end = spans[key]
    current = text[start:end]
    record = _records().get(str(path.resolve()), {}).get(name)
    if isinstance(record, dict) and record.get("installed") == current:
        original = str(record.get("original", ""))
        note = ""
    else:
        server = split[1]
        restored = dict(entry)
        restored["command"] = server[0]
        restored["args"] = server[1:]
        original = _dump(restored, _indent_of(text, start))
        note = (
            "the entry changed since the tap was put in (or its record is gone): the "
            "command was rebuilt from the tap's arguments; the formatting may differ"
        )
    return ConfigEdit(
        path,
        name,
        fmt,
        "uninstall",
        text,
        text[:start] + original + text[end:],
        current,
        original,
        note,
    )


# ------------------------------------------------------------------ writing
def _records() -> dict[str, Any]:
    try:
        data = json.loads(installs_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_records(records: dict[str, Any]) -> None:
    target = installs_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(records, f, indent=2, ensure_ascii=False)
    os.replace(tmp, target)


def _backup_path(path: Path) -> Path:
    stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.bak-{stamp}")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak-{stamp}-{n}")
        n += 1
    return candidate


def apply_edit(edit: ConfigEdit) -> Path:
    """Back the file up, write the edit, remember (or forget) the original entry. Returns
    the backup's path. Raises ConfigEditError (nothing written) if the file changed since
    the edit was planned or cannot be written."""
    path = edit.path
    try:
        now = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigEditError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if now != edit.original_text:
        raise ConfigEditError(f"{path} changed since this was planned; look again")
    backup = _backup_path(path)
    try:
        backup.write_text(now, encoding="utf-8")
        with contextlib.suppress(OSError):
            os.chmod(backup, path.stat().st_mode & 0o777)
        tmp = path.with_name(f".{path.name}.tap-tmp")
        tmp.write_text(edit.new_text, encoding="utf-8")
        with contextlib.suppress(OSError):
            os.chmod(tmp, path.stat().st_mode & 0o777)
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigEditError(f"cannot write {path}: {exc.strerror or exc}") from exc
    records = _records()
    per_file = records.setdefault(str(path.resolve()), {})
    if edit.action == "install":
        per_file[edit.name] = {"original": edit.before, "installed": edit.after}
    else:
        per_file.pop(edit.name, None)
        if not per_file:
            records.pop(str(path.resolve()), None)
    with contextlib.suppress(OSError):
        _save_records(records)
    return backup
