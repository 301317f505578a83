"""`profile_in_use`: the connected profile while the connection is up or coming up, else the
one chosen in the connection bar, else the one last connected."""

from __future__ import annotations

import pytest

from inspector.core.connection_state import ConnState, profile_in_use
from inspector.settings.profiles import Profile

LIVE = Profile(name="live")
CHOSEN = Profile(name="chosen")


@pytest.mark.parametrize("state", [ConnState.CONNECTED, ConnState.CONNECTING])
def test_a_live_connection_is_about_its_own_profile(state: ConnState) -> None:
    assert profile_in_use(LIVE, state, lambda: CHOSEN) is LIVE


@pytest.mark.parametrize("state", [ConnState.DISCONNECTED, ConnState.FAILED, ConnState.LOST])
def test_otherwise_the_chosen_profile_then_the_last_one(state: ConnState) -> None:
    assert profile_in_use(LIVE, state, lambda: CHOSEN) is CHOSEN
    assert profile_in_use(LIVE, state, lambda: None) is LIVE
    assert profile_in_use(None, state, lambda: None) is None
