"""Authorization for HTTP servers: MCP OAuth 2.1 (`OAuth`, an `httpx.Auth`), fixed bearer
tokens, and where tokens are kept (the keyring, never a file). Qt-free."""

from inspector.auth.bearer import BearerAuth, find_bearer_token, store_bearer_token
from inspector.auth.failures import (
    AuthCancelled,
    AuthError,
    DiscoveryError,
    RedirectError,
    RegistrationError,
    TokenError,
)
from inspector.auth.flow.browser import AuthorizationPrompt, Opener, cli_opener, headless_opener
from inspector.auth.flow.data import (
    AssertionContext,
    AssertionProvider,
    OAuthSettings,
    TokenSet,
)
from inspector.auth.flow.events import AuthEvent, AuthListener, AuthStep, StepHook
from inspector.auth.flow.stepper import AuthTimeline, StepGate
from inspector.auth.oauth import OAuth
from inspector.auth.store import AuthStore

__all__ = [
    "AssertionContext",
    "AssertionProvider",
    "AuthCancelled",
    "AuthError",
    "AuthEvent",
    "AuthListener",
    "AuthStep",
    "AuthStore",
    "AuthTimeline",
    "AuthorizationPrompt",
    "BearerAuth",
    "DiscoveryError",
    "OAuth",
    "OAuthSettings",
    "Opener",
    "RedirectError",
    "RegistrationError",
    "StepGate",
    "StepHook",
    "TokenError",
    "TokenSet",
    "cli_opener",
    "find_bearer_token",
    "headless_opener",
    "store_bearer_token",
]
