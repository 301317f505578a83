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
        folded = self._folded
        if chain and chain[-1][0] == q:
            hits = chain[-1][1]
        else:
            pool = chain[-1][1] if chain else range(len(folded))
            if len(letters) == 1:
                hits = [i for i in pool if letters in folded[i]]
            else:
                search = re.compile(".*?".join(map(re.escape, letters)), re.DOTALL).search
                hits = [i for i in pool if search(folded[i])]
            chain.append((q, hits))
        return self._best(q, letters, hits, limit), len(hits)

    def _best(self, q: str, letters: str, hits: list[int], limit: int) -> list[int]:
        """The best `limit` of `hits`, tier by tier (a tier is only ranked while the ones
        above it leave room): the title starts with the query, its initials do, the query
        is in it (at a word start first, then the earlier), else the letters are spread
        (the tighter, the earlier). Within a tier the shorter title first, then the
        entries' order. Each tier is ranked by key tuples built in one pass (no call per
        title), so 10,000 hits cost milliseconds."""
        folded, initials = self._folded, self._initials
        out: list[int] = []
        rest = hits
        prefix = [i for i in rest if folded[i].startswith(q)]
        out += heapq.nsmallest(limit, prefix, key=lambda i: len(folded[i]))
        if len(out) >= limit:
            return out[:limit]
        taken = set(prefix)
        rest = [i for i in rest if i not in taken]
        acronym = [i for i in rest if initials[i].startswith(letters)]
        out += heapq.nsmallest(limit - len(out), acronym, key=lambda i: len(folded[i]))
        if len(out) >= limit:
            return out[:limit]
        taken = set(acronym)
        rest = [i for i in rest if i not in taken]
        inside = [(folded[i].find(q), i) for i in rest]
        ranked = [
            (0 if folded[i][pos - 1] in _BOUNDARY else 1, pos, len(folded[i]), i)
            for pos, i in inside
            if pos > 0
        ]
        out += [k[-1] for k in heapq.nsmallest(limit - len(out), ranked)]
        if len(out) >= limit:
            return out[:limit]
        spread = [i for pos, i in inside if pos < 0]
        search = re.compile(".*?".join(map(re.escape, letters)), re.DOTALL).search
        keys = []
        for i in spread:
            m = search(folded[i])
            if m is not None:
                keys.append((m.end() - m.start(), m.start(), len(folded[i]), i))
        out += [k[-1] for k in heapq.nsmallest(limit - len(out), keys)]
        return out[:limit]
