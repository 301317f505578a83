"""The raw column of a traffic log kept somewhere other than a list (a live log keeps a
list of texts): the interface a file-backed column (recording/index) implements."""

from __future__ import annotations

from typing import Protocol

__all__ = ["RawColumn"]


class RawColumn(Protocol):
    """Where a log keeps its rows' raw texts, when not in a list (a live log's): e.g. the
    spans of an opened session file (recording/index). Read, appended to, emptied as the
    list is (`len`, `[i]`, `[a:b]`, `append`, `del [:]`), and it finds a needle itself."""

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> str | bytes: ...
    def append(self, raw: str | bytes) -> None: ...
    def find_rows(self, needle: str, start: int, stop: int) -> list[int]: ...
