"""One side of a compare, fetched headless: connect a profile, list everything, close.

`fetch_side` never raises for a server's sake: a server that cannot be reached, dies
mid-listing or runs out of time gives a `Side` that says so (with what it listed).
`fetch_both` runs both sides concurrently, so a slow side does not delay the other.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from inspector.compare.snapshot import CatalogSnapshot, snapshot_from_session
from inspector.core.server_connection import (
    ConnectError,
    ConnectTimeout,
    ServerConnection,
    connection_for,
)
from inspector.settings.connect import SetupError
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore

__all__ = ["Lister", "Side", "SideOutcome", "fetch_both", "fetch_side"]

log = logging.getLogger(__name__)

SideOutcome = Literal["listed", "unreachable", "timeout"]
# How a side is listed once connected: fills the snapshot it is given and returns it
# (`snapshot_from_session`; `scan` also fetches prompts and re-lists changed tools).
Lister = Callable[[ServerConnection, CatalogSnapshot], Awaitable[CatalogSnapshot]]


@dataclass
class Side:
    name: str  # "left" | "right"
    outcome: SideOutcome
    snapshot: CatalogSnapshot | None = None  # what was listed (part of it on a failure)
    error: str | None = None  # why the side could not be reached or fully listed

    @property
    def ok(self) -> bool:
        return self.outcome == "listed" and self.error is None


def _stderr_tail(session: ServerConnection | None) -> str:
    """The server's last words, when it ended on its own (not when we closed it)."""
    closed = session.closed if session is not None else None
    if closed is None or not closed.error:
        return ""
    tail = [line for line in (closed.stderr_tail if closed else ()) if line.strip()][-3:]
    return f" (last stderr: {' | '.join(tail)})" if tail else ""


async def fetch_side(
    name: str,
    profile: Profile,
    *,
    timeout: float,
    secrets: SecretStore | None = None,
    lister: Lister = snapshot_from_session,
) -> Side:
    """Connect, list every kind (all pages) with `lister`, close. `timeout` bounds the
    whole side."""
    session: ServerConnection | None = None
    snapshot: CatalogSnapshot | None = None

    async def work() -> CatalogSnapshot:
        nonlocal session, snapshot
        session = connection_for(profile, secrets)
        await session.connect(timeout=timeout)
        snapshot = CatalogSnapshot()
        return await lister(session, snapshot)

    try:
        snap = await asyncio.wait_for(work(), timeout)
    except (TimeoutError, ConnectTimeout):
        what = "listing" if session is not None and session.is_ready else "connecting"
        return Side(name, "timeout", snapshot, f"no answer within {timeout:g} s while {what}")
    except ConnectError as exc:
        tail = "" if "last stderr" in str(exc) else _stderr_tail(session)  # said once
        return Side(name, "unreachable", None, f"{exc}{tail}")
    except SetupError as exc:
        return Side(name, "unreachable", None, str(exc))
    finally:
        if session is not None:
            with contextlib.suppress(TimeoutError, Exception):
                await asyncio.wait_for(session.close(), 10)
    if snap.timed_out:
        return Side(name, "timeout", snap, _listing_problem(snap))
    if snap.errors:
        problem = _listing_problem(snap)
        tail = "" if "last stderr" in problem else _stderr_tail(session)
        return Side(name, "listed", snap, problem + tail)
    return Side(name, "listed", snap)


def _listing_problem(snap: CatalogSnapshot) -> str:
    kind, why = next(iter(snap.errors.items()))
    rest = len(snap.errors) - 1
    more = f" ({rest} more kind(s) not listed)" if rest else ""
    return f"listing {kind} failed: {why}{more}"


async def fetch_both(
    left: Profile, right: Profile, *, timeout: float, secrets: SecretStore | None = None
) -> tuple[Side, Side]:
    a, b = await asyncio.gather(
        fetch_side("left", left, timeout=timeout, secrets=secrets),
        fetch_side("right", right, timeout=timeout, secrets=secrets),
    )
    return a, b
