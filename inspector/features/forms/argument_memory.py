"""Remembered arguments: the last arguments sent to each tool (or prompt), per profile.

Qt-free. One JSON file in the config directory (`arguments.json`), read once and written
atomically on each change. Secrets are never written: a field whose schema says
`format: password` or `writeOnly`, or whose whole name is in the secret field names (a
list the user edits, kept in the same file: "token" and "apiKey" are in it by default,
"maxTokens" is not), is left out at every depth. A damaged file is set aside and the app
goes on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Final

from inspector.features.forms.secret_fields import (
    DEFAULT_SECRET_NAMES,
    looks_secret,
    secret_reason,
)
from inspector.storage.paths import config_dir

__all__ = ["ArgumentMemory", "not_remembered", "strip_secrets"]

log = logging.getLogger(__name__)

_VERSION: Final = 1
_MAX_ENTRY_BYTES: Final = 64 * 1024  # bigger argument sets are not remembered
_MAX_PER_PROFILE: Final = 500
_MAX_DEPTH: Final = 10


def strip_secrets(values: Any, schema: Any, names: Iterable[str] = DEFAULT_SECRET_NAMES) -> Any:
    """`values` without the fields that must never be stored (at every depth)."""
    names = tuple(names)
    if isinstance(values, dict):
        properties = schema.get("properties") if isinstance(schema, dict) else None
        properties = properties if isinstance(properties, dict) else {}
        extra = schema.get("additionalProperties") if isinstance(schema, dict) else None
        kept: dict[str, Any] = {}
        for key, value in values.items():
            sub = properties.get(key, extra if isinstance(extra, dict) else None)
            if looks_secret(key, sub if isinstance(sub, dict) else None, names):
                continue
            kept[key] = strip_secrets(value, sub, names)
        return kept
    if isinstance(values, list):
        items = schema.get("items") if isinstance(schema, dict) else None
        return [strip_secrets(v, items, names) for v in values]
    return values


def not_remembered(
    schema: Any, names: Iterable[str] = DEFAULT_SECRET_NAMES, *, _path: str = "", _depth: int = 0
) -> list[tuple[str, str]]:
    """The fields of `schema` whose values are never remembered: (path, why), in order."""
    names = tuple(names)
    found: list[tuple[str, str]] = []
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or _depth > _MAX_DEPTH:
        return found
    for key, sub in properties.items():
        path = f"{_path}.{key}" if _path else str(key)
        why = secret_reason(str(key), sub if isinstance(sub, dict) else None, names)
        if why is not None:
            found.append((path, why))
        elif isinstance(sub, dict):
            found += not_remembered(sub, names, _path=path, _depth=_depth + 1)
            items = sub.get("items")
            if isinstance(items, dict):
                found += not_remembered(items, names, _path=path + "[]", _depth=_depth + 1)
    return found


class ArgumentMemory:
    _shared: dict[Path, ArgumentMemory] = {}  # noqa: RUF012 - one instance per file

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / "arguments.json"
        self._data: dict[str, dict[str, dict[str, Any]]] | None = None
        self._secret_names: list[str] = list(DEFAULT_SECRET_NAMES)

    @classmethod
    def shared(cls) -> ArgumentMemory:
        """The instance for the current config directory (views share it, so one view's
        save never drops what another remembered)."""
        path = config_dir() / "arguments.json"
        if path not in cls._shared:
            cls._shared[path] = cls(path)
        return cls._shared[path]

    def _load(self) -> dict[str, dict[str, dict[str, Any]]]:
        if self._data is not None:
            return self._data
        self._data = {}
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return self._data
        except OSError as exc:
            log.warning("cannot read %s: %s", self.path, exc)
            return self._data
        try:
            raw = json.loads(text)
            profiles = raw["profiles"]
            if not isinstance(profiles, dict):
                raise TypeError("profiles is not an object")
            names = raw.get("secretNames")
            if isinstance(names, list):
                self._secret_names = [str(n) for n in names if isinstance(n, str) and n.strip()]
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("%s is damaged (%s); starting afresh", self.path, exc)
            self._set_aside()
            return self._data
        for pid, entries in profiles.items():
            if isinstance(entries, dict):
                self._data[str(pid)] = {
                    str(k): v for k, v in entries.items() if isinstance(v, dict)
                }
        return self._data

    def _set_aside(self) -> None:
        with contextlib.suppress(OSError):
            self.path.replace(self.path.with_suffix(f".damaged-{int(time.time())}.json"))

    @property
    def secret_names(self) -> list[str]:
        """Field names whose values are never remembered (whole names; case, "_" and "-"
        do not matter)."""
        self._load()
        return list(self._secret_names)

    def set_secret_names(self, names: Iterable[str]) -> None:
        """Replace the list; what is already remembered under a newly listed name goes."""
        self._load()
        self._secret_names = sorted({n.strip() for n in names if n.strip()}, key=str.lower)
        for entries in self._load().values():
            for entry in entries.values():
                arguments = entry.get("arguments")
                if isinstance(arguments, dict):
                    entry["arguments"] = strip_secrets(arguments, None, self._secret_names)
        self._save()

    def not_remembered(self, schema: Any) -> list[tuple[str, str]]:
        return not_remembered(schema, self.secret_names)

    @staticmethod
    def _key(kind: str, name: str) -> str:
        return f"{kind}:{name}"

    def recall(self, profile_id: str, name: str, kind: str = "tools") -> dict[str, Any] | None:
        entry = self._load().get(profile_id, {}).get(self._key(kind, name))
        if entry is None:
            return None
        arguments = entry.get("arguments")
        return dict(arguments) if isinstance(arguments, dict) else None

    def remember(
        self,
        profile_id: str,
        name: str,
        arguments: dict[str, Any],
        schema: Any = None,
        kind: str = "tools",
    ) -> bool:
        """Keep `arguments` (secrets removed); False when too big to remember."""
        kept = strip_secrets(arguments, schema, self.secret_names)
        try:
            size = len(json.dumps(kept, ensure_ascii=False))
        except (TypeError, ValueError):
            return False
        if size > _MAX_ENTRY_BYTES:
            return False
        entries = self._load().setdefault(profile_id, {})
        key = self._key(kind, name)
        entries.pop(key, None)  # re-insert: the newest last
        entries[key] = {"arguments": kept, "saved": time.time()}
        while len(entries) > _MAX_PER_PROFILE:
            entries.pop(next(iter(entries)))
        self._save()
        return True

    def forget(self, profile_id: str, name: str | None = None, kind: str = "tools") -> None:
        data = self._load()
        if name is None:
            data.pop(profile_id, None)
        else:
            data.get(profile_id, {}).pop(self._key(kind, name), None)
        self._save()

    def _save(self) -> None:
        data = {
            "version": _VERSION,
            "secretNames": self._secret_names,
            "profiles": self._load(),
        }
        tmp = self.path.with_suffix(".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("cannot write %s: %s", self.path, exc)
