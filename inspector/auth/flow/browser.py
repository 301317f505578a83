"""Getting the user (or a headless stand-in) to the authorization URL.

Only http(s) URLs are ever opened (compare CVE-2025-58444: an authorization URL is
server-controlled input). The OAuth flow checks this before calling any opener, and the
openers here check again.

* `cli_opener`: prints the URL to stderr and opens a browser when there is one;
* `headless_opener`: follows the authorization URL with httpx (no browser, no cookies,
  no JavaScript) and hands the final redirect to the loopback listener. It works with
  authorization servers that redirect at once (the conformance suite's mock, test
  servers, pre-approved consent) and fails plainly when a person is needed;
* the GUI passes its own opener (QDesktopServices.openUrl).
"""

from __future__ import annotations

import logging
import sys
import webbrowser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, TextIO
from urllib.parse import urljoin, urlsplit

import httpx

from inspector.auth.failures import AuthError, RedirectError
from inspector.auth.flow.redirect import send_loopback_get
from inspector.auth.urls import is_http_url
from inspector.common.terminal_text import terminal_text

__all__ = [
    "AuthorizationPrompt",
    "Opener",
    "check_openable",
    "cli_opener",
    "headless_opener",
]

log = logging.getLogger(__name__)

_MAX_HOPS: Final = 10


@dataclass(frozen=True, slots=True)
class AuthorizationPrompt:
    """What an opener gets: the URL to visit and where the browser will come back."""

    url: str
    redirect_uri: str


Opener = Callable[[AuthorizationPrompt], Awaitable[None]]


def check_openable(url: str) -> None:
    if not is_http_url(url):
        scheme = urlsplit(url).scheme or "(none)"
        raise AuthError(
            f"refusing to open the authorization URL: its scheme is {scheme!r}, and only "
            "http and https URLs are opened",
            step="authorize",
        )


def cli_opener(*, stream: TextIO | None = None, open_browser: bool = True) -> Opener:
    async def opener(prompt: AuthorizationPrompt) -> None:
        check_openable(prompt.url)
        out = stream or sys.stderr
        # The URL is the server's authorization endpoint: shown safe on a terminal.
        out.write(
            terminal_text(
                "To authorize, open this URL in a browser (the app is waiting for the "
                f"redirect to {prompt.redirect_uri}):\n\n  {prompt.url}\n\n"
            )
        )
        out.flush()
        if open_browser:
            try:
                opened = webbrowser.open(prompt.url, new=2)
            except webbrowser.Error:
                opened = False
            if not opened:
                out.write("(no browser could be opened here; open the URL yourself)\n")
                out.flush()

    return opener


def headless_opener(
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    timeout: float = 15.0,
) -> Opener:
    """Follow the authorization URL like a browser that approves at once."""

    async def opener(prompt: AuthorizationPrompt) -> None:
        check_openable(prompt.url)
        target = urlsplit(prompt.redirect_uri)
        url = prompt.url
        async with httpx.AsyncClient(
            transport=transport, follow_redirects=False, timeout=timeout
        ) as client:
            for _ in range(_MAX_HOPS):
                response = await client.get(url)
                location = response.headers.get("location")
                if response.is_redirect and location:
                    url = urljoin(url, location)
                    here = urlsplit(url)
                    if (here.scheme, here.netloc, here.path) == (
                        target.scheme,
                        target.netloc,
                        target.path,
                    ):
                        status = await send_loopback_get(url)
                        log.info("headless: delivered the redirect (listener answered %s)", status)
                        return
                    check_openable(url)
                    continue
                raise RedirectError(
                    f"the authorization server answered HTTP {response.status_code} instead of "
                    "redirecting back: it wants a person to log in or consent, which the "
                    "headless mode cannot do (use a browser)"
                )
        raise RedirectError(f"the authorization server redirected more than {_MAX_HOPS} times")

    return opener
