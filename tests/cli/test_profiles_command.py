"""`profiles list|import|export|remove` and `registry search|import` as a user runs them, from
a folder other than the repo's, with the profiles in a temporary config folder and the secrets
in the memory keyring: what each prints, where each secret goes (never the terminal or the
profiles file), and a message and exit code for each bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.__main__ import main
from tests.helpers.memory_keyring import MemoryKeyring
from tests.servers.registry_standin import serving_registry

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("config_dir")]

CLAUDE = {
    "mcpServers": {
        "weather": {
            "command": "npx",
            "args": ["-y", "@example/weather-mcp@1.0.0"],
            "env": {"API_KEY": "sk-very-secret", "UNITS": "metric"},
        },
        "local": {"command": "python3", "args": ["server.py"]},
    }
}


@pytest.fixture
def work_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder of its own, not the repo's."""
    folder = tmp_path / "work"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


@pytest.fixture
def registry_url() -> Iterator[str]:
    """The registry stand-in on a thread, for one test; its base URL."""
    with serving_registry() as base:
        yield base


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_import_list_export_remove_a_claude_config(
    capsys: pytest.CaptureFixture[str],
    memory_keyring: MemoryKeyring,
    work_folder: Path,
    config_dir: Path,
) -> None:
    (work_folder / "claude.json").write_text(json.dumps(CLAUDE))
    code, out, err = cli(capsys, "profiles", "import", "claude.json")
    assert code == 0, err
    assert 'imported "weather": npx -y @example/weather-mcp@1.0.0' in err
    assert "the secret API_KEY went to the keyring (not the profiles file)" in err
    assert "2 profile(s) imported from this Claude Desktop config." in err
    assert "sk-very-secret" in memory_keyring.store.values()
    assert "sk-very-secret" not in out + err + (config_dir / "profiles.json").read_text()

    code, out, err = cli(capsys, "profiles", "list")
    assert out.splitlines()[1:] == [
        "weather\tstdio\tnpx -y @example/weather-mcp@1.0.0",
        "local\tstdio\tpython3 server.py",
    ]
    code, out, err = cli(capsys, "profiles", "list", "--json")
    weather = json.loads(out)[1]
    assert (weather["name"], weather["secrets"]) == ("weather", ["env:API_KEY"])
    # The profile editor names the file in full (the app never saw this folder).
    assert weather["source"] == f"Claude Desktop: {work_folder / 'claude.json'}"

    code, out, err = cli(capsys, "profiles", "import", "claude.json")
    assert code == 2
    assert 'a profile named "weather" already exists' in err
    code, out, err = cli(
        capsys, "profiles", "import", "claude.json", "--rename", "--server", "local"
    )
    assert (code, 'imported "local (2)": python3 server.py' in err) == (0, True)

    code, out, err = cli(capsys, "profiles", "export", "weather", "--format", "claude")
    entry = json.loads(out)["mcpServers"]["weather"]
    assert entry["env"] == {"API_KEY": "<secret API_KEY: kept in the keyring>", "UNITS": "metric"}
    code, out, err = cli(capsys, "profiles", "export", "WEATHER", "--format", "server.json")
    assert code == 0
    assert json.loads(out)["packages"][0]["identifier"] == "@example/weather-mcp"
    code, out, err = cli(capsys, "profiles", "export", "local", "--format", "server.json")
    assert code == 1
    assert err.startswith('profiles export: "local" cannot be written as a server.json: ')

    code, out, err = cli(capsys, "profiles", "export", "weather", "-o", "weather.json")
    assert code == 0 and (work_folder / "weather.json").is_file()
    assert cli(capsys, "profiles", "remove", "weather")[2] == 'removed "weather" and its secrets\n'
    assert "sk-very-secret" not in memory_keyring.store.values()
    code, out, err = cli(capsys, "profiles", "import", "weather.json")
    assert code == 0 and "1 profile(s) imported from this profiles export." in err


def test_each_bad_input_says_what_and_exits_2(
    capsys: pytest.CaptureFixture[str], memory_keyring: MemoryKeyring, work_folder: Path
) -> None:
    (work_folder / "broken.json").write_text('{"mcpServers": {')
    (work_folder / "bad-server.json").write_text(
        json.dumps({"name": "io.x/y", "description": "d", "version": 2, "packages": []})
    )
    (work_folder / "other.json").write_text('{"hello": 1}')
    cases = [
        (("import", "missing.json"), "profiles import: no such file: missing.json"),
        (("import", "broken.json"), "profiles import: broken.json: not valid JSON: "),
        (("import", "other.json"), "profiles import: other.json: this does not look like an MCP"),
        (("import", "bad-server.json"), "  /version: It must be a string, not a number."),
        (("export", "nobody"), 'profiles: no profile named "nobody" (`profiles list` shows'),
        (("remove", "nobody"), 'profiles: no profile named "nobody"'),
        (("remove", "Demo server"), "profiles remove: The demo profile is built in"),
    ]
    for args, start in cases:
        code, out, err = cli(capsys, "profiles", *args)
        assert (code, out) == (2, ""), (args, err)
        assert any(line.startswith(start) for line in err.splitlines()), (args, err)


def test_registry_search_pages_and_import(
    capsys: pytest.CaptureFixture[str],
    memory_keyring: MemoryKeyring,
    work_folder: Path,
    registry_url: str,
) -> None:
    code, out, err = cli(capsys, "registry", "--registry", registry_url, "search")
    assert code == 0
    assert out.splitlines()[2] == (
        "io.github.example/files\t0.3.1 [deprecated]\tFiles from a PyPI package."
    )
    # The next page's command line reads the same registry (--registry was given).
    assert (
        err == f"more: mcp-inspector-qt registry --registry {registry_url} search '' --cursor 3\n"
    )
    code, out, err = cli(capsys, "registry", "--registry", registry_url, "search", "--cursor", "3")
    assert "\x1b" not in out and "Web search.\\x1b[31m with a terminal escape" in out
    assert "(servers[1])\t-\t(cannot be imported: servers[1] is not a registry entry" in out

    code, out, err = cli(
        capsys, "registry", "--registry", registry_url, "import", "com.example/notes"
    )
    assert code == 0, err
    assert 'imported "com.example/notes": https://notes.example.com/mcp' in err
    assert "enter the Authorization header (it is kept in the keyring)" in err
    code, out, err = cli(capsys, "profiles", "list")
    assert "com.example/notes\thttp\thttps://notes.example.com/mcp" in out

    code, out, err = cli(
        capsys, "registry", "--registry", registry_url, "import", "io.github.example/broken"
    )
    assert code == 2 and "  /server/version: It must be a string, not a number." in err
    assert "the entry io.github.example/broken has the problem(s) above" in err
    code, out, err = cli(
        capsys, "registry", "--registry", registry_url, "import", "io.github.example/files"
    )
    assert code == 0, err
    assert (
        "note: The registry marks io.github.example/files 0.3.1 as deprecated: prefer another "
        "version or server if there is one.\n"
    ) in err
    code, out, err = cli(capsys, "registry", "search", "--registry", registry_url + "/broken")
    assert (code, err) == (
        3,
        "registry: The registry answered HTTP 500 for the server list: the database is down.\n",
    )


def test_without_a_keyring_a_secret_stops_the_import_unless_left_empty(
    capsys: pytest.CaptureFixture[str], no_keyring: None, work_folder: Path, config_dir: Path
) -> None:
    (work_folder / "claude.json").write_text(json.dumps(CLAUDE))
    code, out, err = cli(capsys, "profiles", "import", "claude.json")
    assert code == 1
    assert "no system keyring is available to keep the secret values" in err
    assert "--without-secret-values" in err
    assert not (config_dir / "profiles.json").exists()
    code, out, err = cli(capsys, "profiles", "import", "claude.json", "--without-secret-values")
    assert code == 0, err
    assert "the secret API_KEY was left empty: enter it in the profile" in err
    assert "sk-very-secret" not in out + err + (config_dir / "profiles.json").read_text()
