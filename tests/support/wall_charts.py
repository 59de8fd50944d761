"""The built-in wall charts as PDFs, typeset once per process and shared by the tests that
read one chart (tests/render/test_wall_chart.py, tests/blackjack/test_even_money.py)."""

from __future__ import annotations

import functools

import pytest

import strategy_calc as sc
from strategy_calc.render.chart import chart_pdf


def wall_chart_pdf(name: str, decks: int, paper: str = "a4") -> bytes:
    """The wall chart of ruleset ``name`` at ``decks`` decks, typeset once per process
    (``chart_pdf`` gives the same bytes for the same chart)."""
    return _typeset(name, decks, paper)  # (one cache key however the paper is given)


@functools.cache
def _typeset(name: str, decks: int, paper: str) -> bytes:
    game = sc.analyse_game(sc.blackjack_rules(name, decks=decks))
    return chart_pdf(game, paper)


def same_chart(name: str, decks: int) -> pytest.MarkDecorator:
    """The xdist group of the tests that read one chart's cached PDF (``--dist
    loadgroup``): one worker typesets it once."""
    return pytest.mark.xdist_group(f"wall-chart-{name}-{decks}")
