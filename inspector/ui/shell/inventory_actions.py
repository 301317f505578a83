"""What the window does with a configured server picked in File ▸ Configured servers…
(`ui/security/inventory_dialog.py`): open it in a tab (the window's empty tab, else a new
one; the entry is a profile for this run), scan it (that tab, its Security tab shown),
check it (the check window), or tap it (the host's config entry rewritten through the tap,
shown before it is written). The dialog has already asked before a command is started."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from inspector.core.inspector_model import InspectorModel
from inspector.settings.inventory import ConfiguredServer, read_inventory
from inspector.settings.profiles import Profile
from inspector.ui.security.inventory_dialog import InventoryDialog
from inspector.ui.tabs.connection_tab import ConnectionTab
from inspector.ui.widgets.message_box import open_warning

__all__ = ["InventoryHost", "open_configured", "open_inventory"]


class InventoryHost(Protocol):
    """What of the main window these actions use (`MainWindow` fits)."""

    app: InspectorModel

    @property
    def current_tab(self) -> ConnectionTab: ...

    def refresh_profiles(self) -> None: ...

    def new_tab(self, profile: Profile | None = None) -> ConnectionTab: ...


def _parent(window: InventoryHost) -> QWidget | None:
    return window if isinstance(window, QWidget) else None


def open_inventory(window: InventoryHost, project: Path | None = None) -> InventoryDialog:
    """The dialog over this machine's configs (and `project`'s, default the current folder)."""
    folder = project or Path.cwd()
    dialog = InventoryDialog(lambda: read_inventory(folder), _parent(window))
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open_requested.connect(lambda s: open_configured(window, s))
    dialog.scan_requested.connect(lambda s: _scan(window, s))
    dialog.check_requested.connect(lambda s: _check(window, s))
    dialog.tap_requested.connect(lambda s: _tap(window, dialog, s))
    dialog.show()
    return dialog


def open_configured(window: InventoryHost, server: ConfiguredServer) -> ConnectionTab:
    """`server` connected in the window's empty tab, else in a new tab."""
    profile = server.profile
    if window.app.profiles.get(profile.id) is None:
        window.app.profiles.add_adhoc(profile)
        window.refresh_profiles()
    tab = window.current_tab
    if tab.controller.model.profile is None and not tab.offline:
        tab.connect_profile(profile)
        return tab
    return window.new_tab(profile)


def _scan(window: InventoryHost, server: ConfiguredServer) -> None:
    tab = open_configured(window, server)
    tab.bottom.setCurrentWidget(tab.security)


def _check(window: InventoryHost, server: ConfiguredServer) -> None:
    from inspector.ui.check.check_dialog import CheckDialog  # httpx: only when asked

    dialog = CheckDialog(
        server.profile, window.current_tab.connection.start, window.app.secrets, _parent(window)
    )
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    dialog.run()


def _tap(window: InventoryHost, dialog: InventoryDialog, server: ConfiguredServer) -> None:
    from inspector.tap.host_config import ConfigEditError, plan_install
    from inspector.ui.tap.config_tap import TapEditDialog

    try:
        edit = plan_install(server.path, server.name)
    except ConfigEditError as exc:
        open_warning(dialog, "inventoryTapError", "Cannot tap this server", str(exc))
        return
    tap = TapEditDialog(edit, dialog)
    tap.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    tap.accepted.connect(dialog.reload)
    tap.open()
