"""The one listener type: subscribe, unsubscribe, order, and a faulty listener."""

from __future__ import annotations

import logging

import pytest

from inspector.common.listeners import Listeners


def test_listeners_hear_every_emit_in_order_until_they_unsubscribe() -> None:
    heard: list[tuple[str, int]] = []
    listeners: Listeners[[int]] = Listeners()
    stop_a = listeners.add(lambda n: heard.append(("a", n)))
    listeners.add(lambda n: heard.append(("b", n)))
    listeners.emit(1)
    stop_a()
    stop_a()  # a second unsubscribe is harmless
    listeners.emit(2)
    assert heard == [("a", 1), ("b", 1), ("b", 2)]
    assert len(listeners) == 1 and listeners


def test_a_failing_listener_is_logged_and_the_others_still_hear(
    caplog: pytest.LogCaptureFixture,
) -> None:
    heard: list[int] = []
    listeners: Listeners[[int]] = Listeners("catalog listener")

    def broken(_n: int) -> None:
        raise RuntimeError("boom")

    listeners.add(broken)
    listeners.add(heard.append)
    with caplog.at_level(logging.ERROR):
        listeners.emit(7)
    assert heard == [7]
    assert "catalog listener failed" in caplog.text


def test_a_listener_may_unsubscribe_while_it_runs() -> None:
    heard: list[str] = []
    listeners: Listeners[[]] = Listeners()

    def once() -> None:
        heard.append("once")
        stop()

    stop = listeners.add(once)
    listeners.add(lambda: heard.append("always"))
    listeners.emit()
    listeners.emit()
    assert heard == ["once", "always", "always"]
    assert not Listeners()
