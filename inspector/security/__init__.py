"""Security review of servers' definitions, Qt-free and without IO: the rules that read what
servers offer (tools, prompts, resources, templates, `instructions`) and say what hides in
it (invisible text, escapes, hidden markup), what speaks to the model rather than the user
(injected instructions, credential paths, places to send data), and what one server does to
another when both sit in one tool table (colliding or confusable names, shadowing).

`scan(servers)` runs every rule over `ServerDefinitions` (plain JSON, as the catalog and
`ToolDefinitions` hold it) and returns `SecurityFinding`s, each with its rule id, severity,
exact place (server, kind, item, field, JSON Pointer, character offset), visible evidence,
reason and spec reference. The CLI `scan` and the GUI Security view render them
(docs/notes/issue-29-plan.md).
"""

from __future__ import annotations

from inspector.security.definitions import ServerDefinitions
from inspector.security.finding import SecurityFinding, Severity
from inspector.security.scan import RULES, scan

__all__ = ["RULES", "SecurityFinding", "ServerDefinitions", "Severity", "scan"]
