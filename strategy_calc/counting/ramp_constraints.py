"""The SCORE-optimal (or Kelly) bet ramp under a counter's real constraints: chip units (every bet a
multiple of a unit), a spread cap (the largest bet at most K times the smallest), and a
cover limit (at most N bet sizes, each bet on a run of consecutive counts: at most N - 1
bet changes as the count rises), within the table's minimum and maximum bet.

The data and the figures are those of :mod:`strategy_calc.counting.ramps`: per count
``k`` the share ``f``, EV ``e`` and second moment ``m`` per unit bet; a ramp ``b`` wins
``w = sum f b e`` with second moment ``m2 = sum f b^2 m``, and SCORE grows with
``w^2 / m2`` (for ``w > 0``). Each optimum is exact for this model (docs/MODEL.md,
"Ramps under constraints"):

- discrete bets (``bet_unit``): the ramp maximising ``w / sqrt(m2)`` is, at the
  multiplier ``mu* = w / (2 m2)`` of its tangent, the unique maximiser of the separable
  ``w - mu m2`` (the level sets of ``w / sqrt(m2)`` are concave curves in the
  ``(m2, w)`` plane, and the tangent line supports the feasible points there), so it is
  one of the lines of the upper envelope of ``{w(b) - mu m2(b)}`` over ``mu > 0``; the
  envelope is enumerated exactly by bisection on the lines' crossings (Eisner and
  Severance, 1976), each evaluation an exact maximisation of ``w - mu m2``: count by
  count the allowed bet nearest ``e / (2 mu m)`` (a concave parabola), or, with a cover
  limit, a dynamic programme over the counts in order cutting them into at most N runs;
- a spread cap: with continuous bets SCORE is scale-free, so the cap is the maximum
  ``min(max_bet, K x min_bet)``; with discrete bets each smallest bet ``s`` allowed is
  tried with the bets from ``s`` to ``K s``;
- a cover limit with continuous bets: every cut of the counts into at most N runs, each
  run one merged count (its shares summed, its EV and E[X^2] their frequency-weighted
  means) for the unconstrained optimiser :func:`strategy_calc.counting.ramps.optimize_ramp`;
- the Kelly criterion (``--kelly-fraction F``): its objective ``w - m2 / (2 F B)`` is the
  separable ``w - mu m2`` at ``mu = 1 / (2 F B)``, so one exact maximisation of it.

>>> from strategy_calc.counting.ramps import CountBucket, RampLimits
>>> buckets = (CountBucket(0, 0.5, -0.01, 1.3), CountBucket(1, 0.3, 0.004, 1.3),
...            CountBucket(2, 0.2, 0.02, 1.3))
>>> best = optimize_constrained(buckets, RampLimits(1000, 1, 8), RampConstraints(bet_unit=1))
>>> best.bets
((0, 1.0), (1, 2.0), (2, 8.0))
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from strategy_calc.counting.ramps import (
    CountBucket,
    OptimalRamp,
    RampLimits,
    optimize_ramp,
    ramp_figures,
    ramp_moments,
)
from strategy_calc.errors import InputError

MAX_BET_SIZES = 1000
"""The most bet sizes a chip unit may allow between the minimum and the maximum bet (the
exact search's work grows with their number; a finer unit is as good as no unit)."""

MAX_GROUPINGS = 200_000
"""The most cuts of the counts into runs that a cover limit with continuous bets tries
(each an exact optimisation); beyond it give ``--bet-unit`` (a dynamic programme)."""

_MU_LOW, _MU_HIGH = 1e-12, 1e12
"""The envelope's ends: at ``mu`` = 1e-12 the line maximising ``w - mu m2`` is the one of
the largest win rate, at 1e12 that of the least second moment, for bets between about
1e-9 and 1e9 units and EVs per unit bet above about 1e-9."""

_SAME = 1e-9
"""Bets within this relative distance are one bet size (continuous cover limit)."""


@dataclass(frozen=True, slots=True)
class RampConstraints:
    """What a counter's ramp must respect beyond the table's limits (``count
    --optimize-ramp``): every bet a multiple of ``bet_unit`` units; the largest bet at
    most ``max_spread`` times the smallest; at most ``max_bet_levels`` bet sizes, each on
    a run of consecutive counts. None: no such constraint.

    >>> RampConstraints(max_spread=0.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --max-spread is the largest bet over the smallest ...
    """

    bet_unit: float | None = None
    max_spread: float | None = None
    max_bet_levels: int | None = None

    def __post_init__(self) -> None:
        if self.bet_unit is not None and not (math.isfinite(self.bet_unit)
                                              and self.bet_unit > 0):
            raise InputError(f"--bet-unit must be a positive number of units, not"
                             f" {self.bet_unit:g}")
        if self.max_spread is not None and not (math.isfinite(self.max_spread)
                                                and self.max_spread >= 1):
            raise InputError(f"--max-spread is the largest bet over the smallest (at least"
                             f" 1), not {self.max_spread:g}")
        if self.max_bet_levels is not None and self.max_bet_levels < 1:
            raise InputError(f"--max-bet-levels is a number of bet sizes (at least 1), not"
                             f" {self.max_bet_levels}")

    @property
    def given(self) -> bool:
        """Whether any constraint is given."""
        return any(x is not None for x in (self.bet_unit, self.max_spread,
                                           self.max_bet_levels))

    def each(self) -> tuple[tuple[str, RampConstraints], ...]:
        """Each constraint given alone, by its JSON name.

        >>> [n for n, _c in RampConstraints(bet_unit=1, max_bet_levels=3).each()]
        ['bet_unit', 'max_bet_levels']
        """
        out = []
        if self.bet_unit is not None:
            out.append(("bet_unit", RampConstraints(bet_unit=self.bet_unit)))
        if self.max_spread is not None:
            out.append(("max_spread", RampConstraints(max_spread=self.max_spread)))
        if self.max_bet_levels is not None:
            out.append(("max_bet_levels", RampConstraints(max_bet_levels=self.max_bet_levels)))
        return tuple(out)


def bet_sizes(limits: RampLimits, unit: float) -> tuple[int, int]:
    """The multiples ``(first, last)`` of ``unit`` allowed: every bet ``k x unit`` with
    ``first <= k <= last`` lies within the table's limits (to rounding).

    >>> bet_sizes(RampLimits(1000, 5, 100), 25)
    (1, 4)
    >>> bet_sizes(RampLimits(1000, 1, 1.5), 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: no bet from --min-bet 1 to --max-bet 1.5 is a multiple...
    """
    first = math.ceil(limits.min_bet / unit * (1 - 1e-12))
    last = math.floor(limits.max_bet / unit * (1 + 1e-12))
    if first > last:
        raise InputError(f"no bet from --min-bet {limits.min_bet:g} to --max-bet"
                         f" {limits.max_bet:g} is a multiple of --bet-unit {unit:g}")
    if last - first + 1 > MAX_BET_SIZES:
        raise InputError(f"--bet-unit {unit:g} allows {last - first + 1:,} bet sizes from"
                         f" --min-bet {limits.min_bet:g} to --max-bet {limits.max_bet:g}: at"
                         f" most {MAX_BET_SIZES:,} (leave it out for continuous bets)")
    return first, last


def _tidy(x: float) -> float:
    """A multiple of a unit with the rounding of the product removed (0.1 x 3 is 0.3)."""
    return float(f"{x:.12g}")


Ramp = tuple[float, ...]
"""A ramp: per count (in order) the bet in units."""

Choice = Callable[[float, float, float], float]
"""``choose(E, M, mu)``: the allowed bet ``x`` maximising ``x E - mu x^2 M`` for a count (or
a run of counts) with summed ``f e`` = ``E`` and ``f E[X^2]`` = ``M``."""


def _envelope_best(oracle: Callable[[float], Ramp],
                   moments: Callable[[Ramp], tuple[float, float]]) -> Ramp | None:
    """Of the ramps on the upper envelope of ``w(b) - mu m2(b)`` over ``mu > 0``
    (``oracle(mu)``: a ramp maximising it exactly; ``moments(b)``: its ``(w, m2)``), the
    one maximising ``w^2 / m2`` with ``w > 0`` (ties: the first found); None if none wins.

    Bisection on crossings: for two envelope lines, the oracle at their crossing either
    lies on them (nothing above between them) or is a new line, above, between them."""
    seen: dict[Ramp, tuple[float, float]] = {}

    def line(mu: float) -> Ramp:
        ramp = oracle(mu)
        if ramp not in seen:
            seen[ramp] = moments(ramp)
        return ramp

    stack = [(line(_MU_LOW), line(_MU_HIGH))]
    while stack:
        a, b = stack.pop()
        if a == b:
            continue
        (wa, ma), (wb, mb) = seen[a], seen[b]
        if ma == mb:
            continue
        mu = (wa - wb) / (ma - mb)
        if not mu > 0:
            continue
        c = line(mu)
        if c in (a, b):
            continue
        wc, mc = seen[c]
        height = wa - mu * ma
        if wc - mu * mc <= height + 1e-13 * (abs(wa) + mu * ma):
            continue  # on the crossing: no line above between a and b
        stack += [(a, c), (c, b)]
    best, top = None, -math.inf
    for ramp, (w, m2) in seen.items():
        if w > 0 and m2 > 0 and w * w / m2 > top:
            best, top = ramp, w * w / m2
    return best


def _multiples(unit: float, first: int, last: int) -> Choice:
    """The multiples ``first..last`` of ``unit``: the one nearest ``E / (2 mu M)`` (a
    concave parabola), the least where ``E <= 0``."""
    def choose(e: float, m: float, mu: float) -> float:
        if e <= 0:
            return first * unit
        return min(last, max(first, round(e / (2.0 * mu * m) / unit))) * unit
    return choose


def _within(low: float, high: float) -> Choice:
    """Any bet from ``low`` to ``high``: ``E / (2 mu M)`` clipped, ``low`` where
    ``E <= 0``."""
    def choose(e: float, m: float, mu: float) -> float:
        return low if e <= 0 else min(high, max(low, e / (2.0 * mu * m)))
    return choose


def _separable(buckets: Sequence[CountBucket], choose: Choice, levels: int | None
               ) -> Callable[[float], Ramp]:
    """The exact maximiser of ``w - mu m2`` over the ramps of ``choose``'s bets, in at
    most ``levels`` runs of consecutive counts when given: count by count, or a dynamic
    programme over the cuts of the counts into runs (``O(levels n^2)``)."""
    freq = [b.frequency for b in buckets]
    ev = [b.ev for b in buckets]
    m = [b.second_moment for b in buckets]
    if levels is None or levels >= len(buckets):
        def oracle(mu: float) -> Ramp:
            return tuple(choose(f * e, f * mm, mu) for f, e, mm in zip(freq, ev, m, strict=True))
        return oracle

    n = len(buckets)
    fe = [0.0, *itertools.accumulate(f * e for f, e in zip(freq, ev, strict=True))]
    fm = [0.0, *itertools.accumulate(f * mm for f, mm in zip(freq, m, strict=True))]

    def cut_oracle(mu: float) -> Ramp:
        # value[i][j], bet[i][j]: the run of counts i..j-1 at its best bet
        bet = [[0.0] * (n + 1) for _ in range(n)]
        value = [[0.0] * (n + 1) for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n + 1):
                e_sum, m_sum = fe[j] - fe[i], fm[j] - fm[i]
                x = choose(e_sum, m_sum, mu)
                bet[i][j], value[i][j] = x, x * e_sum - mu * x * x * m_sum
        # best[g][j]: counts 0..j-1 in g runs; back[g][j]: where the last run starts
        best = [[-math.inf] * (n + 1) for _ in range(levels + 1)]
        back = [[0] * (n + 1) for _ in range(levels + 1)]
        best[0][0] = 0.0
        for g in range(1, levels + 1):
            for j in range(1, n + 1):
                for i in range(g - 1, j):
                    v = best[g - 1][i] + value[i][j]
                    if v > best[g][j]:
                        best[g][j], back[g][j] = v, i
        g = max(range(1, levels + 1), key=lambda x: best[x][n])
        ramp = [0.0] * n
        j = n
        while g > 0:
            i = back[g][j]
            ramp[i:j] = [bet[i][j]] * (j - i)
            j, g = i, g - 1
        return tuple(ramp)

    return cut_oracle


def _continuous_levels(buckets: Sequence[CountBucket], limits: RampLimits, levels: int
                       ) -> tuple[float, ...] | None:
    """Continuous bets within ``limits`` in at most ``levels`` runs: the best over every
    cut of the counts into runs (each run one merged count) of the unconstrained optimum
    (None: none wins)."""
    n = len(buckets)
    try:
        free = optimize_ramp(buckets, limits)
    except InputError:
        return None
    free_bets = [x for _tc, x in free.bets]
    if _runs(free_bets) <= levels:
        return tuple(free_bets)
    total = sum(math.comb(n - 1, g - 1) for g in range(1, min(levels, n) + 1))
    if total > MAX_GROUPINGS:
        raise InputError(f"--max-bet-levels {levels} with continuous bets would try"
                         f" {total:,} cuts of the {n} counts (at most {MAX_GROUPINGS:,}):"
                         " give --bet-unit (a dynamic programme) or fewer levels")
    best, top = None, -math.inf
    for g in range(1, min(levels, n) + 1):
        for cuts in itertools.combinations(range(1, n), g - 1):
            edges = (0, *cuts, n)
            merged = []
            for i, j in itertools.pairwise(edges):
                f = min(1.0, math.fsum(b.frequency for b in buckets[i:j]))  # (rounding)
                merged.append(CountBucket(
                    buckets[i].tc, f, math.fsum(b.frequency * b.ev for b in buckets[i:j]) / f,
                    math.fsum(b.frequency * b.second_moment for b in buckets[i:j]) / f))
            try:
                ramp = optimize_ramp(merged, limits)
            except InputError:
                continue  # no run wins
            bets = [x for (i, j), (_tc, x) in zip(itertools.pairwise(edges), ramp.bets,
                                                  strict=True) for _ in range(i, j)]
            w, m2 = ramp_moments(buckets, bets)
            if w > 0 and w * w / m2 > top:
                best, top = tuple(bets), w * w / m2
    return best


def _runs(bets: Sequence[float]) -> int:
    """The runs of equal bets (to :data:`_SAME`) along the counts.

    >>> _runs([1.0, 1.0, 2.0, 2.0 * (1 + 1e-12), 1.0])
    3
    """
    return 1 + sum(1 for x, y in itertools.pairwise(bets)
                   if abs(x - y) > _SAME * max(abs(x), abs(y)))


def _in_units(buckets: Sequence[CountBucket], limits: RampLimits,
              constraints: RampConstraints, kelly: float | None,
              goal: Callable[[Ramp], float]) -> Ramp | None:
    """The best ramp of multiples of the unit (``goal`` the criterion: the Kelly
    objective at ``mu = kelly``, else ``w^2 / m2``): under a spread cap, the best over
    each smallest bet of those with bets up to the cap."""
    assert constraints.bet_unit is not None
    unit, cap = constraints.bet_unit, constraints.max_spread
    first, last = bet_sizes(limits, unit)
    bets, top = None, -math.inf
    for low in [first] if cap is None else range(first, last + 1):
        high = last if cap is None else min(last, math.floor(cap * low * (1 + 1e-12)))
        oracle = _separable(buckets, _multiples(unit, low, high), constraints.max_bet_levels)
        ramp = (oracle(kelly) if kelly is not None
                else _envelope_best(oracle, lambda r: ramp_moments(buckets, r)))
        if ramp is not None and goal(ramp) > top:
            bets, top = ramp, goal(ramp)
        if high == last:
            break  # a higher floor allows a subset of these bets
    return None if bets is None else tuple(_tidy(x) for x in bets)


def optimize_constrained(buckets: Sequence[CountBucket], limits: RampLimits,
                         constraints: RampConstraints) -> OptimalRamp:
    """The optimal ramp for ``buckets`` within ``limits`` under ``constraints``, for
    ``limits.criterion`` ``score`` (the module's docstring says how) or ``kelly`` (the
    ramp maximising the Kelly objective ``w - m2 / (2 F B)`` exactly, as
    :func:`strategy_calc.counting.ramps.optimize_ramp` does within the limits: one
    evaluation of the same maximiser; a spread cap then needs a unit), exact for the
    per-count model. Its ``scale``: ``F B`` for ``kelly``, else ``m2 / w``; either way
    each bet is the allowed one nearest ``scale x EV / E[X^2]`` where the constraints
    leave a choice count by count.
    """
    if not buckets:
        raise InputError("no rounds to choose a ramp from")
    criterion = limits.criterion
    if criterion == "max-ror":
        raise InputError("--bet-unit, --max-spread and --max-bet-levels optimise SCORE or the"
                         " Kelly bets: not with --max-ror")
    buckets = sorted(buckets, key=lambda b: b.tc)
    table = limits
    unit, cap, levels = constraints.bet_unit, constraints.max_spread, constraints.max_bet_levels
    kelly = None
    if criterion == "kelly":
        assert limits.kelly_fraction is not None
        kelly = 1.0 / (2.0 * limits.kelly_fraction * limits.bankroll)  # mu = 1 / (2 F B)
        if unit is None and cap is not None:
            raise InputError("--max-spread with --kelly-fraction needs --bet-unit (the Kelly"
                             " ramp under a spread cap is searched over its smallest bet)")

    def goal(ramp: Ramp) -> float:
        w, m2 = ramp_moments(buckets, ramp)
        if kelly is not None:
            return w - kelly * m2
        return w * w / m2 if w > 0 else -math.inf

    bets: Ramp | None
    if unit is None:
        if cap is not None:  # scale-free: the cap is a lower maximum
            limits = replace(limits, max_bet=min(limits.max_bet, cap * limits.min_bet))
        if kelly is not None:
            bets = _separable(buckets, _within(limits.min_bet, limits.max_bet), levels)(kelly)
        elif levels is None:
            try:
                bets = tuple(x for _tc, x in optimize_ramp(buckets, limits).bets)
            except InputError:  # no ramp within the capped limits wins: said below
                bets = None
        else:
            bets = _continuous_levels(buckets, limits, levels)
    else:
        bets = _in_units(buckets, limits, constraints, kelly, goal)
    if bets is None or (kelly is None and goal(bets) == -math.inf):
        raise InputError("no ramp within --bet-unit, --max-spread and --max-bet-levels wins on"
                         " this run's counts (every allowed ramp's win rate is not positive):"
                         " no SCORE")
    figures = ramp_figures(buckets, bets, table.bankroll, table.rounds_per_hour)
    w, m2 = ramp_moments(buckets, bets)
    scale = 1.0 / (2.0 * kelly) if kelly is not None else m2 / w
    return OptimalRamp(criterion, scale,
                       tuple(zip((b.tc for b in buckets), bets, strict=True)),
                       table, figures)
