"""What both wire formats check before sending: maxTokens against the model's limit,
includeContext (we hold no conversation to include), content the model cannot take; and
the walk both take from an MCP content block to their own part (`wire_part`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final, TypeAlias

from inspector.features.asks.sampling import SamplingRequest, block_text
from inspector.features.providers.providers import ModelEntry, ProviderConfig

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "PartShape",
    "common_notes",
    "max_tokens_for",
    "placeholder",
    "text_in_place_of",
    "wire_part",
]

# A wire format's shape for one kind of content block; None: this block it cannot carry.
PartShape: TypeAlias = Callable[[dict[str, Any]], dict[str, Any] | None]
_MEDIA: Final = ("image", "audio")  # kinds sent only to a provider set up for them

DEFAULT_MAX_TOKENS: Final = 1024  # a request without maxTokens (the spec requires it)


def max_tokens_for(request: SamplingRequest, model: ModelEntry, notes: list[str]) -> int:
    wanted = request.max_tokens
    if wanted is None or wanted < 1:
        notes.append(f"maxTokens is missing or not positive; sent {DEFAULT_MAX_TOKENS} instead")
        wanted = DEFAULT_MAX_TOKENS
    limit = model.max_output_tokens
    if limit is not None and wanted > limit:
        notes.append(
            f"maxTokens {wanted:,} is over the limit of {model.name} ({limit:,}); sent {limit:,}"
        )
        return limit
    return wanted


def common_notes(request: SamplingRequest, provider: ProviderConfig) -> list[str]:
    notes: list[str] = []
    if request.include_context in ("thisServer", "allServers"):
        notes.append(
            f"includeContext is {request.include_context!r}: the inspector holds no "
            "conversation with a model to include, so no context was added"
        )
    for problem in request.problems:
        notes.append(f"the request is not quite right: {problem}")
    return notes


def placeholder(block: dict[str, Any], provider: ProviderConfig, where: str) -> str:
    """The text sent in place of content the provider's models cannot take."""
    kind = block.get("type")
    return (
        f"[{block_text(block)} — {kind} content in {where} left out: "
        f"{provider.label} is set up for {', '.join(provider.modalities)} only]"
    )


def text_in_place_of(
    block: dict[str, Any], provider: ProviderConfig, where: str, notes: list[str]
) -> dict[str, Any]:
    """The text part that both wire formats send for a block they cannot send as it is: a
    placeholder for an image or audio the provider cannot take (said in `notes`), a resource
    as its text, anything unknown as its JSON text (said in `notes`)."""
    kind = block.get("type")
    if kind in ("image", "audio"):
        notes.append(
            f"{kind} in {where} sent as a placeholder text: {provider.label} cannot take it"
        )
        return {"type": "text", "text": placeholder(block, provider, where)}
    if kind not in ("resource", "resource_link"):
        notes.append(f"{kind!r} content in {where} is unknown; sent as its JSON text")
    return {"type": "text", "text": block_text(block)}


def wire_part(
    block: dict[str, Any],
    provider: ProviderConfig,
    where: str,
    notes: list[str],
    shapes: Mapping[str, PartShape],
) -> dict[str, Any]:
    """One MCP content block as a wire format's part: text as text; a kind the format has a
    shape for in that shape (image and audio only when the provider takes them); anything
    else as `text_in_place_of` sends it."""
    kind = block.get("type")
    if kind == "text":
        return {"type": "text", "text": str(block.get("text", ""))}
    shape = shapes.get(kind) if isinstance(kind, str) else None
    if shape is not None and (kind not in _MEDIA or kind in provider.modalities):
        part = shape(block)
        if part is not None:
            return part
    return text_in_place_of(block, provider, where, notes)
