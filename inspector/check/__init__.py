"""`check`: an on-demand battery of checks against one server (handshake, lists, errors,
resources, prompts, read-only tools, transport rules), each passed, failed with its
evidence and the spec rule, or skipped with the reason. The CLI and the GUI show the same
report."""
