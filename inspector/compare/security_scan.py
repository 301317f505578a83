"""The security scan's pipeline, headless: targets -> `ServerDefinitions` -> findings.

    profiles = [profile_for_target(t, profiles=store) for t in targets]   # as `diff` takes them
    scanned = await scan_profiles(profiles, timeout=30, pins=PinStore())  # concurrently
    findings = findings_of(scanned)          # every rule, cross-server ones over all targets

Read-only: each server is listed (every kind, every page), the prompts that need no
argument are fetched with `prompts/get` (their messages are scanned), and when the server
says `notifications/tools/list_changed` during the scan its tools are listed again, the
first listing kept as what this session saw first (a rug pull shows as a change). No tool
is ever called and no resource read. A profile's roots are declared to the server and
are the roots `file://` resources are checked against; its pins (trust on first use,
`features/catalog/pins.py`) are read, never written.

`definitions_from_snapshot` is the one adapter from what the inspector lists
(`CatalogSnapshot`, also `snapshot_from_connection` of a GUI tab) to the rules' input.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector.compare.live import Lister, Side, SideOutcome, fetch_side
from inspector.compare.snapshot import CatalogSnapshot, snapshot_from_session
from inspector.compare.targets import target_label
from inspector.core.server_connection import ServerConnection, SessionError, SessionItem
from inspector.features.catalog.pins import PinStore
from inspector.security import SecurityFinding, ServerDefinitions, scan
from inspector.security.sarif import Place
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore

__all__ = [
    "ScannedServer",
    "definitions_from_snapshot",
    "findings_of",
    "pin_scope",
    "prompts_without_arguments",
    "scan_profile",
    "scan_profiles",
]

log = logging.getLogger(__name__)

TOOLS_CHANGED: Final = "notifications/tools/list_changed"
MAX_PROMPTS: Final = 100  # prompts/get at most this many prompts per server
MAX_RELISTS: Final = 3  # a server that says its tools changed forever is listed this often
MAX_NAME: Final = 100  # a server's name longer than this is cut (it starts every line)
AT_ONCE: Final = 8  # targets connected and listed at the same time
PROMPT_WAIT: Final = 10.0  # seconds for one prompts/get; one that takes longer ends the fetching


@dataclass
class ScannedServer:
    """One target, scanned: its definitions (None when it could not be listed at all)."""

    target: str  # as given
    label: str  # what it connects to, for messages
    name: str  # the server's name in findings (unique among the targets)
    outcome: SideOutcome
    definitions: ServerDefinitions | None = None
    snapshot: CatalogSnapshot | None = None
    error: str | None = None  # why it could not be reached or fully listed
    notes: list[str] = field(default_factory=list)  # prompts/get failures, relistings
    place: Place | None = None  # for SARIF: the URL, the script run (an inventory: file, line)

    @property
    def ok(self) -> bool:
        return self.outcome == "listed" and self.error is None


def definitions_from_snapshot(
    name: str,
    snap: CatalogSnapshot,
    *,
    roots: Sequence[str] = (),
    prompt_messages: Mapping[str, Any] | None = None,
    pinned: Mapping[str, Any] | None = None,
    first_seen: Mapping[str, Any] | None = None,
) -> ServerDefinitions:
    """The rules' input from a catalog snapshot (and what is known around it)."""
    return ServerDefinitions(
        name,
        tools=list(snap.tools),
        prompts=list(snap.prompts),
        resources=list(snap.resources),
        templates=list(snap.templates),
        instructions=snap.instructions,
        roots=list(roots),
        prompt_messages=dict(prompt_messages or {}),
        pinned=dict(pinned or {}),
        first_seen=dict(first_seen or {}),
    )


def prompts_without_arguments(prompts: Sequence[Any]) -> list[str]:
    """The names of the prompts `prompts/get` can fetch with no arguments (none required)."""
    names: list[str] = []
    for prompt in prompts:
        if not isinstance(prompt, dict) or not isinstance(prompt.get("name"), str):
            continue
        arguments = prompt.get("arguments")
        required = isinstance(arguments, list) and any(
            isinstance(a, dict) and a.get("required") is True for a in arguments
        )
        if not required:
            names.append(prompt["name"])
    return names


def pin_scope(profile: Profile, *, saved: bool) -> str:
    """Whose pins a profile's tools are checked against, as the app does
    (`core.profiles.KnownProfiles.pin_scope`): a saved profile's own, else its target's."""
    return profile.id if saved else f"target:{profile.target}"


def _run_words(command: str, args: Sequence[str]) -> list[str]:
    """The command line past an `env` in front (its options and `NAME=value` words)."""
    words = [command, *args]
    if Path(command).name != "env":
        return words
    rest = words[1:]
    while rest and (rest[0].startswith("-") or "=" in rest[0]):
        rest = rest[1:]
    return rest


def target_place(profile: Profile) -> Place | None:
    """The target's URL, or the script a command runs (relative to the working folder
    when under it): where a SARIF viewer can point. The script is the first file among
    the first arguments (past an interpreter's options), else the command itself when it
    is a file (an installed server's own script); an `env NAME=value` in front is skipped."""
    if profile.transport == "http":
        return Place(profile.http.url) if profile.http.url else None
    words = _run_words(profile.stdio.command, profile.stdio.args)
    if not words:
        return None
    candidates = [w for w in words[1:4] if not w.startswith("-")] + [words[0]]
    for word in candidates:
        path = Path(profile.stdio.cwd or ".", word)
        if not word or ("/" not in word and word == words[0]) or not path.is_file():
            continue
        try:
            return Place(path.resolve().relative_to(Path.cwd()).as_posix())
        except ValueError:
            return Place(path.resolve().as_uri())
    return None


_place = target_place  # its former name, for code written against it


@dataclass
class _Extra:
    """What the scan's lister learns beside the snapshot."""

    first_tools: list[dict[str, Any]] | None = None
    messages: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


async def _prompt_messages(session: ServerConnection, snap: CatalogSnapshot, extra: _Extra) -> None:
    names = prompts_without_arguments(snap.prompts)
    if len(names) > MAX_PROMPTS:
        extra.notes.append(f"only the first {MAX_PROMPTS} of {len(names)} prompts were fetched")
    for prompt in names[:MAX_PROMPTS]:
        try:
            result = await asyncio.wait_for(session.get_prompt(prompt), PROMPT_WAIT)
        except TimeoutError:
            extra.notes.append(f"prompts/get {prompt!r} gave no answer in {PROMPT_WAIT:g} s")
            return
        except SessionError as exc:
            extra.notes.append(f"prompts/get {prompt!r} failed: {exc}")
            continue
        messages = result.get("messages") if isinstance(result, dict) else None
        if isinstance(messages, list):
            extra.messages[prompt] = messages


def _lister(extra: _Extra) -> Lister:
    async def list_for_scan(session: ServerConnection, snap: CatalogSnapshot) -> CatalogSnapshot:
        heard = 0

        def hear(item: SessionItem) -> None:
            nonlocal heard
            notification = getattr(item, "notification", None)
            if getattr(notification, "method", None) == TOOLS_CHANGED:
                heard += 1

        unsubscribe = session.add_listener(hear, notifications=(TOOLS_CHANGED,))
        try:
            await snapshot_from_session(session, snap)
            if "prompts" not in snap.errors and snap.prompts:
                await _prompt_messages(session, snap, extra)
            seen = 0
            while heard > seen and seen < MAX_RELISTS and "tools" not in snap.errors:
                seen = heard
                if extra.first_tools is None:
                    extra.first_tools = list(snap.tools)
                try:
                    snap.tools = [t for t in await session.list_tools() if isinstance(t, dict)]
                except SessionError as exc:
                    extra.notes.append(f"tools/list again (after list_changed) failed: {exc}")
                    break
                extra.notes.append("the server said its tools changed; they were listed again")
        finally:
            unsubscribe()
        return snap

    return list_for_scan


async def scan_profile(
    profile: Profile,
    *,
    target: str = "",
    timeout: float,
    secrets: SecretStore | None = None,
    pinned: Mapping[str, Any] | None = None,
) -> ScannedServer:
    """Connect to `profile`'s server, list it read-only (see the module), close. Never
    raises for the server's sake: the outcome says what happened. Its findings' server
    name is the profile's name, else the server's own, else what it connects to (made
    unique by `scan_profiles`)."""
    extra = _Extra()
    side: Side = await fetch_side(
        "target", profile, timeout=timeout, secrets=secrets, lister=_lister(extra)
    )
    label = target_label(profile)
    snap = side.snapshot
    info_name = snap.server_info.get("name") if snap is not None else None
    name = profile.name or (info_name if isinstance(info_name, str) and info_name else label)
    name = name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    scanned = ScannedServer(
        target=target or label,
        label=label,
        name=name,
        outcome=side.outcome,
        snapshot=snap,
        error=side.error,
        notes=extra.notes,
        place=target_place(profile),
    )
    if snap is not None:
        first = extra.first_tools
        scanned.definitions = definitions_from_snapshot(
            name,
            snap,
            roots=[r.uri for r in profile.roots],
            prompt_messages=extra.messages,
            pinned=pinned,
            first_seen={t["name"]: t for t in first if isinstance(t.get("name"), str)}
            if first is not None
            else None,
        )
    return scanned


def _unique(scanned: list[ScannedServer]) -> None:
    taken: dict[str, int] = {}
    for s in scanned:
        count = taken.get(s.name, 0) + 1
        taken[s.name] = count
        if count > 1:
            s.name = f"{s.name} ({count})"
            if s.definitions is not None:
                s.definitions = dataclasses.replace(s.definitions, name=s.name)


async def scan_profiles(
    profiles: Sequence[Profile],
    *,
    targets: Sequence[str] = (),
    timeout: float,
    secrets: SecretStore | None = None,
    pins: PinStore | None = None,
    saved: frozenset[str] = frozenset(),
) -> list[ScannedServer]:
    """Every profile scanned concurrently (`AT_ONCE` at a time), in the order given,
    names made unique.
    `pins`: the pin file to read (never written); `saved`: the ids of saved profiles
    (their own pin scope; any other profile uses its target's)."""

    def pinned(profile: Profile) -> dict[str, Any]:
        if pins is None:
            return {}
        scope = pin_scope(profile, saved=profile.id in saved)
        return {name: pin.get("definition") for name, pin in pins.pins(scope).items()}

    gate = asyncio.Semaphore(AT_ONCE)

    async def one(index: int, profile: Profile) -> ScannedServer:
        async with gate:
            return await scan_profile(
                profile,
                target=targets[index] if index < len(targets) else "",
                timeout=timeout,
                secrets=secrets,
                pinned=pinned(profile),
            )

    scanned = list(await asyncio.gather(*(one(i, p) for i, p in enumerate(profiles))))
    _unique(scanned)
    return scanned


def findings_of(scanned: Sequence[ScannedServer]) -> list[SecurityFinding]:
    """Every rule over the targets that were listed (cross-server rules over all of them)."""
    return scan([s.definitions for s in scanned if s.definitions is not None])
