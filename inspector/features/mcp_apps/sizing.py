"""How much room an app gets: the host's answer to `ui/notifications/size-changed`.

The App tab shows an app inline, in a scrolling area: the app's width is the area's (an app
cannot widen the tab), its height is what it asks for, clamped to `MIN_HEIGHT` .. `MAX_SCREENS`
times the visible height. The host context says the same thing to the app:
`containerDimensions` is `{width: <the area's>, maxHeight: <the cap>}` (ext-apps 2026-01-26:
a fixed width, a flexible height up to maxHeight), so an app that stays within what it was
told is shown exactly at its size, and one that asks for more is cut at the cap (and told so
in the tab). The cap follows the visible area: `host-context-changed` carries a new one
when the tab is resized.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["MAX_SCREENS", "MIN_HEIGHT", "Fit", "fit_height", "max_height"]

MIN_HEIGHT: Final = 120  # px: a toolbar-sized app still shows
MAX_SCREENS: Final = 4  # the tallest app: this many visible areas (the tab scrolls)


def max_height(visible: int) -> int:
    """The tallest an app may be in an area `visible` px high (what maxHeight says)."""
    return max(MIN_HEIGHT, MAX_SCREENS * max(0, visible))


@dataclass(frozen=True, slots=True)
class Fit:
    """The height given for a request, and why it differs from the request (if it does)."""

    height: int
    clamped: str | None = None  # "min" | "max" | None

    def describe(self, asked: int, visible: int) -> str:
        if self.clamped == "min":
            return f"{self.height} px (the least an app gets; it asked for {asked})"
        if self.clamped == "max":
            return (
                f"{self.height} px (cut: at most {MAX_SCREENS} × the visible {visible} px; "
                f"it asked for {asked})"
            )
        return f"{self.height} px"


def fit_height(asked: int, visible: int) -> Fit:
    """The app's height for a request of `asked` px in an area `visible` px high."""
    top = max_height(visible)
    if asked < MIN_HEIGHT:
        return Fit(MIN_HEIGHT, "min")
    if asked > top:
        return Fit(top, "max")
    return Fit(asked)
