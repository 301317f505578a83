"""Rules for text aimed at the model rather than the user (tool poisoning).

- `injection.override` (high): "ignore previous instructions" and its kin.
- `injection.conceal` (high): "do not tell the user", "without informing the user", ...
- `injection.important-block` (high): `<IMPORTANT>`, `<SYSTEM>`, `<instructions>` blocks.
- `injection.credential-path` (high; `.env` medium): a path to credentials: `~/.ssh`, SSH
  keys, `~/.aws`, `.netrc`, `.npmrc`, `.pypirc`, `.kube/config`, `.docker/config.json`,
  `.gnupg`, MCP client configs, browser profiles (Chrome's `Login Data`, Firefox's
  `logins.json`, `key4.db`, ...).
- `injection.send-url` (medium): a URL that the text tells to send, post or upload data to.
- `injection.context-parameter` (high): an input's description that tells the model to put
  the conversation, its instructions, secrets or file contents in it (the `note` or
  `feedback` field that exfiltrates).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from inspector.security.finding import SecurityFinding, Severity
from inspector.security.hit import finding_at
from inspector.security.strings import Text

__all__ = ["injection"]

_SPEC: Final = "Security Best Practices; tools: 'descriptions of tool behavior ... untrusted'"
_I: Final = re.IGNORECASE

_OVERRIDE: Final = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
    r"(?:previous|prior|above|earlier|preceding|former|system|other|original)\s+"
    r"(?:instructions?|prompts?|rules|directions|guidelines|messages)",
    _I,
)
_CONCEAL: Final = re.compile(
    r"\b(?:do\s+not|don'?t|never|must\s+not)\s+(?:tell|inform|notify|alert|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?to|show)"
    r"\s+(?:this\s+to\s+|it\s+to\s+)?the\s+user"
    r"|\bwithout\s+(?:telling|informing|notifying|alerting|asking)\s+the\s+user"
    r"|\b(?:hide|conceal|keep)\s+(?:this|it)\s+(?:secret\s+)?from\s+the\s+user"
    r"|\bthe\s+user\s+(?:must|should)\s+(?:not|never)\s+(?:know|see|be\s+told)",
    _I,
)
_BLOCK: Final = re.compile(r"<\s*(?:important|system|instructions?|secret|hidden)\s*>", _I)
_CREDENTIALS: Final = re.compile(
    r"~/\.ssh(?:/[\w.-]+)?|(?<!~/)\.ssh/[\w.-]+|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|authorized_keys"
    r"|~/\.aws\b|\.aws/credentials|\baws_secret_access_key\b"
    r"|~/\.netrc\b|\.npmrc\b|\.pypirc\b|\.kube/config\b|\.docker/config\.json|~/\.gnupg\b"
    r"|~/\.cursor/mcp\.json|claude_desktop_config\.json|~/\.codex\b"
    r"|\bLogin Data\b|\blogins\.json\b|\bkey4\.db\b|\.mozilla/firefox"
    r"|Google/Chrome/|Google\\Chrome\\"
    r"|Application Support/Google|\bcookies\.sqlite\b",
    _I,
)
_DOTENV: Final = re.compile(r"(?<![\w./-])(?:~/|\./)?\.env(?![\w.-])")
_SEND_URL: Final = re.compile(
    r"\b(?:send|post|upload|forward|transmit|exfiltrate|submit|report|leak|copy)\b[^.\n]{0,80}?"
    r"\b(?:to|at|via)\s+<?(https?://[^\s>\"')]+)",
    _I,
)
_CONTEXT_ASK: Final = re.compile(
    r"\b(?:include|put|pass|provide|insert|add|copy|paste|fill|send|append|store|write|dump|summari[sz]e)\b"
    r"[^.\n]{0,80}?\b(?:(?:entire|whole|full|complete)\s+conversation|conversation\s+(?:history|so\s+far)"
    r"|chat\s+history|previous\s+messages|(?:your\s+)?system\s+prompt|your\s+instructions"
    r"|secrets?\b|api[\s_-]?keys?|passwords?|credentials|private\s+keys?|ssh\s+keys?|access\s+tokens?"
    r"|(?:contents?|text)\s+of\s+(?:the\s+|any\s+)?(?:file|~|/|\.))",
    _I,
)


def _search(
    server: str, t: Text, pattern: re.Pattern[str], rule: str, severity: Severity, reason: str
) -> Iterator[SecurityFinding]:
    for m in pattern.finditer(t.text):
        yield finding_at(server, t, rule, severity, m.span(), reason, _SPEC)


def _is_input_description(t: Text) -> bool:
    if t.leaf != "description":
        return False
    if t.field == "inputSchema":
        return "/properties/" in t.pointer
    return t.kind == "prompt" and t.pointer.startswith("/arguments/")


def injection(server: str, t: Text) -> Iterator[SecurityFinding]:
    """Every instruction-to-the-model finding in one string."""
    if t.is_key:
        return
    yield from _search(
        server,
        t,
        _OVERRIDE,
        "injection.override",
        Severity.HIGH,
        "tells the model to ignore its instructions",
    )
    yield from _search(
        server,
        t,
        _CONCEAL,
        "injection.conceal",
        Severity.HIGH,
        "tells the model to keep something from the user",
    )
    yield from _search(
        server,
        t,
        _BLOCK,
        "injection.important-block",
        Severity.HIGH,
        "a tagged block of orders to the model, as tool poisoning writes them",
    )
    yield from _search(
        server,
        t,
        _CREDENTIALS,
        "injection.credential-path",
        Severity.HIGH,
        "names a file of credentials or secrets",
    )
    yield from _search(
        server,
        t,
        _DOTENV,
        "injection.credential-path",
        Severity.MEDIUM,
        "names a .env file (secrets)",
    )
    for m in _SEND_URL.finditer(t.text):
        reason = f"tells to send data to {m.group(1).rstrip('.,;:!?')[:100]}"
        yield finding_at(server, t, "injection.send-url", Severity.MEDIUM, m.span(), reason, _SPEC)
    if _is_input_description(t):
        yield from _search(
            server,
            t,
            _CONTEXT_ASK,
            "injection.context-parameter",
            Severity.HIGH,
            "an input that asks the model for the conversation, its instructions or secrets",
        )
