"""The layers import downward only (docs/architecture.md "Layers").

The core (cards, rules, positions), the models and the checker, and
rummy.reports (the answers, as JSON and lines) know nothing of the two
adapters above them: ``rummy.cli`` (the terminal) and ``rummy.web`` (HTTP).
The web never imports the command line. Every import counts, at any depth
(imports inside functions, which keep start-up fast, are the ones that
would slip by), and so does a module named as text for ``importlib``
(the family records' ``"module:function"``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.support.paths import REPO_ROOT

PACKAGE = REPO_ROOT / "rummy"
CLI = "rummy.cli"
WEB = "rummy.web"
ADAPTERS = (CLI, WEB)
# The one way in from below: ``python -m rummy`` runs the program.
ALLOWED = {("rummy.__main__", "rummy.cli.app")}
# Terminal and web frameworks: only the adapters may load them.
FRAMEWORKS = ("typer", "click", "rich", "fastapi", "starlette", "uvicorn", "pydantic", "h11")
# A whole string naming a module, as the family records do ("rummy.model.house:solve").
MODULE_TEXT = re.compile(r"rummy(\.\w+)+(:\w+)?")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(name: str, source: str, is_package: bool = False) -> set[str]:
    """Every module the source of module ``name`` imports, anywhere in it: ``from a import b`` counts
    as both ``a`` and ``a.b`` (b may be a module); relative imports are made absolute."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_TEXT.fullmatch(node.value):
            found.add(node.value.partition(":")[0])
    return found


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def breaches(name: str, imports: set[str]) -> list[str]:
    """What the module ``name`` imports that its layer must not."""
    found = []
    for target in sorted(imports):
        if any(name == allowed and within(target, allowed_target) for allowed, allowed_target in ALLOWED):
            continue
        if within(name, WEB) and within(target, CLI):
            found.append(f"{name} imports {target}: the web must not depend on the command line")
        elif not any(within(name, adapter) for adapter in ADAPTERS):
            if any(within(target, adapter) for adapter in ADAPTERS):
                found.append(f"{name} imports {target}: only the adapters (rummy.cli, rummy.web) may")
            elif any(within(target, framework) for framework in FRAMEWORKS):
                found.append(f"{name} imports {target}: a terminal or web framework, the adapters' business")
    return found


def package_modules() -> dict[str, tuple[str, bool]]:
    return {module_name(path): (path.read_text(encoding="utf-8"), path.name == "__init__.py")
            for path in sorted(PACKAGE.rglob("*.py"))}


def test_every_layer_imports_downward_only() -> None:
    modules = package_modules()
    assert {"rummy.reports", "rummy.reports.page", "rummy.cli.app", "rummy.web.app"} <= set(modules)
    found = [line for name, (source, is_package) in modules.items()
             for line in breaches(name, imported(name, source, is_package))]
    assert not found, "\n".join(found)


def test_the_reports_layer_serves_both_adapters() -> None:
    """The adapters answer through rummy.reports (the check above is not vacuous)."""
    modules = package_modules()
    users = {name for name, (source, is_package) in modules.items()
             if any(within(target, "rummy.reports") for target in imported(name, source, is_package))}
    assert {"rummy.cli.best", "rummy.cli.check", "rummy.cli.show", "rummy.cli.hint", "rummy.web.app"} <= users


@pytest.mark.parametrize(("name", "source"), [
    ("rummy.web.app", "def f():\n    from rummy.cli._output import print_lines\n"),
    ("rummy.web.guard", "from ..cli import _output\n"),
    ("rummy.reports.best", "def f():\n    if True:\n        import rummy.web.workers\n"),
    ("rummy.reports.check", "from rummy import cli\n"),
    ("rummy.reports", "from .. import web\n"),
    ("rummy.checker.house", "from rummy.cli.app import main\n"),
    ("rummy.family", "SOLVER = 'rummy.cli.best:best'\n"),
    ("rummy.words", "def f():\n    import rich.text\n"),
    ("rummy.reports.lines", "from typer import Option\n"),
])
def test_a_planted_breach_is_found(name: str, source: str) -> None:
    is_package = name == "rummy.reports"
    assert breaches(name, imported(name, source, is_package))


@pytest.mark.parametrize(("name", "source"), [
    ("rummy.cli.serve", "def f():\n    from rummy.web.app import create_app\n"),
    ("rummy.cli.best", "from rummy.reports.best import solve\n"),
    ("rummy.web.app", "from rummy.reports import page as reports\nimport fastapi\n"),
    ("rummy.__main__", "from rummy.cli.app import main\n"),
    ("rummy.reports.lines", "'''Printed by rummy.cli._output on a terminal.'''\n"),
])
def test_imports_downward_are_not_breaches(name: str, source: str) -> None:
    assert breaches(name, imported(name, source)) == []
