"""Saved connection profiles: pydantic models, validation and a JSON-backed store.

Qt-free. The store is a plain Python object with change callbacks; the Qt layer
adapts it. Secret values (env values and header values marked secret) never
reach the JSON file: `ProfileStore.put` moves them into a `SecretStore` first,
and the file keeps only the name and the secret flag.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import sys
import unicodedata
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.settings.auth_options import (
    BearerOptions,
    HttpAuth,
    OAuthOptions,
    SecretValue,
    validate_auth,
)
from inspector.storage.paths import profiles_path

if TYPE_CHECKING:
    from inspector.storage.secrets import SecretStore

__all__ = [
    "DEMO_PROFILE_ID",
    "BearerOptions",
    "ClientCapabilitySwitches",
    "EnvVar",
    "HeaderEntry",
    "HttpAuth",
    "HttpSettings",
    "OAuthOptions",
    "Problem",
    "Profile",
    "ProfileStore",
    "RootEntry",
    "SecretValue",
    "StdioSettings",
    "Timeouts",
    "demo_profile",
    "validate_profile",
]

log = logging.getLogger(__name__)

DEMO_PROFILE_ID: Final = "demo"
FILE_VERSION: Final = 1
_HEADER_NAME: Final = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_ENV_NAME: Final = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

Era = Literal["legacy", "auto", "modern"]
HttpTransportChoice = Literal["auto", "streamable-http", "sse"]


class _Model(BaseModel):
    # Unknown keys (from a newer version of the app) are dropped, not fatal.
    model_config = ConfigDict(extra="ignore", validate_assignment=True)


class EnvVar(_Model):
    name: str
    value: str = ""
    secret: bool = False


class HeaderEntry(_Model):
    name: str
    value: str = ""
    secret: bool = False


class StdioSettings(_Model):
    command: str = ""
    args: list[str] = Field(default_factory=list)
    env: list[EnvVar] = Field(default_factory=list)
    cwd: str | None = None
    inherit_full_env: bool = False


class HttpSettings(_Model):
    url: str = ""
    transport: HttpTransportChoice = "auto"
    headers: list[HeaderEntry] = Field(default_factory=list)
    auth: HttpAuth = Field(default_factory=HttpAuth)


class Timeouts(_Model):
    """Seconds. `request` is reset by progress when `reset_on_progress`; `max_total` is hard."""

    request: float | None = 60.0
    reset_on_progress: bool = True
    max_total: float | None = 600.0


class RootEntry(_Model):
    uri: str
    name: str | None = None


class ClientCapabilitySwitches(_Model):
    """Which client capabilities to declare; switch one off to see how a server copes."""

    sampling: bool = True
    elicitation: bool = True
    roots: bool = True
    # MCP Apps (`io.modelcontextprotocol/ui`): declared only by a front end that renders
    # apps (the GUI); the headless commands never claim it, whatever this says.
    apps: bool = True


def _new_id() -> str:
    return uuid.uuid4().hex[:12]


class Profile(_Model):
    id: str = Field(default_factory=_new_id)
    name: str
    transport: Literal["stdio", "http"] = "stdio"
    stdio: StdioSettings = Field(default_factory=StdioSettings)
    http: HttpSettings = Field(default_factory=HttpSettings)
    era: Era = "legacy"
    timeouts: Timeouts = Field(default_factory=Timeouts)
    roots: list[RootEntry] = Field(default_factory=list)
    capabilities: ClientCapabilitySwitches = Field(default_factory=ClientCapabilitySwitches)
    # The largest message accepted (MiB); bigger ones are cut and flagged, never buffered.
    max_message_mb: int = Field(default=64, ge=1, le=4096)
    source: str | None = None  # where it was imported from, for the user
    builtin: bool = Field(default=False, exclude=True)

    @property
    def target(self) -> str:
        """One line saying what this connects to (no secrets)."""
        if self.transport == "http":
            return self.http.url or "(no URL)"
        import shlex

        if not self.stdio.command:
            return "(no command)"
        return shlex.join([self.stdio.command, *self.stdio.args])

    def secret_slots(self) -> Iterator[tuple[str, str]]:
        """(kind, name) of every value marked secret: kind is "env", "header" or "auth"."""
        for env in self.stdio.env:
            if env.secret:
                yield "env", env.name
        for header in self.http.headers:
            if header.secret:
                yield "header", header.name
        for name, value in self.http.auth.secret_values():
            if value.present:
                yield "auth", name

    def has_typed_secrets(self) -> bool:
        """True when the form holds secret values not yet in the secret store."""
        entries: list[EnvVar | HeaderEntry] = [*self.stdio.env, *self.http.headers]
        return any(e.secret and e.value for e in entries) or any(
            value.value for _name, value in self.http.auth.secret_values()
        )

    def stored_form(self) -> dict[str, Any]:
        """What goes into the JSON file: secret values blanked."""
        data = self.model_dump(mode="json")
        for env in data["stdio"]["env"]:
            if env["secret"]:
                env["value"] = ""
        for header in data["http"]["headers"]:
            if header["secret"]:
                header["value"] = ""
        auth = data["http"]["auth"]
        for holder, key in ((auth["bearer"], "token"), (auth["oauth"], "client_secret")):
            holder[key].pop("value", None)
        return data


def demo_profile() -> Profile:
    """The bundled demo server, run with this very interpreter; in a frozen app (PyInstaller)
    `sys.executable` is the app itself, which runs it as `demo-server`."""
    if getattr(sys, "frozen", False):
        stdio = StdioSettings(command=sys.executable, args=["demo-server"])
    else:
        # The folder that holds the `inspector` package (inspector/settings/profiles.py
        # -> parents[2]); never `inspector/` itself, whose sub-packages would shadow the
        # standard library's modules of the same name (`collections`).
        package_parent = str(Path(__file__).resolve().parents[2])
        stdio = StdioSettings(
            command=sys.executable,
            args=["-m", "inspector.demo"],
            env=[EnvVar(name="PYTHONPATH", value=package_parent)],
        )
    return Profile(
        id=DEMO_PROFILE_ID,
        name="Demo server",
        stdio=stdio,
        roots=[RootEntry(uri=Path.cwd().as_uri(), name="working directory")],
        builtin=True,
    )


@dataclass(frozen=True, slots=True)
class Problem:
    """A validation finding. Errors block saving; warnings are shown but allowed."""

    field: str
    message: str
    severity: Literal["error", "warning"] = "error"


def validate_profile(
    profile: Profile,
    others: Sequence[Profile] = (),
    *,
    which: Callable[..., str | None] = shutil.which,
) -> list[Problem]:
    problems: list[Problem] = []
    name = profile.name.strip()
    if not name:
        problems.append(Problem("name", "The profile needs a name."))
    elif any(o.id != profile.id and o.name.strip().lower() == name.lower() for o in others):
        problems.append(Problem("name", f"A profile named “{name}” already exists."))
    if profile.transport == "stdio":
        problems.extend(_validate_stdio(profile.stdio, which))
    else:
        problems.extend(_validate_http(profile.http))
    for root in profile.roots:
        if not root.uri.strip():
            problems.append(Problem("roots", "A root has an empty URI."))
    t = profile.timeouts
    for label, value in (("request", t.request), ("max_total", t.max_total)):
        if value is not None and value <= 0:
            problems.append(Problem(f"timeouts.{label}", f"The {label} timeout must be positive."))
    return problems


def _validate_stdio(stdio: StdioSettings, which: Callable[..., str | None]) -> list[Problem]:
    problems: list[Problem] = []
    command = stdio.command.strip()
    if not command:
        problems.append(
            Problem(
                "stdio.command",
                "The command is empty: enter the program that starts the server "
                "(for example npx, uvx, node or python).",
            )
        )
    else:
        env_path = next((e.value for e in stdio.env if e.name == "PATH" and e.value), None)
        has_dir = os.sep in command or (os.altsep is not None and os.altsep in command)
        if has_dir:
            path = Path(command).expanduser()
            if not path.is_absolute() and stdio.cwd:
                path = Path(stdio.cwd).expanduser() / path
            # A warning, not an error: a profile may be saved before its binary is built
            # (issue 31, item 4); Connect says why the server cannot start.
            if not path.exists():
                problems.append(
                    Problem(
                        "stdio.command",
                        f"“{command}” does not exist (yet): the server cannot start until it does.",
                        "warning",
                    )
                )
            elif not os.access(path, os.X_OK) or path.is_dir():
                problems.append(
                    Problem(
                        "stdio.command",
                        f"“{command}” is not executable: the server cannot start until it is.",
                        "warning",
                    )
                )
        elif which(command, path=env_path) is None:
            problems.append(
                Problem(
                    "stdio.command",
                    f"“{command}” was not found on PATH. Install it, or give its full path.",
                    "warning",
                )
            )
    if stdio.cwd and not Path(stdio.cwd).expanduser().is_dir():
        problems.append(
            Problem("stdio.cwd", f"The working directory “{stdio.cwd}” does not exist.")
        )
    seen: set[str] = set()
    for env in stdio.env:
        if not _ENV_NAME.match(env.name):
            problems.append(Problem("stdio.env", f"“{env.name}” is not a valid variable name."))
        elif env.name in seen:
            problems.append(Problem("stdio.env", f"The variable {env.name} is set twice."))
        seen.add(env.name)
    return problems


def _validate_http(http: HttpSettings) -> list[Problem]:
    problems: list[Problem] = []
    url = http.url.strip()
    if not url:
        problems.append(Problem("http.url", "The URL is empty."))
    else:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https"):
            shown = parts.scheme or "none"
            problems.append(
                Problem(
                    "http.url",
                    f"The URL must start with http:// or https:// (the scheme is {shown}).",
                )
            )
        elif not parts.netloc:
            problems.append(Problem("http.url", "The URL has no host."))
    for header in http.headers:
        if not _HEADER_NAME.match(header.name):
            problems.append(Problem("http.headers", f"“{header.name}” is not a valid header name."))
    problems.extend(
        Problem(field, message, severity)
        for field, message, severity in validate_auth(
            http.auth, http.url, [h.name for h in http.headers], [h.secret for h in http.headers]
        )
    )
    return problems


_NAME_MAX: Final = 120


def one_line_name(text: str) -> str:
    """A name from a file (a config's key, a server.json's title) as one line of visible
    text: control and format characters are spaces, runs of space one, at most 120
    characters. A newline in it would show a line of its choosing under it in a list."""
    visible = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in text)
    flat = " ".join(visible.split())
    return flat if len(flat) <= _NAME_MAX else flat[: _NAME_MAX - 1] + "…"


class ProfileStore:
    """The saved profiles plus the built-in demo profile (always first, never saved).

    Listeners are called with no arguments after every change.
    """

    def __init__(self, path: Path | None = None, secrets: SecretStore | None = None) -> None:
        self.path = path if path is not None else profiles_path()
        self.secrets = secrets
        self._profiles: list[Profile] = []
        self._listeners: Listeners[[]] = Listeners("profile store listener")
        self.load_error: str | None = None
        self._newer_format: int | None = None  # the file format of a newer app, if so
        # The file as last read or written (inode, mtime, size): another process (`profiles
        # import` while the window is open) may save in between, so a change reads it again.
        self._stamp: tuple[int, int, int] | None = None
        self.load()

    # ---------------------------------------------------------------- reading
    def __iter__(self) -> Iterator[Profile]:
        return iter(self.profiles)

    def __len__(self) -> int:
        return len(self._profiles) + 1

    @property
    def profiles(self) -> list[Profile]:
        return [demo_profile(), *self._profiles]

    def get(self, profile_id: str) -> Profile | None:
        return next((p for p in self.profiles if p.id == profile_id), None)

    def find(self, query: str) -> Profile | None:
        """By id or name (case-insensitive), then by a unique name prefix; "demo" works."""
        q = query.strip().lower()
        everything = self.profiles
        for p in everything:
            if p.id.lower() == q or p.name.lower() == q:
                return p
        matches = [p for p in everything if p.name.lower().startswith(q)]
        return matches[0] if len(matches) == 1 else None

    def names(self) -> list[str]:
        return [p.name for p in self.profiles]

    # ---------------------------------------------------------------- changes
    def on_changed(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._listeners.add(listener)

    def _changed(self) -> None:
        self._listeners.emit()

    def put(self, profile: Profile, *, session_only_secrets: bool = False) -> Profile:
        """Add or replace (by id). Secret values go to the secret store, then the file is saved.

        Raises ValueError with the first error when the profile does not validate, and
        `inspector.storage.secrets.NoKeyringError` when a secret cannot be stored and
        `session_only_secrets` is False (the caller asks the user, then retries).
        """
        if profile.builtin:
            raise ValueError("The demo profile is built in; duplicate it to change it.")
        self._reread()
        errors = [p for p in validate_profile(profile, self._profiles) if p.severity == "error"]
        if errors:
            raise ValueError(errors[0].message)
        stored = profile.model_copy(deep=True)
        self._move_secrets(stored, session_only_secrets)
        for i, existing in enumerate(self._profiles):
            if existing.id == stored.id:
                self._forget_removed_secrets(existing, stored)
                self._profiles[i] = stored
                break
        else:
            self._profiles.append(stored)
        self.save()
        self._changed()
        return stored

    def _move_secrets(self, profile: Profile, session_only: bool) -> None:
        entries: list[tuple[str, EnvVar | HeaderEntry]] = [
            *(("env", e) for e in profile.stdio.env),
            *(("header", h) for h in profile.http.headers),
        ]
        pending = [(kind, e) for kind, e in entries if e.secret and e.value]
        auth_pending = [(n, v) for n, v in profile.http.auth.secret_values() if v.value]
        if not pending and not auth_pending:
            return
        if self.secrets is None:
            raise ValueError("no secret store: cannot save secret values")
        for kind, entry in pending:
            self.secrets.set(profile.id, kind, entry.name, entry.value, session_only=session_only)
        for name, value in auth_pending:
            self.secrets.set(profile.id, "auth", name, value.value, session_only=session_only)
        for _kind, entry in pending:
            entry.value = ""
        for _name, value in auth_pending:
            value.value = ""
            value.stored = True

    def _forget_removed_secrets(self, old: Profile, new: Profile) -> None:
        if self.secrets is None:
            return
        for slot in set(old.secret_slots()) - set(new.secret_slots()):
            self.secrets.delete(old.id, *slot)

    def delete(self, profile_id: str) -> None:
        if profile_id == DEMO_PROFILE_ID:
            raise ValueError("The demo profile is built in and cannot be deleted.")
        self._reread()
        victim = self.get(profile_id)
        if victim is None:
            return
        self._profiles = [p for p in self._profiles if p.id != profile_id]
        if self.secrets is not None:
            for slot in victim.secret_slots():
                self.secrets.delete(victim.id, *slot)
        self.save()
        self._changed()

    def unique_name(self, wanted: str) -> str:
        taken = {n.lower() for n in self.names()}
        name = one_line_name(wanted) or "server"
        if name.lower() not in taken:
            return name
        n = 2
        while f"{name} ({n})".lower() in taken:
            n += 1
        return f"{name} ({n})"

    def add_imported(
        self, profiles: list[Profile], *, session_only_secrets: bool = False
    ) -> list[Profile]:
        """Add imported profiles under unique names (fresh ids); returns what was added."""
        self._reread()
        added: list[Profile] = []
        try:
            for profile in profiles:
                fresh = profile.model_copy(deep=True, update={"id": _new_id(), "builtin": False})
                fresh.name = self.unique_name(profile.name)
                added.append(self.put(fresh, session_only_secrets=session_only_secrets))
        except Exception:
            # All or nothing: a retry (e.g. with session-only secrets) must not duplicate.
            for done in added:
                self.delete(done.id)
            raise
        return added

    # ---------------------------------------------------------------- storage
    def refresh(self) -> bool:
        """Read the file again when another process saved it since (listeners are told);
        True when it did."""
        if not self._reread():
            return False
        self._changed()
        return True

    def _reread(self) -> bool:
        if self._file_stamp() == self._stamp:
            return False
        self.load()
        return True

    def _file_stamp(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    def load(self) -> None:
        self._profiles = []
        self._stamp = self._file_stamp()
        self.load_error = None
        self._newer_format = None
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as exc:
            self.load_error = f"could not read {self.path}: {exc}"
            return
        try:
            data = json.loads(text)
            items = data.get("profiles", []) if isinstance(data, dict) else []
        except ValueError as exc:
            self.load_error = f"{self.path} is not valid JSON ({exc}); it was left untouched"
            return
        version = data.get("version") if isinstance(data, dict) else None
        if isinstance(version, int) and version > FILE_VERSION:
            # A newer app wrote it: read what this one knows, and keep the file whole (save()
            # sets it aside first) rather than drop what only the newer version understands.
            self.load_error = (
                f"{self.path} was written by a newer version of MCP Inspector (file format "
                f"{version}; this version reads format {FILE_VERSION}): what this version does "
                f"not know is ignored, and the file is kept as {self._aside(version).name} "
                "before a change is saved"
            )
            self._newer_format = version
        for item in items:
            try:
                profile = Profile.model_validate(item)
            except ValidationError as exc:
                log.warning("skipping an unreadable profile in %s: %s", self.path, exc)
                continue
            if profile.id != DEMO_PROFILE_ID:
                self._profiles.append(profile)

    def _aside(self, newer_format: int | None) -> Path:
        """Where save() keeps a file it could not read whole before writing over it."""
        if newer_format is None:
            return self.path.with_suffix(".unreadable.json")
        return self.path.with_suffix(f".format-{newer_format}.json")

    def save(self) -> None:
        if self.load_error is not None and self.path.exists():
            # Never overwrite a file we could not read: keep it as a backup first.
            backup = self._aside(self._newer_format)
            self.path.replace(backup)
            self.load_error = None
            self._newer_format = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"version": FILE_VERSION, "profiles": [p.stored_form() for p in self._profiles]}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        if os.name != "nt":
            os.chmod(tmp, 0o600)
        tmp.replace(self.path)
        self._stamp = self._file_stamp()
