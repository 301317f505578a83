"""The form for one profile: stdio or HTTP, protocol settings, roots, capabilities.

It reads and writes `Profile` objects; validation and storage live in the Qt-free
`inspector.settings.profiles`. Secret values are typed here but never shown back: a stored
secret shows where it is kept (keyring, or this session only).
"""

from __future__ import annotations

import shlex
from typing import Literal

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QTableWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.settings.profiles import (
    ClientCapabilitySwitches,
    EnvVar,
    HeaderEntry,
    HttpSettings,
    Problem,
    Profile,
    RootEntry,
    StdioSettings,
    Timeouts,
)
from inspector.storage.secrets import SecretStore
from inspector.ui.profiles.auth_section import AuthSection
from inspector.ui.profiles.server_card_tab import ServerCardTab
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["KeyValueTable", "ProfileEditor", "shell_words"]


def shell_words(args: list[str]) -> str:
    """Arguments as a person types them in a shell: bare when safe, in double quotes when
    that needs no escapes (`-c "print('x')"`), in single quotes otherwise. shlex.split
    gives `args` back exactly."""
    words = []
    for arg in args:
        if arg and shlex.quote(arg) == arg:
            words.append(arg)
        elif not any(c in arg for c in '"\\$`!'):
            words.append(f'"{arg}"')
        else:
            words.append(shlex.quote(arg))
    return " ".join(words)


class KeyValueTable(QWidget):
    """Name / value / secret rows (env variables or headers). Secret values are masked."""

    changed = Signal()

    def __init__(self, kind: Literal["env", "header"], name_hint: str) -> None:
        super().__init__()
        self.kind = kind
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Name", "Value", "Secret"])
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setColumnWidth(0, 180)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setMinimumHeight(110)
        self._name_hint = name_hint
        add = QPushButton("Add")
        add.clicked.connect(lambda: self.add_row("", "", False))
        remove = QPushButton("Remove")
        remove.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keep focus in the row to remove
        remove.clicked.connect(self.remove_current)
        buttons = QVBoxLayout()
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)

    def add_row(self, name: str, value: str, secret: bool, stored_where: str | None = None) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        name_edit = QLineEdit(name)
        name_edit.setPlaceholderText(self._name_hint)
        value_edit = QLineEdit(value)
        secret_box = QCheckBox()
        secret_box.setChecked(secret)
        secret_box.setToolTip("Keep the value in the system keyring, never in the profile file")

        def masked(
            on: bool, edit: QLineEdit = value_edit, where: str | None = stored_where
        ) -> None:
            edit.setEchoMode(QLineEdit.EchoMode.Password if on else QLineEdit.EchoMode.Normal)
            if on and where:
                edit.setPlaceholderText(f"stored ({where}); type to replace")
            elif on:
                edit.setPlaceholderText("not set")
            else:
                edit.setPlaceholderText("")

        secret_box.toggled.connect(masked)
        masked(secret)
        for widget in (name_edit, value_edit):
            widget.textChanged.connect(self.changed)
        secret_box.toggled.connect(self.changed)
        self.table.setCellWidget(row, 0, name_edit)
        self.table.setCellWidget(row, 1, value_edit)
        holder = QWidget()  # centers the check box in its cell
        holder_layout = QHBoxLayout(holder)
        holder_layout.setContentsMargins(0, 0, 0, 0)
        holder_layout.setAlignment(Qt.AlignmentFlag.AlignCenter)
        holder_layout.addWidget(secret_box)
        self.table.setCellWidget(row, 2, holder)
        self.changed.emit()
        return row

    def remove_current(self) -> None:
        row = next(
            (
                r
                for r in range(self.table.rowCount())
                for c in (0, 1)
                if (w := self.table.cellWidget(r, c)) is not None and w.hasFocus()
            ),
            self.table.currentRow(),
        )
        if row < 0:
            row = self.table.rowCount() - 1
        if row >= 0:
            self.table.removeRow(row)
            self.changed.emit()

    def clear(self) -> None:
        self.table.setRowCount(0)

    def rows(self) -> list[tuple[str, str, bool]]:
        out = []
        for row in range(self.table.rowCount()):
            name = self.table.cellWidget(row, 0)
            value = self.table.cellWidget(row, 1)
            holder = self.table.cellWidget(row, 2)
            secret = holder.findChild(QCheckBox) if holder is not None else None
            assert isinstance(name, QLineEdit) and isinstance(value, QLineEdit)
            assert isinstance(secret, QCheckBox)
            if name.text().strip() or value.text():
                out.append((name.text().strip(), value.text(), secret.isChecked()))
        return out

    def value_edit(self, row: int) -> QLineEdit:
        widget = self.table.cellWidget(row, 1)
        assert isinstance(widget, QLineEdit)
        return widget


def _seconds_box(maximum: float) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(0, maximum)
    box.setDecimals(1)
    box.setSuffix(" s")
    box.setSpecialValueText("none")  # 0 means no timeout
    return box


class ProfileEditor(QWidget):
    changed = Signal()

    def __init__(self, secrets: SecretStore | None = None) -> None:
        super().__init__()
        self.secrets = secrets
        self._profile = Profile(name="")
        self.name = QLineEdit()
        self.transport = QComboBox()
        self.transport.addItem("stdio: a local process", "stdio")
        self.transport.addItem("HTTP: a URL (streamable HTTP or SSE)", "http")
        top = QFormLayout()
        top.addRow("Name:", self.name)
        top.addRow("Connect by:", self.transport)

        # stdio
        self.command = QLineEdit()
        self.command.setPlaceholderText("npx, uvx, node, python, or a full path")
        self.args = QLineEdit()
        self.args.setPlaceholderText("arguments, quoted as in a shell")
        self.cwd = QLineEdit()
        self.cwd.setPlaceholderText("(the app's working directory)")
        self.full_env = QCheckBox("Pass my whole environment (default: a minimal safe set)")
        self.env = KeyValueTable("env", "VARIABLE")
        stdio_box = QWidget()
        stdio_form = QFormLayout(stdio_box)
        stdio_form.setContentsMargins(0, 0, 0, 0)
        stdio_form.addRow("Command:", self.command)
        stdio_form.addRow("Arguments:", self.args)
        stdio_form.addRow("Working dir:", self.cwd)
        stdio_form.addRow("", self.full_env)
        stdio_form.addRow("Environment:", self.env)

        # http
        self.url = QLineEdit()
        self.url.setPlaceholderText("https://example.com/mcp")
        self.http_transport = QComboBox()
        self.http_transport.addItem("auto (streamable HTTP, falls back to SSE)", "auto")
        self.http_transport.addItem("streamable HTTP", "streamable-http")
        self.http_transport.addItem("HTTP+SSE (deprecated, 2024-11-05)", "sse")
        self.headers = KeyValueTable("header", "Header-Name")
        http_box = QWidget()
        http_form = QFormLayout(http_box)
        http_form.setContentsMargins(0, 0, 0, 0)
        http_form.addRow("URL:", self.url)
        http_form.addRow("Transport:", self.http_transport)
        http_form.addRow("Headers:", self.headers)
        self.target_stack = QStackedWidget()
        self.target_stack.addWidget(stdio_box)
        self.target_stack.addWidget(http_box)

        # protocol
        self.era = QComboBox()
        self.era.addItem("legacy: initialize handshake (2024-11-05 … 2025-11-25)", "legacy")
        self.era.addItem("auto: try server/discover, fall back to initialize", "auto")
        self.era.addItem("modern: 2026-07-28, no handshake", "modern")
        self.request_timeout = _seconds_box(86400)
        self.reset_on_progress = QCheckBox("Progress notifications reset the request timeout")
        self.max_total = _seconds_box(86400)
        self.max_message = QSpinBox()
        self.max_message.setRange(1, 4096)
        self.max_message.setSuffix(" MiB")
        self.max_message.setToolTip(
            "A bigger message (stdio line, HTTP body, SSE event) is cut to its head and "
            "flagged in the log; its request fails"
        )
        self.cap_sampling = QCheckBox("sampling")
        self.cap_elicitation = QCheckBox("elicitation")
        self.cap_roots = QCheckBox("roots")
        self.cap_apps = QCheckBox("MCP Apps (ui)")
        self.cap_apps.setToolTip(
            "Declare the MCP Apps extension (io.modelcontextprotocol/ui, "
            "text/html;profile=mcp-app) in capabilities.extensions, as the App tab renders "
            "apps. Only the window declares it; the command line never does."
        )
        caps = QHBoxLayout()
        for box in (self.cap_sampling, self.cap_elicitation, self.cap_roots, self.cap_apps):
            caps.addWidget(box)
        caps.addStretch(1)
        self.roots = KeyValueTable("env", "file:///path/to/project")
        self.roots.table.setHorizontalHeaderLabels(["URI", "Name", ""])
        self.roots.table.setColumnHidden(2, True)
        protocol = QWidget()
        pform = QFormLayout(protocol)
        pform.addRow("Era:", self.era)
        pform.addRow("Request timeout:", self.request_timeout)
        pform.addRow("", self.reset_on_progress)
        pform.addRow("Hard maximum:", self.max_total)
        pform.addRow("Largest message:", self.max_message)
        pform.addRow("Declare:", caps)
        pform.addRow("Roots:", self.roots)

        self.keyring_note = PlainLabel(wrap=True)
        self.problems = PlainLabel(wrap=True)
        self.source = PlainLabel(wrap=True)
        self.source.setEnabled(False)

        tabs = QTabWidget()
        server = QWidget()
        server_layout = QVBoxLayout(server)
        server_layout.addLayout(top)
        server_layout.addWidget(self.target_stack, 1)
        server_layout.addWidget(self.source)
        tabs.addTab(server, "Server")
        tabs.addTab(protocol, "Protocol")
        self.auth = AuthSection()
        tabs.addTab(self.auth, "Auth")
        self.card = ServerCardTab(self.url.text)
        card_tab = tabs.addTab(self.card, "Server Card (draft)")
        tabs.setTabEnabled(card_tab, False)
        self.tabs = tabs
        secrets_box = QGroupBox("Secrets")
        secrets_layout = QVBoxLayout(secrets_box)
        secrets_layout.addWidget(self.keyring_note)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(tabs, 1)
        layout.addWidget(secrets_box)
        layout.addWidget(self.problems)

        self.transport.currentIndexChanged.connect(lambda i: self.target_stack.setCurrentIndex(i))
        self.transport.currentIndexChanged.connect(lambda i: self.auth.set_http(i == 1))
        self.transport.currentIndexChanged.connect(lambda i: tabs.setTabEnabled(card_tab, i == 1))
        self.auth.changed.connect(self.changed)
        for edit in (self.name, self.command, self.args, self.cwd, self.url):
            edit.textChanged.connect(self.changed)
        for combo in (self.transport, self.http_transport, self.era):
            combo.currentIndexChanged.connect(self.changed)
        for table in (self.env, self.headers, self.roots):
            table.changed.connect(self.changed)
        self.refresh_keyring_note()

    def refresh_keyring_note(self) -> None:
        if self.secrets is None:
            self.keyring_note.setText("Secret values cannot be stored here.")
            return
        self.keyring_note.setText(self.secrets.status().message)

    # ---------------------------------------------------------------- load/save
    def load(self, profile: Profile) -> None:
        self._profile = profile.model_copy(deep=True)
        p = self._profile
        self.card.reset()
        self.name.setText(p.name)
        self.transport.setCurrentIndex(0 if p.transport == "stdio" else 1)
        self.target_stack.setCurrentIndex(0 if p.transport == "stdio" else 1)
        self.command.setText(p.stdio.command)
        self.args.setText(shell_words(p.stdio.args))
        self.cwd.setText(p.stdio.cwd or "")
        self.full_env.setChecked(p.stdio.inherit_full_env)
        self.env.clear()
        for e in p.stdio.env:
            self.env.add_row(e.name, e.value, e.secret, self._where("env", e.name, e.secret))
        self.url.setText(p.http.url)
        self.http_transport.setCurrentIndex(max(0, self.http_transport.findData(p.http.transport)))
        self.headers.clear()
        for h in p.http.headers:
            self.headers.add_row(h.name, h.value, h.secret, self._where("header", h.name, h.secret))
        self.auth.load(p.http.auth, lambda slot: self._where("auth", slot, True))
        self.auth.set_http(p.transport == "http")
        self.tabs.setTabEnabled(self.tabs.indexOf(self.card), p.transport == "http")
        self.era.setCurrentIndex(max(0, self.era.findData(p.era)))
        self.request_timeout.setValue(p.timeouts.request or 0)
        self.reset_on_progress.setChecked(p.timeouts.reset_on_progress)
        self.max_total.setValue(p.timeouts.max_total or 0)
        self.max_message.setValue(p.max_message_mb)
        self.cap_sampling.setChecked(p.capabilities.sampling)
        self.cap_elicitation.setChecked(p.capabilities.elicitation)
        self.cap_roots.setChecked(p.capabilities.roots)
        self.cap_apps.setChecked(p.capabilities.apps)
        self.roots.clear()
        for r in p.roots:
            self.roots.add_row(r.uri, r.name or "", False)
        self.source.setText(f"Imported from {p.source}" if p.source else "")
        self.source.setVisible(bool(p.source))
        read_only = p.builtin
        for page in range(self.tabs.count()):  # the tabs stay browsable
            widget = self.tabs.widget(page)
            if widget is not None:
                widget.setEnabled(not read_only)
        self.problems.setText(
            "The demo profile is built in: duplicate it to make your own changes."
            if read_only
            else ""
        )
        self.refresh_keyring_note()

    def _where(self, kind: str, name: str, secret: bool) -> str | None:
        if not secret or self.secrets is None:
            return None
        where = self.secrets.where(self._profile.id, kind, name)
        return {"keyring": "in the keyring", "session": "for this session only"}.get(where or "")

    def profile(self) -> Profile:
        """A new Profile from the form (same id as the one loaded)."""
        try:
            args = shlex.split(self.args.text())
        except ValueError:
            args = self.args.text().split()
        return Profile(
            id=self._profile.id,
            name=self.name.text().strip(),
            transport="http" if self.transport.currentData() == "http" else "stdio",
            stdio=StdioSettings(
                command=self.command.text().strip(),
                args=args,
                env=[EnvVar(name=n, value=v, secret=s) for n, v, s in self.env.rows()],
                cwd=self.cwd.text().strip() or None,
                inherit_full_env=self.full_env.isChecked(),
            ),
            http=HttpSettings(
                url=self.url.text().strip(),
                transport=self.http_transport.currentData(),
                headers=[HeaderEntry(name=n, value=v, secret=s) for n, v, s in self.headers.rows()],
                auth=self.auth.value(),
            ),
            era=self.era.currentData(),
            timeouts=Timeouts(
                request=self.request_timeout.value() or None,
                reset_on_progress=self.reset_on_progress.isChecked(),
                max_total=self.max_total.value() or None,
            ),
            max_message_mb=self.max_message.value(),
            roots=[RootEntry(uri=u, name=n or None) for u, n, _s in self.roots.rows() if u],
            capabilities=ClientCapabilitySwitches(
                sampling=self.cap_sampling.isChecked(),
                elicitation=self.cap_elicitation.isChecked(),
                roots=self.cap_roots.isChecked(),
                apps=self.cap_apps.isChecked(),
            ),
            source=self._profile.source,
            builtin=self._profile.builtin,
        )

    def show_problems(self, problems: list[Problem]) -> None:
        if not problems:
            self.problems.setText("")
            return
        lines = [("✖ " if p.severity == "error" else "⚠ ") + p.message for p in problems]
        self.problems.setText("\n".join(lines))
