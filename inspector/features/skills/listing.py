"""The Skills extension's own methods (SEP-2640, "Discovery"): a server that declares
`io.modelcontextprotocol/skills` in its capabilities' `extensions` answers `skills/list`
(every skill it chooses to enumerate, each entry `{uri, frontmatter, resources}`) and
`skills/get` (one entry by URI). An entry's `frontmatter` is "the skill's SKILL.md YAML
frontmatter rendered verbatim as a JSON object", its `resources` "a complete enumeration of
the skill's files with their digests" (`sha256:` and 64 lower-case hex digits of the raw
bytes); both are checked against the SKILL.md actually read (`rules.listing_findings`).

An entry's shape problems are kept as sentences; nothing here raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = ["DIGEST", "EXTENSION", "ListedSkill", "declares_skills", "parse_listing"]

EXTENSION: Final = "io.modelcontextprotocol/skills"
DIGEST: Final = re.compile(r"sha256:[0-9a-f]{64}")


def declares_skills(capabilities: dict[str, Any]) -> bool:
    """Whether the server declares the Skills extension (SEP-2640 "Capability Declaration",
    per SEP-2133's `capabilities.extensions`)."""
    extensions = capabilities.get("extensions")
    return isinstance(extensions, dict) and isinstance(extensions.get(EXTENSION), dict)


@dataclass
class ListedSkill:
    """One `skills/list` entry as the server sent it."""

    uri: str
    frontmatter: dict[str, Any] | None
    digests: dict[str, str] | None  # resources[]: uri -> digest; None when omitted
    problems: list[str] = field(default_factory=list)


def _entry(raw: Any) -> ListedSkill | None:
    if not isinstance(raw, dict) or not isinstance(raw.get("uri"), str):
        return None
    problems: list[str] = []
    front = raw.get("frontmatter")
    if not isinstance(front, dict):
        problems.append("its 'frontmatter' is missing or not an object (it is required)")
        front = None
    digests: dict[str, str] | None = None
    resources = raw.get("resources")
    if resources is not None:
        digests = {}
        if not isinstance(resources, list):
            problems.append("its 'resources' is not a list")
        else:
            for item in resources:
                if not isinstance(item, dict) or not isinstance(item.get("uri"), str):
                    problems.append("a 'resources' item has no uri")
                    continue
                digest = item.get("digest")
                if item["uri"] in digests:
                    problems.append(f"'resources' lists {item['uri']} more than once")
                digests[item["uri"]] = digest if isinstance(digest, str) else ""
    return ListedSkill(raw["uri"], front, digests, problems)


def parse_listing(entries: list[Any]) -> tuple[list[ListedSkill], list[str]]:
    """The entries of `skills/list` (every page), and the sentences for those unusable."""
    listed: list[ListedSkill] = []
    bad: list[str] = []
    for index, raw in enumerate(entries):
        entry = _entry(raw)
        if entry is None:
            bad.append(f"skills/list entry {index} has no uri")
        else:
            listed.append(entry)
    return listed, bad
