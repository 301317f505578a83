"""Export a profile as a server.json that validates against the vendored schema.

Qt-free. An HTTP profile becomes a remote with its headers; a stdio profile that runs a
package (``npx``, ``uvx``, ``pipx run``, ``docker run``) becomes that package with its
arguments and environment. Secret values never leave: a secret is exported as its name and
``isSecret`` only. Any other command cannot be described by a server.json: `ExportError`.
"""

from __future__ import annotations

import re
from typing import Any, Final

from inspector.registry.schema import SCHEMA_ID, validate
from inspector.settings.profiles import EnvVar, HeaderEntry, Profile

__all__ = ["ExportError", "server_json_from_profile"]

_NAME_PART: Final = re.compile(r"[^a-zA-Z0-9._-]+")
# docker run options that take a value in the next argument (the common ones).
_DOCKER_VALUED: Final = frozenset(
    {
        *("-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "--network"),
        *("-w", "--workdir", "-u", "--user", "--mount", "--entrypoint", "--platform"),
        *("--env-file", "-l", "--label", "--add-host"),
    }
)


class ExportError(ValueError):
    """The profile cannot be written as a server.json; the message says why."""


def server_json_from_profile(
    profile: Profile,
    *,
    name: str | None = None,
    version: str = "1.0.0",
    description: str | None = None,
) -> dict[str, Any]:
    """The server.json for `profile`; raises `ExportError` when it cannot be one, or when
    what was built does not validate (its first problem is the message)."""
    slug = _NAME_PART.sub("-", profile.name).strip("-.") or "server"
    doc: dict[str, Any] = {
        "$schema": SCHEMA_ID,
        "name": name or f"local.mcp-inspector/{slug}"[:200],
        "description": (description or f"{profile.name} (exported by MCP Inspector)")[:100],
        "version": version,
        "title": profile.name[:100] or slug,
    }
    if profile.transport == "http":
        doc["remotes"] = [_remote(profile)]
    else:
        doc["packages"] = [_package(profile)]
    problems = validate(doc)
    if problems:
        raise ExportError(f"the exported server.json would not be valid: {problems[0]}")
    return doc


def _inputs(entries: list[EnvVar] | list[HeaderEntry]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for entry in entries:
        item: dict[str, Any] = {"name": entry.name}
        if entry.secret:
            item["isSecret"] = True
            item["isRequired"] = True
        elif entry.value:
            item["default"] = entry.value
        out.append(item)
    return out


def _remote(profile: Profile) -> dict[str, Any]:
    http = profile.http
    remote: dict[str, Any] = {
        "type": "sse" if http.transport == "sse" else "streamable-http",
        "url": http.url,
    }
    if http.headers:
        remote["headers"] = _inputs(http.headers)
    return remote


def _positional(values: list[str]) -> list[dict[str, Any]]:
    return [{"type": "positional", "value": value} for value in values]


def _package(profile: Profile) -> dict[str, Any]:
    command = profile.stdio.command.strip()
    runner = re.split(r"[\\/]", command)[-1].removesuffix(".exe").removesuffix(".cmd")
    args = list(profile.stdio.args)
    env = profile.stdio.env
    if runner == "npx":
        kind, runtime, spec, rest = "npm", *_split_spec(args, {"-y", "--yes"})
        scope = "@" if spec.startswith("@") else ""
        identifier, _, pinned = spec.removeprefix(scope).partition("@")
        identifier = scope + identifier
    elif runner in ("uvx", "pipx"):
        if runner == "pipx":
            if not args or args[0] != "run":
                raise ExportError("only “pipx run PACKAGE” can be exported as a server.json")
            args = args[1:]
        kind, runtime, spec, rest = "pypi", *_split_spec(args, set())
        identifier, _, pinned = spec.partition("==")
    elif runner == "docker":
        if not args or args[0] != "run":
            raise ExportError("only “docker run IMAGE” can be exported as a server.json")
        kind, runtime, spec, rest = "oci", *_docker_split(args[1:], {e.name for e in env})
        identifier, pinned = spec, ""
    else:
        raise ExportError(
            f"a profile that runs {command or '(no command)'!r} cannot be described by a "
            "server.json: only npm (npx), PyPI (uvx, pipx run) and OCI (docker run) "
            "packages and HTTP servers can"
        )
    package: dict[str, Any] = {
        "registryType": kind,
        "identifier": identifier,
        "transport": {"type": "stdio"},
        "runtimeHint": runner,
    }
    if pinned:
        package["version"] = pinned
    if runtime:
        package["runtimeArguments"] = _positional(runtime)
    if rest:
        package["packageArguments"] = _positional(rest)
    if env:
        package["environmentVariables"] = _inputs(env)
    return package


def _split_spec(args: list[str], dropped: set[str]) -> tuple[list[str], str, list[str]]:
    """(runtime options, the package spec, the package's arguments)."""
    runtime: list[str] = []
    for i, arg in enumerate(args):
        if arg in dropped:
            continue
        if arg.startswith("-"):
            runtime.append(arg)
            continue
        return runtime, arg, args[i + 1 :]
    raise ExportError("the command names no package to run")


def _docker_split(args: list[str], env_names: set[str]) -> tuple[list[str], str, list[str]]:
    runtime: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-i", "--interactive", "--rm"):
            i += 1
            continue
        if arg in ("-e", "--env") and i + 1 < len(args) and args[i + 1] in env_names:
            i += 2  # passes a profile variable on: implied by environmentVariables
            continue
        if arg.startswith("-"):
            runtime.append(arg)
            if arg in _DOCKER_VALUED and i + 1 < len(args):
                runtime.append(args[i + 1])
                i += 1
            i += 1
            continue
        return runtime, arg, args[i + 1 :]
    raise ExportError("the docker command names no image to run")
