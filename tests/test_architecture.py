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


def _contracts() -> list[dict[str, object]]:
    """pyproject.toml's import-linter contracts (the source tree's: an installed copy has
    none of its own)."""
    import tomllib

    root = pathlib.Path(__file__).resolve().parents[1]
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = table["tool"]["importlinter"]["contracts"]
    return contracts


ROOT_MODULES = {"__init__", "__main__", "errors", "cards", "actions", "engine", "parallel"}
"""The package root keeps the vocabulary, the engine's face, the executors and the entry
points (issue 46); everything else is in a folder that names its layer."""


def test_the_package_root_holds_only_the_vocabulary_the_engine_and_the_entry_points() -> None:
    assert {p.stem for p in PACKAGE.glob("*.py")} == ROOT_MODULES


def test_the_packages_are_at_most_twelve_layers_and_each_folder_has_its_own_contract() -> None:
    contracts = _contracts()
    top = next(c for c in contracts if "containers" not in c and c["type"] == "layers")
    layers = top["layers"]
    assert isinstance(layers, list) and len(layers) <= 12
    named = {name.strip() for layer in layers
             for name in str(layer).replace(":", "|").split("|")}
    folders = {f"strategy_calc.{p.name}" for p in PACKAGE.iterdir()
               if (p / "__init__.py").is_file()}
    assert folders <= named  # every folder is placed in the stack
    covered = {str(x) for c in contracts for x in [*c.get("containers", []),  # type: ignore[misc]
                                                   *c.get("modules", [])]}  # type: ignore[misc]
    for folder in folders:
        modules = [p for p in (PACKAGE / folder.rsplit(".", 1)[1]).glob("*.py")
                   if p.stem != "__init__"]
        if len(modules) > 1:  # (a folder of one module has nothing to order)
            assert folder in covered or any(m.startswith(folder + ".") for m in covered), folder


def test_no_module_of_the_package_is_part_of_an_import_cycle() -> None:
    """With the imports made only for type checkers left out (as the contract reads them),
    no chain of imports leads from a module back to itself."""
    import grimp

    graph = grimp.build_graph("strategy_calc", exclude_type_checking_imports=True)
    cycles = [(m, n) for m in graph.modules for n in graph.find_modules_directly_imported_by(m)
              if graph.chain_exists(importer=n, imported=m)]
    assert cycles == []


@pytest.mark.parametrize(("folder", "most"), [("", 800), ("cli", 450)])
def test_no_module_is_over_its_size(folder: str, most: int) -> None:
    """A module past 800 lines (450 in the command line's package) takes every feature."""
    sizes = {str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
             for p in (PACKAGE / folder).rglob("*.py")}
    assert {name: n for name, n in sizes.items() if n > most} == {}


@pytest.mark.slow
def test_the_layer_contracts_hold() -> None:
    """``lint-imports`` checks pyproject.toml's contracts (the packages' stack, each
    folder's own layers: no upward import)."""
    exe = shutil.which("lint-imports")
    assert exe is not None, "import-linter is in the test extra"
    root = PACKAGE.parent
    if not (root / "pyproject.toml").is_file():  # an installed copy: the contract is in the tree
        root = pathlib.Path(__file__).resolve().parents[1]
    result = subprocess.run([exe], cwd=root, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout[-3000:]
    assert f"{len(_contracts())} kept, 0 broken" in result.stdout
