"""Canned sampling replies per profile: "auto-answer with this reply" for long sessions.

Qt-free. Kept in its own small file in the config directory (canned-replies.json),
not in profiles.json: it is a reply the user approved once, changed from the sampling
dialog while connected (also for the built-in demo profile, which is never saved),
and it must not go through profile validation. Keyed by profile id.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.common.listeners import Listeners, Unsubscribe
from inspector.storage.paths import config_dir

__all__ = ["CannedReplies", "CannedReply", "canned_replies_path"]

log = logging.getLogger(__name__)
FILE_VERSION: Final = 1


def canned_replies_path() -> Path:
    return config_dir() / "canned-replies.json"


@dataclass(frozen=True, slots=True)
class CannedReply:
    result: dict[str, Any]  # a CreateMessageResult
    enabled: bool = True  # answer sampling requests with it without asking


class CannedReplies:
    """A JSON-backed map profile id -> CannedReply. Listeners hear every change."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else canned_replies_path()
        self._replies: dict[str, CannedReply] = {}
        self._listeners: Listeners[[]] = Listeners("canned replies listener")
        self.load_error: str | None = None
        self.load()

    def on_changed(self, listener: Callable[[], None]) -> Unsubscribe:
        return self._listeners.add(listener)

    def get(self, profile_id: str) -> CannedReply | None:
        return self._replies.get(profile_id)

    def active(self, profile_id: str) -> dict[str, Any] | None:
        """The reply to send without asking, if auto-answer is on for this profile."""
        reply = self._replies.get(profile_id)
        return dict(reply.result) if reply is not None and reply.enabled else None

    def put(self, profile_id: str, result: dict[str, Any], enabled: bool = True) -> None:
        self._replies[profile_id] = CannedReply(dict(result), enabled)
        self._changed()

    def set_enabled(self, profile_id: str, enabled: bool) -> None:
        reply = self._replies.get(profile_id)
        if reply is not None and reply.enabled != enabled:
            self._replies[profile_id] = CannedReply(reply.result, enabled)
            self._changed()

    def forget(self, profile_id: str) -> None:
        if self._replies.pop(profile_id, None) is not None:
            self._changed()

    def _changed(self) -> None:
        self.save()
        self._listeners.emit()

    def load(self) -> None:
        self._replies = {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            self.load_error = f"could not read {self.path}: {exc}"
            log.warning("%s", self.load_error)
            return
        replies = data.get("replies") if isinstance(data, dict) else None
        if not isinstance(replies, dict):
            return
        for profile_id, entry in replies.items():
            if isinstance(entry, dict) and isinstance(entry.get("result"), dict):
                self._replies[str(profile_id)] = CannedReply(
                    entry["result"], bool(entry.get("enabled", True))
                )

    def save(self) -> None:
        if self.load_error is not None:
            return  # never overwrite a file we could not read
        payload = {
            "version": FILE_VERSION,
            "replies": {
                pid: {"result": r.result, "enabled": r.enabled} for pid, r in self._replies.items()
            },
        }
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", "utf-8")
            if os.name != "nt":
                os.chmod(tmp, 0o600)
            tmp.replace(self.path)
        except OSError as exc:
            log.warning("could not save %s: %s", self.path, exc)
