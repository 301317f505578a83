"""Tabs remember their custom names and splitter positions (issue 11): a renamed tab comes
back renamed after a restart, each tab keeps its own splitters while the app runs and gets
them back when reopened; an old saved value (ids only) still loads; a name that is empty,
absurdly long or full of control characters, typed or read from a settings file, is made
safe."""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit, QSplitter

from inspector.core.connection_state import ConnState
from inspector.core.profiles import KnownProfiles
from inspector.settings.profiles import Profile, ProfileStore
from inspector.storage.secrets import SecretStore
from inspector.ui.shell.main_window import MainWindow
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.tabs.tab_layout import splitters_of
from inspector.ui.tabs.tab_memory import (
    DETAIL_KEY,
    KEY,
    MEMORY_VERSION,
    RememberedTab,
    TabMemory,
)
from inspector.ui.tabs.tab_name import MAX_NAME, clean_tab_name
from tests.helpers.gui import close_window, python_profile, run, until, window_for

pytestmark = pytest.mark.timeout(120)


def demo(name: str) -> Profile:
    return python_profile(name, "-m", "inspector.demo")


def near(a: list[int], b: list[int], slack: int = 3) -> bool:
    return len(a) == len(b) and all(abs(x - y) <= slack for x, y in zip(a, b, strict=True))


async def connected(tab: ConnectionTab, profile: Profile) -> None:
    tab.connect_profile(profile)
    await until(lambda: tab.controller.model.state is ConnState.CONNECTED, profile.name, 30)


# -- names ---------------------------------------------------------------------------------


def test_clean_tab_name_empty_long_control_characters() -> None:
    assert clean_tab_name(None) is None and clean_tab_name(5) is None
    assert clean_tab_name("") is None and clean_tab_name(" \t\n ") is None
    assert clean_tab_name("  deployed  ") == "deployed"
    assert clean_tab_name("a\nb\r\nc\x00d\x1be\x7ff") == "a b c d e f"
    assert clean_tab_name("\u202eevil\u202c name") == "evil name"  # no reversed titles
    assert clean_tab_name("prod \U0001f680 — ünïcode") == "prod \U0001f680 — ünïcode"
    long = clean_tab_name("x" * 10_000)
    assert long is not None and len(long) == MAX_NAME and long.endswith("…")
    assert clean_tab_name("\x00" * 10_000) is None


def test_renaming_a_tab_to_a_hostile_name(window: MainWindow) -> None:
    tab = window.current_tab
    window.new_tab()
    tab.rename("y" * 10_000)
    index = window.tabs.indexOf(tab)
    assert tab.custom_name is not None and len(tab.custom_name) == MAX_NAME
    assert len(window.tabs.tabText(index)) <= 40  # the strip shows it elided
    assert len(window.tabs.tabToolTip(index)) < MAX_NAME + 200
    tab.rename("line one\nline two\ttabbed\x00")
    assert window.tabs.tabText(index) == "line one line two tabbed"
    tab.rename("   ")
    assert tab.custom_name is None and window.tabs.tabText(index) == "New tab"
    # The dialog's field stops at the limit too.
    dialog = window.strip.ask_rename(tab)
    assert isinstance(dialog, QInputDialog)
    edit = dialog.findChild(QLineEdit)
    assert edit is not None and edit.maxLength() == MAX_NAME
    dialog.close()


# -- the saved value -----------------------------------------------------------------------


@pytest.fixture
def memory(tmp_path: Path) -> tuple[TabMemory, QSettings, list[Profile]]:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    profiles = [demo("One"), demo("Two")]
    for p in profiles:
        store.put(p)
    settings = QSettings(str(tmp_path / "tabs.ini"), QSettings.Format.IniFormat)
    return TabMemory(settings, KnownProfiles(store)), settings, profiles


def test_an_old_saved_value_without_names_still_loads(
    memory: tuple[TabMemory, QSettings, list[Profile]],
) -> None:
    mem, settings, (one, two) = memory
    settings.setValue(KEY, [one.id, two.id])  # what version 1 kept: ids only
    loaded = mem.load()
    assert [(t.profile.id, t.name, dict(t.splitters)) for t in loaded] == [
        (one.id, None, {}),
        (two.id, None, {}),
    ]
    assert [t.label for t in loaded] == ["One", "Two"]
    settings.setValue(KEY, one.id)  # one id: QSettings' INI gives a string back
    settings.sync()
    again = QSettings(settings.fileName(), QSettings.Format.IniFormat)
    assert [t.profile.id for t in TabMemory(again, mem.profiles).load()] == [one.id]


@pytest.mark.parametrize(
    "detail",
    [
        "{not json",
        json.dumps({"version": MEMORY_VERSION + 1, "tabs": []}),  # a newer build's
        json.dumps({"version": MEMORY_VERSION, "tabs": "nope"}),
        json.dumps({"version": MEMORY_VERSION, "tabs": [1, 2]}),
        json.dumps([1, 2]),
    ],
)
def test_an_unreadable_detail_falls_back_to_the_ids(
    memory: tuple[TabMemory, QSettings, list[Profile]], detail: str
) -> None:
    mem, settings, (one, two) = memory
    settings.setValue(KEY, [one.id, two.id])
    settings.setValue(DETAIL_KEY, detail)
    assert [(t.profile.id, t.name) for t in mem.load()] == [(one.id, None), (two.id, None)]


def test_a_detail_for_other_ids_or_with_bad_fields_is_not_believed(
    memory: tuple[TabMemory, QSettings, list[Profile]],
) -> None:
    mem, settings, (one, two) = memory
    good = base64.b64encode(b"state").decode()

    def detail(*tabs: dict[str, object]) -> str:
        return json.dumps({"version": MEMORY_VERSION, "tabs": list(tabs)})

    # An older build wrote `openTabs` since: the names are of other tabs.
    settings.setValue(KEY, [two.id])
    settings.setValue(DETAIL_KEY, detail({"profile": one.id, "name": "stale"}))
    assert [(t.profile.id, t.name) for t in mem.load()] == [(two.id, None)]
    # Wrong types, a hostile name, a layout that is not base64: each field on its own.
    settings.setValue(KEY, [one.id, two.id])
    settings.setValue(
        DETAIL_KEY,
        detail(
            {"profile": one.id, "name": 7, "splitters": "x"},
            {
                "profile": two.id,
                "name": "bad\n" + "z" * 10_000,
                "splitters": {"mainSplitter": "%%%", "rightSplitter": good, "x": 3},
            },
        ),
    )
    first, second = mem.load()
    assert first.name is None and dict(first.splitters) == {}
    assert second.name is not None and second.name.startswith("bad z")
    assert len(second.name) == MAX_NAME
    assert dict(second.splitters) == {"rightSplitter": b"state"}
    # A profile deleted meanwhile is left out, the others keep their names.
    settings.setValue(
        DETAIL_KEY,
        detail({"profile": one.id, "name": "uno"}, {"profile": two.id, "name": "dos"}),
    )
    mem.profiles.store.delete(one.id)
    assert [(t.profile.id, t.name, t.label) for t in mem.load()] == [(two.id, "dos", "dos — Two")]


# -- the window ----------------------------------------------------------------------------


def test_each_tab_keeps_its_own_splitters_while_the_app_runs(
    window: MainWindow, qapp: QApplication
) -> None:
    first = window.current_tab
    first.main_split.setSizes([300, 980])
    QApplication.processEvents()
    a_main = first.main_split.sizes()
    second = window.new_tab()  # (the tab bar shows now: the tabs get shorter)
    QApplication.processEvents()
    assert near(second.main_split.sizes(), a_main)  # a new tab copies the one it opens by
    window.tabs.setCurrentWidget(first)
    first.right_split.setSizes([460, 200])
    QApplication.processEvents()
    a_right = first.right_split.sizes()
    window.tabs.setCurrentWidget(second)
    QApplication.processEvents()
    second.main_split.setSizes([520, 760])
    second.right_split.setSizes([400, 300])
    QApplication.processEvents()
    b_main, b_right = second.main_split.sizes(), second.right_split.sizes()
    assert not near(a_main, b_main)
    for _ in range(3):  # back and forth: neither tab's layout is reset
        window.tabs.setCurrentWidget(first)
        QApplication.processEvents()
        assert near(first.main_split.sizes(), a_main) and near(first.right_split.sizes(), a_right)
        window.tabs.setCurrentWidget(second)
        QApplication.processEvents()
        assert near(second.main_split.sizes(), b_main)
        assert near(second.right_split.sizes(), b_right)
    window.save_state()  # saving (the current tab's to the window keys) changes no tab
    window.tabs.setCurrentWidget(first)
    QApplication.processEvents()
    assert near(first.main_split.sizes(), a_main)


def test_renamed_tabs_come_back_with_their_names_and_splitters(
    loop: asyncio.AbstractEventLoop, tmp_path: Path, qapp: QApplication
) -> None:
    store = ProfileStore(tmp_path / "profiles.json", SecretStore())
    local, deployed, plain = demo("Local build"), demo("Deployed"), demo("Plain")
    for p in (local, deployed, plain):
        store.put(p)
    first = window_for(store, tmp_path)
    first.resize(1280, 800)
    first.show()
    layouts: dict[str, tuple[list[int], list[int]]] = {}

    async def scenario() -> None:
        tabs = [first.current_tab, first.new_tab(), first.new_tab()]
        for tab, profile in zip(tabs, (local, deployed, plain), strict=True):
            await connected(tab, profile)
        tabs[0].rename("my build\n(v2)")
        tabs[1].rename("prod")  # tabs[2] keeps its automatic name
        for tab, left, bottom in zip(tabs, (280, 600, 420), (180, 360, 240), strict=True):
            first.tabs.setCurrentWidget(tab)
            await asyncio.sleep(0.05)
            tab.main_split.setSizes([left, 1280 - left])
            tab.right_split.setSizes([700 - bottom, bottom])
            await asyncio.sleep(0.05)
            layouts[tab.controller.model.profile.id] = (  # type: ignore[union-attr]
                tab.main_split.sizes(),
                tab.right_split.sizes(),
            )
        first.tabs.setCurrentWidget(tabs[1])

    try:
        run(loop, scenario(), timeout=90)
        first.save_state()
    finally:
        run(loop, close_window(first))
    again = window_for(ProfileStore(tmp_path / "profiles.json", SecretStore()), tmp_path)
    again.resize(1280, 800)
    again.show()
    try:
        assert again.offer_reopen()
        text = again.reopen_bar.label.text()
        assert "my build (v2) — Local build, prod — Deployed, Plain" in text, text

        async def reopened() -> None:
            again.reopen_bar.reopen_button.click()
            tabs = again.connection_tabs()
            assert again.current_tab is tabs[1]  # "prod" was current at exit
            assert [t.custom_name for t in tabs] == ["my build (v2)", "prod", None]
            assert [again.tabs.tabText(i) for i in range(3)][:2] == ["my build (v2)", "prod"]
            for tab in tabs:
                await until(
                    lambda t=tab: t.controller.model.state is ConnState.CONNECTED, "reopened"
                )
                again.tabs.setCurrentWidget(tab)
                await asyncio.sleep(0.05)
                profile = tab.controller.model.profile
                assert profile is not None
                main, right = layouts[profile.id]
                assert near(tab.main_split.sizes(), main), (tab.main_split.sizes(), main)
                assert near(tab.right_split.sizes(), right), (tab.right_split.sizes(), right)
            # The server's name does not replace the user's once connected.
            assert again.tabs.tabText(1) == "prod"

        run(loop, reopened(), timeout=90)
    finally:
        run(loop, close_window(again))


def test_a_broken_remembered_layout_leaves_the_tab_usable(
    window: MainWindow, loop: asyncio.AbstractEventLoop
) -> None:
    """Splitter states that are garbage or another splitter's are not used (the tab keeps
    the layout it opened with); one that would hide a shown pane (an old build let a
    splitter be dragged to zero) leaves the pane its minimum."""
    collapsed = QSplitter(Qt.Orientation.Vertical)
    collapsed.addWidget(QSplitter())
    collapsed.addWidget(QSplitter())
    collapsed.setSizes([700, 0])
    turned = QSplitter(Qt.Orientation.Vertical)  # another splitter's state
    turned.addWidget(QSplitter())
    turned.addWidget(QSplitter())
    turned.setSizes([300, 300])
    first = window.current_tab
    before = {k: s.sizes() for k, s in splitters_of(first).items()}
    entry = RememberedTab(
        demo("Odd layout"),
        "odd",
        {
            "logSplitter": b"\x00\xffnot a splitter state",
            "rightSplitter": bytes(collapsed.saveState().data()),
            "mainSplitter": bytes(turned.saveState().data()),
            "noSuchSplitter": b"x",
        },
    )

    async def scenario() -> None:
        window.reopen_tabs([entry])
        tab = window.current_tab
        assert tab is first and tab.custom_name == "odd" and len(window.connection_tabs()) == 1
        assert tab.main_split.orientation() == Qt.Orientation.Horizontal
        assert tab.right_split.orientation() == Qt.Orientation.Vertical
        for key in ("mainSplitter", "logSplitter", "serverSplitter"):  # not used
            assert near(splitters_of(tab)[key].sizes(), before[key]), key
        # The bottom panel dragged to zero comes back at its minimum height, not hidden.
        centre, bottom = tab.right_split.sizes()
        assert centre > 0 and bottom >= tab.bottom.minimumHeight() > 0
        await until(lambda: tab.controller.model.state is ConnState.CONNECTED, "the odd tab")

    run(loop, scenario(), timeout=60)


def test_remembered_command_lines_that_do_not_make_a_profile_are_left_out(
    memory: tuple[TabMemory, QSettings, list[Profile]],
) -> None:
    """Issue 31: a tab of a command line or URL is kept as its target; an edited or
    hostile target (wrong types, a URL that is no http(s), no command) is left out, the
    other tabs come back, and a secret environment value is never written."""
    mem, settings, (one, _two) = memory
    good = {"name": "stdio: srv", "transport": "stdio", "command": "srv", "args": ["-v"],
            "cwd": None, "env": [{"name": "MODE", "value": "x"}]}  # fmt: skip
    bad = [
        {"name": "x", "transport": "http", "url": "file:///etc/passwd"},
        {"name": "x", "transport": "stdio", "command": ""},
        {"name": "x", "transport": "stdio", "command": "a", "args": "not a list"},
        {"name": "x", "transport": "stdio", "command": "a", "env": [1, 2]},
        {"name": 3, "transport": "stdio", "command": "a"},
        {"name": "x", "transport": "carrier pigeon"},
        "a string",
    ]
    tabs = [{"profile": one.id, "name": None, "splitters": {}, "current": False}]
    tabs += [{"target": t, "name": "mine", "splitters": {}, "current": False} for t in bad]
    tabs.append({"target": good, "name": "mine", "splitters": {}, "current": True})
    settings.setValue(KEY, [one.id])
    settings.setValue(DETAIL_KEY, json.dumps({"version": MEMORY_VERSION, "tabs": tabs}))
    loaded = mem.load()
    assert [(t.profile.name, t.adhoc, t.current) for t in loaded] == [
        ("One", False, False),
        ("stdio: srv", True, True),
    ]
    assert loaded[1].label == "mine — stdio: srv (not saved)"
    assert loaded[1].profile.stdio.args == ["-v"]

    from inspector.settings.profiles import EnvVar, StdioSettings
    from inspector.ui.tabs.tab_memory import target_of

    secret = Profile(
        name="s",
        stdio=StdioSettings(
            command="srv", env=[EnvVar(name="TOKEN", value="hunter2", secret=True)]
        ),
    )
    assert "hunter2" not in json.dumps(target_of(secret))
