"""JUnit XML that CI systems read (Jenkins, GitLab, GitHub reporters): one testsuite of
testcases, each passed, failed, skipped or in error. Shared by `check` and `test`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["JUnitCase", "junit_xml", "xml_text"]

# What XML 1.0 cannot carry (a server's NUL or escape byte would make the file unreadable).
_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """`text` with what XML cannot hold written as a visible escape (\\x00)."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)


@dataclass(frozen=True)
class JUnitCase:
    classname: str
    name: str
    seconds: float | None = None
    failure: tuple[str, str] | None = None  # (message, text)
    error: str | None = None
    skipped: str | None = None
    output: str = ""  # system-out


def junit_xml(suite_name: str, cases: Sequence[JUnitCase]) -> str:
    suite = ET.Element(
        "testsuite",
        name=xml_text(suite_name),
        tests=str(len(cases)),
        failures=str(sum(c.failure is not None for c in cases)),
        errors=str(sum(c.error is not None for c in cases)),
        skipped=str(sum(c.skipped is not None for c in cases)),
    )
    for c in cases:
        attrs = {"classname": xml_text(c.classname), "name": xml_text(c.name)}
        if c.seconds is not None:
            attrs["time"] = f"{c.seconds:.3f}"
        case = ET.SubElement(suite, "testcase", attrs)
        if c.failure is not None:
            fail = ET.SubElement(case, "failure", message=xml_text(c.failure[0][:200]))
            fail.text = xml_text(c.failure[1])
        if c.error is not None:
            ET.SubElement(case, "error", message=xml_text(c.error[:200])).text = xml_text(c.error)
        if c.skipped is not None:
            ET.SubElement(case, "skipped", message=xml_text(c.skipped))
        if c.output:
            ET.SubElement(case, "system-out").text = xml_text(c.output)
    return ET.tostring(suite, encoding="unicode", xml_declaration=True)
