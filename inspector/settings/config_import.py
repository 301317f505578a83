"""Import servers from the MCP config files users already have, and export back.

Qt-free. Formats:

* Claude Desktop ``claude_desktop_config.json``: ``{"mcpServers": {name: {command, args,
  env}}}``;
* VS Code ``.vscode/mcp.json`` and the user ``mcp.json``: ``{"servers": {name: {type:
  "stdio"|"http"|"sse", command, args, env, cwd | url, headers}}, "inputs": [...]}`` (and
  the older ``settings.json`` form ``{"mcp": {"servers": ...}}``);
* Cursor ``.cursor/mcp.json``: ``{"mcpServers": {name: {command, args, env} | {url,
  headers}}}``.

Values that look secret (API keys, tokens, Authorization) are marked secret, so saving
the imported profile moves them to the keyring. Placeholders such as ``${input:key}``
cannot be resolved here: they become empty secrets, with a warning.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from inspector.settings.profiles import EnvVar, HeaderEntry, HttpSettings, Profile, StdioSettings

__all__ = [
    "FORMAT_LABELS",
    "ConfigFormat",
    "ImportResult",
    "detect_format",
    "export_entry",
    "export_snippet",
    "import_file",
    "known_config_files",
    "parse_config",
    "profile_from_entry",
    "strip_jsonc",
]

ConfigFormat = Literal["claude", "vscode", "cursor"]
FORMAT_LABELS: Final[dict[ConfigFormat, str]] = {
    "claude": "Claude Desktop",
    "vscode": "VS Code",
    "cursor": "Cursor",
}
_SECRET_ENV: Final = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH", re.I)
_SECRET_HEADER: Final = re.compile(
    r"^(authorization|cookie|proxy-authorization)$|key|token|secret", re.I
)
_PLACEHOLDER: Final = re.compile(r"\$\{(input|env|workspaceFolder|userHome)[^}]*\}")


@dataclass
class ImportResult:
    format: ConfigFormat
    profiles: list[Profile] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    source: str | None = None


def detect_format(data: Any, path: Path | None = None) -> ConfigFormat:
    """Guess the format from the content first, then the file name."""
    if isinstance(data, dict):
        if "servers" in data or ("mcp" in data and isinstance(data["mcp"], dict)):
            return "vscode"
        if "mcpServers" in data:
            if path is not None and (".cursor" in path.parts or "cursor" in path.name.lower()):
                return "cursor"
            return "claude"
    if path is not None:
        if "claude" in path.name.lower():
            return "claude"
        if ".vscode" in path.parts:
            return "vscode"
        if ".cursor" in path.parts:
            return "cursor"
    raise ValueError(
        "this does not look like an MCP config: expected a top-level "
        '"mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object'
    )


def import_file(path: str | Path, fmt: ConfigFormat | None = None) -> ImportResult:
    p = Path(path).expanduser()
    text = p.read_text(encoding="utf-8")
    result = parse_config(text, fmt, path=p)
    result.source = str(p)
    for profile in result.profiles:
        profile.source = f"{FORMAT_LABELS[result.format]}: {p}"
    return result


def parse_config(
    text: str, fmt: ConfigFormat | None = None, *, path: Path | None = None
) -> ImportResult:
    try:
        data = json.loads(_strip_jsonc(text))
    except ValueError as exc:
        raise ValueError(f"not valid JSON: {exc}") from exc
    if fmt is None:
        fmt = detect_format(data, path)
    if not isinstance(data, dict):
        raise ValueError("the config must be a JSON object")
    result = ImportResult(fmt)
    if fmt == "vscode":
        servers = data.get("servers")
        if servers is None and isinstance(data.get("mcp"), dict):
            servers = data["mcp"].get("servers")
    else:
        servers = data.get("mcpServers")
    if not isinstance(servers, dict):
        key = "servers" if fmt == "vscode" else "mcpServers"
        raise ValueError(f'no "{key}" object in this {FORMAT_LABELS[fmt]} config')
    for name, entry in servers.items():
        if not isinstance(entry, dict):
            result.warnings.append(f"{name}: skipped (not an object)")
            continue
        profile = _profile_from_entry(str(name), entry, fmt, result.warnings)
        if profile is not None:
            result.profiles.append(profile)
    return result


def _strip_jsonc(text: str) -> str:
    """VS Code's mcp.json allows // and /* */ comments and trailing commas."""
    out: list[str] = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_string = False
            i += 1
        elif c == '"':
            in_string = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(c)
            i += 1
    return re.sub(r",(\s*[}\]])", r"\1", "".join(out))


def _profile_from_entry(
    name: str, entry: dict[str, Any], fmt: ConfigFormat, warnings: list[str]
) -> Profile | None:
    kind = str(entry.get("type", "")).lower()
    if entry.get("url") or kind in ("http", "sse", "streamable-http", "streamablehttp"):
        url = str(entry.get("url") or entry.get("serverUrl") or "")
        transport: Literal["auto", "streamable-http", "sse"] = (
            "sse"
            if kind == "sse"
            else "streamable-http"
            if kind.startswith(("http", "stream"))
            else "auto"
        )
        headers_in = entry.get("headers") or {}
        headers = [
            _header(name, str(k), str(v), warnings)
            for k, v in (headers_in.items() if isinstance(headers_in, dict) else [])
        ]
        return Profile(
            name=name,
            transport="http",
            http=HttpSettings(url=url, transport=transport, headers=headers),
        )
    command = entry.get("command")
    if not isinstance(command, str) or not command:
        warnings.append(f"{name}: skipped (neither a command nor a url)")
        return None
    args = entry.get("args") or []
    if not isinstance(args, list):
        warnings.append(f"{name}: args is not a list; ignored")
        args = []
    env_in = entry.get("env") or {}
    env = [
        _env(name, str(k), "" if v is None else str(v), warnings)
        for k, v in (env_in.items() if isinstance(env_in, dict) else [])
    ]
    if entry.get("envFile"):
        warnings.append(
            f"{name}: envFile {entry['envFile']} is not read; add its variables by hand"
        )
    for arg in args:
        if _PLACEHOLDER.search(str(arg)):
            warnings.append(f"{name}: the argument {arg!r} has a placeholder; replace it by hand")
    cwd = entry.get("cwd")
    return Profile(
        name=name,
        stdio=StdioSettings(
            command=command,
            args=[str(a) for a in args],
            env=env,
            cwd=str(cwd) if isinstance(cwd, str) and cwd else None,
        ),
    )


# The inventory of configured servers (settings/inventory.py) reads the same entries.
profile_from_entry = _profile_from_entry
strip_jsonc = _strip_jsonc


def _env(server: str, key: str, value: str, warnings: list[str]) -> EnvVar:
    value, placeholder = _imported_value(f"{server}: {key}", value, warnings)
    return EnvVar(name=key, value=value, secret=placeholder or bool(_SECRET_ENV.search(key)))


def _header(server: str, key: str, value: str, warnings: list[str]) -> HeaderEntry:
    value, placeholder = _imported_value(f"{server}: header {key}", value, warnings)
    secret = placeholder or bool(_SECRET_HEADER.search(key))
    return HeaderEntry(name=key, value=value, secret=secret)


def _imported_value(what: str, value: str, warnings: list[str]) -> tuple[str, bool]:
    """(value, True) for a placeholder (not a value: left empty to be kept secret, said in
    `warnings`); else (value, False)."""
    if _PLACEHOLDER.search(value):
        warnings.append(f"{what} is {value!r} in the config; enter its value in the profile")
        return "", True
    return value, False


# ------------------------------------------------------------------ export
def _secret_placeholder(fmt: ConfigFormat, kind: str, name: str) -> str:
    if fmt == "vscode":
        return "${input:" + _input_id(kind, name) + "}"
    return f"<secret {name}: kept in the keyring>"


def _input_id(kind: str, name: str) -> str:
    return f"{kind}-{name}".lower().replace("_", "-")


def export_entry(profile: Profile, fmt: ConfigFormat) -> dict[str, Any]:
    """The server entry for one profile. Secret values are replaced by placeholders."""
    if profile.transport == "http":
        headers = {
            h.name: _secret_placeholder(fmt, "header", h.name) if h.secret else h.value
            for h in profile.http.headers
        }
        if fmt == "claude":
            # Claude Desktop's config file launches local processes only; mcp-remote bridges.
            args = ["-y", "mcp-remote", profile.http.url]
            for key, value in headers.items():
                args += ["--header", f"{key}: {value}"]
            return {"command": "npx", "args": args}
        entry: dict[str, Any] = {}
        if fmt == "vscode":
            entry["type"] = "sse" if profile.http.transport == "sse" else "http"
        entry["url"] = profile.http.url
        if headers:
            entry["headers"] = headers
        return entry
    entry = {}
    if fmt == "vscode":
        entry["type"] = "stdio"
    entry["command"] = profile.stdio.command
    entry["args"] = list(profile.stdio.args)
    env = {
        e.name: _secret_placeholder(fmt, "env", e.name) if e.secret else e.value
        for e in profile.stdio.env
    }
    if env:
        entry["env"] = env
    if profile.stdio.cwd and fmt == "vscode":
        entry["cwd"] = profile.stdio.cwd
    return entry


def export_snippet(profile: Profile, fmt: ConfigFormat) -> str:
    """A pasteable config fragment: the entry wrapped in its format's top-level key."""
    entry = export_entry(profile, fmt)
    payload: dict[str, Any]
    if fmt == "vscode":
        payload = {"servers": {profile.name: entry}}
        inputs = [
            {
                "type": "promptString",
                "id": _input_id(kind, name),
                "description": f"{name} for {profile.name}",
                "password": True,
            }
            for kind, name in profile.secret_slots()
            if (kind == "env") == (profile.transport == "stdio")
        ]
        if inputs:
            payload["inputs"] = inputs
    else:
        payload = {"mcpServers": {profile.name: entry}}
    return json.dumps(payload, indent=2, ensure_ascii=False)


# ------------------------------------------------------------------ locations
def known_config_files(project_dir: Path | None = None) -> list[tuple[ConfigFormat, str, Path]]:
    """(format, label, path) of the places these apps keep their configs, existing or not."""
    home = Path.home()
    project = project_dir or Path.cwd()
    if sys.platform == "darwin":
        app_support = home / "Library" / "Application Support"
        claude = app_support / "Claude" / "claude_desktop_config.json"
        code_user = app_support / "Code" / "User" / "mcp.json"
    elif sys.platform == "win32":
        appdata = Path(os.environ.get("APPDATA", home / "AppData" / "Roaming"))
        claude = appdata / "Claude" / "claude_desktop_config.json"
        code_user = appdata / "Code" / "User" / "mcp.json"
    else:
        xdg = Path(os.environ.get("XDG_CONFIG_HOME", home / ".config"))
        claude = xdg / "Claude" / "claude_desktop_config.json"
        code_user = xdg / "Code" / "User" / "mcp.json"
    return [
        ("claude", "Claude Desktop", claude),
        ("vscode", "VS Code (user)", code_user),
        ("vscode", "VS Code (this folder)", project / ".vscode" / "mcp.json"),
        ("cursor", "Cursor (user)", home / ".cursor" / "mcp.json"),
        ("cursor", "Cursor (this folder)", project / ".cursor" / "mcp.json"),
    ]
