"""Wonging (back-counting, issue 30 item 5): play from the first round at or above the
entry count until one falls below the exit count; win rate per round observed."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app
from strategy_calc.counting import counter as count
from strategy_calc.counting.counter import RoundRecord, Wong
from strategy_calc.counting.runs import summarise
from strategy_calc.rules import blackjack_rules

runner = CliRunner()


@pytest.fixture(scope="module")
def counter() -> count.BlackjackCounter:
    return count.blackjack_counter(blackjack_rules("deluxe", ["decks=1"]), moment_every=10**9)


def shoe(*rounds: tuple[float, float]) -> tuple[RoundRecord, ...]:
    return tuple(RoundRecord(tc, ev, None) for tc, ev in rounds)


def test_the_counter_plays_from_the_entry_count_until_below_the_exit(
        counter: count.BlackjackCounter) -> None:
    """Enter at +2, leave below +1. Shoe one: true counts 0, 2, 0.5, -1, 3 are watched,
    played, left (0.5 < 1), watched, played; shoe two: 1.5 (watched: not yet in), 2.5
    (played). By hand: 3 of 7 rounds played, winning 0.02 + 0.05 + 0.20 over the 7 rounds
    observed."""
    played = [shoe((0, 0.01), (2, 0.02), (0.5, 0.03), (-1, 0.04), (3, 0.05)),
              shoe((1.5, -0.10), (2.5, 0.20))]
    result = summarise(counter, played, 7, None, None, Wong(2, 1))
    assert result.share_played == pytest.approx(3 / 7, abs=1e-15)
    assert result.win_rate_per_round is not None
    assert result.win_rate_per_round.value == pytest.approx((0.02 + 0.05 + 0.20) / 7,
                                                            abs=1e-15)
    assert result.ev_per_round.value == pytest.approx(0.25 / 7, abs=1e-15)  # every round


def test_entering_at_any_count_is_flat_betting(counter: count.BlackjackCounter) -> None:
    played = [shoe((0, 0.01), (2, 0.02), (-30, -0.03)), shoe((1.5, -0.10))]
    always = summarise(counter, played, 4, None, None, Wong(-1e9, -1e9))
    assert always.share_played == 1.0
    assert always.win_rate_per_round is not None
    assert always.win_rate_per_round.value == always.ev_per_round.value


@pytest.mark.slow
def test_count_reports_the_share_played_and_the_win_per_100_rounds_observed() -> None:
    result = runner.invoke(app, ["count", "--rules", "deluxe", "--decks", "2", "--rounds",
                                 "60", "--enter", "1", "--exit", "0", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["wong"]["enter"] == 1 and data["wong"]["exit"] == 0
    assert 0 <= data["wong"]["share_played"] <= 1
    assert data["win_rate_per_100"]["value"] == pytest.approx(
        100 * data["win_rate_per_round"]["value"], rel=1e-12)


@pytest.mark.parametrize(("args", "message"), [
    (["--enter", "0", "--exit", "1"], "--enter 0 is below --exit 1"),
    (["--enter", "1"], "wonging needs both --enter TC and --exit TC"),
    (["--exit", "nan", "--enter", "1"], "finite numbers"),
])
def test_bad_wonging_flags_are_one_error_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["count", "--rules", "deluxe", "--rounds", "5", *args])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert message in result.stderr
