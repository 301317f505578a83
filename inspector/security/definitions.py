"""What one server offers, as plain JSON: the input of every security rule.

Besides the lists and `instructions`, what the caller knows around them: the client's
declared `roots` (URIs; a `file://` resource outside them is a finding), the messages of
prompts it fetched with `prompts/get` (`prompt_messages`, by prompt name), and for the rug
pull rule each tool's `pinned` definition (`features/catalog/pins.py`) and the definition
`first_seen` in this session (both by tool name)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.security.finding import ItemKind
from inspector.security.strings import Text, item_name, texts_of_item, texts_of_messages

__all__ = ["ServerDefinitions"]

_KINDS: Final[tuple[tuple[ItemKind, str], ...]] = (
    ("tool", "tools"),
    ("prompt", "prompts"),
    ("resource", "resources"),
    ("template", "templates"),
)


@dataclass(frozen=True)
class ServerDefinitions:
    """One server's definitions: the raw items of each list, as the catalog keeps them
    (`CatalogItem.raw`), and its `instructions`. Non-dict items are skipped, not trusted."""

    name: str
    tools: Sequence[Any] = ()
    prompts: Sequence[Any] = ()
    resources: Sequence[Any] = ()
    templates: Sequence[Any] = ()
    instructions: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    roots: Sequence[str] = ()
    prompt_messages: Mapping[str, Any] = field(default_factory=dict)
    pinned: Mapping[str, Any] = field(default_factory=dict)
    first_seen: Mapping[str, Any] = field(default_factory=dict)

    def items(self) -> Iterator[tuple[ItemKind, dict[str, Any]]]:
        for kind, attribute in _KINDS:
            for raw in getattr(self, attribute):
                if isinstance(raw, dict):
                    yield kind, raw

    def tool_names(self) -> list[str]:
        return [n for kind, raw in self.items() if kind == "tool" and (n := item_name(kind, raw))]

    def texts(self) -> Iterator[Text]:
        for kind, raw in self.items():
            yield from texts_of_item(kind, raw)
        for name, messages in self.prompt_messages.items():
            if isinstance(name, str):
                yield from texts_of_messages(name, messages)
        if isinstance(self.instructions, str):
            yield Text("instructions", "", "instructions", "", self.instructions)
