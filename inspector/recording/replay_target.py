"""Where a replay runs, and how it connects: shared by `replay` (CLI) and the replay window.

A target is the command or URL recorded in the file (which may come from someone else:
the CLI needs `--use-recorded-command`, the GUI an explicit confirmation showing
`describe()`), a saved profile, or a command or URL the user typed. The replay itself
runs over a `ServerConnection` (inspector/core/replays.py). Its transport is
built from an ad-hoc profile by `settings.connect.transport_for`, like every connection's;
the client config is the recording's own: the recorded era, legacy version and client
capabilities, so the server sees the same client it saw then.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from inspector.protocol.machine.connection import ClientConfig
from inspector.protocol.wire.versions import LEGACY_VERSIONS, EraSetting
from inspector.recording.format import REDACTED
from inspector.recording.reader import RecordedSession
from inspector.settings.connect import SetupError, resolved_env, resolved_headers, transport_for
from inspector.settings.profiles import EnvVar, HeaderEntry, HttpSettings, Profile, StdioSettings
from inspector.transports.base import LaunchError, Transport
from inspector.transports.url_check import check_url

if TYPE_CHECKING:
    from inspector.storage.secrets import SecretStore

__all__ = [
    "ReplayTarget",
    "recorded_target",
    "replay_config",
    "target_for_profile",
    "target_from_text",
]


@dataclass(frozen=True)
class ReplayTarget:
    kind: Literal["stdio", "http"]
    argv: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    inherit_full_env: bool = False
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    secret_headers: frozenset[str] = frozenset()
    http_kind: Literal["auto", "streamable-http", "sse"] = "auto"
    notes: tuple[str, ...] = ()  # e.g. recorded header names whose values are not known

    def describe(self) -> str:
        """What will run, exactly (secret header values are never shown)."""
        if self.kind == "http":
            return f"{self.url}" + (
                f" (headers: {', '.join(sorted(self.headers))})" if self.headers else ""
            )
        return shlex.join(self.argv)

    def profile(self) -> Profile:
        """The target as an ad-hoc profile (values typed in, secret headers still marked),
        so a replay connects the way every connection does (`settings.connect`)."""
        if self.kind == "http":
            return Profile(
                name=self.describe(),
                transport="http",
                http=HttpSettings(
                    url=self.url or "",
                    transport=self.http_kind,
                    headers=[
                        HeaderEntry(name=k, value=v, secret=k in self.secret_headers)
                        for k, v in self.headers.items()
                    ],
                ),
            )
        return Profile(
            name=self.describe(),
            stdio=StdioSettings(
                command=self.argv[0] if self.argv else "",
                args=list(self.argv[1:]),
                env=[EnvVar(name=k, value=v) for k, v in self.env.items()],
                cwd=self.cwd,
                inherit_full_env=self.inherit_full_env,
            ),
        )

    def transport(self) -> Transport:
        """Raises `LaunchError` for a target no transport can start (an empty command)."""
        try:
            return transport_for(self.profile())
        except SetupError as exc:
            raise LaunchError(str(exc)) from None


def recorded_target(
    recorded: RecordedSession,
    headers: Mapping[str, str] | None = None,
    *,
    give_command: str = "give the command yourself instead",
    give_url: str = "give the URL yourself",
) -> ReplayTarget:
    """The command or URL recorded in the file. Raises ValueError when it cannot be used
    as is (a redacted env value or URL secret: the user must give it, as `give_command` /
    `give_url` say)."""
    headers = dict(headers or {})
    conn = recorded.connection
    if conn.get("transport") == "stdio" and isinstance(conn.get("command"), str):
        raw_env = conn.get("env")
        env = {
            str(k): v
            for k, v in (raw_env if isinstance(raw_env, dict) else {}).items()
            if isinstance(v, str)
        }
        redacted = [k for k, v in env.items() if v == REDACTED]
        if redacted:
            raise ValueError(
                f"the recorded command needs secret env values that were not recorded "
                f"({', '.join(redacted)}); {give_command}"
            )
        args = conn.get("args")
        cwd = conn.get("cwd")
        return ReplayTarget(
            "stdio",
            argv=(conn["command"], *(str(a) for a in (args if isinstance(args, list) else []))),
            env=env,
            cwd=cwd if isinstance(cwd, str) and cwd else None,
        )
    if isinstance(conn.get("url"), str):
        url: str = conn["url"]
        if REDACTED in url:
            raise ValueError(f"the recorded URL carried a secret that was not recorded; {give_url}")
        check_url(url)
        names = conn.get("header_names")
        given = {h.lower() for h in headers}
        missing = [
            n
            for n in (names if isinstance(names, list) else [])
            if isinstance(n, str) and n.lower() not in given
        ]
        notes = (
            (
                f"the recording sent header(s) {', '.join(missing)}, whose values are not "
                "recorded; give them if the server needs them",
            )
            if missing
            else ()
        )
        return ReplayTarget("http", url=url, headers=headers, notes=notes)
    raise ValueError("the file records no command or URL to replay against")


def target_for_profile(profile: Profile, secrets: SecretStore | None) -> ReplayTarget:
    """A saved profile, with its secrets from the keyring. Raises ValueError."""
    try:
        if profile.transport == "http":
            check_url(profile.http.url)
            return ReplayTarget(
                "http",
                url=profile.http.url,
                headers=resolved_headers(profile, secrets),
                secret_headers=frozenset(h.name for h in profile.http.headers if h.secret),
                http_kind=profile.http.transport,
            )
        if not profile.stdio.command.strip():
            raise ValueError(f"the profile “{profile.name}” has no command")
        return ReplayTarget(
            "stdio",
            argv=(profile.stdio.command, *profile.stdio.args),
            env=resolved_env(profile, secrets),
            cwd=profile.stdio.cwd or None,
            inherit_full_env=profile.stdio.inherit_full_env,
        )
    except SetupError as exc:
        raise ValueError(str(exc)) from exc


def target_from_text(text: str) -> ReplayTarget:
    """A command line (POSIX shell words) or an http(s) URL the user typed."""
    text = text.strip()
    if not text:
        raise ValueError("enter a command or an http(s) URL")
    if text.lower().startswith(("http://", "https://")):
        check_url(text)
        return ReplayTarget("http", url=text)
    try:
        argv = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"the command cannot be read: {exc}") from exc
    return ReplayTarget("stdio", argv=tuple(argv))


def replay_config(recorded: RecordedSession, timeout: float) -> ClientConfig:
    """The recorded era (as the `ready` line says), legacy version and capabilities."""
    config = ClientConfig(
        era=EraSetting.MODERN if recorded.era == "modern" else EraSetting.LEGACY,
        request_timeout=timeout,
    )
    version = recorded.protocol_version
    if recorded.era != "modern" and version in LEGACY_VERSIONS:
        config.legacy_version = version
    caps = recorded.header.get("client_capabilities")
    if isinstance(caps, dict):
        config.capabilities = caps
    return config
