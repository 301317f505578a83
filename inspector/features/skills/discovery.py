"""Which skills a server exposes, found in what it lists: its resources and resource
templates.

SEP-2640 ("Resource Mapping"): each file of a skill is a resource, "servers SHOULD use the
`skill://` URI scheme" as `skill://<skill-path>/<file-path>`; the skill's SKILL.md is
`skill://<skill-path>/SKILL.md` and its root `skill://<skill-path>`. So a listed resource
whose URI is `skill://…/SKILL.md` is a skill here, and the other listed `skill://` URIs
under its root are its files (a nested skill's files count for the enclosing skill too,
as the SEP's "Nested skills" says). Templates with a `skill://` URI are shown as such: a
template cannot be listed without arguments.

The SEP also says a host "MUST NOT conclude that a resource is a skill merely because its
URI carries a particular scheme" (its `skills/list` is the authoritative record): this
inspector shows what the resources look like, it does not load skills into a model. A
server that declares the extension also answers `skills/list` (`listing.py`): its entries
join the skills found here (any scheme; a skill absent from resources/list too), each with
its listed frontmatter and digests.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import unquote

from inspector.features.skills.listing import ListedSkill

__all__ = ["SCHEME", "SkillEntry", "SkillsFound", "find_skills", "is_skill_uri"]

SCHEME: Final = "skill://"
ENTRY_FILE: Final = "SKILL.md"


def is_skill_uri(uri: str) -> bool:
    """A `skill://` URI (the SEP's scheme), any file of a skill."""
    return uri[: len(SCHEME)].lower() == SCHEME


@dataclass
class SkillEntry:
    """One skill: its SKILL.md's URI and listing, its path, and its other files' URIs."""

    uri: str  # skill://<skill-path>/SKILL.md
    resource: dict[str, Any]  # the resources/list entry of its SKILL.md ({} if not listed)
    files: list[str] = field(default_factory=list)  # the other listed files, sorted
    listing: ListedSkill | None = None  # its skills/list entry, if the server has one

    @property
    def root(self) -> str:
        """The skill's directory: its URI without `/SKILL.md`."""
        suffix = "/" + ENTRY_FILE
        return self.uri[: -len(suffix)] if self.uri.endswith(suffix) else self.uri

    @property
    def skill_path(self) -> str:
        """`<skill-path>`: between the scheme and /SKILL.md (`acme/billing/refunds`)."""
        root = self.root
        return root.split("://", 1)[1] if "://" in root else root

    @property
    def dir_name(self) -> str:
        """The last segment of the skill path, which must equal the frontmatter `name`
        (percent-escapes decoded, as a URI's path segment is)."""
        return unquote(self.skill_path.rsplit("/", 1)[-1])

    @property
    def listed_name(self) -> str:
        name = self.resource.get("name")
        return name if isinstance(name, str) else ""

    def file_path(self, uri: str) -> str:
        """A file's path relative to the skill's root (`references/GUIDE.md`)."""
        return uri[len(self.root) + 1 :]


@dataclass
class SkillsFound:
    skills: list[SkillEntry]
    templates: list[dict[str, Any]]  # resource templates with a skill:// URI template
    stray: list[str]  # skill:// URIs under no listed SKILL.md

    def __bool__(self) -> bool:
        return bool(self.skills or self.templates)


def _uri(item: Any, key: str) -> str | None:
    value = item.get(key) if isinstance(item, dict) else None
    return value if isinstance(value, str) else None


def _ancestors(uri: str) -> list[str]:
    """`skill://a/b/c.md` -> [`skill://a/b`, `skill://a`]: where its skill's root may be."""
    out = []
    at = uri.rfind("/")
    while at > 0 and uri[at - 1] != "/":  # not into the `://`
        out.append(uri[:at])
        at = uri.rfind("/", 0, at)
    return out


def find_skills(
    resources: Iterable[dict[str, Any]],
    templates: Iterable[dict[str, Any]] = (),
    listed: Iterable[ListedSkill] = (),
) -> SkillsFound:
    """The skills among a server's listed resources and templates, and its `skills/list`
    entries, sorted by URI."""
    entries: dict[str, SkillEntry] = {}
    others: list[str] = []
    for resource in resources:
        uri = _uri(resource, "uri")
        if uri is None or not is_skill_uri(uri):
            continue
        if uri.endswith("/" + ENTRY_FILE) and len(uri) > len(SCHEME) + len(ENTRY_FILE) + 1:
            entries.setdefault(uri, SkillEntry(uri, resource))
        else:
            others.append(uri)
    for listing in listed:
        entry = entries.setdefault(listing.uri, SkillEntry(listing.uri, {}))
        entry.listing = listing
        others += [u for u in listing.digests or {} if u != listing.uri]
    skills = sorted(entries.values(), key=lambda s: s.uri)
    roots = {s.root: s for s in skills}
    owned: dict[str, set[str]] = {s.uri: set() for s in skills}
    stray: list[str] = []
    # A nested skill's SKILL.md is a file of the enclosing skill too. Each URI's owners are
    # found by its ancestors (a few dictionary look-ups, not a scan of every skill: a
    # server may list thousands).
    for uri in sorted(set(others) | {s.uri for s in skills}):
        owners = [o for o in _ancestors(uri) if o in roots and roots[o].uri != uri]
        for root in owners:
            owned[roots[root].uri].add(uri)
        if not owners and uri not in entries:
            stray.append(uri)
    for skill in skills:
        skill.files = sorted(owned[skill.uri])
    found_templates = [
        t for t in templates if (u := _uri(t, "uriTemplate")) is not None and is_skill_uri(u)
    ]
    return SkillsFound(skills, found_templates, stray)
