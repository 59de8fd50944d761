"""A counted run's results: by true count, the ramp's figures, the optimal ramp, a
comparison of systems."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from strategy_calc.counting.counter import BlackjackCounter, RoundRecord, Spread, Wong
from strategy_calc.counting.ramp_constraints import RampConstraints, optimize_constrained
from strategy_calc.counting.ramps import (
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
from strategy_calc.counting.ramps import score_se as score_se_of
from strategy_calc.counting.results import (
    BlackjackCount,
    ConstrainedRamp,
    ConstraintCost,
    DeckEstimationCost,
    OptimalWong,
    OptimisedRamp,
    PlayErrorsCost,
    RampResult,
    TrueCountRow,
)
from strategy_calc.counting.risks import RiskQuestions, risk_answers, unanswered
from strategy_calc.counting.sampling import (
    Estimate,
    Progress,
    batches,
    ratio_estimate,
    sd_estimate,
)
from strategy_calc.counting.sidebets import (
    SideBetCount,
    card_types,
    price_all,
    shoe_of,
)
from strategy_calc.counting.sidebets import summarise as summarise_sidebets
from strategy_calc.errors import InputError
from strategy_calc.parallel import run_all
from strategy_calc.sidebets.exact import TYPES


def blackjack_count(
    counter: BlackjackCounter, rounds: int = 1000, spread: Spread | None = None,
    bankroll: float | None = None, pool: Executor | None = None, progress: Progress = None,
    batch: int = 4, wong: Wong | None = None, optimize: RampLimits | None = None,
    questions: RiskQuestions | None = None, constraints: RampConstraints | None = None,
    optimize_wong: bool = False,
) -> BlackjackCount:
    """Deal shoes until ``rounds`` rounds; each round's EV (and sampled moments) exact.

    Shoes are dealt in index order, in batches of ``batch`` on ``pool``
    (default: this thread); the run keeps the fewest first whole shoes that hold
    ``rounds`` rounds (its ``rounds``: how many they hold), so its figures do not
    depend on the executor. ``optimize``: also the optimal ramp; ``questions``: the
    ramp's risk answers (:func:`summarise`); ``constraints``: the optimal ramp's
    (:func:`strategy_calc.counting.ramp_constraints.optimize_constrained`);
    ``optimize_wong``: also the best entry and exit counts (:func:`best_wong`).
    """
    if rounds < 1:
        raise InputError(f"--rounds must be at least 1, not {rounds}")
    if bankroll is not None and not (math.isfinite(bankroll) and bankroll > 0):
        raise InputError(f"--bankroll must be a positive number of units, not {bankroll:g}")
    counter.check_dealable()
    per_shoe = rounds_per_shoe(counter)
    played: list[tuple[RoundRecord, ...]] = []
    have = 0
    while have < rounds:
        need = shoes_to_deal(rounds - have, per_shoe)
        start = len(played)
        parts = batches(need, batch)
        parts = [range(start + p.start, start + p.stop) for p in parts]

        def tick(done: int, total: int, have: int = have, parts: list[range] = parts,
                 per_shoe: float = per_shoe) -> None:
            if progress is not None:
                got = min(rounds, have + round(done / total * sum(map(len, parts)) * per_shoe))
                progress(got, rounds)

        if progress is not None and per_shoe >= PROGRESS_IN_SHOE_FROM:
            def valued(n: int, have: int = have) -> None:
                if progress is not None:
                    progress(min(rounds, have + n), rounds)

            results = _play_reporting(counter, parts, pool, valued)
        elif pool is None:
            results = []
            for k, part in enumerate(parts):
                results.append(counter.play(part))
                tick(k + 1, len(parts))
        else:
            results = run_all(pool, counter.play, parts, tick)
        for result in results:
            played.extend(result)
        have = sum(len(s) for s in played)
        per_shoe = max(1.0, have / len(played))
    exact_played = None
    if counter.estimates and counter.plays_by_count and (spread is not None
                                                         or wong is not None):
        exact = replace(counter, deck_estimation="exact")
        last = kept_shoes(played, rounds)[-1]
        parts = batches(last + 1, batch)
        dealt = [exact.play(p) for p in parts] if pool is None else run_all(pool, exact.play,
                                                                              parts)
        exact_played = [shoe for part in dealt for shoe in part]
    if progress is not None:
        progress(rounds, rounds)
    return summarise(counter, played, rounds, spread, bankroll, wong, optimize, questions,
                     exact_played, constraints, optimize_wong)


CARDS_A_ROUND = 5.5
"""A first guess at the cards one round takes (one box; the run then learns its own)."""


SPARE_FROM = 4
"""A pass that needs at least this many shoes deals one more (:func:`shoes_to_deal`)."""


def rounds_per_shoe(counter: BlackjackCounter) -> float:
    """A first guess at the rounds one shoe of ``counter`` deals: the cards before the
    cut card (the middle of its range) at :data:`CARDS_A_ROUND` a round, at least 1
    (about right for one box without burns; more boxes or burns deal fewer rounds).

    >>> from strategy_calc.counting.counter import blackjack_counter
    >>> from strategy_calc.rules import blackjack_rules
    >>> rounds_per_shoe(blackjack_counter(blackjack_rules("deluxe", [], 8)))  # 312 / 5.5
    56.72727272727273
    """
    n = counter.start().total
    low, high = counter.shoe_procedure.cut_card_from_end
    return max(1.0, (n - (low + high) / 2) / CARDS_A_ROUND)


def shoes_to_deal(wanted: int, per_shoe: float) -> int:
    """The shoes a pass of :func:`blackjack_count` deals for ``wanted`` more rounds at about
    ``per_shoe`` rounds a shoe: enough by that guess, and one spare (against a short
    guess, which would cost a second pass) when that adds at most a quarter to the work.
    Only whole shoes count, so without this bound a spare shoe of many decks doubled a
    short run (at 1,000 decks a 200-round run dealt two shoes of 7,000 rounds each).
    Which shoes are dealt beyond those kept changes no figure, only the time.

    >>> shoes_to_deal(200, 56.7), shoes_to_deal(1000, 56.7)  # 8 decks: 4 + 1, 18 + 1
    (5, 19)
    >>> shoes_to_deal(200, 7091.0), shoes_to_deal(100, 56.7)  # one shoe holds them
    (1, 2)
    """
    need = math.ceil(wanted / per_shoe)
    return need + 1 if need >= SPARE_FROM else need


def rounds_dealt(counter: BlackjackCounter, rounds: int) -> float:
    """About how many rounds :func:`blackjack_count` deals for ``rounds`` rounds: whole
    shoes (:func:`shoes_to_deal` of :func:`rounds_per_shoe`), so at least one shoe's
    rounds, thousands at many decks; what a run's cost estimate counts.

    >>> from strategy_calc.counting.counter import blackjack_counter
    >>> from strategy_calc.rules import blackjack_rules
    >>> round(rounds_dealt(blackjack_counter(blackjack_rules("deluxe", [], 1000)), 200))
    7091
    """
    per_shoe = rounds_per_shoe(counter)
    return max(float(rounds), shoes_to_deal(rounds, per_shoe) * per_shoe)


PROGRESS_IN_SHOE_FROM = 500.0
"""From this many rounds a shoe (:func:`rounds_per_shoe`; about 70 decks on) a run's
progress counts the rounds valued within each shoe, not the batches of shoes done."""


def _play_reporting(counter: BlackjackCounter, parts: Sequence[range],
                    pool: Executor | None, progress: Callable[[int], None]
                    ) -> list[list[tuple[RoundRecord, ...]]]:
    """``[counter.play(part) for part in parts]`` (on ``pool``), ``progress(n)`` told of
    the ``n`` rounds valued so far as the shoes report them (a shoe of 1,000 decks is
    minutes of work): through a queue the workers share (a managed one for worker
    processes); on another executor (a Dask cluster), by the finished parts."""
    import functools
    import queue
    from concurrent.futures import FIRST_COMPLETED, wait

    if pool is None:
        done = [0]

        class Direct:
            def put(self, item: int, /) -> None:
                done[0] += item
                progress(done[0])

        return [counter.play(part, Direct()) for part in parts]
    if not isinstance(pool, ThreadPoolExecutor | ProcessPoolExecutor):
        return run_all(pool, counter.play, parts)
    manager = None
    if isinstance(pool, ProcessPoolExecutor):
        import multiprocessing

        manager = multiprocessing.Manager()
        reports: Any = manager.Queue()
    else:
        reports = queue.SimpleQueue()
    try:
        play = functools.partial(counter.play, report=reports)
        futures = {pool.submit(play, part): i for i, part in enumerate(parts)}
        results: list[Any] = [None] * len(parts)
        pending, valued = set(futures), 0
        while pending:
            finished, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            for future in finished:
                results[futures[future]] = future.result()
            told = valued
            with contextlib.suppress(queue.Empty):
                while True:
                    valued += reports.get_nowait()
            if valued != told:
                progress(valued)
        return results
    finally:
        if manager is not None:
            manager.shutdown()


def kept_shoes(played: Sequence[tuple[RoundRecord, ...]], rounds: int) -> list[int]:
    """The indices of the shoes a run's figures come from: the fewest first whole shoes
    of ``played`` holding ``rounds`` rounds (shoes that dealt no round skipped).

    >>> r = RoundRecord(0.0, 0.0, None)
    >>> kept_shoes([(r, r), (), (r,), (r, r)], 3)
    [0, 2]
    """
    kept, dealt = [], 0
    for i, shoe in enumerate(played):
        if dealt >= rounds:
            break
        if shoe:
            kept.append(i)
            dealt += len(shoe)
    if dealt < rounds:
        raise InputError(f"only {dealt} rounds were dealt")
    return kept


def count_buckets(shoes: Sequence[tuple[RoundRecord, ...]]) -> tuple[CountBucket, ...]:
    """Per floored true count of the rounds of ``shoes``: their share of the rounds,
    mean exact EV, and mean exact second moment over those of them that have one
    (``sampled``); a count none of whose rounds has one takes the mean over every round
    that has one (E[X^2] moves little with the count: from 1.33 at true count -4 to
    1.21 at +6 in a 6,000-round run of 6 decks).

    >>> r = RoundRecord
    >>> [(b.tc, round(b.frequency, 4), b.ev, round(b.second_moment, 12), b.sampled)
    ...  for b in count_buckets([(r(0.5, -0.01, 1.2), r(1.5, 0.01, None)), (r(0.2, 0.0, 1.4),)])]
    [(0, 0.6667, -0.005, 1.3, 2), (1, 0.3333, 0.01, 1.3, 0)]
    """
    bins: dict[int, list[RoundRecord]] = {}
    for shoe in shoes:
        for r in shoe:
            bins.setdefault(math.floor(r.tc), []).append(r)
    everything = [r.second_moment for rs in bins.values() for r in rs
                  if r.second_moment is not None]
    if not everything:
        raise InputError("no round of the run has its second moment: lower --moment-every")
    pooled = math.fsum(everything) / len(everything)
    total = sum(len(rs) for rs in bins.values())
    out = []
    for tc, rs in sorted(bins.items()):
        moments = [r.second_moment for r in rs if r.second_moment is not None]
        out.append(CountBucket(tc, len(rs) / total, math.fsum(r.ev for r in rs) / len(rs),
                               math.fsum(moments) / len(moments) if moments else pooled,
                               len(moments)))
    return tuple(out)


def _ramp_result(spread: Spread | None, shoes: Sequence[tuple[RoundRecord, ...]],
                 bets: Sequence[Sequence[float]], bankroll: float | None,
                 rounds_per_hour: float | None = None) -> RampResult:
    """The figures of betting ``bets[i][j]`` units on round ``j`` of shoe ``i``."""
    counts = [float(len(s)) for s in shoes]
    win = ratio_estimate([math.fsum(b * r.ev for b, r in zip(bs, s, strict=True))
                          for bs, s in zip(bets, shoes, strict=True)], counts)
    sd = sd_se = None
    if any(r.second_moment is not None for s in shoes for r in s):
        got = sd_estimate(
            [math.fsum(b ** 2 * r.second_moment for b, r in zip(bs, s, strict=True)
                       if r.second_moment is not None) for bs, s in zip(bets, shoes, strict=True)],
            [float(sum(1 for r in s if r.second_moment is not None)) for s in shoes],
            [math.fsum(b * r.ev for b, r in zip(bs, s, strict=True))
             for bs, s in zip(bets, shoes, strict=True)], counts)
        sd, sd_se = got.value, got.se if math.isfinite(got.se) else None
    n0 = score = di = ror = se = hours = None
    if sd is not None and sd > 0:
        di = desirability_index(win.value, sd)
        n0, score = n0_of(win.value, sd), score_of(win.value, sd)
        if score is not None and sd_se is not None and math.isfinite(win.se):
            se = score_se_of(score, win.value, win.se, sd, sd_se)
        if bankroll is not None:
            ror = risk_of_ruin(win.value, sd, bankroll)
    if bankroll is not None and rounds_per_hour is not None:
        hours = hours_to_double(win.value, bankroll, rounds_per_hour)
    return RampResult(spread, win, sd, sd_se, n0, score, se, di, ror, hours)


def _score_influence(shoes: Sequence[tuple[RoundRecord, ...]],
                     bets: Sequence[Sequence[float]]) -> tuple[float, list[float]] | None:
    """SCORE = 10^6 w^2 / (m2 - w^2) of betting ``bets`` over ``shoes`` (w and m2 the
    ratio estimates of :func:`_ramp_result`), and each shoe's first-order influence on
    it: psi_i = dS/dw (first_i - w n_i) / mean(n) + dS/dm2 (second_i - m2 k_i) / mean(k),
    with dS/dw = 10^6 2 w m2 / var^2 and dS/dm2 = -10^6 w^2 / var^2 (None: no SCORE)."""
    first = [math.fsum(b * r.ev for b, r in zip(bs, s, strict=True))
             for bs, s in zip(bets, shoes, strict=True)]
    second = [math.fsum(b * b * r.second_moment for b, r in zip(bs, s, strict=True)
                        if r.second_moment is not None) for bs, s in zip(bets, shoes, strict=True)]
    counts = [float(len(s)) for s in shoes]
    sampled = [float(sum(1 for r in s if r.second_moment is not None)) for s in shoes]
    if not math.fsum(sampled):
        return None
    w = math.fsum(first) / math.fsum(counts)
    m2 = math.fsum(second) / math.fsum(sampled)
    var = m2 - w * w
    value = score_of(w, math.sqrt(var)) if var > 0 else None
    if value is None:
        return None
    n = len(shoes)
    c_bar, k_bar = math.fsum(counts) / n, math.fsum(sampled) / n
    d_w, d_m2 = 1e6 * 2 * w * m2 / var ** 2, -1e6 * w * w / var ** 2
    return value, [d_w * (f - w * c) / c_bar + d_m2 * (q - m2 * k) / k_bar
                   for f, c, q, k in zip(first, counts, second, sampled, strict=True)]


def score_difference(shoes: Sequence[tuple[RoundRecord, ...]], bets: Sequence[Sequence[float]],
                     other: Sequence[Sequence[float]],
                     other_shoes: Sequence[tuple[RoundRecord, ...]] | None = None
                     ) -> Estimate | None:
    """SCORE of betting ``bets`` less that of ``other`` over the same ``shoes`` (per shoe,
    per round), with the standard error of the difference by the delta method over the
    shoes, which pairs the two ramps (their rounds are the same, so most of the noise
    cancels): se^2 = sum (psi_i - phi_i)^2 / (n (n - 1)) with psi, phi each SCORE's
    per-shoe influence. None when either ramp has no SCORE. ``other_shoes``: ``other``
    bets these shoes instead, shoe ``i`` paired with ``shoes[i]`` (the same shuffle dealt
    by another counter: as many shoes).

    >>> r = RoundRecord
    >>> shoes = [(r(0, 0.01, 1.0), r(2, 0.03, 1.2)), (r(0, -0.01, 1.1), r(2, 0.05, 1.3))]
    >>> score_difference(shoes, [[1, 2], [1, 2]], [[1, 2], [1, 2]])  # a ramp against itself
    Estimate(value=0.0, se=0.0)
    """
    if other_shoes is not None and len(other_shoes) != len(shoes):
        raise ValueError("paired runs need as many shoes")
    a = _score_influence(shoes, bets)
    b = _score_influence(shoes if other_shoes is None else other_shoes, other)
    if a is None or b is None:
        return None
    return _paired_difference(a, b)


def _paired_difference(a: tuple[float, Sequence[float]], b: tuple[float, Sequence[float]]
                       ) -> Estimate:
    """``a - b`` of two estimates over the same shoes (paired), each given as its value
    and its per-shoe influences: se^2 = sum (psi_i - phi_i)^2 / (n (n - 1)) (NaN with
    one shoe)."""
    n = len(a[1])
    if n < 2:
        return Estimate(a[0] - b[0], math.nan)
    diff = [x - y for x, y in zip(a[1], b[1], strict=True)]
    return Estimate(a[0] - b[0], math.sqrt(math.fsum(d * d for d in diff) / (n * (n - 1))))


def win_rate_difference(shoes: Sequence[tuple[RoundRecord, ...]],
                        bets: Sequence[Sequence[float]],
                        other_shoes: Sequence[tuple[RoundRecord, ...]],
                        other: Sequence[Sequence[float]]) -> Estimate:
    """The win per round of betting ``bets`` on ``shoes`` less that of ``other`` on
    ``other_shoes`` (shoe ``i`` of each the same shuffle), each a ratio estimate over its
    shoes, with the paired standard error by the delta method: each shoe's influence on
    a ratio ``w = sum f_i / sum n_i`` is ``(f_i - w n_i) / mean(n)``, and se^2 = sum
    (psi_i - phi_i)^2 / (n (n - 1)) (NaN with one shoe).

    >>> r = RoundRecord
    >>> shoes = [(r(0, 0.01, None), r(2, 0.03, None)), (r(0, -0.01, None),)]
    >>> d = win_rate_difference(shoes, [[1, 2], [1]], shoes, [[1, 1], [1]])
    >>> round(d.value, 12), round(d.se, 12)  # 0.06/3 - 0.03/3; psi - phi = +-(0.01/1.5)
    (0.01, 0.006666666667)
    """
    if len(other_shoes) != len(shoes):
        raise ValueError("paired runs need as many shoes")

    def influence(ss: Sequence[tuple[RoundRecord, ...]], bs: Sequence[Sequence[float]]
                  ) -> tuple[float, list[float]]:
        first = [math.fsum(b * r.ev for b, r in zip(bb, s, strict=True))
                 for bb, s in zip(bs, ss, strict=True)]
        counts = [float(len(s)) for s in ss]
        w = math.fsum(first) / math.fsum(counts)
        mean = math.fsum(counts) / len(ss)
        return w, [(f - w * c) / mean for f, c in zip(first, counts, strict=True)]

    return _paired_difference(influence(shoes, bets), influence(other_shoes, other))


def _optimal_ramp(shoes: Sequence[tuple[RoundRecord, ...]], spread: Spread | None,
                  limits: RampLimits, constraints: RampConstraints | None = None
                  ) -> OptimisedRamp:
    """The optimal ramp of ``shoes``' counts under ``limits`` (and ``constraints``),
    evaluated over their rounds beside the hand-given ``spread`` (and, with constraints,
    beside the unconstrained optimum: :class:`ConstraintCost`)."""
    buckets = count_buckets(shoes)
    constrained = constraints is not None and constraints.given
    ramp = (optimize_constrained(buckets, limits, constraints)
            if constraints is not None and constrained else optimize_ramp(buckets, limits))
    chosen = Spread(ramp.bets)  # one step per count of the run: the same bets

    def bets(s: Spread) -> list[list[float]]:
        return [[s.bet(r.tc) for r in shoe] for shoe in shoes]

    def over(s: Spread) -> RampResult:
        return _ramp_result(s, shoes, bets(s), limits.bankroll, limits.rounds_per_hour)

    cost = None
    if constraints is not None and constrained:
        free = optimize_ramp(buckets, limits)
        free_spread = Spread(free.bets)
        free_bets = bets(free_spread)
        each = []
        if len(constraints.each()) > 1:
            for name, alone in constraints.each():
                try:
                    one = optimize_constrained(buckets, limits, alone)
                except InputError:  # a spread cap alone under --kelly-fraction needs a unit
                    continue
                one_spread = Spread(one.bets)
                each.append((name, ConstrainedRamp(
                    alone, one, over(one_spread),
                    score_difference(shoes, free_bets, bets(one_spread)))))
        cost = ConstraintCost(constraints, free, over(free_spread),
                              score_difference(shoes, free_bets, bets(chosen)), tuple(each))

    hand_bets = [spread.bet(b.tc) for b in buckets] if spread is not None else None
    return OptimisedRamp(
        ramp, buckets, over(chosen), over(spread) if spread is not None else None,
        None if hand_bets is None else ramp_figures(buckets, hand_bets, limits.bankroll,
                                                    limits.rounds_per_hour),
        None if hand_bets is None else all(limits.min_bet <= b <= limits.max_bet
                                           for b in hand_bets),
        None if spread is None else score_difference(shoes, bets(chosen), bets(spread)),
        cost)


def summarise(
    counter: BlackjackCounter, played: Sequence[tuple[RoundRecord, ...]], rounds: int,
    spread: Spread | None, bankroll: float | None, wong: Wong | None = None,
    optimize: RampLimits | None = None, questions: RiskQuestions | None = None,
    exact_played: Sequence[tuple[RoundRecord, ...]] | None = None,
    constraints: RampConstraints | None = None, optimize_wong: bool = False,
) -> BlackjackCount:
    """The figures of the fewest first whole shoes of ``played`` holding ``rounds`` rounds.

    Whole shoes only: cutting the last one short would over-weight the top of a shoe
    (and so pull the cut-card effect towards 0). With ``wong`` a watched round bets 0:
    the win rate, SD, N0 and SCORE are per round observed. With ``optimize``: the ramp
    of :func:`strategy_calc.counting.ramps.optimize_ramp` for these rounds' counts
    (:func:`count_buckets`), and its figures over the same rounds as ``spread``'s.
    With ``questions`` and a ramp (``spread`` or ``wong``): their answers for the ramp's
    win rate and SD (:func:`strategy_calc.counting.risks.risk_answers`).
    Under a deck estimation (:attr:`BlackjackCounter.estimates`) with a ramp: its cost
    (:class:`DeckEstimationCost`), from ``exact_played`` (the same shoes dealt by the
    exact counter, when the plays read the count) or else from the rounds' exact counts.
    """
    kept = kept_shoes(played, rounds)
    shoes = [played[i] for i in kept]
    rounds = sum(len(s) for s in shoes)
    top = counter.plan(counter.start(), 0.0, moments=False).ev
    counts = [float(len(s)) for s in shoes]
    ev = ratio_estimate([math.fsum(r.ev for r in s) for s in shoes], counts)
    effect = Estimate(ev.value - top, ev.se)
    procedure = counter.shoe_procedure
    if counter.one_round or (procedure.shuffle == "continuous"
                             and procedure.cut_card_from_end[0] >= counter.start().total - 1):
        # Each shoe dealt one round from the full shoe (a continuous shuffler whose
        # buffer holds at most one card returns every round's cards at once), so each
        # round's EV is the off-the-top EV (the same plan of the same composition); the
        # mean of equal numbers is that number, and the effect is 0 by construction.
        if any(len(s) != 1 or s[0].ev != top for s in shoes):
            raise AssertionError("a one-round shuffle dealt a round not off the top")
        ev, effect = Estimate(top, 0.0), Estimate(0.0, 0.0)
    bins: dict[int, list[float]] = {}
    for shoe in shoes:
        for r in shoe:
            bins.setdefault(math.floor(r.tc), []).append(r.ev)
    table = tuple(TrueCountRow(tc, len(v) / rounds, math.fsum(v) / len(v))
                  for tc, v in sorted(bins.items()))

    bets = ramp_bets(shoes, spread, wong)
    share = (None if wong is None
             else sum(1 for b in bets for x in b if x) / rounds)
    sampled = [r for s in shoes for r in s if r.second_moment is not None]
    hand = _ramp_result(spread, shoes, bets, bankroll)
    optimal = None
    if optimize is not None:
        if wong is not None:
            raise InputError("--optimize-ramp bets every round: it does not take --enter"
                             " and --exit")
        optimal = _optimal_ramp(shoes, spread, optimize, constraints)
    ramp = spread is not None or wong is not None
    risks = None
    if questions is not None and questions.asked:
        if not ramp:
            raise InputError("the risk questions (--trip-rounds, --goal, ...) are about a"
                             " bet ramp: add --spread (or --enter/--exit)")
        sd = hand.sd_per_round
        if sd is not None and sd > 0:
            win = hand.win_rate_per_round
            risks = risk_answers(questions, win.value, sd, bankroll, win.se,
                                 hand.sd_per_round_se)
        else:
            risks = unanswered(questions, "the ramp's SD is unknown (no round with its"
                               " second moment)")
    n = counter.start().total
    low, high = counter.shoe_procedure.cut_card_from_end
    return BlackjackCount(
        counter=counter, penetration=(n - (low + high) / 2) / n, rounds=rounds,
        shoes=len(shoes), spread=spread, bankroll=bankroll, ev_per_round=ev,
        ev_off_the_top=top, cut_card_effect=effect,
        by_true_count=table, sd_per_round=hand.sd_per_round,
        win_rate_per_round=hand.win_rate_per_round if ramp else None,
        n0=hand.n0 if ramp else None, score=hand.score if ramp else None,
        di=hand.di if ramp else None,
        risk_of_ruin=hand.risk_of_ruin if ramp and bankroll is not None else None,
        moment_rounds=len(sampled), sd_per_round_se=hand.sd_per_round_se,
        one_round_per_shuffle=counter.one_round, wong=wong, share_played=share,
        score_se=hand.score_se if ramp else None, optimal=optimal,
        covariance_between_boxes=_covariance(shoes) if counter.boxes > 1 or counter.box_ramp
        else None, sidebets=_sidebets(counter, shoes), risks=risks,
        deck_estimation_cost=None if not (ramp and counter.estimates) else _estimation_cost(
            shoes, bets, hand.score, spread, bankroll, wong,
            None if exact_played is None else [exact_played[i] for i in kept]),
        optimal_wong=best_wong(shoes, spread, bankroll, wong) if optimize_wong else None,
        play_errors_cost=None if not counter.play_errors else _errors_cost(
            counter.play_errors, shoes, bets, hand.score, spread, bankroll, ramp))


def best_wong(shoes: Sequence[tuple[RoundRecord, ...]], spread: Spread | None,
              bankroll: float | None, given: Wong | None = None) -> OptimalWong:
    """The :class:`OptimalWong` of ``shoes``: every pair of whole counts ``exit <= enter``
    among the floored counts of their rounds tried (an exit at the lowest never leaves;
    an entry at the lowest plays every round); ties: the lowest entry, then the lowest
    exit. ``given``: the hand-given pair to compare with.

    >>> r = RoundRecord
    >>> shoes = [(r(-1.5, -0.02, 1.3), r(0.5, -0.01, 1.3), r(2.5, 0.04, 1.3)),
    ...          (r(2.2, 0.03, 1.2), r(0.4, 0.0, 1.3), r(-2.0, -0.03, 1.3))]
    >>> best = best_wong(shoes, None, None)
    >>> (best.wong.enter, best.wong.exit), round(best.share_played, 4)
    ((2, 2), 0.3333)
    """
    counts = sorted({math.floor(r.tc) for s in shoes for r in s})
    every = ramp_bets(shoes, spread, None)
    top: tuple[float, int, int, Wong, list[list[float]]] | None = None
    tried = 0
    for enter in counts:
        for leave in (c for c in counts if c <= enter):
            tried += 1
            wong = Wong(enter, leave)
            bets = ramp_bets(shoes, spread, wong)
            got = _score_influence(shoes, bets)
            if got is not None and (top is None or got[0] > top[0]):
                top = (got[0], enter, leave, wong, bets)
    if top is None:
        raise InputError("--optimize-wong: no entry and exit counts make the ramp win on"
                         " this run's rounds: no SCORE")
    _value, _enter, _leave, wong, bets = top
    given_gain = None
    if given is not None:
        given_gain = score_difference(shoes, bets, ramp_bets(shoes, spread, given))
    rounds = sum(len(s) for s in shoes)
    return OptimalWong(wong, _ramp_result(spread, shoes, bets, bankroll),
                       sum(1 for b in bets for x in b if x) / rounds,
                       _ramp_result(spread, shoes, every, bankroll),
                       score_difference(shoes, bets, every), given_gain, tried)


def ramp_bets(shoes: Sequence[tuple[RoundRecord, ...]], spread: Spread | None,
              wong: Wong | None, exact: bool = False) -> list[list[float]]:
    """The units bet on each round of ``shoes``: the ramp's at the round's count (flat 1
    without one), 0 on a round wonging watches; ``exact``: at the count with the decks
    unseen known exactly (:attr:`RoundRecord.exact`).

    >>> r = RoundRecord
    >>> ramp_bets([(r(0.9, 0, None), r(2.4, 0, None, exact_count=1.8))],
    ...           Spread(((1, 1.0), (2, 4.0))), None, exact=True)
    [[1.0, 1.0]]
    """
    def key(r: RoundRecord) -> float:
        return r.exact if exact else r.tc

    return [[(spread.bet(key(r)) if spread is not None else 1.0) * in_play
             for r, in_play in zip(s, wong.playing([key(r) for r in s]) if wong is not None
                                   else [True] * len(s), strict=True)] for s in shoes]


def _estimation_cost(shoes: Sequence[tuple[RoundRecord, ...]], bets: list[list[float]],
                     score: float | None, spread: Spread | None, bankroll: float | None,
                     wong: Wong | None,
                     exact_shoes: Sequence[tuple[RoundRecord, ...]] | None
                     ) -> DeckEstimationCost:
    """The ramp's SCORE (``score``, betting ``bets`` on ``shoes``) against perfect deck
    estimation's: on ``exact_shoes`` (dealt again by the exact counter) at their own
    counts, or else on the same rounds at their exact counts."""
    other = shoes if exact_shoes is None else exact_shoes
    exact_bets = ramp_bets(other, spread, wong, exact=exact_shoes is None)
    exact = _ramp_result(spread, other, exact_bets, bankroll)
    return DeckEstimationCost(exact.score, score,
                              score_difference(shoes, bets, exact_bets, other),
                              exact_shoes is not None,
                              win_rate_difference(shoes, bets, other, exact_bets))


def _errors_cost(rate: float, shoes: Sequence[tuple[RoundRecord, ...]],
                 bets: list[list[float]], score: float | None, spread: Spread | None,
                 bankroll: float | None, ramp: bool) -> PlayErrorsCost:
    """The :class:`PlayErrorsCost` of ``shoes`` (each round valued with the errors and
    without them: :attr:`RoundRecord.perfect_ev`), the ramp's ``score`` betting ``bets``."""
    def without(r: RoundRecord) -> RoundRecord:
        if r.perfect_ev is None:
            raise ValueError("a round without its value without errors (a bug)")
        return replace(r, ev=r.perfect_ev, second_moment=r.perfect_second_moment)

    perfect = [tuple(without(r) for r in s) for s in shoes]
    flat = [[1.0] * len(s) for s in shoes]
    ev_difference = win_rate_difference(shoes, flat, perfect, flat)
    if not ramp:
        return PlayErrorsCost(rate, ev_difference, None, None, None, None)
    result = _ramp_result(spread, perfect, bets, bankroll)
    return PlayErrorsCost(rate, ev_difference, result.score, score,
                          score_difference(shoes, bets, bets, perfect),
                          win_rate_difference(shoes, bets, perfect, bets))


def _sidebets(counter: BlackjackCounter, shoes: Sequence[tuple[RoundRecord, ...]]
              ) -> dict[str, SideBetCount] | None:
    """The side bets' figures over ``shoes`` (None without side bets)."""
    if not counter.sidebets:
        return None
    rounds = [[r.sidebets for r in s if r.sidebets is not None] for s in shoes]
    top = price_all(counter.sidebets, shoe_of(
        [card_types(counter.start().counts).count(t) for t in range(TYPES)],
        counter.rules.finite_decks("count")))
    return summarise_sidebets(counter.sidebets, rounds, top, counter.triggers)


def _covariance(shoes: Sequence[tuple[RoundRecord, ...]]) -> Estimate | None:
    """The mean of the rounds' covariances between boxes, a ratio over the shoes."""
    sums = [math.fsum(r.covariance for r in s if r.covariance is not None) for s in shoes]
    counts = [float(sum(1 for r in s if r.covariance is not None)) for s in shoes]
    return ratio_estimate(sums, counts) if sum(counts) > 0 else None
