"""The evals file: cases that say what a model should do with a server's tools (docs/evals.md).

JSON, versioned (`"version": 1`). Each case holds a prompt (or a short conversation), the
tool calls expected (the tool's name, bare or qualified "tab__tool", and its arguments
matched as a subset, by JSON pointer, or by regex at a pointer), the tools that must not be
called, text the final answer must contain, and how many runs must pass.

Reading checks everything and says every problem at once, each with its place
(`cases[2] "adds": passRate must be ...`): a file that is not JSON, too big, of a newer
version, with wrong types, a bad regex or pointer, or unknown keys (a typo is not silently
ignored). Pure: no IO beyond reading the file.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.collections.pointer import MISSING, parse_pointer, resolve_pointer
from inspector.features.providers.chat_types import ChatMessage
from inspector.host.records import TurnRecord

__all__ = [
    "EVALS_VERSION",
    "MAX_FILE_BYTES",
    "MISSING",
    "EvalCase",
    "EvalFile",
    "EvalsFileError",
    "ExpectedCall",
    "case_from_turn",
    "load_evals",
    "parse_evals",
    "pointer_value",
]

EVALS_VERSION: Final = 1
MAX_FILE_BYTES: Final = 5 * 1024 * 1024
MAX_CASES: Final = 10_000
MAX_RUNS: Final = 1000
_FILE_KEYS: Final = {"version", "cases", "defaults"}
_DEFAULT_KEYS: Final = {"runs", "passRate", "system"}
_CASE_KEYS: Final = {
    "name",
    "prompt",
    "messages",
    "system",
    "expectedCalls",
    "mustNotCall",
    "answerContains",
    "runs",
    "passRate",
}
_CALL_KEYS: Final = {"tool", "arguments", "pointers", "patterns"}
_MISSING: Final = object()


class EvalsFileError(ValueError):
    """An evals file that cannot be used; `problems` each name their place."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        head = f"{source}: " if source else ""
        super().__init__(head + "; ".join(problems))


@dataclass(frozen=True, slots=True)
class ExpectedCall:
    """A call the model should make: `tool` bare ("add": any tab's) or qualified
    ("demo__add"); `arguments` a subset the arguments must contain; `pointers` values at
    JSON pointers; `patterns` regexes the value at a pointer must match (`re.search`)."""

    tool: str
    arguments: dict[str, Any] | None = None
    pointers: tuple[tuple[str, Any], ...] = ()
    patterns: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tool": self.tool}
        if self.arguments is not None:
            data["arguments"] = self.arguments
        if self.pointers:
            data["pointers"] = dict(self.pointers)
        if self.patterns:
            data["patterns"] = dict(self.patterns)
        return data


@dataclass(frozen=True, slots=True)
class EvalCase:
    name: str
    prompt: str  # the user message the run starts with
    history: tuple[ChatMessage, ...] = ()  # earlier messages of a short conversation
    system: str | None = None  # None: the runner's own system prompt
    expected_calls: tuple[ExpectedCall, ...] = ()
    must_not_call: tuple[str, ...] = ()
    answer_contains: tuple[str, ...] = ()  # case-insensitive
    runs: int = 1
    pass_rate: float = 1.0  # the share of runs that must pass, 0..1

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        if self.history:
            data["messages"] = [{"role": m.role, "text": m.text} for m in self.history] + [
                {"role": "user", "text": self.prompt}
            ]
        else:
            data["prompt"] = self.prompt
        if self.system is not None:
            data["system"] = self.system
        if self.expected_calls:
            data["expectedCalls"] = [call.to_json() for call in self.expected_calls]
        if self.must_not_call:
            data["mustNotCall"] = list(self.must_not_call)
        if self.answer_contains:
            data["answerContains"] = list(self.answer_contains)
        data["runs"] = self.runs
        data["passRate"] = self.pass_rate
        return data


@dataclass(frozen=True, slots=True)
class EvalFile:
    cases: tuple[EvalCase, ...]
    source: str = ""
    version: int = EVALS_VERSION

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "cases": [case.to_json() for case in self.cases]}


# ------------------------------------------------------------------ JSON pointers
def _pointer_problem(pointer: str) -> str | None:
    if pointer and not pointer.startswith("/"):
        return "a JSON pointer starts with '/' (or is '' for the whole value)"
    if re.search(r"~(?![01])", pointer):
        return "'~' in a JSON pointer must be '~0' or '~1'"
    return None


def pointer_value(document: Any, pointer: str) -> Any:
    """The value at `pointer` (RFC 6901) in `document`, or `MISSING` when there is none (or
    the pointer is not one: the file's pointers are checked when it is read). The pointer
    rules are the collections' assertions' (collections/pointer)."""
    try:
        tokens = parse_pointer(pointer)
    except ValueError:
        return MISSING
    return resolve_pointer(document, tokens)


# ------------------------------------------------------------------ reading
def load_evals(path: str | Path) -> EvalFile:
    """Read and check an evals file; EvalsFileError says every problem."""
    source = str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise EvalsFileError(source, [f"cannot be read: {exc.strerror or exc}"]) from exc
    if len(raw) > MAX_FILE_BYTES:
        raise EvalsFileError(
            source, [f"the file is over {MAX_FILE_BYTES // (1024 * 1024)} MiB: not an evals file"]
        )
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise EvalsFileError(source, ["is not UTF-8 text"]) from exc
    except ValueError as exc:
        raise EvalsFileError(source, [f"is not JSON: {exc}"]) from exc
    return parse_evals(data, source)


def parse_evals(data: Any, source: str = "") -> EvalFile:
    """Check an evals file's JSON value; EvalsFileError says every problem."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise EvalsFileError(source, ["an evals file is a JSON object with version and cases"])
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        problems.append(f'"version" must be {EVALS_VERSION}')
    elif version > EVALS_VERSION:
        problems.append(f"version {version} is newer than this app reads ({EVALS_VERSION})")
    elif version < 1:
        problems.append(f'"version" must be {EVALS_VERSION}')
    _unknown(data, _FILE_KEYS, "the file", problems)
    defaults = data.get("defaults", {})
    if not isinstance(defaults, dict):
        problems.append('"defaults" must be an object')
        defaults = {}
    _unknown(defaults, _DEFAULT_KEYS, "defaults", problems)
    cases_data = data.get("cases")
    if not isinstance(cases_data, list) or not cases_data:
        problems.append('"cases" must be a non-empty list')
        cases_data = []
    elif len(cases_data) > MAX_CASES:
        problems.append(f'"cases" holds {len(cases_data):,}; at most {MAX_CASES:,}')
        cases_data = []
    cases: list[EvalCase] = []
    names: set[str] = set()
    for index, item in enumerate(cases_data):
        case = _case(item, index, defaults, problems)
        if case is None:
            continue
        if case.name in names:
            problems.append(f"cases[{index}] {json.dumps(case.name)}: the name is used twice")
        names.add(case.name)
        cases.append(case)
    if problems:
        raise EvalsFileError(source, problems)
    return EvalFile(tuple(cases), source, version if isinstance(version, int) else 1)


def _unknown(data: Mapping[str, Any], known: set[str], where: str, problems: list[str]) -> None:
    extra = sorted(set(data) - known)
    if extra:
        problems.append(
            f"{where}: unknown {'keys' if len(extra) > 1 else 'key'} "
            f"{', '.join(json.dumps(k) for k in extra)} (known: {', '.join(sorted(known))})"
        )


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _case(item: Any, index: int, defaults: dict[str, Any], problems: list[str]) -> EvalCase | None:
    where = f"cases[{index}]"
    if not isinstance(item, dict):
        problems.append(f"{where}: a case is an object")
        return None
    name = item.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(f'{where}: "name" must be a non-empty string')
        name = f"case {index + 1}"
    else:
        where = f"{where} {json.dumps(name)}"
    found: list[str] = []
    _unknown(item, _CASE_KEYS, where, found)
    prompt, history = _conversation(item, found)
    system = item.get("system", defaults.get("system"))
    if system is not None and not isinstance(system, str):
        found.append('"system" must be a string')
        system = None
    calls = _calls(item.get("expectedCalls", []), found)
    must_not = _strings(item.get("mustNotCall", []), "mustNotCall", found)
    contains = _strings(item.get("answerContains", []), "answerContains", found)
    runs = item.get("runs", defaults.get("runs", 1))
    if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= MAX_RUNS:
        found.append(f'"runs" must be a whole number from 1 to {MAX_RUNS}, not {_shown(runs)}')
        runs = 1
    rate = item.get("passRate", defaults.get("passRate", 1.0))
    if not _is_number(rate) or not 0 <= rate <= 1:
        found.append(f'"passRate" must be a number from 0 to 1, not {_shown(rate)}')
        rate = 1.0
    problems += [p if p.startswith(where) else f"{where}: {p}" for p in found]
    if found:
        return None
    return EvalCase(
        name=name,
        prompt=prompt,
        history=history,
        system=system,
        expected_calls=calls,
        must_not_call=must_not,
        answer_contains=contains,
        runs=runs,
        pass_rate=float(rate),
    )


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:39] + "…"


def _conversation(item: dict[str, Any], found: list[str]) -> tuple[str, tuple[ChatMessage, ...]]:
    prompt = item.get("prompt", _MISSING)
    messages = item.get("messages", _MISSING)
    if (prompt is _MISSING) == (messages is _MISSING):
        found.append('give either "prompt" or "messages"')
        return "", ()
    if prompt is not _MISSING:
        if not isinstance(prompt, str) or not prompt.strip():
            found.append('"prompt" must be a non-empty string')
        return str(prompt), ()
    if not isinstance(messages, list) or not messages:
        found.append('"messages" must be a non-empty list of {"role", "text"}')
        return "", ()
    history: list[ChatMessage] = []
    for i, message in enumerate(messages):
        place = f"messages[{i}]"
        if not isinstance(message, dict) or set(message) - {"role", "text"}:
            found.append(f'{place} must be an object with "role" and "text"')
            continue
        role, text = message.get("role"), message.get("text")
        if role not in ("user", "assistant"):
            found.append(f'{place}: "role" must be "user" or "assistant", not {_shown(role)}')
        elif not isinstance(text, str):
            found.append(f'{place}: "text" must be a string')
        else:
            history.append(ChatMessage(role, text))
    if history and history[-1].role != "user":
        found.append('the last of "messages" must be the user\'s')
    if not history or found:
        return "", ()
    return history[-1].text, tuple(history[:-1])


def _strings(value: Any, key: str, found: list[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        found.append(f'"{key}" must be a non-empty string or a list of them')
        return ()
    return tuple(value)


def _calls(value: Any, found: list[str]) -> tuple[ExpectedCall, ...]:
    if not isinstance(value, list):
        found.append('"expectedCalls" must be a list')
        return ()
    calls: list[ExpectedCall] = []
    for i, item in enumerate(value):
        place = f"expectedCalls[{i}]"
        if not isinstance(item, dict):
            found.append(f'{place} must be an object with "tool"')
            continue
        before = len(found)
        _unknown(item, _CALL_KEYS, place, found)
        tool = item.get("tool")
        if not isinstance(tool, str) or not tool:
            found.append(f'{place}: "tool" must be a tool\'s name')
        arguments = item.get("arguments")
        if arguments is not None and not isinstance(arguments, dict):
            found.append(f'{place}: "arguments" must be an object (the subset expected)')
        pointers = _pointed(item.get("pointers", {}), f"{place}.pointers", found)
        patterns = _pointed(item.get("patterns", {}), f"{place}.patterns", found)
        for pointer, pattern in patterns:
            if not isinstance(pattern, str):
                found.append(f"{place}.patterns {json.dumps(pointer)}: a regex is a string")
                continue
            try:
                re.compile(pattern)
            except re.error as exc:
                found.append(
                    f"{place}.patterns {json.dumps(pointer)}: not a regular expression ({exc})"
                )
        if len(found) == before:
            calls.append(ExpectedCall(str(tool), arguments, pointers, patterns))
    return tuple(calls)


def _pointed(value: Any, place: str, found: list[str]) -> tuple[tuple[str, Any], ...]:
    if not isinstance(value, dict):
        found.append(f"{place} must be an object of JSON pointer → value")
        return ()
    for pointer in value:
        problem = _pointer_problem(pointer)
        if problem:
            found.append(f"{place} {json.dumps(pointer)}: {problem}")
    return tuple(value.items())


# ------------------------------------------------------------------ from a turn
def case_from_turn(
    turn: TurnRecord, name: str, *, runs: int = 1, pass_rate: float = 1.0
) -> EvalCase:
    """A case that expects what `turn` did: its user text as the prompt, each tool the model
    called with the arguments it sent (as a subset), nothing about the answer (a person adds
    `answerContains` if they want)."""
    calls = tuple(
        ExpectedCall(
            call.tool or call.qualified,
            call.arguments if isinstance(call.arguments, dict) else None,
        )
        for call in turn.tool_calls
        if call.decision in ("sent", "edited")
    )
    return EvalCase(name, turn.user_text, expected_calls=calls, runs=runs, pass_rate=pass_rate)
