"""Skills over MCP, Qt-free: the frontmatter split and safe-loaded, the Agent Skills and
SEP-2640 rules as findings, the skills found among listed resources, a SKILL.md read."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.features.skills.discovery import SkillEntry, find_skills
from inspector.features.skills.findings import Severity
from inspector.features.skills.frontmatter import MAX_FRONTMATTER, split_frontmatter
from inspector.features.skills.inspect import MAX_SKILL_CHARS, inspect_skill, inspect_text
from inspector.features.skills.listing import declares_skills, parse_listing
from tests.servers.misbehaving.skills_server import SKILLS, skill_entries


def _entry(uri: str, **listed: Any) -> SkillEntry:
    return SkillEntry(uri, {"uri": uri, "mimeType": "text/markdown", **listed})


def _report(uri: str, text: str | None = None) -> Any:
    return inspect_text(_entry(uri), SKILLS[uri] if text is None else text)


def _sentences(report: Any, severity: Severity | None = None) -> list[str]:
    return [f.line() for f in report.findings if severity is None or f.severity is severity]


def test_the_good_skill_conforms() -> None:
    report = _report("skill://pdf-tools/SKILL.md")
    assert report.findings == []
    assert report.verdict() == "conforms"
    assert report.fields["metadata"] == {"author": "example-org", "version": "1.0"}
    assert report.front is not None and report.front.body.startswith("# PDF tools")


def test_each_broken_skill_says_what_is_wrong() -> None:
    bad = _sentences(_report("skill://bad-name/SKILL.md"), Severity.ERROR)
    assert any("upper-case letters" in s for s in bad)
    assert any("other than letters, digits and hyphens: '_'" in s for s in bad)
    assert any("differs from the last segment of the skill's URI 'bad-name'" in s for s in bad)

    missing = _sentences(_report("skill://no-description/SKILL.md"))
    assert missing == ["error  description: the required field 'description' is missing"]

    plain = _sentences(_report("skill://plain-notes/SKILL.md"))
    assert plain == [
        "error  frontmatter: SKILL.md does not begin with YAML frontmatter (a first line '---')"
    ]

    broken = _sentences(_report("skill://broken-yaml/SKILL.md"))
    assert len(broken) == 1 and "began at line 3, column 14" in broken[0]

    refunds = _report("skill://acme/billing/refunds/SKILL.md")
    errors = _sentences(refunds, Severity.ERROR)
    assert errors == [
        "error  uri: 'name' 'refund-handling' differs from the last segment of the skill's "
        "URI 'refunds' ('skill://acme/billing/refunds/SKILL.md'); the two must be equal"
    ]
    notes = " ".join(_sentences(refunds, Severity.NOTE))
    assert "'disable-model-invocation' is not a field of the Agent Skills spec" in notes
    assert "asks for pre-approved tools 'Bash(curl:*) Read'" in notes


def test_hidden_characters_are_shown_escaped() -> None:
    report = _report("skill://hidden-text/SKILL.md")
    warnings = _sentences(report, Severity.WARNING)
    assert len(warnings) == 2
    assert "Summarise a document\\u200b politely." in warnings[0]
    assert "hold 8 character(s)" in warnings[1]
    assert "\\U000e0049\\U000e0067" in warnings[1] and "line 7" in warnings[1]
    assert all("\u200b" not in w and "\U000e0049" not in w for w in warnings)


def test_a_huge_skill_md_is_cut_and_said() -> None:
    report = _report("skill://huge-skill/SKILL.md")
    assert report.cut and len(report.text) == MAX_SKILL_CHARS
    lines = _sentences(report)
    assert lines[0].startswith("warning  size: SKILL.md is 1.2 MiB of text, over the 1.0 MiB")
    assert any("lines long; the spec recommends under 500" in s for s in lines)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pdf", []),
        ("-pdf", ["starts or ends with a hyphen"]),
        ("pdf--x", ["two hyphens in a row"]),
        ("a" * 65, ["65 characters, over the 64 allowed"]),
        ("données", []),  # the spec allows Unicode lower-case letters
        ("12", ["it is a number (12)"]),  # YAML reads 12 as a number
        (True, ["it is a boolean (true)"]),
        ("", ["it is empty"]),
    ],
)
def test_name_rules(name: object, expected: list[str]) -> None:
    dir_name = name if isinstance(name, str) and name else "x"
    front = (
        f"---\nname: {name!s}\ndescription: d\n---\n"
        if name != ""
        else "---\nname: ''\ndescription: d\n---\n"
    )
    report = inspect_text(_entry(f"skill://{dir_name}/SKILL.md"), front)
    found = [f.sentence for f in report.findings if f.field == "name"]
    assert len(found) == len(expected)
    for sentence, part in zip(found, expected, strict=True):
        assert part in sentence


def test_description_compatibility_metadata_and_listing() -> None:
    long = "x" * 1025
    text = f"---\nname: s\ndescription: {long}\ncompatibility: ''\nmetadata:\n  version: 1.0\n---\n"
    report = inspect_text(_entry("skill://s/SKILL.md", name="other", mimeType="text/plain"), text)
    lines = _sentences(report)
    assert "error  description: 'description' is 1,025 characters, over the 1,024 allowed" in lines
    assert any("'compatibility' must be 1-500 characters" in s for s in lines)
    assert any("'metadata' values must be strings; not so for 'version'" in s for s in lines)
    assert any("mimeType is 'text/plain'; it should be 'text/markdown'" in s for s in lines)
    assert any("the resource's name 'other' differs from the frontmatter's 's'" in s for s in lines)


def test_hostile_frontmatter_is_refused_with_a_sentence() -> None:
    bomb = "---\na: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\nname: x\ndescription: d\n---\n"
    assert "uses a YAML alias (line 3)" in (split_frontmatter(bomb).problem or "")
    deep = "---\nname: " + "[" * 3000 + "]" * 3000 + "\n---\n"
    assert split_frontmatter(deep).problem is not None
    big = "---\nname: x\ndescription: " + "y" * MAX_FRONTMATTER + "\n---\n"
    assert "this inspector parses" in (split_frontmatter(big).problem or "")
    twice = split_frontmatter("---\nname: a\nname: b\ndescription: d\n---\n")
    assert twice.duplicates == ["name"]
    assert split_frontmatter("---\nname: a\n").problem == (
        "the frontmatter is never closed: no second line '---' after the first"
    )
    assert split_frontmatter("---\n- a\n---\n").problem == (
        "the frontmatter is a list, not a mapping of fields"
    )
    assert split_frontmatter("---\r\nname: a\r\ndescription: d\r\n---\r\nbody").fields == {
        "name": "a",
        "description": "d",
    }
    tagged = split_frontmatter("---\nname: !!python/object:os.system x\n---\n")
    assert tagged.fields is None and "not valid YAML" in (tagged.problem or "")


def test_skills_are_found_among_listed_resources() -> None:
    listed = [
        {"uri": "skill://pdf/SKILL.md", "name": "pdf"},
        {"uri": "skill://pdf/references/FORMS.md"},
        {"uri": "skill://pdf/inner/SKILL.md"},
        {"uri": "skill://acme/billing/refunds/SKILL.md"},
        {"uri": "skill://lost/file.md"},
        {"uri": "file:///SKILL.md"},
        {"uri": 7},
        "junk",
    ]
    templates = [{"uriTemplate": "skill://{name}/SKILL.md"}, {"uriTemplate": "file:///{x}"}]
    found = find_skills(listed, templates)  # type: ignore[arg-type]
    assert [s.uri for s in found.skills] == [
        "skill://acme/billing/refunds/SKILL.md",
        "skill://pdf/SKILL.md",
        "skill://pdf/inner/SKILL.md",
    ]
    pdf = found.skills[1]
    assert [pdf.file_path(u) for u in pdf.files] == ["inner/SKILL.md", "references/FORMS.md"]
    assert found.skills[0].skill_path == "acme/billing/refunds"
    assert found.skills[0].dir_name == "refunds"
    assert found.stray == ["skill://lost/file.md"]
    assert [t["uriTemplate"] for t in found.templates] == ["skill://{name}/SKILL.md"]
    assert not find_skills([{"uri": "notes://a"}])


async def test_a_read_that_fails_or_holds_no_text_is_a_finding() -> None:
    entry = _entry("skill://pdf/SKILL.md")

    async def fails(_uri: str) -> dict[str, Any]:
        raise RuntimeError("Resource not found")

    async def empty(_uri: str) -> dict[str, Any]:
        return {"contents": []}

    async def blob(uri: str) -> dict[str, Any]:
        data = (
            "LS0tCm5hbWU6IHBkZgpkZXNjcmlwdGlvbjogZAotLS0K"  # ---\nname: pdf\ndescription: d\n---\n
        )
        return {"contents": [{"uri": uri, "blob": data}]}

    failed = await inspect_skill(entry, fails)
    assert failed.verdict() == "could not be read"
    assert failed.findings[0].line() == "error  read: could not read SKILL.md: Resource not found"
    nothing = await inspect_skill(entry, empty)
    assert "the read result holds no text: 'contents' is empty" in nothing.findings[0].sentence
    decoded = await inspect_skill(entry, blob)
    assert decoded.verdict() == "conforms"


def test_skills_list_entries_are_held_to_the_file() -> None:
    listed, bad = parse_listing([*skill_entries(), {"no": "uri"}, {"uri": "skill://x/SKILL.md"}])
    assert bad == ["skills/list entry 3 has no uri"]
    assert declares_skills({"extensions": {"io.modelcontextprotocol/skills": {}}})
    assert not declares_skills({"extensions": {"io.modelcontextprotocol/skills": True}})
    resources = [{"uri": "skill://pdf-tools/SKILL.md", "mimeType": "text/markdown"}]
    found = find_skills(resources, [], listed)
    by_uri = {s.uri: s for s in found.skills}
    pdf = by_uri["skill://pdf-tools/SKILL.md"]
    assert [pdf.file_path(u) for u in pdf.files] == ["references/FORMS.md", "scripts/extract.py"]
    assert inspect_text(pdf, SKILLS[pdf.uri]).findings == []  # frontmatter and digest agree

    refunds = inspect_text(
        by_uri["skill://acme/billing/refunds/SKILL.md"],
        SKILLS["skill://acme/billing/refunds/SKILL.md"],
    )
    listing = [f.sentence for f in refunds.findings if f.field == "listing"]
    assert (
        "the skills/list entry lists 'description' = 'Refunds, any way you like.', but the "
        "SKILL.md has 'Process refund requests per policy.'; the two must be identical (a "
        "host must not load the skill)"
    ) in listing
    assert any("lacks 'allowed-tools', but the SKILL.md has" in s for s in listing)

    only = by_uri["skill://listed-only/SKILL.md"]
    assert only.resource == {}  # known from skills/list alone
    text = "---\nname: listed-only\ndescription: Found through skills/list only.\n---\n"
    [wrong] = inspect_text(only, text).findings
    assert wrong.sentence.startswith("the SKILL.md read does not match its listed digest")

    broken = find_skills(
        [],
        [],
        parse_listing(
            [
                {
                    "uri": "skill://y/SKILL.md",
                    "resources": [{"uri": "skill://elsewhere/a.md", "digest": "md5:1"}],
                }
            ]
        )[0],
    ).skills[0]
    lines = [
        f.sentence for f in inspect_text(broken, "---\nname: y\ndescription: d\n---\n").findings
    ]
    assert (
        "the skills/list entry: its 'frontmatter' is missing or not an object (it is required)"
        in lines
    )
    assert "the entry's 'resources' lacks the SKILL.md itself" in lines
    assert "'resources' lists 'skill://elsewhere/a.md', outside the skill's directory" in lines
    assert any(
        "the digest of 'skill://elsewhere/a.md' is 'md5:1', not 'sha256:'" in s for s in lines
    )


def test_thousands_of_skills_are_sorted_out_by_their_paths() -> None:
    """3,000 skills of 4 files each: every file goes to its skill by its path's ancestors
    (a scan of every skill per file took about a minute for this, under the test timeout
    before; it is a fraction of a second now, bench/skill_inspect.py has the figure)."""
    listing = [
        {"uri": f"skill://team-{i % 30}/skill-{i}/{name}"}
        for i in range(3000)
        for name in ("SKILL.md", "references/GUIDE.md", "scripts/run.py", "inner/SKILL.md")
    ]
    found = find_skills(listing)
    assert len(found.skills) == 6000 and not found.stray
    outer = next(s for s in found.skills if s.uri == "skill://team-7/skill-7/SKILL.md")
    assert [outer.file_path(u) for u in outer.files] == [
        "inner/SKILL.md",
        "references/GUIDE.md",
        "scripts/run.py",
    ]
