"""`OAuth` is composed of step objects sharing one `FlowContext`, not built by inheritance:
each step is a class of its own, holds its collaborators, and touches no other object's
private state. Also the listener lists of the flow and the timeline (`Listeners`)."""

from __future__ import annotations

import ast
import logging

import httpx
import pytest

from inspector.auth import AuthEvent, AuthStore, AuthTimeline, OAuth, headless_opener
from inspector.auth.flow.browser import AuthorizationPrompt
from inspector.auth.flow.context import FlowContext
from inspector.auth.flow.discovery import Discovery
from inspector.auth.flow.dpop_state import DpopState
from inspector.auth.flow.grants import Grants
from inspector.auth.flow.registration import Registration
from inspector.auth.flow.stored_tokens import StoredTokens
from inspector.auth.flow.token_endpoint import TokenEndpoint
from tests.helpers.auth_fakes import MCP_URL, FakeWorld
from tests.helpers.peers import REPO

pytestmark = pytest.mark.timeout(30)

STEPS = (Discovery, Registration, TokenEndpoint, Grants, StoredTokens, FlowContext, DpopState)
STEP_MODULES = (
    "flow/discovery",
    "flow/registration",
    "flow/token_endpoint",
    "flow/grants",
    "flow/stored_tokens",
    "flow/context",
    "flow/dpop_state",
    "oauth",
)


def test_oauth_inherits_only_httpx_auth() -> None:
    assert OAuth.__mro__ == (OAuth, httpx.Auth, object)


@pytest.mark.parametrize("step", STEPS, ids=lambda cls: cls.__name__)
def test_each_step_is_a_class_of_its_own(step: type) -> None:
    assert step.__mro__ == (step, object)


@pytest.mark.parametrize("module", STEP_MODULES)
def test_no_step_reaches_into_another_objects_private_state(module: str) -> None:
    """`self._registration.client` is fine; `self._registration._pending` is not."""
    path = REPO / "inspector" / "auth" / f"{module}.py"
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    reaching = [
        f"{path.name}:{node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not (node.attr.startswith("__") and node.attr.endswith("__"))
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]
    assert reaching == []


async def test_an_opener_set_later_is_the_one_the_login_uses() -> None:
    world = FakeWorld()
    oauth = OAuth(
        MCP_URL,
        store=AuthStore(memory_only=True),
        opener=headless_opener(transport=httpx.MockTransport(lambda _r: httpx.Response(500))),
        http_transport=world.transport,
    )
    follow = headless_opener(transport=world.transport)
    opened: list[str] = []

    async def opener(prompt: AuthorizationPrompt) -> None:
        opened.append(prompt.url)
        await follow(prompt)

    oauth.opener = opener
    assert oauth.opener is opener
    await oauth.login()
    assert len(opened) == 1 and oauth.logged_in


def test_a_failing_listener_is_logged_and_the_others_still_hear(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(event: AuthEvent) -> None:
        raise RuntimeError("boom")

    seen: list[str] = []
    oauth = OAuth(MCP_URL, store=AuthStore(memory_only=True), listener=broken)
    oauth.add_listener(lambda event: seen.append(event.step))
    with caplog.at_level(logging.ERROR):
        oauth.logout()
    assert seen == ["logout"]
    assert "an auth listener failed" in caplog.text
    caplog.clear()
    oauth.remove_listener(broken)
    oauth.remove_listener(broken)  # not subscribed any more: nothing happens
    oauth.logout()
    assert seen == ["logout", "logout"] and "failed" not in caplog.text


def test_the_timeline_keeps_its_listeners_apart(caplog: pytest.LogCaptureFixture) -> None:
    def broken(event: AuthEvent) -> None:
        raise RuntimeError("boom")

    timeline = AuthTimeline()
    seen: list[str] = []
    timeline.add_listener(broken)
    timeline.add_listener(lambda event: seen.append(event.step))
    with caplog.at_level(logging.ERROR):
        timeline(AuthEvent("a", "m"))
    assert seen == ["a"] and [e.step for e in timeline.events] == ["a"]
    assert "an auth timeline listener failed" in caplog.text
    timeline.remove_listener(broken)
    caplog.clear()
    timeline(AuthEvent("b", "m"))
    assert seen == ["a", "b"] and "failed" not in caplog.text
