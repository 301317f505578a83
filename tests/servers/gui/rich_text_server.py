"""A stdio MCP server whose every text is HTML, to prove the GUI shows it as plain text.

Minimal legacy handshake; tools/list returns one tool with markup in its title and
description; stderr gets markup too. With --prompts-and-resources it also declares prompts
and resources: one prompt and one resource, markup in every text they have (names,
descriptions, a message, the resource's contents). Stdlib only.
"""

from __future__ import annotations

import json
import sys
from typing import Any

MARKUP = '<img src=x onerror="alert(1)"> and <b>bold</b> <a href="http://evil">link</a>'


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


PROMPT = {
    "name": "<b>prompt</b>",
    "description": f"A prompt whose description has {MARKUP}",
    "arguments": [{"name": "topic", "description": f"An argument with {MARKUP}"}],
}
RESOURCE = {
    "uri": "test://markup",
    "name": "<b>resource</b>",
    "description": f"A resource whose description has {MARKUP}",
    "mimeType": "text/plain",
}


def prompts_and_resources(method: str) -> dict[str, Any] | None:
    """The answers of the prompts and resources this server offers with the flag."""
    if method == "prompts/list":
        return {"prompts": [PROMPT]}
    if method == "prompts/get":
        return {
            "description": f"The result's description has {MARKUP}",
            "messages": [{"role": "user", "content": {"type": "text", "text": MARKUP}}],
        }
    if method == "resources/list":
        return {"resources": [RESOURCE]}
    if method == "resources/templates/list":
        return {"resourceTemplates": []}
    if method == "resources/read":
        return {"contents": [{"uri": RESOURCE["uri"], "mimeType": "text/plain", "text": MARKUP}]}
    return None


def main() -> int:
    more = "--prompts-and-resources" in sys.argv[1:]
    sys.stderr.write("<b>stderr markup</b> <img src=x>\n")
    sys.stderr.flush()
    for line in sys.stdin:
        msg = json.loads(line)
        method, msg_id = msg.get("method"), msg.get("id")
        if msg_id is None:
            continue
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": "2025-06-18",
                "capabilities": {"tools": {}, **({"prompts": {}, "resources": {}} if more else {})},
                "serverInfo": {"name": "<b>html-server</b>", "version": "<i>1</i>"},
                "instructions": f"Instructions with {MARKUP}",
            }
        elif method == "tools/list":
            result = {
                "tools": [
                    {
                        "name": "<b>markup</b>",
                        "description": f"A tool whose description has {MARKUP}",
                        "inputSchema": {"type": "object"},
                    }
                ]
            }
        elif more and (answer := prompts_and_resources(method)) is not None:
            result = answer
        else:
            result = {}
        send({"jsonrpc": "2.0", "id": msg_id, "result": result})
    return 0


if __name__ == "__main__":
    sys.exit(main())
