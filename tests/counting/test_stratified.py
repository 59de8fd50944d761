"""``count --method stratified``: the survey deals the direct run's rounds, the two-phase
estimator is the direct one when every round is valued, its sampling theory holds on a
population small enough to enumerate every sample, and the controls' means are exact."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from strategy_calc.cli.root import run
from strategy_calc.counting import runs
from strategy_calc.counting.controls import count_distribution, shoe_controls
from strategy_calc.counting.counter import Wong, blackjack_counter, parse_spread
from strategy_calc.counting.ramp_constraints import RampConstraints
from strategy_calc.counting.ramps import RampLimits
from strategy_calc.counting.stratified import Sizes, _terms, _two_phase, priorities
from strategy_calc.counting.stratified_ramps import _optimal_wong, _optimised
from strategy_calc.rules import blackjack_rules

SPREAD = parse_spread("0:1,1:2,2:4,3:8")


@pytest.mark.slow  # (whole shoes valued exactly, ~1.5 s each)
@pytest.mark.parametrize(("name", "decks", "shoes", "strategy", "system"), [
    ("deluxe", 1, 2, "basic", "hilo"), ("macau-1983", 2, 1, "basic", "hilo"),
    ("deluxe", 1, 2, "basic+indices", "hilo"), ("deluxe", 1, 1, "basic+indices", "hiopt2")])
def test_the_survey_deals_the_direct_runs_rounds(name: str, decks: int, shoes: int,
                                                 strategy: str, system: str) -> None:
    """Shoe ``i`` surveyed is shoe ``i`` of the direct run: the same rounds with the same
    counts, and the exact EV of each surveyed state (at the count its index plays read)
    is that round's EV there (Hi-Opt II's bets read its ace side count, its plays not)."""
    counter = blackjack_counter(blackjack_rules(name, [f"decks={decks}"]), strategy, system,
                                moment_every=10**9)
    for i in range(shoes):
        played = counter.play_one(i)
        shoe = counter.survey_one(i)
        assert list(shoe.keys) == [r.tc for r in played]
        plays = [0.0] * len(shoe.keys) if shoe.play_keys is None else list(shoe.play_keys)
        valued = counter.exact_rounds([(shoe.state(j), False, plays[j])
                                       for j in range(len(shoe.keys))])
        assert [ev for ev, _m2 in valued] == [r.ev for r in played]


@pytest.mark.slow  # (six one-deck shoes, every round's moments exact twice: ~3 s)
def test_valuing_every_round_gives_the_direct_estimate() -> None:
    """With every surveyed round in the samples (and no controls) each stratum's mean
    residual is its population's, so the estimate is the direct run's over the same shoes:
    the EV, the win rate and the SD equal to rounding, the win rate's standard error (the
    shoes' alone) too, and SCORE's that of the direct run's per-shoe influences."""
    counter = blackjack_counter(blackjack_rules("deluxe", ["decks=1", "max_split_hands=1"]),
                                moment_every=1)  # (no splits: each second moment ~0.03 s)
    played = counter.play(range(6))
    rounds = sum(len(s) for s in played)
    direct = runs.summarise(counter, played, rounds, SPREAD, None)
    got, run = _two_phase(counter, SPREAD, Sizes(rounds, 10**6, 10**6), controlled=False)
    assert got.sizes == Sizes(rounds, rounds, rounds)
    assert direct.win_rate_per_round is not None and direct.sd_per_round is not None
    assert got.win.value == pytest.approx(direct.win_rate_per_round.value, abs=1e-14)
    assert got.win.se == pytest.approx(direct.win_rate_per_round.se, rel=1e-9)
    assert got.ev.value == pytest.approx(direct.ev_per_round.value, abs=1e-14)
    assert got.sd == pytest.approx(direct.sd_per_round, rel=1e-12)
    bets = [[SPREAD.bet(r.tc) for r in s] for s in played]
    influence = runs._score_influence(played, bets)
    assert influence is not None and got.score is not None and got.score_se is not None
    value, psi = influence
    k = len(psi)
    assert got.score == pytest.approx(value, rel=1e-12)
    assert got.score_se == pytest.approx(math.sqrt(sum(p * p for p in psi) / (k * (k - 1))),
                                         rel=1e-9)
    assert got.score_se_sample == 0.0  # (every round valued: nothing sampled)
    # --optimize-ramp: the same per-count data, so the same ramp, scored alike
    limits = RampLimits(bankroll=10_000, min_bet=1, max_bet=8)
    want, ours = runs._optimal_ramp(played, SPREAD, limits), _optimised(run, SPREAD, limits)
    assert [t for t, _b in ours.ramp.bets] == [t for t, _b in want.ramp.bets]
    assert [b for _t, b in ours.ramp.bets] == pytest.approx([b for _t, b in want.ramp.bets],
                                                            rel=1e-9)
    assert ours.result.win_rate_per_round.value == pytest.approx(
        want.result.win_rate_per_round.value, abs=1e-14)
    assert ours.result.score == pytest.approx(want.result.score, rel=1e-9)
    # wonging (in at +1, out below 0): a watched round bets 0, the same rounds are dealt
    wong = Wong(1, 0)
    direct_w = runs.summarise(counter, played, rounds, SPREAD, None, wong)
    got_w, run_w = _two_phase(counter, SPREAD, Sizes(rounds, 10**6, 10**6), controlled=False,
                              shared=run.shared, wong=wong)
    assert direct_w.win_rate_per_round is not None and direct_w.score is not None
    assert got_w.win.value == pytest.approx(direct_w.win_rate_per_round.value, abs=1e-14)
    assert got_w.score == pytest.approx(direct_w.score, rel=1e-12)
    assert run_w.pop.played / run_w.pop.size == direct_w.share_played
    assert 0 < run_w.pop.played < run_w.pop.size
    # --optimize-wong: every pair of whole counts judged alike, so the same best pair
    best, ours_w = runs.best_wong(played, SPREAD, None), _optimal_wong(run, SPREAD, None)
    assert (ours_w.wong.enter, ours_w.wong.exit) == (best.wong.enter, best.wong.exit)
    assert ours_w.tried == best.tried and ours_w.share_played == best.share_played
    assert ours_w.result.score == pytest.approx(best.result.score, rel=1e-12)
    assert ours_w.every_round.score == pytest.approx(best.every_round.score, rel=1e-12)
    # and under constraints (a chip unit, a spread cap, two bet levels): the same optimum,
    # the unconstrained one and each constraint's alone, each scored alike
    constraints = RampConstraints(bet_unit=1, max_spread=6, max_bet_levels=2)
    want = runs._optimal_ramp(played, SPREAD, limits, constraints)
    ours = _optimised(run, SPREAD, limits, None, constraints)
    assert ours.ramp.bets == want.ramp.bets
    assert ours.result.score == pytest.approx(want.result.score, rel=1e-9)
    assert want.constraints is not None and ours.constraints is not None
    assert ours.constraints.unconstrained_result.score == pytest.approx(
        want.constraints.unconstrained_result.score, rel=1e-9)
    assert ours.constraints.cost is None  # (no paired standard error under this method)
    assert [(n, r.ramp.bets) for n, r in ours.constraints.each] == [
        (n, r.ramp.bets) for n, r in want.constraints.each]
    assert [r.result.score for _n, r in ours.constraints.each] == pytest.approx(
        [r.result.score for _n, r in want.constraints.each], rel=1e-9)


def test_a_stratified_sample_is_unbiased_and_its_variance_formula_exact() -> None:
    """Sampling theory of the sample's part, on a population small enough to draw every
    sample: two strata of 5 and 6 rounds, 3 drawn from each, the bets varying within
    each (a ramp other than the one the strata were cut by). Over the
    10 x 20 equally likely samples, the estimate's mean is the population's weighted mean
    (unbiased), and the mean of the estimated variance is the estimate's variance
    (s^2 with n - 1 and the finite-population factor, Cochran, *Sampling Techniques*,
    5.9): both exact, written out below from the definitions, not from the code."""
    y = np.array([0.10, -0.30, 0.05, 0.20, -0.10, 0.40, 0.00, 0.15, -0.25, 0.30, 0.12])
    pred = np.array([0.0, -0.2, 0.1, 0.1, 0.0, 0.2, 0.1, 0.1, -0.1, 0.2, 0.1])
    bet = np.array([1.0, 1.0, 2.0, 1.0, 2.0, 4.0, 4.0, 2.0, 4.0, 8.0, 4.0])
    sid = np.array([0] * 5 + [1] * 6)
    n = len(y)
    target = float((bet * y).sum() / n)
    estimates, variances = [], []
    for a in itertools.combinations(range(5), 3):
        for b in itertools.combinations(range(5, 11), 3):
            kind = np.zeros(n, dtype=np.int8)
            kind[list(a + b)] = 2
            value = np.where(kind == 2, y, np.nan)
            pop = SimpleNamespace(kind={"ev": kind}, value={"ev": value},
                                  pred={"ev": pred}, size=n)
            z, var, _sd = _terms(pop, "ev", bet, sid)  # type: ignore[arg-type]
            estimates.append(float(z.sum() / n))  # (z: each round's bet times its value)
            variances.append(var)
    mean = sum(estimates) / len(estimates)
    true_var = sum((e - mean) ** 2 for e in estimates) / len(estimates)
    assert mean == pytest.approx(target, abs=1e-15)
    assert sum(variances) / len(variances) == pytest.approx(true_var, rel=1e-12)


def test_the_count_distribution_is_the_hypergeometric_sum() -> None:
    """The tag sum of the first k cards of a shuffled shoe, against every ordering of a
    seven-card shoe (tags +1 x3, 0, -1 x2, +2), each ordering equally likely."""
    tags = [1, 1, 1, 0, -1, -1, 2]
    p, low = count_distribution(tags, 7)
    orders = list(itertools.permutations(tags))
    for k in range(8):
        counts: dict[int, int] = {}
        for order in orders:
            counts[sum(order[:k])] = counts.get(sum(order[:k]), 0) + 1
        want = np.zeros(p.shape[1])
        for s, c in counts.items():
            want[s - low] = c / len(orders)
        assert p[k] == pytest.approx(want, abs=1e-12)


def test_the_controls_means_are_their_averages_over_every_deal() -> None:
    """The four controls of a one-deck Hi-Lo shoe over its first four positions (the bet,
    bet times count, squared bet and count at each), their known means against the
    average over every sequence of four ranks dealt from the deck, each weighted by its
    chance (the product of the share of each rank left as it is dealt)."""
    counter = blackjack_counter(blackjack_rules("deluxe", ["decks=1"]))
    controls = shoe_controls(counter, SPREAD)
    assert controls is not None
    short = type(controls)(counter, SPREAD, 3)
    hilo = {1: -1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: -1}
    deck = {r: 16 if r == 10 else 4 for r in range(1, 11)}
    want = np.zeros(4)
    for ranks in itertools.product(range(1, 11), repeat=3):  # (the 4th card is not counted)
        left, chance, running = dict(deck), 1.0, 0
        sums = np.zeros(4)
        for k in range(4):
            tc = running * 52 / (52 - k)
            b = SPREAD.bet(tc)
            sums += [b, b * tc, b * b, tc]
            if k == 3:
                break
            r = ranks[k]
            chance *= left[r] / (52 - k)
            left[r] -= 1
            running += hilo[r]
        want += chance * sums
    assert short.means() == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(("system", "ramp"), [("hilo", "0:1,1:2,2:4,3:8"),
                                              ("halves", "-1:1,1:3,3:6"),
                                              ("ko", "-2:1,0:2,2:6")])
def test_a_shoes_controls_are_sums_over_its_positions(system: str, ramp: str) -> None:
    """One shoe's four controls are, position by position (k cards out, the count keyed
    as a bet reads it with k cards seen), the sums of b, b c, b^2 and c, added in turn."""
    counter = blackjack_counter(blackjack_rules("deluxe", ["decks=2"]), system=system)
    spread = parse_spread(ramp)
    controls = shoe_controls(counter, spread)
    assert controls is not None
    cards, order, _draw = counter._shuffled(3)
    running = counter.system.initial_running_count(2)
    want = [0.0, 0.0, 0.0, 0.0]
    for k in range(controls.last + 1):
        c = counter.key_count(running, len(cards) - k, "exact")
        b = spread.bet(c)
        for i, x in enumerate((b, b * c, b * b, c)):
            want[i] += x
        running += counter.system.tag_card(cards[k])
    _deal, unshuffled = counter.planner.chart_dealing()
    assert controls(unshuffled.shuffled(order).tag) == tuple(want)


def test_sample_priorities_are_uniform_and_independent_of_the_round() -> None:
    """The order a sample takes a stratum's rounds in: over 200,000 (shoe, place) pairs,
    uniform on [0, 1) (mean 1/2 +- 4 SE, variance 1/12, every tenth holding its tenth
    within 4 SE) and uncorrelated with the shoe, the place and the next round's; a
    different seed or stream gives different numbers."""
    shoe, place = np.divmod(np.arange(200_000), 50)
    u = priorities(7, 1, shoe, place)
    n = len(u)
    assert abs(u.mean() - 0.5) < 4 * math.sqrt(1 / 12 / n)
    assert abs(u.var() - 1 / 12) < 4 * math.sqrt(1 / 180 / n)
    tenths = np.bincount((u * 10).astype(int), minlength=10)
    assert np.all(np.abs(tenths - n / 10) < 4 * math.sqrt(n * 0.09))
    for other in (shoe, place, np.roll(u, 1)):
        assert abs(np.corrcoef(u, other)[0, 1]) < 4 / math.sqrt(n)
    assert not np.any(priorities(8, 1, shoe, place) == u)
    assert not np.any(priorities(7, 0, shoe, place) == u)


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = run(args)
    out, err = capsys.readouterr()
    assert code == 0, err
    return dict(json.loads(out))


@pytest.mark.slow  # (a 300-round survey, 32 rounds valued: ~2 s)
def test_count_method_stratified_json_keys(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    """The contract of issue 48: ``"method"``, ``"score": {"value", "se"}`` and what the
    figures rest on; a direct run says ``"method": "direct"`` and keeps its number. The
    ``--plot`` file is a PNG image."""
    plot = tmp_path / "ev.png"
    got = _json(["count", "--rules", "deluxe", "--decks", "1", "--set", "max_split_hands=1",
                 "--spread", "0:1,1:2,2:4,3:8", "--method", "stratified", "--rounds", "300",
                 "--exact-rounds", "24", "--plot", str(plot),
                 "--moment-rounds", "8", "--jobs", "1", "--json"], capsys)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert got["method"] == "stratified"
    assert set(got["score"]) == {"value", "se"}
    assert got["stratified"]["rounds_surveyed"] == got["rounds"] >= 300
    assert got["stratified"]["exact_rounds"] >= 24
    assert got["stratified"]["moment_rounds"] == got["moment_rounds"] >= 8
    assert got["stratified"]["controls"] is True
    direct = _json(["count", "--rules", "deluxe", "--decks", "1", "--spread", "0:1,1:2",
                    "--rounds", "20", "--jobs", "1", "--json"], capsys)
    assert direct["method"] == "direct" and not isinstance(direct["score"], dict)


@pytest.mark.slow  # (three small stratified runs, ~4 s)
def test_compared_systems_share_exact_values_without_changing_a_figure(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Under ``--compare`` the second system reuses the first's exact values of the rounds
    both sampled (their rounds are the same cards under one chart), and each system's
    figures are those of its own run alone: a round's value does not depend on who asked,
    and the order a sample takes rounds in depends only on the round. With constraints,
    the constrained optimum too."""
    base = ["count", "--rules", "deluxe", "--decks", "1", "--set", "max_split_hands=1",
            "--spread", "0:1,1:2,2:4", "--method", "stratified", "--rounds", "400",
            "--exact-rounds", "40", "--moment-rounds", "10", "--jobs", "1", "--json",
            "--optimize-ramp", "--bankroll", "1000", "--min-bet", "1", "--max-bet", "8",
            "--bet-unit", "1", "--max-bet-levels", "2"]
    both = _json([*base, "--compare", "hilo,zen"], capsys)["systems"]
    assert both["zen"]["stratified"]["values_reused"] > both["hilo"]["stratified"][
        "values_reused"]
    for name, got in both.items():
        alone = _json([*base, "--system", name], capsys)
        for key in ("score", "win_rate_per_round", "sd_per_round", "ev_per_round"):
            assert got[key] == alone[key], (name, key)
        ramp, solo = got["optimal_ramp"], alone["optimal_ramp"]
        assert ramp["bets"] == solo["bets"] and ramp["score"] == solo["score"]
        assert ramp["constraint_cost_score"] is None  # (no paired SE under this method)
        assert ramp["unconstrained_score"] == solo["unconstrained_score"]


@pytest.mark.parametrize(("args", "says"), [
    (["--precision", "2", "--spread", "0:1,2:4"], "--precision is a share"),
    (["--precision", "0.05"], "add --spread"),
    (["--method", "sometimes"], "--method is direct or stratified"),
    (["--exact-rounds", "100"], "--exact-rounds is a --method stratified option"),
    (["--method", "stratified", "--strategy", "optimal"], "--strategy optimal"),
    (["--method", "stratified", "--sidebets", "21+3"], "side bets"),
    (["--method", "stratified", "--moment-every", "3"], "--moment-rounds"),
    (["--method", "direct", "--precision", "0.1", "--spread", "0:1,2:4"], "drop --method"),
    (["--max-minutes", "3"], "add --precision"),
])
def test_stratified_options_refuse_bad_values(args: list[str], says: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["count", "--rules", "deluxe", "--decks", "1", "--rounds", "50", "--jobs", "1",
                *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith("error:") and err.count("\n") == 1 and says in err
