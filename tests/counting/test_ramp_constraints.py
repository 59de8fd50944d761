"""Ramps under a counter's constraints (issue 48 item 4): chip units, a spread cap, a cover
limit, each optimum checked against a brute force over every allowed ramp written here
or a hand derivation; ``count --optimize-ramp --bet-unit/--max-spread/--max-bet-levels``
(its JSON keys, and bad values as one ``error:`` line)."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app
from strategy_calc.counting.counter import RoundRecord, parse_spread
from strategy_calc.counting.ramp_constraints import RampConstraints, optimize_constrained
from strategy_calc.counting.ramps import CountBucket, RampLimits, optimize_ramp
from strategy_calc.counting.runs import _optimal_ramp, best_wong
from strategy_calc.errors import InputError

runner = CliRunner()

# Three hand-made sets of counts (share, EV, E[X^2] per unit bet), in count order: a
# losing count, a little edge, a big edge; two winning counts of different strength; and
# a noisy one whose EV is not monotone in the count.
SETS = [
    (CountBucket(0, 0.5, -0.01, 1.30), CountBucket(1, 0.3, 0.004, 1.25),
     CountBucket(2, 0.2, 0.02, 1.20)),
    (CountBucket(-1, 0.4, -0.006, 1.32), CountBucket(1, 0.35, 0.009, 1.10),
     CountBucket(3, 0.25, 0.031, 1.45)),
    (CountBucket(0, 0.45, -0.004, 1.3), CountBucket(1, 0.2, 0.022, 1.2),
     CountBucket(2, 0.25, 0.006, 1.25), CountBucket(3, 0.1, 0.035, 1.15)),
]


def moments(buckets: tuple[CountBucket, ...], bets: tuple[float, ...]) -> tuple[float, float]:
    """w = sum f b e, m2 = sum f b^2 E[X^2] (the per-count model, written out)."""
    w = sum(b.frequency * x * b.ev for b, x in zip(buckets, bets, strict=True))
    m2 = sum(b.frequency * x * x * b.second_moment for b, x in zip(buckets, bets, strict=True))
    return w, m2


def score(buckets: tuple[CountBucket, ...], bets: tuple[float, ...]) -> float:
    """SCORE = 10^6 w^2 / (m2 - w^2) for a winning ramp, else -inf."""
    w, m2 = moments(buckets, bets)
    return 1e6 * w * w / (m2 - w * w) if w > 0 else -math.inf


def runs(bets: tuple[float, ...]) -> int:
    """Runs of equal bets along the counts."""
    return 1 + sum(1 for x, y in itertools.pairwise(bets) if x != y)


def brute_force(buckets: tuple[CountBucket, ...], allowed: list[float], spread: float | None,
                levels: int | None) -> float:
    """The best SCORE over every ramp of ``allowed`` bets meeting the constraints."""
    best = -math.inf
    for bets in itertools.product(allowed, repeat=len(buckets)):
        if spread is not None and max(bets) > spread * min(bets) + 1e-12:
            continue
        if levels is not None and runs(bets) > levels:
            continue
        best = max(best, score(buckets, bets))
    return best


CASES = [  # (unit, min, max, spread cap, levels)
    (1.0, 1.0, 6.0, None, None), (0.5, 1.0, 4.0, None, None), (2.0, 1.0, 9.0, None, None),
    (1.0, 1.0, 6.0, 3.0, None), (1.0, 2.0, 8.0, 2.5, None),
    (1.0, 1.0, 6.0, None, 2), (1.0, 1.0, 6.0, None, 1), (0.5, 1.0, 3.0, None, 3),
    (1.0, 1.0, 8.0, 4.0, 2), (1.0, 1.0, 8.0, 3.0, 3),
]


@pytest.mark.parametrize("buckets", SETS)
@pytest.mark.parametrize(("unit", "low", "high", "spread", "levels"), CASES)
def test_the_constrained_optimum_is_the_best_of_every_allowed_ramp(
        buckets: tuple[CountBucket, ...], unit: float, low: float, high: float,
        spread: float | None, levels: int | None) -> None:
    """Every ramp of multiples of the unit within the limits, the spread cap and the runs
    enumerated: the optimiser's SCORE is their best, its bets meet every constraint, and
    it never beats the unconstrained (continuous) optimum."""
    limits = RampLimits(1000, low, high)
    allowed = [k * unit for k in range(math.ceil(low / unit), math.floor(high / unit) + 1)]
    got = optimize_constrained(buckets, limits, RampConstraints(unit, spread, levels))
    bets = tuple(x for _tc, x in got.bets)
    assert [tc for tc, _x in got.bets] == [b.tc for b in buckets]
    for x in bets:
        assert low <= x <= high and x / unit == pytest.approx(round(x / unit), abs=1e-9)
    if spread is not None:
        assert max(bets) <= spread * min(bets) + 1e-12
    if levels is not None:
        assert runs(bets) <= levels
    assert score(buckets, bets) == pytest.approx(brute_force(buckets, allowed, spread, levels),
                                                 rel=1e-12)
    assert got.figures.score == pytest.approx(score(buckets, bets), rel=1e-9)
    free = optimize_ramp(buckets, limits).figures.score
    assert free is not None and score(buckets, bets) <= free * (1 + 1e-12)


def test_a_two_dollar_chip_on_a_one_to_eight_ramp_worked_by_hand() -> None:
    """A losing count (half the rounds, EV -1%) and a winning one (EV +2%), E[X^2] 1 at
    both: w = 0.5 (0.02 b - 0.01 a), m2 = 0.5 (a^2 + b^2). The losing count bets the
    least allowed; then w^2 / m2 grows with b (its derivative has the sign of
    (0.02 b - 0.01)(0.02 + 0.01 b) > 0), so the winning count bets the most allowed: in $2
    chips from 1 to 7, a = 2 and b = 6."""
    buckets = (CountBucket(0, 0.5, -0.01, 1.0), CountBucket(1, 0.5, 0.02, 1.0))
    got = optimize_constrained(buckets, RampLimits(1000, 1, 7), RampConstraints(bet_unit=2))
    assert got.bets == ((0, 2.0), (1, 6.0))
    w, m2 = 0.5 * (0.12 - 0.02), 0.5 * (4 + 36)
    assert got.figures.score == pytest.approx(1e6 * w * w / (m2 - w * w), rel=1e-12)


@pytest.mark.parametrize(("cap", "ratio"), [(1.5, 1.5), (3.0, 3.0), (20.0, 8.0)])
def test_a_continuous_spread_cap_binds_at_exactly_the_cap(cap: float, ratio: float) -> None:
    """One losing and one winning count (the example above): SCORE grows with the ratio
    b / a of the bets and depends on nothing else (it is scale-free), so under a cap K
    the optimum bets K to 1 (8 to 1, the table's, when K is wider)."""
    buckets = (CountBucket(0, 0.5, -0.01, 1.0), CountBucket(1, 0.5, 0.02, 1.0))
    got = optimize_constrained(buckets, RampLimits(1000, 1, 8), RampConstraints(max_spread=cap))
    (_a, low), (_b, high) = got.bets
    assert 1 <= low <= high <= 8 and high / low == pytest.approx(ratio, rel=1e-9)
    assert got.figures.score == pytest.approx(score(buckets, (1.0, ratio)), rel=1e-9)


def test_continuous_cover_limits_worked_by_hand() -> None:
    """Counts with EVs -2%, +1%, +4% (shares 0.5, 0.3, 0.2; E[X^2] 1.2): one bet size is
    a flat bet, SCORE 10^6 e^2 / (E[X^2] - e^2) with e = 0.001 the mean EV whatever the
    bet; with two runs, either cut puts a losing run (merged EV < 0) at the minimum and a
    winning run at the maximum (as in the example above), the better cut the optimum;
    three runs is no constraint."""
    buckets = (CountBucket(0, 0.5, -0.02, 1.2), CountBucket(1, 0.3, 0.01, 1.2),
               CountBucket(2, 0.2, 0.04, 1.2))
    limits = RampLimits(1000, 1, 10)

    def best(levels: int) -> float:
        got = optimize_constrained(buckets, limits, RampConstraints(max_bet_levels=levels))
        bets = tuple(x for _tc, x in got.bets)
        assert runs(tuple(round(x, 9) for x in bets)) <= levels
        return score(buckets, bets)

    e = 0.001
    assert best(1) == pytest.approx(1e6 * e * e / (1.2 - e * e), rel=1e-9)
    assert best(2) == pytest.approx(max(score(buckets, (1, 10, 10)), score(buckets, (1, 1, 10))),
                                    rel=1e-9)
    free = optimize_ramp(buckets, limits).figures.score
    assert free is not None and best(3) == pytest.approx(free, rel=1e-12)


@pytest.mark.parametrize("buckets", SETS)
@pytest.mark.parametrize(("unit", "spread", "levels"), [
    (1.0, None, None), (0.5, None, 2), (1.0, 3.0, None), (1.0, 4.0, 2)])
def test_the_constrained_kelly_ramp_is_the_best_of_every_allowed_ramp(
        buckets: tuple[CountBucket, ...], unit: float, spread: float | None,
        levels: int | None) -> None:
    """Half Kelly for a bankroll of 200 units (C = 100): every allowed ramp enumerated,
    the chosen one maximises the Kelly objective w - m2 / (2 C)."""
    limits = RampLimits(200, 1, 5, kelly_fraction=0.5)
    allowed = [k * unit for k in range(math.ceil(1 / unit), math.floor(5 / unit) + 1)]

    def growth(bets: tuple[float, ...]) -> float:
        w, m2 = moments(buckets, bets)
        return w - m2 / 200

    best = -math.inf
    for bets in itertools.product(allowed, repeat=len(buckets)):
        if spread is not None and max(bets) > spread * min(bets) + 1e-12:
            continue
        if levels is None or runs(bets) <= levels:
            best = max(best, growth(bets))
    got = optimize_constrained(buckets, limits, RampConstraints(unit, spread, levels))
    assert got.criterion == "kelly" and got.scale == 100
    assert growth(tuple(x for _tc, x in got.bets)) == pytest.approx(best, rel=1e-12, abs=1e-15)


def test_continuous_kelly_cover_worked_by_hand() -> None:
    """The Kelly objective sum f (x e - x^2 m / (2 C)) of one bet size x is largest at
    x = C sum f e / sum f m (clipped); with a run per count the ramp is the unconstrained
    Kelly ramp clip(C e / m)."""
    buckets = SETS[1]
    limits = RampLimits(1000, 1, 12, kelly_fraction=0.25)  # C = 250
    flat = optimize_constrained(buckets, limits, RampConstraints(max_bet_levels=1))
    x = 250 * sum(b.frequency * b.ev for b in buckets) / sum(
        b.frequency * b.second_moment for b in buckets)
    assert [bet for _tc, bet in flat.bets] == pytest.approx([min(12, max(1, x))] * 3,
                                                            rel=1e-12)
    free = optimize_constrained(buckets, limits, RampConstraints(max_bet_levels=3))
    assert [bet for _tc, bet in free.bets] == pytest.approx(
        [min(12.0, max(1.0, 250 * b.ev / b.second_moment)) if b.ev > 0 else 1.0
         for b in buckets], rel=1e-12)


@pytest.mark.parametrize(("constraints", "limits", "message"), [
    ({"bet_unit": 0.0}, (1, 8), "--bet-unit must be a positive"),
    ({"max_spread": 0.5}, (1, 8), "--max-spread is the largest bet over the smallest"),
    ({"max_bet_levels": 0}, (1, 8), "--max-bet-levels is a number of bet sizes"),
    ({"bet_unit": 2.0}, (1, 1.5), "no bet from --min-bet 1 to --max-bet 1.5 is a multiple"),
    ({"bet_unit": 1e-4}, (1, 8), "at most 1,000"),
])
def test_bad_constraints_are_input_errors(constraints: dict[str, float],
                                          limits: tuple[float, float], message: str) -> None:
    buckets = SETS[0]
    with pytest.raises(InputError, match=message):
        optimize_constrained(buckets, RampLimits(1000, *limits), RampConstraints(**constraints))


def wong_score(shoes: list[tuple[RoundRecord, ...]], units: dict[int, float], enter: int,
               leave: int) -> float:
    """SCORE per round observed of wonging in at a count >= ``enter``, out below
    ``leave``, betting ``units`` by floored count (watched rounds bet 0), written out: w
    the mean of b e over all rounds, m2 the mean of b^2 E[X^2] over the rounds with one."""
    first = second = 0.0
    rounds = sampled = 0
    for shoe in shoes:
        inside = False
        for r in shoe:
            inside = (r.tc >= leave) if inside else (r.tc >= enter)
            bet = units[math.floor(r.tc)] if inside else 0.0
            first += bet * r.ev
            rounds += 1
            if r.second_moment is not None:
                second += bet * bet * r.second_moment
                sampled += 1
    w, m2 = first / rounds, second / sampled
    return 1e6 * w * w / (m2 - w * w) if w > 0 else -math.inf


def test_the_best_wonging_is_the_best_of_every_pair_of_whole_counts() -> None:
    """Three recorded shoes (true count, EV, E[X^2]), a 1-4 ramp: every pair exit <= entry
    of the counts -2..3 scored by hand, the best is the one chosen, its SCORE and share
    played those of the hand wonging, and it beats playing every round."""
    r = RoundRecord
    shoes = [(r(-1.5, -0.02, 1.3), r(0.5, -0.004, 1.3), r(2.5, 0.03, 1.2),
              r(1.2, 0.006, None), r(3.1, 0.05, 1.1)),
             (r(0.1, -0.002, 1.3), r(-2.0, -0.03, 1.4), r(1.7, 0.012, 1.25),
              r(2.9, 0.02, None)),
             (r(1.1, 0.004, 1.28), r(-0.5, -0.008, 1.3), r(2.0, 0.025, 1.22))]
    units = {-2: 1.0, -1: 1.0, 0: 1.0, 1: 2.0, 2: 4.0, 3: 4.0}
    best = best_wong(shoes, parse_spread("-2:1,1:2,2:4"), None)
    pairs = [(e, x) for e in range(-2, 4) for x in range(-2, e + 1)]
    scores = {p: wong_score(shoes, units, *p) for p in pairs if p[0] in units and p[1] in units}
    top = max(scores.values())
    assert best.result.score == pytest.approx(top, rel=1e-9)
    assert scores[(int(best.wong.enter), int(best.wong.exit))] == pytest.approx(top, rel=1e-12)
    assert best.tried == len(scores)
    assert best.every_round.score == pytest.approx(wong_score(shoes, units, -2, -2), rel=1e-9)
    assert best.gain is not None and best.gain.value == pytest.approx(
        top - wong_score(shoes, units, -2, -2), rel=1e-9)


@pytest.mark.parametrize("constraints", [RampConstraints(max_spread=1.5),
                                         RampConstraints(bet_unit=1, max_spread=1.5),
                                         RampConstraints(max_bet_levels=1)])
def test_a_cap_under_which_no_ramp_wins_is_an_input_error(constraints: RampConstraints
                                                          ) -> None:
    """80% of rounds at EV -1%, 20% at +2%: the win per round -0.008 a + 0.004 b is
    negative for every b <= 1.5 a (and for a flat bet), while 1 to 8 wins."""
    buckets = (CountBucket(0, 0.8, -0.01, 1.3), CountBucket(1, 0.2, 0.02, 1.3))
    assert optimize_ramp(buckets, RampLimits(1000, 1, 8)).figures.score is not None
    with pytest.raises(InputError, match="no ramp within --bet-unit, --max-spread and"):
        optimize_constrained(buckets, RampLimits(1000, 1, 8), constraints)


# A 39-card shoe dealt to 20 cards from the end: a few rounds a shoe (as test_bet_ramp.py).
COUNT = ["count", "--rules", "deluxe", "--shoe", "A=3,2=3,3=3,4=3,5=3,6=3,7=3,8=3,9=3,T=12",
         "--cut-card", "20", "--moment-every", "8", "--jobs", "1"]
OPTIMIZE = ["--optimize-ramp", "--bankroll", "1000", "--min-bet", "1", "--max-bet", "8"]


def test_count_constrained_ramp_json_keys_and_bets() -> None:
    """The JSON keys of the constraints' cost and of the best wonging; every bet a
    multiple of the unit within the limits and the cap, in at most N runs; the costs are
    the unconstrained optimum's SCORE less the constrained one's (from the per-count data:
    never negative)."""
    result = runner.invoke(app, [*COUNT, "--rounds", "12", *OPTIMIZE, "--bet-unit", "2",
                                 "--max-spread", "4", "--max-bet-levels", "2",
                                 "--optimize-wong", "--json"])
    assert result.exit_code == 0, result.output
    opt = json.loads(result.stdout)["optimal_ramp"]
    assert opt["constraints"] == {"bet_unit": 2.0, "max_spread": 4.0, "max_bet_levels": 2}
    bets = [opt["bets"][str(r["tc"])] for r in opt["by_count"]]
    assert all(x in (2.0, 4.0, 6.0, 8.0) for x in bets) and max(bets) <= 4 * min(bets)
    assert runs(tuple(bets)) <= 2
    assert set(opt["unconstrained_score"]) == {"value", "se"}
    assert set(opt["constraint_cost_score"]) == {"value", "se"}
    free, constrained = opt["unconstrained_model_score"], opt["model"]["score"]
    assert opt["constraint_cost_model_score"] == pytest.approx(free - constrained, rel=1e-12)
    assert opt["constraint_cost_model_score"] >= 0
    assert opt["constraint_cost_score"]["value"] == pytest.approx(
        opt["unconstrained_score"]["value"] - opt["score"]["value"], rel=1e-9, abs=1e-9)
    assert set(opt["each_constraint"]) == {"bet_unit", "max_spread", "max_bet_levels"}
    for one in opt["each_constraint"].values():
        assert 0 <= one["constraint_cost_model_score"] <= opt["constraint_cost_model_score"] + 1e-9
    wong = json.loads(result.stdout)["optimal_wong"]
    assert wong["exit"] <= wong["enter"] and 0 < wong["share_played"] <= 1
    assert set(wong) >= {"score", "every_round", "score_gain", "score_gain_over_given",
                         "pairs_tried", "win_rate_per_100"}
    assert wong["score"]["value"] >= wong["every_round"]["score"]["value"]  # (a pair plays all)


def test_a_constrained_kelly_ramp_gives_each_constraint_alone_but_the_cap() -> None:
    """Under half Kelly (bankroll 1000: scale 500) with a $1 unit and a 4-to-1 cap, on
    recorded rounds: the bets are whole units within the cap, and each constraint alone
    is given except the cap, which alone would need a unit."""
    r = RoundRecord
    shoes = [(r(-1.5, -0.02, 1.3), r(0.5, -0.004, 1.3), r(2.5, 0.03, 1.2)),
             (r(1.2, 0.006, 1.25), r(3.1, 0.05, 1.1), r(0.1, -0.002, 1.3))]
    got = _optimal_ramp(shoes, None, RampLimits(1000, 1, 8, kelly_fraction=0.5),
                        RampConstraints(bet_unit=1, max_spread=4))
    bets = [x for _tc, x in got.ramp.bets]
    assert got.ramp.criterion == "kelly" and got.ramp.scale == 500
    assert all(x == round(x) and 1 <= x <= 8 for x in bets) and max(bets) <= 4 * min(bets)
    assert got.constraints is not None
    assert [name for name, _one in got.constraints.each] == ["bet_unit"]


@pytest.mark.parametrize(("args", "message"), [
    ([*OPTIMIZE, "--bet-unit", "-1"], "--bet-unit must be a positive"),
    ([*OPTIMIZE, "--max-spread", "0.9"], "--max-spread is the largest bet over the smallest"),
    ([*OPTIMIZE, "--max-bet-levels", "0"], "--max-bet-levels is a number of bet sizes"),
    ([*OPTIMIZE, "--bet-unit", "10"], "no bet from --min-bet 1 to --max-bet 8 is a multiple"),
    (["--bet-unit", "1"], "--bet-unit is an --optimize-ramp option"),
    ([*OPTIMIZE, "--max-ror", "0.1", "--max-bet-levels", "3"], "not with --max-ror"),
    ([*OPTIMIZE, "--kelly-fraction", "0.5", "--max-spread", "4"],
     "--max-spread with --kelly-fraction needs --bet-unit"),
])
def test_bad_constraint_flags_are_one_error_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*COUNT, "--rounds", "5", *args])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.output
    assert result.stderr.startswith("error:") and message in result.stderr
