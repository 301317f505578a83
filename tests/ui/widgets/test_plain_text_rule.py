"""Server text is never rich text: the rule, checked over the source of `inspector/ui/`.

Qt renders a label's or a tooltip's text as HTML when it merely *looks* like HTML
(Qt.mightBeRichText), so a server's `<img src=...>` in a description would be rendered. The
app keeps to three habits, and this test reads every module of `inspector/ui/` to hold it
to them:

- **Labels**: every label is a `PlainLabel` (`inspector/ui/widgets/plain_text.py`), whose
  format is always PlainText. A bare `QLabel(...)`, or a class of our own deriving from
  QLabel, anywhere else fails; so does `QFormLayout.addRow(text, field)` with a text built
  from anything but literals (Qt makes that text an AutoText QLabel of its own).
- **Tooltips** (`setToolTip`, `setStatusTip`, `setWhatsThis`): the argument is our own
  wording, checkable from the source alone: a string literal, or literals joined by `+` or
  chosen by `a if c else b`. Anything else (a name, an f-string, a call) must go through
  `plain_tooltip(...)`, which escapes it. `QToolTip.showText(pos, text)` always takes
  `plain_tooltip(...)`.
- **Formats**: no `RichText`, `AutoText` or `MarkdownText` text format.

A place that must break the rule goes in ALLOWED with the reason (none does today); an
entry that no longer matches anything fails too, so the list cannot go stale.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Final

from tests.helpers.peers import REPO

UI: Final = REPO / "inspector" / "ui"
PLAIN_TEXT_MODULE: Final = "widgets/plain_text.py"
TIP_SETTERS: Final = frozenset({"setToolTip", "setStatusTip", "setWhatsThis"})
NOT_PLAIN_FORMATS: Final = frozenset({"RichText", "AutoText", "MarkdownText"})


@dataclass(frozen=True)
class Finding:
    path: str  # relative to inspector/ui
    scope: str  # the enclosing class/function, dotted ("" at module level)
    rule: str  # "label", "tooltip", "showText", "format"
    line: int

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.path, self.scope, self.rule)

    def __str__(self) -> str:
        return f"inspector/ui/{self.path}:{self.line} in {self.scope or '<module>'}: {self.rule}"


# (module, scope, rule) -> why it is allowed. Only modules being reworked elsewhere in the
# same refactor (the window, the controller, the session files); each names what it shows.
ALLOWED: Final[dict[tuple[str, str, str], str]] = {}


def _is_plain_tooltip(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "plain_tooltip"
    )


def _is_own_wording(node: ast.expr) -> bool:
    """A string literal, or literals joined by + or chosen by a conditional expression."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_own_wording(node.left) and _is_own_wording(node.right)
    if isinstance(node, ast.IfExp):
        return _is_own_wording(node.body) and _is_own_wording(node.orelse)
    return False


def _is_built_text(node: ast.expr) -> bool:
    """An f-string, or text joined or chosen from parts: not a widget, not only literals."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp | ast.IfExp):
        return not _is_own_wording(node)
    return False


def _is_qlabel(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "QLabel"
    return isinstance(node, ast.Attribute) and node.attr == "QLabel"


class _Checker(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.scope: list[str] = []
        self.findings: list[Finding] = []

    def _add(self, rule: str, node: ast.AST) -> None:
        line = getattr(node, "lineno", 0)
        self.findings.append(Finding(self.path, ".".join(self.scope), rule, line))

    def _scoped(self, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.scope.append(node.name)
        self.generic_visit(node)
        self.scope.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.path != PLAIN_TEXT_MODULE and any(_is_qlabel(base) for base in node.bases):
            self._add("label", node)
        self._scoped(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._scoped(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if _is_qlabel(func) and self.path != PLAIN_TEXT_MODULE:
            self._add("label", node)
        if isinstance(func, ast.Attribute):
            if func.attr in TIP_SETTERS and node.args:
                text = node.args[0]
                if not (_is_own_wording(text) or _is_plain_tooltip(text)):
                    self._add("tooltip", node)
            if func.attr == "addRow" and len(node.args) >= 2 and _is_built_text(node.args[0]):
                self._add("label", node)
            if (
                func.attr == "showText"
                and isinstance(func.value, ast.Name)
                and func.value.id == "QToolTip"
                and not (len(node.args) > 1 and _is_plain_tooltip(node.args[1]))
            ):
                self._add("showText", node)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if node.attr in NOT_PLAIN_FORMATS:
            self._add("format", node)
        self.generic_visit(node)


def check_source(source: str, path: str = "example.py") -> list[Finding]:
    checker = _Checker(path)
    checker.visit(ast.parse(source))
    return checker.findings


def ui_findings() -> list[Finding]:
    found: list[Finding] = []
    for module in sorted(UI.rglob("*.py")):
        path = module.relative_to(UI).as_posix()
        found += check_source(module.read_text(encoding="utf-8"), path)
    return found


# ---------------------------------------------------------------------- the rule holds


def test_every_label_tooltip_and_format_in_the_ui_is_plain() -> None:
    broken = [f for f in ui_findings() if f.key not in ALLOWED]
    assert not broken, (
        "Server text must never be rich text. Use PlainLabel instead of QLabel, pass "
        "plain_tooltip(...) (or a string literal of our own) to setToolTip, and no RichText/"
        "AutoText/MarkdownText format:\n" + "\n".join(map(str, broken))
    )


def test_the_allow_list_has_no_stale_entry() -> None:
    seen = {f.key for f in ui_findings()}
    stale = [key for key in ALLOWED if key not in seen]
    assert not stale, f"these places keep the rule now: remove them from ALLOWED: {stale}"


def test_only_modules_being_reworked_elsewhere_are_allowed() -> None:
    for path, _scope, _rule in ALLOWED:
        assert path.startswith(("window/", "controller/", "recording/session_files.py")), path


# ---------------------------------------------------------------------- the checker itself


def rules(source: str) -> list[str]:
    return [f.rule for f in check_source(source)]


def test_the_checker_finds_a_bare_label_and_a_label_subclass() -> None:
    assert rules("label = QLabel(name)") == ["label"]
    assert rules("label = QtWidgets.QLabel()") == ["label"]
    assert rules("class Mine(QLabel):\n    pass") == ["label"]
    assert rules("label = PlainLabel(name)") == []
    assert rules('form.addRow(f"tools ({n}):", view)') == ["label"]
    assert rules('form.addRow("Token:", self.token)') == []
    assert rules("form.addRow(PlainLabel(title), field)") == []
    assert rules("form.addRow(caption, field)") == []  # a widget or a str: not decidable
    assert check_source("class PlainLabel(QLabel):\n    pass", PLAIN_TEXT_MODULE) == []


def test_the_checker_accepts_only_our_wording_or_escaped_tooltips() -> None:
    assert rules('w.setToolTip("Call the tool")') == []
    assert rules('w.setToolTip("a " "b")') == []
    assert rules('w.setToolTip("Fill " + ("date" if d else "time"))') == []
    assert rules("w.setToolTip(plain_tooltip(server_text))") == []
    assert rules('w.setToolTip(f"read {uri}")') == ["tooltip"]
    assert rules("w.setToolTip(uri)") == ["tooltip"]
    assert rules('w.setToolTip(why or "fine")') == ["tooltip"]
    assert rules("w.setStatusTip(name)") == ["tooltip"]
    assert rules("w.setWhatsThis(text.strip())") == ["tooltip"]


def test_the_checker_wants_plain_tooltip_for_qtooltip_show_text() -> None:
    assert rules("QToolTip.showText(pos, plain_tooltip(text))") == []
    assert rules("QToolTip.showText(pos, text)") == ["showText"]
    assert rules('QToolTip.showText(pos, "ours")') == ["showText"]


def test_the_checker_finds_rich_text_formats() -> None:
    assert rules("label.setTextFormat(Qt.TextFormat.RichText)") == ["format"]
    assert rules("label.setTextFormat(Qt.TextFormat.AutoText)") == ["format"]
    assert rules("label.setTextFormat(Qt.TextFormat.MarkdownText)") == ["format"]
    assert rules("label.setTextFormat(Qt.TextFormat.PlainText)") == []


def test_findings_name_their_scope() -> None:
    source = "class A:\n    def f(self):\n        QLabel()\n"
    assert [f.key for f in check_source(source, "m.py")] == [("m.py", "A.f", "label")]
