"""The App tab's answer to `ui/notifications/size-changed`, without Qt: the height asked for,
clamped to 120 px .. 4 × the visible area, the maxHeight the app is told, and what the host
refuses as a size."""

from __future__ import annotations

import json

import pytest

from inspector.features.mcp_apps.sizing import MAX_SCREENS, MIN_HEIGHT, fit_height, max_height
from tests.features.mcp_apps.test_host import handshake, make_host, rpc, settle


def test_a_height_within_bounds_is_given_as_asked() -> None:
    fit = fit_height(400, 600)
    assert (fit.height, fit.clamped) == (400, None)
    assert fit.describe(400, 600) == "400 px"


def test_a_tiny_height_gets_the_minimum() -> None:
    fit = fit_height(0, 600)
    assert (fit.height, fit.clamped) == (MIN_HEIGHT, "min") == (120, "min")
    assert "the least an app gets; it asked for 0" in fit.describe(0, 600)


def test_a_huge_height_is_cut_at_four_visible_areas() -> None:
    fit = fit_height(10**6, 600)
    assert (fit.height, fit.clamped) == (MAX_SCREENS * 600, "max") == (2400, "max")
    assert "cut: at most 4 × the visible 600 px" in fit.describe(10**6, 600)
    assert fit_height(2400, 600).clamped is None  # the cap itself is allowed


def test_the_cap_is_never_below_the_minimum() -> None:
    assert max_height(10) == MIN_HEIGHT  # a tab squeezed to nothing
    assert max_height(-5) == MIN_HEIGHT
    assert fit_height(500, 10).height == MIN_HEIGHT


@pytest.mark.parametrize(
    "params",
    [
        {"width": 10, "height": -3},
        {"height": True},
        {"height": "400"},
        {"height": 1e300},
        {"width": [1]},
    ],
)
async def test_a_nonsense_size_is_flagged_and_changes_nothing(params: dict[str, object]) -> None:
    host, services = make_host()
    await handshake(host)
    host.receive(rpc(None, "ui/notifications/size-changed", {"width": 300, "height": 200}))
    host.receive(rpc(None, "ui/notifications/size-changed", params))
    await settle()
    assert host.size == (300, 200)
    problems = [e.text for e in services.events if e.kind == "problem"]
    assert any("finite numbers >= 0" in p for p in problems), problems


async def test_infinity_from_a_json_parser_that_allows_it_is_refused() -> None:
    host, services = make_host()
    await handshake(host)
    text = json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "ui/notifications/size-changed",
            "params": {"height": float("inf")},
        }
    )  # "Infinity": Python parses it
    host.receive(text)
    await settle()
    assert host.size == (None, None)  # never set
    assert not [e for e in services.events if e.kind == "size"]
    assert any(e.kind == "problem" for e in services.events)


async def test_the_host_context_tells_the_app_its_width_and_max_height() -> None:
    host, _services = make_host()
    context = host.context.as_json()["containerDimensions"]
    assert context == {"width": 640, "maxHeight": 480}
