"""The package's shape as a test: layers that only look down (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import ast
import pathlib
import shutil
import subprocess

import pytest

import strategy_calc

PACKAGE = pathlib.Path(strategy_calc.__file__).parent
TOP_LAYER = ("cli/", "__init__.py", "__main__.py")
"""The modules that may load a command's library code on first use (a local import): the
command line's package (a command loads its library on first use) and the package's lazy
names."""


def _local_project_imports(path: pathlib.Path) -> list[str]:
    """``module:line`` of every import of a ``strategy_calc`` module inside a function."""
    found: list[str] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.ImportFrom):
                names = [child.module or ""] if not child.level else ["strategy_calc"]
            else:
                names = [a.name for a in child.names] if isinstance(child, ast.Import) else []
            if in_function and any(n.startswith("strategy_calc") for n in names):
                found.append(f"{path.stem}:{child.lineno}")
            walk(child, inside)

    walk(ast.parse(path.read_text(encoding="utf-8")), False)
    return found


@pytest.mark.slow
def test_below_the_top_layer_project_modules_are_imported_at_the_top() -> None:
    """A function-local import of a project module hides a cycle; only the CLI, the shell
    and the package's lazy names may defer one (to load a command's code on first use)."""
    modules = sorted(p for p in PACKAGE.rglob("*.py")
                     if not str(p.relative_to(PACKAGE)).startswith(TOP_LAYER))
    assert len(modules) > 20  # the package was found
    local = [hit for path in modules for hit in _local_project_imports(path)]
    assert local == []


def test_the_local_import_finder_finds_one(tmp_path: pathlib.Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from strategy_calc import engine\n    return engine\n",
                     encoding="utf-8")
    assert _local_project_imports(probe) == ["probe:2"]


@pytest.mark.slow
def test_the_layer_contract_holds() -> None:
    """``lint-imports`` checks pyproject.toml's layers contract (no cycles, no upward import)."""
    exe = shutil.which("lint-imports")
    assert exe is not None, "import-linter is in the test extra"
    root = PACKAGE.parent
    if not (root / "pyproject.toml").is_file():  # an installed copy: the contract is in the tree
        root = pathlib.Path(__file__).resolve().parents[1]
    result = subprocess.run([exe], cwd=root, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "1 kept, 0 broken" in result.stdout
