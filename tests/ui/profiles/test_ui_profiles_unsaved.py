"""The Profiles dialog never drops edits silently (issue 18.3): choosing another profile,
New, Esc, Close and the window's close button ask Save / Discard / Cancel; a new profile is
listed at once, marked "not saved"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from inspector.settings.profiles import Profile, ProfileStore, StdioSettings
from inspector.storage.secrets import SecretStore
from inspector.ui.profiles.profiles_dialog import ProfilesDialog, UnsavedChoice
from tests.helpers.peers import PY


@pytest.fixture
def alpha_store(tmp_path: Path) -> ProfileStore:
    s = ProfileStore(tmp_path / "profiles.json", SecretStore())
    s.put(Profile(name="alpha", stdio=StdioSettings(command=PY, args=["-V"])))
    return s


class Answers:
    def __init__(self) -> None:
        self.next: UnsavedChoice = "cancel"
        self.asked: list[str] = []

    def __call__(self, name: str) -> UnsavedChoice:
        self.asked.append(name)
        return self.next


@pytest.fixture
def answers() -> Answers:
    return Answers()


@pytest.fixture
def asking_dialog(
    qapp: QApplication, alpha_store: ProfileStore, answers: Answers
) -> Iterator[ProfilesDialog]:
    dlg = ProfilesDialog(alpha_store)
    dlg.ask_unsaved = answers
    yield dlg
    dlg.deleteLater()


def row_texts(dialog: ProfilesDialog) -> list[str]:
    return [dialog.list.item(r).text().split("\n")[0] for r in range(dialog.list.count())]


def click_row(dialog: ProfilesDialog, name: str) -> None:
    row = row_texts(dialog).index(name)
    dialog.list.setCurrentRow(row)


def test_choosing_another_profile_asks_and_cancel_keeps_the_edits(
    asking_dialog: ProfilesDialog, alpha_store: ProfileStore, answers: Answers
) -> None:
    asking_dialog.select(alpha_store.find("alpha").id)  # type: ignore[union-attr]
    asking_dialog.editor.args.setText("-V --edited")
    answers.next = "cancel"
    click_row(asking_dialog, "Demo server")
    assert answers.asked == ["alpha"]
    assert asking_dialog.editor.name.text() == "alpha"
    assert asking_dialog.editor.args.text() == "-V --edited"
    assert asking_dialog.list.currentItem().text().startswith("alpha")


def test_discard_leaves_and_save_saves(
    asking_dialog: ProfilesDialog, alpha_store: ProfileStore, answers: Answers
) -> None:
    alpha = alpha_store.find("alpha")
    assert alpha is not None
    asking_dialog.select(alpha.id)
    asking_dialog.editor.args.setText("-V --discarded")
    answers.next = "discard"
    click_row(asking_dialog, "Demo server")
    assert asking_dialog.editor.name.text() == "Demo server"
    assert alpha_store.get(alpha.id).stdio.args == ["-V"]  # type: ignore[union-attr]
    click_row(asking_dialog, "alpha")
    assert asking_dialog.editor.args.text() == "-V"
    asking_dialog.editor.args.setText("-V --kept")
    answers.next = "save"
    click_row(asking_dialog, "Demo server")
    assert alpha_store.get(alpha.id).stdio.args == ["-V", "--kept"]  # type: ignore[union-attr]
    assert asking_dialog.editor.name.text() == "Demo server"  # and then it went where clicked


def test_no_question_without_changes(asking_dialog: ProfilesDialog, answers: Answers) -> None:
    click_row(asking_dialog, "alpha")
    click_row(asking_dialog, "Demo server")
    asking_dialog.reject()
    assert answers.asked == []
    assert not asking_dialog.isVisible()


def test_esc_and_close_ask_and_cancel_keeps_the_dialog_open(
    asking_dialog: ProfilesDialog, answers: Answers
) -> None:
    asking_dialog.show()
    click_row(asking_dialog, "alpha")
    asking_dialog.editor.args.setText("-V --edited")
    answers.next = "cancel"
    QTest.keyClick(asking_dialog, Qt.Key.Key_Escape)
    assert asking_dialog.isVisible() and answers.asked == ["alpha"]
    asking_dialog.close_button.click()
    assert asking_dialog.isVisible() and len(answers.asked) == 2
    asking_dialog.close()  # the window's close button
    assert asking_dialog.isVisible() and len(answers.asked) == 3
    answers.next = "discard"
    asking_dialog.close_button.click()
    assert not asking_dialog.isVisible()


def test_a_new_profile_is_listed_at_once_and_saved_or_discarded(
    asking_dialog: ProfilesDialog, alpha_store: ProfileStore, answers: Answers
) -> None:
    asking_dialog.new_profile()
    assert row_texts(asking_dialog)[-1] == "New server  (not saved)"
    assert asking_dialog.list.currentRow() == asking_dialog.list.count() - 1
    asking_dialog.editor.name.setText("brand new")
    asking_dialog.editor.command.setText(PY)
    assert row_texts(asking_dialog)[-1] == "brand new  (not saved)"
    answers.next = "cancel"
    click_row(asking_dialog, "alpha")
    assert asking_dialog.editor.name.text() == "brand new"  # still the draft
    assert asking_dialog.save() is not None
    assert "brand new" in row_texts(asking_dialog)
    assert not any("not saved" in t for t in row_texts(asking_dialog))
    asking_dialog.new_profile()
    answers.next = "discard"
    click_row(asking_dialog, "alpha")
    assert not any("not saved" in t for t in row_texts(asking_dialog))
    assert [p.name for p in alpha_store] == ["Demo server", "alpha", "brand new"]


def test_delete_drops_an_unsaved_new_profile(
    asking_dialog: ProfilesDialog, answers: Answers
) -> None:
    asking_dialog.new_profile()
    assert asking_dialog.delete_button.isEnabled()
    asking_dialog.delete_current()
    assert not any("not saved" in t for t in row_texts(asking_dialog))
    assert answers.asked == []
