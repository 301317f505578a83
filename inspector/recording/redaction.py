"""What a recording of one connection is told about it: the connection as recorded
(secrets redacted) and every secret value the recorder must keep out of the file.

Shared by the CLI (`cli --record`) and the GUI (always-on recording), so the two never
disagree about what is secret:

* a header value is secret when the profile marks it so, or when its name looks secret
  (`Authorization`, `X-Api-Key`, anything with `token`, `auth`...: the transports'
  `redact_headers` rule); for `Bearer TOKEN` the token alone is a secret too, since a
  server may echo it without the scheme;
* an env value is secret when the profile marks it so or its name looks secret;
* a password in the URL and secret-looking query values are secret.

The values of secrets marked in a profile come from the keyring (`inspector.storage.secrets`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspector.recording.format import REDACTED, Redactor, connection_summary, url_secrets
from inspector.transports.redact import redact_headers

if TYPE_CHECKING:
    from inspector.settings.profiles import Profile
    from inspector.storage.secrets import SecretStore

__all__ = [
    "RecordingSpec",
    "connection_for_profile",
    "connection_secrets",
    "spec_for_connection",
    "spec_for_profile",
]

_MIN_TOKEN: int = 8  # the parts of a header value worth redacting on their own


@dataclass(frozen=True)
class RecordingSpec:
    connection: dict[str, Any]  # the header's `connection` (docs/session-format.md)
    secrets: tuple[str, ...]  # values that must never reach the file

    def redactor(self) -> Redactor:
        return Redactor(self.secrets)


def connection_secrets(
    *,
    headers: Mapping[str, str] | None = None,
    secret_headers: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    secret_env: Iterable[str] = (),
    url: str | None = None,
) -> list[str]:
    """The secret values of a connection (see the module docstring for the rules)."""
    found: list[str] = []
    headers = dict(headers or {})
    marked = frozenset(h.lower() for h in secret_headers)
    shown = redact_headers(headers, marked)
    for name, value in headers.items():
        if value and shown[name] != value and shown[name] == REDACTED:
            found.append(value)
            found.extend(part for part in value.split() if len(part) >= _MIN_TOKEN)
    secret_names = {k.lower() for k in secret_env}
    summary = connection_summary(
        transport="stdio", command="", env=dict(env or {}), secret_env=secret_names
    )
    found += [v for k, v in (env or {}).items() if v and summary["env"].get(k) == REDACTED]
    found += url_secrets(url)
    return list(dict.fromkeys(found))


def spec_for_connection(
    *,
    transport: str,
    command: str | None = None,
    args: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    secret_env: Iterable[str] = (),
    cwd: str | None = None,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    secret_headers: Iterable[str] = (),
    name: str | None = None,
) -> RecordingSpec:
    secret_env = list(secret_env)
    connection = connection_summary(
        transport=transport,
        command=command,
        args=list(args),
        env=env,
        secret_env=secret_env,
        cwd=cwd,
        url=url,
        headers=headers,
        name=name,
    )
    secrets = connection_secrets(
        headers=headers,
        secret_headers=secret_headers,
        env=env if command is not None else None,
        secret_env=secret_env,
        url=url,
    )
    return RecordingSpec(connection, tuple(secrets))


def _value(
    profile: Profile, store: SecretStore | None, kind: str, name: str, typed: str
) -> str | None:
    if typed:
        return typed  # an unsaved profile (e.g. from the command line) may carry it
    return store.get(profile.id, kind, name) if store is not None else None


def spec_for_profile(profile: Profile, store: SecretStore | None) -> RecordingSpec:
    """The spec of a GUI connection: secret values filled in from the keyring, so the
    recorder can find them in traffic; a secret with no stored value has nothing to hide."""
    if profile.transport == "http":
        headers = {
            h.name: (_value(profile, store, "header", h.name, h.value) or "")
            if h.secret
            else h.value
            for h in profile.http.headers
        }
        spec = spec_for_connection(
            transport="http",
            url=profile.http.url,
            headers=headers,
            secret_headers=[h.name for h in profile.http.headers if h.secret],
            name=profile.name,
        )
        extra = _auth_secrets(profile, store)
        if not extra:
            return spec
        return RecordingSpec(spec.connection, tuple(dict.fromkeys([*spec.secrets, *extra])))
    env = {
        e.name: (_value(profile, store, "env", e.name, e.value) or "") if e.secret else e.value
        for e in profile.stdio.env
    }
    return spec_for_connection(
        transport="stdio",
        command=profile.stdio.command,
        args=profile.stdio.args,
        env=env,
        secret_env=[e.name for e in profile.stdio.env if e.secret],
        cwd=profile.stdio.cwd or None,
        name=profile.name,
    )


def _auth_secrets(profile: Profile, store: SecretStore | None) -> list[str]:
    """The secrets of the profile's Auth section: a bearer token (from the keyring or the
    app's env) and an OAuth client secret. OAuth tokens travel in Authorization headers,
    which the transports redact."""
    auth = profile.http.auth
    found: list[str] = []
    for slot, secret in auth.secret_values():
        value = _value(profile, store, "auth", slot, secret.value)
        if value:
            found.append(value)
    if auth.kind == "bearer" and auth.bearer.source == "env" and auth.bearer.env_name:
        value = os.environ.get(auth.bearer.env_name.strip())
        if value:
            found.append(value)
    return [v for v in found if len(v) >= 4]


def connection_for_profile(profile: Profile) -> dict[str, Any]:
    """The profile as a recorded connection (no keyring lookups: secret values are
    redacted anyway), e.g. for `cli_command_for`."""
    return spec_for_profile(profile, None).connection
