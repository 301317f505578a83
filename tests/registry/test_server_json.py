"""server.json: the registry docs' examples import to the expected profiles, broken ones name
their place and say what is wrong, and an exported profile validates and imports back."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from inspector.registry.from_profile import ExportError, server_json_from_profile
from inspector.registry.schema import MAX_BYTES, SCHEMA_ID, schema, validate
from inspector.registry.to_profiles import import_server_json
from inspector.settings.profiles import EnvVar, HttpSettings, Profile, StdioSettings

# The registry's own examples (docs/reference/server-json/examples/valid/*.json).
WITH_PACKAGE: dict[str, Any] = {
    "$schema": SCHEMA_ID,
    "name": "io.github.user/local-weather",
    "description": "Local MCP server distributed as an npm package.",
    "version": "1.0.0",
    "packages": [
        {
            "registryType": "npm",
            "identifier": "@modelcontextprotocol/server-weather",
            "version": "1.0.0",
            "transport": {"type": "stdio"},
            "runtimeHint": "npx",
            "packageArguments": [
                {"type": "positional", "valueHint": "config_path"},
                {"type": "named", "name": "--port", "value": "8080"},
            ],
            "environmentVariables": [{"name": "API_KEY", "isSecret": True, "isRequired": True}],
        }
    ],
}
WITH_REMOTE: dict[str, Any] = {
    "$schema": SCHEMA_ID,
    "name": "io.github.user/remote-weather",
    "description": "Remote MCP server reachable over streamable HTTP.",
    "version": "2.1.0",
    "title": "Remote Weather",
    "remotes": [
        {
            "type": "streamable-http",
            "url": "https://{host}/mcp",
            "headers": [{"name": "Authorization", "isSecret": True, "isRequired": True}],
            "variables": {"host": {"description": "API host", "default": "api.example.com"}},
        }
    ],
}
MINIMAL: dict[str, Any] = {
    "$schema": SCHEMA_ID,
    "name": "io.github.user/weather",
    "description": "MCP server providing weather data and forecasts.",
    "version": "1.0.2",
}


def _import(doc: Any) -> Any:
    return import_server_json(json.dumps(doc))


def _package(**fields: Any) -> dict[str, Any]:
    doc = copy.deepcopy(MINIMAL)
    doc["packages"] = [{"transport": {"type": "stdio"}, "version": "1.0.0", **fields}]
    return doc


def test_the_vendored_schema_is_the_dated_one() -> None:
    assert schema()["$id"] == SCHEMA_ID
    assert "2025-12-11" in SCHEMA_ID


def test_docs_npm_example_becomes_an_npx_profile_with_an_empty_secret() -> None:
    result = _import(WITH_PACKAGE)
    assert result.ok
    [profile] = result.profiles
    assert profile.name == "io.github.user/local-weather"
    assert profile.transport == "stdio"
    assert profile.stdio.command == "npx"
    assert profile.stdio.args == [
        "-y",
        "@modelcontextprotocol/server-weather@1.0.0",
        "{config_path}",
        "--port",
        "8080",
    ]
    assert profile.stdio.env == [EnvVar(name="API_KEY", value="", secret=True)]
    assert any("{config_path}" in n for n in result.notes)
    assert any("API_KEY" in n and "keyring" in n for n in result.notes)


def test_docs_remote_example_becomes_an_http_profile_with_its_secret_header() -> None:
    result = _import(WITH_REMOTE)
    [profile] = result.profiles
    assert profile.name == "Remote Weather"
    assert profile.transport == "http"
    assert profile.http.url == "https://api.example.com/mcp"
    assert profile.http.transport == "streamable-http"
    [header] = profile.http.headers
    assert (header.name, header.value, header.secret) == ("Authorization", "", True)


def test_a_server_with_nothing_to_run_imports_nothing_and_says_so() -> None:
    result = _import(MINIMAL)
    assert result.ok and result.profiles == []
    assert result.notes == ["(the whole document): nothing to run here."]


def test_several_packages_and_remotes_give_one_named_profile_each() -> None:
    doc = copy.deepcopy(WITH_REMOTE)
    doc["remotes"].append({"type": "sse", "url": "https://sse.example.com/sse"})
    doc["packages"] = [
        {"registryType": "pypi", "identifier": "weather-mcp", "version": "2.1.0",
         "transport": {"type": "stdio"}},
        {"registryType": "pypi", "identifier": "weather-mcp", "version": "2.1.0",
         "runtimeHint": "pipx", "transport": {"type": "stdio"}},
        {"registryType": "oci", "identifier": "docker.io/user/weather", "version": "2.1.0",
         "transport": {"type": "stdio"},
         "environmentVariables": [{"name": "TOKEN", "isSecret": True}]},
    ]  # fmt: skip
    result = _import(doc)
    names = [p.name for p in result.profiles]
    assert names == [
        "Remote Weather (pypi 1)",
        "Remote Weather (pypi 2)",
        "Remote Weather (oci)",
        "Remote Weather (remote streamable-http)",
        "Remote Weather (remote sse)",
    ]
    uvx, pipx, docker = (p.target for p in result.profiles[:3])
    assert uvx == "uvx weather-mcp==2.1.0"
    assert pipx == "pipx run weather-mcp==2.1.0"
    assert docker == "docker run -i --rm -e TOKEN docker.io/user/weather:2.1.0"
    assert result.profiles[4].http.transport == "sse"


def test_a_registry_page_and_an_array_import_every_server() -> None:
    page = {"servers": [{"server": WITH_PACKAGE, "_meta": {}}, {"server": WITH_REMOTE}]}
    assert len(_import(page).profiles) == 2
    assert len(_import([WITH_PACKAGE, WITH_REMOTE]).profiles) == 2
    # A page saved from a registry: an entry it marks deprecated says so (its row did).
    official = "io.modelcontextprotocol.registry/official"
    old = {"server": WITH_REMOTE, "_meta": {official: {"status": "deprecated"}}}
    imported = _import({"servers": [{"server": WITH_PACKAGE, "_meta": {}}, old]})
    name, version = WITH_REMOTE["name"], WITH_REMOTE["version"]
    marked = [n for n in imported.notes if n.startswith("The registry marks")]
    assert marked == [
        f"The registry marks {name} {version} as deprecated: prefer another version or "
        "server if there is one."
    ]
    assert marked[0] in imported.general_notes()


@pytest.mark.parametrize(
    ("doc", "pointer", "words"),
    [
        ({k: v for k, v in MINIMAL.items() if k != "name"}, "/name", "required"),
        ({**MINIMAL, "name": "no-slash"}, "/name", "expected form"),
        ({**MINIMAL, "description": "x" * 101}, "/description", "101 characters"),
        ({**MINIMAL, "version": 3}, "/version", "must be a string, not a number"),
        (_package(registryType="npm", identifier="a", version="latest"),
         "/packages/0/version", "specific version"),
        (_package(registryType="npm", identifier="a",
                  packageArguments=[{"type": "positional", "isRepeated": False}]),
         "/packages/0/packageArguments/0", "“valueHint”, “value”"),
        (_package(registryType="npm", identifier="a", packageArguments=[{"type": "named"}]),
         "/packages/0/packageArguments/0/name", "required"),
        ({**MINIMAL, "remotes": [{"type": "ftp", "url": "ftp://x"}]},
         "/remotes/0/type", '"streamable-http", "sse"'),
        ({**MINIMAL, "remotes": [{"type": "sse", "url": "file:///etc/passwd"}]},
         "/remotes/0/url", "expected form"),
        ({**MINIMAL, "packages": {}}, "/packages", "must be an array, not an object"),
    ],
)  # fmt: skip
def test_each_invalid_document_names_its_place_and_says_what_is_wrong(
    doc: dict[str, Any], pointer: str, words: str
) -> None:
    result = _import(doc)
    assert not result.ok and result.profiles == []
    assert any(p.pointer == pointer and words in p.sentence for p in result.problems), [
        str(p) for p in result.problems
    ]


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"{", "not valid JSON (line 1, column 2)"),
        (b"", "empty"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[" * 100_000, "nested too deeply"),
        (b'"a string"', "a JSON object, not a string"),
        (b" " * (MAX_BYTES + 1), "at most 4 MiB"),
    ],
)
def test_unreadable_input_gives_one_sentence(data: bytes, words: str) -> None:
    result = import_server_json(data)
    [problem] = result.problems
    assert problem.pointer == "" and words in problem.sentence


def test_a_broken_entry_in_an_array_is_named_by_its_index_and_nothing_is_imported() -> None:
    result = _import([WITH_PACKAGE, {**MINIMAL, "name": 1}])
    assert [p.pointer for p in result.problems] == ["/1/name"]
    assert result.profiles == []


@pytest.mark.parametrize(
    ("package", "words"),
    [
        ({"registryType": "npm", "identifier": "x; rm -rf ~"}, "not a plain npm package name"),
        ({"registryType": "pypi", "identifier": "--index-url=http://evil"}, "not a plain pypi"),
        ({"registryType": "oci", "identifier": "--privileged"}, "not a plain oci"),
        ({"registryType": "npm", "identifier": "ok", "version": "1 $(id)"}, "not a plain version"),
        ({"registryType": "nuget", "identifier": "Some.Tool"}, 'type "nuget" cannot be run'),
        ({"registryType": "mcpb", "identifier": "https://x/p.mcpb"}, 'type "mcpb" cannot be run'),
    ],
)
def test_unsafe_or_unknown_packages_are_refused_never_run(
    package: dict[str, Any], words: str
) -> None:
    result = _import(_package(**package))
    assert result.ok and result.profiles == []
    assert any(words in note for note in result.notes), result.notes


def test_argument_values_stay_single_argv_items() -> None:
    hostile = "$(touch /tmp/pwned); `id` | cat > x"
    doc = _package(
        registryType="npm",
        identifier="ok",
        packageArguments=[{"type": "positional", "value": hostile}],
        environmentVariables=[{"name": "BAD NAME", "value": "x"}],
    )
    result = _import(doc)
    [profile] = result.profiles
    assert profile.stdio.args == ["-y", "ok@1.0.0", hostile]
    assert profile.stdio.env == []
    assert any("BAD NAME" in note and "skipped" in note for note in result.notes)


@pytest.mark.parametrize("doc", [WITH_PACKAGE, WITH_REMOTE])
def test_export_validates_and_imports_back_to_the_same_profile(doc: dict[str, Any]) -> None:
    [profile] = _import(doc).profiles
    exported = server_json_from_profile(profile, name="io.github.user/again")
    assert validate(exported) == []
    [again] = _import(exported).profiles
    assert again.target == profile.target
    assert again.stdio.env == profile.stdio.env
    assert again.http.headers == profile.http.headers


def test_export_never_writes_a_secret_value() -> None:
    profile = Profile(
        name="Local",
        stdio=StdioSettings(
            command="docker",
            args=["run", "-i", "--rm", "-e", "TOKEN", "-v", "/a:/b", "img:2"],
            env=[EnvVar(name="TOKEN", value="s3cret", secret=True),
                 EnvVar(name="MODE", value="fast")],
        ),
    )  # fmt: skip
    exported = server_json_from_profile(profile)
    assert "s3cret" not in json.dumps(exported)
    assert validate(exported) == []
    [package] = exported["packages"]
    assert package["identifier"] == "img:2"
    assert package["runtimeArguments"] == [
        {"type": "positional", "value": "-v"},
        {"type": "positional", "value": "/a:/b"},
    ]
    [again] = _import(exported).profiles
    # Every environment variable of an OCI package is passed into the container.
    assert again.stdio.args == [
        "run",
        "-i",
        "--rm",
        "-e",
        "TOKEN",
        "-e",
        "MODE",
        "-v",
        "/a:/b",
        "img:2",
    ]
    assert [(e.name, e.value) for e in again.stdio.env] == [("TOKEN", ""), ("MODE", "fast")]


def test_a_command_that_is_no_package_cannot_be_exported() -> None:
    profile = Profile(name="Mine", stdio=StdioSettings(command="/usr/bin/python3", args=["s.py"]))
    with pytest.raises(ExportError, match="only npm"):
        server_json_from_profile(profile)


def test_an_http_profile_with_a_url_the_schema_refuses_gives_the_problem() -> None:
    profile = Profile(name="Odd", transport="http", http=HttpSettings(url="ws://x"))
    with pytest.raises(ExportError, match="/remotes/0/url"):
        server_json_from_profile(profile)


def test_a_header_built_from_a_secret_variable_is_itself_secret() -> None:
    doc = copy.deepcopy(WITH_REMOTE)
    doc["remotes"][0]["headers"] = [
        {
            "name": "Authorization",
            "value": "Bearer {token}",
            "variables": {"token": {"isSecret": True, "default": "not-a-real-token"}},
        }
    ]
    result = _import(doc)
    [header] = result.profiles[0].http.headers
    # Secret: saving moves it to the keyring, never into profiles.json; its default is not used.
    assert (header.value, header.secret) == ("Bearer {token}", True)
    assert any("{token}" in note for note in result.notes)
