"""A Server Card beside what the server says once connected: one difference per thing the
card claims that the live connection contradicts (the draft's "Consistency with Runtime
Behavior": the card is advisory, the live values win).

Compared: the name (the card's reverse-DNS name, or its part after the slash, against
`serverInfo.name`, both folded to lower case with runs of other characters than letters,
digits, dots and underscores as one dash), `version`, `title`, the remote whose URL is the
one connected to (its transport `type`, its `supportedProtocolVersions` against the
negotiated version, or in the modern era server/discover's `supportedVersions`: a version
older than those may be a legacy one served by initialize, not contradicted), and, when a card
carries them (a field of earlier drafts; the current one leaves primitives out), the names
of its `tools` and `prompts` and the URIs of its `resources`. Pure data in, findings out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = ["CardDifference", "Observed", "compare_card"]

_SHOWN: Final = 5  # names quoted per difference
_FOLD = re.compile(r"[^a-z0-9._]+")


@dataclass(frozen=True)
class Observed:
    """What the live connection reported."""

    url: str  # the endpoint connected to
    transport: str  # "streamable-http" or "sse"
    server_info: dict[str, Any]
    protocol_version: str | None = None
    supported_versions: Sequence[str] | None = None  # modern: server/discover's list
    tools: Sequence[str] | None = None  # None: not listed (not declared)
    prompts: Sequence[str] | None = None
    resources: Sequence[str] | None = None  # URIs


@dataclass(frozen=True)
class CardDifference:
    field: str  # "name", "version", "title", "remote", "transport", "protocol versions", ...
    sentence: str

    def __str__(self) -> str:
        return f"{self.field}: {self.sentence}"


def _fold(value: str) -> str:
    return _FOLD.sub("-", value.lower()).strip("-")


def _q(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return repr(text if len(text) <= 80 else text[:79] + "…")


def _names(values: Sequence[str]) -> str:
    shown = ", ".join(_q(v) for v in list(values)[:_SHOWN])
    more = len(values) - _SHOWN
    return shown + (f" and {more} more" if more > 0 else "")


def _same_url(a: str, b: str) -> bool:
    return a.strip().rstrip("/").lower() == b.strip().rstrip("/").lower()


def compare_card(card: dict[str, Any], live: Observed) -> tuple[list[CardDifference], list[str]]:
    """(differences, notes): notes say what could not be compared and why."""
    diffs: list[CardDifference] = []
    notes: list[str] = []
    info = live.server_info
    name, live_name = card.get("name"), info.get("name")
    if isinstance(name, str) and isinstance(live_name, str):
        short = name.rsplit("/", 1)[-1]
        if _fold(live_name) not in (_fold(name), _fold(short)):
            diffs.append(
                CardDifference("name", f"the card says {_q(name)}, the server {_q(live_name)}")
            )
    for key in ("version", "title"):
        said, heard = card.get(key), info.get(key)
        if isinstance(said, str) and isinstance(heard, str) and said != heard:
            diffs.append(CardDifference(key, f"the card says {_q(said)}, the server {_q(heard)}"))
        elif key == "version" and isinstance(said, str) and heard is None:
            notes.append("the server reports no version")
    _compare_remote(card, live, diffs, notes)
    _compare_primitives(card, live, diffs, notes)
    return diffs, notes


def _compare_remote(
    card: dict[str, Any], live: Observed, diffs: list[CardDifference], notes: list[str]
) -> None:
    remotes = [r for r in card.get("remotes") or [] if isinstance(r, dict)]
    if not remotes:
        notes.append("the card names no remotes: transports not compared")
        return
    mine = [r for r in remotes if isinstance(r.get("url"), str) and _same_url(r["url"], live.url)]
    if not mine:
        templated = [r for r in remotes if "{" in str(r.get("url", ""))]
        if templated:
            notes.append("the card's remote URLs are templates: the transport is not compared")
            return
        listed = [str(r.get("url")) for r in remotes]
        diffs.append(
            CardDifference(
                "remote", f"the card names no remote at {live.url} (it names {_names(listed)})"
            )
        )
        return
    types = {str(r.get("type")) for r in mine}
    if live.transport not in types:
        diffs.append(
            CardDifference(
                "transport",
                f"the card says {_names(sorted(types))} at this URL, the server speaks "
                f"{_q(live.transport)}",
            )
        )
    remote = next((r for r in mine if r.get("type") == live.transport), mine[0])
    claimed = remote.get("supportedProtocolVersions")
    if not isinstance(claimed, list):
        notes.append("the card gives no supportedProtocolVersions for this remote")
        return
    claimed_set = {v for v in claimed if isinstance(v, str)}
    if live.supported_versions is not None:
        served = set(live.supported_versions)
        missing = sorted(served - claimed_set)
        # Versions older than the oldest listed may be served by a legacy initialize at the
        # same URL, which server/discover does not list: only newer ones are contradicted.
        oldest = min(served, default="")
        extra = sorted(v for v in claimed_set - served if v >= oldest)
        if extra:
            diffs.append(
                CardDifference(
                    "protocol versions",
                    f"the card claims {_names(extra)}, which the server does not support",
                )
            )
        if missing:
            diffs.append(
                CardDifference(
                    "protocol versions",
                    f"the server supports {_names(missing)}, which the card leaves out",
                )
            )
    elif live.protocol_version and live.protocol_version not in claimed_set:
        diffs.append(
            CardDifference(
                "protocol versions",
                f"the server negotiated {_q(live.protocol_version)}, which the card does not "
                f"list ({_names(sorted(claimed_set))})",
            )
        )


def _identities(listed: Any, key: str) -> list[str] | None:
    if not isinstance(listed, list):
        return None
    return [str(i[key]) for i in listed if isinstance(i, dict) and key in i]


def _compare_primitives(
    card: dict[str, Any], live: Observed, diffs: list[CardDifference], notes: list[str]
) -> None:
    kinds = (
        ("tools", "name", live.tools),
        ("prompts", "name", live.prompts),
        ("resources", "uri", live.resources),
    )
    compared = False
    for kind, key, heard in kinds:
        said = _identities(card.get(kind), key)
        if said is None:
            continue
        compared = True
        if heard is None:
            notes.append(f"the card lists {kind}; the server does not offer them")
            if said:
                diffs.append(
                    CardDifference(kind, f"the card lists {_names(said)}; the server has none")
                )
            continue
        only_card = [n for n in said if n not in set(heard)]
        only_live = [n for n in heard if n not in set(said)]
        if only_card:
            diffs.append(
                CardDifference(kind, f"the card lists {_names(only_card)}, the server does not")
            )
        if only_live:
            diffs.append(
                CardDifference(kind, f"the server lists {_names(only_live)}, the card does not")
            )
    if not compared:
        notes.append("the card lists no tools, prompts or resources (the draft leaves them out)")
