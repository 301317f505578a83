"""Pydantic models of what the UI shows. Lenient: unknown fields are kept, and the raw
dict rides along, so a server that sends something odd is shown, not rejected.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

__all__ = [
    "AudioContent",
    "Capabilities",
    "ContentBlock",
    "EmbeddedResource",
    "Icon",
    "ImageContent",
    "Implementation",
    "Prompt",
    "PromptArgument",
    "Resource",
    "ResourceLink",
    "ResourceTemplate",
    "TextContent",
    "Tool",
    "ToolAnnotations",
    "UnknownContent",
    "parse_content",
    "parse_lenient",
]


_OURS = frozenset({"raw", "problems"})


class _Lenient(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, frozen=False)
    raw: dict[str, Any] = Field(default_factory=dict, exclude=True)
    problems: list[str] = Field(default_factory=list, exclude=True)

    @model_validator(mode="before")
    @classmethod
    def _keep_raw(cls, data: Any) -> Any:
        # `raw` and `problems` are ours: a server field of that name only lives in `raw`,
        # so it can neither fail validation nor write into our problem list.
        if not isinstance(data, dict):
            return data
        clean = {k: v for k, v in data.items() if k not in _OURS}
        clean["raw"] = data
        return clean


class Icon(_Lenient):
    src: str = ""
    mimeType: str | None = None
    sizes: list[str] | None = None
    theme: str | None = None


class Implementation(_Lenient):
    name: str = ""
    version: str = ""
    title: str | None = None
    websiteUrl: str | None = None
    icons: list[Icon] | None = None


class ToolAnnotations(_Lenient):
    title: str | None = None
    readOnlyHint: bool | None = None
    destructiveHint: bool | None = None
    idempotentHint: bool | None = None
    openWorldHint: bool | None = None

    # spec 2025-03-26 ToolAnnotations: the defaults when a hint is absent.
    @property
    def read_only(self) -> bool:
        return bool(self.readOnlyHint) if self.readOnlyHint is not None else False

    @property
    def destructive(self) -> bool:
        if self.read_only:
            return False
        return self.destructiveHint if self.destructiveHint is not None else True

    @property
    def idempotent(self) -> bool:
        if self.read_only:
            return False
        return bool(self.idempotentHint) if self.idempotentHint is not None else False

    @property
    def open_world(self) -> bool:
        return self.openWorldHint if self.openWorldHint is not None else True


class Tool(_Lenient):
    name: str = ""
    title: str | None = None
    description: str | None = None
    inputSchema: dict[str, Any] = Field(default_factory=dict)
    outputSchema: dict[str, Any] | None = None
    annotations: ToolAnnotations | None = None
    icons: list[Icon] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")

    @property
    def display_name(self) -> str:
        if self.title:
            return self.title
        if self.annotations and self.annotations.title:
            return self.annotations.title
        return self.name


class Resource(_Lenient):
    uri: str = ""
    name: str = ""
    title: str | None = None
    description: str | None = None
    mimeType: str | None = None
    size: int | None = None
    annotations: dict[str, Any] | None = None
    icons: list[Icon] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class ResourceTemplate(_Lenient):
    uriTemplate: str = ""
    name: str = ""
    title: str | None = None
    description: str | None = None
    mimeType: str | None = None
    annotations: dict[str, Any] | None = None
    icons: list[Icon] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class PromptArgument(_Lenient):
    name: str = ""
    title: str | None = None
    description: str | None = None
    required: bool | None = None


class Prompt(_Lenient):
    name: str = ""
    title: str | None = None
    description: str | None = None
    arguments: list[PromptArgument] | None = None
    icons: list[Icon] | None = None
    meta: dict[str, Any] | None = Field(default=None, alias="_meta")


class Capabilities(_Lenient):
    """Server capabilities; each present key means the feature is offered."""

    tools: dict[str, Any] | None = None
    resources: dict[str, Any] | None = None
    prompts: dict[str, Any] | None = None
    logging: dict[str, Any] | None = None
    completions: dict[str, Any] | None = None
    experimental: dict[str, Any] | None = None
    tasks: dict[str, Any] | None = None


class TextContent(_Lenient):
    type: Literal["text"] = "text"
    text: str = ""
    annotations: dict[str, Any] | None = None


class ImageContent(_Lenient):
    type: Literal["image"] = "image"
    data: str = ""
    mimeType: str = ""
    annotations: dict[str, Any] | None = None


class AudioContent(_Lenient):
    type: Literal["audio"] = "audio"
    data: str = ""
    mimeType: str = ""
    annotations: dict[str, Any] | None = None


class ResourceLink(_Lenient):
    type: Literal["resource_link"] = "resource_link"
    uri: str = ""
    name: str = ""
    title: str | None = None
    description: str | None = None
    mimeType: str | None = None
    size: int | None = None


class EmbeddedResource(_Lenient):
    type: Literal["resource"] = "resource"
    resource: dict[str, Any] = Field(default_factory=dict)

    @property
    def text(self) -> str | None:
        value = self.resource.get("text")
        return value if isinstance(value, str) else None

    @property
    def blob(self) -> str | None:
        value = self.resource.get("blob")
        return value if isinstance(value, str) else None


class UnknownContent(_Lenient):
    type: str = ""


ContentBlock = (
    TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource | UnknownContent
)

_CONTENT: dict[str, type[_Lenient]] = {
    "text": TextContent,
    "image": ImageContent,
    "audio": AudioContent,
    "resource_link": ResourceLink,
    "resource": EmbeddedResource,
}

M = TypeVar("M", bound=_Lenient)


def parse_lenient(model: type[M], raw: Any) -> M:
    """Build `model` from `raw`, never raising: what does not fit is noted in `problems`."""
    if not isinstance(raw, dict):
        obj = model()
        obj.problems.append(f"expected an object, got {type(raw).__name__}")
        return obj
    try:
        obj = model.model_validate(raw)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}" for e in exc.errors()
        ]
        bad_top = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
        cleaned = {k: v for k, v in raw.items() if k not in bad_top}
        try:
            obj = model.model_validate(cleaned)
        except ValidationError:
            obj = model()
        obj.problems.extend(problems)
    obj.raw = raw
    return obj


def parse_content(raw: Any) -> ContentBlock:
    kind = raw.get("type") if isinstance(raw, dict) else None
    model = _CONTENT.get(kind) if isinstance(kind, str) else None
    if model is None:
        block = parse_lenient(UnknownContent, raw)
        block.problems.append(f"unknown content type {kind!r}")
        return block
    return parse_lenient(model, raw)  # type: ignore[return-value]
