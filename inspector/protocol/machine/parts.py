"""What the parts of one `ClientConnection` share, as one object.

The handshake, the MRTR rounds, the server side and the response router each work on the
same few pieces of state (the config, the lifecycle, what was negotiated, the pending and
ask tables, the outbox, the ids we are done with, the wire). h11 hands its state to its
parts explicitly; so do we, once, instead of the same list of collaborators each.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.protocol.machine.ask_table import AskTable
from inspector.protocol.machine.config import ClientConfig
from inspector.protocol.machine.negotiated import Negotiated
from inspector.protocol.machine.outbox import Outbox
from inspector.protocol.machine.pending_table import PendingTable
from inspector.protocol.machine.recent_ids import RecentIds
from inspector.protocol.machine.request_wire import RequestWire
from inspector.protocol.machine.state import ConnectionStateMachine
from inspector.protocol.machine.version_retry import VersionRetry

__all__ = ["ConnectionParts"]


@dataclass(frozen=True, slots=True)
class ConnectionParts:
    config: ClientConfig
    lifecycle: ConnectionStateMachine
    negotiated: Negotiated
    pending: PendingTable
    asks: AskTable
    outbox: Outbox
    given_up: RecentIds[tuple[str, str]]  # id -> (method, why): a late answer is named
    answered: RecentIds[str]  # id -> method: a second answer is named
    wire: RequestWire
    versions: VersionRetry
