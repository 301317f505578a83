"""Static content of the demo server: server info, resources, templates, prompts, completions."""

from __future__ import annotations

import base64
import json
import re
from typing import Any
from urllib.parse import unquote

from inspector.demo.png import gradient_png

JSONObject = dict[str, Any]

SERVER_INFO: JSONObject = {
    "name": "mcp-inspector-qt demo",
    "version": "0.1.0",
    "title": "MCP Inspector (Qt) demo server",
}

INSTRUCTIONS = (
    "This is the demo server bundled with mcp-inspector-qt. It exists to be clicked through: "
    "every tool shows one MCP feature. Try `echo` and `add` first, `create_ticket` for a nested "
    "form, `render_chart` for image content, `slow_count` for progress and cancellation, "
    "`ask_llm` and `ask_user` for sampling and elicitation, and `log_burst` for log messages. "
    "Resources live under demo://, and demo://notes/{topic} is a template."
)

README_MD = """# MCP Inspector (Qt) demo server

This server speaks both MCP protocol eras over stdio:

* **legacy** (2024-11-05 … 2025-11-25): `initialize`, then requests; the server sends its own
  `sampling/createMessage` and `elicitation/create` requests.
* **modern** (2026-07-28): no handshake, `_meta` on every request, and `input_required`
  results instead of server requests.

Things to try:

1. Call `add` and compare the text content with `structuredContent`.
2. Call `slow_count` with a progress token, then cancel it half way.
3. Subscribe to this resource: an update notification follows a second later.
4. Read `demo://notes/debugging` through the resource template.
"""

CONFIG: JSONObject = {
    "theme": "dark",
    "retries": 3,
    "endpoints": {"primary": "stdio", "fallback": None},
    "features": ["tools", "resources", "prompts", "completions", "logging"],
}

LOGO_PNG = gradient_png(16)

RESOURCES: list[JSONObject] = [
    {
        "uri": "demo://readme",
        "name": "readme",
        "title": "Read me",
        "description": "What this demo server offers, in Markdown.",
        "mimeType": "text/markdown",
    },
    {
        "uri": "demo://config.json",
        "name": "config.json",
        "title": "Configuration",
        "description": "A small JSON document.",
        "mimeType": "application/json",
    },
    {
        "uri": "demo://logo.png",
        "name": "logo.png",
        "title": "Logo",
        "description": "A 16×16 gradient, served as a binary blob.",
        "mimeType": "image/png",
        "size": len(LOGO_PNG),
    },
]

RESOURCE_TEMPLATES: list[JSONObject] = [
    {
        "uriTemplate": "demo://notes/{topic}",
        "name": "note",
        "title": "Note on a topic",
        "description": "A generated Markdown note about any topic (try 'debugging').",
        "mimeType": "text/markdown",
    }
]

NOTE_TOPICS = [
    "architecture",
    "cancellation",
    "debugging",
    "elicitation",
    "logging",
    "pagination",
    "progress",
    "sampling",
]

_NOTE_RE = re.compile(r"^demo://notes/([^/?#]+)$")


def resource_exists(uri: str) -> bool:
    return any(r["uri"] == uri for r in RESOURCES) or _NOTE_RE.match(uri) is not None


def read_resource(uri: str) -> list[JSONObject] | None:
    """The `contents` of a resource, or None when the URI is unknown."""
    if uri == "demo://readme":
        return [{"uri": uri, "mimeType": "text/markdown", "text": README_MD}]
    if uri == "demo://config.json":
        text = json.dumps(CONFIG, indent=2)
        return [{"uri": uri, "mimeType": "application/json", "text": text}]
    if uri == "demo://logo.png":
        blob = base64.b64encode(LOGO_PNG).decode("ascii")
        return [{"uri": uri, "mimeType": "image/png", "blob": blob}]
    match = _NOTE_RE.match(uri)
    if match:
        topic = unquote(match.group(1))
        text = (
            f"# Note: {topic}\n\n"
            f"This note was generated from the template demo://notes/{{topic}} "
            f"with topic = {topic!r}.\n"
        )
        return [{"uri": uri, "mimeType": "text/markdown", "text": text}]
    return None


PROMPTS: list[JSONObject] = [
    {
        "name": "review_code",
        "title": "Review code",
        "description": "Ask the model for a code review.",
        "arguments": [
            {
                "name": "code",
                "title": "Code",
                "description": "The code to review",
                "required": True,
            },
            {
                "name": "language",
                "title": "Language",
                "description": "Programming language (completable)",
                "required": False,
            },
        ],
    },
    {
        "name": "greet",
        "title": "Greet someone",
        "description": "A friendly two-message conversation.",
        "arguments": [{"name": "name", "description": "Who to greet", "required": True}],
    },
]


def get_prompt(name: str, arguments: dict[str, str]) -> JSONObject:
    """The GetPromptResult body; raises KeyError (unknown) or ValueError (bad arguments)."""
    prompt = next((p for p in PROMPTS if p["name"] == name), None)
    if prompt is None:
        raise KeyError(name)
    for arg in prompt["arguments"]:
        if arg.get("required") and not isinstance(arguments.get(arg["name"]), str):
            raise ValueError(f"missing required argument {arg['name']!r}")
    if name == "review_code":
        language = arguments.get("language") or "text"
        text = (
            f"Please review this {language} code. Point out bugs first, then style.\n\n"
            f"```{language}\n{arguments['code']}\n```"
        )
        return {
            "description": f"Code review ({language})",
            "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        }
    who = arguments["name"]
    return {
        "description": f"Greeting for {who}",
        "messages": [
            {"role": "user", "content": {"type": "text", "text": f"Please greet {who}."}},
            {
                "role": "assistant",
                "content": {"type": "text", "text": f"Hello, {who}! Welcome to MCP."},
            },
        ],
    }


LANGUAGES = [
    "c",
    "cpp",
    "csharp",
    "go",
    "haskell",
    "java",
    "javascript",
    "kotlin",
    "python",
    "ruby",
    "rust",
    "swift",
    "typescript",
    "zig",
]


def complete(ref: JSONObject, argument: str, value: str) -> list[str] | None:
    """Completion values, or None when the reference is unknown."""
    kind = ref.get("type")
    if kind == "ref/prompt":
        if not any(p["name"] == ref.get("name") for p in PROMPTS):
            return None
        pool = LANGUAGES if ref.get("name") == "review_code" and argument == "language" else []
    elif kind == "ref/resource":
        if ref.get("uri") != "demo://notes/{topic}":
            return None
        pool = NOTE_TOPICS if argument == "topic" else []
    else:
        return None
    prefix = value.lower()
    return [v for v in pool if v.startswith(prefix)]
