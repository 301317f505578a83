"""From a saved profile to a transport and a client config: the one place that decides.

Qt-free. The GUI calls `transport_for(profile, secrets)` with a saved profile; the CLI
(`inspector.cli.profile_args`) and a replay target (`inspector.recording.replay_target`)
with an ad-hoc one whose values are typed in, not in the keyring.
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

from inspector.protocol.machine.config import ui_extension
from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import EraSetting
from inspector.settings.profiles import Profile, RootEntry
from inspector.storage.secrets import SecretStore
from inspector.transports.base import Transport
from inspector.transports.stdio import StdioParams, StdioTransport

if TYPE_CHECKING:
    from inspector.auth import OAuth

__all__ = [
    "SetupError",
    "client_config_for",
    "resolved_env",
    "resolved_headers",
    "roots_for",
    "transport_for",
]


class SetupError(Exception):
    """The profile cannot be turned into a connection; the message says why."""


def _secret(profile: Profile, secrets: SecretStore | None, kind: str, name: str, typed: str) -> str:
    if typed:
        return typed  # an unsaved profile (e.g. from the command line) may carry it
    value = secrets.get(profile.id, kind, name) if secrets is not None else None
    if value is None:
        what = "header" if kind == "header" else "environment variable"
        raise SetupError(
            f"The secret {what} {name} has no value: there is none in the keyring for "
            f"“{profile.name}”. Edit the profile and enter it."
        )
    return value


def resolved_env(profile: Profile, secrets: SecretStore | None) -> dict[str, str]:
    return {
        e.name: _secret(profile, secrets, "env", e.name, e.value) if e.secret else e.value
        for e in profile.stdio.env
    }


def resolved_headers(profile: Profile, secrets: SecretStore | None) -> dict[str, str]:
    return {
        h.name: _secret(profile, secrets, "header", h.name, h.value) if h.secret else h.value
        for h in profile.http.headers
    }


def transport_for(
    profile: Profile,
    secrets: SecretStore | None = None,
    *,
    oauth: OAuth | None = None,
    max_message_mb: int | None = None,
    shutdown_grace: float | None = None,
) -> Transport:
    """The transport a profile describes, with its secrets filled in from the keyring.
    Its auth (inspector.settings.profile_auth): a bearer token, or OAuth (`oauth` when the caller
    keeps one per profile, as the GUI does and the CLI for its terminal login; else one with
    the keyring token store).

    `max_message_mb` replaces the profile's limit on the largest message: a profile stops
    at 4096 MiB, the CLI's `--max-message-mb` has no upper bound. `shutdown_grace`: how long
    a stdio server has to exit after its stdin is closed, before SIGTERM (default 2 s)."""
    limit = (profile.max_message_mb if max_message_mb is None else max_message_mb) * 1024 * 1024
    if profile.transport == "stdio":
        if not profile.stdio.command.strip():
            raise SetupError("The profile has no command.")
        params = StdioParams(
            profile.stdio.command,
            list(profile.stdio.args),
            env=resolved_env(profile, secrets),
            cwd=profile.stdio.cwd or None,
            inherit_full_env=profile.stdio.inherit_full_env,
            max_line_bytes=limit,
        )
        if shutdown_grace is not None:
            params.close_grace = shutdown_grace
        return StdioTransport(params)
    # Only now the HTTP stack and the auth machinery (a stdio run never loads them).
    from inspector.settings.profile_auth import ProfileAuthError, auth_for
    from inspector.transports.factory import http_transport

    headers = resolved_headers(profile, secrets)
    secret_names = frozenset(h.name for h in profile.http.headers if h.secret)
    try:
        auth = auth_for(profile, secrets, oauth=oauth)
    except ProfileAuthError as exc:
        raise SetupError(str(exc)) from None
    return http_transport(
        profile.http.url,
        kind=profile.http.transport,
        headers=headers,
        secret_headers=secret_names,
        auth=auth,
        max_message_bytes=limit,
    )


def roots_for(profile: Profile) -> list[dict[str, Any]]:
    return [_root(r) for r in profile.roots]


def _root(root: RootEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"uri": root.uri}
    if root.name:
        out["name"] = root.name
    return out


def client_config_for(profile: Profile, *, ui_apps: bool = False) -> ClientConfig:
    """The session options of `profile`. `ui_apps`: the front end renders MCP Apps (the
    GUI's App tab), so the MCP Apps extension is declared unless the profile switches it
    off; a headless command leaves it False and never claims UI support."""
    caps: dict[str, Any] = {}
    if profile.capabilities.sampling:
        # spec 2025-11-25: `tools` lets the server send tools/toolChoice (answered by a
        # model's tool use, or by hand); no `context`: we hold no conversation to include.
        caps["sampling"] = {"tools": {}}
    if profile.capabilities.elicitation:
        caps["elicitation"] = {"form": {}, "url": {}}
    if profile.capabilities.roots:
        caps["roots"] = {"listChanged": True}
    if ui_apps and profile.capabilities.apps:
        caps["extensions"] = ui_extension()
    t = profile.timeouts
    return ClientConfig(
        era=EraSetting(profile.era),
        capabilities=caps,
        request_timeout=t.request,
        max_total_timeout=t.max_total,
        reset_timeout_on_progress=t.reset_on_progress,
        auto_probe_timeout=min(t.request or 5.0, 5.0),
    )


def command_line(profile: Profile) -> list[str]:
    """argv of a stdio profile (for "copy as CLI command")."""
    return [profile.stdio.command, *profile.stdio.args]


def shell_command(profile: Profile) -> str:
    return shlex.join(command_line(profile))
