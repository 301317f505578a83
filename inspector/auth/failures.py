"""Authorization failures, each with a sentence a person understands.

`AuthError` subclasses `httpx.HTTPError` on purpose: it is raised from inside an
`httpx.Auth` flow, and the HTTP transports report any `httpx.HTTPError` as the failure of
the request that carried it (instead of a task dying silently).
"""

from __future__ import annotations

import httpx

__all__ = [
    "AuthCancelled",
    "AuthError",
    "DiscoveryError",
    "RedirectError",
    "RegistrationError",
    "TokenError",
]


class AuthError(httpx.HTTPError):
    """Authorization failed; `str(exc)` is the plain-language reason."""

    def __init__(self, message: str, *, step: str = "auth") -> None:
        super().__init__(message)
        self.step = step


class DiscoveryError(AuthError):
    """Protected resource or authorization server metadata could not be found or used."""

    def __init__(self, message: str) -> None:
        super().__init__(message, step="discovery")


class RegistrationError(AuthError):
    def __init__(self, message: str) -> None:
        super().__init__(message, step="registration")


class RedirectError(AuthError):
    """The authorization response (the redirect) was refused: state, iss, or an error."""

    def __init__(self, message: str) -> None:
        super().__init__(message, step="redirect")


class TokenError(AuthError):
    """The token endpoint refused, or answered something unusable."""

    def __init__(self, message: str, *, oauth_error: str | None = None) -> None:
        super().__init__(message, step="token")
        self.oauth_error = oauth_error


class AuthCancelled(AuthError):
    """The user (or the app closing) cancelled the login."""

    def __init__(self, message: str = "the login was cancelled") -> None:
        super().__init__(message, step="cancelled")
