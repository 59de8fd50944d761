"""A count's figures come with their standard errors, and a figure whose estimate is not
told apart from zero says so (issue 50 item 5: "risk of ruin 1" was printed for a ramp
whose win rate was -0.13 +- 0.29 per 100, and short runs printed noise as answers)."""

from __future__ import annotations

import json
import math

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app

runner = CliRunner()
SHORT = ["count", "--rules", "deluxe", "--decks", "1", "--rounds", "60", "--spread",
         "1:1,2:2", "--bankroll", "100", "--jobs", "1", "--seed", "3"]


@pytest.fixture(scope="module")
def short_run() -> dict[str, object]:
    result = runner.invoke(app, [*SHORT, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.stdout)
    return data


def _told_apart(estimate: object) -> bool:
    assert isinstance(estimate, dict)
    return abs(estimate["value"]) >= 2 * estimate["se"]


@pytest.mark.slow
def test_each_estimate_says_whether_it_lies_two_standard_errors_from_zero(
    short_run: dict[str, object],
) -> None:
    flags = short_run["distinguishable_from_zero"]
    assert flags == {"cut_card_effect": _told_apart(short_run["cut_card_effect"]),
                     "win_rate_per_round": _told_apart(short_run["win_rate_per_round"])}


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_the_ramp_figures_standard_errors_follow_from_score(
    short_run: dict[str, object],
) -> None:
    """N0 = 10^6 / SCORE and DI = sqrt(SCORE) (Schlesinger's definitions), so to first
    order their relative errors are SCORE's and half of it."""
    d = short_run
    if d["score"] is None:
        pytest.skip("this seed's ramp did not win")  # pragma: no cover
    score, score_se = float(d["score"]), float(d["score_se"])  # type: ignore[arg-type]
    assert float(d["n0"]) == pytest.approx(1e6 / score, rel=1e-12)  # type: ignore[arg-type]
    assert float(d["n0_se"]) == pytest.approx(  # type: ignore[arg-type]
        float(d["n0"]) * score_se / score, rel=1e-9)  # type: ignore[arg-type]
    assert float(d["di_se"]) == pytest.approx(  # type: ignore[arg-type]
        score_se / (2 * math.sqrt(score)), rel=1e-9)


@pytest.mark.slow
def test_figures_that_divide_by_a_win_rate_not_told_from_zero_are_not_given(
    short_run: dict[str, object],
) -> None:
    """60 rounds of a 1-2 ramp: the win rate's SE is several times its value."""
    assert short_run["distinguishable_from_zero"]["win_rate_per_round"] is False  # type: ignore[index]
    text = runner.invoke(app, SHORT, env={"COLUMNS": "200"}).stdout  # no wrapped cells
    for figure in ("N0 (rounds)", "SCORE", "DI", "risk of ruin, bankroll 100"):
        line = next(x for x in text.splitlines() if figure in x)
        assert "not given: the win rate is not told apart from 0" in line
    assert "(not told apart from 0)" in next(x for x in text.splitlines()
                                             if "win per round" in x)
