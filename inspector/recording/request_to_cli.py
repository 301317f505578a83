"""A request as the `mcp-inspector-qt cli` command that reproduces it.

`cli_command_for("tools/call", {"name": "add", "arguments": {"a": 1}}, connection)` gives
`mcp-inspector-qt cli --method tools/call --tool-name add --tool-arg a=1 -- python -m ...`.
Every word is quoted for a POSIX shell. Values that were not recorded (secret env values,
header values) become shell variables, `"$API_TOKEN"`, for the user to set; nothing
secret is ever written into the command.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from typing import Any, Final

from inspector.recording.format import REDACTED
from inspector.traffic.cli_methods import CLI_METHODS

__all__ = ["CliCommandError", "cli_command_for"]

PROGRAM: Final = "mcp-inspector-qt"
# What `cli --method` accepts (inspector/cli/parser.py METHODS; a test keeps the two equal).
_CLI_METHODS: Final = frozenset(CLI_METHODS)
_SHELL_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class CliCommandError(ValueError):
    """The request cannot be expressed as a `cli` command; the message says why."""


def _tool_args(arguments: Any) -> list[str]:
    if arguments is None:
        return []
    if not isinstance(arguments, dict):
        raise CliCommandError("tools/call arguments are not a JSON object")
    words: list[str] = []
    for key, value in arguments.items():
        if not key or "=" in key or isinstance(value, dict | list):
            # `--tool-arg k=v` cannot say it: pass the whole object as JSON.
            return ["--tool-args-json", json.dumps(arguments, ensure_ascii=False)]
        words += ["--tool-arg", f"{key}={_tool_arg_value(value)}"]
    return words


def _tool_arg_value(value: Any) -> str:
    """The text after `k=` that the CLI turns back into `value` (it tries JSON first)."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            return value  # stays a string
        return json.dumps(value, ensure_ascii=False)  # "5" must not become 5
    return json.dumps(value, ensure_ascii=False)


def _string_pairs(flag: str, values: Any, what: str) -> list[str]:
    if values is None:
        return []
    if not isinstance(values, dict):
        raise CliCommandError(f"{what} is not a JSON object")
    words: list[str] = []
    for key, value in values.items():
        if not isinstance(value, str):
            raise CliCommandError(f"{what}: {key!r} is not a string; the CLI sends strings")
        if not key or "=" in key:
            raise CliCommandError(f"{what}: the name {key!r} cannot be given as K=V")
        words += [flag, f"{key}={value}"]
    return words


def _method_words(method: str, params: Mapping[str, Any]) -> list[str]:
    words = ["--method", method]
    if method == "tools/call":
        name = params.get("name")
        if not isinstance(name, str):
            raise CliCommandError("tools/call without a tool name")
        return [*words, "--tool-name", name, *_tool_args(params.get("arguments"))]
    if method == "resources/read":
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise CliCommandError("resources/read without a uri")
        return [*words, "--uri", uri]
    if method == "prompts/get":
        name = params.get("name")
        if not isinstance(name, str):
            raise CliCommandError("prompts/get without a prompt name")
        args = _string_pairs("--prompt-args", params.get("arguments"), "prompt arguments")
        return [*words, "--prompt-name", name, *args]
    if method == "completion/complete":
        return words + _completion_words(params)
    if method == "logging/setLevel":
        level = params.get("level")
        if not isinstance(level, str):
            raise CliCommandError("logging/setLevel without a level")
        return [*words, "--log-level", level]
    return words


def _completion_words(params: Mapping[str, Any]) -> list[str]:
    ref, argument = params.get("ref"), params.get("argument")
    if not isinstance(ref, dict) or not isinstance(argument, dict):
        raise CliCommandError("completion/complete without a ref and an argument")
    words: list[str] = []
    if ref.get("type") == "ref/prompt" and isinstance(ref.get("name"), str):
        words += ["--prompt-name", ref["name"]]
    elif ref.get("type") == "ref/resource" and isinstance(ref.get("uri"), str):
        words += ["--uri-template", ref["uri"]]
    else:
        raise CliCommandError(f"completion/complete: unknown ref {ref.get('type')!r}")
    name, value = argument.get("name"), argument.get("value", "")
    if not isinstance(name, str) or not isinstance(value, str):
        raise CliCommandError("completion/complete: the argument needs a name and a value")
    words += ["--argument-name", name, "--argument-value", value]
    context = params.get("context")
    if isinstance(context, dict):
        words += _string_pairs("--context-arg", context.get("arguments"), "completion context")
    return words


def _variable(name: str) -> str:
    """A shell variable name for a value the recording does not hold."""
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", name).upper()
    return cleaned if _SHELL_NAME.match(cleaned) else f"V_{cleaned}"


def _server_words(connection: Mapping[str, Any]) -> list[str]:
    """The server part, already quoted (some words expand shell variables on purpose)."""
    url = connection.get("url")
    if isinstance(url, str):
        if REDACTED in url:
            raise CliCommandError("the URL held a secret that was not recorded")
        words = ["--url", shlex.quote(url)]
        names = connection.get("header_names")
        for name in names if isinstance(names, list) else []:
            if isinstance(name, str) and name:
                # Header values are never recorded: read them from the environment.
                words += ["--header", f'"{name}: ${_variable("header_" + name)}"']
        return words
    command = connection.get("command")
    if not isinstance(command, str) or not command:
        raise CliCommandError("the recording names no server command or URL")
    words = []
    env = connection.get("env")
    for key, value in (env if isinstance(env, dict) else {}).items():
        if not isinstance(key, str) or not isinstance(value, str):
            continue
        if value == REDACTED and _SHELL_NAME.match(key):
            words += ["--env", f'{key}="${key}"']  # the secret comes from the user's shell
        elif value == REDACTED:
            words += ["--env", f'{shlex.quote(key + "=")}"${_variable(key)}"']
        else:
            words += ["--env", shlex.quote(f"{key}={value}")]
    cwd = connection.get("cwd")
    if isinstance(cwd, str) and cwd:
        words += ["--cwd", shlex.quote(cwd)]
    args = connection.get("args")
    argv = [command, *(str(a) for a in (args if isinstance(args, list) else []))]
    return [*words, "--", *(shlex.quote(a) for a in argv)]


def cli_command_for(
    method: str,
    params: Mapping[str, Any] | None,
    connection: Mapping[str, Any],
    *,
    era: str | None = None,
    program: str = PROGRAM,
) -> str:
    """The `cli` command line (POSIX shell) that sends this request to this server.

    `connection` is a recorded connection (the session header's `connection`: command,
    args, env, cwd, or url and header names). `era` is "legacy" (the CLI's default, left
    out), "modern" or "auto". `program` is the command to start the inspector with, e.g.
    "python -m inspector" (not quoted: it may hold several words).
    Raises CliCommandError when the CLI cannot express the request.
    """
    if method not in _CLI_METHODS:
        raise CliCommandError(f"the cli command has no --method {method}")
    params = dict(params or {})
    params.pop("_meta", None)  # the CLI stamps its own
    words = [shlex.quote(w) for w in ["cli", *_method_words(method, params)]]
    if era in ("modern", "auto"):
        words += ["--era", era]
    return " ".join([program, *words, *_server_words(connection)])
