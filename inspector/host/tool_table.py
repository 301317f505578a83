"""The tools a model is offered: those of one or several connections, namespaced by tab.

As gateways do, each tool is offered as `tabname__tool`, sanitized to what providers accept
(`^[a-zA-Z0-9_-]{1,64}$`). Two servers' tools never shadow each other: when two tools come
out with the same name (after sanitizing or truncating), both are kept under distinct names
(`_2`, `_3`, ... at the end) and the collision is said in a sentence (`ToolTable.notes`).
A tool whose name had to change says its server name in the description the model sees.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from inspector.features.providers.chat_types import ToolSpec

if TYPE_CHECKING:
    from inspector.core.server_connection import ServerConnection

__all__ = [
    "MAX_NAME",
    "HostTool",
    "ToolTable",
    "list_tool_table",
    "qualified_name",
    "sanitize",
]

MAX_NAME: Final = 64  # providers' limit on a function name
MAX_TAB_PART: Final = 24  # the tab's share of a qualified name, so the tool's name shows
SEPARATOR: Final = "__"
_NOT_ALLOWED: Final = re.compile(r"[^a-zA-Z0-9_-]")
_EMPTY_SCHEMA: Final[dict[str, Any]] = {"type": "object", "properties": {}}


def sanitize(text: str) -> str:
    """Every character providers refuse becomes `_` (an empty text becomes `_`)."""
    return _NOT_ALLOWED.sub("_", text) or "_"


def qualified_name(tab: str, tool: str) -> str:
    """`tab__tool`, sanitized, the tab part at most `MAX_TAB_PART`, the whole at most 64."""
    return (sanitize(tab)[:MAX_TAB_PART] + SEPARATOR + sanitize(tool))[:MAX_NAME]


@dataclass(frozen=True, slots=True)
class HostTool:
    """One tool as offered to the model: its qualified name, its tab, and the server's own
    definition (name, description, inputSchema, annotations), with the connection that
    serves it (None in a table built from listings alone, e.g. offline)."""

    qualified: str
    tab: str
    definition: dict[str, Any]
    connection: ServerConnection | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The tool's name on its server."""
        return str(self.definition.get("name", ""))

    @property
    def input_schema(self) -> dict[str, Any]:
        schema = self.definition.get("inputSchema")
        return schema if isinstance(schema, dict) else dict(_EMPTY_SCHEMA)

    @property
    def annotations(self) -> dict[str, Any]:
        annotations = self.definition.get("annotations")
        return annotations if isinstance(annotations, dict) else {}

    @property
    def read_only(self) -> bool:
        """Annotated readOnlyHint: true (a hint from the server, not a guarantee)."""
        return self.annotations.get("readOnlyHint") is True

    @property
    def destructive(self) -> bool:
        """Annotated destructiveHint: true and not read-only (a hint from the server)."""
        return self.annotations.get("destructiveHint") is True and not self.read_only

    def spec(self) -> ToolSpec:
        description = self.definition.get("description")
        text = description if isinstance(description, str) else ""
        if (
            self.qualified != qualified_name(self.tab, self.name)
            or sanitize(self.name) != self.name
        ):
            text = f"{text}\n(Tool {self.name!r} of server {self.tab!r}.)".strip()
        return ToolSpec(self.qualified, text, self.input_schema)


@dataclass(slots=True)
class ToolTable:
    """The tools of the tabs taking part, by qualified name, and what had to be said about
    their names."""

    tools: dict[str, HostTool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # collisions, tools without a name

    @classmethod
    def build(
        cls,
        listings: Iterable[tuple[str, Sequence[Any], ServerConnection | None]],
    ) -> ToolTable:
        """A table from (tab, tools as listed, connection) per tab, in order: the first of
        two colliding names keeps it, the later one gets a suffix, and a note says so."""
        table = cls()
        for tab, tools, connection in listings:
            for definition in tools:
                if not isinstance(definition, dict):
                    continue
                name = definition.get("name")
                if not isinstance(name, str) or not name:
                    table.notes.append(f"A tool of {tab!r} has no name; it is not offered.")
                    continue
                table._add(tab, definition, connection)
        return table

    def _add(
        self, tab: str, definition: dict[str, Any], connection: ServerConnection | None
    ) -> None:
        name = str(definition["name"])
        wanted = qualified_name(tab, name)
        qualified = wanted
        n = 2
        while qualified in self.tools:
            suffix = f"_{n}"
            qualified = wanted[: MAX_NAME - len(suffix)] + suffix
            n += 1
        if qualified != wanted:
            other = self.tools[wanted]
            self.notes.append(
                f"Tool {name!r} of {tab!r} and tool {other.name!r} of {other.tab!r} both "
                f"come out as {wanted!r}; the second is offered as {qualified!r}."
            )
        self.tools[qualified] = HostTool(qualified, tab, definition, connection)

    def get(self, qualified: str) -> HostTool | None:
        return self.tools.get(qualified)

    def specs(self) -> tuple[ToolSpec, ...]:
        return tuple(tool.spec() for tool in self.tools.values())

    def __len__(self) -> int:
        return len(self.tools)

    def __iter__(self) -> Any:
        return iter(self.tools.values())


async def list_tool_table(connections: Mapping[str, ServerConnection]) -> ToolTable:
    """List every tool of each connection (all pages), by tab name, into a table."""
    listings = []
    for tab, conn in connections.items():
        listings.append((tab, await conn.list_tools(), conn))
    return ToolTable.build(listings)
