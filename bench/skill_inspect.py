"""Benchmark: one SKILL.md inspected (Qt-free): split, its frontmatter safe-loaded, every
rule of `inspector/features/skills` applied, its body scanned for hidden characters.

Two texts: a SKILL.md at the inspector's 1 MiB cap (ASCII instructions: the common case)
and one of 200,000 characters with a non-ASCII character on every line (each line then
scanned character by character). The floor, in the same run: the same text split into
lines and encoded as UTF-8 (what any reader of the file does at least).

    python bench/skill_inspect.py [--runs 5]

Reports milliseconds for each and the RATIO inspect/floor. Then the skills found among a
listing of 10,000 skills with 3 files each (40,000 resources; the explorer's list changes
call it), against the floor of sorting those URIs.
"""

from __future__ import annotations

import argparse
import time

from inspector.features.skills.discovery import SkillEntry, find_skills
from inspector.features.skills.inspect import MAX_SKILL_CHARS, inspect_text

_HEAD = "---\nname: bench\ndescription: A skill to time the inspection.\nlicense: MIT\n---\n"


def _texts() -> dict[str, str]:
    ascii_line = "Read the form, fill each field, and check the totals before you send it.\n"
    wide_line = "Résumé: fill each field — the totals are in € and checked twice, please.\n"
    return {
        "1 MiB ASCII": (_HEAD + ascii_line * (MAX_SKILL_CHARS // len(ascii_line)))[
            :MAX_SKILL_CHARS
        ],
        "200k non-ASCII": _HEAD + wide_line * (200_000 // len(wide_line)),
    }


def _best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    skill = SkillEntry("skill://bench/SKILL.md", {"uri": "skill://bench/SKILL.md"})
    for label, text in _texts().items():
        report = inspect_text(skill, text)
        inspect = _best(args.runs, lambda t=text: inspect_text(skill, t))
        floor = _best(args.runs, lambda t=text: (t.split("\n"), t.encode("utf-8")))
        print(f"{label}: {len(text):,} characters, {len(report.findings)} finding(s)")
        print(f"  inspect: {inspect * 1000:.1f} ms   floor: {floor * 1000:.1f} ms")
        print(f"  RATIO inspect/floor: {inspect / floor:.1f}x")
    listing = [
        {"uri": f"skill://team-{i % 50}/skill-{i}/{f}"}
        for i in range(10_000)
        for f in ("SKILL.md", "references/GUIDE.md", "scripts/run.py", "assets/a.png")
    ]
    found = find_skills(listing)
    assert len(found.skills) == 10_000 and all(len(s.files) == 3 for s in found.skills)
    discover = _best(args.runs, lambda: find_skills(listing))
    floor = _best(args.runs, lambda: sorted(r["uri"] for r in listing))
    print(f"find_skills, {len(listing):,} resources: {discover * 1000:.1f} ms")
    print(f"  floor (sorting the URIs): {floor * 1000:.1f} ms")
    print(f"  RATIO find/floor: {discover / floor:.1f}x")


if __name__ == "__main__":
    main()
