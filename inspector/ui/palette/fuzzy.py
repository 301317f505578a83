"""Fuzzy matching for the palette (no Qt): the letters of the query, in order, anywhere in
the title ("cpjs" finds "Copy as JSON"), best first.

`FuzzyIndex` folds every title once. A query that extends an earlier one (typing)
searches only that query's matches, and the matches of each prefix typed are kept, so
Backspace finds them again: no keystroke starts again from every title. The filter is
one compiled regex per query (run in C); only the matches are scored, and only the best
`limit` are sorted.

Scores, highest first: the title starts with the query; the initials of its words start
with it ("gw" → "get_weather"); the query is a substring (at a word start first); else
the letters are spread out (the tighter and earlier, the better). Ties keep the entries'
order (the window lists its actions first).
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence
from typing import Final

__all__ = ["FuzzyIndex"]

_WORD_SPLIT: Final = re.compile(r"[\s_\-./:▸,()\[\]{}]+|(?<=[a-z])(?=[A-Z])")
_BOUNDARY: Final = frozenset(" _-./:▸,()[]{}")


def _initials(title: str) -> str:
    return "".join(word[0] for word in _WORD_SPLIT.split(title) if word).casefold()


class FuzzyIndex:
    def __init__(self, titles: Sequence[str]) -> None:
        self._folded = [t.casefold() for t in titles]
        self._initials = [_initials(t) for t in titles]
        # The queries typed since the box was empty, each one's matches: each extends the
        # one before it (Backspace drops the last).
        self._chain: list[tuple[str, list[int]]] = []

    def __len__(self) -> int:
        return len(self._folded)

    def search(self, query: str, limit: int = 50) -> tuple[list[int], int]:
        """The indices of the best `limit` titles for `query`, best first, and how many
        titles match in all. An empty query: the first `limit`, in order."""
        q = " ".join(query.casefold().split())
        chain = self._chain
        while chain and not q.startswith(chain[-1][0]):
            chain.pop()
        if not q:
            return list(range(min(limit, len(self._folded)))), len(self._folded)
        letters = q.replace(" ", "")
        pattern = re.compile(".*?".join(map(re.escape, letters)), re.DOTALL)
        folded, initials = self._folded, self._initials
        search = pattern.search
        if chain and chain[-1][0] == q:
            hits = chain[-1][1]
        else:
            pool = chain[-1][1] if chain else range(len(folded))
            hits = [i for i in pool if search(folded[i])]
            chain.append((q, hits))

        def score(i: int) -> float:
            text = folded[i]
            if text.startswith(q):
                return 4000.0 - len(text)
            if initials[i].startswith(letters):
                return 3000.0 - len(text)
            pos = text.find(q)
            if pos >= 0:
                bonus = 500.0 if text[pos - 1] in _BOUNDARY else 0.0
                return 2000.0 + bonus - pos - len(text) * 0.1
            m = search(text)
            assert m is not None
            spread = (m.end() - m.start()) - len(letters)
            return 1000.0 - spread * 10 - m.start() - len(text) * 0.1

        if len(hits) <= limit:
            best = sorted(hits, key=score, reverse=True)
        else:
            best = heapq.nlargest(limit, hits, key=score)
        return best, len(hits)
