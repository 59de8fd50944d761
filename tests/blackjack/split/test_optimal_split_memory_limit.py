"""The fully optimal split's memory is bounded (issue 50 item 2, issue 49 item 1): a solve
that would take more than ``--memory-limit`` stops with one clear error instead of making
the machine swap, and a limit it stays within changes nothing."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from strategy_calc import engine
from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cli import app
from strategy_calc.errors import InputError
from strategy_calc.rules import blackjack_rules

ONE_DECK = blackjack_rules("deluxe", [], 1)  # one split: a small solve (tens of ms)
runner = CliRunner()


def _split_ev(limit_mib: float | None) -> float | None:
    with engine.limited_memory(limit_mib):
        return analyse_hand("8,8", "T", ONE_DECK, split_strategy="optimal").ev["split"]


def test_a_limit_below_what_the_solve_needs_stops_it_with_an_error() -> None:
    with pytest.raises(InputError, match="needs more than its memory limit of 1 MiB"):
        _split_ev(1)


def test_a_limit_the_solve_stays_within_changes_no_bit() -> None:
    assert _split_ev(4096) == _split_ev(None)


def test_the_default_limit_is_three_quarters_of_the_machine() -> None:
    import os

    physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert engine.memory_limit() == physical * 3 // 4


@pytest.mark.parametrize(("limit", "message"), [
    ("1", "error: the optimal split needs more than its memory limit of 1 MiB"),
    ("-3", "error: --memory-limit is a number of MiB above 0, not -3"),
    ("nan", "error: --memory-limit is a number of MiB above 0, not nan"),
])
def test_memory_limit_errors_are_one_line(limit: str, message: str) -> None:
    result = runner.invoke(app, ["hand", "8,8", "--vs", "T", "--decks", "1",
                                 "--split-strategy", "optimal", "--memory-limit", limit])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message)
