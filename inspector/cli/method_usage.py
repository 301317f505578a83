"""What `cli --method ...` must be given, checked before anything heavy is loaded or any
server is started (`inspector.cli.commands.cli`): light imports only."""

from __future__ import annotations

import argparse

from inspector.cli.arg_words import server_command
from inspector.cli.errors import UsageError

__all__ = ["check_usage", "not_in_modern"]

# Methods the 2026-07-28 schema does not have, and what the modern era uses instead.
_NOT_MODERN = {
    "ping": "there is no ping; send server/discover (--method server/discover) to check "
    "that the server answers",
    "logging/setLevel": "the log level rides in each request's _meta: add --log-level "
    "LEVEL to the method you run",
}


def not_in_modern(method: str) -> str | None:
    why = _NOT_MODERN.get(method)
    return f"{method} does not exist in protocol 2026-07-28 (modern era): {why}" if why else None


def check_usage(ns: argparse.Namespace) -> None:
    """The method's own arguments. A server must be named first; the rest of the server's
    options are read after these, by `profile_from_args`."""
    server_command(ns)
    if not ns.shutdown_grace >= 0:  # also refuses nan
        raise UsageError(f"--shutdown-grace must be 0 or more seconds, not {ns.shutdown_grace:g}")
    needs = {
        "tools/call": ("tool_name", "--tool-name"),
        "resources/read": ("uri", "--uri"),
        "prompts/get": ("prompt_name", "--prompt-name"),
        "logging/setLevel": ("log_level", "--log-level"),
        "completion/complete": ("argument_name", "--argument-name"),
    }
    if ns.method in needs:
        attr, flag = needs[ns.method]
        if not getattr(ns, attr):
            raise UsageError(f"{ns.method} needs {flag}")
    if ns.method == "completion/complete" and bool(ns.prompt_name) == bool(ns.uri_template):
        raise UsageError("completion/complete needs exactly one of --prompt-name, --uri-template")
    if ns.era == "modern" and (why := not_in_modern(ns.method)):
        raise UsageError(why)
    if ns.method == "server/discover" and ns.era == "legacy":
        raise UsageError("server/discover is a modern-era method: add --era modern or --era auto")
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if ns.max_message_mb < 1:
        raise UsageError("--max-message-mb must be at least 1")
