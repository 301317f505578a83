"""Every string of a server's definitions, with its exact place: the texts the rules read.

A tool's name, title and description, every string of its inputSchema and outputSchema
(values and property names alike: a hidden character in a property name is as bad as one
in a description), its annotations; a prompt and its arguments; a resource or template
(uri, name, description, ...); the server's `instructions`. Pointers follow RFC 6901 (`~0`,
`~1`); a key's pointer is that of its member, and `is_key` says the text is the name.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from inspector.security.finding import ItemKind

__all__ = ["ITEM_KEY", "Text", "item_name", "pointer_token", "texts_of_item"]

# the member that names an item of each kind
ITEM_KEY: Final[dict[ItemKind, str]] = {
    "tool": "name",
    "prompt": "name",
    "resource": "uri",
    "template": "uriTemplate",
    "instructions": "",
}
_MAX_DEPTH: Final = 64  # a hostile schema nested deeper is not walked further


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


def _walk(value: Any, pointer: str, depth: int) -> Iterator[tuple[str, str, bool]]:
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield pointer, value, False
    elif isinstance(value, dict):
        for key, member in value.items():
            child = f"{pointer}/{pointer_token(key)}"
            if isinstance(key, str):
                yield child, key, True
            yield from _walk(member, child, depth + 1)
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from _walk(member, f"{pointer}/{index}", depth + 1)


def texts_of_item(kind: ItemKind, raw: dict[str, Any]) -> Iterator[Text]:
    """Every string in one item's definition (top-level member names are ours to know,
    not the server's text, so they are not yielded; deeper names are)."""
    name = item_name(kind, raw)
    for key, member in raw.items():
        top = f"/{pointer_token(key)}"
        for pointer, text, is_key in _walk(member, top, 1):
            yield Text(kind, name, key, pointer, text, is_key)
