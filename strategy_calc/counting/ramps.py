"""Bet ramps for a counter: the figures of a ramp (win rate, SD, N0, DI, SCORE, risk of
ruin) in one place, and the ramp that maximises SCORE (or the win rate under a
risk-of-ruin limit) within the table's minimum and maximum bet.

The data are per (floored) true count: the share of rounds dealt there, their mean EV
and their mean second moment E[X^2], per unit bet (:class:`CountBucket`). A ramp bets
``b_k`` units at count ``k``; per round it wins ``w = sum f_k b_k e_k`` with second
moment ``m2 = sum f_k b_k^2 m_k`` and SD ``s = sqrt(m2 - w^2)``.

Sources (definitions, not code): Don Schlesinger, *Blackjack Attack*, 3rd ed., ch. 10
(SCORE, DI, N0); Brett Harris, "The Theory of Optimal Betting Spreads" (bjmath.com,
1997: the ramp that minimises N0 for a given spread bets in proportion to E/E[X^2]
between the floor and the ceiling, and maximises the log growth at that spread); J. L.
Kelly (1956) and E. O. Thorp: the growth-optimal bet is E/E[X^2] of the bankroll to
second order in the bet.

>>> buckets = (CountBucket(0, 0.75, -0.01, 1.3), CountBucket(2, 0.25, 0.02, 1.3))
>>> best = optimize_ramp(buckets, RampLimits(bankroll=1000, min_bet=1, max_bet=8))
>>> best.bets, best.criterion
(((0, 1.0), (2, 8.0)), 'score')
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from strategy_calc.errors import InputError

ROUNDS_PER_HOUR = 100.0
"""Default rounds per hour for the hours to double (a full table deals fewer, one
player heads-up more: Schlesinger's tables assume 100)."""

CRITERIA = ("score", "kelly", "max-ror")
"""How :func:`optimize_ramp` picks the scale of the ramp (see :class:`OptimalRamp`)."""


def desirability_index(win: float, sd: float) -> float:
    """DI = 1000 w / s (Schlesinger): ``win`` and ``sd`` per round, in units; ``sd > 0``.

    >>> desirability_index(0.02, 2.0)
    10.0
    """
    return 1000.0 * win / sd


def score(win: float, sd: float) -> float | None:
    """SCORE = DI^2 = 10^6 (w/s)^2: the win per 100 rounds, in units, of a player with a
    bankroll of 10,000 units betting the ramp scaled to its full Kelly size
    (Schlesinger); None for a ramp that does not win (``win <= 0``).

    >>> score(0.02, 2.0), score(-0.01, 2.0)
    (100.0, None)
    """
    return desirability_index(win, sd) ** 2 if win > 0 else None


def n0(win: float, sd: float) -> float | None:
    """N0 = (s/w)^2: the rounds after which the expected win equals one SD of the result
    (Schlesinger); None for a ramp that does not win.

    >>> n0(0.02, 2.0)
    10000.0
    """
    ratio = sd / win if win > 0 else math.inf
    return ratio * ratio if win > 0 else None  # (inf, not an error, when w is tiny)


def risk_of_ruin(win: float, sd: float, bankroll: float) -> float:
    """The chance of ever losing a bankroll of ``bankroll`` units, exp(-2 w B / s^2) (the
    diffusion approximation, Schlesinger ch. 8); 1 for a ramp that does not win.

    >>> round(risk_of_ruin(0.02, 2.0, 100.0), 6)  # exp(-1)
    0.367879
    """
    return math.exp(-2.0 * win * bankroll / sd ** 2) if win > 0 else 1.0


def hours_to_double(win: float, bankroll: float, rounds_per_hour: float) -> float | None:
    """Hours until the expected win equals the bankroll, B / (w x rounds per hour); None
    for a ramp that does not win.

    >>> hours_to_double(0.02, 1000.0, 100.0)
    500.0
    """
    return bankroll / (win * rounds_per_hour) if win > 0 else None


def score_se(value: float, win: float, win_se: float, sd: float, sd_se: float) -> float:
    """SCORE's standard error by the delta method from the win rate's and the SD's, their
    covariance taken as 0: SCORE = 10^6 (w/s)^2, so se = SCORE x sqrt((2 se_w / w)^2 +
    (2 se_s / s)^2).

    >>> score_se(100.0, 0.02, 0.001, 2.0, 0.0)
    10.0
    """
    return value * math.hypot(2.0 * win_se / win, 2.0 * sd_se / sd)


def di_se(win: float, win_se: float, sd: float, sd_se: float) -> float:
    """DI's standard error by the delta method (covariance taken as 0): DI = 1000 w / s,
    so se = 1000 sqrt((se_w / s)^2 + (w se_s / s^2)^2).

    >>> di_se(0.02, 0.002, 2.0, 0.0)  # 1000 x 0.002 / 2
    1.0
    """
    return 1000.0 * math.hypot(win_se / sd, win * sd_se / sd ** 2)


def n0_se(win: float, win_se: float, sd: float, sd_se: float) -> float:
    """N0's standard error by the delta method (covariance taken as 0): N0 = (s / w)^2,
    so se = N0 sqrt((2 se_w / w)^2 + (2 se_s / s)^2).

    >>> n0_se(0.02, 0.001, 2.0, 0.0)  # 10,000 x 2 x 0.05
    1000.0
    """
    return (sd / win) ** 2 * math.hypot(2.0 * win_se / win, 2.0 * sd_se / sd)


def risk_of_ruin_se(win: float, win_se: float, sd: float, sd_se: float,
                    bankroll: float) -> float:
    """The risk of ruin's standard error by the delta method (covariance taken as 0):
    R = exp(-2 w B / s^2), so se = R (2 B / s^2) sqrt(se_w^2 + (2 w se_s / s)^2).

    >>> round(risk_of_ruin_se(0.02, 0.001, 2.0, 0.0, 100.0), 6)  # exp(-1) x 50 x 0.001
    0.018394
    """
    ror = math.exp(-2.0 * win * bankroll / sd ** 2)
    return ror * (2.0 * bankroll / sd ** 2) * math.hypot(win_se, 2.0 * win * sd_se / sd)


DISTINGUISHABLE_SES = 2.0
"""An estimate is told apart from zero when it lies at least this many standard errors
from it (about 95% two-sided): below, the figures that divide by it are not given."""


def distinguishable_from_zero(value: float, se: float) -> bool:
    """Whether ``value`` lies :data:`DISTINGUISHABLE_SES` standard errors or more from 0.

    >>> distinguishable_from_zero(-0.0013, 0.0029), distinguishable_from_zero(0.024, 0.0043)
    (False, True)
    """
    return math.isfinite(se) and abs(value) >= DISTINGUISHABLE_SES * se


@dataclass(frozen=True, slots=True)
class CountBucket:
    """The rounds dealt at one (floored) true count ``tc``.

    ``frequency``: their share of all rounds; ``ev``: their mean EV, and
    ``second_moment``: their mean E[X^2], both per round per unit bet;
    ``sampled``: how many of them had their exact second moment computed (0: the
    second moment is the run's pooled one, see :func:`strategy_calc.counting.runs.count_buckets`).

    >>> CountBucket(1, 0.2, 0.005, 1.3).variance
    1.299975
    """

    tc: int
    frequency: float
    ev: float
    second_moment: float
    sampled: int = 0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.frequency) and 0 <= self.frequency <= 1):
            raise InputError(f"count {self.tc}: a frequency is a share between 0 and 1,"
                             f" not {self.frequency:g}")
        if not (math.isfinite(self.ev) and math.isfinite(self.second_moment)
                and self.second_moment > self.ev ** 2):
            raise InputError(f"count {self.tc}: E[X^2] {self.second_moment:g} must exceed"
                             f" the squared EV {self.ev:g}^2")

    @property
    def variance(self) -> float:
        """The variance of a round's result at this count, per unit bet squared."""
        return self.second_moment - self.ev ** 2


@dataclass(frozen=True, slots=True)
class RampLimits:
    """What :func:`optimize_ramp` must respect and aims at; money in units (the unit of
    the ``--spread`` bets).

    >>> RampLimits(bankroll=1000, min_bet=10, max_bet=5)
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --min-bet 10 is above --max-bet 5: no ramp fits
    """

    bankroll: float
    """Units the player can lose (the risk of ruin's and the Kelly bet's bankroll)."""
    min_bet: float
    """The smallest bet, units: bet at every count whose EV is not positive."""
    max_bet: float
    """The largest bet, units."""
    kelly_fraction: float | None = None
    """Bet this fraction of the full Kelly bet, clipped to the limits (criterion
    ``kelly``; with ``max_ror``, a cap on the scale)."""
    max_ror: float | None = None
    """The largest risk of ruin allowed for ``bankroll`` (criterion ``max-ror``)."""
    rounds_per_hour: float = ROUNDS_PER_HOUR
    """For the hours to double."""

    def __post_init__(self) -> None:
        for name in ("bankroll", "min_bet", "max_bet", "rounds_per_hour"):
            object.__setattr__(self, name, float(getattr(self, name)))

        def positive(flag: str, value: float) -> None:
            if not (math.isfinite(value) and value > 0):
                raise InputError(f"{flag} must be a positive number of units, not {value:g}")

        positive("--bankroll", self.bankroll)
        positive("--min-bet", self.min_bet)
        positive("--max-bet", self.max_bet)
        if self.min_bet > self.max_bet:
            raise InputError(f"--min-bet {self.min_bet:g} is above --max-bet"
                             f" {self.max_bet:g}: no ramp fits")
        if self.kelly_fraction is not None and not (
                math.isfinite(self.kelly_fraction) and self.kelly_fraction > 0):
            raise InputError(f"--kelly-fraction must be a positive fraction of the Kelly bet"
                             f" (1 = full Kelly), not {self.kelly_fraction:g}")
        if self.max_ror is not None and not 0 < self.max_ror < 1:
            raise InputError(f"--max-ror is a chance strictly between 0 and 1, not"
                             f" {self.max_ror:g}")
        if not (math.isfinite(self.rounds_per_hour) and self.rounds_per_hour > 0):
            raise InputError(f"--rounds-per-hour must be positive, not"
                             f" {self.rounds_per_hour:g}")

    @property
    def criterion(self) -> str:
        """``max-ror`` with :attr:`max_ror`, else ``kelly`` with :attr:`kelly_fraction`,
        else ``score``."""
        if self.max_ror is not None:
            return "max-ror"
        return "kelly" if self.kelly_fraction is not None else "score"


@dataclass(frozen=True, slots=True)
class RampFigures:
    """A ramp's figures from per-count data (:func:`ramp_figures`): per round, in units;
    the ratios None for a ramp that does not win."""

    win: float
    sd: float
    score: float | None
    n0: float | None
    di: float
    risk_of_ruin: float
    hours_to_double: float | None


def ramp_moments(buckets: Sequence[CountBucket], bets: Sequence[float]) -> tuple[float, float]:
    """(w, m2): a round's mean result and second moment, in units, betting ``bets[k]`` at
    ``buckets[k]``: w = sum f b e, m2 = sum f b^2 E[X^2].

    >>> w, m2 = ramp_moments([CountBucket(0, 0.5, -0.01, 1.0), CountBucket(1, 0.5, 0.03, 2.0)],
    ...                      [1, 2])
    >>> round(w, 12), m2
    (0.025, 4.5)
    """
    w = math.fsum(b.frequency * x * b.ev for b, x in zip(buckets, bets, strict=True))
    m2 = math.fsum(b.frequency * x * x * b.second_moment
                   for b, x in zip(buckets, bets, strict=True))
    return w, m2


def ramp_figures(buckets: Sequence[CountBucket], bets: Sequence[float], bankroll: float,
                 rounds_per_hour: float = ROUNDS_PER_HOUR) -> RampFigures:
    """The figures of betting ``bets[k]`` units at ``buckets[k]`` (see the module's
    docstring), with the risk of ruin and hours to double for ``bankroll`` units.

    >>> f = ramp_figures([CountBucket(0, 1.0, 0.02, 4.0004)], [1.0], 100.0)
    >>> round(f.sd, 12), round(f.score, 6), round(f.n0, 6)
    (2.0, 100.0, 10000.0)
    """
    w, m2 = ramp_moments(buckets, bets)
    sd = math.sqrt(max(m2 - w * w, 0.0))
    if sd == 0.0:
        raise InputError("the ramp's result has no variance: no SCORE")
    return RampFigures(w, sd, score(w, sd), n0(w, sd), desirability_index(w, sd),
                       risk_of_ruin(w, sd, bankroll),
                       hours_to_double(w, bankroll, rounds_per_hour))


def scaled_bets(buckets: Sequence[CountBucket], scale: float, min_bet: float,
                max_bet: float) -> tuple[float, ...]:
    """The ramp of scale ``scale``: at each count ``scale x EV / E[X^2]`` units (the Kelly
    bet for a bankroll of ``scale`` units), clipped to [``min_bet``, ``max_bet``]; the
    minimum where the EV is not positive.

    A bet within 1e-12 (relative) of a limit is that limit: the scale at which a bet
    reaches a limit is computed as limit x E[X^2] / EV, and rounding must not leave the
    bet a hair below it.

    >>> scaled_bets([CountBucket(0, 0.5, -0.01, 1.0), CountBucket(1, 0.5, 0.01, 1.0)],
    ...             300.0, 1.0, 12.0)
    (1.0, 3.0)
    >>> scaled_bets([CountBucket(0, 1.0, 0.0254, 1.0)], 7.5 * 1.0 / 0.0254, 3.0, 7.5)
    (7.5,)
    """
    def clip(bet: float) -> float:
        if bet >= max_bet * (1 - 1e-12):
            return max_bet
        return min_bet if bet <= min_bet * (1 + 1e-12) else bet

    return tuple(clip(scale * b.ev / b.second_moment) if b.ev > 0 else min_bet
                 for b in buckets)


@dataclass(frozen=True, slots=True)
class OptimalRamp:
    """The ramp :func:`optimize_ramp` chose: ``bets`` (true count, units) per count of the
    data, each ``clip(scale x EV / E[X^2], min_bet, max_bet)``.

    ``criterion``: ``score``: the scale that maximises SCORE over every ramp within
    the limits (Harris: the optimum has this form); ``kelly``: scale = fraction x
    bankroll, the bets that maximise the expected log growth (to second order) at that
    fraction of Kelly within the limits; ``max-ror``: the largest scale (at most
    fraction x bankroll when a fraction is given) whose risk of ruin for the bankroll is
    at most ``max_ror``, which maximises the win rate of these ramps under that limit.
    ``figures``: the ramp's figures from the per-count data it was chosen on.
    """

    criterion: str
    scale: float
    bets: tuple[tuple[int, float], ...]
    limits: RampLimits
    figures: RampFigures

    def bet(self, tc: int) -> float:
        """The bet in units at (floored) true count ``tc`` (the nearest count of the data
        outside their range)."""
        units = self.bets[0][1]
        for count, bet in self.bets:
            if count <= tc:
                units = bet
        return units


def _segments(buckets: Sequence[CountBucket], min_bet: float, max_bet: float
              ) -> list[float]:
    """The scales at which some count's bet reaches the minimum or the maximum, sorted:
    between two of them each bet is constant or proportional to the scale."""
    points = {limit * b.second_moment / b.ev for b in buckets if b.ev > 0
              for limit in (min_bet, max_bet)}
    return sorted(points)


def _pieces(buckets: Sequence[CountBucket], lo: float, hi: float, start: float, stop: float
            ) -> tuple[float, float, float, float]:
    """On scales between breakpoints ``start`` and ``stop``: (A, B, C, D) with the win
    w = A + B c and second moment m2 = C + D c^2 at scale c."""
    # (past the last point every bet is at a limit: any scale beyond it will do)
    beyond = 2.0 * start if start > 0 else 1.0
    mid = 0.5 * (start + stop) if math.isfinite(stop) else beyond
    a = b_ = c_ = d = 0.0
    for bucket, bet in zip(buckets, scaled_bets(buckets, mid, lo, hi), strict=True):
        ratio = bucket.ev / bucket.second_moment
        if bucket.ev > 0 and lo < bet < hi:  # proportional: bet = c x ratio
            b_ += bucket.frequency * bucket.ev * ratio
            d += bucket.frequency * bucket.second_moment * ratio * ratio
        else:
            a += bucket.frequency * bet * bucket.ev
            c_ += bucket.frequency * bet * bet * bucket.second_moment
    return a, b_, c_, d


def _quadratic_roots(a: float, b: float, c: float) -> list[float]:
    """Real roots of a x^2 + b x + c = 0 (of the linear equation when a == 0)."""
    if a == 0.0:
        return [] if b == 0.0 else [-c / b]
    disc = b * b - 4.0 * a * c
    if disc < 0:
        return []
    root = math.sqrt(disc)
    q = -0.5 * (b + math.copysign(root, b))  # no cancellation
    return [q / a] + ([c / q] if q != 0.0 else [])


def optimize_ramp(buckets: Sequence[CountBucket], limits: RampLimits) -> OptimalRamp:
    """The ramp of :class:`OptimalRamp` for ``buckets`` (one per count, any order) under
    ``limits``; its criterion is ``limits.criterion``.

    Every candidate is ``clip(c x EV / E[X^2], min, max)``. Between two scales at which a
    count's bet reaches a limit, w = A + B c and m2 = C + D c^2 with B = D (both the sum
    of f e^2 / E[X^2] over the counts bet in proportion), so SCORE (which grows with
    w^2 / m2) is stationary only at c = B C / (A D) = C / A, and the risk-of-ruin limit
    exp(-2 w B / (m2 - w^2)) <= r is a quadratic inequality in c: the optimum is one of
    finitely many points, all tried.
    """
    if not buckets:
        raise InputError("no rounds to choose a ramp from")
    buckets = sorted(buckets, key=lambda b: b.tc)
    lo, hi = limits.min_bet, limits.max_bet
    points = _segments(buckets, lo, hi)
    edges = [0.0, *points, math.inf]
    pieces = [(start, stop, _pieces(buckets, lo, hi, start, stop))
              for start, stop in itertools.pairwise(edges)]

    def figures(c: float) -> RampFigures:
        return ramp_figures(buckets, scaled_bets(buckets, c, lo, hi), limits.bankroll,
                            limits.rounds_per_hour)

    def best_score() -> float:
        candidates = list(points) or [0.0]
        for start, stop, (a, b, c, d) in pieces:
            if a != 0.0 and b > 0.0 and d > 0.0:  # B = D = sum f e^2 / E[X^2]: at C / A
                at = c / a
                if start < at < stop:
                    candidates.append(at)
        scored = [(figures(c).score, c) for c in candidates]
        winning = [(s, c) for s, c in scored if s is not None]
        if not winning:
            raise InputError("no true count of this run has a positive EV: no ramp wins,"
                             " so none has a SCORE")
        top = max(s for s, _c in winning)
        return min(c for s, c in winning if s == top)

    criterion = limits.criterion
    if criterion == "score":
        scale = best_score()
    elif criterion == "kelly":
        assert limits.kelly_fraction is not None
        scale = limits.kelly_fraction * limits.bankroll
    else:
        assert limits.max_ror is not None
        scale = _max_ror_scale(buckets, limits, points, pieces)
    return OptimalRamp(criterion, scale,
                       tuple(zip((b.tc for b in buckets),
                                 scaled_bets(buckets, scale, lo, hi), strict=True)),
                       limits, figures(scale))


def _max_ror_scale(buckets: Sequence[CountBucket], limits: RampLimits, points: list[float],
                   pieces: list[tuple[float, float, tuple[float, float, float, float]]]
                   ) -> float:
    """The largest scale (capped by the Kelly fraction, if given) whose ramp's risk of ruin
    is at most ``limits.max_ror``: on each piece, exp(-2 w B / (m2 - w^2)) <= r is
    L (m2 - w^2) - 2 B w <= 0 with L = -ln r, a quadratic in the scale; the largest
    feasible scale is the cap or one of its roots."""
    assert limits.max_ror is not None
    lo, hi = limits.min_bet, limits.max_bet
    cap = (limits.kelly_fraction * limits.bankroll if limits.kelly_fraction is not None
           else (points[-1] if points else 0.0))  # beyond the last point no bet changes
    big_l, bank = -math.log(limits.max_ror), limits.bankroll
    candidates = {0.0, cap, *(p for p in points if p <= cap)}
    for start, stop, (a, b, c, d) in pieces:
        # L (C + D x^2 - (A + B x)^2) - 2 bank (A + B x) <= 0
        roots = _quadratic_roots(big_l * (d - b * b), -2.0 * big_l * a * b - 2.0 * bank * b,
                                 big_l * (c - a * a) - 2.0 * bank * a)
        candidates.update(x for x in roots if start <= x <= stop and 0.0 <= x <= cap)
    def ror_at(x: float) -> float:
        w, m2 = ramp_moments(buckets, scaled_bets(buckets, x, lo, hi))
        var = m2 - w * w
        return risk_of_ruin(w, math.sqrt(var), bank) if var > 0 else (0.0 if w > 0 else 1.0)

    for c_ in sorted(candidates, reverse=True):
        if ror_at(c_) <= limits.max_ror * (1.0 + 1e-9):  # a root, to rounding
            return c_
    # None is feasible: the least risk of ruin, where w / (m2 - w^2) is largest, for the
    # message. On a piece, d/dc of (A + B c) / (C + D c^2 - (A + B c)^2) is 0 where
    # B (D - B^2) c^2 + 2 A (D - B^2) c - B (C + A^2) = 0.
    least = {0.0, cap, *(p for p in points if p <= cap)}
    for start, stop, (a, b, c, d) in pieces:
        roots = _quadratic_roots(b * (d - b * b), 2.0 * a * (d - b * b), -b * (c + a * a))
        least.update(x for x in roots if start <= x <= stop and 0.0 <= x <= cap)
    raise InputError(f"--max-ror {limits.max_ror:g} cannot be met for a bankroll of"
                     f" {bank:g} units with bets from {lo:g} to {hi:g}: the least risk of ruin"
                     f" of any ramp is {min(ror_at(x) for x in least):.4g}")
