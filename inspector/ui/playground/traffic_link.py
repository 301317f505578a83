"""From a tool call's card to its rows in a traffic log: the `tools/call` request sent under
the call's JSON-RPC id (the latest one, as ids may repeat across sessions), selected so that
its answer is highlighted as its pair."""

from __future__ import annotations

from inspector.ui.traffic.log_panel import TrafficLogPanel

__all__ = ["request_index", "reveal_request"]


def request_index(panel: TrafficLogPanel, request_id: str | int) -> int | None:
    """The log index of the latest outgoing `tools/call` with this id (None: not there)."""
    log = panel.log
    for index in range(len(log) - 1, -1, -1):
        entry = log[index]
        if (
            entry.direction == "out"
            and entry.kind == "request"
            and entry.method == "tools/call"
            and entry.msg_id == request_id
        ):
            return index
    return None


def reveal_request(panel: TrafficLogPanel, request_id: str | int) -> bool:
    """Select the request's row (a filter hiding it is cleared, and that is said)."""
    index = request_index(panel, request_id)
    return index is not None and panel.reveal_entry(index)
