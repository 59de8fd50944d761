"""Run the ``>>>`` examples of every module of the installed package (found, not listed)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import strategy_calc

MODULES = ["strategy_calc", *sorted(
    m.name for m in pkgutil.walk_packages(strategy_calc.__path__, "strategy_calc.")
    if not m.name.rpartition(".")[2].startswith("_")
)]
PACKAGES = {m.name for m in pkgutil.walk_packages(strategy_calc.__path__, "strategy_calc.")
            if m.ispkg}
"""The folders: a package whose ``__init__`` only says what its folder holds has no example
(``strategy_calc.rules``, which exports its modules' names, has)."""
WITHOUT_EXAMPLES = {"strategy_calc.jobs.bench", "strategy_calc.cli.root",
                    "strategy_calc.render.pages", "strategy_calc.render.plots",
                    "strategy_calc.render.rules"}
"""Modules whose behaviour is a process or a page, checked by the CLI tests instead (so are
the command families: the modules of ``strategy_calc.cli`` that declare ``commands``)."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    family = name.startswith("strategy_calc.cli.") and hasattr(module, "commands")
    if name not in WITHOUT_EXAMPLES and not family and (
            name not in PACKAGES or name == "strategy_calc.rules"):
        assert result.attempted > 0


def test_every_module_is_collected() -> None:
    assert {"strategy_calc.engine", "strategy_calc.blackjack.split.combine",
            "strategy_calc.blackjack.risk", "strategy_calc.jobs.tables",
            "strategy_calc.rules.files", "strategy_calc.counting.runs"} <= set(MODULES)
