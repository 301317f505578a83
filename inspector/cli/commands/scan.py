"""`mcp-inspector-qt scan TARGET...`: a security review of servers' definitions.

Each TARGET (a URL, a shell-quoted command line or `profile:NAME`, as `diff` takes them)
is listed read-only (`inspector/compare/security_scan.py`: lists, `prompts/get` of the
prompts that need no argument; never a tool call), all of them concurrently, and every
rule of `inspector/security` runs over them together (the cross-server rules over all
targets). Text: one line per finding (severity, rule, server, kind, item, JSON Pointer and
offset, reason, evidence with hidden characters shown as escapes, spec reference), escaped
for the terminal; `--json`; `--sarif OUT` (SARIF 2.1.0). `--baseline FILE` leaves out the
findings it accepts (each with its reason) and lists its stale entries; `--write-baseline
FILE --reason TEXT` accepts every finding of this run.

Exit codes: 0 nothing at or above `--fail-on` (default high; `none`: never fails),
1 an unaccepted finding at or above it, 2 usage (a bad baseline too), 3 a target could not
be reached or listed (its findings are still reported).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shlex
from pathlib import Path
from typing import Any, Final

from inspector import __version__
from inspector.cli.errors import EXIT_USAGE, CommandFailed, UsageError, diag, guarded
from inspector.cli.reports import print_json, print_text, write_report_files
from inspector.compare.security_scan import ScannedServer, findings_of, scan_profiles
from inspector.compare.targets import TargetError, profile_for_target
from inspector.features.catalog.pins import PinStore
from inspector.security import RULES, SecurityFinding, Severity
from inspector.security.baseline import Baseline, BaselineError, Filtered
from inspector.security.sarif import security_sarif
from inspector.settings.profiles import Profile, ProfileStore, RootEntry
from inspector.storage.atomic_file import write_text_atomically
from inspector.storage.secrets import SecretStore

__all__ = ["ScanReport", "run"]

EXIT_CLEAN, EXIT_FINDINGS, EXIT_UNREACHABLE = 0, 1, 3
NEVER: Final = "none"


class ScanReport:
    """One run's outcome: what was scanned, what was found (new and accepted), and the
    text, JSON and SARIF of it."""

    def __init__(
        self,
        scanned: list[ScannedServer],
        filtered: Filtered,
        fail_on: Severity | None,
        command_line: str = "",
    ) -> None:
        self.scanned = scanned
        self.filtered = filtered
        self.fail_on = fail_on
        self.command_line = command_line

    @property
    def failed_targets(self) -> list[ScannedServer]:
        return [s for s in self.scanned if not s.ok]

    @property
    def exit_code(self) -> int:
        if self.failed_targets:
            return EXIT_UNREACHABLE
        if self.fail_on is not None and any(f.severity >= self.fail_on for f in self.filtered.new):
            return EXIT_FINDINGS
        return EXIT_CLEAN

    def counts(self) -> dict[str, int]:
        return {s.label: sum(1 for f in self.filtered.new if f.severity is s) for s in Severity}

    @staticmethod
    def line(finding: SecurityFinding) -> str:
        spec = f" [spec: {finding.spec}]" if finding.spec else ""
        return finding.line() + spec

    def text(self) -> str:
        lines: list[str] = []
        for s in self.scanned:
            if s.snapshot is not None:
                counts = ", ".join(f"{n} {k}" for k, n in s.snapshot.counts().items() if n)
                got = f"{counts or 'nothing listed'}"
                if s.definitions is not None and s.definitions.prompt_messages:
                    got += f", {len(s.definitions.prompt_messages)} prompt(s) fetched"
            else:
                got = "not listed"
            lines.append(f"scanned {s.name} ({s.label}): {got}")
            lines.extend(f"  note: {note}" for note in s.notes)
        lines.extend(self.line(f) for f in self.filtered.new)
        if self.filtered.accepted:
            lines.append(f"{len(self.filtered.accepted)} finding(s) accepted by the baseline")
        for stale in self.filtered.stale:
            what = " ".join(p for p in (stale.rule, stale.server, repr(stale.item)) if p)
            lines.append(f"stale baseline entry {stale.fingerprint} ({what}): matches nothing")
        counts = ", ".join(f"{n} {label}" for label, n in reversed(self.counts().items()) if n)
        lines.append(f"{len(self.filtered.new)} finding(s)" + (f": {counts}" if counts else ""))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "targets": [
                {
                    "target": s.target,
                    "name": s.name,
                    "outcome": s.outcome,
                    "error": s.error,
                    "notes": list(s.notes),
                    "counts": s.snapshot.counts() if s.snapshot is not None else None,
                }
                for s in self.scanned
            ],
            "findings": [f.to_json() for f in self.filtered.new],
            "accepted": [
                {**f.to_json(), "accepted_because": a.reason} for f, a in self.filtered.accepted
            ],
            "stale": [
                {"fingerprint": a.fingerprint, "rule": a.rule, "server": a.server, "item": a.item}
                for a in self.filtered.stale
            ],
            "summary": self.counts(),
            "fail_on": self.fail_on.label if self.fail_on is not None else NEVER,
            "exit_code": self.exit_code,
        }

    def sarif(self) -> str:
        places = {s.name: s.place for s in self.scanned if s.place is not None}
        failures = [f"{s.label}: {s.error or s.outcome}" for s in self.failed_targets]
        log = security_sarif(
            self.filtered.new,
            rules=RULES,
            accepted=[(f, a.reason) for f, a in self.filtered.accepted],
            places=places,
            version=__version__,
            failures=failures,
        )
        return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


def _fail_on(text: str) -> Severity | None:
    if text.strip().lower() == NEVER:
        return None
    try:
        return Severity.parse(text)
    except ValueError as exc:
        raise UsageError(f"--fail-on: {exc} or {NEVER}") from None


def _baseline(path: str | None) -> Baseline:
    if path is None:
        return Baseline()
    file = Path(path).expanduser()
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"--baseline {file}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(f"--baseline {file}: not JSON ({exc})") from None
    try:
        return Baseline.from_json(data)
    except BaselineError as exc:
        raise UsageError(f"--baseline {file}: {exc}") from None


def _profiles(ns: argparse.Namespace) -> tuple[list[Profile], SecretStore | None, frozenset[str]]:
    needs_store = any(t.strip().startswith("profile:") for t in ns.targets)
    secrets = SecretStore() if needs_store else None
    store = ProfileStore(secrets=secrets) if needs_store else None
    roots = [RootEntry(uri=uri) for uri in ns.root]
    profiles: list[Profile] = []
    for target in ns.targets:
        try:
            profile = profile_for_target(target, era=ns.era, timeout=ns.timeout, profiles=store)
        except TargetError as exc:
            raise UsageError(f"{target!r}: {exc}") from None
        if roots:
            profile = profile.model_copy(update={"roots": [*profile.roots, *roots]})
        profiles.append(profile)
    saved = frozenset(p.id for p in store.profiles) if store is not None else frozenset()
    return profiles, secrets, saved


def _write_baseline(ns: argparse.Namespace, baseline: Baseline, report: ScanReport) -> None:
    kept = tuple(a for _f, a in report.filtered.accepted)
    written = Baseline(kept + Baseline.of(report.filtered.new, ns.reason).entries)
    target = Path(ns.write_baseline).expanduser()
    try:
        write_text_atomically(target, json.dumps(written.to_json(), indent=2) + "\n")
    except OSError as exc:
        raise CommandFailed(
            f"error: cannot write the baseline to {target}: {exc.strerror or exc}", EXIT_USAGE
        ) from None
    diag(f"wrote {len(written.entries)} accepted finding(s) to {target}")


async def _run(ns: argparse.Namespace) -> int:
    if ns.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if ns.write_baseline is not None and not (ns.reason or "").strip():
        raise UsageError("--write-baseline needs --reason TEXT (why these findings are accepted)")
    fail_on = _fail_on(ns.fail_on)
    baseline = _baseline(ns.baseline)
    profiles, secrets, saved = _profiles(ns)
    pins = None if ns.no_pins else PinStore()
    scanned = await scan_profiles(
        profiles,
        targets=ns.targets,
        timeout=ns.timeout,
        secrets=secrets,
        pins=pins,
        saved=saved,
    )
    filtered = baseline.filter(findings_of(scanned))
    command = shlex.join(["mcp-inspector-qt", "scan", *ns.targets])
    report = ScanReport(scanned, filtered, fail_on, command)
    write_report_files(ns, report)
    if ns.json:
        print_json(report.to_json())
    else:
        print_text(report.text())
    for s in report.failed_targets:
        what = {"unreachable": "could not be reached", "timeout": "timed out"}.get(
            s.outcome, "failed while listing"
        )
        diag(f"error: {s.label} {what}: {s.error}")
    if ns.write_baseline is not None:
        _write_baseline(ns, baseline, report)
    return report.exit_code


def run(ns: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return guarded("mcp-inspector-qt scan", parser, lambda: asyncio.run(_run(ns)))
