"""The Auth tab of the profile editor: none / bearer token / custom headers / OAuth.

It reads and writes `inspector.settings.auth_options.HttpAuth`; validation lives there too. Secret
values (the bearer token, the client secret) are typed here and never shown back: a stored
one shows where it is kept, and "Forget" removes it when the profile is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from inspector.settings.auth_options import BearerOptions, HttpAuth, OAuthOptions, SecretValue
from inspector.ui.widgets.plain_text import PlainLabel

__all__ = ["AuthSection", "SecretField"]

Where = Callable[[str], str | None]  # slot -> "in the keyring" / "for this session only"

_KINDS = [
    ("none", "None"),
    ("bearer", "Bearer token"),
    ("headers", "Custom headers"),
    ("oauth", "OAuth 2.1"),
]
_NOTES = {
    "none": "Requests carry no credentials beyond the headers on the Server tab.",
    "headers": (
        "The headers on the Server tab carry the credentials (for example Authorization or "
        "X-API-Key). Tick Secret on a header to keep its value in the system keyring "
        "instead of the profile file."
    ),
}


def _note(text: str = "") -> PlainLabel:
    """A muted note under a field."""
    label = PlainLabel(text, wrap=True)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    label.setEnabled(False)  # the palette's muted text color
    return label


def _combo(items: list[tuple[str, str]]) -> QComboBox:
    combo = QComboBox()
    for data, text in items:
        combo.addItem(text, data)
    return combo


def _select(combo: QComboBox, data: str) -> None:
    combo.setCurrentIndex(max(0, combo.findData(data)))


class SecretField(QWidget):
    """A masked line edit for a secret, plus "Forget" for the stored one."""

    changed = Signal()

    def __init__(self, empty_hint: str) -> None:
        super().__init__()
        self._empty_hint = empty_hint
        self._stored = False
        self._where: str | None = None
        self.edit = QLineEdit()
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.forget = QPushButton("Forget")
        self.forget.setToolTip("Remove the stored value when the profile is saved")
        self.forget.clicked.connect(self._forget)
        self.edit.textChanged.connect(self.changed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.forget)
        self._refresh()

    def load(self, value: SecretValue, where: str | None) -> None:
        self._stored = value.stored
        self._where = where
        self.edit.setText(value.value)
        self._refresh()

    def _forget(self) -> None:
        self._stored = False
        self.edit.clear()
        self._refresh()
        self.changed.emit()

    def _refresh(self) -> None:
        if self._stored:
            where = self._where or "not found in the keyring: enter it again"
            self.edit.setPlaceholderText(f"stored ({where}); type to replace")
        else:
            self.edit.setPlaceholderText(self._empty_hint)
        self.forget.setEnabled(self._stored)

    def value(self) -> SecretValue:
        return SecretValue(stored=self._stored, value=self.edit.text())


class _BearerPage(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.source = _combo(
            [("keyring", "typed here (kept in the keyring)"), ("env", "an environment variable")]
        )
        self.token = SecretField("not set")
        self.env_name = QLineEdit()
        self.env_name.setPlaceholderText("MCP_BEARER_TOKEN")
        self.form = QFormLayout(self)
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.addRow("Token from:", self.source)
        self.form.addRow("Token:", self.token)
        self.form.addRow("Variable:", self.env_name)
        self.form.addRow(
            "", _note("Sent as “Authorization: Bearer …” on every request to the server.")
        )
        self.source.currentIndexChanged.connect(self._source_changed)
        self._source_changed()

    def _source_changed(self) -> None:
        from_env = self.source.currentData() == "env"
        self.form.setRowVisible(self.token, not from_env)
        self.form.setRowVisible(self.env_name, from_env)

    def load(self, bearer: BearerOptions, where: Where) -> None:
        _select(self.source, bearer.source)
        self.token.load(bearer.token, where("bearer_token"))
        self.env_name.setText(bearer.env_name)
        self._source_changed()

    def value(self) -> BearerOptions:
        return BearerOptions(
            source="env" if self.source.currentData() == "env" else "keyring",
            token=self.token.value(),
            env_name=self.env_name.text().strip(),
        )


class _OAuthPage(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.grant = _combo(
            [
                ("authorization_code", "Authorization code: a login in the browser"),
                ("client_credentials", "Client credentials: machine to machine, no login"),
            ]
        )
        self.registration = _combo(
            [
                ("auto", "auto: pre-registered, then metadata document, then dynamic"),
                ("preregistered", "Pre-registered client (the client id below)"),
                ("cimd", "Client ID Metadata Document (the URL below)"),
                ("dcr", "Dynamic Client Registration"),
            ]
        )
        self.client_id = QLineEdit()
        self.client_id.setPlaceholderText("(none: registered with the server's help)")
        self.client_secret = SecretField("none: a public client")
        self.cimd_url = QLineEdit()
        self.cimd_url.setPlaceholderText("https://example.com/mcp-client.json")
        self.scope = QLineEdit()
        self.scope.setPlaceholderText("the server's choice (its 401, else scopes_supported)")
        self.method = _combo(
            [
                ("auto", "auto (from the authorization server's metadata)"),
                ("client_secret_basic", "client_secret_basic"),
                ("client_secret_post", "client_secret_post"),
                ("none", "none (a public client)"),
                ("private_key_jwt", "private_key_jwt (a key file)"),
            ]
        )
        self.key_file = QLineEdit()
        self.key_file.setPlaceholderText("a PEM private key")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        self.key_row = QWidget()
        key_layout = QHBoxLayout(self.key_row)
        key_layout.setContentsMargins(0, 0, 0, 0)
        key_layout.addWidget(self.key_file, 1)
        key_layout.addWidget(browse)

        self.issuer = QLineEdit()
        self.issuer.setPlaceholderText("(any: the one the server names)")
        self.issuer.setToolTip(
            "The authorization server a pre-registered client belongs to: its credentials "
            "are never sent to another one"
        )
        self.redirect_port = QSpinBox()
        self.redirect_port.setRange(0, 65535)
        self.redirect_port.setSpecialValueText("random")
        self.redirect_port.setToolTip(
            "The port of the loopback redirect (http://127.0.0.1:PORT/callback), open only "
            "during a login. Set one when the client was registered with a fixed redirect URI."
        )
        self.login_timeout = QDoubleSpinBox()
        self.login_timeout.setRange(5, 3600)
        self.login_timeout.setDecimals(0)
        self.login_timeout.setSuffix(" s")
        self.dpop = _combo([("auto", "when the server offers it"), ("never", "never")])
        self.offline = QCheckBox("Ask for offline_access (a refresh token) when it is offered")
        self.insecure = QCheckBox("Allow http:// authorization server endpoints (development)")

        self.form = QFormLayout()
        self.form.setContentsMargins(0, 0, 0, 0)
        self.form.addRow("Grant:", self.grant)
        self.form.addRow("Registration:", self.registration)
        self.form.addRow("Client id:", self.client_id)
        self.form.addRow("Client secret:", self.client_secret)
        self.form.addRow("Metadata URL:", self.cimd_url)
        self.form.addRow("Scopes:", self.scope)
        self.form.addRow("Client auth:", self.method)
        self.form.addRow("Private key:", self.key_row)
        advanced = QGroupBox("Advanced")
        adv = QFormLayout(advanced)
        adv.addRow("Authorization server:", self.issuer)
        adv.addRow("Redirect port:", self.redirect_port)
        adv.addRow("Login timeout:", self.login_timeout)
        adv.addRow("DPoP:", self.dpop)
        adv.addRow("", self.offline)
        adv.addRow("", self.insecure)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.form)
        layout.addWidget(advanced)
        layout.addWidget(
            _note(
                "Tokens and client registrations are kept in the system keyring, never in the "
                "profile file. Log in, log out and follow each step in the Auth tab of the "
                "main window."
            )
        )
        for combo in (self.grant, self.registration, self.method):
            combo.currentIndexChanged.connect(self._relevant)
        self._relevant()

    def _browse(self) -> None:
        start = self.key_file.text() or str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Private key (PEM)", start)
        if path:
            self.key_file.setText(path)

    def _relevant(self) -> None:
        """Show the rows that matter for the grant, registration and client auth chosen."""
        machine = self.grant.currentData() == "client_credentials"
        registration = self.registration.currentData()
        self.form.setRowVisible(self.registration, not machine)
        self.form.setRowVisible(self.cimd_url, not machine and registration in ("auto", "cimd"))
        self.form.setRowVisible(self.key_row, self.method.currentData() == "private_key_jwt")

    def load(self, o: OAuthOptions, where: Where) -> None:
        _select(self.grant, o.grant)
        _select(self.registration, o.registration)
        self.client_id.setText(o.client_id)
        self.client_secret.load(o.client_secret, where("client_secret"))
        self.cimd_url.setText(o.cimd_url)
        self.scope.setText(o.scope)
        _select(self.method, o.token_auth_method)
        self.key_file.setText(o.private_key_file)
        self.issuer.setText(o.authorization_server)
        self.redirect_port.setValue(max(0, min(65535, o.redirect_port)))
        self.login_timeout.setValue(o.login_timeout)
        _select(self.dpop, o.dpop)
        self.offline.setChecked(o.offline_access)
        self.insecure.setChecked(o.allow_insecure_http)
        self._relevant()

    def value(self) -> OAuthOptions:
        return OAuthOptions(
            grant=self.grant.currentData(),
            registration=self.registration.currentData(),
            client_id=self.client_id.text().strip(),
            client_secret=self.client_secret.value(),
            cimd_url=self.cimd_url.text().strip(),
            scope=self.scope.text().strip(),
            token_auth_method=self.method.currentData(),
            private_key_file=self.key_file.text().strip(),
            authorization_server=self.issuer.text().strip(),
            redirect_port=self.redirect_port.value(),
            login_timeout=self.login_timeout.value(),
            dpop="never" if self.dpop.currentData() == "never" else "auto",
            offline_access=self.offline.isChecked(),
            allow_insecure_http=self.insecure.isChecked(),
        )


class AuthSection(QScrollArea):
    changed = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("authSection")
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.kind = _combo(_KINDS)
        self.kind.setObjectName("authKind")
        self.kind_note = _note()
        # Pages shown one at a time (not a QStackedWidget: its size is the tallest page's,
        # which would scroll a short page).
        self.bearer = _BearerPage()
        self.oauth = _OAuthPage()
        self.stdio_note = _note(
            "Authorization applies to HTTP servers. A stdio server takes its credentials from "
            "its environment (the Environment table on the Server tab)."
        )
        top = QFormLayout()
        top.addRow("Authorization:", self.kind)
        top.addRow("", self.kind_note)
        self.http_box = QWidget()
        http_layout = QVBoxLayout(self.http_box)
        http_layout.setContentsMargins(0, 0, 0, 0)
        http_layout.addLayout(top)
        http_layout.addWidget(self.bearer)
        http_layout.addWidget(self.oauth)
        http_layout.addStretch(1)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.stdio_note)
        layout.addWidget(self.http_box)
        layout.addStretch(1)
        self.setWidget(body)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self._kind_changed()
        self.set_http(True)
        self._wire_changes()

    def _wire_changes(self) -> None:
        b, o = self.bearer, self.oauth
        for combo in (self.kind, b.source, o.grant, o.registration, o.method, o.dpop):
            combo.currentIndexChanged.connect(self.changed)
        for edit in (b.env_name, o.client_id, o.cimd_url, o.scope, o.key_file, o.issuer):
            edit.textChanged.connect(self.changed)
        for secret in (b.token, o.client_secret):
            secret.changed.connect(self.changed)
        for box in (o.offline, o.insecure):
            box.toggled.connect(self.changed)
        o.redirect_port.valueChanged.connect(self.changed)
        o.login_timeout.valueChanged.connect(self.changed)

    def _kind_changed(self) -> None:
        kind = str(self.kind.currentData())
        self.bearer.setVisible(kind == "bearer")
        self.oauth.setVisible(kind == "oauth")
        self.kind_note.setText(_NOTES.get(kind, ""))
        self.kind_note.setVisible(kind in _NOTES)

    def set_http(self, http: bool) -> None:
        self.stdio_note.setVisible(not http)
        self.http_box.setVisible(http)

    def load(self, auth: HttpAuth, where: Where) -> None:
        _select(self.kind, auth.kind)
        self.bearer.load(auth.bearer, where)
        self.oauth.load(auth.oauth, where)
        self._kind_changed()

    def value(self) -> HttpAuth:
        kind = self.kind.currentData()
        return HttpAuth(kind=kind, bearer=self.bearer.value(), oauth=self.oauth.value())
