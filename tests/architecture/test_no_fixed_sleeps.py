"""No test waits on a fixed sleep for timing (issue 25): it waits for the condition it needs,
with a bound (tests/helpers/waiting.py, tests/helpers/gui.py `until`). A sleep of 50 ms or
more outside a polling loop is left only where it is no wait: it lets time pass to show
that nothing happens, or it is the stall a test measures. Each one left says so on its
line (`# not a wait: ...`), and their number can only go down."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from tests.architecture.sources import suite_trees
from tests.helpers.peers import REPO

# The fixed sleeps left (each marked). Lower it when one goes; never raise it.
MOST = 24
THRESHOLD = 0.05  # seconds
MARKERS = ("# not a wait:", "# timing wait kept:")
SECONDS = {"time.sleep": 1.0, "asyncio.sleep": 1.0, "sleep": 1.0, "anyio.sleep": 1.0}
MILLISECONDS = {"qtbot.wait": 0.001, "QTest.qWait": 0.001, "qWait": 0.001}
LOOPS = (ast.While, ast.For, ast.AsyncFor)


@dataclass(frozen=True)
class Sleep:
    where: str
    seconds: float
    line: str

    def marked(self) -> bool:
        return any(marker in self.line for marker in MARKERS)


def _constants(tree: ast.Module) -> dict[str, float]:
    """The module's numeric constants (`QUIET = 0.3`, `TTL = 4`), for durations like
    `QUIET * 4`."""
    found: dict[str, float] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                value = _evaluate(node.value, found)
                if value is not None:
                    found[targets[0].id] = value
    return found


def _evaluate(node: ast.expr, names: dict[str, float]) -> float | None:
    """A duration made of numbers, known constants, + - * / and unary minus; else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return None if isinstance(node.value, bool) else float(node.value)
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _evaluate(node.operand, names)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp):
        left, right = _evaluate(node.left, names), _evaluate(node.right, names)
        if left is None or right is None:
            return None
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        if isinstance(node.op, ast.Div) and right:
            return left / right
    return None


def fixed_sleeps(tree: ast.Module, label: str, lines: list[str]) -> list[Sleep]:
    """The sleeps of THRESHOLD or more in one module (`lines`, parsed as `tree`, called
    `label`) that no loop encloses."""
    names = _constants(tree)
    found: list[Sleep] = []

    def visit(node: ast.AST, in_loop: bool) -> None:
        if isinstance(node, ast.Call) and node.args:
            called = ast.unparse(node.func)
            unit = SECONDS.get(called) or MILLISECONDS.get(called)
            value = _evaluate(node.args[0], names) if unit else None
            if unit and value is not None and value * unit >= THRESHOLD and not in_loop:
                line = lines[node.lineno - 1].strip()
                found.append(Sleep(f"{label}:{node.lineno}", value * unit, line))
        for child in ast.iter_child_nodes(node):
            visit(child, in_loop or isinstance(node, LOOPS))

    visit(tree, False)
    return found


def suite_sleeps() -> list[Sleep]:
    """The fixed sleeps of the test modules (the servers the tests run are not tests)."""
    found: list[Sleep] = []
    for path, tree in suite_trees().items():
        label = str(path.relative_to(REPO))
        if path.name.startswith("test_") and "servers" not in Path(label).parts:
            lines = path.read_text(encoding="utf-8").splitlines()
            found += fixed_sleeps(tree, label, lines)
    return found


def test_the_scan_sees_fixed_sleeps_but_not_polling_loops() -> None:
    text = (
        "QUIET = 0.3\n"
        "async def test_a(qtbot):\n"
        "    time.sleep(0.5)  # not a wait: shows nothing happens\n"
        "    await asyncio.sleep(QUIET * 4)\n"
        "    qtbot.wait(100)\n"
        "    await asyncio.sleep(0.01)\n"
        "    while not done():\n"
        "        await asyncio.sleep(0.1)\n"
        "    for _ in range(3):\n"
        "        if ready():\n"
        "            break\n"
        "        time.sleep(0.2)\n"
    )
    found = fixed_sleeps(ast.parse(text), "example", text.splitlines())
    assert [(s.where, round(s.seconds, 6), s.marked()) for s in found] == [
        ("example:3", 0.5, True),
        ("example:4", 1.2, False),
        ("example:5", 0.1, False),
    ]


def test_every_fixed_sleep_left_says_why_it_is_no_wait() -> None:
    unmarked = [f"{s.where}: {s.line}" for s in suite_sleeps() if not s.marked()]
    assert unmarked == [], (
        "fixed sleeps of 50 ms or more outside a polling loop: wait for the condition "
        "instead (tests/helpers/waiting.py, tests.helpers.gui.until), or, if the sleep "
        "shows that nothing happens, say so with `# not a wait: ...` on its line:\n"
        + "\n".join(unmarked)
    )


def test_the_fixed_sleeps_left_only_go_down() -> None:
    sleeps = suite_sleeps()
    assert len(sleeps) <= MOST, (
        f"{len(sleeps)} fixed sleeps of 50 ms or more outside polling loops, more than "
        f"the {MOST} left:\n" + "\n".join(f"{s.where}: {s.line}" for s in sleeps)
    )
