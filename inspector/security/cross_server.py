"""Rules across servers, over the tabs open together or the targets of one scan: when tools
of different trust sit in one tool table, one can shadow another.

- `shadow.name-collision` (medium): two servers offer a tool of the same name.
- `shadow.confusable-name` (high; medium when only the case differs): two tool names that
  look alike: the same after NFKC, case folding, dropping invisible characters and mapping
  each character to the ASCII one it is confusable with (the Unicode confusables table, as
  the maintained `confusable-homoglyphs` package ships it).
- `shadow.mentions-other-tool` (medium; high with words that direct the model: "instead",
  "before", "always", ...): a server's text names another server's tool.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final

from confusable_homoglyphs import confusables

from inspector.common.visible_text import is_hidden, visible_text
from inspector.security.definitions import ServerDefinitions
from inspector.security.finding import SecurityFinding, Severity
from inspector.security.hit import finding_at

__all__ = ["cross_server", "skeleton"]

_SPEC: Final = "Security Best Practices; tools of different trust in one tool table"
_DIRECTIVE: Final = re.compile(
    r"\b(?:instead|before|after|always|never|must|only|do\s+not|don'?t|whenever|override|replace|"
    r"rather\s+than|when\s+(?:using|calling))\b",
    re.IGNORECASE,
)
_DISTINCTIVE: Final = re.compile(r"[_\-.\d]|[a-z][A-Z]")
_WORD_NAME: Final = re.compile(r"[\w-]+")
_TOKEN: Final = re.compile(r"(?<![\w-])[\w-]+")


@lru_cache(maxsize=4096)
def _ascii_like(ch: str) -> str:
    if ch.isascii():
        return ch
    for glyph in confusables.confusables_data.get(ch, ()):
        look = glyph.get("c", "")
        if isinstance(look, str) and len(look) == 1 and look.isascii():
            return look
    return ch


def skeleton(name: str) -> str:
    """What a name looks like: NFKC, no invisible characters, confusables as ASCII, case folded."""
    text = unicodedata.normalize("NFKC", name)
    return "".join(_ascii_like(ch) for ch in text if not is_hidden(ch)).casefold()


def _spelled(name: str) -> str:
    """The name made visible, and what each character outside ASCII really is."""
    odd = [
        f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')} at {i}"
        for i, c in enumerate(name)
        if not c.isascii()
    ]
    shown = visible_text(name, keep="")
    return f"{shown} ({'; '.join(odd[:8])})" if odd else shown


def _names(servers: Sequence[ServerDefinitions]) -> Iterator[SecurityFinding]:
    by_skeleton: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for server in servers:
        for name in dict.fromkeys(server.tool_names()):
            by_skeleton[skeleton(name)].append((server.name, name))
    for group in by_skeleton.values():
        for owner, name in group:
            for other_server, other in group:
                if (other_server, other) == (owner, name):
                    continue
                shown = visible_text(other, keep="")
                if other == name:
                    reason = f"server {other_server!r} also has a tool named {shown!r}"
                    yield SecurityFinding(
                        "shadow.name-collision",
                        Severity.MEDIUM,
                        owner,
                        "tool",
                        name,
                        "name",
                        "/name",
                        -1,
                        visible_text(name, keep=""),
                        reason,
                        _SPEC,
                    )
                    continue
                case_only = name.casefold() == other.casefold()
                severity = Severity.MEDIUM if case_only else Severity.HIGH
                how = "differs only in case from" if case_only else "looks like"
                reason = f"{how} tool {shown!r} of server {other_server!r}"
                first = next(
                    (i for i, (a, b) in enumerate(zip(name, other, strict=False)) if a != b),
                    min(len(name), len(other)),
                )
                yield SecurityFinding(
                    "shadow.confusable-name",
                    severity,
                    owner,
                    "tool",
                    name,
                    "name",
                    "/name",
                    first,
                    _spelled(name),
                    reason,
                    _SPEC,
                )


def _mentions(servers: Sequence[ServerDefinitions]) -> Iterator[SecurityFinding]:
    owners: dict[str, set[str]] = defaultdict(set)
    for server in servers:
        for name in server.tool_names():
            if len(name) >= 4 and _DISTINCTIVE.search(name):
                owners[name].add(server.name)
    if not owners:
        return
    # A name of word characters and dashes only is a whole `[\w-]+` token of the text
    # (the boundaries are the same): looked up in a set, linear in the text, whatever the
    # number of names (one alternation of 10,000 names was quadratic). The few other
    # names (with dots, slashes, ...) go through an alternation, and a token inside one of
    # their matches is not a match of its own (as in one alternation of all the names).
    plain = {n for n in owners if _WORD_NAME.fullmatch(n)}
    odd = sorted((n for n in owners if n not in plain), key=len, reverse=True)
    pattern = (
        re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in odd) + r")(?![\w-])")
        if odd
        else None
    )
    for server in servers:
        for t in server.texts():
            if t.is_key or (t.leaf == "name" and t.pointer == "/name"):
                continue
            odd_hits = list(pattern.finditer(t.text)) if pattern is not None else []
            spans = [m.span() for m in odd_hits]
            hits = [(m.group(0), m.span()) for m in odd_hits]
            hits += [
                (m.group(0), m.span())
                for m in _TOKEN.finditer(t.text)
                if m.group(0) in plain and not any(a <= m.start() < b for a, b in spans)
            ]
            hits.sort(key=lambda hit: hit[1])
            for name, span in hits:
                others = owners[name] - {server.name}
                if not others or server.name in owners[name]:
                    continue
                near = t.text[max(0, span[0] - 80) : span[1] + 80]
                severity = Severity.HIGH if _DIRECTIVE.search(near) else Severity.MEDIUM
                reason = f"names tool {name!r} of server {', '.join(sorted(others))!r}"
                yield finding_at(
                    server.name, t, "shadow.mentions-other-tool", severity, span, reason, _SPEC
                )


def cross_server(servers: Sequence[ServerDefinitions]) -> Iterator[SecurityFinding]:
    """Every finding across the servers given (nothing for one server but its confusables)."""
    yield from _names(servers)
    if len(servers) > 1:
        yield from _mentions(servers)
