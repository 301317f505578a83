"""Authorization of a connection profile at connect time. Qt-free.

* `auth_for(profile, secrets, oauth=...)`: the `httpx.Auth` a profile asks for, called by
  `connect.transport_for`: a `BearerAuth` with the token from the secret store or the
  environment, an `OAuth` (the one given, or one built with the keyring store), or None.
* `ProfileAuth`: the app's authorization state for the GUI: one `AuthStore` (the keyring;
  this process's memory without one), one `AuthTimeline` (what the Auth panel shows), one
  `StepGate` ("step through"), and one `OAuth` per profile, kept across reconnects.
  `prepare()` logs in before connecting when no token is stored, so a browser login does
  not race the request timeout (docs/notes/auth.md). Before that login it asks the server
  once without a token: its 401 names the resource metadata (a server may publish it only
  there) and the scope it wants.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

import httpx

from inspector.auth import (
    AuthCancelled,
    AuthError,
    AuthEvent,
    AuthorizationPrompt,
    AuthStep,
    AuthStore,
    AuthTimeline,
    BearerAuth,
    OAuth,
    OAuthSettings,
    Opener,
    StepGate,
    TokenSet,
)
from inspector.auth.flow.challenge import challenge_info
from inspector.auth.flow.events import Level
from inspector.common.listeners import Listeners, Unsubscribe
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore

__all__ = [
    "ProfileAuth",
    "ProfileAuthError",
    "auth_for",
    "bearer_token_for",
    "describe_login",
    "oauth_settings_for",
    "uses_oauth",
]

log = logging.getLogger(__name__)

_PROBE_TIMEOUT: Final = 10.0


class ProfileAuthError(Exception):
    """The profile's auth cannot be set up; the message says why and what to do."""


def uses_oauth(profile: Profile | None) -> bool:
    return profile is not None and profile.transport == "http" and profile.http.auth.kind == "oauth"


def _stored(profile: Profile, secrets: SecretStore | None, slot: str, what: str) -> str:
    value = secrets.get(profile.id, "auth", slot) if secrets is not None else None
    if not value:
        raise ProfileAuthError(
            f"The {what} of “{profile.name}” has no value: there is none in the keyring "
            "(without a keyring it is kept for one session only). Edit the profile and "
            "enter it."
        )
    return value


def bearer_token_for(
    profile: Profile, secrets: SecretStore | None, environ: Mapping[str, str] | None = None
) -> str:
    bearer = profile.http.auth.bearer
    if bearer.source == "env":
        name = bearer.env_name.strip()
        value = (os.environ if environ is None else environ).get(name) if name else None
        if not value:
            raise ProfileAuthError(
                f"The bearer token comes from the environment variable {name or '(none)'}, "
                "which is not set for this app: set it before starting the app, or store "
                "the token in the profile."
            )
        return value
    if bearer.token.value:
        return bearer.token.value  # typed in an unsaved profile
    return _stored(profile, secrets, "bearer_token", "bearer token")


def oauth_settings_for(profile: Profile, secrets: SecretStore | None) -> OAuthSettings:
    o = profile.http.auth.oauth
    secret: str | None = None
    if o.client_secret.present:
        secret = o.client_secret.value or _stored(
            profile, secrets, "client_secret", "OAuth client secret"
        )
    key: str | None = None
    if o.token_auth_method == "private_key_jwt":
        path = Path(o.private_key_file.strip()).expanduser()
        try:
            key = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise ProfileAuthError(f"Cannot read the private key file {path}: {reason}.") from None
    return OAuthSettings(
        grant=o.grant,
        registration=o.registration,
        client_id=o.client_id.strip() or None,
        client_secret=secret,
        token_endpoint_auth_method=None if o.token_auth_method == "auto" else o.token_auth_method,
        private_key_pem=key,
        preregistered_issuer=o.authorization_server.strip() or None,
        cimd_url=o.cimd_url.strip() or None,
        scope=" ".join(o.scope.split()) or None,
        request_offline_access=o.offline_access,
        redirect_port=o.redirect_port,
        login_timeout=o.login_timeout,
        dpop=o.dpop,
        allow_insecure_http=o.allow_insecure_http,
    )


def auth_for(
    profile: Profile,
    secrets: SecretStore | None,
    *,
    oauth: OAuth | None = None,
    environ: Mapping[str, str] | None = None,
) -> httpx.Auth | None:
    """What authorizes the profile's requests. "headers" needs nothing here: the headers
    table (with its secret values from the keyring) is sent as it is."""
    if profile.transport != "http":
        return None
    kind = profile.http.auth.kind
    if kind == "bearer":
        return BearerAuth(bearer_token_for(profile, secrets, environ))
    if kind == "oauth":
        if oauth is not None:
            return oauth
        return OAuth(profile.http.url, oauth_settings_for(profile, secrets))
    return None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{int(seconds)} s"
    minutes = int(seconds // 60)
    if minutes < 90:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60} min"


def describe_login(oauth: OAuth) -> str:
    """The login state in a few words: where, what kind of token, until when, which scope."""
    if not oauth.logged_in or oauth.tokens is None:
        return "not logged in (connecting logs in first)"
    tokens = oauth.tokens
    left = tokens.expires_in()
    if left is None:
        expiry = "no stated expiry"
    elif left <= 0:
        expiry = "expired" + (
            " (it is refreshed on the next request)" if tokens.refresh_token else ""
        )
    else:
        expiry = f"expires in {_duration(left)}"
    parts = [f"logged in at {tokens.issuer}", tokens.token_type, expiry]
    if tokens.refresh_token:
        parts.append("refresh token")
    if tokens.scope:
        parts.append(f"scope {tokens.scope}")
    return " · ".join(parts)


class ProfileAuth:
    """Authorization for the GUI's connections (see the module docstring).

    Listeners (`on_changed`) are called with no arguments when a login starts or ends,
    the authorization URL is ready, or the step-through gate starts or stops waiting.
    """

    def __init__(
        self,
        secrets: SecretStore | None,
        *,
        store: AuthStore | None = None,
        opener: Opener | None = None,
        http_transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.secrets = secrets
        self.store = store or AuthStore()
        self.timeline = AuthTimeline()
        self.gate = StepGate(on_waiting=lambda _step: self._changed())
        # Called with the authorization URL; the GUI opens a browser (tests follow it).
        self.opener: Opener | None = opener
        self.http_transport = http_transport  # tests inject an httpx.MockTransport
        self.prompt: AuthorizationPrompt | None = None  # the login waiting for a browser
        self.login_profile: Profile | None = None  # whose login is in progress
        self._oauth: dict[str, tuple[tuple[str, str], OAuth]] = {}
        self._login_task: asyncio.Task[TokenSet | None] | None = None
        self._login_oauth: OAuth | None = None
        self._cancelled = False
        self._listeners: Listeners[[]] = Listeners("auth state listener")

    # ---------------------------------------------------------------- state
    def on_changed(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._listeners.add(listener)

    def _changed(self) -> None:
        self._listeners.emit()

    @property
    def logging_in(self) -> bool:
        return self._login_task is not None and not self._login_task.done()

    def note(self, step: str, message: str, level: Level = "info", url: str | None = None) -> None:
        """An event of ours (not of the flow) in the timeline."""
        self.timeline(AuthEvent(step=step, message=message, level=level, url=url))

    @property
    def keyring_note(self) -> str:
        """Empty when tokens go to the keyring; else the plain sentence saying they do not."""
        return self.store.status_message if self.store.session_only else ""

    # ---------------------------------------------------------------- OAuth objects
    def oauth_for(self, profile: Profile) -> OAuth:
        """The profile's OAuth, the same object while its settings stay the same (tokens,
        metadata and the step of a login in progress live there)."""
        settings = oauth_settings_for(profile, self.secrets)
        key = (profile.http.url, repr(settings))
        cached = self._oauth.get(profile.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        oauth = OAuth(
            profile.http.url,
            settings,
            store=self.store,
            opener=self._open,
            listener=self.timeline,
            step_hook=self.gate,
            http_transport=self.http_transport,
        )
        self._oauth[profile.id] = (key, oauth)
        return oauth

    def cached(self, profile: Profile) -> OAuth | None:
        entry = self._oauth.get(profile.id)
        return entry[1] if entry is not None and entry[1].server_url == profile.http.url else None

    async def _open(self, prompt: AuthorizationPrompt) -> None:
        self.prompt = prompt
        self._changed()
        opener = self.opener
        if opener is None:
            self.note(
                "authorize",
                "no browser opener is set: open the authorization URL yourself",
                "warning",
                prompt.url,
            )
            return
        await opener(prompt)

    # ---------------------------------------------------------------- connect
    async def prepare(self, profile: Profile) -> OAuth | None:
        """Before connecting: the profile's OAuth, logged in when no token is stored (and
        the server asks for one). None when the profile does not use OAuth. Raises
        `ProfileAuthError` or `AuthError` with a plain sentence."""
        if not uses_oauth(profile):
            return None
        oauth = self.oauth_for(profile)
        self.note("connect", f"connecting with “{profile.name}” to {profile.http.url}")
        if oauth.logged_in:
            self.note("connect", f"{describe_login(oauth)}: no login needed", "ok")
            return oauth
        await self.login(profile, oauth=oauth, before_connect=True)
        return oauth

    # ---------------------------------------------------------------- login
    async def login(
        self, profile: Profile, *, oauth: OAuth | None = None, before_connect: bool = False
    ) -> TokenSet | None:
        """Log in now. Returns None when, asked before connecting, the server did not ask
        for a token (the login then happens when it does). Raises `AuthError` (the login
        failed or was cancelled) or `ProfileAuthError`."""
        if not uses_oauth(profile):
            raise ProfileAuthError(f"“{profile.name}” does not use OAuth (see its Auth section).")
        oauth = oauth or self.oauth_for(profile)
        running = self._login_task
        if running is not None and not running.done():
            if self._login_oauth is oauth:
                return await asyncio.shield(running)
            who = self.login_profile.name if self.login_profile else "another server"
            raise ProfileAuthError(
                f"A login for “{who}” is in progress: finish or cancel it first."
            )
        self._cancelled = False
        task = asyncio.get_running_loop().create_task(
            self._login(profile, oauth, before_connect), name=f"login {profile.name}"
        )
        self._login_task = task
        self._login_oauth = oauth
        self.login_profile = profile
        self._changed()
        try:
            return await task
        except asyncio.CancelledError:
            if self._cancelled and task.cancelled():
                self.note("error", "the login was cancelled", "warning")
                raise AuthCancelled() from None
            raise
        finally:
            if self._login_task is task:
                self._login_task = None
                self._login_oauth = None
                self.login_profile = None
                self.prompt = None
                self._changed()

    async def _login(self, profile: Profile, oauth: OAuth, before_connect: bool) -> TokenSet | None:
        url = profile.http.url
        self.note("login", f"logging in for “{profile.name}” ({url})")
        try:
            asked, hint, scope = await self._probe(profile)
            if not asked and before_connect:
                self.note(
                    "login",
                    "not logging in ahead of connecting: the login starts if the server "
                    "answers 401 (the connect timeout then covers it)",
                )
                return None
            tokens = await oauth.login(resource_metadata=hint, challenge_scope=scope)
        except AuthCancelled as exc:
            self.note("error", f"login stopped: {oauth.redactor.text(str(exc))}", "warning")
            raise
        except AuthError as exc:
            self.note("error", f"login failed: {oauth.redactor.text(str(exc))}", "error")
            raise
        self.note("login", describe_login(oauth), "ok")
        return tokens

    async def _probe(self, profile: Profile) -> tuple[bool, str | None, str | None]:
        """GET the server without a token: (it asked for one, the resource_metadata and
        the scope of its 401). Not reached, or answered without a 401: (False, None, None)."""
        url = profile.http.url
        await self.gate(
            AuthStep("probe", "ask the server without a token (its 401 names its metadata)", url)
        )
        headers = {h.name: h.value for h in profile.http.headers if not h.secret and h.value}
        headers["Accept"] = "application/json, text/event-stream"
        try:
            async with (
                httpx.AsyncClient(
                    transport=self.http_transport, timeout=_PROBE_TIMEOUT, follow_redirects=False
                ) as client,
                client.stream("GET", url, headers=headers) as response,
            ):
                status = response.status_code
                info = challenge_info(response) if status == 401 else None
        except httpx.HTTPError as exc:
            self.note(
                "probe",
                f"could not ask the server ({type(exc).__name__}: {exc or 'no response'})",
                "warning",
                url,
            )
            return False, None, None
        if info is None:
            self.note(
                "probe",
                f"the server answered HTTP {status} without asking for a token",
                url=url,
            )
            return False, None, None
        found = []
        if info.resource_metadata:
            found.append(f"resource_metadata {info.resource_metadata}")
        if info.scope:
            found.append(f"scope {info.scope}")
        self.note(
            "probe",
            "the server answered 401 Unauthorized"
            + (": " + "; ".join(found) if found else " (no resource_metadata in the challenge)"),
            "ok",
            url,
        )
        return True, info.resource_metadata, info.scope

    def cancel_login(self) -> bool:
        """Stop the login in progress, wherever it is. False when there is none."""
        task = self._login_task
        if task is None or task.done():
            return False
        self._cancelled = True
        if self.gate.waiting is not None:
            self.gate.stop("the login was cancelled")
        elif self.prompt is not None and self._login_oauth is not None:
            self._login_oauth.cancel_login()
        else:
            task.cancel()
        return True

    # ---------------------------------------------------------------- logout
    def logout(self, profile: Profile) -> list[str]:
        """Forget the server's tokens and dynamic client registration (keyring and memory)."""
        oauth = self.cached(profile)
        if oauth is None:
            try:
                oauth = self.oauth_for(profile)
            except ProfileAuthError:  # no secret needed to forget what is stored
                oauth = OAuth(profile.http.url, store=self.store, listener=self.timeline)
        return oauth.logout()

    def status(self, profile: Profile | None) -> str:
        """One sentence for the panel's header."""
        if profile is None:
            return "No server chosen."
        if profile.transport != "http":
            return f"“{profile.name}” is a stdio server: authorization applies to HTTP servers."
        kind = profile.http.auth.kind
        if kind == "none":
            return f"“{profile.name}” uses no authorization (see its Auth section)."
        if kind == "headers":
            return f"“{profile.name}” authorizes with custom headers (from its profile)."
        if kind == "bearer":
            bearer = profile.http.auth.bearer
            where = (
                f"the environment variable {bearer.env_name}"
                if bearer.source == "env"
                else "the keyring"
            )
            return f"“{profile.name}” sends a fixed bearer token from {where}."
        oauth = self.cached(profile)
        if oauth is None:
            try:
                oauth = self.oauth_for(profile)
            except ProfileAuthError as exc:
                return str(exc)
        return f"“{profile.name}” · OAuth · {describe_login(oauth)}"
