"""The risks a counter asks of a ramp (issue 48 item 3): the risk of ruin within a trip, the
chance to reach a win goal first, the bankroll for a target risk of ruin, the rounds to be
ahead with a given confidence; and ``count``'s flags and JSON keys for them.

Each formula (diffusion approximation, :mod:`strategy_calc.counting.risks`) is checked
against an independent derivation written here: a +-1 random walk with P(+1) = p has
drift w = 2p - 1 and SD s = sqrt(1 - w^2) a step, and its exact first-passage and
gambler's-ruin probabilities (by dynamic programming over the walk's positions, and the
classical closed form) approach the diffusion's as the bankroll grows in steps of the walk.
"""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import numpy as np
import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app
from strategy_calc.counting.counter import RoundRecord, blackjack_counter, parse_spread
from strategy_calc.counting.ramps import risk_of_ruin
from strategy_calc.counting.risks import (
    RiskQuestions,
    bankroll_for_ror,
    goal_probability,
    goal_probability_se,
    rounds_to_confidence,
    trip_risk_of_ruin,
    trip_risk_of_ruin_se,
)
from strategy_calc.counting.runs import summarise
from strategy_calc.errors import InputError
from strategy_calc.render.counting import count_dict, count_text
from strategy_calc.rules import blackjack_rules

runner = CliRunner()
PHI = NormalDist().cdf


def walk_ruined_within(p: float, bankroll: int, rounds: int) -> float:
    """The exact chance that a +-1 walk from ``bankroll`` (P(+1) = p) reaches 0 within
    ``rounds`` steps: the distribution of the unruined walk step by step, the mass that
    steps onto 0 removed and summed."""
    mass = np.zeros(bankroll + rounds + 2)
    mass[bankroll] = 1.0
    ruined = 0.0
    for _ in range(rounds):
        step = np.zeros_like(mass)
        step[1:] += p * mass[:-1]
        step[:-1] += (1.0 - p) * mass[1:]
        ruined += step[0]
        step[0] = 0.0
        mass = step
    return ruined


def test_trip_risk_of_ruin_is_the_limit_of_a_random_walks_exact_first_passage() -> None:
    """Bankroll 10k steps, trip 100k^2 steps, drift 0.1/k (w B / s^2 and w sqrt N / s
    about fixed): the walk's exact ruin chance and the formula differ by less each time
    k doubles (about 4 times less), and by under 2e-4 at k = 4."""
    gaps = []
    for k in (1, 2, 4):
        w = 0.1 / k
        exact = walk_ruined_within((1 + w) / 2, 10 * k, 100 * k * k)
        gaps.append(abs(trip_risk_of_ruin(w, math.sqrt(1 - w * w), 10.0 * k, 100.0 * k * k)
                        - exact))
    assert gaps[1] < gaps[0] / 3 and gaps[2] < gaps[1] / 3 and gaps[2] < 2e-4


def test_trip_risk_of_ruin_without_drift_is_twice_the_chance_to_end_below() -> None:
    """The reflection principle at w = 0: P(min <= -B) = 2 P(X_N <= -B) = 2 Phi(-B / (s
    sqrt N)); bankroll 30, SD 1.5, 400 rounds: 2 Phi(-1)."""
    assert trip_risk_of_ruin(0.0, 1.5, 30.0, 400.0) == pytest.approx(2 * PHI(-1.0), rel=1e-12)


def test_a_long_trips_risk_of_ruin_is_the_lifetime_one() -> None:
    """As the trip grows, ruin within it tends to ruin ever: exp(-2 w B / s^2) for a
    winning ramp, 1 for a losing one. A short trip of a losing ramp: exp(-2 w B / s^2) =
    e^500 would overflow, but its product with Phi((-B + w N) / (s sqrt N)) = Phi(-35) does
    not (written here in logs; Phi(-35) by erfc, as NormalDist's erf gives 0)."""
    assert trip_risk_of_ruin(0.02, 1.2, 50.0, 1e10) == pytest.approx(
        math.exp(-2 * 0.02 * 50 / 1.44), rel=1e-9)
    assert trip_risk_of_ruin(-0.5, 1.0, 1000.0, 1e6) == pytest.approx(1.0, abs=1e-12)
    assert trip_risk_of_ruin(-1.0, 1.0, 250.0, 100.0) == pytest.approx(
        PHI(-15.0) + math.exp(500.0 + math.log(0.5 * math.erfc(35.0 / math.sqrt(2.0)))),
        rel=1e-8)


def test_goal_probability_without_drift_is_bankroll_over_bankroll_plus_goal() -> None:
    """A driftless result is a martingale: P G - (1 - P) B = 0, P = B / (B + G)."""
    assert goal_probability(0.0, 1.3, 30.0, 90.0) == pytest.approx(0.25, rel=1e-12)
    assert goal_probability(1e-12, 1.3, 30.0, 90.0) == pytest.approx(0.25, rel=1e-9)


def test_goal_probability_is_the_limit_of_the_gamblers_ruin_of_a_random_walk() -> None:
    """Gambler's ruin of a +-1 walk (P(+1) = p, q = 1 - p) from B, up G before down B:
    (1 - (q/p)^B) / (1 - (q/p)^(B + G)). Scaling B = G = 10k and the drift 0.02/k, the
    gap to the diffusion's figure shrinks (about 4 times a doubling), under 1e-5 at k = 4;
    with a losing walk (p < 1/2) too."""
    for sign in (1, -1):
        gaps = []
        for k in (1, 2, 4):
            p = 0.5 + sign * 0.01 / k
            q, w = 1 - p, 2 * p - 1
            exact = (1 - (q / p) ** (10 * k)) / (1 - (q / p) ** (20 * k))
            gaps.append(abs(goal_probability(w, math.sqrt(1 - w * w), 10.0 * k, 10.0 * k)
                            - exact))
        assert gaps[1] < gaps[0] / 3 and gaps[2] < gaps[1] / 3 and gaps[2] < 1e-5


def test_bankroll_for_a_target_ror_has_that_risk_of_ruin() -> None:
    """B = -s^2 ln R / (2 w) put back into exp(-2 w B / s^2) gives R; none for a ramp
    that does not win."""
    for ror in (0.01, 0.05, 0.5):
        bank = bankroll_for_ror(0.013, 2.7, ror)
        assert bank is not None
        assert risk_of_ruin(0.013, 2.7, bank) == pytest.approx(ror, rel=1e-12)
    assert bankroll_for_ror(0.0, 2.7, 0.05) is None


def test_rounds_to_confidence_are_ahead_with_that_chance() -> None:
    """After N rounds the result is normal (w N, s^2 N): P(ahead) = Phi(w sqrt N / s),
    which at N = rounds_to_confidence is C; none for a ramp that does not win."""
    for c in (0.6, 0.9, 0.95, 0.999):
        n = rounds_to_confidence(0.011, 1.9, c)
        assert n is not None
        assert PHI(0.011 * math.sqrt(n) / 1.9) == pytest.approx(c, rel=1e-12)
    assert rounds_to_confidence(-0.001, 1.9, 0.9) is None


def test_trip_and_goal_standard_errors_are_the_delta_method_by_finite_differences() -> None:
    """se^2 = (dP/dw se_w)^2 + (dP/ds se_s)^2, the derivatives here central differences."""
    w, s, se_w, se_s, h = 0.015, 1.4, 0.004, 0.03, 1e-6
    cases = ((trip_risk_of_ruin, trip_risk_of_ruin_se, 60.0, 3000.0),
             (goal_probability, goal_probability_se, 60.0, 40.0),
             (goal_probability, goal_probability_se, 60.0, 40.0))
    for f, f_se, bank, x in cases:
        d_w = (f(w + h, s, bank, x) - f(w - h, s, bank, x)) / (2 * h)
        d_s = (f(w, s + h, bank, x) - f(w, s - h, bank, x)) / (2 * h)
        assert f_se(w, se_w, s, se_s, bank, x) == pytest.approx(
            math.hypot(d_w * se_w, d_s * se_s), rel=1e-6)
        w = -w  # the losing ramp's branch the second time


@pytest.mark.parametrize(("fields", "message"), [
    ({"trip_rounds": 0}, "--trip-rounds must be a positive"),
    ({"trip_hours": -1, "rounds_per_hour": 80}, "--trip-hours must be a positive"),
    ({"trip_hours": 2}, "--trip-hours needs --rounds-per-hour"),
    ({"trip_rounds": 10, "trip_hours": 2, "rounds_per_hour": 80}, "the trip's length once"),
    ({"goal": 0}, "--goal must be a positive"),
    ({"target_ror": 1}, "--target-ror is a chance"),
    ({"target_ror": 0}, "--target-ror is a chance"),
    ({"confidence": 1}, "--confidence is a chance"),
    ({"confidence": 0.5}, "--confidence is a chance"),
    ({"confidence": math.nan}, "--confidence is a chance"),
])
def test_impossible_risk_questions_are_refused(fields: dict[str, float], message: str) -> None:
    with pytest.raises(InputError, match=message):
        RiskQuestions(**fields)


def test_a_losing_ramp_has_no_bankroll_or_rounds_to_a_confidence_and_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every round's EV negative (flat 1 unit): no bankroll makes the lifetime risk of ruin
    5% and no number of rounds puts it ahead 90% of the time (JSON null, the text says
    why), while the trip's risk of ruin and the goal's chance exist, the latter below the
    driftless B / (B + G) (a text row each)."""
    counter = blackjack_counter(blackjack_rules("deluxe", ["decks=1"]), moment_every=10**9)
    r = RoundRecord
    played = [(r(-1.5, -0.02, 1.3), r(0.3, -0.01, 1.3)), (r(1.1, -0.01, 1.25),)]
    asked = RiskQuestions(trip_rounds=100, goal=10, target_ror=0.05, confidence=0.9,
                          rounds_per_hour=60)
    result = summarise(counter, played, 3, parse_spread("0:1"), 20.0, questions=asked)
    data = count_dict(result)
    assert data["win_rate_per_round"]["value"] < 0
    for key in ("bankroll_for_target_ror", "rounds_to_confidence", "hours_to_confidence"):
        assert data[key] is None and data[f"{key}_se"] is None
    assert 0 < data["trip_risk_of_ruin"] < 1 and 0 < data["goal_probability"] < 20 / 30
    monkeypatch.setenv("COLUMNS", "100")
    text = count_text(result)
    assert text.count("none: the ramp does not win") == 3
    assert "risk of ruin within 100 rounds, bankroll 20" in text
    assert "chance to win 10 before losing 20" in text


# A 39-card shoe (3 of each rank, 12 tens) to a cut card 20 from the end: about three
# rounds a shoe, every third round with its exact second moment (as test_bet_ramp.py's).
COUNT = ["count", "--rules", "deluxe", "--shoe", "A=3,2=3,3=3,4=3,5=3,6=3,7=3,8=3,9=3,T=12",
         "--cut-card", "20", "--moment-every", "3", "--jobs", "1"]


@pytest.mark.slow
def test_count_risk_keys_are_the_formulas_of_the_runs_own_win_rate_and_sd() -> None:
    """A tiny run (3 rounds asked, 5 dealt in 2 shoes, seed 3: a winning ramp): each key
    by its formula written here from the run's own win rate w and SD s per round, bankroll
    100, a trip of 2 hours at 50 rounds an hour, goal 50, target 5%, confidence 90%."""
    result = runner.invoke(app, [*COUNT, "--rounds", "3", "--seed", "3", "--spread",
                                 "0:1,1:2,2:4,3:8", "--bankroll", "100", "--trip-hours",
                                 "2", "--rounds-per-hour", "50", "--goal", "50",
                                 "--target-ror", "0.05", "--confidence", "0.9", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    w, s, bank, n = data["win_rate_per_round"]["value"], data["sd_per_round"], 100.0, 100.0
    assert w > 0 and data["trip_rounds"] == n
    root = s * math.sqrt(n)
    assert data["trip_risk_of_ruin"] == pytest.approx(
        PHI((-bank - w * n) / root) + math.exp(-2 * w * bank / s ** 2)
        * PHI((-bank + w * n) / root), rel=1e-9)
    a = 2 * w / s ** 2
    assert data["goal_probability"] == pytest.approx(
        (1 - math.exp(-a * bank)) / (1 - math.exp(-a * 150)), rel=1e-9)
    assert data["bankroll_for_target_ror"] == pytest.approx(-s * s * math.log(0.05) / (2 * w),
                                                            rel=1e-9)
    rounds = (NormalDist().inv_cdf(0.9) * s / w) ** 2
    assert data["rounds_to_confidence"] == pytest.approx(rounds, rel=1e-9)
    assert data["hours_to_confidence"] == pytest.approx(rounds / 50, rel=1e-9)
    for key in ("trip_risk_of_ruin", "goal_probability", "bankroll_for_target_ror",
                "rounds_to_confidence", "hours_to_confidence"):
        assert data[f"{key}_se"] > 0
    se_w, se_s = data["win_rate_per_round"]["se"], data["sd_per_round_se"]
    assert data["bankroll_for_target_ror_se"] == pytest.approx(
        data["bankroll_for_target_ror"] * math.hypot(se_w / w, 2 * se_s / s), rel=1e-9)


@pytest.mark.parametrize(("args", "message"), [
    (["--goal", "50", "--bankroll", "100"], "--goal asks about a bet ramp"),
    (["--spread", "0:1,2:4", "--goal", "50"], "--goal needs --bankroll"),
    (["--spread", "0:1,2:4", "--trip-rounds", "100"], "--trip-rounds needs --bankroll"),
    (["--spread", "0:1,2:4", "--trip-hours", "2", "--bankroll", "100"],
     "--trip-hours needs --rounds-per-hour"),
    (["--spread", "0:1,2:4", "--trip-rounds", "0", "--bankroll", "100"],
     "--trip-rounds must be a positive"),
    (["--spread", "0:1,2:4", "--target-ror", "1.5"], "--target-ror is a chance"),
    (["--spread", "0:1,2:4", "--confidence", "0"], "--confidence is a chance"),
    (["--spread", "0:1,2:4", "--goal", "-5", "--bankroll", "100"], "--goal must be a positive"),
    (["--spread", "0:1,2:4", "--target-ror", "0.05", "--rounds-per-hour", "80"],
     "--rounds-per-hour is an --optimize-ramp option (or of --trip-hours and --confidence)"),
])
def test_bad_risk_flags_are_one_error_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*COUNT, "--rounds", "5", *args])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith("error:") and message in result.stderr
