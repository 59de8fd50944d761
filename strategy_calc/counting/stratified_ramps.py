"""``count --method stratified``'s figures as a count's: the run's own
(:func:`stratified_count`), its optimal ramp under the limits and constraints, and the best
wonging, every one judged by its two-phase estimate over the same survey and samples
(:mod:`strategy_calc.counting.stratified` makes them).

>>> from strategy_calc.counting.stratified import _Population
>>> pop = _Population.__new__(_Population)
>>> pop.key, pop.shoe = np.array([-1, 2, 0]), np.array([0, 0, 1])
>>> wong_playing(pop, 1, 0).tolist()  # (in at +2; the next shoe starts watching)
[False, True, False]
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import Executor

import numpy as np

from strategy_calc.counting.controls import regression_estimate
from strategy_calc.counting.counter import BlackjackCounter, Spread, Wong
from strategy_calc.counting.ramp_constraints import RampConstraints, optimize_constrained
from strategy_calc.counting.ramps import (
    ROUNDS_PER_HOUR,
    CountBucket,
    RampLimits,
    desirability_index,
    hours_to_double,
    optimize_ramp,
    ramp_figures,
    risk_of_ruin,
)
from strategy_calc.counting.ramps import n0 as n0_of
from strategy_calc.counting.ramps import score as score_of
from strategy_calc.counting.results import (
    BlackjackCount,
    ConstrainedRamp,
    ConstraintCost,
    OptimalWong,
    OptimisedRamp,
    RampResult,
    TrueCountRow,
)
from strategy_calc.counting.risks import RiskQuestions, risk_answers
from strategy_calc.counting.sampling import Estimate
from strategy_calc.counting.stratified import (
    Progress,
    SharedValues,
    Sizes,
    TwoPhase,
    _bets,
    _estimate,
    _Population,
    _Run,
    _terms,
    _two_phase,
)
from strategy_calc.errors import InputError


def stratified_count(counter: BlackjackCounter, spread: Spread | None,
                     bankroll: float | None, sizes: Sizes, precision: float | None = None,
                     budget: float | None = None, pool: Executor | None = None,
                     progress: Progress = None, questions: RiskQuestions | None = None,
                     optimize: RampLimits | None = None, shared: SharedValues | None = None,
                     constraints: RampConstraints | None = None, wong: Wong | None = None,
                     optimize_wong: bool = False) -> BlackjackCount:
    """``count --method stratified``: :func:`two_phase_count` as a count's figures (those of
    :func:`strategy_calc.counting.runs.blackjack_count`, each from the two-phase estimate);
    ``optimize``: also the optimal ramp (:func:`_optimised`); ``shared``: see
    :func:`_two_phase` (one per ``--compare``, passed to each system's run);
    ``constraints``: the optimal ramp's (:func:`_optimised`); ``wong``: back-counting, a
    watched round bets 0 (the optimal ramp, as the direct method's, is of every round);
    ``optimize_wong``: also the best entry and exit counts (:func:`_optimal_wong`)."""
    got, run = _two_phase(counter, spread, sizes, precision, budget, pool, progress,
                          shared=shared, wong=wong)
    top = counter.planner.top_plan(False).ev
    n = counter.start().total
    low, high = counter.shoe_procedure.cut_card_from_end
    ramp = spread is not None or wong is not None
    win, sd, sd_se = got.win, got.sd, got.sd_se
    risks = None
    if questions is not None and questions.asked:
        if not ramp:
            raise InputError("the risk questions (--trip-rounds, --goal, ...) are about a"
                             " bet ramp: add --spread")
        risks = risk_answers(questions, win.value, sd, bankroll, win.se, sd_se)
    return BlackjackCount(
        counter=counter, penetration=(n - (low + high) / 2) / n, rounds=got.sizes.surveyed,
        shoes=got.shoes, spread=spread, bankroll=bankroll, ev_per_round=got.ev,
        ev_off_the_top=top, cut_card_effect=Estimate(got.ev.value - top, got.ev.se),
        by_true_count=tuple(TrueCountRow(tc, f, e) for tc, f, e in got.by_count),
        sd_per_round=sd, win_rate_per_round=win if ramp else None,
        n0=n0_of(win.value, sd) if ramp else None, score=got.score if ramp else None,
        di=desirability_index(win.value, sd) if ramp else None,
        risk_of_ruin=risk_of_ruin(win.value, sd, bankroll) if ramp and bankroll else None,
        moment_rounds=got.sizes.moments, sd_per_round_se=sd_se,
        score_se=got.score_se if ramp else None, risks=risks, method="stratified",
        two_phase=got,
        optimal=None if optimize is None else _optimised(
            run, spread, optimize, got if wong is None else None, constraints),
        wong=wong, share_played=None if wong is None else run.pop.played / run.pop.size,
        optimal_wong=_optimal_wong(run, spread, bankroll, progress) if optimize_wong else None)


def buckets_of(run: _Run) -> tuple[CountBucket, ...]:
    """Per floored count of the surveyed rounds: their share, and the two-phase estimates
    of their mean EV and mean E[X^2] (each round's value: exact where valued, else the
    predictor plus its stratum's mean residual); ``sampled``: their exact second moments."""
    pop = run.pop
    sid, n = pop.strata(), pop.size
    z = _terms(pop, "ev", np.ones(n), sid)[0]
    q = _terms(pop, "m2", np.ones(n), sid)[0]
    keys, where = np.unique(pop.key, return_inverse=True)
    count = np.bincount(where)
    moments = np.bincount(where, weights=(pop.kind["m2"] > 0).astype(float))
    evs = np.bincount(where, weights=z) / count
    m2s = np.bincount(where, weights=q) / count
    return tuple(CountBucket(int(tc), float(c / n), float(ev), max(float(m2), ev * ev + 1e-12),
                             int(k))
                 for tc, c, ev, m2, k in zip(keys.tolist(), count.tolist(), evs.tolist(),
                                             m2s.tolist(), moments.tolist(), strict=True))


def _optimised(run: _Run, spread: Spread | None, limits: RampLimits,
               given: TwoPhase | None = None, constraints: RampConstraints | None = None
               ) -> OptimisedRamp:
    """``--optimize-ramp`` under the two-phase method: the optimal ramp of the per-count
    estimates (:func:`buckets_of`), and its figures over the same survey and samples (any
    ramp's bets can weigh them: :func:`_terms`), beside the hand-given ramp's. The ramp is
    chosen on the figures it is judged by, so its SCORE is an upper estimate (as the
    direct method's). ``given``: the run's own figures, those of ``spread`` (the bets its
    rounds were weighed by), reused rather than estimated again. ``constraints``: the
    optimum under them (:func:`strategy_calc.counting.ramp_constraints.optimize_constrained`)
    beside the unconstrained one and, with several, each alone, every one scored on the
    same survey and samples (the SCORE each loses is the difference of two such figures:
    no paired standard error under this method, so ``cost`` is None)."""
    buckets = buckets_of(run)
    ramp = (optimize_ramp(buckets, limits) if constraints is None
            else optimize_constrained(buckets, limits, constraints))
    chosen = Spread(ramp.bets)
    pop = run.pop

    def over(s: Spread, got: TwoPhase | None = None) -> RampResult:
        if got is None:
            got = _estimate(run, None, _bets(s, pop.key))
        return _ramp_result(s, got, limits.bankroll, limits.rounds_per_hour)

    cost = None
    if constraints is not None:
        free = optimize_ramp(buckets, limits)
        each = []
        if len(constraints.each()) > 1:
            for name, alone in constraints.each():
                try:
                    one = optimize_constrained(buckets, limits, alone)
                except InputError:  # a spread cap alone under --kelly-fraction needs a unit
                    continue
                each.append((name, ConstrainedRamp(alone, one, over(Spread(one.bets)), None)))
        cost = ConstraintCost(constraints, free, over(Spread(free.bets)), None, tuple(each))
    hand = None if spread is None else [spread.bet(b.tc) for b in buckets]
    return OptimisedRamp(
        ramp, buckets, over(chosen), None if spread is None else over(spread, given),
        None if hand is None else ramp_figures(buckets, hand, limits.bankroll,
                                               limits.rounds_per_hour),
        None if hand is None else all(limits.min_bet <= b <= limits.max_bet for b in hand),
        constraints=cost)


def _ramp_result(spread: Spread | None, got: TwoPhase, bankroll: float | None,
                 rounds_per_hour: float = ROUNDS_PER_HOUR) -> RampResult:
    """A ramp's figures from its two-phase estimate ``got``."""
    win, sd = got.win, got.sd
    return RampResult(spread, win, sd, got.sd_se, n0_of(win.value, sd), got.score,
                      got.score_se, desirability_index(win.value, sd),
                      risk_of_ruin(win.value, sd, bankroll) if bankroll else None,
                      hours_to_double(win.value, bankroll, rounds_per_hour)
                      if bankroll else None)


def wong_playing(pop: _Population, enter: int, leave: int) -> np.ndarray:
    """Whether wonging in at a floored count of at least ``enter`` and out below ``leave``
    (whole counts, ``leave <= enter``) plays each surveyed round: :meth:`Wong.playing` shoe
    by shoe, vectorised (a round's state is that of the last round of its shoe, itself
    included, whose count enters or leaves; none: watching). With whole counts the floored
    count decides as the count itself does.

    >>> pop = _Population.__new__(_Population)
    >>> pop.key = np.array([0, 2, 1, -1, 3, 1, 1])
    >>> pop.shoe = np.array([0, 0, 0, 0, 0, 1, 1])
    >>> wong_playing(pop, 2, 0).tolist() == Wong(2, 0).playing([0, 2, 1, -1, 3]) + [False] * 2
    True
    """
    event = np.where(pop.key >= enter, 1, np.where(pop.key < leave, -1, 0))
    at = np.arange(len(event))
    start = np.ones(len(event), dtype=bool)
    start[1:] = pop.shoe[1:] != pop.shoe[:-1]
    last = np.maximum.accumulate(np.where((event != 0) | start, at, 0))
    playing: np.ndarray = event[last] == 1
    return playing


def _scorer(run: _Run) -> Callable[[np.ndarray], float | None]:
    """SCORE of any bets on the run's rounds, as :func:`_estimate` gives it (its value
    only, to rounding), made fast for many bets: a round's term in the win is its bet
    times its exact EV (valued) or its predicted EV (not valued), plus, not valued, its
    stratum's mean of bet times residual over the sample; each shoe's sum of the latter is
    a shoe-by-stratum count of unvalued rounds times the strata's means (made once)."""
    from scipy import sparse  # type: ignore[import-untyped, unused-ignore]  # (on use: slow import)

    pop = run.pop
    sid = pop.strata()
    m, k = int(sid.max()) + 1, pop.shoes
    rounds = np.bincount(pop.shoe, minlength=k).astype(float)
    x = np.array(pop.controls) if run.controls is not None else None
    parts = {}
    for sample in ("ev", "m2"):
        kind, value, pred = pop.kind[sample], pop.value[sample], pop.pred[sample]
        valued, sampled = kind > 0, kind == 2
        unvalued = np.flatnonzero(~valued)
        per_shoe = sparse.csr_matrix((np.ones(len(unvalued)), (pop.shoe[unvalued],
                                                               sid[unvalued])), shape=(k, m))
        parts[sample] = (np.where(valued, value, pred), np.flatnonzero(sampled),
                         np.bincount(sid[sampled], minlength=m), (value - pred)[sampled],
                         per_shoe)

    def total(sample: str, weight: np.ndarray) -> float:
        a, at, n_h, resid, per_shoe = parts[sample]
        mean = np.divide(np.bincount(sid[at], weights=weight[at] * resid, minlength=m), n_h,
                         out=np.zeros(m), where=n_h > 0)
        sums = np.bincount(pop.shoe, weights=weight * a, minlength=k) + per_shoe @ mean
        return regression_estimate(sums, rounds, x, run.control_means)[0]

    def score(bets: np.ndarray) -> float | None:
        w = total("ev", bets)
        variance = total("m2", bets * bets) - w * w
        return score_of(w, math.sqrt(variance)) if variance > 0 else None

    return score


def _optimal_wong(run: _Run, spread: Spread | None, bankroll: float | None,
                  progress: Progress = None) -> OptimalWong:
    """``--optimize-wong`` under the two-phase method: every pair of whole counts ``exit <=
    enter`` among the surveyed rounds' floored counts, each judged by its two-phase SCORE
    over the same survey and samples (ties: the lowest entry, then the lowest exit), as
    :func:`strategy_calc.counting.runs.best_wong` judges them over a direct run's rounds;
    the gains have no paired standard error under this method (None)."""
    pop = run.pop
    every = _bets(spread, pop.key)
    counts = np.unique(pop.key).tolist()
    pairs = [(e, x) for e in counts for x in counts if x <= e]
    score = _scorer(run)
    top: tuple[float, int, int, np.ndarray] | None = None
    for k, (enter, leave) in enumerate(pairs):
        if progress is not None:
            progress("wong", k, len(pairs))
        bets = every * wong_playing(pop, enter, leave)
        value = score(bets)
        if value is not None and (top is None or value > top[0]):
            top = (value, enter, leave, bets)
    if top is None:
        raise InputError("--optimize-wong: no entry and exit counts make the ramp win on"
                         " this run's rounds: no SCORE")
    _score, enter, leave, bets = top
    return OptimalWong(Wong(enter, leave), _ramp_result(spread, _estimate(run, None, bets),
                                                        bankroll),
                       float(np.count_nonzero(bets)) / pop.size,
                       _ramp_result(spread, _estimate(run, None, every), bankroll),
                       None, None, len(pairs))
