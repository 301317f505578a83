"""The values the check fills in for a prompt's required arguments and a resource
template's variables: only values known to be valid, never made up.

Prompt arguments and template variables carry no schema (the spec gives an argument a
name, a description and `required`; a template variable only its name), so what is known
comes from the server itself: `completion/complete`, when it declares completions. A value
it offers is valid by its own word. Some completers only confirm what was typed (a
positive integer id, say), so the check asks with nothing typed, then with a digit, then a
letter. When no value is offered, none is known: the caller leaves the item out and says
why (a server refusing a made-up value proves nothing about its prompt)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from inspector.session import RequestError

if TYPE_CHECKING:
    from inspector.check.probe import CheckContext

__all__ = ["Known", "known_values"]

# What a person types first: nothing, a digit, a letter.
_TYPED: Final = ("", "1", "a")


@dataclass
class Known:
    """The values found for the names asked, and why the others have none."""

    values: dict[str, str] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    why: str = ""

    @property
    def complete(self) -> bool:
        return not self.unknown

    def source(self) -> str:
        """How the values were found, for the evidence."""
        if not self.values:
            return "with no arguments"
        shown = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"with {shown} (values the server's own completion offered)"


async def known_values(
    ctx: CheckContext, ref: dict[str, Any], names: list[str], what: str
) -> Known:
    """Valid values for `names` of `ref` (a ref/prompt or ref/resource); `what` names them
    in the reasons ("prompt arguments", "template variables")."""
    known = Known()
    if not names:
        return known
    if "completions" not in ctx.capabilities:
        known.unknown = list(names)
        known.why = (
            f"the server declares no completions and {what} carry no schema: "
            "no valid value can be known"
        )
        return known
    session = await ctx.live()
    for name in names:
        offered: str | None = None
        for typed in _TYPED:
            try:
                done = await session.complete(ref, name, typed, dict(known.values) or None)
            except RequestError as exc:
                known.why = f"completion/complete failed: {exc}"
                break
            values = (done.get("completion") or {}).get("values") or []
            offered = next((v for v in values if isinstance(v, str) and v), None)
            if offered is not None:
                break
        if offered is None:
            known.unknown.append(name)
            if not known.why:
                typed_list = ", ".join(repr(t) for t in _TYPED)
                known.why = f"its completion offered none (asked with {typed_list} typed)"
        else:
            known.values[name] = offered
    return known
