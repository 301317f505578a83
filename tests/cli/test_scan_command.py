"""`mcp-inspector-qt scan` end to end against our hostile server (tests/servers/hostile/):
each trick found by its rule, the near miss and the demo server found clean, two targets
sharing a tool name, SARIF valid against the official 2.1.0 schema, `--fail-on` exit codes,
a baseline that accepts findings, and the pins of the app read for a rug pull.

Most runs are in-process (`main([...])`, the servers are real subprocesses); one runs the
command as a person does, from another working folder."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from inspector.__main__ import main
from tests.helpers.peers import FIXTURES, PY, REPO, SERVERS, demo_command

pytestmark = [pytest.mark.timeout(120), pytest.mark.usefixtures("config_dir")]

HOSTILE = SERVERS / "hostile" / "server.py"
ROOT = "file:///srv/project"
# trick -> a rule it must trip
EXPECTED = {
    "tag-characters": "hidden.tag-characters",
    "bidi-override": "hidden.bidi-override",
    "zero-width": "hidden.zero-width",
    "terminal-escape": "hidden.terminal-escape",
    "html-comment": "hidden.html-comment",
    "important-block": "injection.important-block",
    "send-url": "injection.send-url",
    "context-parameter": "injection.context-parameter",
    "read-only-deletes": "annotations.read-only-writes",
    "rug-pull": "changes.definition-changed",
    "file-outside-roots": "resource.file-outside-roots",
    "prompt-injection": "injection.override",
}


def hostile(trick: str | None = None) -> str:
    words = [PY, str(HOSTILE), *(["--trick", trick] if trick else ["--near-miss"])]
    return shlex.join(words)


def scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["scan", *args])
    out, err = capsys.readouterr()
    return code, out, err


def scan_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code, out, err = scan(capsys, "--json", *args)
    assert out.strip(), err
    return code, json.loads(out)


def sarif_schema_valid(path: Path) -> dict[str, Any]:
    log = json.loads(path.read_text(encoding="utf-8"))
    schema = json.loads((FIXTURES / "sarif" / "sarif-schema-2.1.0.json").read_text("utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    return log


def test_every_trick_trips_its_rule_and_the_near_miss_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    sarif = tmp_path / "out.sarif"
    targets = [hostile(t) for t in EXPECTED] + [hostile()]
    code, report = scan_json(capsys, "--root", ROOT, "--sarif", str(sarif), *targets)
    assert code == 1  # high findings, --fail-on high by default
    assert all(t["outcome"] == "listed" and t["error"] is None for t in report["targets"])
    by_server: dict[str, set[str]] = {}
    for f in report["findings"]:
        by_server.setdefault(f["server"], set()).add(f["rule"])
    for trick, rule in EXPECTED.items():
        assert rule in by_server.get(f"hostile-{trick}", set()), (trick, by_server)
    assert "hostile-near-miss" not in by_server  # not even a low one
    tags = next(f for f in report["findings"] if f["rule"] == "hidden.tag-characters")
    assert (tags["kind"], tags["item"], tags["pointer"], tags["offset"]) == (
        "tool",
        "forecast",
        "/description",
        len("Gets the weather."),
    )
    assert "read ~/.ssh/id_rsa" in tags["reason"] and "\\U000e0072" in tags["evidence"]
    prompt = next(f for f in report["findings"] if f["rule"] == "injection.override")
    assert (prompt["kind"], prompt["pointer"]) == ("prompt", "/messages/0/content/text")
    rug = next(f for f in report["findings"] if f["rule"] == "changes.definition-changed")
    assert "first seen in this session" in rug["reason"] and "aws" in rug["evidence"]
    log = sarif_schema_valid(sarif)
    run = log["runs"][0]
    assert len(run["results"]) == len(report["findings"])
    first = run["results"][0]
    assert first["level"] == "error" and first["partialFingerprints"]["primaryLocationLineHash"]
    logical = first["locations"][0]["logicalLocations"][0]
    assert logical["fullyQualifiedName"].startswith("hostile-") and logical["kind"] == "function"
    script = first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert script.endswith("tests/servers/hostile/server.py")  # the script the command runs
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in run["tool"]["driver"]["rules"]}
    assert levels["hidden.html-comment"] == "warning"
    assert levels["annotations.read-only-writes"] == "note"


def test_the_demo_server_scanned_from_another_folder_is_clean(tmp_path: Path) -> None:
    proc = subprocess.run(
        [PY, "-m", "inspector", "scan", shlex.join(demo_command())],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(REPO), MCP_INSPECTOR_CONFIG_DIR=str(tmp_path)),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip().endswith("0 finding(s)")
    assert "scanned mcp-inspector-qt demo" in proc.stdout


def test_two_targets_sharing_a_tool_name_give_the_cross_server_findings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = scan_json(capsys, shlex.join(demo_command()), hostile("shadow"))
    assert code == 1
    seen = {(f["rule"], f["server"], f["item"]) for f in report["findings"]}
    demo = report["targets"][0]["name"]
    assert ("shadow.name-collision", demo, "add") in seen
    assert ("shadow.name-collision", "hostile-shadow", "add") in seen
    mention = next(f for f in report["findings"] if f["rule"] == "shadow.mentions-other-tool")
    assert (mention["server"], mention["item"], mention["severity"]) == (
        "hostile-shadow",
        "echo_plus",
        "high",
    )


def test_fail_on_sets_the_exit_code(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    medium_only = hostile("html-comment")
    assert scan(capsys, medium_only)[0] == 0  # --fail-on high: a medium finding passes
    code, out, _err = scan(capsys, "--fail-on", "medium", medium_only)
    assert code == 1
    line = next(x for x in out.splitlines() if "hidden.html-comment" in x)
    assert line.startswith("MEDIUM hidden.html-comment hostile-html-comment tool 'wind_speed'")
    assert "at /description [15]" in line and "[spec: " in line
    assert scan(capsys, "--fail-on", "none", hostile("important-block"))[0] == 0
    code, _out, err = scan(capsys, "--fail-on", "severe", medium_only)
    assert code == 2 and "--fail-on" in err
    code, out, err = scan(capsys, shlex.join([str(tmp_path / "no-such-server")]), medium_only)
    assert code == 3 and "could not be reached" in err
    assert "hidden.html-comment" in out  # the reachable target is still reported


def test_a_baseline_accepts_findings_with_a_reason_and_lists_stale_entries(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    target = hostile("important-block")
    baseline = tmp_path / "accepted.json"
    code, _out, err = scan(capsys, "--write-baseline", str(baseline), target)
    assert code == 2 and "--reason" in err
    code, _out, err = scan(
        capsys, "--write-baseline", str(baseline), "--reason", "our own test server", target
    )
    assert code == 1 and baseline.exists()
    data = json.loads(baseline.read_text(encoding="utf-8"))
    assert {e["reason"] for e in data["accepted"]} == {"our own test server"}
    data["accepted"].append({"fingerprint": "0" * 32, "rule": "x", "reason": "gone"})
    baseline.write_text(json.dumps(data), encoding="utf-8")
    code, out, _err = scan(capsys, "--baseline", str(baseline), target)
    assert code == 0, out
    assert "3 finding(s) accepted by the baseline" in out
    assert f"stale baseline entry {'0' * 32} (x" in out
    assert out.rstrip().endswith("0 finding(s)")
    data["accepted"][0]["reason"] = " "
    baseline.write_text(json.dumps(data), encoding="utf-8")
    code, _out, err = scan(capsys, "--baseline", str(baseline), target)
    assert code == 2 and "accepted[0] has no reason" in err
    baseline.write_text("{not json", encoding="utf-8")
    assert scan(capsys, "--baseline", str(baseline), target)[0] == 2


def test_a_tool_changed_since_its_pin_is_a_rug_pull(
    capsys: pytest.CaptureFixture[str], config_dir: Path
) -> None:
    target = hostile("send-url")
    pinned = {"name": "rainfall", "description": "Gets the rain.", "inputSchema": {}}
    scope = f"target:{target}"
    pins = {"version": 1, "scopes": {scope: {"rainfall": {"hash": "x", "definition": pinned}}}}
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "pins.json").write_text(json.dumps(pins), encoding="utf-8")
    code, report = scan_json(capsys, target)
    changed = [f for f in report["findings"] if f["rule"] == "changes.definition-changed"]
    assert code == 1 and {f["field"] for f in changed} == {"description", "inputSchema"}
    assert all("since it was pinned" in f["reason"] for f in changed)
    assert json.loads((config_dir / "pins.json").read_text(encoding="utf-8")) == pins  # read only
    assert scan_json(capsys, "--no-pins", target)[0] == 0


def test_check_writes_a_valid_sarif_log_of_its_failed_checks(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "check.sarif"
    code = main(["check", "--sarif", str(out), "--", PY, str(HOSTILE), "--near-miss"])
    text, _err = capsys.readouterr()
    failed = [line.split()[1] for line in text.splitlines() if line.startswith("FAIL ")]
    run = sarif_schema_valid(out)["runs"][0]
    assert code == (1 if failed else 0)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    # the script run, as scan places it (relative to the working folder when under it)
    assert all(uri.endswith("tests/servers/hostile/server.py") for uri in uris)
    assert sorted(r["ruleId"] for r in run["results"]) == sorted(failed)
    assert all(r["level"] == "error" for r in run["results"])
    assert len(run["tool"]["driver"]["rules"]) == len(
        [line for line in text.splitlines() if line[:4] in ("PASS", "FAIL", "SKIP")]
    )


def test_hostile_text_is_escaped_on_the_terminal_and_the_same_server_twice_is_two_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    escapes = shlex.join([PY, str(SERVERS / "misbehaving" / "escape_server.py")])
    code, out, err = scan(capsys, escapes, escapes)
    assert code == 1
    for raw in ("\x1b", "\x9b", "\x90", "\u202e", "\x07"):
        assert raw not in out and raw not in err
    lines = out.splitlines()
    assert any(x.startswith("HIGH hidden.terminal-escape ") for x in lines)
    scanned = [x for x in lines if x.startswith("scanned escape")]
    assert len(scanned) == 2 and " (2) (" in scanned[1] and " (2) (" not in scanned[0]
    assert any(" shadow.name-collision " in x for x in lines)


def test_a_saved_profiles_roots_are_the_roots_checked(capsys: pytest.CaptureFixture[str]) -> None:
    from inspector.settings.profiles import Profile, ProfileStore, RootEntry, StdioSettings
    from inspector.storage.secrets import SecretStore

    args = [str(HOSTILE), "--trick", "file-outside-roots"]
    ProfileStore(secrets=SecretStore()).put(
        Profile(
            name="files", stdio=StdioSettings(command=PY, args=args), roots=[RootEntry(uri=ROOT)]
        )
    )
    code, report = scan_json(capsys, "--fail-on", "medium", "profile:files")
    assert code == 1 and report["targets"][0]["name"] == "files"
    (hit,) = report["findings"]
    assert (hit["rule"], hit["item"]) == (
        "resource.file-outside-roots",
        "file:///srv/project/../../etc/passwd",
    )
    code, _out, err = scan(capsys, "profile:nobody")
    assert code == 2 and "no profile named 'nobody'" in err


def test_a_huge_server_name_is_cut(capsys: pytest.CaptureFixture[str]) -> None:
    target = shlex.join([PY, str(HOSTILE), "--trick", "html-comment", "--name-length", "100000"])
    code, report = scan_json(capsys, target)
    assert code == 0 and report["targets"][0]["name"] == "n" * 99 + "…"
    assert report["findings"][0]["server"] == "n" * 99 + "…"


def test_the_sarif_place_of_a_command_is_its_script_not_env_or_the_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from inspector.compare.security_scan import target_place
    from inspector.settings.profiles import Profile, StdioSettings

    monkeypatch.chdir(tmp_path)
    (tmp_path / "server.js").write_text("", encoding="utf-8")
    node = tmp_path / "node"
    node.write_text("", encoding="utf-8")

    def place(command: str, *args: str) -> str | None:
        found = target_place(
            Profile(name="p", stdio=StdioSettings(command=command, args=list(args)))
        )
        return None if found is None else found.uri

    assert place(str(node), "server.js") == "server.js"
    assert place("/usr/bin/env", "HOME=/tmp", "A=1", str(node), "server.js") == "server.js"
    assert place("env", "-i", "HOME=/tmp", str(node), "--flag", "server.js") == "server.js"
    # no script in its arguments: the command itself when it is a file
    assert place(str(tmp_path / "server.js"), "stdio") == "server.js"
