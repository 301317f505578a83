"""The battery: every check in order against one server, each bounded in time; a check
that breaks the connection fails with its evidence and the next one reconnects."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Final

from inspector.check.cache_checks import CACHE_CHECKS
from inspector.check.card_checks import CARD_CHECKS
from inspector.check.probe import CheckContext, CheckOptions
from inspector.check.protocol_checks import LINT_CHECK, PROTOCOL_CHECKS
from inspector.check.report import CheckReport, CheckResult, Status
from inspector.check.session_checks import SESSION_CHECKS
from inspector.check.skill_checks import SKILL_CHECKS
from inspector.check.spec import Check
from inspector.check.transport_checks import TRANSPORT_CHECKS
from inspector.protocol.wire.versions import Era
from inspector.session import ConnectError, RequestError
from inspector.settings.connect import SetupError
from inspector.settings.profiles import Profile
from inspector.storage.secrets import SecretStore
from inspector.transports.streamable_http import SESSION_ID_REFUSED

__all__ = ["ALL_CHECKS", "run_battery"]

log = logging.getLogger(__name__)

ALL_CHECKS: Final[tuple[Check, ...]] = (
    *PROTOCOL_CHECKS,
    *TRANSPORT_CHECKS,
    *SESSION_CHECKS,
    *CACHE_CHECKS,
    *CARD_CHECKS,
    *SKILL_CHECKS,
    LINT_CHECK,
)


def _not_applicable(check: Check, ctx: CheckContext) -> str | None:
    if check.transport and check.transport != ctx.transport_kind:
        return f"applies to {check.transport} servers only"
    era = "modern" if ctx.era is Era.MODERN else "legacy"
    if check.era and check.era != era:
        return f"applies to the {check.era} era only"
    return None


async def _run_one(check: Check, ctx: CheckContext) -> CheckResult:
    start = time.monotonic()
    why = _not_applicable(check, ctx)
    if why is not None:
        return CheckResult(check.id, check.title, Status.SKIPPED, why, check.rule)
    try:
        status, evidence = await asyncio.wait_for(check.run(ctx), ctx.options.check_timeout)
    except TimeoutError:
        status = Status.FAILED
        evidence = f"no end within {ctx.options.check_timeout:g} s (the server hangs?)"
        await ctx.drop()
    except ConnectError as exc:
        status, evidence = Status.FAILED, f"could not reconnect: {exc}"
    except RequestError as exc:
        status, evidence = Status.FAILED, f"{exc}"
        await ctx.drop()  # the next check starts on a fresh connection if this one broke
    except Exception as exc:  # a check must never stop the battery
        log.exception("check %s stopped", check.id)
        status, evidence = Status.FAILED, f"the check stopped: {type(exc).__name__}: {exc}"
        await ctx.drop()
    return CheckResult(
        check.id, check.title, status, evidence, check.rule, time.monotonic() - start
    )


async def run_battery(
    profile: Profile,
    options: CheckOptions | None = None,
    *,
    secrets: SecretStore | None = None,
    progress: Callable[[CheckResult], None] | None = None,
    checks: tuple[Check, ...] = ALL_CHECKS,
) -> CheckReport:
    """Run `checks` against the server of `profile`; `progress` hears each result."""
    options = options or CheckOptions()
    ctx = CheckContext(profile, options, secrets)
    report = CheckReport(target=profile.target, era=str(profile.era))
    try:
        try:
            await asyncio.wait_for(ctx.live(), options.timeout + 5)
        except (ConnectError, SetupError, TimeoutError, OSError) as exc:
            reason = str(exc) or type(exc).__name__
            if SESSION_ID_REFUSED in reason:  # reached, and broke a rule: a failed check
                report.results.append(_refused_session_id(reason))
            else:
                report.unreachable = reason
            return report
        report.version = ctx.ready_version
        report.era = str(ctx.era)
        report.server = ctx.server_info
        for check in checks:
            result = await _run_one(check, ctx)
            report.results.append(result)
            if progress is not None:
                progress(result)
    finally:
        await ctx.close()
    return report


def _refused_session_id(reason: str) -> CheckResult:
    """The server answered initialize with a session id the client must refuse (so no
    session, and no other check can run): the session-id check fails with the evidence."""
    check = next(c for c in ALL_CHECKS if c.id == "http.session-id")
    return CheckResult(
        check.id,
        check.title,
        Status.FAILED,
        f"{reason} (no session: the other checks could not run)",
        check.rule,
    )
