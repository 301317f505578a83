"""Profiles: validation, the JSON store, the demo profile, and secrets kept out of the file."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from inspector.settings.profiles import (
    DEMO_PROFILE_ID,
    EnvVar,
    HeaderEntry,
    HttpSettings,
    Profile,
    ProfileStore,
    StdioSettings,
    validate_profile,
)
from inspector.storage.paths import CONFIG_DIR_ENV, config_dir, profiles_path
from inspector.storage.secrets import NoKeyringError, SecretStore, keyring_status
from tests.helpers.memory_keyring import (
    MemoryKeyring,
)


def stdio_profile(name: str = "mine", command: str = sys.executable) -> Profile:
    return Profile(name=name, stdio=StdioSettings(command=command, args=["-V"]))


def test_config_dir_is_overridable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "cfg"))
    assert config_dir() == tmp_path / "cfg"
    assert profiles_path() == tmp_path / "cfg" / "profiles.json"
    monkeypatch.delenv(CONFIG_DIR_ENV)
    assert "mcp-inspector-qt" in str(config_dir())


def test_demo_profile_always_exists_and_is_found_as_demo(store: ProfileStore) -> None:
    demo = store.find("demo")
    assert demo is not None and demo.id == DEMO_PROFILE_ID and demo.builtin
    assert demo.name == "Demo server"
    assert demo.stdio.command == sys.executable
    assert demo.stdio.args == ["-m", "inspector.demo"]
    assert store.profiles[0].id == DEMO_PROFILE_ID
    with pytest.raises(ValueError, match="built in"):
        store.delete(DEMO_PROFILE_ID)
    with pytest.raises(ValueError, match="built in"):
        store.put(demo)


def test_create_edit_delete_roundtrip(store: ProfileStore, tmp_path: Path) -> None:
    changes: list[int] = []
    store.on_changed(lambda: changes.append(1))
    created = store.put(stdio_profile("alpha"))
    assert [p.name for p in store] == ["Demo server", "alpha"]
    edited = created.model_copy(deep=True)
    edited.name = "beta"
    edited.stdio.args = ["-c", "pass"]
    edited.era = "auto"
    edited.timeouts.request = 5
    edited.capabilities.sampling = False
    store.put(edited)
    reloaded = ProfileStore(tmp_path / "profiles.json")
    beta = reloaded.find("beta")
    assert beta is not None and beta.id == created.id
    assert beta.stdio.args == ["-c", "pass"] and beta.era == "auto"
    assert beta.timeouts.request == 5 and beta.capabilities.sampling is False
    assert reloaded.find("alpha") is None
    store.delete(created.id)
    assert [p.name for p in ProfileStore(tmp_path / "profiles.json")] == ["Demo server"]
    assert len(changes) == 3
    on_disk = json.loads((tmp_path / "profiles.json").read_text())
    assert on_disk == {"version": 1, "profiles": []}
    if os.name != "nt":
        assert (tmp_path / "profiles.json").stat().st_mode & 0o077 == 0


def test_validation_messages(store: ProfileStore) -> None:
    store.put(stdio_profile("taken"))
    empty = validate_profile(Profile(name="x", stdio=StdioSettings(command="  ")))
    assert [p.message for p in empty] == [
        "The command is empty: enter the program that starts the server "
        "(for example npx, uvx, node or python)."
    ]
    missing = validate_profile(
        Profile(name="x", stdio=StdioSettings(command="surely-not-a-command-xyz"))
    )
    assert missing[0].severity == "warning"
    assert "“surely-not-a-command-xyz” was not found on PATH" in missing[0].message
    bad_url = validate_profile(
        Profile(name="x", transport="http", http=HttpSettings(url="ftp://example.com/mcp"))
    )
    assert "must start with http:// or https:// (the scheme is ftp)" in bad_url[0].message
    assert (
        validate_profile(
            Profile(name="x", transport="http", http=HttpSettings(url="https://example.com/mcp"))
        )
        == []
    )
    dup = validate_profile(stdio_profile("TAKEN"), list(store))
    assert dup[0].message == "A profile named “TAKEN” already exists."
    with pytest.raises(ValueError, match="already exists"):
        store.put(stdio_profile("Taken"))
    with pytest.raises(ValueError, match="command is empty"):
        store.put(Profile(name="nocmd"))
    header = validate_profile(
        Profile(
            name="h",
            transport="http",
            http=HttpSettings(url="http://x", headers=[HeaderEntry(name="bad name", value="v")]),
        )
    )
    assert "not a valid header name" in header[0].message


def test_secret_header_goes_to_keyring_not_to_the_file(
    memory_keyring: MemoryKeyring, store: ProfileStore, tmp_path: Path
) -> None:
    profile = Profile(
        name="remote",
        transport="http",
        http=HttpSettings(
            url="https://example.com/mcp",
            headers=[
                HeaderEntry(name="Authorization", value="Bearer s3cr3t-token", secret=True),
                HeaderEntry(name="X-Team", value="blue"),
            ],
        ),
        stdio=StdioSettings(env=[EnvVar(name="API_KEY", value="k-123", secret=True)]),
    )
    saved = store.put(profile)
    text = (tmp_path / "profiles.json").read_text()
    assert "s3cr3t-token" not in text and "k-123" not in text
    assert "blue" in text
    assert memory_keyring.store == {
        ("mcp-inspector-qt", f"profile:{saved.id}:header:Authorization"): "Bearer s3cr3t-token",
        ("mcp-inspector-qt", f"profile:{saved.id}:env:API_KEY"): "k-123",
    }
    assert store.secrets is not None
    assert store.secrets.get(saved.id, "header", "Authorization") == "Bearer s3cr3t-token"
    assert store.secrets.where(saved.id, "header", "Authorization") == "keyring"
    # Unmarking a secret forgets it; deleting the profile forgets the rest.
    edited = saved.model_copy(deep=True)
    edited.stdio.env = []
    store.put(edited)
    assert len(memory_keyring.store) == 1
    store.delete(saved.id)
    assert memory_keyring.store == {}


def test_without_a_keyring_secrets_are_refused_plainly_or_kept_for_the_session(
    no_keyring: None, store: ProfileStore, tmp_path: Path
) -> None:
    status = keyring_status()
    assert not status.available
    assert "No system keyring is available" in status.message
    profile = Profile(
        name="remote",
        transport="http",
        http=HttpSettings(
            url="https://example.com/mcp",
            headers=[HeaderEntry(name="Authorization", value="Bearer tok", secret=True)],
        ),
    )
    with pytest.raises(NoKeyringError, match="for this session only"):
        store.put(profile)
    assert store.find("remote") is None
    saved = store.put(profile, session_only_secrets=True)
    assert "Bearer tok" not in (tmp_path / "profiles.json").read_text()
    assert store.secrets is not None
    assert store.secrets.get(saved.id, "header", "Authorization") == "Bearer tok"
    assert store.secrets.where(saved.id, "header", "Authorization") == "session"
    # A new store (a new session) does not have it.
    assert SecretStore().get(saved.id, "header", "Authorization") is None


def test_unreadable_file_is_kept_as_backup(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    path.write_text("{not json")
    store = ProfileStore(path, SecretStore())
    assert store.load_error is not None and "not valid JSON" in store.load_error
    store.put(stdio_profile("fresh"))
    assert (tmp_path / "profiles.unreadable.json").read_text() == "{not json"
    assert ProfileStore(path).find("fresh") is not None


def test_unique_names_for_imports(store: ProfileStore) -> None:
    store.put(stdio_profile("github"))
    added = store.add_imported([stdio_profile("github"), stdio_profile("github")])
    assert [p.name for p in added] == ["github (2)", "github (3)"]
    assert len({p.id for p in store}) == len(store)
    # A name from a file is one line of visible text: a newline in a server.json's title
    # made a list row that showed a command of its choosing under it.
    [hostile] = store.add_imported([stdio_profile("Notes\nnpx -y @trusted/pkg\x1b[0m\u200b")])
    assert hostile.name == "Notes npx -y @trusted/pkg [0m"
    [long] = store.add_imported([stdio_profile("x" * 500)])
    assert long.name == "x" * 119 + "…"


def test_a_change_keeps_what_another_process_saved_since(store: ProfileStore) -> None:
    """The GUI's store stays open while `profiles import` (another process, another store)
    adds a profile: the GUI's next save keeps it (it was written over), and `refresh` shows
    what was added without a change of its own."""
    mine = store.put(stdio_profile("in the window"))
    other = ProfileStore(store.path)  # as `mcp-inspector-qt profiles import` opens it
    other.put(stdio_profile("from the command line"))
    mine.name = "renamed in the window"
    store.put(mine)  # the save reads the file first
    names = ["Demo server", "renamed in the window", "from the command line"]
    assert [p.name for p in ProfileStore(store.path)] == names
    assert store.names() == names
    other.put(stdio_profile("again from the command line"))
    assert store.refresh() is True
    assert store.names() == [*names, "again from the command line"]
    assert store.refresh() is False  # nothing new
    gone = other.find("from the command line")
    assert gone is not None
    other.delete(gone.id)
    store.delete(mine.id)
    assert [p.name for p in ProfileStore(store.path)] == [
        "Demo server",
        "again from the command line",
    ]
