"""The GUI's way to the authorization URL: the system browser, through QDesktopServices.

Only http(s) URLs are opened (an authorization URL is server-controlled input; compare
CVE-2025-58444). The OAuth flow checks this before calling the opener, and this checks
again, on the URL exactly as Qt parsed it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from inspector.auth import AuthError, AuthorizationPrompt, Opener
from inspector.auth.flow.browser import check_openable
from inspector.auth.flow.events import Level

__all__ = ["desktop_opener", "open_in_browser"]

Note = Callable[[str, str, Level, str | None], None]  # ProfileAuth.note


def open_in_browser(url: str) -> bool:
    """Open an http(s) URL in the system browser; False when it cannot be."""
    check_openable(url)
    qurl = QUrl(url, QUrl.ParsingMode.StrictMode)
    if not qurl.isValid() or qurl.scheme().lower() not in ("http", "https"):
        raise AuthError(
            "refusing to open the authorization URL: it is not a valid http(s) URL",
            step="authorize",
        )
    return bool(QDesktopServices.openUrl(qurl))


def desktop_opener(note: Note) -> Opener:
    async def opener(prompt: AuthorizationPrompt) -> None:
        if open_in_browser(prompt.url):
            note(
                "authorize",
                "opened the authorization URL in the browser; waiting for it to come back to "
                f"{prompt.redirect_uri}",
                "info",
                None,
            )
        else:
            note(
                "authorize",
                "no browser could be opened here: copy the authorization URL (Auth panel) "
                "and open it in a browser on this machine",
                "warning",
                None,
            )

    return opener
