"""What a `diff` TARGET names, as a connection profile: an `http(s)://` URL, a shell-quoted
stdio command line, `profile:NAME` (a saved profile, with its headers, env, cwd, era
and auth) or `inventory:KEY` (a server configured on this machine, as
`mcp-inspector-qt inventory` lists it). The profile then connects through
`settings.connect`, as the GUI does."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from inspector.protocol.wire.versions import EraSetting
from inspector.settings.inventory import INVENTORY_PREFIX
from inspector.settings.profiles import HttpSettings, Profile, StdioSettings, Timeouts

if TYPE_CHECKING:
    from inspector.settings.profiles import ProfileStore

__all__ = [
    "INVENTORY_PREFIX",
    "PROFILE_PREFIX",
    "TargetError",
    "inventory_profile",
    "profile_for_target",
    "target_label",
]

PROFILE_PREFIX = "profile:"
EraWord = Literal["legacy", "auto", "modern"]


class TargetError(ValueError):
    """The target cannot name a server; the message says why (a usage error)."""


def target_label(profile: Profile) -> str:
    """A short name for a side in messages: the profile's name, URL or command."""
    if profile.name:
        return f"profile {profile.name!r}"
    if profile.transport == "http":
        return profile.http.url
    return shlex.join([profile.stdio.command, *profile.stdio.args])


def profile_for_target(
    target: str,
    *,
    era: str | None = None,
    timeout: float = 30.0,
    profiles: ProfileStore | None = None,
) -> Profile:
    """The profile TARGET names. `era` overrides a saved profile's era (and is the era of
    a URL or command; legacy when not given). Raises TargetError."""
    text = target.strip()
    if not text:
        raise TargetError("an empty target: give a URL, a command line or profile:NAME")
    if era is not None and era not in {e.value for e in EraSetting}:
        raise TargetError(f"unknown era {era!r}")
    chosen = cast(EraWord, era or "legacy")
    timeouts = Timeouts(request=timeout, max_total=max(timeout, 600.0), reset_on_progress=True)
    if text.startswith(INVENTORY_PREFIX):
        configured = inventory_profile(text)
        eras: dict[str, object] = {"era": era} if era is not None else {}
        return configured.model_copy(deep=True, update={"timeouts": timeouts, **eras})
    if text.startswith(PROFILE_PREFIX):
        name = text[len(PROFILE_PREFIX) :].strip()
        if not name:
            raise TargetError("profile: needs a profile name (profile:NAME)")
        if profiles is None:
            raise TargetError("no profile store to look profiles up in")
        found = profiles.find(name)
        if found is None:
            known = ", ".join(repr(n) for n in profiles.names()) or "none saved"
            raise TargetError(f"no profile named {name!r} (profiles: {known})")
        update: dict[str, object] = {"timeouts": timeouts}
        if era is not None:
            update["era"] = era
        return found.model_copy(deep=True, update=update)
    scheme = text.split(":", 1)[0].lower()
    if scheme in ("http", "https") and "://" in text:
        from inspector.transports.base import TransportError
        from inspector.transports.url_check import check_url

        try:
            check_url(text)
        except TransportError as exc:
            raise TargetError(f"{text}: {exc}") from exc
        return Profile(
            name="",
            transport="http",
            http=HttpSettings(url=text),
            era=chosen,
            timeouts=timeouts,
        )
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise TargetError(f"cannot split the command line {text!r}: {exc}") from exc
    if not words:
        raise TargetError("an empty command line")
    return Profile(
        name="",
        stdio=StdioSettings(command=words[0], args=words[1:]),
        era=chosen,
        timeouts=timeouts,
    )


def inventory_profile(target: str, project: Path | None = None) -> Profile:
    """The profile of the configured server `inventory:KEY` names (KEY: as `inventory`
    lists it, or a name configured once), `project` (default: the current folder) giving
    the project's files. Raises TargetError saying what is configured."""
    from inspector.settings.inventory import read_inventory

    if not target.removeprefix(INVENTORY_PREFIX).strip():
        raise TargetError("inventory: needs a configured server (inventory:KEY)")
    try:
        server = read_inventory(project or Path.cwd()).find(target)
    except LookupError as exc:
        raise TargetError(str(exc)) from exc
    return server.profile
