"""Authorization options of the command line: `cli --auth none|bearer|oauth ...` and
`logout --url URL`. Kept apart from cli.py so the CLI itself only wires them in."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

import httpx

from inspector.auth import (
    AuthEvent,
    AuthListener,
    AuthStore,
    BearerAuth,
    OAuth,
    OAuthSettings,
    cli_opener,
    find_bearer_token,
    headless_opener,
)
from inspector.auth.bearer import DEFAULT_BEARER_ENV
from inspector.auth.urls import canonical_resource, is_http_url

__all__ = [
    "AuthUsageError",
    "add_auth_arguments",
    "add_logout_parser",
    "build_auth",
    "run_logout",
]

# Steps shown without -v: what a person must see or act on.
_ALWAYS_SHOWN = frozenset({"token", "step-up", "migration", "logout", "error"})


class AuthUsageError(Exception):
    """A usage problem with the auth options (the CLI turns it into its usage error)."""


def add_auth_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "authorization (HTTP servers)",
        "Tokens and dynamic client registrations are kept in the system keyring (or in memory "
        "for this run when there is none), never in a file.",
    )
    group.add_argument(
        "--auth",
        choices=("none", "bearer", "oauth"),
        default="none",
        help="none (default); bearer: a fixed token from the env or the keyring; oauth: MCP "
        "OAuth 2.1 (discovery, registration, browser login, refresh)",
    )
    group.add_argument(
        "--bearer-env",
        metavar="NAME",
        help=f"--auth bearer: the env variable holding the token (default {DEFAULT_BEARER_ENV}, "
        "else the keyring entry for the URL)",
    )
    group.add_argument("--client-id", help="--auth oauth: a pre-registered client id")
    group.add_argument(
        "--client-secret-env",
        metavar="NAME",
        help="--auth oauth: the env variable holding the pre-registered client's secret",
    )
    group.add_argument(
        "--scope",
        help="--auth oauth: the scopes to ask for (default: the spec's "
        "selection: the server's challenge, else its scopes_supported)",
    )
    group.add_argument(
        "--registration",
        choices=("auto", "preregistered", "cimd", "dcr"),
        default="auto",
        help="--auth oauth: how to get a client id (auto: pre-registered, then CIMD, then "
        "Dynamic Client Registration)",
    )
    group.add_argument(
        "--cimd-url",
        metavar="URL",
        help="--auth oauth: this client's metadata "
        "document URL (HTTPS), used as the client id where supported",
    )
    group.add_argument(
        "--grant",
        choices=("authorization_code", "client_credentials"),
        default="authorization_code",
        help="--auth oauth: authorization_code (a browser login) or client_credentials "
        "(machine to machine; needs --client-id and --client-secret-env)",
    )
    group.add_argument(
        "--login",
        choices=("browser", "print", "headless"),
        default="browser",
        help="--auth oauth: browser (print the URL and open a browser), print (only print it), "
        "headless (follow it without a browser: for servers that approve at once)",
    )
    group.add_argument(
        "--login-timeout",
        type=float,
        default=300.0,
        metavar="SECONDS",
        help="--auth oauth: how long to wait for the browser to come back (default 300)",
    )


def add_logout_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    logout = sub.add_parser(
        "logout",
        help="forget the OAuth tokens and client registration stored for a server",
    )
    logout.add_argument("--url", required=True, help="the server URL")


def _printer(verbose: bool, stream: TextIO | None = None) -> AuthListener:
    def show(event: AuthEvent) -> None:
        if verbose or event.level in ("warning", "error") or event.step in _ALWAYS_SHOWN:
            out = stream or sys.stderr
            out.write(event.line() + "\n")
            out.flush()

    return show


def build_auth(ns: argparse.Namespace, *, verbose: bool = False) -> httpx.Auth | None:
    """The `httpx.Auth` the options ask for (None for --auth none). With --auth oauth and no
    stored token, the request timeout is extended to cover the browser login."""
    mode = getattr(ns, "auth", "none")
    url = getattr(ns, "url", None)
    if mode == "none":
        return None
    if not url:
        raise AuthUsageError(f"--auth {mode} applies to --url servers only")
    if mode == "bearer":
        token, where = find_bearer_token(url, env_name=ns.bearer_env)
        if token is None:
            raise AuthUsageError(
                f"--auth bearer: no token in the environment variable {ns.bearer_env}"
                if ns.bearer_env
                else f"--auth bearer: no token: set {DEFAULT_BEARER_ENV} (or --bearer-env NAME), "
                "or store one in the keyring for this URL"
            )
        if verbose:
            sys.stderr.write(f"auth: using the bearer token from {where}\n")
        return BearerAuth(token)
    secret = None
    if ns.client_secret_env:
        secret = os.environ.get(ns.client_secret_env)
        if not secret:
            raise AuthUsageError(f"--client-secret-env: {ns.client_secret_env} is not set")
    if ns.cimd_url and not (is_http_url(ns.cimd_url) and ns.cimd_url.startswith("https://")):
        raise AuthUsageError("--cimd-url must be an https:// URL")
    if ns.grant == "client_credentials" and not ns.client_id:
        raise AuthUsageError("--grant client_credentials needs --client-id")
    settings = OAuthSettings(
        grant=ns.grant,
        registration=ns.registration,
        client_id=ns.client_id,
        client_secret=secret,
        scope=ns.scope,
        cimd_url=ns.cimd_url,
        login_timeout=ns.login_timeout,
    )
    opener = (
        headless_opener()
        if ns.login == "headless"
        else cli_opener(open_browser=ns.login == "browser")
    )
    oauth = OAuth(url, settings, opener=opener, listener=_printer(verbose))
    if ns.grant == "authorization_code" and ns.login != "headless" and not oauth.logged_in:
        # The first request waits for the person in the browser: let it.
        ns.timeout = max(ns.timeout, ns.login_timeout + 30.0)
    return oauth


def run_logout(ns: argparse.Namespace) -> int:
    if not is_http_url(ns.url):
        sys.stderr.write(f"logout: not an http(s) URL: {ns.url!r}\n")
        return 2
    store = AuthStore()
    forgotten = store.forget_server(canonical_resource(ns.url))
    if forgotten:
        sys.stderr.write("logged out: forgot " + "; ".join(forgotten) + "\n")
    else:
        sys.stderr.write(f"nothing was stored for {canonical_resource(ns.url)}\n")
    if store.session_only:
        sys.stderr.write(store.status_message + "\n")
    return 0
