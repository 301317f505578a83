"""What needs the user's consent, and what they already allowed for this app view.

The spec leaves it to the host; like a browser host we ask before a link leaves the app
(every time: the URL is the point) and before the app calls a server tool (once per tool;
"always" is remembered for the life of the view, never saved). One question at a time: a
request that needs consent while a dialog is open is refused, so a hostile app cannot stack
dialogs."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Literal, TypeAlias

__all__ = ["ConsentPolicy", "ConsentQuestion", "Decision"]

ConsentKind: TypeAlias = Literal["tool", "link"]


class Decision(Enum):
    DENY = "deny"
    ONCE = "once"
    ALWAYS = "always"


@dataclass(frozen=True, slots=True)
class ConsentQuestion:
    kind: ConsentKind
    subject: str  # the tool name, the URL
    detail: str  # the arguments (JSON), or where the link goes
    app: str  # the app's name (appInfo) or its resource URI

    @property
    def title(self) -> str:
        return "Let the app call a tool?" if self.kind == "tool" else "Open a link from the app?"

    @property
    def text(self) -> str:
        if self.kind == "tool":
            return (
                f"The app {self.app} wants to call the server tool {self.subject!r} "
                f"with these arguments:\n{self.detail}"
            )
        return f"The app {self.app} wants to open this link in your browser:\n{self.subject}"


class ConsentPolicy:
    def __init__(self) -> None:
        self._always: set[tuple[str, str]] = set()
        self.pending = False  # a question is on screen

    def allowed(self, kind: ConsentKind, subject: str) -> bool:
        """Already allowed without asking (links are asked every time)."""
        return kind == "tool" and (kind, subject) in self._always

    def record(self, question: ConsentQuestion, decision: Decision) -> bool:
        if decision is Decision.ALWAYS and question.kind == "tool":
            self._always.add((question.kind, question.subject))
        return decision is not Decision.DENY

    def forget(self) -> None:
        self._always.clear()
