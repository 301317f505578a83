"""Run evals: each case its number of times, a fresh conversation per run, at most
`concurrency` runs at once, over the same tool table (the same connections), each run judged
(`judge.py`) and the whole gathered into a report (`report.py`).

    runner = EvalRunner(model, table, EvalSettings(model="gpt-4o-mini", policy="all"))
    report = await runner.run(evals_file.cases, on_run=view.add_run)
    runner.stop()  # from elsewhere: the runs in flight stop, the others do not start

Used by `mcp-inspector-qt eval` and the app's Evals view. A run that fails in an unforeseen
way is a failed run with its sentence; the other runs go on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from inspector.evals.cases import EvalCase
from inspector.evals.judge import Verdict, judge
from inspector.evals.report import CaseRuns, EvalReport, build_report
from inspector.host.engine import TurnEngine
from inspector.host.interface import Approver, ChatModel
from inspector.host.records import Conversation, TurnRecord
from inspector.host.tool_table import ToolTable

__all__ = ["EvalRun", "EvalRunner", "EvalSettings"]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class EvalSettings:
    """What every run's conversation starts with (a case's own `system` wins)."""

    model: str = ""
    provider: str = ""
    system: str = ""
    include_instructions: bool = True
    policy: str = "all"
    max_steps: int = 10
    tool_timeout: float | None = None
    concurrency: int = 4


@dataclass(slots=True)
class EvalRun:
    """One run of a case: its number (1-based), the conversation it had and its verdict."""

    case: EvalCase
    number: int
    conversation: Conversation
    verdict: Verdict
    seconds: float = 0.0

    @property
    def turn(self) -> TurnRecord | None:
        return self.conversation.turns[-1] if self.conversation.turns else None


@dataclass(slots=True)
class EvalRunner:
    """Runs cases over `table` with `model`; `approver` decides what the policy does not let
    through on its own (None: such calls are refused and the model told so)."""

    model: ChatModel
    table: ToolTable
    settings: EvalSettings = field(default_factory=EvalSettings)
    approver: Approver | None = None
    runs: list[EvalRun] = field(default_factory=list)  # every finished run, in finishing order
    _engines: set[TurnEngine] = field(default_factory=set)
    _stopped: bool = False

    def stop(self) -> None:
        """The runs in flight stop (their model request or tool call cancelled); the runs
        not started yet do not start (a report counts them as not run)."""
        self._stopped = True
        for engine in list(self._engines):
            engine.stop()

    @property
    def stopped(self) -> bool:
        return self._stopped

    async def run(
        self,
        cases: Sequence[EvalCase],
        *,
        on_run: Callable[[EvalRun], None] | None = None,
    ) -> EvalReport:
        """Every run of every case, then the report (cases in the order given)."""
        self._stopped = False
        gate = asyncio.Semaphore(max(1, self.settings.concurrency))
        by_case: dict[int, list[EvalRun]] = {index: [] for index in range(len(cases))}

        async def one(index: int, case: EvalCase, number: int) -> None:
            async with gate:
                if self._stopped:
                    return
                result = await self._run_once(case, number)
            by_case[index].append(result)
            self.runs.append(result)
            if on_run is not None:
                try:
                    on_run(result)
                except Exception:  # a view's bug must not end the evals
                    log.exception("an evals listener failed")

        await asyncio.gather(
            *(
                one(index, case, number)
                for index, case in enumerate(cases)
                for number in range(1, case.runs + 1)
            )
        )
        results = []
        for index, case in enumerate(cases):
            done = sorted(by_case[index], key=lambda r: r.number)
            results.append(
                CaseRuns(case, tuple(r.verdict for r in done), sum(r.seconds for r in done))
            )
        return build_report(results)

    async def _run_once(self, case: EvalCase, number: int) -> EvalRun:
        settings = self.settings
        conversation = Conversation(
            provider=settings.provider,
            model=settings.model,
            system_prompt=case.system if case.system is not None else settings.system,
            include_instructions=settings.include_instructions,
            tabs=sorted({tool.tab for tool in self.table}),
            policy=settings.policy,
            max_steps=settings.max_steps,
        )
        engine = TurnEngine(
            self.model,
            self.table,
            conversation,
            approver=self.approver,
            tool_timeout=settings.tool_timeout,
        )
        engine.history = list(case.history)
        started = time.monotonic()
        self._engines.add(engine)
        try:
            turn = await engine.run_turn(case.prompt)
            verdict = judge(case, turn)
        except Exception as exc:  # the engine ends turns itself; this is a bug's safety net
            log.exception("eval run %s #%d failed", case.name, number)
            verdict = Verdict(False, (f"the run failed: {exc}",))
        finally:
            self._engines.discard(engine)
        return EvalRun(case, number, conversation, verdict, time.monotonic() - started)
