"""Turn a server.json into profiles: one per package it can run and one per remote.

Qt-free. npm runs as ``npx -y pkg@version``, PyPI as ``uvx pkg==version`` (or ``pipx run``
when the runtime hint says so), OCI as ``docker run -i --rm image:tag``; a remote becomes an
HTTP profile with its headers. Commands are argv lists, never shell strings, and a package
name or version that is not a plain name (shell characters, a leading dash, spaces) is
refused rather than passed on. Secret values are never invented: an environment variable or
header marked ``isSecret`` is kept as an empty secret for the user to fill in; each gap is
named in the result's notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.registry.schema import SchemaProblem, load_json, pointer, quote, validate
from inspector.settings.profiles import (
    EnvVar,
    HeaderEntry,
    HttpSettings,
    HttpTransportChoice,
    Profile,
    StdioSettings,
)

__all__ = [
    "ServerJsonImport",
    "import_server_json",
    "looks_like_server_json",
    "profiles_from_document",
]

# What a package registry name may look like here (stricter than some registries allow:
# anything else is refused, never quoted into a command).
_NAMES: Final[dict[str, re.Pattern[str]]] = {
    "npm": re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*$", re.I),
    "pypi": re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$"),
    "oci": re.compile(r"^[a-z0-9][a-z0-9._/:@-]*$", re.I),
}
_VERSION: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+_!-]*$")
_ENV_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_HEADER_NAME: Final = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_VARIABLE: Final = re.compile(r"\{([A-Za-z0-9_.-]+)\}")
_RUNNERS: Final[dict[str, tuple[str, ...]]] = {
    "npm": ("npx",),
    "pypi": ("uvx", "pipx"),
    "oci": ("docker",),
}


@dataclass
class ServerJsonImport:
    """What one import gives: the profiles, what the user must fill in or should know, and
    the problems that stopped it (schema problems: nothing is imported)."""

    profiles: list[Profile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    problems: list[SchemaProblem] = field(default_factory=list)
    # The pointer of the package or remote each profile comes from, row for row: a note
    # that starts with it is that profile's.
    origins: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def notes_of(self, row: int) -> list[str]:
        """The notes about profile `row` (those about its package or remote)."""
        origin = self.origins[row]
        return [n for n in self.notes if n.startswith((origin + "/", origin + ":"))]

    def general_notes(self) -> list[str]:
        """The notes about no one profile (a package refused, nothing to run)."""
        mine = {n for row in range(len(self.origins)) for n in self.notes_of(row)}
        return [n for n in self.notes if n not in mine]


def import_server_json(data: str | bytes, *, source: str | None = None) -> ServerJsonImport:
    """Read, validate and map one server.json, a JSON array of them, or a registry entry
    (``{"server": {...}}``) or page (``{"servers": [...]}``)."""
    document, problems = load_json(data)
    if problems:
        return ServerJsonImport(problems=problems)
    documents = _documents(document)
    result = ServerJsonImport()
    if documents is None:
        result.problems.append(
            SchemaProblem("", f"A server.json is a JSON object, not {_kind_of(document)}.")
        )
        return result
    for where, doc in documents:
        found = [SchemaProblem(where + p.pointer, p.sentence) for p in validate(doc)]
        if found:
            result.problems.extend(found)
            continue
        one = profiles_from_document(doc, source=source, where=where)
        status = _registry_status(document, where)
        if status not in ("", "active"):
            result.notes.append(
                f"The registry marks {doc['name']} {doc['version']} as {status[:40]}: prefer "
                "another version or server if there is one."
            )
        result.profiles.extend(one.profiles)
        result.notes.extend(one.notes)
        result.origins.extend(one.origins)
    if result.problems:
        result.profiles.clear()
        result.origins.clear()
    return result


def looks_like_server_json(document: Any) -> bool:
    """True for a parsed server.json, an array of them, or a registry entry or page (and
    not an MCP client config, whose `servers`/`mcpServers` are objects keyed by name)."""
    if isinstance(document, list):
        return bool(document) and all(looks_like_server_json(d) for d in document)
    if not isinstance(document, dict):
        return False
    if isinstance(document.get("server"), dict) or (
        isinstance(document.get("servers"), list) and "name" not in document
    ):
        return True
    schema_url = document.get("$schema")
    if isinstance(schema_url, str) and "server.schema.json" in schema_url:
        return True
    return "name" in document and ("packages" in document or "remotes" in document)


def _kind_of(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number"
    )


REGISTRY_META: Final = "io.modelcontextprotocol.registry/official"


def _registry_status(document: Any, where: str) -> str:
    """The status the registry gives the entry whose server is at `where` ("" if none): a
    registry entry's or page entry's `_meta`, e.g. "deprecated"."""
    entry: Any = None
    if where == "/server" and isinstance(document, dict):
        entry = document
    elif where.startswith("/servers/") and where.endswith("/server"):
        index = where.split("/")[2]
        servers = document.get("servers") if isinstance(document, dict) else None
        if index.isdigit() and isinstance(servers, list) and int(index) < len(servers):
            entry = servers[int(index)]
    meta = entry.get("_meta") if isinstance(entry, dict) else None
    official = meta.get(REGISTRY_META) if isinstance(meta, dict) else None
    status = official.get("status") if isinstance(official, dict) else None
    return status if isinstance(status, str) else ""


def _documents(document: Any) -> list[tuple[str, Any]] | None:
    """(pointer, server.json) for each document in what was read; None when none can be."""
    if isinstance(document, list):
        return [(pointer([i]), d) for i, d in enumerate(document)]
    if not isinstance(document, dict):
        return None
    if "name" not in document and isinstance(document.get("server"), dict):
        return [("/server", document["server"])]
    servers = document.get("servers")
    if "name" not in document and isinstance(servers, list):
        entries: list[tuple[str, Any]] = []
        for i, entry in enumerate(servers):
            if isinstance(entry, dict) and isinstance(entry.get("server"), dict):
                entries.append((pointer(["servers", i, "server"]), entry["server"]))
            else:
                entries.append((pointer(["servers", i]), entry))
        return entries
    return [("", document)]


def profiles_from_document(
    doc: dict[str, Any], *, source: str | None = None, where: str = ""
) -> ServerJsonImport:
    """Map one server.json that is already valid against the schema."""
    result = ServerJsonImport()
    base = str(doc.get("title") or doc["name"])
    origin = source or f"server.json {doc['name']} {doc['version']}"
    built: list[tuple[str, Profile]] = []
    for i, package in enumerate(doc.get("packages") or []):
        at = where + pointer(["packages", i])
        profile = _package_profile(package, at, result.notes)
        if profile is not None:
            built.append((str(package["registryType"]), profile))
            result.origins.append(at)
    for i, remote in enumerate(doc.get("remotes") or []):
        at = where + pointer(["remotes", i])
        built.append((f"remote {remote['type']}", _remote_profile(remote, at, result.notes)))
        result.origins.append(at)
    if not built:
        result.notes.append(f"{where or '(the whole document)'}: nothing to run here.")
    labels = _labels([label for label, _ in built])
    for label, (_, profile) in zip(labels, built, strict=True):
        profile.name = base if len(built) == 1 else f"{base} ({label})"
        profile.source = origin
        result.profiles.append(profile)
    return result


def _labels(labels: list[str]) -> list[str]:
    counts = {label: labels.count(label) for label in labels}
    seen: dict[str, int] = {}
    out: list[str] = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if counts[label] == 1 else f"{label} {seen[label]}")
    return out


def _package_profile(package: dict[str, Any], at: str, notes: list[str]) -> Profile | None:
    kind = str(package["registryType"])
    identifier = str(package["identifier"])
    version = package.get("version")
    if kind not in _NAMES:
        notes.append(
            f"{at}: not imported: packages of type {quote(kind)} cannot be run from here "
            "(npm, pypi and oci can)."
        )
        return None
    if not _NAMES[kind].match(identifier):
        notes.append(
            f"{at}/identifier: not imported: {quote(identifier)} is not a plain {kind} "
            "package name, and it is never passed to a command."
        )
        return None
    if version is not None and not _VERSION.match(str(version)):
        notes.append(
            f"{at}/version: not imported: {quote(version)} is not a plain version, and it is "
            "never passed to a command."
        )
        return None
    if package["transport"]["type"] != "stdio":
        notes.append(
            f"{at}/transport: the package serves {package['transport']['type']} at "
            f"{quote(package['transport'].get('url'))}; the profile starts it over stdio."
        )
    hint = package.get("runtimeHint")
    runner = hint if hint in _RUNNERS[kind] else _RUNNERS[kind][0]
    if hint is not None and hint != runner:
        notes.append(f"{at}/runtimeHint: {quote(hint)} is not used here; it runs with {runner}.")
    runtime = _arguments(package.get("runtimeArguments") or [], f"{at}/runtimeArguments", notes)
    args = _arguments(package.get("packageArguments") or [], f"{at}/packageArguments", notes)
    env = _env(package.get("environmentVariables") or [], f"{at}/environmentVariables", notes)
    if version is None and not (kind == "oci" and _has_tag(identifier)):
        notes.append(f"{at}: no version given: the newest one runs each time.")
    if kind == "npm":
        spec = identifier if version is None else f"{identifier}@{version}"
        argv = ["-y", *runtime, spec, *args]
    elif kind == "pypi":
        spec = identifier if version is None else f"{identifier}=={version}"
        argv = (["run"] if runner == "pipx" else []) + [*runtime, spec, *args]
    else:
        image = identifier
        if version is not None and not _has_tag(identifier):
            image = f"{identifier}:{version}"
        passed = [item for e in env for item in ("-e", e.name)]
        argv = ["run", "-i", "--rm", *passed, *runtime, image, *args]
    return Profile(
        name=identifier, transport="stdio", stdio=StdioSettings(command=runner, args=argv, env=env)
    )


def _has_tag(image: str) -> bool:
    return "@" in image or ":" in image.rsplit("/", 1)[-1]


def _value(item: dict[str, Any], at: str, what: str, notes: list[str]) -> str | None:
    """The value of an input, its variables filled from their values or defaults; None when
    the user must give it."""
    value = item.get("value")
    if value is None:
        value = item.get("default")
    if value is None:
        return None
    variables = item.get("variables") or {}

    def fill(match: re.Match[str]) -> str:
        var = variables.get(match.group(1))
        if isinstance(var, dict):
            # A secret variable's default is not used: the user gives the secret.
            filled = (
                var.get("value") if var.get("isSecret") else var.get("value", var.get("default"))
            )
            if isinstance(filled, str):
                return filled
        notes.append(f"{at}: fill in {{{match.group(1)}}} in {what}.")
        return match.group(0)

    return _VARIABLE.sub(fill, str(value))


def _is_secret(item: dict[str, Any]) -> bool:
    """Marked secret, or its value is built from a variable marked secret."""
    variables = item.get("variables") or {}
    return bool(item.get("isSecret")) or any(
        isinstance(var, dict) and var.get("isSecret") and f"{{{key}}}" in str(item.get("value"))
        for key, var in variables.items()
    )


def _arguments(items: list[dict[str, Any]], at: str, notes: list[str]) -> list[str]:
    argv: list[str] = []
    for i, item in enumerate(items):
        here = f"{at}/{i}"
        label = str(item.get("valueHint") or item.get("name") or f"argument {i + 1}")
        value = _value(item, here, label, notes)
        if _is_secret(item) and item.get("value") is None:
            value = None
        if _is_secret(item):
            notes.append(
                f"{here}: {label} is secret but command-line arguments are not kept secret."
            )
        if item["type"] == "named":
            argv.append(str(item["name"]))
        if value is None:
            if item["type"] == "named" and not item.get("isRequired"):
                continue
            value = f"{{{label}}}"
            notes.append(f"{here}: replace {value} with a value" + _because(item) + ".")
        argv.append(value)
    return argv


def _because(item: dict[str, Any]) -> str:
    description = item.get("description")
    return f" ({quote(description)})" if description else ""


def _env(items: list[dict[str, Any]], at: str, notes: list[str]) -> list[EnvVar]:
    env: list[EnvVar] = []
    for i, item in enumerate(items):
        here = f"{at}/{i}"
        name = str(item["name"])
        if not _ENV_NAME.match(name):
            notes.append(
                f"{here}/name: skipped: {quote(name)} is not an environment variable name."
            )
            continue
        secret = _is_secret(item)
        value = None if secret and item.get("value") is None else _value(item, here, name, notes)
        if value is None and (secret or item.get("isRequired")):
            kept = " (it is kept in the keyring)" if secret else ""
            notes.append(f"{here}: enter {name}{kept}" + _because(item) + ".")
        env.append(EnvVar(name=name, value=value or "", secret=secret))
    return env


def _remote_profile(remote: dict[str, Any], at: str, notes: list[str]) -> Profile:
    variables = remote.get("variables") or {}
    url = _value({"value": remote["url"], "variables": variables}, f"{at}/url", "the URL", notes)
    headers: list[HeaderEntry] = []
    for i, item in enumerate(remote.get("headers") or []):
        here = f"{at}/headers/{i}"
        name = str(item["name"])
        if not _HEADER_NAME.match(name):
            notes.append(f"{here}/name: skipped: {quote(name)} is not a header name.")
            continue
        secret = _is_secret(item)
        value = None if secret and item.get("value") is None else _value(item, here, name, notes)
        if value is None and (secret or item.get("isRequired")):
            kept = " (it is kept in the keyring)" if secret else ""
            notes.append(f"{here}: enter the {name} header{kept}" + _because(item) + ".")
        headers.append(HeaderEntry(name=name, value=value or "", secret=secret))
    transport: HttpTransportChoice = "sse" if remote["type"] == "sse" else "streamable-http"
    return Profile(
        name=str(url),
        transport="http",
        http=HttpSettings(url=url or "", transport=transport, headers=headers),
    )
