"""What the traffic observers (the log, the recorder) hear from one session: every frame
sent or received, valid or not, with both timestamps; stderr lines, HTTP exchanges, notes
about what the session did (a re-send, a cancel by closing a stream) and the transport's end.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.wire.jsonrpc import Invalid, Message, ParsedFrame
from inspector.traffic.record import (
    TrafficBatchObserver,
    TrafficObserver,
    TrafficRecord,
    kind_of,
    note_record,
)
from inspector.transports.base import FrameReceived, HttpExchange, StderrLine, TransportClosed

__all__ = ["TrafficReporter"]


class TrafficReporter:
    def __init__(self, transport_kind: str, clock: Callable[[], float]) -> None:
        self._kind = transport_kind
        self._clock = clock
        self._observers: Listeners[[TrafficRecord]] = Listeners("traffic observer")
        # The same observers, each in its batch form when it has one (else one by one).
        self._batch: Listeners[[Sequence[TrafficRecord]]] = Listeners("traffic observer")

    def add(
        self, observer: TrafficObserver, many: TrafficBatchObserver | None = None
    ) -> Unsubscribe:
        """`observer(record)` for every record; `many(records)`, if given, takes a run of
        records that arrived together instead (same records, same order, one call)."""
        if many is None:

            def many(records: Sequence[TrafficRecord]) -> None:
                for record in records:
                    observer(record)

        remove_one = self._observers.add(observer)
        remove_many = self._batch.add(many)

        def unsubscribe() -> None:
            remove_one()
            remove_many()

        return unsubscribe

    @property
    def observed(self) -> bool:
        """Does anyone observe the traffic? (the CLI without --record: no one)"""
        return bool(self._batch)

    def received_many(self, records: Sequence[TrafficRecord]) -> None:
        """Plain frames that arrived together (built by `record_in`), in order."""
        self._batch.emit(records)

    def record_in(
        self, raw: str | bytes, size: int, frame: ParsedFrame, now: float, wall: float
    ) -> TrafficRecord:
        """The record of a plain received frame (no note, not cut, no HTTP)."""
        return TrafficRecord("in", kind_of(frame), raw, now, wall, self._kind, frame, size)

    def sent(self, text: str, frame: Message | Invalid) -> None:
        self._observers.emit(
            TrafficRecord(
                direction="out",
                kind=kind_of(frame),
                raw=text,
                mono=self._clock(),
                wall=time.time(),
                transport=self._kind,
                frame=frame,
                size=len(text),
                note=frame.reason if isinstance(frame, Invalid) else None,
            )
        )

    def received(
        self,
        raw: str | bytes,
        size: int,
        frame: ParsedFrame,
        now: float,
        wall: float,
        note: str | None,
        event: FrameReceived | None = None,
    ) -> None:
        """A frame from the server; `event` when it came alone (it may say more: cut at
        the size limit, the HTTP exchange that carried it), None for one of a batch."""
        if event is None:
            record = TrafficRecord(
                "in", kind_of(frame), raw, now, wall, self._kind, frame, size, False, note
            )
        else:
            record = TrafficRecord(
                "in",
                kind_of(frame),
                raw,
                now,
                wall,
                self._kind,
                frame,
                size,
                event.truncated,
                note,
                event.http,
                event.sse_event_id,
            )
        self._observers.emit(record)

    def side(self, record: TrafficRecord) -> None:
        """A row that is not an MCP frame of this session (a model exchange): to the same
        observers, so the log shows it and the recorder keeps it."""
        self._observers.emit(record)

    def note(self, text: str) -> None:
        self._observers.emit(note_record(text, self._kind, mono=self._clock()))

    def stderr(self, event: StderrLine) -> None:
        self._observers.emit(
            TrafficRecord(
                direction="",
                kind="stderr",
                raw=event.text,
                mono=self._clock(),
                wall=time.time(),
                transport=self._kind,
                truncated=event.truncated,
            )
        )

    def http(self, event: HttpExchange) -> None:
        self._observers.emit(
            TrafficRecord(
                direction="",
                kind="http",
                raw=f"{event.method} {event.url} → {event.status}",
                mono=self._clock(),
                wall=time.time(),
                transport=self._kind,
                http=event,
                note=event.note,
            )
        )

    def closed(self, event: TransportClosed) -> None:
        self._observers.emit(
            note_record(event.reason, self._kind, "transport closed", mono=self._clock())
        )
