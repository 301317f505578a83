"""The secrets of a connection, for "Save call": the same rules as the recorder
(`inspector/recording/redaction.py`: marked or secret-looking env values and headers, URL
passwords and keys, auth tokens). A secret env value is written as `${env:NAME}` (the run
reads it from the environment again); any other secret as the redaction mark."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.recording.redaction import spec_for_profile

if TYPE_CHECKING:
    from inspector.settings.profiles import Profile
    from inspector.storage.secrets import SecretStore

__all__ = ["CallSecrets", "secrets_for_profile"]


@dataclass(frozen=True)
class CallSecrets:
    """`saved_call_for(..., secrets=s.named, other_secrets=s.other)`."""

    named: dict[str, str] = field(default_factory=dict)  # env name -> its secret value
    other: tuple[str, ...] = ()


def secrets_for_profile(profile: Profile, store: SecretStore | None) -> CallSecrets:
    """The secret values of `profile` (from the keyring through `store`)."""
    spec = spec_for_profile(profile, store)
    secret_values = set(spec.secrets)
    named: dict[str, str] = {}
    if profile.transport != "http":
        for entry in profile.stdio.env:
            value = entry.value or (
                store.get(profile.id, "env", entry.name) if store and entry.secret else None
            )
            if value and value in secret_values:
                named[entry.name] = value
    taken = set(named.values())
    return CallSecrets(named, tuple(v for v in spec.secrets if v not in taken))
