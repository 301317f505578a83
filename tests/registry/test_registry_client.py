"""The registry client against the stand-in (tests/servers/registry_standin.py): search and
cursor paging, versions, one entry, import through `import_server_json`, and a sentence for
every failure (unreachable, 404, 500, not JSON, not a page, too big, too slow, a bad URL)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from inspector.registry.client import RegistryClient, RegistryError, import_entry
from tests.helpers.http_servers import free_port
from tests.servers.registry_standin import serving_registry

pytestmark = pytest.mark.timeout(30)


@pytest.fixture(scope="module")
def registry() -> Iterator[str]:
    """The registry stand-in on a thread, one per module; its base URL."""
    with serving_registry() as base:
        yield base


def ask(base: str, call: str, *args: Any, client_options: Any = None, **kwargs: Any) -> Any:
    async def go() -> Any:
        async with RegistryClient(base, **(client_options or {})) as client:
            return await getattr(client, call)(*args, **kwargs)

    return asyncio.run(go())


def test_pages_follow_the_cursor_and_broken_entries_are_listed_with_their_problem(
    registry: str,
) -> None:
    async def go() -> list[list[str]]:
        async with RegistryClient(registry) as client:
            first = await client.search()
            assert first.next_cursor is not None
            second = await client.search(cursor=first.next_cursor)
            assert second.next_cursor is None
            return [[e.name for e in first.entries], [e.name for e in second.entries]]

    assert asyncio.run(go()) == [
        ["io.github.example/weather", "com.example/notes", "io.github.example/files"],
        ["io.github.example/broken", "(servers[1])", "io.github.example/search"],
    ]
    page = ask(registry, "search", "", cursor="3")
    hollow = page.entries[1]
    assert hollow.problem == "servers[1] is not a registry entry (no server with a name)."
    assert import_entry(hollow, registry).problems[0].sentence == hollow.problem


def test_search_versions_and_one_entry(registry: str) -> None:
    page = ask(registry, "search", "WEATHER")
    [weather] = page.entries
    assert (weather.label, weather.version, weather.status, weather.is_latest) == (
        "Weather",
        "1.0.0",
        "active",
        True,
    )
    assert weather.description == "Weather forecasts from an npm package."
    versions = ask(registry, "versions", "io.github.example/weather")
    assert [e.version for e in versions.entries] == ["1.0.0", "0.9.0"]
    old = ask(registry, "get", "io.github.example/weather", "0.9.0")
    assert old.is_latest is False
    assert ask(registry, "get", "com.example/notes").version == "2.1.0"
    # A registry with only the older /v0/ API is read there.
    assert [e.name for e in ask(registry + "/old", "search", "notes").entries] == [
        "com.example/notes"
    ]


def test_an_entry_imports_as_a_pasted_server_json_would(registry: str) -> None:
    weather = ask(registry, "get", "io.github.example/weather")
    result = import_entry(weather, registry)
    [profile] = result.profiles
    assert (profile.name, profile.target) == ("Weather", "npx -y @example/weather-mcp@1.0.0")
    assert [(e.name, e.value, e.secret) for e in profile.stdio.env] == [("WEATHER_KEY", "", True)]
    assert profile.source == f"registry {registry} (io.github.example/weather 1.0.0)"
    assert any("enter WEATHER_KEY" in note for note in result.notes)
    broken = ask(registry, "search", "broken").entries[0]
    problems = [str(p) for p in import_entry(broken, registry).problems]
    assert problems == [
        '/server/remotes/0/type: "ftp" is not one of: "streamable-http", "sse".',
        "/server/version: It must be a string, not a number.",
    ]
    assert broken.version == "" and broken.named == "io.github.example/broken"
    assert weather.named == "io.github.example/weather 1.0.0"
    # A deprecated entry imports, and says so (its list row is not all one sees).
    files = ask(registry, "get", "io.github.example/files")
    imported = import_entry(files, registry)
    assert imported.notes[0] == (
        "The registry marks io.github.example/files 0.3.1 as deprecated: prefer another "
        "version or server if there is one."
    )
    assert imported.general_notes()[0] == imported.notes[0]
    assert not any("registry marks" in note for note in result.notes)


@pytest.mark.parametrize(
    ("path", "call", "args", "sentence"),
    [
        (
            "/broken",
            "search",
            (),
            "The registry answered HTTP 500 for the server list: the database is down.",
        ),
        (
            "/html",
            "search",
            (),
            "The registry's answer for the server list is not JSON "
            "(text/html): is {base}/html an MCP registry's URL?",
        ),
        (
            "/shape",
            "search",
            (),
            'The registry\'s answer is not a page of servers (no "servers" list).',
        ),
        ("/huge", "search", (), "The registry's answer is larger than 1 MiB; it was not read."),
        ("/slow", "search", (), "The registry at {base}/slow did not answer within 0.5 s."),
        (
            "",
            "get",
            ("io.github.example/nothing",),
            'The registry has no server "io.github.example/nothing" (HTTP 404).',
        ),
        (
            "/nowhere",
            "search",
            (),
            "{base}/nowhere has no server list at /v0.1/servers or "
            "/v0/servers: is it an MCP registry's URL?",
        ),
    ],
)
def test_each_failure_is_one_sentence(
    registry: str, path: str, call: str, args: tuple[str, ...], sentence: str
) -> None:
    with pytest.raises(RegistryError) as caught:
        ask(registry + path, call, *args, client_options={"timeout": 0.5, "max_bytes": 1 << 20})
    assert str(caught.value) == sentence.format(base=registry)


def test_an_unreachable_registry_and_a_bad_url() -> None:
    base = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(RegistryError, match=rf"^Cannot reach the registry at {base}: "):
        ask(base, "search")
    with pytest.raises(RegistryError) as caught:
        RegistryClient("ftp://registry.example")
    assert (
        str(caught.value) == '"ftp://registry.example" is not a registry URL (http:// or https://).'
    )


def test_a_problems_place_in_the_text() -> None:
    from inspector.registry.json_place import place_of

    text = '{\n  "name": "ü/x",\n  "remotes": [{"type": "ftp"}],\n  "a/b": {"c~d": [1, true]}\n}'
    assert [text[slice(*place_of(text, p))] for p in ("/remotes/0/type", "/a~1b/c~0d/1")] == [
        '"ftp"',
        "true",
    ]
    # Something absent: the nearest value that is there.
    assert text[slice(*place_of(text, "/remotes/0/url"))] == '{"type": "ftp"}'
    # A syntax error: the line and column its sentence names.
    broken = '{\n  "a": x}'
    assert place_of(broken, "", "It is not valid JSON (line 2, column 8): Expecting value.") == (
        9,
        10,
    )
    assert place_of("{not json", "/a") is None
