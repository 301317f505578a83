"""The rules a SKILL.md is checked against, each with its source, into findings.

From the Agent Skills specification (agentskills.io/specification, "Frontmatter" table and
the field sections; its reference validator skills-ref applies the same):
- `name` required: 1-64 characters, lower-case letters, digits and hyphens only (the spec
  allows Unicode lower-case letters; skills-ref compares after NFKC), not starting or
  ending with a hyphen, no two hyphens in a row, equal to the skill's directory name;
- `description` required: a non-empty string of at most 1024 characters;
- `compatibility` optional: 1-500 characters;
- `metadata` optional: a map from string keys to string values;
- `allowed-tools` optional (experimental): a space-delimited string of tools;
- `license` optional: a license name or a bundled file's name;
- any other field is not in the specification. skills-ref rejects it; the Working Group's
  survey (experimental-ext-skills docs/skill-meta-keys.md) notes that hosts already ship
  more (`disable-model-invocation`, `user-invocable`, ...), so it is a note here;
- "Keep your main SKILL.md under 500 lines" ("Progressive disclosure"): a recommendation,
  a note.

From SEP-2640 (experimental-ext-skills docs/sep-draft-skills-extension.md; its
`skills/list` entries' rules are `listing_findings`):
- "Resource Mapping": the final `<skill-path>` segment MUST equal the frontmatter `name`;
- "Resource Metadata": the SKILL.md resource's `mimeType` SHOULD be `text/markdown`, its
  `name` and `description` SHOULD be set from the frontmatter's;
- "Security Implications": skill content is untrusted input; `allowed-tools` MUST be
  ignored for an MCP-served skill unless the user approves it (a note that it asks).

Our own, not a specification's: characters a person cannot see (`visible_text.is_hidden`:
zero-width, bidi controls, tag characters, ...) in the frontmatter or the body are a
warning, shown escaped, as the security review shows them in tool descriptions.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Any, Final

from inspector.common.visible_text import is_hidden, visible_text
from inspector.features.skills.discovery import SkillEntry
from inspector.features.skills.findings import Severity, SkillFinding
from inspector.features.skills.frontmatter import Frontmatter
from inspector.features.skills.listing import DIGEST

__all__ = [
    "KNOWN_FIELDS",
    "MAX_COMPATIBILITY",
    "MAX_DESCRIPTION",
    "MAX_NAME",
    "RECOMMENDED_LINES",
    "body_findings",
    "frontmatter_findings",
    "listing_findings",
    "make_visible",
    "resource_findings",
]

MAX_NAME: Final = 64
MAX_DESCRIPTION: Final = 1024
MAX_COMPATIBILITY: Final = 500
RECOMMENDED_LINES: Final = 500
KNOWN_FIELDS: Final = (
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
)
_SHOWN: Final = 80  # characters of a server's value quoted in a sentence
_HIDDEN_SHOWN: Final = 3  # places with hidden characters quoted

_SPEC: Final = "Agent Skills spec"
_SEP: Final = "SEP-2640 (Skills Extension)"


def _quote(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    shown = visible_text(text[:_SHOWN], keep="")
    return f"'{shown}'" + ("…" if len(text) > _SHOWN else "")


def _type_name(value: Any) -> str:
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _err(field: str, sentence: str, rule: str) -> SkillFinding:
    return SkillFinding(Severity.ERROR, field, sentence, rule)


def _warn(field: str, sentence: str, rule: str) -> SkillFinding:
    return SkillFinding(Severity.WARNING, field, sentence, rule)


def _note(field: str, sentence: str, rule: str) -> SkillFinding:
    return SkillFinding(Severity.NOTE, field, sentence, rule)


def frontmatter_findings(front: Frontmatter, skill: SkillEntry | None) -> list[SkillFinding]:
    """The frontmatter's findings: its presence and shape, then each field's rules."""
    rule = f"{_SPEC} § SKILL.md format; {_SEP} § Skill Format"
    if front.fields is None:
        return [_err("frontmatter", front.problem or "no frontmatter", rule)]
    fields = front.fields
    out: list[SkillFinding] = [
        _warn(
            "frontmatter",
            f"'{key}' is written more than once; YAML keeps only the last value, so a "
            "reader of the file may see another value than a host does",
            "YAML 1.2 § 3.2.1.1: mapping keys are unique",
        )
        for key in front.duplicates
    ]
    out += _name_findings(fields, skill)
    out += _description_findings(fields)
    out += _optional_findings(fields)
    out += _hidden_in_fields(fields)
    return out


def _name_findings(fields: dict[str, Any], skill: SkillEntry | None) -> list[SkillFinding]:
    rule = f"{_SPEC} § name field"
    if "name" not in fields:
        return [_err("name", "the required field 'name' is missing", rule)]
    name = fields["name"]
    if not isinstance(name, str) or not name.strip():
        what = "empty" if isinstance(name, str) or name is None else _type_name(name)
        return [_err("name", f"'name' must be a non-empty string; it is {what}", rule)]
    norm = unicodedata.normalize("NFKC", name.strip())
    out: list[SkillFinding] = []
    if len(norm) > MAX_NAME:
        out.append(
            _err("name", f"'name' is {len(norm)} characters, over the {MAX_NAME} allowed", rule)
        )
    if norm != norm.lower():
        out.append(
            _err(
                "name", f"'name' {_quote(name)} has upper-case letters; it must be lower-case", rule
            )
        )
    bad = sorted({c for c in norm if not (c == "-" or c.isalnum())})
    if bad:
        shown = ", ".join(_quote(c) for c in bad[:5])
        out.append(
            _err(
                "name",
                f"'name' {_quote(name)} has characters other than letters, digits and "
                f"hyphens: {shown}",
                rule,
            )
        )
    if norm.startswith("-") or norm.endswith("-"):
        out.append(_err("name", f"'name' {_quote(name)} starts or ends with a hyphen", rule))
    if "--" in norm:
        out.append(_err("name", f"'name' {_quote(name)} has two hyphens in a row", rule))
    if skill is not None and norm != unicodedata.normalize("NFKC", skill.dir_name):
        out.append(
            _err(
                "uri",
                f"'name' {_quote(name)} differs from the last segment of the skill's URI "
                f"{_quote(skill.dir_name)} ({_quote(skill.uri)}); the two must be equal",
                f"{_SEP} § Resource Mapping; {_SPEC} § name field: must match the parent "
                "directory name",
            )
        )
    return out


def _description_findings(fields: dict[str, Any]) -> list[SkillFinding]:
    rule = f"{_SPEC} § description field"
    if "description" not in fields:
        return [_err("description", "the required field 'description' is missing", rule)]
    value = fields["description"]
    if not isinstance(value, str) or not value.strip():
        what = "empty" if isinstance(value, str) or value is None else _type_name(value)
        return [_err("description", f"'description' must be non-empty text; it is {what}", rule)]
    if len(value) > MAX_DESCRIPTION:
        return [
            _err(
                "description",
                f"'description' is {len(value):,} characters, over the {MAX_DESCRIPTION:,} allowed",
                rule,
            )
        ]
    return []


def _optional_findings(fields: dict[str, Any]) -> list[SkillFinding]:
    out: list[SkillFinding] = []
    if "compatibility" in fields:
        value = fields["compatibility"]
        rule = f"{_SPEC} § compatibility field"
        if not isinstance(value, str) or not value:
            out.append(
                _err(
                    "compatibility",
                    f"'compatibility' must be 1-500 characters of text; it is {_type_name(value)}",
                    rule,
                )
            )
        elif len(value) > MAX_COMPATIBILITY:
            out.append(
                _err(
                    "compatibility",
                    f"'compatibility' is {len(value):,} characters, over the "
                    f"{MAX_COMPATIBILITY} allowed",
                    rule,
                )
            )
    if "metadata" in fields:
        out += _metadata_findings(fields["metadata"])
    if "allowed-tools" in fields:
        value = fields["allowed-tools"]
        if not isinstance(value, str):
            out.append(
                _note(
                    "allowed-tools",
                    f"'allowed-tools' is {_type_name(value)}; the spec writes it as one "
                    "space-delimited string (the field is experimental)",
                    f"{_SPEC} § allowed-tools field",
                )
            )
        out.append(
            _note(
                "allowed-tools",
                f"the skill asks for pre-approved tools {_quote(value)}; a host must ignore "
                "this for a skill served over MCP unless the user approves it",
                f"{_SEP} § Security Implications: No implicit permission grants",
            )
        )
    for key in fields:
        if key not in KNOWN_FIELDS:
            out.append(
                _note(
                    key if len(key) <= 40 else key[:40] + "…",
                    f"{_quote(key)} is not a field of the Agent Skills spec (hosts may ignore it)",
                    f"{_SPEC} § Frontmatter: name, description, license, compatibility, "
                    "metadata, allowed-tools",
                )
            )
    return out


def _metadata_findings(value: Any) -> list[SkillFinding]:
    rule = f"{_SPEC} § metadata field: a map from string keys to string values"
    if not isinstance(value, dict):
        return [_err("metadata", f"'metadata' must be a mapping; it is {_type_name(value)}", rule)]
    odd = [str(k) for k, v in value.items() if not isinstance(k, str) or not isinstance(v, str)]
    if not odd:
        return []
    shown = ", ".join(_quote(k) for k in odd[:5]) + (" …" if len(odd) > 5 else "")
    return [
        _note(
            "metadata",
            f"'metadata' values must be strings; not so for {shown} (quote a number or a "
            'date in YAML: "1.0")',
            rule,
        )
    ]


def _strings(value: Any, path: str, depth: int = 0) -> list[tuple[str, str]]:
    if depth > 8:
        return []
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, f"{path}.{k}", depth + 1)]
    if isinstance(value, list):
        return [s for i, v in enumerate(value) for s in _strings(v, f"{path}[{i}]", depth + 1)]
    return []


def _hidden_in_fields(fields: dict[str, Any]) -> list[SkillFinding]:
    out = []
    for key, value in fields.items():
        for path, text in [*_strings(value, str(key)), (f"{key} (the key)", str(key))]:
            hidden = [c for c in text if c not in "\n\t" and is_hidden(c)]
            if hidden:
                out.append(
                    _warn(
                        str(key),
                        f"{_quote(path)} holds {len(hidden)} character(s) a person cannot "
                        f"see: {visible_text(text[:200], keep='')}",
                        f"{_SEP} § Security Implications: skill content is untrusted input",
                    )
                )
    return out


def _hidden_pattern(text: str) -> re.Pattern[str] | None:
    """A pattern of the hidden characters `text` holds (tab and newline aside), None when
    it holds none: each distinct character is judged once, the text then searched at C
    speed (a long SKILL.md is not walked character by character in Python)."""
    secret = sorted(c for c in set(text) if c not in "\t\n" and is_hidden(c))
    return re.compile("[" + "".join(re.escape(c) for c in secret) + "]") if secret else None


def make_visible(text: str) -> str:
    """`visible_text(text)` (newline and tab kept), fast when nothing is hidden."""
    pattern = _hidden_pattern(text)
    if pattern is None:
        return text
    return pattern.sub(lambda m: visible_text(m.group(0)), text)


def body_findings(front: Frontmatter) -> list[SkillFinding]:
    """The Markdown body: hidden characters (where, shown escaped) and its length."""
    out: list[SkillFinding] = []
    lines = front.body.split("\n")
    places: list[str] = []
    count = 0
    pattern = _hidden_pattern(front.body)
    for number, line in enumerate(lines, start=front.body_line):
        if pattern is None:
            break
        if not pattern.search(line):
            continue
        hidden = [m.start() for m in pattern.finditer(line)]
        if hidden:
            count += len(hidden)
            if len(places) < _HIDDEN_SHOWN:
                start = max(0, hidden[0] - 20)
                places.append(f"line {number}: …{visible_text(line[start : start + 80], keep='')}…")
    if count:
        out.append(
            _warn(
                "body",
                f"the instructions hold {count} character(s) a person cannot see (shown "
                f"escaped): {'; '.join(places)}",
                f"{_SEP} § Security Implications: skill content is untrusted input",
            )
        )
    total = front.body_line - 1 + len(lines)
    if total > RECOMMENDED_LINES:
        out.append(
            _note(
                "body",
                f"SKILL.md is {total:,} lines long; the spec recommends under "
                f"{RECOMMENDED_LINES} (details go in referenced files)",
                f"{_SPEC} § Progressive disclosure",
            )
        )
    return out


def resource_findings(skill: SkillEntry, fields: dict[str, Any] | None) -> list[SkillFinding]:
    """The SKILL.md resource's listing against its frontmatter (SEP § Resource Metadata)."""
    rule = f"{_SEP} § Resource Metadata"
    out: list[SkillFinding] = []
    if not skill.resource:  # known from skills/list only: nothing listed to compare
        return out
    mime = skill.resource.get("mimeType")
    if mime != "text/markdown":
        what = f"{_quote(mime)}" if isinstance(mime, str) else "not given"
        out.append(
            _note(
                "resource",
                f"the SKILL.md resource's mimeType is {what}; it should be 'text/markdown'",
                rule,
            )
        )
    if fields is None:
        return out
    for key in ("name", "description"):
        listed, written = skill.resource.get(key), fields.get(key)
        if (
            isinstance(written, str)
            and isinstance(listed, str)
            and listed.strip() != written.strip()
        ):
            out.append(
                _note(
                    "resource",
                    f"the resource's {key} {_quote(listed)} differs from the frontmatter's "
                    f"{_quote(written)}; it should be set from it",
                    rule,
                )
            )
    return out


def _as_json(value: Any) -> Any:
    """A parsed YAML value as the JSON a server would render it as (dates as text)."""
    return json.loads(json.dumps(value, default=str))


def listing_findings(
    skill: SkillEntry, fields: dict[str, Any] | None, raw: bytes | None
) -> list[SkillFinding]:
    """A `skills/list` entry against the SKILL.md read (SEP-2640 § Enumeration via
    skills/list: "Frontmatter", "Resources", "Integrity and verification"): the listed
    frontmatter MUST be identical in content to the file's (a host treats a discrepancy as a
    verification failure); `resources`, when given, MUST list every file once, the SKILL.md
    included, each within the skill's directory, each digest `sha256:` and 64 lower-case hex
    digits of the file's raw bytes. `raw` is the SKILL.md's bytes (None when cut or not
    text: its digest is not checked)."""
    listing = skill.listing
    if listing is None:
        return []
    rule = f"{_SEP} § Enumeration via skills/list"
    out = [_err("listing", f"the skills/list entry: {p}", rule) for p in listing.problems]
    if not skill.uri.endswith("/SKILL.md"):
        out.append(_err("listing", f"the entry's uri {_quote(skill.uri)} is not a SKILL.md", rule))
    if listing.frontmatter is not None and fields is not None:
        listed, written = _as_json(listing.frontmatter), _as_json(fields)
        for key in sorted(set(listed) | set(written)):
            if listed.get(key) != written.get(key):
                what = (
                    f"lists {_quote(key)} = {_quote(listed[key])}"
                    if key in listed
                    else f"lacks {_quote(key)}"
                )
                has = f"has {_quote(written[key])}" if key in written else "has no such field"
                out.append(
                    _err(
                        "listing",
                        f"the skills/list entry {what}, but the SKILL.md {has}; the two must be "
                        "identical (a host must not load the skill)",
                        f"{rule}: Frontmatter; Integrity and verification",
                    )
                )
    digests = listing.digests
    if digests is None:
        out.append(
            _note(
                "listing",
                "the skills/list entry has no 'resources' (no digests): hosts may decline to "
                "load a skill that cannot be content-bound",
                f"{rule}: Resources",
            )
        )
        return out
    if skill.uri not in digests:
        out.append(
            _err(
                "listing", "the entry's 'resources' lacks the SKILL.md itself", f"{rule}: Resources"
            )
        )
    for uri, digest in digests.items():
        if not uri.startswith(skill.root + "/"):
            out.append(
                _err(
                    "listing",
                    f"'resources' lists {_quote(uri)}, outside the skill's directory",
                    f"{rule}: Resources",
                )
            )
        if not DIGEST.fullmatch(digest):
            out.append(
                _err(
                    "listing",
                    f"the digest of {_quote(uri)} is {_quote(digest)}, not 'sha256:' and 64 "
                    "lower-case hex digits",
                    f"{rule}: Integrity and verification",
                )
            )
    listed_digest = digests.get(skill.uri, "")
    if raw is not None and DIGEST.fullmatch(listed_digest):
        actual = "sha256:" + hashlib.sha256(raw).hexdigest()
        if actual != listed_digest:
            out.append(
                _err(
                    "listing",
                    f"the SKILL.md read does not match its listed digest ({listed_digest[:19]}…, "
                    f"read {actual[:19]}…): stale, corrupted or tampered with",
                    f"{rule}: Integrity and verification",
                )
            )
    return out
