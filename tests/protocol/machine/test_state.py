"""The connection's lifecycle table: every legal transition, and every other one refused."""

from __future__ import annotations

import itertools
import re
from collections import deque
from pathlib import Path

import pytest

from inspector.protocol.machine import connection
from inspector.protocol.machine.state import (
    TRANSITIONS,
    ConnectionState,
    ConnectionStateMachine,
    IllegalTransition,
    Trigger,
)
from inspector.protocol.wire.errors import LocalProtocolError

S = ConnectionState
T = Trigger

EXPECTED = {
    (S.IDLE, T.START_LEGACY): S.INITIALIZING,
    (S.IDLE, T.START_MODERN): S.DISCOVERING,
    (S.IDLE, T.START_AUTO): S.PROBING,
    (S.PROBING, T.DISCOVER_ANSWERED): S.READY,
    (S.PROBING, T.FALLBACK_TO_LEGACY): S.INITIALIZING,
    (S.PROBING, T.HANDSHAKE_FAILED): S.FAILED,
    (S.DISCOVERING, T.DISCOVER_ANSWERED): S.READY,
    (S.DISCOVERING, T.DISCOVER_NOT_IMPLEMENTED): S.READY,
    (S.DISCOVERING, T.HANDSHAKE_FAILED): S.FAILED,
    (S.INITIALIZING, T.INITIALIZE_ANSWERED): S.READY,
    (S.INITIALIZING, T.BACK_TO_MODERN): S.DISCOVERING,
    (S.INITIALIZING, T.HANDSHAKE_FAILED): S.FAILED,
    (S.IDLE, T.CONNECTION_LOST): S.CLOSED,
    (S.PROBING, T.CONNECTION_LOST): S.CLOSED,
    (S.DISCOVERING, T.CONNECTION_LOST): S.CLOSED,
    (S.INITIALIZING, T.CONNECTION_LOST): S.CLOSED,
    (S.READY, T.CONNECTION_LOST): S.CLOSED,
    (S.CLOSED, T.CONNECTION_LOST): S.CLOSED,
    (S.FAILED, T.CONNECTION_LOST): S.FAILED,
}

ILLEGAL = [pair for pair in itertools.product(S, T) if pair not in EXPECTED]


def path_to(target: ConnectionState) -> list[Trigger]:
    """The shortest list of triggers that takes a new machine from IDLE to `target`."""
    seen = {S.IDLE: list[Trigger]()}
    queue = deque([S.IDLE])
    while queue:
        state = queue.popleft()
        for (source, trigger), new in TRANSITIONS.items():
            if source is state and new not in seen:
                seen[new] = [*seen[state], trigger]
                queue.append(new)
    return seen[target]


def machine_in(state: ConnectionState) -> ConnectionStateMachine:
    machine = ConnectionStateMachine()
    for trigger in path_to(state):
        why = "lost" if trigger in (T.HANDSHAKE_FAILED, T.CONNECTION_LOST) else None
        machine.fire(trigger, why=why)
    assert machine.state is state
    return machine


def test_the_table_is_exactly_the_lifecycle() -> None:
    assert dict(TRANSITIONS) == EXPECTED


def test_a_new_machine_is_idle_and_has_not_failed() -> None:
    machine = ConnectionStateMachine()
    assert machine.state is S.IDLE
    assert machine.failure is None


@pytest.mark.parametrize("state", list(S), ids=str)
def test_every_state_is_reachable_from_idle(state: ConnectionState) -> None:
    machine_in(state)


@pytest.mark.parametrize(
    ("source", "trigger", "target"),
    [(source, trigger, target) for (source, trigger), target in EXPECTED.items()],
    ids=lambda v: str(v),
)
def test_every_legal_transition(
    source: ConnectionState, trigger: Trigger, target: ConnectionState
) -> None:
    machine = machine_in(source)
    assert machine.fire(trigger, why="why") is target
    assert machine.state is target


@pytest.mark.parametrize(("source", "trigger"), ILLEGAL, ids=lambda v: str(v))
def test_every_other_transition_is_refused(source: ConnectionState, trigger: Trigger) -> None:
    machine = machine_in(source)
    failure = machine.failure
    with pytest.raises(IllegalTransition, match=f"{trigger} in state {source}") as caught:
        machine.fire(trigger)
    assert isinstance(caught.value, LocalProtocolError)
    assert (caught.value.state, caught.value.trigger) == (source, trigger)
    assert machine.state is source  # a refused trigger changes nothing
    assert machine.failure == failure


def test_a_failure_records_why() -> None:
    machine = machine_in(S.INITIALIZING)
    machine.fire(T.HANDSHAKE_FAILED, why="initialize failed: -32600 nope")
    assert machine.failure == "initialize failed: -32600 nope"


def test_losing_the_connection_after_a_failure_keeps_the_failure() -> None:
    machine = machine_in(S.DISCOVERING)
    machine.fire(T.HANDSHAKE_FAILED, why="server/discover timed out")
    assert machine.fire(T.CONNECTION_LOST, why="the session was closed") is S.FAILED
    assert machine.failure == "server/discover timed out"


def test_losing_the_connection_records_the_latest_reason() -> None:
    machine = machine_in(S.READY)
    assert machine.failure is None
    machine.fire(T.CONNECTION_LOST, why="the session was closed")
    assert machine.failure == "the session was closed"
    machine.fire(T.CONNECTION_LOST, why="server exited (code 0)")
    assert machine.failure == "server exited (code 0)"


def test_the_connection_module_still_exports_the_state_enum() -> None:
    assert connection.ConnectionState is ConnectionState


def test_no_other_module_sets_a_state() -> None:
    package = Path(connection.__file__).parent
    assignment = re.compile(r"(?<![=!<>])=\s*ConnectionState\.|\.state\s*=(?!=)")
    offenders = [
        f"{path.name}:{number}"
        for path in sorted(package.glob("*.py"))
        if path.name != "state.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if assignment.search(line)
    ]
    assert offenders == []
