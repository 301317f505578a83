"""Versions and eras: what the app offers and how it classifies a version it meets."""

from __future__ import annotations

import pytest

from inspector.protocol.wire.versions import (
    ALL_VERSIONS,
    LATEST_LEGACY,
    LATEST_MODERN,
    LEGACY_VERSIONS,
    Era,
    era_of,
    features,
    is_supported,
)


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_legacy_versions_are_legacy(version: str) -> None:
    assert era_of(version) is Era.LEGACY
    assert features(version).era is Era.LEGACY
    assert features(version).version == version


def test_latest_versions() -> None:
    assert LATEST_LEGACY == "2025-11-25"
    assert LATEST_MODERN == "2026-07-28"
    assert era_of(LATEST_MODERN) is Era.MODERN


def test_unknown_future_version_is_modern_and_gets_the_newest_table() -> None:
    assert not is_supported("2027-01-01")
    assert era_of("2027-01-01") is Era.MODERN
    assert features("2027-01-01").version == LATEST_MODERN


def test_unknown_old_version_is_legacy_and_gets_the_newest_legacy_table() -> None:
    assert not is_supported("2024-01-01")
    assert era_of("2024-01-01") is Era.LEGACY
    assert features("2024-01-01").version == LATEST_LEGACY


def test_every_version_is_supported() -> None:
    assert all(is_supported(v) for v in ALL_VERSIONS)
    assert list(ALL_VERSIONS) == sorted(ALL_VERSIONS)


def test_modern_has_no_handshake_or_set_level() -> None:
    modern = features(LATEST_MODERN)
    assert not modern.knows_client_request("initialize")
    assert not modern.knows_client_request("logging/setLevel")
    assert not modern.knows_client_request("ping")
    assert modern.knows_client_request("subscriptions/listen")
    assert not features(LATEST_LEGACY).knows_client_request("subscriptions/listen")


def test_elicitation_appears_in_2025_06_18() -> None:
    assert "elicitation/create" not in features("2025-03-26").server_requests
    assert "elicitation/create" in features("2025-06-18").server_requests
