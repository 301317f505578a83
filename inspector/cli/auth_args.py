"""Authorization options of the command line: `cli --auth none|bearer|oauth ...`. The
options become the auth section of the run's ad-hoc profile (`auth_from_args`), which
`settings.connect.transport_for` turns into the requests' auth as it does for a saved
profile; the CLI only brings its terminal OAuth (`terminal_oauth`), as the GUI brings its
windowed one."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from inspector.auth import (
    AuthEvent,
    AuthListener,
    OAuth,
    cli_opener,
    find_bearer_token,
    headless_opener,
)
from inspector.auth.bearer import DEFAULT_BEARER_ENV
from inspector.auth.urls import is_http_url
from inspector.cli.errors import UsageError
from inspector.common.terminal_text import terminal_text
from inspector.settings.auth_options import BearerOptions, HttpAuth, OAuthOptions, SecretValue
from inspector.settings.profile_auth import oauth_settings_for
from inspector.settings.profiles import Profile

__all__ = ["auth_from_args", "browser_login_wait", "terminal_oauth"]

# Steps shown without -v: what a person must see or act on.
_ALWAYS_SHOWN = frozenset({"token", "step-up", "migration", "logout", "error"})


def _printer(verbose: bool, stream: TextIO | None = None) -> AuthListener:
    def show(event: AuthEvent) -> None:
        if verbose or event.level in ("warning", "error") or event.step in _ALWAYS_SHOWN:
            out = stream or sys.stderr
            out.write(terminal_text(event.line()) + "\n")
            out.flush()

    return show


def auth_from_args(ns: argparse.Namespace, *, verbose: bool = False) -> HttpAuth:
    """The auth section of the run's profile, from `--auth ...` (an --url server's).

    A bearer token is looked up the CLI's way (the named env variable, else
    MCP_BEARER_TOKEN, else the keyring entry for the URL) and carried as a typed value:
    the profile is never saved. An OAuth client secret is read from `--client-secret-env`
    the same way."""
    mode = ns.auth
    if mode == "none":
        return HttpAuth()
    if mode == "bearer":
        token, where = find_bearer_token(ns.url, env_name=ns.bearer_env)
        if token is None:
            raise UsageError(
                f"--auth bearer: no token in the environment variable {ns.bearer_env}"
                if ns.bearer_env
                else f"--auth bearer: no token: set {DEFAULT_BEARER_ENV} (or --bearer-env NAME), "
                "or store one in the keyring for this URL"
            )
        if verbose:
            sys.stderr.write(f"auth: using the bearer token from {where}\n")
        return HttpAuth(kind="bearer", bearer=BearerOptions(token=SecretValue(value=token)))
    secret = ""
    if ns.client_secret_env:
        secret = os.environ.get(ns.client_secret_env, "")
        if not secret:
            raise UsageError(f"--client-secret-env: {ns.client_secret_env} is not set")
    if ns.cimd_url and not (is_http_url(ns.cimd_url) and ns.cimd_url.startswith("https://")):
        raise UsageError("--cimd-url must be an https:// URL")
    if ns.grant == "client_credentials" and not ns.client_id:
        raise UsageError("--grant client_credentials needs --client-id")
    return HttpAuth(
        kind="oauth",
        oauth=OAuthOptions(
            grant=ns.grant,
            registration=ns.registration,
            client_id=ns.client_id or "",
            client_secret=SecretValue(value=secret),
            scope=ns.scope or "",
            cimd_url=ns.cimd_url or "",
            login_timeout=ns.login_timeout,
        ),
    )


def terminal_oauth(profile: Profile, *, login: str, verbose: bool = False) -> OAuth:
    """The profile's OAuth for a terminal: the login URL is printed (and opened in a
    browser with `--login browser`, followed without one with `--login headless`), the
    flow's steps are shown on stderr (the routine ones with -v only). What the GUI's
    `ProfileAuth.oauth_for` is for a window."""
    opener = (
        headless_opener() if login == "headless" else cli_opener(open_browser=login == "browser")
    )
    return OAuth(
        profile.http.url,
        oauth_settings_for(profile, None),
        opener=opener,
        listener=_printer(verbose),
    )


def browser_login_wait(profile: Profile, oauth: OAuth, *, login: str) -> float:
    """Seconds the first request must be allowed, when it waits for a person to log in
    in a browser (no token stored yet); 0 when it does not wait for anyone."""
    options = profile.http.auth.oauth
    if options.grant == "authorization_code" and login != "headless" and not oauth.logged_in:
        return options.login_timeout + 30.0
    return 0.0
