"""`${env:NAME}` in a saved call's arguments: resolved from the environment when the call
runs, so secrets stay out of the file (`$${` writes a literal `${`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["UnsetVariable", "resolve_env", "secret_refs"]

_REF: Final = re.compile(r"\$\$\{|\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}")


class UnsetVariable(Exception):
    """A `${env:NAME}` whose variable is not set; the message names it."""

    def __init__(self, name: str) -> None:
        super().__init__(f"${{env:{name}}} is used but the environment variable {name} is not set")
        self.name = name


def resolve_env(value: Any, env: Mapping[str, str]) -> Any:
    """A copy of `value` with every `${env:NAME}` in its strings (and keys) replaced."""
    if isinstance(value, str):
        if "${" not in value:
            return value

        def sub(match: re.Match[str]) -> str:
            if match.group(0) == "$${":
                return "${"
            name = match.group(1)
            if name not in env:
                raise UnsetVariable(name)
            return env[name]

        return _REF.sub(sub, value)
    if isinstance(value, dict):
        return {resolve_env(k, env): resolve_env(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_env(v, env) for v in value]
    return value


def secret_refs(value: Any, named: Mapping[str, str], unnamed: tuple[str, ...] = ()) -> Any:
    """A copy of `value` where a secret value is written as `${env:NAME}` (`named`: env
    name -> its secret value) or as the recording's redaction mark (`unnamed`)."""
    from inspector.recording.format import REDACTED

    forms = sorted(
        [(v, f"${{env:{k}}}") for k, v in named.items() if len(v) >= 4]
        + [(v, REDACTED) for v in unnamed if len(v) >= 4],
        key=lambda pair: len(pair[0]),
        reverse=True,
    )
    if not forms:
        return value

    def walk(item: Any) -> Any:
        if isinstance(item, str):
            for secret, mark in forms:
                item = item.replace(secret, mark)
            return item
        if isinstance(item, dict):
            return {walk(k): walk(v) for k, v in item.items()}
        if isinstance(item, list):
            return [walk(v) for v in item]
        return item

    return walk(value)
