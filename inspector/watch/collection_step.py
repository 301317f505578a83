"""The collection watch mode re-runs after each restart: a collection file (read again
before every run, so editing it takes effect at the next restart) run with the
collections runner; its results turned into watch's `CollectionSummary`.

`OpenCollectionStep` is the window's: the collection open in the tab at the time of each
run (one opened after watch mode was turned on included), none when none is open.
Either step tells `on_results` each run's results, so the tab's Collections panel shows
them as its own run's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from inspector.collections.collection import Collection
from inspector.collections.file import CollectionError, load_collection
from inspector.collections.results import CallResult
from inspector.collections.runner import CollectionRunner
from inspector.core.server_connection import ServerConnection
from inspector.watch.report import CallOutcome, CollectionSummary

__all__ = [
    "CollectionFileError",
    "FileCollectionStep",
    "OpenCollectionStep",
    "ResultsListener",
    "summary_of",
]

# Hears each run's results: the collection file and a result per call run.
ResultsListener = Callable[[Path, Sequence[CallResult]], None]


class CollectionFileError(Exception):
    """The collection file cannot be used: `str()` says the file, the place and why."""


def _outcome(result: CallResult) -> CallOutcome:
    failures = [f"{a.label}: {a.message}" for a in result.failures]
    if result.outcome.kind == "not-run":
        failures.insert(0, f"not run: {result.outcome.message}")
    return CallOutcome(
        result.name, result.passed, result.outcome.describe(), result.ms, tuple(failures)
    )


def summary_of(name: str, results: Sequence[CallResult]) -> CollectionSummary:
    return CollectionSummary(name, tuple(_outcome(r) for r in results))


class FileCollectionStep:
    """`path` is read now (raising CollectionFileError for an invalid file) and again
    before each run; an invalid file later is a run that says why (nothing else stops)."""

    def __init__(
        self, path: Path, *, timeout: float = 30.0, on_results: ResultsListener | None = None
    ) -> None:
        self.path = path
        self.timeout = timeout
        self.on_results = on_results
        self.collection = self._load()

    @property
    def name(self) -> str:
        return self.collection.name or self.path.name

    def _load(self) -> Collection:
        try:
            return load_collection(self.path)
        except CollectionError as exc:
            raise CollectionFileError(str(exc)) from None

    async def run(
        self, session: ServerConnection, tools: Sequence[dict[str, Any]] | None = None
    ) -> CollectionSummary:
        try:
            self.collection = self._load()
        except CollectionFileError as exc:
            return CollectionSummary(self.path.name, error=str(exc))
        runner = CollectionRunner(session, timeout=self.timeout, tools=tools)
        report = await runner.run(self.collection)
        if self.on_results is not None:
            self.on_results(self.path, report.results)
        return summary_of(self.name, report.results)


class OpenCollectionStep:
    """The collection `path()` names at the time of each run (None: no collection, the
    run has none); an invalid file is a run that says why."""

    def __init__(
        self,
        path: Callable[[], Path | None],
        *,
        timeout: float = 30.0,
        on_results: ResultsListener | None = None,
    ) -> None:
        self.path = path
        self.timeout = timeout
        self.on_results = on_results
        self.current: FileCollectionStep | None = None  # the last run's

    @property
    def name(self) -> str:
        return self.current.name if self.current is not None else ""

    async def run(
        self, session: ServerConnection, tools: Sequence[dict[str, Any]] | None = None
    ) -> CollectionSummary | None:
        path = self.path()
        if path is None:
            self.current = None
            return None
        if self.current is None or self.current.path != path:
            try:
                self.current = FileCollectionStep(
                    path, timeout=self.timeout, on_results=self.on_results
                )
            except CollectionFileError as exc:
                self.current = None
                return CollectionSummary(path.name, error=str(exc))
        return await self.current.run(session, tools)
