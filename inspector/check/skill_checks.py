"""The skills check: each skill a server exposes as a `skill://…/SKILL.md` resource
(SEP-2640) read, and its frontmatter and text held to the rules of
`inspector/features/skills` (the Agent Skills spec's name and description rules, the name
equal to the URI's last segment, hidden characters, size). The same findings as the
Skills view. A server that declares the Skills extension has its `skills/list` entries
checked too (their frontmatter against the file's, their digests). A server that lists no
skill:// resource skips it: no finding."""

from __future__ import annotations

from typing import Final

from inspector.check.probe import CheckContext
from inspector.check.spec import Check, Outcome, fail, ok, skip
from inspector.features.skills.discovery import find_skills
from inspector.features.skills.findings import Severity
from inspector.features.skills.inspect import SkillReport, inspect_skill
from inspector.features.skills.listing import ListedSkill, declares_skills, parse_listing
from inspector.session import ServerError

__all__ = ["MAX_SKILLS_READ", "SKILL_CHECKS"]

MAX_SKILLS_READ: Final = 25
_FINDINGS_SHOWN: Final = 4  # per skill, in the evidence


def _lines(report: SkillReport, severities: tuple[Severity, ...]) -> list[str]:
    found = [f for f in report.findings if f.severity in severities]
    lines = [f"  {f.line()}" for f in found[:_FINDINGS_SHOWN]]
    if len(found) > _FINDINGS_SHOWN:
        lines.append(f"  … and {len(found) - _FINDINGS_SHOWN} more")
    return [f"{report.skill.uri}: {report.verdict()}", *lines]


async def _listed(ctx: CheckContext) -> tuple[list[ListedSkill], list[str]]:
    """The server's skills/list entries, when it declares the Skills extension (a failure
    of the method it must implement is a problem of its own)."""
    if not declares_skills(ctx.capabilities):
        return [], []
    session = await ctx.live()
    try:
        return parse_listing(await session.list_skills())
    except ServerError as exc:
        return [], [f"skills/list failed, though the server declares the Skills extension: {exc}"]


async def _skills(ctx: CheckContext) -> Outcome:
    session = await ctx.live()
    listed, problems = await _listed(ctx)
    if "resources" not in ctx.capabilities and not listed and not problems:
        return skip("the server does not declare resources (so no skill:// resources)")
    resources = await session.list_resources() if "resources" in ctx.capabilities else []
    try:
        templates = await session.list_resource_templates() if resources else []
    except ServerError:  # a server without templates may not know the method
        templates = []
    found = find_skills(resources, templates, listed)
    if problems and not found.skills:
        return fail("\n".join(problems))
    if not found.skills:
        if found.templates:
            return skip(
                f"the server lists {len(found.templates)} skill:// template(s) and no "
                "skill:// SKILL.md resource to read"
            )
        return skip("the server lists no skill:// resources")
    reports = [
        await inspect_skill(skill, session.read_resource)
        for skill in found.skills[:MAX_SKILLS_READ]
    ]
    left = len(found.skills) - len(reports)
    more = f" ({left} more not read)" if left > 0 else ""
    bad = [r for r in reports if r.count(Severity.ERROR) or r.count(Severity.WARNING)]
    if bad or problems:
        # One line per skill first (a terminal's table shows the first lines), then each
        # skill's findings (the JSON report keeps all).
        heads = [f"  {r.skill.uri}: {r.verdict()}: {r.findings[0].sentence}" for r in bad]
        details = [line for r in bad for line in _lines(r, (Severity.ERROR, Severity.WARNING))]
        good = len(reports) - len(bad)
        return fail(
            f"{len(bad)} of {len(reports)} skill(s) break the rules{more}; {good} conform:\n"
            + "\n".join([*problems, *heads, "in full:", *details])
        )
    noted = [line for r in reports if r.findings for line in _lines(r, (Severity.NOTE,))]
    notes = ("; notes:\n" + "\n".join(noted)) if noted else ""
    return ok(f"{len(reports)} skill(s) read, each conforms{more}{notes}")


SKILL_CHECKS: Final[tuple[Check, ...]] = (
    Check(
        "skills.frontmatter",
        "each skill:// SKILL.md has a valid frontmatter (name, description) and hides nothing",
        "SEP-2640 (Skills Extension) § Skill Format and Resource Mapping; Agent Skills spec "
        "§ Frontmatter: name 1-64 lower-case letters, digits and hyphens, equal to the "
        "skill's directory; description 1-1024 characters",
        _skills,
    ),
)
