"""The server a `cli` command line names, as an ad-hoc connection profile.

The CLI connects the way the GUI does: a `Profile` (never saved, unnamed) goes through
`settings.connect.transport_for` and `client_config_for`. Everything about the server and
the connection is read here, in one place: the command after `--` (with `--env`,
`--full-env`, `--cwd`) or `--url` (with `--transport`, `--header`, `--auth ...`), the era,
the timeout, the largest message and the roots. The options that are not the server's
(`--protocol-version`, `--log-level`, `--answers`) stay with the run.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from inspector.cli.arg_words import header_values, key_values, server_command
from inspector.cli.errors import UsageError
from inspector.settings.profiles import (
    EnvVar,
    HeaderEntry,
    HttpSettings,
    Profile,
    RootEntry,
    StdioSettings,
    Timeouts,
)
from inspector.transports.base import TransportError

if TYPE_CHECKING:
    from inspector.storage.secrets import SecretStore

__all__ = [
    "PROFILE_MAX_MESSAGE_MB",
    "cli_timeouts",
    "profile_from_args",
    "target_profile",
]

# A saved profile's limit on the largest message; the command line has none.
PROFILE_MAX_MESSAGE_MB = 4096


def cli_timeouts(seconds: float) -> Timeouts:
    """`--timeout` is the request timeout (reset by progress); the hard cap is never below
    the app's ten minutes, so a long tool call with progress may finish."""
    return Timeouts(request=seconds, max_total=max(seconds, 600.0), reset_on_progress=True)


def profile_from_args(ns: argparse.Namespace) -> Profile:
    """The profile the command line describes. Raises `UsageError` for options that do not
    fit the server (e.g. --header with a command, --transport sse without --url)."""
    command = server_command(ns)
    profile = Profile(
        # Unnamed: a recording of the run names no profile.
        name="",
        era=ns.era,
        timeouts=cli_timeouts(ns.timeout),
        roots=[RootEntry(uri=uri, name=uri.rsplit("/", 1)[-1] or uri) for uri in ns.root],
        # transport_for is given the exact --max-message-mb, which may exceed this.
        max_message_mb=min(ns.max_message_mb, PROFILE_MAX_MESSAGE_MB),
    )
    if ns.url:
        profile.transport = "http"
        profile.http = _http_settings(ns)
    else:
        profile.stdio = _stdio_settings(ns, command)
    return profile


def _http_settings(ns: argparse.Namespace) -> HttpSettings:
    if ns.transport == "stdio":
        raise UsageError("--transport stdio needs a command after --, not --url")
    from inspector.cli.auth_args import auth_from_args  # an HTTP server: its stack, its auth
    from inspector.transports.http_common import check_url

    try:
        check_url(ns.url)
    except TransportError as exc:
        raise UsageError(f"--url: {exc}") from exc
    auth = auth_from_args(ns, verbose=ns.verbose)
    return HttpSettings(
        url=ns.url,
        transport=ns.transport,
        headers=[HeaderEntry(name=k, value=v) for k, v in header_values(ns.header).items()],
        auth=auth,
    )


def _stdio_settings(ns: argparse.Namespace, command: list[str]) -> StdioSettings:
    if ns.transport not in ("auto", "stdio"):
        raise UsageError(f"--transport {ns.transport} needs --url")
    if ns.header:
        raise UsageError("--header applies to --url servers only")
    if ns.auth != "none":
        raise UsageError(f"--auth {ns.auth} applies to --url servers only")
    return StdioSettings(
        command=command[0],
        args=command[1:],
        env=[EnvVar(name=k, value=v) for k, v in key_values(ns.env, "--env").items()],
        cwd=ns.cwd,
        inherit_full_env=ns.full_env,
    )


def target_profile(
    ns: argparse.Namespace, default_era: str = "legacy"
) -> tuple[Profile, SecretStore | None]:
    """`check` and `test`: the server named by `--profile NAME` (a saved profile, with its
    secrets from the keyring; `inventory:KEY`: a server configured on this machine), else
    by `--url` or the command after `--`. `--era` wins over the profile's era and over
    `default_era`."""
    from inspector.protocol.wire.versions import EraSetting

    if ns.profile:
        if ns.url or ns.server_command:
            raise UsageError("--profile names the server: drop --url and the command")
        if ns.profile.startswith("inventory:"):  # a server configured on this machine
            from inspector.compare.targets import TargetError, inventory_profile

            try:
                configured = inventory_profile(ns.profile)
            except TargetError as exc:
                raise UsageError(str(exc)) from exc
            if ns.era:
                configured = configured.model_copy(update={"era": EraSetting(ns.era)})
            return configured, None
        from inspector.settings.profiles import ProfileStore
        from inspector.storage.secrets import SecretStore

        secrets = SecretStore()
        store = ProfileStore(secrets=secrets)
        found = store.find(ns.profile)
        if found is None:
            raise UsageError(f"no profile named {ns.profile!r}")
        profile = found.model_copy(deep=True)
        if ns.era:
            profile = profile.model_copy(update={"era": EraSetting(ns.era)})
        return profile, secrets
    ns.root, ns.max_message_mb = [], 64
    ns.era = ns.era or default_era
    return profile_from_args(ns), None
