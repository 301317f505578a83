"""Reads one URI and watches it: Read / Cancel, Subscribe, the update time, Re-read.

Used by the resource view (a fixed URI) and the template view (the URI expanded from the
form). The subscription lives in the controller's `ResourceWatches`, so it survives this
widget; the widget only shows it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.collections.call_draft import CallDraft
from inspector.core.server_connection import (
    Call,
    RequestCancelled,
    RequestTimeout,
    ServerConnection,
    ServerError,
    SessionError,
)
from inspector.features.catalog.cache_hints import cache_hints
from inspector.features.resource_content import ReadResult, parse_read_result
from inspector.features.resource_watch import Watch
from inspector.protocol.wire.versions import Era
from inspector.ui.content.resource_contents_view import ResourceContentsView
from inspector.ui.controller.connection_controller import ConnectionController
from inspector.ui.widgets.elided_label import ElidedLabel
from inspector.ui.widgets.plain_text import PlainLabel, plain_tooltip
from inspector.ui.widgets.run_bar import RunBar
from inspector.ui.widgets.screen_fit import fit_to_screen
from inspector.ui.widgets.theme import colors
from inspector.ui.workspace.save_menu import hand_on_draft, save_call_button

__all__ = ["ResourceReadDialog", "ResourceReader", "open_resource", "watch_text"]


def _clock_time(wall: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(wall))


def _alive(widget: QWidget) -> bool:
    return shiboken6.isValid(widget)


def watch_text(watch: Watch) -> str:
    """What the watch line says about a resource subscription."""
    text = {
        "subscribing": "Subscribing…",
        "active": "Subscribed",
        "failed": "Subscription failed",
        "ended": "Not subscribed",
    }[watch.state]
    if watch.state == "ended" and watch.detail == "unsubscribed":
        text = "Unsubscribed"  # not "Not subscribed: unsubscribed"
    elif watch.detail and watch.state in ("failed", "ended"):
        text += f": {watch.detail}"
    if watch.last_updated is not None:
        plural = "s" if watch.updates != 1 else ""
        text += (
            f" · updated at {_clock_time(watch.last_updated)} "
            f"({watch.updates} update{plural} since {_clock_time(watch.since)})"
        )
    elif watch.watching:
        text += f" since {_clock_time(watch.since)} · no update yet"
    return text


class ResourceReader(QWidget):
    read_finished = Signal(bool)  # ok
    save_call_requested = Signal(object)  # a CallDraft: "Save call…" (when offered)

    def __init__(self, controller: ConnectionController) -> None:
        super().__init__()
        self.controller = controller
        self.uri: str | None = None
        self.blocked_reason = ""  # why the URI cannot be read yet (a template form)
        self.call: Call | None = None
        self.task: asyncio.Task[Any] | None = None
        self.watch_task: asyncio.Task[Any] | None = None
        self.result: ReadResult | None = None
        self.last: CallDraft | None = None  # the last read that ended, for "Save call…"
        self.reads = 0

        self.bar = RunBar("Read", busy_text="Reading…", on_run=self.read, on_cancel=self.cancel)
        self.bar.name_parts("readButton", "cancelRead", "readStatus")
        self.read_button = self.bar.run_button
        self.cancel_button = self.bar.cancel_button
        self.status = self.bar.status_label
        self.subscribe_button = QPushButton("Subscribe")
        self.subscribe_button.setObjectName("subscribeButton")
        self.subscribe_button.clicked.connect(self.toggle_subscription)
        self.auto_reread = QCheckBox("Re-read on update")
        self.auto_reread.setObjectName("autoReread")
        self.auto_reread.setToolTip("Read the resource again whenever the server says it changed")
        self.bar.add_control(self.subscribe_button)
        self.bar.add_control(self.auto_reread)
        self.save_button = save_call_button(self.request_save)
        self.save_button.setToolTip(
            "Save this resources/read (and its last result) into a collection"
        )
        self.save_button.setVisible(False)  # offered where someone saves it (offer_save)
        self.bar.add_trailing(self.save_button)

        self.watch_label = PlainLabel()
        self.watch_label.setObjectName("watchStatus")
        self.reread_button = QPushButton("Re-read")
        self.reread_button.setObjectName("rereadButton")
        self.reread_button.clicked.connect(self.read)
        watch_row = QHBoxLayout()
        watch_row.setContentsMargins(0, 0, 0, 0)
        watch_row.addWidget(self.watch_label, 1)
        watch_row.addWidget(self.reread_button)
        self.watch_box = QWidget()
        self.watch_box.setObjectName("watchBox")
        self.watch_box.setLayout(watch_row)
        self.watch_box.setVisible(False)

        self.contents = ResourceContentsView()
        self.contents.clear("Press Read to fetch this resource.")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.bar)
        layout.addWidget(self.watch_box)
        layout.addWidget(self.contents, 1)

        self._seen_updates = 0

        watches = controller.model.watches
        stop_listening = watches.on_change(self._watch_changed)
        end_tasks = self._own_tasks

        def destroyed(*_args: object) -> None:
            # A destroyed view stops listening and ends its own work (never the subscription).
            stop_listening()
            end_tasks()

        self.destroyed.connect(destroyed)
        controller.state_changed.connect(self._state_changed)
        self.refresh()

    def _own_tasks(self) -> None:
        for task in (self.task, self.watch_task):
            if task is not None and not task.done():
                task.cancel()
        if self.call is not None:
            self.call.cancel("the view was closed")

    # ---------------------------------------------------------------- state
    def session(self) -> ServerConnection | None:
        return self.controller.model.ready_server()

    def set_uri(self, uri: str | None, blocked_reason: str = "") -> None:
        changed = uri != self.uri
        self.uri = uri
        self.blocked_reason = blocked_reason
        if changed:
            self._seen_updates = 0
        self.refresh()

    @property
    def reading(self) -> bool:
        return self.bar.busy

    def watch(self) -> Watch | None:
        if self.uri is None:
            return None
        return self.controller.model.watch_of(self.uri)

    def refresh(self) -> None:
        if not _alive(self):
            return
        session = self.session()
        can_read = session is not None and self.uri is not None and not self.blocked_reason
        self.bar.set_can_run(
            can_read,
            self.blocked_reason or ("" if session is not None else "Connect to read resources."),
        )
        watch = self.watch()
        watching = watch is not None and watch.watching
        ok, why = self.controller.model.can_watch()
        self.subscribe_button.setText("Unsubscribe" if watching else "Subscribe")
        self.subscribe_button.setEnabled(
            (watching and session is not None) or (ok and can_read and not watching)
        )
        self.subscribe_button.setToolTip(
            plain_tooltip(
                why
                or "Legacy: resources/subscribe. "
                "Modern: a subscriptions/listen stream for this URI."
            )
        )
        self._show_watch(watch)

    def _show_watch(self, watch: Watch | None) -> None:
        if watch is None:
            self.watch_box.setVisible(False)
            return
        self.watch_box.setVisible(True)
        text = watch_text(watch)
        self.watch_label.setText(text)
        self.watch_label.setToolTip(plain_tooltip(text))
        c = colors()
        color = {"active": c.ok, "failed": c.error}.get(watch.state, c.muted)
        self.watch_label.setStyleSheet(f"color: {color.name()}")
        fresh = watch.updates > self._seen_updates
        self.reread_button.setVisible(watch.last_updated is not None)
        self.reread_button.setText("Re-read (changed)" if fresh else "Re-read")

    def _watch_changed(self, uri: str) -> None:
        if uri != self.uri or not _alive(self):
            return
        watch = self.watch()
        self.refresh()
        if (
            watch is not None
            and watch.updates > self._seen_updates
            and self.auto_reread.isChecked()
            and not self.reading
        ):
            self.read()

    def _state_changed(self, _state: str, _detail: str) -> None:
        self.refresh()

    # ---------------------------------------------------------------- reading
    def read(self) -> asyncio.Task[Any] | None:
        session = self.session()
        if session is None or self.uri is None or self.blocked_reason or self.reading:
            return None
        watch = self.watch()
        self._seen_updates = watch.updates if watch is not None else 0
        self.task = self.controller.model.start(self._read(session, self.uri), f"read {self.uri}")
        return self.task

    async def _read(self, client: ServerConnection, uri: str) -> None:
        try:
            self.call = client.start_read_resource(uri)
        except SessionError as exc:
            self._failed(str(exc))
            return
        self.bar.set_busy(True)
        self.refresh()
        self.bar.set_status("Reading…")
        try:
            result = await self.call.result()
        except RequestCancelled:
            self._done()
            if _alive(self):
                self.bar.set_status("Cancelled")
                self.read_finished.emit(False)
            return
        except SessionError as exc:
            elapsed_ms = self.bar.elapsed * 1000
            self._done()
            self.last = CallDraft(
                "resources/read",
                {"uri": uri},
                error_code=exc.code if isinstance(exc, ServerError) else None,
                error_message=str(exc),
                timed_out=isinstance(exc, RequestTimeout),
                latency_ms=elapsed_ms,
            )
            if _alive(self):
                self._failed(str(exc))
            return
        except asyncio.CancelledError:
            self._done()
            raise
        self._done()
        elapsed = self.bar.elapsed
        self.last = CallDraft("resources/read", {"uri": uri}, result, latency_ms=elapsed * 1000)
        parsed = parse_read_result(result, uri)
        self.result = parsed
        self.reads += 1
        self.contents.show_result(parsed)
        problems = len(parsed.all_problems)
        warn = f" · {problems} problem{'s' if problems != 1 else ''}" if problems else ""
        hints = cache_hints(result, method="resources/read", modern=client.era is Era.MODERN)
        cache = f" · {hints.describe()}" if hints.present else ""
        if hints.problems:
            cache += f" ({'; '.join(hints.problems)})"
        self.bar.set_status(
            f"Read at {_clock_time(time.time())} in {_ms(elapsed)}{warn}{cache}",
            "warn" if warn or hints.problems else "ok",
        )
        self.refresh()
        self.read_finished.emit(True)

    # ---------------------------------------------------------------- saving
    def offer_save(self) -> None:
        """Show "Save call…" (the workspace views do; a resource window does not)."""
        self.save_button.setVisible(True)

    def draft(self) -> CallDraft | None:
        """The read of the current URI, with the last answer when it was for this URI;
        None while the URI cannot be read (a template not filled in)."""
        if self.uri is None or self.blocked_reason:
            return None
        last = self.last
        if last is not None and last.params == {"uri": self.uri}:
            return last
        return CallDraft("resources/read", {"uri": self.uri})

    def request_save(self) -> CallDraft | None:
        return hand_on_draft(
            self.draft(), self._why_no_draft, self.bar, self.save_call_requested.emit
        )

    def _why_no_draft(self) -> str:
        return self.blocked_reason or "Nothing to save yet."

    def _done(self) -> None:
        self.call = None
        if _alive(self):
            self.bar.set_busy(False)
            self.refresh()

    def _failed(self, message: str) -> None:
        self.contents.clear(f"Could not read {self.uri}:\n{message}", error=True)
        self.bar.set_status(message, "error")
        self.refresh()
        self.read_finished.emit(False)

    def cancel(self) -> None:
        if self.call is not None:
            self.call.cancel("cancelled by the user")

    # ---------------------------------------------------------------- subscription
    def toggle_subscription(self) -> asyncio.Task[Any] | None:
        session = self.session()
        if session is None or self.uri is None:
            return None
        watch = self.watch()
        watches = self.controller.model.watches
        if watch is not None and watch.watching:
            coro = watches.unsubscribe(self.uri)
        else:
            coro = self._subscribe(self.uri)
        self.watch_task = self.controller.model.start(coro, f"subscription {self.uri}")
        return self.watch_task

    async def _subscribe(self, uri: str) -> None:
        watch = await self.controller.model.watch(uri)
        if watch.state == "failed":
            self.controller.model.errors.add("subscription", f"{uri}: {watch.detail}")


def _ms(seconds: float) -> str:
    ms = seconds * 1000
    return f"{ms:.0f} ms" if ms < 10_000 else f"{seconds:.1f} s"


class ResourceReadDialog(QDialog):
    """A resource opened from elsewhere (a resource_link in a prompt message or a tool
    result): the same reader, in its own window, reading at once."""

    def __init__(self, controller: ConnectionController, uri: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Read {uri}")
        self.setObjectName("resourceReadDialog")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.reader = ResourceReader(controller)
        self.reader.set_uri(uri)
        label = ElidedLabel(uri)
        label.setToolTip(plain_tooltip(uri))
        font = label.font()
        font.setBold(True)
        label.setFont(font)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(label)
        layout.addWidget(self.reader, 1)
        layout.addWidget(buttons)
        fit_to_screen(self, 760, 560)


def open_resource(
    controller: ConnectionController, uri: str, parent: QWidget
) -> ResourceReadDialog:
    dialog = ResourceReadDialog(controller, uri, parent)
    dialog.show()
    dialog.reader.read()
    return dialog
