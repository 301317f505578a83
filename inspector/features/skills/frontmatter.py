"""A SKILL.md split into its YAML frontmatter and its Markdown body, the frontmatter
safe-loaded.

The Agent Skills specification (agentskills.io/specification, "SKILL.md format"): "The
SKILL.md file must contain YAML frontmatter followed by Markdown content", the frontmatter
between a first line `---` and the next line `---` (as the reference parser, skills-ref's
parser.py, reads it). SEP-2640 ("Skill Format"): "SKILL.md MUST begin with YAML
frontmatter".

The YAML is PyYAML's safe loader (no Python objects) with our own bounds, since the text
comes from a server: the frontmatter is at most `MAX_FRONTMATTER` characters (a real one is
a few hundred), anchors and aliases are refused before anything is built (a "billion
laughs" document is small until it is walked), a nesting too deep (past `MAX_DEPTH`
levels) is an error, not a crash, and a key written twice at the top level is reported
(YAML keeps only the last: a second `name:` could hide the first from a reader).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

import yaml

__all__ = ["MAX_DEPTH", "MAX_FRONTMATTER", "Frontmatter", "split_frontmatter"]

MAX_FRONTMATTER: Final = 64 * 1024  # characters: our bound, not the spec's
MAX_DEPTH: Final = 32  # lists and mappings inside each other: our bound
# libyaml's safe loader when PyYAML was built with it (its wheels are), else the Python one
_Loader: Final = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_FENCE: Final = "---"


@dataclass
class Frontmatter:
    """What the head of a SKILL.md held.

    `fields` is the parsed mapping (None when there is no usable frontmatter, and
    `problem` says why); `body` is the Markdown after it (the whole text without one);
    `body_line` the 1-based line where the body starts; `duplicates` the top-level keys
    written more than once."""

    fields: dict[str, Any] | None
    body: str
    body_line: int = 1
    problem: str | None = None
    missing: bool = False  # no frontmatter at all (not a broken one)
    duplicates: list[str] = field(default_factory=list)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def split_frontmatter(text: str) -> Frontmatter:
    """Split and parse. Never raises: every problem is a sentence in `problem`."""
    text = text.replace("\r\n", "\n")
    lines = _lines(text)
    if not lines or lines[0].rstrip() != _FENCE:
        return Frontmatter(
            None,
            text,
            problem="SKILL.md does not begin with YAML frontmatter (a first line '---')",
            missing=True,
        )
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() == _FENCE), None)
    if end is None:
        return Frontmatter(
            None,
            text,
            problem="the frontmatter is never closed: no second line '---' after the first",
        )
    head = "\n".join(lines[1:end])
    body = "\n".join(lines[end + 1 :])
    body_line = end + 2
    if len(head) > MAX_FRONTMATTER:
        return Frontmatter(
            None,
            body,
            body_line,
            problem=(
                f"the frontmatter is {len(head):,} characters long, over the "
                f"{MAX_FRONTMATTER:,} this inspector parses; it was not read"
            ),
        )
    fields, problem, duplicates = _load(head)
    return Frontmatter(fields, body, body_line, problem=problem, duplicates=duplicates)


def _load(head: str) -> tuple[dict[str, Any] | None, str | None, list[str]]:
    try:
        depth = 0
        for event in yaml.parse(head, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                return None, _aliases(event), []
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return None, f"the frontmatter nests deeper than {MAX_DEPTH} levels", []
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        loader = _Loader(head)
        try:
            node = loader.get_single_node()
            if node is None:
                return None, "the frontmatter is empty", []
            if not isinstance(node, yaml.MappingNode):
                kind = {"ScalarNode": "a single value", "SequenceNode": "a list"}
                what = kind.get(type(node).__name__, "not a mapping")
                return None, f"the frontmatter is {what}, not a mapping of fields", []
            duplicates = _duplicate_keys(node)
            value = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        return None, _yaml_error(exc), []
    except yaml.YAMLError as exc:
        return None, f"the frontmatter is not valid YAML: {exc}", []
    except RecursionError:  # bounded above by MAX_DEPTH; kept as the last guard
        return None, "the frontmatter nests too deeply to be read", []
    if not isinstance(value, dict):
        return None, "the frontmatter is not a mapping of fields", []
    return {str(k): v for k, v in value.items()}, None, duplicates


def _aliases(event: yaml.AliasEvent) -> str:
    mark = event.start_mark
    where = f" (line {mark.line + 2})" if mark is not None else ""
    return (
        f"the frontmatter uses a YAML alias{where}; a skill's fields need none, and it was "
        "not expanded (an alias can multiply a small text into a huge value)"
    )


def _duplicate_keys(node: yaml.MappingNode) -> list[str]:
    seen: set[str] = set()
    twice: list[str] = []
    for key, _value in node.value:
        name = str(key.value)
        if name in seen and name not in twice:
            twice.append(name)
        seen.add(name)
    return twice


def _yaml_error(exc: yaml.MarkedYAMLError) -> str:
    """The YAML error as one sentence, its lines counted in the SKILL.md (the frontmatter
    starts on line 2): where it broke, and where what broke began."""
    mark, began = exc.problem_mark, exc.context_mark
    where = f" at line {mark.line + 2}, column {mark.column + 1}" if mark is not None else ""
    if began is not None and (mark is None or began.line != mark.line):
        where += f" (in what began at line {began.line + 2}, column {began.column + 1})"
    what = " ".join(str(part) for part in (exc.context, exc.problem) if part)
    return f"the frontmatter is not valid YAML{where}: {what or 'unreadable'}"
