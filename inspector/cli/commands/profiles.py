"""`mcp-inspector-qt profiles list|import|export|remove`: the desktop app's saved connection
profiles from the command line, through the same `ProfileStore` and `SecretStore` as the app
(secret values go to the keyring; they are never printed or written to the profiles file).

`import FILE` reads a Claude Desktop, VS Code or Cursor config (`settings.config_import`), a
server.json, a registry entry or page (`inspector.registry`), or our own export (the profiles
file's form, `{"version": 1, "profiles": [...]}`). Data goes to stdout, messages to stderr.
Exit codes: 0 done, 1 not done (a format the profile cannot be written in, a keyring that
refused a secret), 2 usage or bad input (the message says which).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from inspector.cli.errors import EXIT_USAGE, CommandFailed, diag, guarded
from inspector.common.terminal_text import terminal_text
from inspector.settings.profiles import FILE_VERSION, EnvVar, HeaderEntry, Profile, ProfileStore

__all__ = ["import_profiles", "open_store", "run"]

EXIT_NOT_DONE: Final = 1
_PROG: Final = "mcp-inspector-qt profiles"
_MAX_BYTES: Final = 4 * 1024 * 1024


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    command = ns.profiles_command
    if command == "list":
        return guarded(_PROG, parser, lambda: _list(ns.json))
    if command == "import":
        return guarded(_PROG, parser, lambda: _import_file(ns))
    if command == "export":
        return guarded(_PROG, parser, lambda: _export(ns.name, ns.format, ns.output))
    return guarded(_PROG, parser, lambda: _remove(ns.name))


def open_store() -> ProfileStore:
    """The app's profile store (MCP_INSPECTOR_CONFIG_DIR's, else the user's), secrets in
    the keyring."""
    from inspector.storage.secrets import SecretStore

    store = ProfileStore(secrets=SecretStore())
    if store.load_error is not None:
        diag(f"warning: {store.load_error}")
    return store


def _shown(text: str) -> str:
    return terminal_text(text, keep="")


# ---------------------------------------------------------------- list
def _list(as_json: bool) -> int:
    store = open_store()
    if as_json:
        rows = [
            {
                "id": p.id,
                "name": p.name,
                "transport": p.transport,
                "target": p.target,
                "source": p.source,
                "builtin": p.builtin,
                "secrets": [f"{kind}:{name}" for kind, name in p.secret_slots()],
            }
            for p in store.profiles
        ]
        sys.stdout.write(json.dumps(rows, indent=2, ensure_ascii=True) + "\n")
        return 0
    for p in store.profiles:
        mark = "  (built in)" if p.builtin else ""
        sys.stdout.write(f"{_shown(p.name)}\t{p.transport}\t{_shown(p.target)}{mark}\n")
    return 0


# ---------------------------------------------------------------- import
def _read_input(file: str) -> bytes:
    try:
        if file == "-":
            data = sys.stdin.buffer.read(_MAX_BYTES + 1)
        else:
            with Path(file).expanduser().open("rb") as handle:
                data = handle.read(_MAX_BYTES + 1)
    except FileNotFoundError:
        raise CommandFailed(f"profiles import: no such file: {file}", EXIT_USAGE) from None
    except OSError as exc:
        raise CommandFailed(f"profiles import: cannot read {file}: {exc}", EXIT_USAGE) from None
    if len(data) > _MAX_BYTES:
        raise CommandFailed(
            f"profiles import: {file} is larger than 4 MiB; it is no config file", EXIT_USAGE
        )
    return data


def _import_file(ns: argparse.Namespace) -> int:
    data = _read_input(ns.file)
    profiles, notes, what = _profiles_in(data, ns.file)
    return import_profiles(
        open_store(),
        profiles,
        notes,
        what,
        only=ns.server,
        rename=ns.rename,
        without_secrets=ns.without_secret_values,
    )


def _profiles_in(data: bytes, file: str) -> tuple[list[Profile], list[str], str]:
    """(profiles, notes, what the file is) for any file `profiles import` reads."""
    from inspector.registry.to_profiles import import_server_json, looks_like_server_json

    # Where each profile came from, as the profile editor shows it: the whole path, since
    # the app does not know the folder the command ran in.
    origin = "standard input" if file == "-" else str(Path(file).expanduser().absolute())

    try:
        document: Any = json.loads(data)
    except (ValueError, RecursionError):
        document = None  # maybe JSONC (a VS Code config): config_import reads it
    if looks_like_server_json(document):
        result = import_server_json(data, source=f"server.json: {origin}")
        if result.problems:
            for problem in result.problems:
                diag(f"  {problem}")
            raise CommandFailed(
                f"profiles import: {file} is a server.json with the problem(s) above; "
                "nothing imported",
                EXIT_USAGE,
            )
        return list(result.profiles), list(result.notes), "server.json"
    if isinstance(document, dict) and isinstance(document.get("profiles"), list):
        return _own_export(document, file), [], "profiles export"
    from inspector.settings.config_import import FORMAT_LABELS, parse_config

    try:
        text = data.decode("utf-8")
        config = parse_config(text, path=Path(file))
    except UnicodeDecodeError:
        raise CommandFailed(f"profiles import: {file} is not UTF-8 text", EXIT_USAGE) from None
    except (ValueError, RecursionError) as exc:
        raise CommandFailed(f"profiles import: {file}: {exc}", EXIT_USAGE) from None
    for profile in config.profiles:
        profile.source = f"{FORMAT_LABELS[config.format]}: {origin}"
    return list(config.profiles), list(config.warnings), f"{FORMAT_LABELS[config.format]} config"


def _own_export(document: dict[str, Any], file: str) -> list[Profile]:
    from pydantic import ValidationError

    version = document.get("version")
    if isinstance(version, int) and version > FILE_VERSION:
        raise CommandFailed(
            f"profiles import: {file} was written by a newer version (format {version}; "
            f"this one reads {FILE_VERSION})",
            EXIT_USAGE,
        )
    profiles: list[Profile] = []
    for i, item in enumerate(document["profiles"]):
        try:
            profiles.append(Profile.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = "/".join(str(part) for part in first["loc"])
            raise CommandFailed(
                f"profiles import: {file}: profile {i + 1} is not a profile "
                f"({where}: {first['msg']})",
                EXIT_USAGE,
            ) from None
    return profiles


def import_profiles(
    store: ProfileStore,
    profiles: list[Profile],
    notes: Sequence[str],
    what: str,
    *,
    only: Sequence[str] = (),
    rename: bool = False,
    without_secrets: bool = False,
) -> int:
    """Add `profiles` to the store (all or nothing) and say what was added, where each
    secret went, and the notes; a name already taken stops the import unless `rename`.
    `without_secrets`: secret values are left empty, for the user to enter later."""
    from inspector.storage.secrets import NoKeyringError

    if only:
        wanted = {name.lower() for name in only}
        missing = wanted - {p.name.lower() for p in profiles}
        if missing:
            names = ", ".join(sorted(json.dumps(n) for n in missing))
            found = ", ".join(json.dumps(p.name) for p in profiles) or "none"
            raise CommandFailed(
                f"profiles import: no server {names} in this {what} (it has: {found})",
                EXIT_USAGE,
            )
        profiles = [p for p in profiles if p.name.lower() in wanted]
    if not profiles:
        raise CommandFailed(f"profiles import: no server to import in this {what}", EXIT_USAGE)
    taken = {p.name.lower() for p in store.profiles}
    clashes = [p.name for p in profiles if p.name.lower() in taken]
    if clashes and not rename:
        raise CommandFailed(
            f"profiles import: a profile named {json.dumps(clashes[0])} already exists; "
            "remove it first (profiles remove NAME) or import with --rename",
            EXIT_USAGE,
        )
    # Built from the import's own values, before the store moves them to the keyring.
    secrets = [_typed_secrets(p) for p in profiles]
    if without_secrets:
        profiles = [_without_secret_values(p) for p in profiles]
    try:
        added = store.add_imported(profiles)
    except NoKeyringError:
        raise CommandFailed(
            "profiles import: not imported: no system keyring is available to keep the "
            "secret values, and they are never written to the profiles file; import with "
            "--without-secret-values to enter them later",
            EXIT_NOT_DONE,
        ) from None
    except ValueError as exc:
        raise CommandFailed(f"profiles import: not imported: {exc}", EXIT_USAGE) from None
    for slots, profile in zip(secrets, added, strict=True):
        diag(f"imported {json.dumps(profile.name)}: {profile.target}")
        for name in slots:
            if without_secrets:
                diag(f"  the secret {name} was left empty: enter it in the profile")
            else:
                diag(f"  the secret {name} went to the keyring (not the profiles file)")
    for note in notes:
        diag(f"note: {note}")
    diag(f"{len(added)} profile(s) imported from this {what}.")
    return 0


def _without_secret_values(profile: Profile) -> Profile:
    bare = profile.model_copy(deep=True)
    entries: list[EnvVar | HeaderEntry] = [*bare.stdio.env, *bare.http.headers]
    for entry in entries:
        if entry.secret:
            entry.value = ""
    for _name, value in bare.http.auth.secret_values():
        value.value = ""
    return bare


def _typed_secrets(profile: Profile) -> list[str]:
    names = [e.name for e in profile.stdio.env if e.secret and e.value]
    names += [f"header {h.name}" for h in profile.http.headers if h.secret and h.value]
    names += [name for name, value in profile.http.auth.secret_values() if value.value]
    return names


# ---------------------------------------------------------------- export / remove
def _named(store: ProfileStore, name: str) -> Profile:
    wanted = name.strip().lower()
    for profile in store.profiles:
        if profile.id.lower() == wanted or profile.name.lower() == wanted:
            return profile
    raise CommandFailed(
        f"profiles: no profile named {json.dumps(name)} (`profiles list` shows them)", EXIT_USAGE
    )


def _export(name: str, fmt: str, output: str) -> int:
    profile = _named(open_store(), name)
    if fmt == "inspector":
        text = json.dumps(
            {"version": FILE_VERSION, "profiles": [profile.stored_form()]},
            indent=2,
            ensure_ascii=False,
        )
    elif fmt == "server.json":
        from inspector.registry.from_profile import ExportError, server_json_from_profile

        try:
            text = json.dumps(server_json_from_profile(profile), indent=2, ensure_ascii=False)
        except ExportError as exc:
            raise CommandFailed(
                f"profiles export: {json.dumps(profile.name)} cannot be written as a "
                f"server.json: {exc}",
                EXIT_NOT_DONE,
            ) from None
    else:
        from inspector.settings.config_import import export_snippet

        text = export_snippet(profile, fmt)  # type: ignore[arg-type]
    if output == "-":
        sys.stdout.write(text + "\n")
        return 0
    try:
        Path(output).expanduser().write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandFailed(f"profiles export: cannot write {output}: {exc}", EXIT_USAGE) from None
    diag(
        f"wrote {json.dumps(profile.name)} as {fmt} to {output} (secrets are named, never included)"
    )
    return 0


def _remove(name: str) -> int:
    store = open_store()
    profile = _named(store, name)
    try:
        store.delete(profile.id)
    except ValueError as exc:
        raise CommandFailed(f"profiles remove: {exc}", EXIT_USAGE) from None
    diag(f"removed {json.dumps(profile.name)} and its secrets")
    return 0
