"""Run the ``>>>`` examples of every module of the installed package (found, not listed)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import strategy_calc

MODULES = ["strategy_calc", *sorted(
    f"strategy_calc.{m.name}" for m in pkgutil.iter_modules(strategy_calc.__path__)
    if not m.name.startswith("_")
)]
WITHOUT_EXAMPLES = {"strategy_calc.bench", "strategy_calc.cli", "strategy_calc.report",
                    "strategy_calc.rulesets"}
"""Modules whose behaviour is a process or a page, checked by the CLI tests instead."""


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    if name not in WITHOUT_EXAMPLES:
        assert result.attempted > 0


def test_every_module_is_collected() -> None:
    assert {"strategy_calc.engine", "strategy_calc.splits", "strategy_calc.risk",
            "strategy_calc.tables"} <= set(MODULES)
