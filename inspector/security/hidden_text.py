"""Hidden-text rules: what a person reading a definition does not see but a model reads.

- `hidden.tag-characters` (high): the Unicode tag block U+E0000-E007F, which spells ASCII
  invisibly (the reason says what it spells); an emoji flag's tag sequence (🏴 + tags +
  U+E007F) is legitimate.
- `hidden.variation-selectors` (high): runs of the supplementary variation selectors
  U+E0100-E01EF, which can carry bytes after any character; one after a CJK ideograph is
  legitimate.
- `hidden.bidi-override` (high): bidi embeddings and overrides (U+202A-202E) that reorder
  what is read; in right-to-left text, balanced embeddings are only low.
- `hidden.bidi-isolate` (medium): bidi isolates (U+2066-2069) outside right-to-left text;
  `hidden.bidi-mark` (low): LRM/RLM/ALM outside right-to-left text.
- `hidden.zero-width` (medium; high in a name or as a run of 3+): zero-width spaces and
  joiners, word joiner, BOM, invisible operators, Hangul fillers, soft hyphen; a joiner in
  an emoji sequence or between letters of a joining script is legitimate.
- `hidden.format-character` (medium): any other format character (category Cf).
- `hidden.terminal-escape` (high): ANSI CSI and OSC escape sequences, a lone ESC, C1 CSI/OSC.
- `hidden.control-character` (medium): other C0/C1 controls (not newline, CR or tab).
- `hidden.html-comment` (medium): `<!-- ... -->` and Markdown link-reference comments.
- `hidden.markup` (medium): markup that hides its content (display:none, hidden, ...).
- `hidden.long-description` (low): a description over `LONG_DESCRIPTION` characters
  (`instructions` over `LONG_INSTRUCTIONS`): room to hide things past what a UI shows.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Final

from inspector.security.finding import SecurityFinding, Severity
from inspector.security.hit import finding_at
from inspector.security.strings import Text

__all__ = ["LONG_DESCRIPTION", "LONG_INSTRUCTIONS", "hidden_text"]

LONG_DESCRIPTION: Final = 2000
LONG_INSTRUCTIONS: Final = 8000
_SPEC: Final = "Security Best Practices; tools: 'descriptions of tool behavior ... untrusted'"

_TAGS: Final = re.compile("[\U000e0000-\U000e007f]+")
_SELECTORS: Final = re.compile("[\U000e0100-\U000e01ef]+")
_OVERRIDES: Final = re.compile("[\u202a-\u202e]")
_ISOLATES: Final = re.compile("[\u2066-\u2069]")
_MARKS: Final = re.compile("[\u200e\u200f\u061c]")
_ZERO_WIDTH_CHARS: Final = (
    "\u200b\u200c\u200d\u2060\ufeff\u180e\u00ad\u2061-\u2064\u115f\u1160\u3164\uffa0"
)
_ZERO_WIDTH: Final = re.compile(f"[{_ZERO_WIDTH_CHARS}]+")
_ESCAPES: Final = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|\x1b\][^\x07\x1b]{0,4096}(?:\x07|\x1b\\)?"  # OSC, up to BEL or ST
    r"|\x1b[@-_]?"  # another escape, or a lone ESC
    r"|[\x9b\x9d]"  # C1 CSI, OSC
)
_CONTROLS: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9a\x9c\x9e\x9f]+")
_COMMENTS: Final = re.compile(r"<!--.*?(?:-->|\Z)|^\s*\[//\]: #.*$", re.DOTALL | re.MULTILINE)
_HIDING_MARKUP: Final = re.compile(
    r"<[a-z][^>]{0,300}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0"
    r"|opacity\s*:\s*0(?![.\d]*[1-9])|\shidden(?:[\s=>/]|$)|aria-hidden)[^>]{0,300}>",
    re.IGNORECASE,
)
_HANDLED_CF: Final = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
    "\u200b\u200c\u200d\u2060\ufeff\u180e\u00ad\u2061\u2062\u2063\u2064"
)


def _rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def _is_name(t: Text) -> bool:
    return (
        t.is_key
        or t.leaf in ("name", "uri", "uriTemplate")
        or t.pointer == f"/{t.field}" == "/name"
    )


def _legit_tags(text: str, match: re.Match[str]) -> bool:
    run = match.group(0)
    return (
        match.start() > 0
        and text[match.start() - 1] == "\U0001f3f4"
        and run.endswith("\U000e007f")
        and all(
            "\U000e0030" <= c <= "\U000e0039" or "\U000e0061" <= c <= "\U000e007a" for c in run[:-1]
        )
    )


def _pictographic(ch: str) -> bool:
    code = ord(ch)
    return (
        0x1F000 <= code <= 0x1FAFF
        or 0x2600 <= code <= 0x27BF
        or 0x2190 <= code <= 0x21FF
        or 0x2B00 <= code <= 0x2BFF
        or ch in "\ufe0f\u20e3\u00a9\u00ae\u203c\u2049\u2122"
        or 0x1F3FB <= code <= 0x1F3FF
    )


def _joining_letter(ch: str) -> bool:
    return not ch.isascii() and unicodedata.category(ch) in ("Lo", "Lm", "Mn", "Mc")


def _legit_joiner(text: str, start: int, end: int) -> bool:
    """A ZWJ/ZWNJ, alone, in an emoji sequence or between letters of a joining script."""
    if end - start != 1 or text[start] not in "\u200c\u200d" or start == 0 or end >= len(text):
        return False
    before, after = text[start - 1], text[end]
    if text[start] == "\u200d" and _pictographic(before) and _pictographic(after):
        return True
    return _joining_letter(before) and (_joining_letter(after) or after.isspace())


def _tags(server: str, t: Text) -> Iterator[SecurityFinding]:
    for m in _TAGS.finditer(t.text):
        if _legit_tags(t.text, m):
            continue
        spelled = "".join(
            chr(ord(c) - 0xE0000) for c in m.group(0) if 0x20 <= ord(c) - 0xE0000 < 0x7F
        )
        says = f": they spell {spelled[:120]!r}" if spelled else ""
        reason = f"{len(m.group(0))} invisible Unicode tag characters{says}"
        yield finding_at(server, t, "hidden.tag-characters", Severity.HIGH, m.span(), reason, _SPEC)


def _selectors(server: str, t: Text) -> Iterator[SecurityFinding]:
    for m in _SELECTORS.finditer(t.text):
        before = t.text[m.start() - 1] if m.start() else ""
        if len(m.group(0)) == 1 and before and unicodedata.name(before, "").startswith("CJK"):
            continue
        reason = f"{len(m.group(0))} supplementary variation selectors: invisible, can carry bytes"
        yield finding_at(
            server, t, "hidden.variation-selectors", Severity.HIGH, m.span(), reason, _SPEC
        )


def _bidi(server: str, t: Text) -> Iterator[SecurityFinding]:
    rtl = _rtl(t.text)
    balanced = t.text.count("\u202c") >= len(_OVERRIDES.findall(t.text.replace("\u202c", "")))
    for m in _OVERRIDES.finditer(t.text):
        if m.group(0) == "\u202c" and rtl:
            continue
        embedding = m.group(0) in "\u202a\u202b\u202c"
        severity = Severity.LOW if rtl and embedding and balanced else Severity.HIGH
        reason = f"bidi control U+{ord(m.group(0)):04X}: reorders what a person reads"
        yield finding_at(server, t, "hidden.bidi-override", severity, m.span(), reason, _SPEC)
    if rtl:
        return
    for m in _ISOLATES.finditer(t.text):
        reason = f"bidi isolate U+{ord(m.group(0)):04X} in text with no right-to-left letters"
        yield finding_at(server, t, "hidden.bidi-isolate", Severity.MEDIUM, m.span(), reason, _SPEC)
    for m in _MARKS.finditer(t.text):
        reason = f"bidi mark U+{ord(m.group(0)):04X} in text with no right-to-left letters"
        yield finding_at(server, t, "hidden.bidi-mark", Severity.LOW, m.span(), reason, _SPEC)


def _zero_width(server: str, t: Text) -> Iterator[SecurityFinding]:
    for m in _ZERO_WIDTH.finditer(t.text):
        if _legit_joiner(t.text, *m.span()):
            continue
        run = m.group(0)
        if run == "\u00ad" and not _is_name(t):
            continue  # a soft hyphen in prose is a hint for line breaking
        severity = Severity.HIGH if _is_name(t) or len(run) >= 3 else Severity.MEDIUM
        codes = ", ".join(sorted({f"U+{ord(c):04X}" for c in run}))
        reason = f"{len(run)} zero-width or invisible character(s) ({codes})"
        if _is_name(t):
            reason += ": a name that looks like another"
        yield finding_at(server, t, "hidden.zero-width", severity, m.span(), reason, _SPEC)


def _other_format(server: str, t: Text) -> Iterator[SecurityFinding]:
    for index, ch in enumerate(t.text):
        if ch in _HANDLED_CF or ch.isascii() or unicodedata.category(ch) != "Cf":
            continue
        if 0xE0000 <= ord(ch) <= 0xE007F:
            continue  # the tag rule's
        reason = f"format character U+{ord(ch):04X} ({unicodedata.name(ch, 'unnamed')})"
        yield finding_at(
            server, t, "hidden.format-character", Severity.MEDIUM, (index, index + 1), reason, _SPEC
        )


def _escapes(server: str, t: Text) -> Iterator[SecurityFinding]:
    for m in _ESCAPES.finditer(t.text):
        reason = "terminal escape sequence: can rewrite a terminal, hide or forge text"
        yield finding_at(
            server, t, "hidden.terminal-escape", Severity.HIGH, m.span(), reason, _SPEC
        )
    for m in _CONTROLS.finditer(t.text):
        reason = f"control character(s) U+{ord(m.group(0)[0]):04X}"
        yield finding_at(
            server, t, "hidden.control-character", Severity.MEDIUM, m.span(), reason, _SPEC
        )


def _markup(server: str, t: Text) -> Iterator[SecurityFinding]:
    if t.is_key:
        return
    for m in _COMMENTS.finditer(t.text):
        reason = "a comment: hidden when the text is rendered, read by the model"
        yield finding_at(server, t, "hidden.html-comment", Severity.MEDIUM, m.span(), reason, _SPEC)
    for m in _HIDING_MARKUP.finditer(t.text):
        reason = "markup that hides its content when rendered"
        yield finding_at(server, t, "hidden.markup", Severity.MEDIUM, m.span(), reason, _SPEC)


def _long(server: str, t: Text) -> Iterator[SecurityFinding]:
    limit = LONG_INSTRUCTIONS if t.kind == "instructions" else LONG_DESCRIPTION
    if t.is_key or (t.kind != "instructions" and t.leaf != "description") or len(t.text) <= limit:
        return
    reason = (
        f"{len(t.text)} characters (over {limit}): more than a person reads, "
        "room to hide instructions"
    )
    yield finding_at(
        server, t, "hidden.long-description", Severity.LOW, (limit, len(t.text)), reason, _SPEC
    )


_RULES: Final = (_tags, _selectors, _bidi, _zero_width, _other_format, _escapes, _markup, _long)
# what can be found in pure ASCII text (the others look only for characters above it)
_ASCII_RULES: Final = (_escapes, _markup, _long)


def hidden_text(server: str, t: Text) -> Iterator[SecurityFinding]:
    """Every hidden-text finding in one string."""
    for rule in _ASCII_RULES if t.text.isascii() else _RULES:
        yield from rule(server, t)
