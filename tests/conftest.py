"""Shared fixtures: where the real peers are, and how to launch them; the keyrings, config
folder and profile store that tests in several folders use; the HTTP peers several modules
serve. Each fixture is defined once under tests/ (tests/architecture/test_fixtures_once.py);
heavy imports stay inside the fixtures, so collection stays quick."""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.helpers.peers import EVERYTHING_JS, PY, SERVERS
from tests.helpers.sessions import OpenSessions

if TYPE_CHECKING:
    from inspector.settings.profiles import ProfileStore
    from tests.helpers.http_servers import Served
    from tests.helpers.memory_keyring import MemoryKeyring

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Every GUI connection is recorded: keep the recordings of test runs out of the
# user's data dir.
os.environ.setdefault("MCP_INSPECTOR_DATA_DIR", tempfile.mkdtemp(prefix="mcp-inspector-test-data-"))
# pytest-xdist workers inherit the controller's environment: a folder each, so that one
# worker's retention cannot prune the recordings another is writing.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ["MCP_INSPECTOR_DATA_DIR"] = os.path.join(
        os.environ["MCP_INSPECTOR_DATA_DIR"], os.environ["PYTEST_XDIST_WORKER"]
    )

# Fixtures broader than a test that are ours (not a plugin's, like pytest-qt's qapp).
_SHARED_SCOPES = ("module", "package", "session")


@pytest.fixture
async def sessions() -> AsyncIterator[OpenSessions]:
    """Sessions a test opens; all of them are closed at teardown."""
    opened = OpenSessions()
    yield opened
    await opened.close_all()


@pytest.fixture
def everything_command() -> list[str]:
    node = shutil.which("node")
    if node is None or not EVERYTHING_JS.exists():
        pytest.skip("server-everything is not installed (scripts/install-peers.sh installs it)")
    return [node, str(EVERYTHING_JS), "stdio"]


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    """A fresh in-memory keyring for one test (the previous backend restored after)."""
    from tests.helpers.memory_keyring import installed_memory_keyring

    yield from installed_memory_keyring()


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """The 'no backend' keyring, as on a headless machine."""
    from tests.helpers.memory_keyring import installed_failing_keyring

    yield from installed_failing_keyring()


@pytest.fixture
def store(tmp_path: Path) -> ProfileStore:
    """An empty profile store in tmp_path, its secrets in whatever keyring is installed."""
    from inspector.settings.profiles import ProfileStore
    from inspector.storage.secrets import SecretStore

    return ProfileStore(tmp_path / "profiles.json", SecretStore())


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The app's config folder (MCP_INSPECTOR_CONFIG_DIR) in tmp_path, not the user's.
    Modules that need it for every test say `pytest.mark.usefixtures("config_dir")`."""
    folder = tmp_path / "config"
    monkeypatch.setenv("MCP_INSPECTOR_CONFIG_DIR", str(folder))
    return folder


@pytest.fixture(scope="module")
def sdk_http() -> Iterator[Served]:
    """The mcp SDK's server over streamable HTTP, one per module."""
    from tests.helpers.http_servers import free_port, serving

    port = free_port()
    argv = [PY, str(SERVERS / "sdk" / "sdk_server.py"), "streamable-http", "--port", str(port)]
    with serving([(argv, {}, port)]) as (served,):
        yield served


@pytest.fixture(scope="module")
def misbehaving_http() -> Iterator[Served]:
    """tests/servers/misbehaving/http_server.py with its defaults, one per module."""
    from tests.helpers.http_servers import free_port, serving

    port = free_port()
    argv = [PY, str(SERVERS / "misbehaving" / "http_server.py"), "--port", str(port)]
    with serving([(argv, {}, port)]) as (served,):
        yield served


def _process_qt_events_inside_the_loop() -> None:
    """pytest-qt calls app.processEvents() between test phases. While a GUI test's qasync
    loop is set but not running, Qt would then fire qasync's socket notifiers and timers
    outside the loop; a notifier removed during its own activation has crashed the whole
    run (SIGSEGV in pytestqt's _process_events). Process those events inside the loop."""
    try:
        import pytestqt.plugin as plugin
    except ImportError:  # pragma: no cover - pytest-qt is a test dependency
        return
    original = plugin._process_events

    def process_events() -> None:
        from tests.helpers import gui as ui_helpers

        loop = ui_helpers.current_loop()
        if loop is not None and not loop.is_closed() and not loop.is_running():
            loop.run_until_complete(asyncio.sleep(0))
        else:
            original()

    plugin._process_events = process_events


_process_qt_events_inside_the_loop()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Once a GUI test moved cyclic collection to the Qt thread (tests/helpers/gui.py
    new_loop), tests that run no Qt loop still collect: here, on the main thread."""
    if not gc.isenabled():
        from inspector.ui.shell.qt_thread_gc import collect_if_due

        threshold = gc.get_threshold()
        collect_if_due((threshold[0], threshold[1], threshold[2]))


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    """QTest's key click with a modifier (Ctrl+Return) leaves that modifier held in Qt's
    process-wide state, `QGuiApplication.keyboardModifiers()`: the next test in the same
    process would then extend a selection where it meant to replace it (a test that passed
    or failed by the order the tests ran in, as pytest-xdist deals them). Release it."""
    gui = sys.modules.get("PySide6.QtGui")
    if gui is None or gui.QGuiApplication.instance() is None:
        return
    held = gui.QGuiApplication.keyboardModifiers()
    if held == gui.Qt.KeyboardModifier.NoModifier:
        return
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget

    keys = {
        Qt.KeyboardModifier.ControlModifier: Qt.Key.Key_Control,
        Qt.KeyboardModifier.ShiftModifier: Qt.Key.Key_Shift,
        Qt.KeyboardModifier.AltModifier: Qt.Key.Key_Alt,
        Qt.KeyboardModifier.MetaModifier: Qt.Key.Key_Meta,
    }
    target = QWidget()
    for modifier, key in keys.items():
        if held & modifier:
            QTest.keyRelease(target, key)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (`--dist loadgroup`, scripts/test.sh), the tests that share one of
    our module- or session-scoped fixtures (a server process, an installed wheel) run on one
    worker, so that the fixture is built once and not once per worker. Tests already marked
    `xdist_group` keep their group. Harmless in a single-process run."""
    in_a_loadgroup_worker = bool(getattr(config.option, "loadgroup", False))
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            group = _shared_fixture_group(item)
            if group is not None:
                item.add_marker(pytest.mark.xdist_group(group))
        if in_a_loadgroup_worker:
            _suffix_the_group(item)


def _suffix_the_group(item: pytest.Item) -> None:
    """pytest-xdist 3.8 tells its scheduler an item's group by a `@group` suffix on the node
    id, written into `item._nodeid`; pytest 9.2 keeps the id in `item._id`, so that suffix is
    lost and `--dist loadgroup` would group nothing. Write it where this pytest keeps it."""
    names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                    for m in item.iter_markers("xdist_group")})  # fmt: skip
    if not names or "@" in item.nodeid.rpartition("]")[2]:
        return  # no group, or xdist has already added it
    suffixed = f"{item.nodeid}@{'_'.join(names)}"
    node_id = getattr(item, "_id", None)
    if node_id is not None and hasattr(type(node_id), "parse"):
        item._id = type(node_id).parse(suffixed)  # type: ignore[attr-defined]
    else:
        item._nodeid = suffixed  # type: ignore[attr-defined]


def _shared_fixture_group(item: pytest.Item) -> str | None:
    """The group of the broadest of our shared fixtures that `item` uses, if any: its
    module for a module-scoped one, where it is defined for a session-scoped one."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    module = item.nodeid.split("::", 1)[0]
    group: str | None = None
    for name in item.fixturenames:  # type: ignore[attr-defined]
        for fixturedef in info.name2fixturedefs.get(name, ()):
            if fixturedef.scope not in _SHARED_SCOPES:
                continue
            if not getattr(fixturedef.func, "__module__", "").startswith("tests."):
                continue
            if fixturedef.scope == "module":
                group = group or module
            else:
                return f"{fixturedef.baseid or 'tests'}::{name}"
    return group
