"""The model chosen from modelPreferences: hints in order, the profile's mapping first, then
name substrings, then the priorities against the models' ratings, then the default."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.features.asks.sampling import SamplingRequest, parse_sampling_request
from inspector.features.providers.choice import choose_model
from inspector.features.providers.providers import MappingRule, ModelEntry, ProviderConfig

LOCAL = ProviderConfig(
    "openai",
    name="Ollama",
    base_url="http://localhost:11434/v1",
    models=[
        ModelEntry("llama3.2:3b", cost=1.0, speed=0.9, intelligence=0.3),
        ModelEntry("qwen2.5:32b", cost=0.8, speed=0.3, intelligence=0.8),
    ],
    id="local",
)
CLOUD = ProviderConfig(
    "anthropic",
    models=[
        ModelEntry("claude-haiku-4-5", cost=0.7, speed=0.8, intelligence=0.6),
        ModelEntry("claude-opus-4-1", cost=0.1, speed=0.2, intelligence=1.0),
    ],
    id="cloud",
)


def request(hints: Sequence[str] = (), **priorities: float) -> SamplingRequest:
    prefs: dict[str, object] = {"hints": [{"name": h} for h in hints], **priorities}
    return parse_sampling_request({"messages": [], "maxTokens": 10, "modelPreferences": prefs})


def test_the_first_hint_that_is_part_of_a_name_wins() -> None:
    choice = choose_model(request(["gpt-5", "opus", "haiku"]), [LOCAL, CLOUD])
    assert choice is not None
    assert choice.model.name == "claude-opus-4-1"
    assert "hint 2 'opus'" in choice.reason
    assert not choice.fallback


def test_hints_match_case_insensitively() -> None:
    choice = choose_model(request(["LLAMA3"]), [LOCAL, CLOUD])
    assert choice is not None and choice.model.name == "llama3.2:3b"


def test_the_profile_mapping_sends_a_hint_to_another_providers_model() -> None:
    rules = [MappingRule("claude", "local", "qwen2.5:32b")]
    choice = choose_model(request(["claude-3-5-sonnet"]), [LOCAL, CLOUD], rules)
    assert choice is not None
    assert (choice.provider.id, choice.model.name) == ("local", "qwen2.5:32b")
    assert "mapping 'claude'" in choice.reason


def test_a_mapping_to_a_model_no_longer_configured_is_skipped() -> None:
    rules = [MappingRule("claude", "gone", "x")]
    choice = choose_model(request(["claude-haiku"]), [LOCAL, CLOUD], rules)
    assert choice is not None and choice.model.name == "claude-haiku-4-5"


def test_unmatched_hints_fall_back_to_the_priorities_and_say_so() -> None:
    choice = choose_model(request(["gemini"], intelligencePriority=1.0), [LOCAL, CLOUD])
    assert choice is not None
    assert choice.model.name == "claude-opus-4-1"
    assert choice.fallback
    assert "no hint matched" in choice.reason and "'gemini'" in choice.reason
    assert "intelligence 1" in choice.reason


def test_cost_and_speed_priorities_pick_the_cheap_fast_model() -> None:
    choice = choose_model(
        request(costPriority=0.9, speedPriority=0.8, intelligencePriority=0.1),
        [LOCAL, CLOUD],
    )
    assert choice is not None and choice.model.name == "llama3.2:3b"
    assert not choice.fallback


def test_no_preferences_take_the_first_model() -> None:
    choice = choose_model(request(), [CLOUD, LOCAL])
    assert choice is not None and choice.model.name == "claude-haiku-4-5"
    assert "default" in choice.reason


def test_nothing_configured_is_none() -> None:
    assert choose_model(request(["x"]), []) is None
    assert choose_model(request(["x"]), [ProviderConfig("openai")]) is None
