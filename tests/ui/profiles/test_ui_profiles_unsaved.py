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
def store(tmp_path: Path) -> ProfileStore:
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
def dialog(qapp: QApplication, store: ProfileStore, answers: Answers) -> Iterator[ProfilesDialog]:
    dlg = ProfilesDialog(store)
    dlg.ask_unsaved = answers
    yield dlg
    dlg.deleteLater()


def row_texts(dialog: ProfilesDialog) -> list[str]:
    return [dialog.list.item(r).text().split("\n")[0] for r in range(dialog.list.count())]


def click_row(dialog: ProfilesDialog, name: str) -> None:
    row = row_texts(dialog).index(name)
    dialog.list.setCurrentRow(row)


def test_choosing_another_profile_asks_and_cancel_keeps_the_edits(
    dialog: ProfilesDialog, store: ProfileStore, answers: Answers
) -> None:
    dialog.select(store.find("alpha").id)  # type: ignore[union-attr]
    dialog.editor.args.setText("-V --edited")
    answers.next = "cancel"
    click_row(dialog, "Demo server")
    assert answers.asked == ["alpha"]
    assert dialog.editor.name.text() == "alpha"
    assert dialog.editor.args.text() == "-V --edited"
    assert dialog.list.currentItem().text().startswith("alpha")


def test_discard_leaves_and_save_saves(
    dialog: ProfilesDialog, store: ProfileStore, answers: Answers
) -> None:
    alpha = store.find("alpha")
    assert alpha is not None
    dialog.select(alpha.id)
    dialog.editor.args.setText("-V --discarded")
    answers.next = "discard"
    click_row(dialog, "Demo server")
    assert dialog.editor.name.text() == "Demo server"
    assert store.get(alpha.id).stdio.args == ["-V"]  # type: ignore[union-attr]
    click_row(dialog, "alpha")
    assert dialog.editor.args.text() == "-V"
    dialog.editor.args.setText("-V --kept")
    answers.next = "save"
    click_row(dialog, "Demo server")
    assert store.get(alpha.id).stdio.args == ["-V", "--kept"]  # type: ignore[union-attr]
    assert dialog.editor.name.text() == "Demo server"  # and then it went where clicked


def test_no_question_without_changes(dialog: ProfilesDialog, answers: Answers) -> None:
    click_row(dialog, "alpha")
    click_row(dialog, "Demo server")
    dialog.reject()
    assert answers.asked == []
    assert not dialog.isVisible()


def test_esc_and_close_ask_and_cancel_keeps_the_dialog_open(
    dialog: ProfilesDialog, answers: Answers
) -> None:
    dialog.show()
    click_row(dialog, "alpha")
    dialog.editor.args.setText("-V --edited")
    answers.next = "cancel"
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    assert dialog.isVisible() and answers.asked == ["alpha"]
    dialog.close_button.click()
    assert dialog.isVisible() and len(answers.asked) == 2
    dialog.close()  # the window's close button
    assert dialog.isVisible() and len(answers.asked) == 3
    answers.next = "discard"
    dialog.close_button.click()
    assert not dialog.isVisible()


def test_a_new_profile_is_listed_at_once_and_saved_or_discarded(
    dialog: ProfilesDialog, store: ProfileStore, answers: Answers
) -> None:
    dialog.new_profile()
    assert row_texts(dialog)[-1] == "New server  (not saved)"
    assert dialog.list.currentRow() == dialog.list.count() - 1
    dialog.editor.name.setText("brand new")
    dialog.editor.command.setText(PY)
    assert row_texts(dialog)[-1] == "brand new  (not saved)"
    answers.next = "cancel"
    click_row(dialog, "alpha")
    assert dialog.editor.name.text() == "brand new"  # still the draft
    assert dialog.save() is not None
    assert "brand new" in row_texts(dialog)
    assert not any("not saved" in t for t in row_texts(dialog))
    dialog.new_profile()
    answers.next = "discard"
    click_row(dialog, "alpha")
    assert not any("not saved" in t for t in row_texts(dialog))
    assert [p.name for p in store] == ["Demo server", "alpha", "brand new"]


def test_delete_drops_an_unsaved_new_profile(dialog: ProfilesDialog, answers: Answers) -> None:
    dialog.new_profile()
    assert dialog.delete_button.isEnabled()
    dialog.delete_current()
    assert not any("not saved" in t for t in row_texts(dialog))
    assert answers.asked == []
