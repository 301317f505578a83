"""Tab menu ▸ Save as profile…: a tab opened on a command line or URL kept as a saved profile,
under a name the user gives (the tab's own name by default)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QWidget

from inspector.core.profiles import KnownProfiles
from inspector.storage.secrets import NoKeyringError
from inspector.ui.tabs.connection_tab import ConnectionTab

__all__ = ["ask_save_as_profile"]


def ask_save_as_profile(
    parent: QWidget,
    profiles: KnownProfiles,
    tab: ConnectionTab,
    refresh: Callable[[], None],
) -> QInputDialog | None:
    """Ask for a name and save the tab's command line or URL as a profile; the tab is then
    remembered and listed as any other. None when the tab's profile is already saved."""
    profile = tab.remembered_profile()
    if profile is None or not profiles.is_adhoc(profile.id):
        return None
    dialog = QInputDialog(parent)
    dialog.setObjectName("saveAsProfileDialog")
    dialog.setWindowTitle("Save as profile")
    dialog.setLabelText(f"Save {profile.target} as a profile named:")
    dialog.setTextValue(tab.custom_name or profile.name)

    def save(name: str) -> None:
        name = " ".join(name.split())
        if not name:
            return
        try:
            saved = profiles.save_adhoc(profile.id, name)
        except (ValueError, NoKeyringError) as exc:
            tab.status.showMessage(f"Not saved: {exc}", 10000)
            return
        if saved is not None:
            refresh()
            tab.changed.emit()
            tab.status.showMessage(f"Saved as the profile “{saved.name}”.", 8000)

    dialog.textValueSelected.connect(save)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
