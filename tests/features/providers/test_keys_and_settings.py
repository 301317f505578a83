"""Providers are saved without their keys; keys live in the keyring (or nowhere, for a local
server); the headless run reads its key from the environment variable named in --help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.features.providers.providers import (
    KEY_ENV,
    MappingRule,
    ModelEntry,
    ModelSettings,
    ProviderConfig,
    provider_key,
    set_provider_key,
)
from inspector.storage.secrets import NoKeyringError, SecretStore
from tests.helpers.memory_keyring import MemoryKeyring


def test_settings_round_trip_without_the_key(tmp_path: Path, memory_keyring: MemoryKeyring) -> None:
    path = tmp_path / "models.json"
    settings = ModelSettings(path)
    provider = ProviderConfig(
        "anthropic", name="Claude", models=[ModelEntry("claude-haiku-4-5", max_output_tokens=8192)]
    )
    settings.providers.append(provider)
    settings.mappings["profile-1"] = [MappingRule("gpt", provider.id, "claude-haiku-4-5")]
    set_provider_key(SecretStore(), provider, "sk-ant-secret-123")
    settings.save()

    assert "sk-ant-secret-123" not in path.read_text()
    assert "sk-ant-secret-123" in memory_keyring.store.values()
    again = ModelSettings.load(path)
    assert again.providers[0].models[0].max_output_tokens == 8192
    assert again.rules_for("profile-1") == [MappingRule("gpt", provider.id, "claude-haiku-4-5")]
    assert again.rules_for("other") == []
    assert provider_key(SecretStore(), again.providers[0]) == "sk-ant-secret-123"

    set_provider_key(SecretStore(), provider, "")
    assert provider_key(SecretStore(), again.providers[0]) is None


def test_a_local_provider_has_no_key(memory_keyring: MemoryKeyring) -> None:
    local = ProviderConfig("openai", base_url="http://localhost:11434/v1")
    assert provider_key(SecretStore(), local) is None


def test_the_environment_variable_comes_first(
    memory_keyring: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    provider = ProviderConfig("openai")
    set_provider_key(SecretStore(), provider, "from-keyring")
    monkeypatch.setenv(KEY_ENV["openai"], "from-env")
    assert provider_key(SecretStore(), provider, env=True) == "from-env"
    assert provider_key(SecretStore(), provider) == "from-keyring"


def test_no_keyring_is_said_plainly_and_nothing_is_written(tmp_path: Path) -> None:
    # The machines have no keyring daemon: the default backend refuses, and we never fall
    # back to a file.
    import keyring
    from keyring.backends.fail import Keyring as FailKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(FailKeyring())
    try:
        with pytest.raises(NoKeyringError, match="No system keyring"):
            set_provider_key(SecretStore(), ProviderConfig("openai"), "sk-1")
    finally:
        keyring.set_keyring(previous)
    assert list(tmp_path.iterdir()) == []


def test_a_broken_settings_file_is_reported_not_fatal(tmp_path: Path) -> None:
    path = tmp_path / "models.json"
    path.write_text("{not json")
    settings = ModelSettings.load(path)
    assert settings.providers == [] and "could not be read" in settings.problem
    path.write_text(json.dumps({"providers": [{"kind": "gemini"}, {"kind": "openai"}]}))
    settings = ModelSettings.load(path)
    assert [p.kind for p in settings.providers] == ["openai"]
    assert "unknown provider kind 'gemini'" in settings.problem
