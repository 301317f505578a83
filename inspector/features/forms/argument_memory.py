"""Remembered arguments: the last arguments sent to each tool (or prompt), per profile.

Qt-free. One JSON file in the config directory (`arguments.json`), read once and written
atomically on each change. Secrets are never written: a field whose schema says
`format: password` or `writeOnly`, or whose name looks secret (password, token, api key...),
is left out at every depth. A damaged file is set aside and the app goes on.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from pathlib import Path
from typing import Any, Final

from inspector.features.forms.model import looks_secret
from inspector.storage.paths import config_dir

__all__ = ["ArgumentMemory", "strip_secrets"]

log = logging.getLogger(__name__)

_VERSION: Final = 1
_MAX_ENTRY_BYTES: Final = 64 * 1024  # bigger argument sets are not remembered
_MAX_PER_PROFILE: Final = 500


def strip_secrets(values: Any, schema: Any) -> Any:
    """`values` without the fields that must never be stored (at every depth)."""
    if isinstance(values, dict):
        properties = schema.get("properties") if isinstance(schema, dict) else None
        properties = properties if isinstance(properties, dict) else {}
        extra = schema.get("additionalProperties") if isinstance(schema, dict) else None
        kept: dict[str, Any] = {}
        for key, value in values.items():
            sub = properties.get(key, extra if isinstance(extra, dict) else None)
            if looks_secret(key, sub if isinstance(sub, dict) else None):
                continue
            kept[key] = strip_secrets(value, sub)
        return kept
    if isinstance(values, list):
        items = schema.get("items") if isinstance(schema, dict) else None
        return [strip_secrets(v, items) for v in values]
    return values


class ArgumentMemory:
    _shared: dict[Path, ArgumentMemory] = {}  # noqa: RUF012 - one instance per file

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else config_dir() / "arguments.json"
        self._data: dict[str, dict[str, dict[str, Any]]] | None = None

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
        kept = strip_secrets(arguments, schema)
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
        data = {"version": _VERSION, "profiles": self._load()}
        tmp = self.path.with_suffix(".tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            log.warning("cannot write %s: %s", self.path, exc)
