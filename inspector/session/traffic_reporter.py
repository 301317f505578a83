"""What the traffic observers (the log, the recorder) hear from one session: every frame
sent or received, valid or not, with both timestamps; stderr lines, HTTP exchanges, notes
about what the session did (a re-send, a cancel by closing a stream) and the transport's end.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.protocol.jsonrpc import Invalid, Message, ParsedFrame
from inspector.traffic.record import TrafficObserver, TrafficRecord, kind_of
from inspector.transports.base import FrameReceived, HttpExchange, StderrLine, TransportClosed

__all__ = ["TrafficReporter"]


class TrafficReporter:
    def __init__(self, transport_kind: str, clock: Callable[[], float]) -> None:
        self._kind = transport_kind
        self._clock = clock
        self._observers: Listeners[[TrafficRecord]] = Listeners("traffic observer")

    def add(self, observer: TrafficObserver) -> Unsubscribe:
        return self._observers.add(observer)

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
        self, event: FrameReceived, frame: ParsedFrame, now: float, note: str | None
    ) -> None:
        self._observers.emit(
            TrafficRecord(
                direction="in",
                kind=kind_of(frame),
                raw=event.raw,
                mono=now,
                wall=time.time(),
                transport=self._kind,
                frame=frame,
                size=event.size,
                truncated=event.truncated,
                note=note,
                http=event.http,
                sse_event_id=event.sse_event_id,
            )
        )

    def side(self, record: TrafficRecord) -> None:
        """A row that is not an MCP frame of this session (a model exchange): to the same
        observers, so the log shows it and the recorder keeps it."""
        self._observers.emit(record)

    def note(self, text: str) -> None:
        self._observers.emit(
            TrafficRecord(
                direction="",
                kind="note",
                raw=text,
                mono=self._clock(),
                wall=time.time(),
                transport=self._kind,
            )
        )

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
            TrafficRecord(
                direction="",
                kind="note",
                raw=event.reason,
                mono=self._clock(),
                wall=time.time(),
                transport=self._kind,
                note="transport closed",
            )
        )
