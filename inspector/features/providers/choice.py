"""Which configured model answers a sampling request, and why, from its `modelPreferences`.

spec (sampling, model preferences): hints are evaluated in order, each a substring of a model
name; the client may map a hint to an equivalent model of another provider; the priorities
(cost, speed, intelligence, 0..1) weigh what is left. Here:

1. for each hint in order: the profile's mapping rules first (a rule's text found in the hint
   sends it to the rule's model), then the configured models whose name contains the hint;
2. no hint matched: the model whose ratings score best against the priorities;
3. no priorities either: the first configured model (the default).

The reason is a sentence the dialog and the CLI show; `fallback` says a hint went unmatched.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from inspector.features.asks.sampling import SamplingRequest
from inspector.features.providers.providers import MappingRule, ModelEntry, ProviderConfig

__all__ = ["ModelChoice", "choose_model"]


@dataclass(frozen=True, slots=True)
class ModelChoice:
    provider: ProviderConfig
    model: ModelEntry
    reason: str
    fallback: bool = False  # hints were given and none matched

    @property
    def label(self) -> str:
        return f"{self.model.name} · {self.provider.label}"


def _candidates(providers: list[ProviderConfig]) -> list[tuple[ProviderConfig, ModelEntry]]:
    return [(p, m) for p in providers for m in p.models]


def _by_rule(
    hint: str, rules: Sequence[MappingRule], providers: list[ProviderConfig]
) -> tuple[ProviderConfig, ModelEntry, MappingRule] | None:
    for rule in rules:
        if rule.hint and rule.hint.lower() in hint.lower():
            for provider, model in _candidates(providers):
                if provider.id == rule.provider_id and model.name == rule.model:
                    return provider, model, rule
    return None


def _priorities(request: SamplingRequest) -> dict[str, float]:
    given = {
        "cost": request.cost_priority,
        "speed": request.speed_priority,
        "intelligence": request.intelligence_priority,
    }
    return {k: v for k, v in given.items() if v}


def choose_model(
    request: SamplingRequest,
    providers: list[ProviderConfig],
    rules: Sequence[MappingRule] = (),
) -> ModelChoice | None:
    """None when no model is configured at all."""
    candidates = _candidates(providers)
    if not candidates:
        return None
    for i, hint in enumerate(request.hints):
        found = _by_rule(hint, rules, providers)
        if found is not None:
            provider, model, rule = found
            return ModelChoice(
                provider,
                model,
                f"hint {i + 1} {hint!r} matches the profile's mapping {rule.hint!r} → {model.name}",
            )
        for provider, model in candidates:
            if hint.lower() in model.name.lower():
                return ModelChoice(
                    provider, model, f"hint {i + 1} {hint!r} is part of the name {model.name!r}"
                )
    unmatched = (
        "no hint matched a configured model or mapping ("
        + ", ".join(repr(h) for h in request.hints)
        + "); "
        if request.hints
        else ""
    )
    weights = _priorities(request)
    if weights:

        def score(pair: tuple[ProviderConfig, ModelEntry]) -> float:
            model = pair[1]
            ratings = {"cost": model.cost, "speed": model.speed, "intelligence": model.intelligence}
            return sum(w * ratings[k] for k, w in weights.items())

        provider, model = max(candidates, key=score)  # max keeps the first of equals
        said = ", ".join(f"{k} {w:g}" for k, w in weights.items())
        return ModelChoice(
            provider,
            model,
            f"{unmatched}best for the priorities ({said}) by the models' ratings",
            fallback=bool(request.hints),
        )
    provider, model = candidates[0]
    return ModelChoice(
        provider,
        model,
        f"{unmatched}the default model (the first configured)",
        fallback=bool(request.hints),
    )
