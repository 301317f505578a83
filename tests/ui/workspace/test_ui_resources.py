"""The resource reader against real servers: text, blobs (image, hex, save), huge contents
read without freezing the window (the event-loop stall is measured), subscriptions."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from inspector.features.resource_content import INITIAL_DISPLAY_CHARS
from inspector.protocol.wire.versions import EraSetting
from inspector.settings.profiles import Profile
from inspector.ui.content.resource_contents_view import PartView
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.workspace.resource_reader import ResourceReader
from tests.helpers.gui import connected, python_profile, run, until
from tests.helpers.peers import REPO
from tests.helpers.stall import STALL_LIMIT, StallMeter

MB = 1_000_000  # as in tests/servers/misbehaving/big_resource_server.py

pytestmark = pytest.mark.timeout(120)

BIG = str(REPO / "tests" / "servers" / "misbehaving" / "big_resource_server.py")


async def connect(controller: ConnectionController, profile: Profile) -> None:
    await connected(controller, profile)


def demo(era: EraSetting = EraSetting.LEGACY) -> Profile:
    profile = python_profile("demo", "-m", "inspector.demo")
    profile.era = era
    return profile


async def read(reader: ResourceReader, uri: str) -> PartView:
    reader.set_uri(uri)
    before = reader.reads
    task = reader.read()
    assert task is not None
    await task
    assert reader.reads == before + 1, reader.status.text()
    return reader.contents.parts[0]


def test_text_json_and_blob_image(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object, tmp_path: Path
) -> None:
    async def scenario() -> None:
        await connect(controller, demo())
        reader = ResourceReader(controller)
        reader.resize(800, 600)
        reader.show()
        part = await read(reader, "demo://readme")
        assert (
            part.mode == "text"
            and "# MCP Inspector (Qt) demo server" in part.text_view.toPlainText()
        )
        assert not part.banner_box.isVisible()
        assert "text/markdown" in part.meta_label.text()
        assert part.mode_buttons["markdown"].isVisibleTo(part)
        part.show_mode("markdown")
        assert part.markdown_view is not None
        assert part.markdown_view.toPlainText().startswith("MCP Inspector (Qt) demo server")
        part = await read(reader, "demo://config.json")
        assert part.mode_buttons["json"].isVisibleTo(part)
        part.show_mode("json")
        assert part.text_view.toPlainText().startswith('{\n  "theme": "dark"')
        assert reader.status.text().startswith("Read at")
        assert reader.read_button.isEnabled() and not reader.cancel_button.isVisible()
        part = await read(reader, "demo://logo.png")
        assert part.mode == "image"
        image = part.image_scroll.image
        assert image is not None and image.width() == 16
        assert part.image_scroll.scale == 8  # a tiny icon is shown 8× ("Fit")
        assert part.image_label.pixmap().width() == 128
        part.zoom_combo.setCurrentText("100%")
        assert part.image_label.pixmap().width() == 16
        assert "16×16 px" in part.meta_label.text()
        part.show_mode("hex")
        assert part.hex_view.toPlainText().startswith("00000000  89 50 4e 47")
        await part.save_to(tmp_path / "logo.png")
        assert (tmp_path / "logo.png").read_bytes().startswith(b"\x89PNG")
        await controller.model.shutdown()

    run(loop, scenario())


def test_read_failure_is_shown(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, demo())
        reader = ResourceReader(controller)
        reader.set_uri("demo://missing")
        task = reader.read()
        assert task is not None
        await task
        assert "Resource not found" in reader.status.text()
        assert "Resource not found" in reader.contents.placeholder.text()
        await controller.model.shutdown()
        assert not reader.read_button.isEnabled()

    run(loop, scenario())


@pytest.mark.parametrize("era", [EraSetting.LEGACY, EraSetting.MODERN], ids=str)
def test_subscribe_shows_updates_and_rereads(
    loop: asyncio.AbstractEventLoop,
    controller: ConnectionController,
    qtbot: object,
    era: EraSetting,
) -> None:
    async def scenario() -> None:
        await connect(controller, demo(era))
        reader = ResourceReader(controller)
        reader.show()
        await read(reader, "demo://config.json")
        assert reader.subscribe_button.isEnabled()
        reader.auto_reread.setChecked(True)
        reader.toggle_subscription()
        await until(lambda: reader.watch() is not None and reader.watch().updates >= 1, "update")  # type: ignore[union-attr]
        await until(lambda: reader.reads >= 2, "the automatic re-read")
        assert reader.subscribe_button.text() == "Unsubscribe"
        assert "updated at" in reader.watch_label.text()
        assert reader.reread_button.isVisible()
        task = reader.toggle_subscription()
        assert task is not None
        await task
        assert reader.subscribe_button.text() == "Subscribe"
        assert reader.watch_label.text().startswith("Unsubscribed")
        sent = [e.method for e in controller.model.traffic if e.direction == "out"]
        if era is EraSetting.MODERN:
            assert "subscriptions/listen" in sent
            await until(
                lambda: (
                    "notifications/cancelled"
                    in [e.method for e in controller.model.traffic if e.direction == "out"]
                ),
                "the listen stream to be cancelled",
            )
        else:
            assert "resources/subscribe" in sent and "resources/unsubscribe" in sent
        await controller.model.shutdown()

    run(loop, scenario())


def test_the_stall_meter_sees_a_blocked_loop(
    loop: asyncio.AbstractEventLoop, qtbot: object
) -> None:
    async def scenario() -> float:
        with StallMeter() as meter:
            await asyncio.sleep(0.05)  # not a wait: the meter watches a free loop first
            time.sleep(0.3)  # not a wait: the stall under test (a synchronous 15 MB setText)
            await asyncio.sleep(0.05)  # not a wait: the meter's next tick measures the stall
        return meter.worst

    assert run(loop, scenario()) >= 0.3


def test_huge_text_does_not_freeze(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("big", BIG))  # the default 64 MiB limit
        reader = ResourceReader(controller)
        reader.resize(900, 700)
        reader.show()
        with StallMeter() as meter:
            part = await read(reader, "big://text-20mb")
            await asyncio.sleep(0.05)  # not a wait: the meter watches the loop after the read
        read_stall = meter.worst
        assert part.banner_box.isVisible() and part.load_all_button.isVisible()
        assert f"of {20 * MB:,} characters" in part.banner.text()
        shown = part.text_view.document().characterCount()
        assert INITIAL_DISPLAY_CHARS // 2 < shown <= INITIAL_DISPLAY_CHARS + 1
        with StallMeter() as meter:
            task = part.load_all()
            assert task is not None
            await task
        assert part.fully_shown and not part.load_all_button.isVisible()
        assert part.text_view.document().characterCount() >= 20 * MB
        assert read_stall < STALL_LIMIT, f"reading stalled the loop {read_stall * 1000:.0f} ms"
        assert meter.worst < STALL_LIMIT, f"load all stalled the loop {meter.worst * 1000:.0f} ms"
        await controller.model.shutdown()

    run(loop, scenario(), timeout=90)


def test_resource_over_the_frame_limit_fails_clearly(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("big", BIG, max_message_mb=16))
        reader = ResourceReader(controller)
        reader.show()
        reader.set_uri("big://text-20mb")
        with StallMeter() as meter:
            task = reader.read()
            assert task is not None
            await task
        assert "exceeds the size limit" in reader.status.text()
        assert meter.worst < STALL_LIMIT, f"stalled {meter.worst * 1000:.0f} ms"
        await read(reader, "big://weird")  # the session goes on
        await controller.model.shutdown()

    run(loop, scenario(), timeout=90)


def test_one_long_line_and_big_blob(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("big", BIG, max_message_mb=16))
        reader = ResourceReader(controller)
        reader.resize(900, 700)
        reader.show()
        with StallMeter() as meter:
            part = await read(reader, "big://oneline-8mb")
            await until(lambda: "Long lines are broken for display" in part.banner.text(), "it")
            task = part.load_all()
            assert task is not None
            await task
            blob = await read(reader, "big://blob-10mb")
            await until(lambda: blob.part.decoded, "the blob to decode")
            await asyncio.sleep(0.05)  # not a wait: the meter watches the loop after decoding
        assert blob.mode == "hex"
        assert "Showing the first 64.0 KiB of 9.5 MiB" in blob.banner.text()
        lines = blob.hex_view.toPlainText().count("\n") + 1
        blob.more_hex()
        assert blob.hex_view.toPlainText().count("\n") + 1 == 2 * lines
        assert meter.worst < STALL_LIMIT, f"stalled {meter.worst * 1000:.0f} ms"
        await controller.model.shutdown()

    run(loop, scenario(), timeout=90)


def test_bad_blob_and_weird_shapes(
    loop: asyncio.AbstractEventLoop, controller: ConnectionController, qtbot: object
) -> None:
    async def scenario() -> None:
        await connect(controller, python_profile("big", BIG, max_message_mb=16))
        reader = ResourceReader(controller)
        reader.show()
        bad = await read(reader, "big://bad-blob")
        assert "not valid base64" in bad.message.text()
        assert not bad.save_button.isEnabled()
        assert "invalid base64" in bad.problems.text()
        await read(reader, "big://weird")
        assert "3 parts" in reader.contents.summary.text()
        assert "problem" in reader.status.text()
        views = reader.contents.parts
        assert "neither 'text' nor 'blob'" in views[0].problems.text()
        assert "not an object" in views[1].problems.text()
        assert views[2].mode == "text" and "both 'text' and 'blob'" in views[2].problems.text()
        two = await read(reader, "big://two-parts")
        assert two.mode == "text"
        assert reader.contents.parts[1].mode == "image"
        await controller.model.shutdown()

    run(loop, scenario())


@pytest.mark.peers
def test_everything_subscription_through_the_reader(
    loop: asyncio.AbstractEventLoop,
    controller: ConnectionController,
    qtbot: object,
    everything_command: list[str],
) -> None:
    async def scenario() -> None:
        profile = Profile(name="everything")
        profile.stdio.command = everything_command[0]
        profile.stdio.args = everything_command[1:]
        await connect(controller, profile)
        session = controller.model.session
        assert session is not None
        uri = (await session.client.list_resources())[0]["uri"]
        reader = ResourceReader(controller)
        reader.show()
        part = await read(reader, uri)
        assert part.part.kind in ("text", "blob")
        task = reader.toggle_subscription()
        assert task is not None
        await task
        assert reader.watch_label.text().startswith("Subscribed since")
        await session.client.call_tool("toggle-subscriber-updates", {})
        await until(lambda: "updated at" in reader.watch_label.text(), "an update", timeout=8)
        assert reader.reread_button.text() == "Re-read (changed)"
        reader.read()
        await until(lambda: reader.reads == 2, "the re-read")
        assert reader.reread_button.text() == "Re-read"
        await session.client.call_tool("toggle-subscriber-updates", {})
        await controller.model.shutdown()
        assert reader.watch_label.text().startswith("Not subscribed: the connection ended")

    run(loop, scenario())
