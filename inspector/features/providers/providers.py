"""The model providers a user configured, their models, and the per-profile hint mapping.

Kept in `models.json` beside the profiles. API keys never go into that file: they live in
the OS keyring through `SecretStore` (one entry per provider), and a provider with no key
(a local Ollama, vLLM, llama.cpp or LM Studio server) works too.
"""

from __future__ import annotations

import json
import logging
import os
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

from inspector.features.providers.names import (
    DEFAULT_BASE_URL,
    KEY_ENV,
    PROVIDER_KINDS,
    ProviderKind,
)
from inspector.storage.paths import config_dir
from inspector.storage.secrets import SecretStore

__all__ = [
    "KEY_ENV",
    "MappingRule",
    "ModelEntry",
    "ModelSettings",
    "ProviderConfig",
    "ProviderKind",
    "provider_key",
    "set_provider_key",
]

log = logging.getLogger(__name__)

_KEY_OWNER: Final = "model-provider"


@dataclass(slots=True)
class ModelEntry:
    """One model a provider serves, with the user's 0..1 ratings the priorities weigh."""

    name: str
    cost: float = 0.5  # 1 = cheapest
    speed: float = 0.5  # 1 = fastest
    intelligence: float = 0.5  # 1 = most capable
    max_output_tokens: int | None = None  # the provider's limit, when the user knows it


@dataclass(slots=True)
class ProviderConfig:
    kind: ProviderKind
    name: str = ""
    base_url: str = ""  # empty: the provider's public API
    models: list[ModelEntry] = field(default_factory=list)
    timeout: float = 60.0
    modalities: tuple[str, ...] = ("text", "image")  # content the models take (else a note)
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])

    @property
    def url(self) -> str:
        return self.base_url or DEFAULT_BASE_URL[self.kind]

    @property
    def label(self) -> str:
        return self.name or f"{self.kind} at {self.url}"

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["modalities"] = list(self.modalities)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProviderConfig:
        kind = data.get("kind")
        if kind not in PROVIDER_KINDS:
            raise ValueError(f"unknown provider kind {kind!r}")
        models = [
            ModelEntry(**{k: v for k, v in m.items() if k in ModelEntry.__dataclass_fields__})
            for m in data.get("models", [])
            if isinstance(m, dict) and isinstance(m.get("name"), str)
        ]
        return cls(
            kind=kind,
            name=str(data.get("name", "")),
            base_url=str(data.get("base_url", "")),
            models=models,
            timeout=float(data.get("timeout", 60.0)),
            modalities=tuple(data.get("modalities", ("text", "image"))),
            id=str(data.get("id") or uuid.uuid4().hex[:12]),
        )


@dataclass(frozen=True, slots=True)
class MappingRule:
    """A hint containing `hint` (case-insensitive) goes to `model` of provider `provider_id`."""

    hint: str
    provider_id: str
    model: str


class ModelSettings:
    """The providers and the per-profile mappings, read from and saved to `models.json`."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or (config_dir() / "models.json")
        self.providers: list[ProviderConfig] = []
        self.mappings: dict[str, list[MappingRule]] = {}  # profile id → rules, in order
        self.problem = ""  # why the file could not be read, for the settings dialog

    @classmethod
    def load(cls, path: Path | None = None) -> ModelSettings:
        settings = cls(path)
        try:
            data = json.loads(settings.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return settings
        except (OSError, ValueError) as exc:
            settings.problem = f"{settings.path} could not be read: {exc}"
            log.warning("%s", settings.problem)
            return settings
        if not isinstance(data, dict):
            settings.problem = f"{settings.path} does not hold a JSON object"
            return settings
        for item in data.get("providers", []):
            try:
                settings.providers.append(ProviderConfig.from_json(item))
            except (TypeError, ValueError) as exc:
                settings.problem = f"a provider in {settings.path} was skipped: {exc}"
        for profile_id, rules in (data.get("mappings") or {}).items():
            settings.mappings[str(profile_id)] = [
                MappingRule(str(r["hint"]), str(r["provider_id"]), str(r["model"]))
                for r in rules
                if isinstance(r, dict) and {"hint", "provider_id", "model"} <= r.keys()
            ]
        return settings

    def save(self) -> None:
        data = {
            "providers": [p.to_json() for p in self.providers],
            "mappings": {
                pid: [asdict(r) for r in rules] for pid, rules in self.mappings.items() if rules
            },
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
        tmp.replace(self.path)

    def provider(self, provider_id: str) -> ProviderConfig | None:
        return next((p for p in self.providers if p.id == provider_id), None)

    def rules_for(self, profile_id: str | None) -> list[MappingRule]:
        return list(self.mappings.get(profile_id or "", []))


def set_provider_key(secrets: SecretStore, provider: ProviderConfig, key: str | None) -> None:
    """Keep (or, with an empty key, forget) the provider's key in the keyring."""
    if key:
        secrets.set(_KEY_OWNER, provider.id, "api-key", key)
    else:
        secrets.delete(_KEY_OWNER, provider.id, "api-key")


def provider_key(
    secrets: SecretStore | None, provider: ProviderConfig, *, env: bool = False
) -> str | None:
    """The key to send: with `env`, the provider kind's environment variable first; then the
    keyring. None: send no key (a local server)."""
    if env:
        value = os.environ.get(KEY_ENV[provider.kind])
        if value:
            return value
    if secrets is None:
        return None
    return secrets.get(_KEY_OWNER, provider.id, "api-key")
