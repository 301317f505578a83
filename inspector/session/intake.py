"""`FrameIntake`: received frames → the connection, the traffic observers, the listeners.

The hot path of a session. A read from the transport brings every complete frame it
held (`FramesReceived`); they are taken in one wake-up (within a time budget, so a flood
never freezes the GUI), and the session re-arms its timer and flushes its outbox once
after all of them, not once per frame. Runs of plain frames (each meaning one quiet event:
a notification, an answer) reach the traffic observers together, then their events the
listeners, in order; any other frame ends the run and is taken alone, with its notes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from inspector.protocol.machine.connection import ClientConnection
from inspector.protocol.machine.events import Event, NotificationReceived, RequestCompleted
from inspector.protocol.wire.jsonrpc import Invalid, ParsedFrame, parse_frame
from inspector.session.frames import batch_members, frame_note, oversized
from inspector.session.traffic_reporter import TrafficReporter
from inspector.traffic.record import TrafficRecord
from inspector.transports.base import FrameReceived, FramesReceived

__all__ = ["WAKE_BUDGET", "FrameIntake"]

# How long one wake-up may parse frames before the loop (the GUI) runs again; the run's
# observers and listeners after that take about as long again (so ~10 ms a wake-up).
WAKE_BUDGET: Final = 0.004
# Events that put no note on the frame that caused them (see frame_note).
_QUIET: Final[frozenset[type]] = frozenset({NotificationReceived, RequestCompleted})


class FrameIntake:
    def __init__(
        self,
        traffic: TrafficReporter,
        dispatch: Callable[[Event], None],
        clock: Callable[[], float],
        transport_kind: str,
    ) -> None:
        self._traffic = traffic
        self._dispatch = dispatch
        self._clock = clock
        self._stdio = transport_kind == "stdio"

    def take_batch(self, conn: ClientConnection, batch: FramesReceived, start: int) -> int:
        """Take the frames of `batch` from `start` on, as many as fit in `WAKE_BUDGET` s
        (at least one); returns the index of the first frame not taken."""
        now = self._clock()
        wall = time.time()
        receive = conn.receive
        record_in = self._traffic.record_in
        observed = self._traffic.observed  # no observer (the CLI): no records to build
        records: list[TrafficRecord] = []
        quiet: list[Event] = []
        raws, sizes = batch.raws, batch.sizes
        end = len(raws)
        budget = time.perf_counter() + WAKE_BUDGET
        index = start
        while index < end:
            raw = raws[index]
            size = sizes[index]
            index += 1
            if not index & 127 and time.perf_counter() > budget:
                end = index
            frame = parse_frame(raw)
            invalid = type(frame) is Invalid
            # (isinstance after the cheap test, for the type checker: only invalid frames pay it)
            if invalid and isinstance(frame, Invalid) and isinstance(frame.value, list):  # a batch
                if quiet:
                    self._flush(records, quiet)
                    records, quiet = [], []
                if self._take_json_batch(conn, FrameReceived(raw, size), frame):
                    continue
            events = receive(frame, now)
            if not invalid and len(events) == 1 and type(events[0]) in _QUIET:
                if observed:
                    records.append(record_in(raw, size, frame, now, wall))
                quiet.append(events[0])
                continue
            if quiet:
                self._flush(records, quiet)
                records, quiet = [], []
            self._report(raw, size, None, frame, events, now, wall)
        if quiet:
            self._flush(records, quiet)
        return end

    def take_one(
        self, conn: ClientConnection, event: FrameReceived, batch_note: str | None = None
    ) -> None:
        """A frame that came alone (over HTTP, cut at the size limit, from a test peer), or
        a member of a JSON-RPC batch (`batch_note` says which)."""
        now = self._clock()
        frame: ParsedFrame = oversized(event) if event.truncated else parse_frame(event.raw)
        # A JSON-RPC batch is unpacked (once: a batch inside a batch is not).
        if (
            batch_note is None
            and type(frame) is Invalid
            and isinstance(frame.value, list)
            and self._take_json_batch(conn, event, frame)
        ):
            return
        events = conn.receive(frame, now)
        self._report(event.raw, event.size, event, frame, events, now, time.time(), batch_note)

    def _take_json_batch(
        self, conn: ClientConnection, event: FrameReceived, frame: Invalid
    ) -> bool:
        """A JSON-RPC batch: each member handled (and logged) as a message of its own, with a
        note that it came in a batch (and a violation where the version has no batches)."""
        batch = batch_members(event, frame, conn.protocol_version)
        if batch is None:
            return False
        members, violation = batch
        for n, (member, note) in enumerate(members):
            self.take_one(conn, member, note)
            if n == 0 and violation is not None:  # about the batch's first row, now logged
                self._dispatch(violation)
        return True

    def _flush(self, records: list[TrafficRecord], events: list[Event]) -> None:
        if records:
            self._traffic.received_many(records)
        dispatch = self._dispatch
        for event in events:
            dispatch(event)

    def _report(
        self,
        raw: str | bytes,
        size: int,
        event: FrameReceived | None,
        frame: ParsedFrame,
        events: list[Event],
        now: float,
        wall: float,
        batch_note: str | None = None,
    ) -> None:
        # What the frame means comes first, so its log entry can say what is wrong with it;
        # observers still see the frame before its consequences.
        if (
            batch_note is None
            and len(events) == 1
            and type(events[0]) in _QUIET
            and type(frame) is not Invalid
        ):
            note = None  # the common case
        else:
            notes: list[str] = [batch_note] if batch_note else []
            if isinstance(frame, Invalid):
                pollution = self._stdio and frame.reason.startswith("not JSON")
                notes.append(f"stdout pollution: {frame.reason}" if pollution else frame.reason)
            notes.extend(n for ev in events if (n := frame_note(ev)) is not None)
            note = "; ".join(notes) or None
        self._traffic.received(raw, size, frame, now, wall, note, event)
        dispatch = self._dispatch
        for ev in events:
            dispatch(ev)
