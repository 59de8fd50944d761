"""Run the ``>>>`` examples of every public module (of the installed package)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "strategy_calc.cards",
    "strategy_calc.rules",
    "strategy_calc.blackjack",
    "strategy_calc.baccarat",
    "strategy_calc.strategy",
    "strategy_calc.exact",
    "strategy_calc.sidebets",
    "strategy_calc.counting",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
