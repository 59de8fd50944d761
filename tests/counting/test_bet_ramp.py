"""Optimal bet ramps (issue 30 item 3): Kelly bets per count clipped to the table's limits,
the ramp that maximises SCORE, the largest ramp within a risk-of-ruin limit, and
``count --optimize-ramp`` (its JSON, and bad input as one ``error:`` line).

The synthetic per-count data are worked by hand in each test: a ramp betting ``b_k`` at
count ``k`` wins w = sum f_k b_k e_k per round, with second moment m2 = sum f_k b_k^2 m_k,
SD s = sqrt(m2 - w^2), SCORE = 10^6 w^2 / s^2, N0 = s^2 / w^2, risk of ruin exp(-2 w B /
s^2) (Schlesinger, *Blackjack Attack*, ch. 8 and 10).
"""

from __future__ import annotations

import itertools
import json
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from strategy_calc.cli import app
from strategy_calc.counting.counter import RoundRecord, blackjack_counter, parse_spread
from strategy_calc.counting.ramps import (
    CountBucket,
    RampLimits,
    optimize_ramp,
    ramp_figures,
    scaled_bets,
)
from strategy_calc.counting.runs import score_difference, summarise
from strategy_calc.errors import InputError
from strategy_calc.render.counting import count_text
from strategy_calc.rules import blackjack_rules

runner = CliRunner()

# Three counts: a quarter of the rounds at -1 (EV -2%), half at +1 (+1%), a quarter at +3
# (+5%); E[X^2] = 1.25 at each, so EV / E[X^2] = -0.016, 0.008, 0.04.
THREE = (CountBucket(-1, 0.25, -0.02, 1.25), CountBucket(1, 0.5, 0.01, 1.25),
         CountBucket(3, 0.25, 0.05, 1.25))


def test_kelly_bets_are_bankroll_times_ev_over_second_moment_clipped_to_the_limits() -> None:
    """Full Kelly for 500 units: -1 has no edge, so the minimum (1); +1: 500 x 0.008 = 4;
    +3: 500 x 0.04 = 20, above the maximum, so 10."""
    ramp = optimize_ramp(THREE, RampLimits(bankroll=500, min_bet=1, max_bet=10,
                                           kelly_fraction=1.0))
    assert ramp.criterion == "kelly" and ramp.scale == 500
    assert ramp.bets == ((-1, 1.0), (1, pytest.approx(4.0, abs=1e-12)), (3, 10.0))
    half = optimize_ramp(THREE, RampLimits(bankroll=500, min_bet=1, max_bet=10,
                                           kelly_fraction=0.5))
    assert [b for _tc, b in half.bets] == pytest.approx([1.0, 2.0, 10.0], abs=1e-12)


def test_a_ramps_score_n0_and_risk_of_ruin_by_hand() -> None:
    """Bets 1, 4, 10: w = 0.25(-0.02) + 0.5(4)(0.01) + 0.25(10)(0.05) = 0.14;
    m2 = 1.25 (0.25 + 0.5(16) + 0.25(100)) = 41.5625; s^2 = 41.5625 - 0.0196."""
    f = ramp_figures(THREE, [1, 4, 10], bankroll=500, rounds_per_hour=80)
    var = 41.5625 - 0.14 ** 2
    assert f.win == pytest.approx(0.14, abs=1e-15)
    assert f.sd == pytest.approx(math.sqrt(var), rel=1e-14)
    assert f.score == pytest.approx(1e6 * 0.14 ** 2 / var, rel=1e-12)  # 471.80
    assert f.n0 == pytest.approx(var / 0.14 ** 2, rel=1e-12)
    assert f.di == pytest.approx(1000 * 0.14 / math.sqrt(var), rel=1e-12)
    assert f.risk_of_ruin == pytest.approx(math.exp(-2 * 0.14 * 500 / var), rel=1e-12)
    assert f.hours_to_double == pytest.approx(500 / (0.14 * 80), rel=1e-12)


def test_the_score_optimum_of_three_counts_worked_by_hand() -> None:
    """Bets from 1 to 10. With +3 at the maximum and +1 proportional (b = 0.008 c), w =
    0.25(-0.02) + 0.25(10)(0.05) + 0.5(0.01)(0.008 c) = 0.12 + 0.00004 c and m2 = 1.25
    (0.25 + 0.25(100)) + 0.5(1.25)(0.008 c)^2 = 31.5625 + 0.00004 c^2; d(w^2 / m2)/dc
    = 0 where B (C + D c^2) = (A + B c) D c, i.e. (B = D here) at c = C / A = 31.5625 /
    0.12 = 263.02, inside this piece
    (+3 is at the maximum from c = 250, +1 leaves the minimum at c = 125). The other
    pieces have no interior stationary point (both proportional: c = -62.5 < 0; +3
    alone: w is constant), and the piece ends score lower (c = 250: bets 1, 2, 10)."""
    ramp = optimize_ramp(THREE, RampLimits(bankroll=500, min_bet=1, max_bet=10))
    c = 31.5625 / 0.12
    assert ramp.criterion == "score"
    assert ramp.scale == pytest.approx(c, rel=1e-12)
    assert [b for _tc, b in ramp.bets] == pytest.approx([1.0, 0.008 * c, 10.0], rel=1e-12)
    w, m2 = 0.12 + 0.00004 * c, 31.5625 + 0.00004 * c * c
    assert ramp.figures.score == pytest.approx(1e6 * w * w / (m2 - w * w), rel=1e-12)
    at_end = ramp_figures(THREE, [1, 2, 10], 500).score
    assert at_end is not None and ramp.figures.score > at_end


def test_the_score_optimum_beats_every_ramp_of_a_grid_within_the_limits() -> None:
    """A brute force: every ramp with bets 1, 1.1, ..., 10 at each count (the -1 count too)
    scores at most the optimum's SCORE."""
    best = optimize_ramp(THREE, RampLimits(bankroll=500, min_bet=1, max_bet=10))
    assert best.figures.score is not None
    grid = [1 + 0.1 * k for k in range(91)]
    top = max(s for bets in itertools.product([1.0, 1.5], grid, grid)
              if (s := ramp_figures(THREE, bets, 500).score) is not None)
    assert best.figures.score >= top
    assert best.figures.score == pytest.approx(top, rel=1e-5)  # the grid gets close


# Two counts, half the rounds each: EV -1% and +3%, E[X^2] = 1. Betting 1 and b: w =
# -0.005 + 0.015 b, m2 = 0.5 + 0.5 b^2. Risk of ruin exp(-2 w 100 / (m2 - w^2)) <= e^-2
# is 100 w >= m2 - w^2: 0.500225 b^2 ... collected below.
TWO = (CountBucket(0, 0.5, -0.01, 1.0), CountBucket(1, 0.5, 0.03, 1.0))


def _largest_bet_within_ror() -> float:
    """100 (-0.005 + 0.015 b) >= 0.5 + 0.5 b^2 - (-0.005 + 0.015 b)^2, i.e.
    (0.5 - 0.000225) b^2 - (1.5 - 0.00015) b + (0.5 - 0.000025 + 0.5) <= 0."""
    a, b, c = 0.5 - 0.000225, -(1.5 - 0.00015), 1.0 - 0.000025
    return (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)  # the larger root, about 2.0013


def test_max_ror_takes_the_largest_ramp_whose_risk_of_ruin_is_within_the_limit() -> None:
    limits = RampLimits(bankroll=100, min_bet=1, max_bet=100, max_ror=math.exp(-2))
    ramp = optimize_ramp(TWO, limits)
    top = _largest_bet_within_ror()
    assert ramp.criterion == "max-ror"
    assert [b for _tc, b in ramp.bets] == pytest.approx([1.0, top], rel=1e-9)
    assert ramp.figures.risk_of_ruin == pytest.approx(math.exp(-2), rel=1e-8)
    bigger = ramp_figures(TWO, [1.0, top * 1.01], 100)
    assert bigger.risk_of_ruin > math.exp(-2)  # any larger bet breaks the limit


def test_max_ror_with_a_kelly_fraction_bets_no_more_than_that_fraction() -> None:
    """Half Kelly for 100 units bets 50 x 0.03 = 1.5 at +1, within the limit (2.0013), so
    the fraction decides; a fraction above the limit is cut to the limit."""
    half = optimize_ramp(TWO, RampLimits(bankroll=100, min_bet=1, max_bet=100,
                                         kelly_fraction=0.5, max_ror=math.exp(-2)))
    assert [b for _tc, b in half.bets] == pytest.approx([1.0, 1.5], rel=1e-12)
    full = optimize_ramp(TWO, RampLimits(bankroll=100, min_bet=1, max_bet=100,
                                         kelly_fraction=1.0, max_ror=math.exp(-2)))
    assert [b for _tc, b in full.bets] == pytest.approx([1.0, _largest_bet_within_ror()],
                                                        rel=1e-9)


def test_an_unreachable_risk_of_ruin_is_an_input_error_naming_the_least() -> None:
    """With 1 unit of bankroll no ramp of these counts keeps the risk of ruin at 1e-6.
    The least the message names is checked by brute force: exp(-2 w / (m2 - w^2)) with
    w = -0.005 + 0.015 b and m2 = 0.5 + 0.5 b^2, over bets b from 1 to 100 in steps of
    1e-4 (it is near b = 1.39, about 0.979)."""
    with pytest.raises(InputError, match="--max-ror 1e-06 cannot be met") as refused:
        optimize_ramp(TWO, RampLimits(bankroll=1, min_bet=1, max_bet=100, max_ror=1e-6))

    def ror(b: float) -> float:
        w = -0.005 + 0.015 * b
        return math.exp(-2 * w / (0.5 + 0.5 * b * b - w * w))

    least = min(ror(1 + k / 10000) for k in range(990001))
    assert f"the least risk of ruin of any ramp is {least:.4g}" in str(refused.value)


def test_no_positive_count_has_no_score_optimum() -> None:
    with pytest.raises(InputError, match="no ramp wins"):
        optimize_ramp((CountBucket(0, 1.0, -0.01, 1.3),),
                      RampLimits(bankroll=100, min_bet=1, max_bet=8))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"min_bet": 5, "max_bet": 2}, "--min-bet 5 is above --max-bet 2"),
    ({"bankroll": 0}, "--bankroll must be a positive"),
    ({"bankroll": -3}, "--bankroll must be a positive"),
    ({"min_bet": math.nan}, "--min-bet must be a positive"),
    ({"kelly_fraction": 0}, "--kelly-fraction must be a positive"),
    ({"max_ror": 1.0}, "--max-ror is a chance strictly between 0 and 1"),
    ({"rounds_per_hour": 0}, "--rounds-per-hour must be positive"),
])
def test_infeasible_limits_are_input_errors(kwargs: dict[str, float], message: str) -> None:
    args: dict[str, float] = {"bankroll": 100, "min_bet": 1, "max_bet": 8, **kwargs}
    with pytest.raises(InputError, match=message):
        RampLimits(**args)  # type: ignore[arg-type]


# EVs of 0 or at least 1e-9 in size: an EV of 1e-267 puts its count's bet changes at
# scales near 1e267, where the pieces' coefficients (EV^2 / E[X^2]) underflow to 0.
evs = st.one_of(st.just(0.0), st.floats(1e-9, 0.06), st.floats(-0.06, -1e-9))
counts = st.lists(st.tuples(st.floats(0.01, 1.0), evs, st.floats(0.8, 3.0)),
                  min_size=1, max_size=6)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(data=counts, low=st.floats(0.5, 5.0), spread=st.floats(1.0, 20.0),
       shares=st.lists(st.floats(0.0, 1.0), min_size=6, max_size=6))
@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_the_optimum_scores_at_least_any_ramp_within_the_limits(
        data: list[tuple[float, float, float]], low: float, spread: float,
        shares: list[float]) -> None:
    """Any ramp with bets in [low, low x spread] (``shares`` place each bet between the
    limits) scores at most the optimum on the same per-count data."""
    total = math.fsum(f for f, _e, _m in data)
    buckets = tuple(CountBucket(k, f / total, e, m) for k, (f, e, m) in enumerate(data))
    assume(any(b.ev > 0 for b in buckets))
    high = low * spread
    hand = [low + s * (high - low) for s in shares[:len(buckets)]]
    theirs = ramp_figures(buckets, hand, 1000).score
    assume(theirs is not None)
    try:
        best = optimize_ramp(buckets, RampLimits(bankroll=1000, min_bet=low, max_bet=high))
    except InputError:  # only when no ramp wins; the hand ramp won, so not here
        pytest.fail("the optimum was refused though a ramp wins")
    assert best.figures.score is not None and theirs is not None
    assert best.figures.score >= theirs * (1 - 1e-9)
    assert all(low <= b <= high for _tc, b in best.bets)
    for k, (_tc, bet) in enumerate(best.bets):  # nudging any one bet does not help
        for nudged in (max(low, bet * 0.99), min(high, bet * 1.01)):
            moved = [b for _tc, b in best.bets]
            moved[k] = nudged
            near = ramp_figures(buckets, moved, 1000).score
            assert near is None or best.figures.score >= near * (1 - 1e-9)
    assert [b for _tc, b in best.bets] == list(scaled_bets(buckets, best.scale, low, high))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(data=counts, low=st.floats(0.5, 5.0), spread=st.floats(1.0, 20.0),
       bankroll=st.floats(10.0, 1e5), ror=st.floats(1e-4, 0.5))
def test_no_larger_scale_keeps_the_risk_of_ruin_limit(
        data: list[tuple[float, float, float]], low: float, spread: float, bankroll: float,
        ror: float) -> None:
    """A brute force over 400 scales (a geometric grid to where every bet is at a limit):
    none above the chosen one meets the limit with different bets; and when the limit is
    refused as unreachable, no scale of the grid meets it."""
    total = math.fsum(f for f, _e, _m in data)
    buckets = tuple(CountBucket(k, f / total, e, m) for k, (f, e, m) in enumerate(data))
    high = low * spread
    limits = RampLimits(bankroll=bankroll, min_bet=low, max_bet=high, max_ror=ror)
    ends = [x * b.second_moment / b.ev for b in buckets if b.ev > 0 for x in (low, high)]
    top = max(ends, default=1.0) * 1.01
    grid = [top * 10 ** (-8 * k / 399) for k in range(400)]

    def risk(c: float) -> float:
        return ramp_figures(buckets, scaled_bets(buckets, c, low, high), bankroll).risk_of_ruin

    try:
        best = optimize_ramp(buckets, limits)
    except InputError as refused:
        assert all(risk(c) > ror * (1 - 1e-9) for c in grid)
        least = float(str(refused).rsplit(" ", 1)[1])  # "...: the least ... is X"
        assert least > ror * (1 - 1e-3)  # (printed to 4 digits)
        assert all(risk(c) >= least * (1 - 1e-3) for c in grid)
        return
    assert best.figures.risk_of_ruin <= ror * (1 + 1e-9)
    chosen = [b for _tc, b in best.bets]
    for c in grid:
        if c > best.scale and list(scaled_bets(buckets, c, low, high)) != chosen:
            assert risk(c) > ror * (1 - 1e-9)


# A 39-card shoe (3 of each rank, 12 tens) to a cut card 20 from the end: about three
# rounds a shoe, every third round with its exact second moment.
COUNT = ["count", "--rules", "deluxe", "--shoe", "A=3,2=3,3=3,4=3,5=3,6=3,7=3,8=3,9=3,T=12",
         "--cut-card", "20", "--moment-every", "3", "--jobs", "1"]


@pytest.mark.slow
def test_count_optimize_ramp_json_against_its_own_per_count_rows() -> None:
    """A tiny real run (a 39-card shoe, 40 rounds): the contract's keys, each bet
    clip(scale x EV / E[X^2]) from the reported rows, the per-count SCORE recomputed
    from those rows, the round figures' SCORE, N0 and risk of ruin from the reported win
    rate and SD, and the hand ramp's figures the same as the top-level ones."""
    result = runner.invoke(app, [*COUNT, "--rounds", "40", "--spread", "0:1,1:2,2:4,3:8",
                                 "--optimize-ramp", "--bankroll", "1000", "--min-bet", "1",
                                 "--max-bet", "8", "--rounds-per-hour", "80", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    opt = data["optimal_ramp"]
    assert set(opt) >= {"bets", "score", "win_rate_per_100", "risk_of_ruin", "n0", "di",
                        "sd_per_100", "hours_to_double", "by_count", "criterion", "scale"}
    assert set(opt["score"]) == {"value", "se"} and set(opt["win_rate_per_100"]) == {
        "value", "se"}
    rows = opt["by_count"]
    assert [r["tc"] for r in rows] == [r["tc"] for r in data["by_true_count"]]
    assert [r["ev"] for r in rows] == [r["ev"] for r in data["by_true_count"]]
    assert math.fsum(r["frequency"] for r in rows) == pytest.approx(1.0, abs=1e-12)
    for r in rows:
        want = (min(8.0, max(1.0, opt["scale"] * r["ev"] / r["second_moment"]))
                if r["ev"] > 0 else 1.0)
        assert opt["bets"][str(r["tc"])] == pytest.approx(want, rel=1e-12) == r["bet"]
        assert r["variance"] == pytest.approx(r["second_moment"] - r["ev"] ** 2, rel=1e-12)
    w = math.fsum(r["frequency"] * r["bet"] * r["ev"] for r in rows)
    m2 = math.fsum(r["frequency"] * r["bet"] ** 2 * r["second_moment"] for r in rows)
    assert opt["model"]["score"] == pytest.approx(1e6 * w * w / (m2 - w * w), rel=1e-9)
    hand = opt["compared_with_spread"]
    assert hand["within_limits"] is True
    assert opt["model"]["score"] >= hand["model"]["score"]
    assert hand["win_rate_per_100"] == data["win_rate_per_100"]  # the same ramp and rounds
    assert hand["score"]["value"] == pytest.approx(data["score"], rel=1e-12)
    win, sd = opt["win_rate_per_round"]["value"], opt["sd_per_round"]
    assert opt["win_rate_per_100"]["value"] == pytest.approx(100 * win, rel=1e-12)
    assert opt["score"]["value"] == pytest.approx(1e6 * (win / sd) ** 2, rel=1e-12)
    assert opt["n0"] == pytest.approx((sd / win) ** 2, rel=1e-12)
    assert opt["risk_of_ruin"] == pytest.approx(math.exp(-2 * win * 1000 / sd ** 2),
                                                rel=1e-12)
    assert opt["hours_to_double"] == pytest.approx(1000 / (win * 80), rel=1e-12)
    assert opt["sd_per_100"]["value"] == pytest.approx(10 * sd, rel=1e-12)


@pytest.mark.parametrize(("args", "message"), [
    (["--optimize-ramp", "--bankroll", "100", "--min-bet", "5", "--max-bet", "2"],
     "--min-bet 5 is above --max-bet 2"),
    (["--optimize-ramp", "--bankroll", "0", "--min-bet", "1", "--max-bet", "2"],
     "--bankroll must be a positive"),
    (["--optimize-ramp", "--bankroll", "-10", "--min-bet", "1", "--max-bet", "2"],
     "--bankroll must be a positive"),
    (["--optimize-ramp", "--min-bet", "1", "--max-bet", "8"], "--optimize-ramp needs --bankroll"),
    (["--optimize-ramp", "--bankroll", "100", "--max-bet", "8"],
     "--optimize-ramp needs --min-bet"),
    (["--optimize-ramp", "--bankroll", "100", "--min-bet", "1", "--max-bet", "8",
      "--max-ror", "2"], "--max-ror is a chance"),
    (["--optimize-ramp", "--bankroll", "100", "--min-bet", "1", "--max-bet", "8",
      "--kelly-fraction", "-1"], "--kelly-fraction must be a positive"),
    (["--min-bet", "1"], "--min-bet is an --optimize-ramp option"),
    (["--optimize-ramp", "--bankroll", "100", "--min-bet", "1", "--max-bet", "8",
      "--enter", "1", "--exit", "0"], "not with --enter or --exit"),
])
def test_bad_ramp_flags_are_one_error_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*COUNT, "--rounds", "5", *args])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith("error:") and message in result.stderr


@pytest.mark.slow
def test_an_unreachable_max_ror_in_a_real_run_is_one_error_line() -> None:
    """One small shoe, 1 unit of bankroll, a risk of ruin of 1e-12: unreachable."""
    result = runner.invoke(app, [*COUNT, "--rounds", "1", "--optimize-ramp", "--bankroll",
                                 "1", "--min-bet", "1", "--max-bet", "8", "--max-ror",
                                 "1e-12"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith("error: --max-ror 1e-12 cannot be met")


def test_a_ramp_and_its_double_have_the_same_score_paired_to_zero() -> None:
    """SCORE does not depend on the ramp's scale (10^6 w^2 / s^2): a ramp against itself
    doubled, on the same shoes, differs by 0 with a paired standard error of 0, while
    each SCORE alone has sampling error."""
    r = RoundRecord
    shoes = [(r(-1.2, -0.01, 1.3), r(0.4, 0.002, 1.25), r(2.5, 0.02, None)),
             (r(0.1, 0.001, None), r(1.7, 0.012, 1.2)),
             (r(-2.5, -0.02, 1.4), r(3.2, 0.03, 1.15), r(1.1, 0.006, 1.22))]
    ramp = parse_spread("0:1,1:2,2:4,3:8")
    bets = [[ramp.bet(x.tc) for x in shoe] for shoe in shoes]
    doubled = [[2 * b for b in shoe] for shoe in bets]
    got = score_difference(shoes, bets, doubled)
    assert got is not None
    assert got.value == pytest.approx(0.0, abs=1e-9) and got.se == pytest.approx(0.0, abs=1e-9)
    flat = [[1.0 for _ in shoe] for shoe in shoes]
    apart = score_difference(shoes, bets, flat)
    assert apart is not None and apart.se > 0


def test_with_every_second_moment_the_rounds_and_the_per_count_data_agree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Six rounds in two shoes, each with its second moment. By hand, the counts: -2
    (EV -0.02, E[X^2] 1.3), -1 (-0.01, 1.35), 0 (0, 1.3), +1 (0.01, 1.25), +2 (two rounds:
    EV 0.025, E[X^2] 1.25), each round a sixth. With every round sampled the per-count
    second moments weigh each round as the rounds' estimate does, so the optimal ramp's
    win rate and SD over the rounds equal those from the per-count data."""
    rules = blackjack_rules("deluxe", ["decks=1"])
    counter = blackjack_counter(rules, moment_every=10**9)
    r = RoundRecord
    played = [(r(-1.5, -0.02, 1.3), r(0.3, 0.0, 1.3), r(2.2, 0.03, 1.2)),
              (r(1.1, 0.01, 1.25), r(2.7, 0.02, 1.3), r(-0.5, -0.01, 1.35))]
    limits = RampLimits(bankroll=1000, min_bet=1, max_bet=8)
    result = summarise(counter, played, 6, parse_spread("0:1,1:2,2:4"), 1000, optimize=limits)
    opt = result.optimal
    assert opt is not None
    assert [(b.tc, b.ev, b.second_moment) for b in opt.buckets] == [
        (-2, -0.02, 1.3), (-1, -0.01, 1.35), (0, 0.0, 1.3), (1, 0.01, 1.25),
        (2, pytest.approx(0.025, abs=1e-15), pytest.approx(1.25, abs=1e-15))]
    assert [b.frequency for b in opt.buckets] == pytest.approx([1 / 6] * 4 + [2 / 6])
    assert opt.result.win_rate_per_round.value == pytest.approx(opt.ramp.figures.win,
                                                                rel=1e-12)
    assert opt.result.sd_per_round == pytest.approx(opt.ramp.figures.sd, rel=1e-12)
    assert opt.spread_result is not None and opt.spread_figures is not None
    assert opt.spread_result.score == pytest.approx(opt.spread_figures.score, rel=1e-12)
    monkeypatch.setenv("COLUMNS", "100")  # (the text's width: the terminal's, at most 100)
    text = count_text(result)
    assert "optimal ramp (the ramp that maximises SCORE" in text
    assert "SCORE, optimal less --spread (paired SE)" in text
