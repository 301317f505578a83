"""Look-alike names: an item removed on one side and one added on the other whose names
differ only by case, or by a gateway's namespace (`github__issue_read` against
`issue_read`). They stay different items in the diff (a client calls them by exact name);
the hint says they may be the same one."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Final

__all__ = ["base_name", "name_hints"]

# Gateways prefix each server's tools: `github__issue_read`, `github.issue_read`,
# `github/issue_read`, `github:issue_read`.
_NAMESPACE: Final = re.compile(r"^.+?(?:__|[./:])(?=.)")


def base_name(name: str) -> str:
    """The name without a gateway namespace, lower-cased: what look-alikes share."""
    return _NAMESPACE.sub("", name, count=1).lower()


def _why(removed: str, added: str) -> str:
    if removed.lower() == added.lower():
        return "differ only by case"
    return "differ by a namespace prefix"


def name_hints(
    removed: Sequence[str], added: Sequence[str], *, namespaces: bool = True
) -> dict[str, str]:
    """For each removed or added name with a look-alike on the other side: the hint.
    `namespaces` is off for URIs, where a scheme is not a gateway's prefix."""
    if not removed or not added:
        return {}
    by_base: dict[str, list[str]] = defaultdict(list)
    by_lower: dict[str, list[str]] = defaultdict(list)
    for name in removed:
        if namespaces:
            by_base[base_name(name)].append(name)
        by_lower[name.lower()].append(name)
    hints: dict[str, str] = {}
    for name in added:
        matches = list(
            dict.fromkeys(by_lower.get(name.lower(), []) + by_base.get(base_name(name), []))
        )
        for other in matches:
            why = _why(other, name)
            hints.setdefault(name, f"may be the same as removed {other!r} (the names {why})")
            hints.setdefault(other, f"may be the same as added {name!r} (the names {why})")
    return hints
