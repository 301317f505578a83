"""Tool pinning: remember each tool's definition per profile, and notice when it changes.

A server can change what a tool says it does after the user trusted it (a "rug pull"): the
description an LLM reads, the input schema, the annotations. The first time a tool is seen
for a profile its definition is pinned (trust on first use); every later listing is
compared with the pin, and a difference is reported until the user accepts it (re-pins).

One JSON file in the config directory, keyed by profile: {scope: {tool name: pin}}.
Qt-free; the explorer shows the alerts and the diff.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import logging
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.storage.paths import config_dir

__all__ = [
    "PINNED_FIELDS",
    "PinChange",
    "PinStore",
    "pin_diff",
    "pinned_hash",
    "pins_path",
]

log = logging.getLogger(__name__)

FILE_VERSION: Final = 1
# What a pin covers: what the model reads and what decides how a call is made. `_meta` and
# unknown fields are left out (servers put volatile data there).
PINNED_FIELDS: Final = (
    "name",
    "title",
    "description",
    "inputSchema",
    "outputSchema",
    "annotations",
)


def pins_path() -> Path:
    return config_dir() / "pins.json"


def pinned_part(definition: dict[str, Any]) -> dict[str, Any]:
    return {k: definition[k] for k in PINNED_FIELDS if k in definition}


def pinned_hash(definition: dict[str, Any]) -> str:
    """sha256 of the pinned fields, key order ignored."""
    text = json.dumps(
        pinned_part(definition), sort_keys=True, ensure_ascii=False, separators=(",", ":")
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _pretty(definition: dict[str, Any]) -> list[str]:
    text = json.dumps(pinned_part(definition), indent=2, sort_keys=True, ensure_ascii=False)
    return text.splitlines(keepends=True)


def pin_diff(old: dict[str, Any], new: dict[str, Any], name: str = "tool") -> str:
    """A unified diff of the pinned fields, pretty-printed (keys sorted)."""
    lines = difflib.unified_diff(
        _pretty(old), _pretty(new), f"{name} (pinned)", f"{name} (now)", n=3
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True)
class PinChange:
    """A tool whose definition differs from its pin."""

    scope: str
    name: str
    old: dict[str, Any]  # the pinned definition
    new: dict[str, Any]  # what the server lists now
    pinned_at: float  # wall-clock time of the pin
    new_hash: str

    @property
    def fields(self) -> tuple[str, ...]:
        """Which pinned fields differ (description, inputSchema...)."""
        return tuple(f for f in PINNED_FIELDS if self.old.get(f) != self.new.get(f))

    def describe(self) -> str:
        return f"tool {self.name!r} changed since it was pinned: {', '.join(self.fields)}"

    def diff(self) -> str:
        return pin_diff(self.old, self.new, self.name)


class PinStore:
    """Pins per scope (a profile id), saved as JSON. A file that cannot be read is kept aside
    (never overwritten) and the store starts empty."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else pins_path()
        self.load_error: str | None = None
        self.save_error: str | None = None
        self._data: dict[str, dict[str, dict[str, Any]]] | None = None
        self._unsaved = False  # pins added by check(save=False), not written yet

    # -- file --------------------------------------------------------------------
    def _pins(self) -> dict[str, dict[str, dict[str, Any]]]:
        if self._data is None:
            self._data = self._load()
        return self._data

    def _load(self) -> dict[str, dict[str, dict[str, Any]]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            self.load_error = f"could not read {self.path}: {exc}"
            log.warning("%s", self.load_error)
            return {}
        try:
            data = json.loads(text)
            scopes = data["scopes"]
            if not isinstance(scopes, dict):
                raise TypeError("'scopes' is not an object")
        except (ValueError, KeyError, TypeError) as exc:
            self.load_error = f"{self.path} is not a pin file ({exc}); it is kept aside"
            log.warning("%s", self.load_error)
            return {}
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for scope, tools in scopes.items():
            if not isinstance(tools, dict):
                continue
            out[str(scope)] = {
                str(name): pin
                for name, pin in tools.items()
                if isinstance(pin, dict)
                and isinstance(pin.get("hash"), str)
                and isinstance(pin.get("definition"), dict)
            }
        return out

    def save(self) -> None:
        if self.load_error is not None and self.path.exists():
            self.path.replace(self.path.with_suffix(".unreadable.json"))
            self.load_error = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"version": FILE_VERSION, "scopes": self._pins()}
        tmp = self.path.with_suffix(".tmp")
        text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
        tmp.write_text(text + "\n", encoding="utf-8")
        if os.name != "nt":
            os.chmod(tmp, 0o600)
        tmp.replace(self.path)

    # -- pins --------------------------------------------------------------------
    def pins(self, scope: str) -> dict[str, dict[str, Any]]:
        return dict(self._pins().get(scope, {}))

    def pin_of(self, scope: str, name: str) -> dict[str, Any] | None:
        return self._pins().get(scope, {}).get(name)

    def check(
        self, scope: str, tools: Iterable[tuple[str, dict[str, Any]]], *, save: bool = True
    ) -> list[PinChange]:
        """Compare listed tools with their pins. Tools seen for the first time are pinned;
        changed ones are returned (and stay pinned to the old definition until accepted).
        With `save=False` (a long list checked in slices) new pins wait for `flush()`."""
        pins = self._pins().setdefault(scope, {})
        changes: list[PinChange] = []
        added = False
        for name, definition in tools:
            digest = pinned_hash(definition)
            pin = pins.get(name)
            if pin is None:
                pins[name] = self._pin(definition, digest)
                added = True
            elif pin["hash"] != digest:
                changes.append(
                    PinChange(
                        scope,
                        name,
                        pin["definition"],
                        pinned_part(definition),
                        float(pin.get("pinned_at", 0.0)),
                        digest,
                    )
                )
        if added:
            self._unsaved = True
            if save:
                self.flush()
        return changes

    def flush(self) -> None:
        """Save the pins added by `check(..., save=False)`, if any."""
        if self._unsaved:
            self._unsaved = False
            self._save_quietly()

    def accept(
        self, scope: str, name: str, definition: dict[str, Any], *, save: bool = True
    ) -> None:
        """Re-pin a tool to its current definition (`save=False`: many of them, saved
        once by `flush()`; the file holds every pin, so a save per tool is quadratic)."""
        self._pins().setdefault(scope, {})[name] = self._pin(definition, pinned_hash(definition))
        if save:
            self._save_quietly()
        else:
            self._unsaved = True

    def forget(self, scope: str, name: str | None = None) -> None:
        """Drop one pin, or every pin of a scope."""
        pins = self._pins()
        if name is None:
            pins.pop(scope, None)
        else:
            pins.get(scope, {}).pop(name, None)
        self._save_quietly()

    @staticmethod
    def _pin(definition: dict[str, Any], digest: str) -> dict[str, Any]:
        return {"hash": digest, "pinned_at": time.time(), "definition": pinned_part(definition)}

    def _save_quietly(self) -> None:
        try:
            self.save()
            self.save_error = None
        except OSError as exc:  # pins are a safety net: a read-only config dir must not break
            self.save_error = f"could not save pins to {self.path}: {exc}"
            log.warning("could not save pins to %s: %s", self.path, exc)
