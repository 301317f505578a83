"""The values the check fills in for a prompt's required arguments and a resource
template's variables: values known to be valid where any can be known.

Prompt arguments and template variables carry no schema (the spec gives an argument a
name, a description and `required`; a template variable only its name), so what is known
comes from the server itself: `completion/complete`, when it declares completions. A value
it offers is valid by its own word. Some completers only confirm what was typed (a
positive integer id, say), so the check asks with nothing typed, then with a digit, then a
letter. When no value is offered, none is known: the caller may still try a made-up one
(`filled`), but a server refusing it proves nothing about its prompt or template, so the
caller then leaves the item out and says why."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from inspector.session import RequestError

if TYPE_CHECKING:
    from inspector.check.probe import CheckContext

__all__ = ["MADE_UP", "Known", "known_values"]

# What a person types first: nothing, a digit, a letter.
_TYPED: Final = ("", "1", "a")
MADE_UP: Final = "example"  # tried only where no valid value can be known


@dataclass
class Known:
    """The values found for the names asked, and why the others have none."""

    values: dict[str, str] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)
    why: str = ""

    @property
    def complete(self) -> bool:
        return not self.unknown

    def filled(self) -> dict[str, str]:
        """The known values, and a made-up one for each name without."""
        return {**self.values, **dict.fromkeys(self.unknown, MADE_UP)}

    def source(self) -> str:
        """How the values were found (all known), for the evidence of a broken item."""
        if not self.values:
            return "with no arguments"
        shown = ", ".join(f"{k}={v!r}" for k, v in self.values.items())
        return f"with {shown} (values the server's own completion offered)"

    def refused(self, error: object, item: str) -> str:
        """Why a refusal of the made-up values judges nothing (`item`: "prompt", ...)."""
        shown = ", ".join(f"{k}={MADE_UP!r}" for k in self.unknown)
        return (
            f"not judged: it refused a made-up {shown} ({error}); no valid value can be "
            f"known ({self.why}), and refusing a made-up value shows no broken {item}"
        )


def _first_offered(answer: object) -> str | None:
    """The first value a completion/complete answer offers; None for none, or for an
    answer not shaped as the spec says (`completion.values`: an array of strings)."""
    completion = answer.get("completion") if isinstance(answer, dict) else None
    values = completion.get("values") if isinstance(completion, dict) else None
    if not isinstance(values, list):
        return None
    return next((v for v in values if isinstance(v, str) and v), None)


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
            offered = _first_offered(done)
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
