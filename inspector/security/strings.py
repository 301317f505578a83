"""Every string of a server's definitions, with its exact place: the texts the rules read.

A tool's name, title and description, every string of its inputSchema and outputSchema
(values and property names alike: a hidden character in a property name is as bad as one
in a description), its annotations; a prompt and its arguments; a resource or template
(uri, name, description, ...); the server's `instructions`; the messages `prompts/get`
gave for a prompt (field `messages`, pointers such as `/messages/0/content/text`; binary
`data` and `blob` members are not text and are skipped). Pointers follow RFC 6901 (`~0`,
`~1`); a key's pointer is that of its member, and `is_key` says the text is the name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from inspector.security.finding import ItemKind

__all__ = ["ITEM_KEY", "Text", "item_name", "pointer_token", "texts_of_item", "texts_of_messages"]

# the member that names an item of each kind
ITEM_KEY: Final[dict[ItemKind, str]] = {
    "tool": "name",
    "prompt": "name",
    "resource": "uri",
    "template": "uriTemplate",
    "instructions": "",
}
_MAX_DEPTH: Final = 64  # a hostile schema nested deeper is not walked further
_BINARY: Final = frozenset({"data", "blob"})  # base64 content in messages: not text


@dataclass(frozen=True, slots=True)
class Text:
    """One string of one item, and where it is."""

    kind: ItemKind
    item: str
    field: str  # the top-level member it is under: "description", "inputSchema", ...
    pointer: str
    text: str
    is_key: bool = False

    @property
    def leaf(self) -> str:
        """The last member name on the way to it (`description`, `title`, `enum`'s parent...)."""
        tokens = [t for t in self.pointer.split("/") if t and not t.isdigit()]
        return tokens[-1].replace("~1", "/").replace("~0", "~") if tokens else self.field


def pointer_token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def item_name(kind: ItemKind, raw: dict[str, Any]) -> str:
    value = raw.get(ITEM_KEY[kind]) if ITEM_KEY[kind] else ""
    return value if isinstance(value, str) else ""


def _walk(
    value: Any, pointer: str, depth: int, skip: frozenset[str] = frozenset()
) -> Iterator[tuple[str, str, bool]]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield pointer, value, False
    elif isinstance(value, dict):
        for key, member in value.items():
            child = f"{pointer}/{pointer_token(key)}"
            if isinstance(key, str):
                yield child, key, True
            if key not in skip:
                yield from _walk(member, child, depth + 1, skip)
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from _walk(member, f"{pointer}/{index}", depth + 1, skip)


def texts_of_item(kind: ItemKind, raw: dict[str, Any]) -> Iterator[Text]:
    """Every string in one item's definition (top-level member names are ours to know,
    not the server's text, so they are not yielded; deeper names are)."""
    name = item_name(kind, raw)
    for key, member in raw.items():
        top = f"/{pointer_token(key)}"
        for pointer, text, is_key in _walk(member, top, 1):
            yield Text(kind, name, key, pointer, text, is_key)


def texts_of_messages(prompt: str, messages: Any) -> Iterator[Text]:
    """Every string of the messages `prompts/get` gave for `prompt` (its `messages` list),
    with pointers from the result: `/messages/0/content/text`."""
    if isinstance(messages, list):
        for pointer, text, is_key in _walk(messages, "/messages", 1, _BINARY):
            yield Text("prompt", prompt, "messages", pointer, text, is_key)
