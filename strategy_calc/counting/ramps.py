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


# The questions a counter asks of a ramp beyond its lifetime risk of ruin (Schlesinger,
# *Blackjack Attack*, ch. 8; CVCX's risk figures). Each treats the bankroll's path as a
# Brownian motion with drift: after t rounds the result is normal with mean w t and
# variance s^2 t (w, s the ramp's win and SD per round, in units), continuous in t. That
# diffusion approximation ignores that a real bankroll moves in jumps of whole bets: it
# is poor for trips of few rounds, or bankrolls and goals of few bets.


def normal_cdf(x: float) -> float:
    """Phi(x), the standard normal distribution function.

    >>> normal_cdf(0.0), round(normal_cdf(1.959963984540054), 6)
    (0.5, 0.975)
    """
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def normal_pdf(x: float) -> float:
    """phi(x), the standard normal density.

    >>> round(normal_pdf(0.0), 6)
    0.398942
    """
    return math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _ruin_reflected(win: float, sd: float, bankroll: float, rounds: float) -> float:
    """exp(-2 w B / s^2) Phi((-B + w N) / (s sqrt N)), the reflected path's term of
    :func:`trip_risk_of_ruin`, without overflowing when w < 0: it equals phi(u) M(v),
    with u = (-B - w N) / (s sqrt N), v = (-B + w N) / (s sqrt N) and M(v) = Phi(v) /
    phi(v), since exp(-2 w B / s^2) phi(v) = phi(u) (u^2 - v^2 = 4 w B / s^2)."""
    root = sd * math.sqrt(rounds)
    u, v = (-bankroll - win * rounds) / root, (-bankroll + win * rounds) / root
    if v > -30.0:
        phi_v = normal_cdf(v)
        if phi_v > 0.0:
            return math.exp(-2.0 * win * bankroll / sd ** 2 + math.log(phi_v))
    # Phi(v) / phi(v) for v <= -30, to ~1e-9 relative (the asymptotic series of Mills' ratio)
    inv = 1.0 / (v * v)
    return normal_pdf(u) / -v * (1.0 - inv + 3.0 * inv ** 2 - 15.0 * inv ** 3)


def trip_risk_of_ruin(win: float, sd: float, bankroll: float, rounds: float) -> float:
    """The chance of losing a bankroll of ``bankroll`` units at some time within a trip of
    ``rounds`` rounds (``rounds > 0``), under the diffusion approximation (the result
    after t rounds a Brownian motion with drift ``win`` and SD ``sd`` per round, units):

        P(min over [0, N] of X_t <= -B) = Phi((-B - w N) / (s sqrt N))
                                          + exp(-2 w B / s^2) Phi((-B + w N) / (s sqrt N)).

    Derivation: for w = 0 the reflection principle gives P(min <= -B) = 2 P(X_N <= -B).
    With drift, change measure (Girsanov): under Q, X is driftless and dP/dQ = exp(w X_N
    / s^2 - w^2 N / (2 s^2)). Split on the paths that end below -B (all of them ruined:
    P(X_N <= -B) = Phi((-B - w N) / (s sqrt N))) and those ruined that end above -B;
    reflecting the latter at the first passage maps X_N = x to -2B - x under Q, which
    turns the density ratio into exp(-2 w B / s^2) times that of a path ending at
    -2B - x, whose P-probability of ending below -B, mirrored, is Phi((-B + w N) / (s
    sqrt N)). As N grows it tends to the lifetime :func:`risk_of_ruin` (w > 0), to 1
    (w <= 0).

    >>> round(trip_risk_of_ruin(0.0, 1.0, 10.0, 100.0), 6)  # 2 Phi(-1)
    0.317311
    >>> round(trip_risk_of_ruin(0.02, 2.0, 100.0, 1e9), 6)  # exp(-1), the lifetime figure
    0.367879
    """
    root = sd * math.sqrt(rounds)
    direct = normal_cdf((-bankroll - win * rounds) / root)
    return min(1.0, direct + _ruin_reflected(win, sd, bankroll, rounds))


def trip_risk_of_ruin_se(win: float, win_se: float, sd: float, sd_se: float,
                         bankroll: float, rounds: float) -> float:
    """:func:`trip_risk_of_ruin`'s standard error by the delta method (covariance of the
    win rate's and the SD's estimates taken as 0). With R = exp(-2 w B / s^2) Phi(v) (the
    reflected term) and u, v as there, the density terms cancel (exp(-2 w B / s^2)
    phi(v) = phi(u)): dP/dw = -(2 B / s^2) R and dP/ds = 2 B phi(u) / (s^2 sqrt N) +
    (4 w B / s^3) R.

    >>> round(trip_risk_of_ruin_se(0.0, 0.01, 1.0, 0.0, 10.0, 100.0), 6)  # 20 Phi(-1) x 0.01
    0.031731
    """
    reflected = _ruin_reflected(win, sd, bankroll, rounds)
    u = (-bankroll - win * rounds) / (sd * math.sqrt(rounds))
    d_w = -2.0 * bankroll / sd ** 2 * reflected
    d_s = (2.0 * bankroll * normal_pdf(u) / (sd ** 2 * math.sqrt(rounds))
           + 4.0 * win * bankroll / sd ** 3 * reflected)
    return math.hypot(d_w * win_se, d_s * sd_se)


def _goal_terms(win: float, sd: float, bankroll: float, goal: float) -> tuple[float, float]:
    """(P, dP/da) of :func:`goal_probability` as a function of a = 2 w / s^2."""
    a, total = 2.0 * win / sd ** 2, bankroll + goal
    if abs(a) * total < 1e-6:  # P = B/C + a B G / (2 C) + O(a^2), C = B + G
        return bankroll / total + a * bankroll * goal / (2.0 * total), (
            bankroll * goal / (2.0 * total))
    if a > 0:  # x = e^{-aB}, y = e^{-aC}: P = (1 - x) / (1 - y)
        x, y = math.exp(-a * bankroll), math.exp(-a * total)
        p = math.expm1(-a * bankroll) / math.expm1(-a * total)
        return p, (bankroll * x - total * y * p) / (1.0 - y)
    # a < 0: multiply through by e^{aC} (no overflow): P = (e^{aC} - e^{aG}) / (e^{aC} - 1)
    p = math.exp(a * goal) * math.expm1(a * bankroll) / math.expm1(a * total)
    return p, (bankroll * math.exp(a * goal) - total * p) / math.expm1(a * total)


def goal_probability(win: float, sd: float, bankroll: float, goal: float) -> float:
    """The chance of winning ``goal`` units before losing ``bankroll`` units (both > 0),
    under the diffusion approximation (drift ``win``, SD ``sd`` per round, units): with a
    = 2 w / s^2, (1 - exp(-a B)) / (1 - exp(-a (B + G))); B / (B + G) at w = 0.

    exp(-a X_t) is a martingale of the drifting Brownian motion, so at the exit time
    P e^{-aG} + (1 - P) e^{aB} = 1, which solves to the formula; at w = 0, X_t itself is
    one: P G - (1 - P) B = 0. (Gambler's ruin of a +-1 walk, continuous.)

    >>> goal_probability(0.0, 1.0, 30.0, 10.0)
    0.75
    >>> round(goal_probability(0.02, 2.0, 100.0, 100.0), 6)  # 1 / (1 + e^{-1})
    0.731059
    """
    return _goal_terms(win, sd, bankroll, goal)[0]


def goal_probability_se(win: float, win_se: float, sd: float, sd_se: float,
                        bankroll: float, goal: float) -> float:
    """:func:`goal_probability`'s standard error by the delta method (covariance taken
    as 0): P depends on w and s through a = 2 w / s^2, so se = |dP/da| sqrt((2 se_w /
    s^2)^2 + (4 w se_s / s^3)^2), with dP/da = (B x - C y P) / (1 - y), x = e^{-aB},
    y = e^{-aC}, C = B + G (B G / (2 C) at a = 0).

    >>> goal_probability_se(0.0, 0.01, 1.0, 0.0, 30.0, 10.0)  # 300/80 x 0.02
    0.075
    """
    d_a = _goal_terms(win, sd, bankroll, goal)[1]
    return abs(d_a) * math.hypot(2.0 * win_se / sd ** 2, 4.0 * win * sd_se / sd ** 3)


def bankroll_for_ror(win: float, sd: float, ror: float) -> float | None:
    """The bankroll, in units, whose lifetime :func:`risk_of_ruin` is ``ror`` (0 < ror <
    1): B = -s^2 ln(ror) / (2 w) (the diffusion approximation); None for a ramp that does
    not win (every bankroll is lost in the end).

    >>> round(bankroll_for_ror(0.02, 2.0, math.exp(-1)), 9)
    100.0
    >>> bankroll_for_ror(-0.01, 2.0, 0.05) is None
    True
    """
    return -sd ** 2 * math.log(ror) / (2.0 * win) if win > 0 else None


def bankroll_for_ror_se(value: float, win: float, win_se: float, sd: float,
                        sd_se: float) -> float:
    """:func:`bankroll_for_ror`'s standard error by the delta method (covariance taken as
    0): B = -s^2 ln R / (2 w), so se = B sqrt((se_w / w)^2 + (2 se_s / s)^2).

    >>> bankroll_for_ror_se(100.0, 0.02, 0.002, 2.0, 0.0)
    10.0
    """
    return value * math.hypot(win_se / win, 2.0 * sd_se / sd)


def normal_quantile(p: float) -> float:
    """z with Phi(z) = p (0 < p < 1): bisection on :func:`normal_cdf` to the last bit.

    >>> round(normal_quantile(0.975), 9)
    1.959963985
    """
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if normal_cdf(mid) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
    return 0.5 * (lo + hi)


def rounds_to_confidence(win: float, sd: float, confidence: float) -> float | None:
    """The rounds after which the result is ahead (above 0) with probability
    ``confidence`` (1/2 < confidence < 1), under the normal approximation of the result
    after N rounds (mean w N, SD s sqrt N): Phi(w sqrt N / s) = C, so N = (z_C s / w)^2
    = z_C^2 N0; None for a ramp that does not win.

    >>> round(rounds_to_confidence(0.02, 2.0, normal_cdf(1.0)), 6)  # N0
    10000.0
    """
    return (normal_quantile(confidence) * sd / win) ** 2 if win > 0 else None


def rounds_to_confidence_se(value: float, win: float, win_se: float, sd: float,
                            sd_se: float) -> float:
    """:func:`rounds_to_confidence`'s standard error by the delta method (covariance taken
    as 0), as N0's: se = N sqrt((2 se_w / w)^2 + (2 se_s / s)^2).

    >>> rounds_to_confidence_se(10000.0, 0.02, 0.001, 2.0, 0.0)
    1000.0
    """
    return value * math.hypot(2.0 * win_se / win, 2.0 * sd_se / sd)


@dataclass(frozen=True, slots=True)
class RiskQuestions:
    """What ``count`` is asked beyond the lifetime risk of ruin (``--trip-rounds``,
    ``--trip-hours``, ``--goal``, ``--target-ror``, ``--confidence``); None: not asked.

    >>> RiskQuestions(trip_hours=5.0)
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --trip-hours needs --rounds-per-hour (rounds an hour)
    >>> RiskQuestions(trip_hours=5.0, rounds_per_hour=80.0).trip
    400.0
    """

    trip_rounds: float | None = None
    """The trip's length in rounds."""
    trip_hours: float | None = None
    """The trip's length in hours (with :attr:`rounds_per_hour`)."""
    goal: float | None = None
    """The win goal, units."""
    target_ror: float | None = None
    """The lifetime risk of ruin whose bankroll is asked."""
    confidence: float | None = None
    """The chance of being ahead whose rounds are asked."""
    rounds_per_hour: float | None = None
    """Rounds dealt an hour, for the trip in hours and the hours to the confidence."""

    def __post_init__(self) -> None:
        def positive(flag: str, value: float | None, what: str) -> None:
            if value is not None and not (math.isfinite(value) and value > 0):
                raise InputError(f"{flag} must be a positive number of {what}, not {value:g}")

        positive("--trip-rounds", self.trip_rounds, "rounds")
        positive("--trip-hours", self.trip_hours, "hours")
        positive("--goal", self.goal, "units")
        positive("--rounds-per-hour", self.rounds_per_hour, "rounds")
        if self.trip_rounds is not None and self.trip_hours is not None:
            raise InputError("give the trip's length once: --trip-rounds or --trip-hours")
        if self.trip_hours is not None and self.rounds_per_hour is None:
            raise InputError("--trip-hours needs --rounds-per-hour (rounds an hour)")
        if self.target_ror is not None and not 0 < self.target_ror < 1:
            raise InputError(f"--target-ror is a chance strictly between 0 and 1, not"
                             f" {self.target_ror:g}")
        if self.confidence is not None and not 0.5 < self.confidence < 1:
            raise InputError(f"--confidence is a chance strictly between 0.5 and 1 (a winning"
                             f" ramp is ahead more often than not after any number of"
                             f" rounds), not {self.confidence:g}")

    @property
    def trip(self) -> float | None:
        """The trip's length in rounds (None: no trip asked)."""
        if self.trip_hours is not None and self.rounds_per_hour is not None:
            return self.trip_hours * self.rounds_per_hour
        return self.trip_rounds

    @property
    def asked(self) -> bool:
        """Whether any question is asked."""
        return (self.trip is not None or self.goal is not None or self.target_ror is not None
                or self.confidence is not None)

    @property
    def need_bankroll(self) -> str | None:
        """The first flag asked that needs a bankroll (trip and goal), else None."""
        if self.trip_rounds is not None:
            return "--trip-rounds"
        if self.trip_hours is not None:
            return "--trip-hours"
        return "--goal" if self.goal is not None else None


@dataclass(frozen=True, slots=True)
class RiskAnswer:
    """One answer of :func:`risk_answers`: its value (None: none exists, see ``reason``)
    and its standard error by the delta method (None where the win rate's or the SD's is
    unknown, or there is no value)."""

    value: float | None
    se: float | None = None
    reason: str | None = None
    """Why there is no value."""


@dataclass(frozen=True, slots=True)
class RiskAnswers:
    """:func:`risk_answers`: each None when not asked. Units: chances, units of bankroll,
    rounds, hours."""

    questions: RiskQuestions
    """What was asked."""
    trip_risk_of_ruin: RiskAnswer | None = None
    goal_probability: RiskAnswer | None = None
    bankroll_for_target_ror: RiskAnswer | None = None
    rounds_to_confidence: RiskAnswer | None = None
    hours_to_confidence: RiskAnswer | None = None

    @property
    def trip_rounds(self) -> float | None:
        """The trip asked, in rounds (None: none)."""
        return self.questions.trip


NOT_WINNING = "the ramp does not win (win rate <= 0)"
"""Why a question with no answer for a ramp that does not win has none."""


def risk_answers(questions: RiskQuestions, win: float, sd: float, bankroll: float | None,
                 win_se: float | None = None, sd_se: float | None = None) -> RiskAnswers:
    """The answers to ``questions`` for a ramp winning ``win`` with SD ``sd`` per round
    (units; ``sd > 0``), standard errors from ``win_se`` and ``sd_se`` (delta method,
    covariance 0) when both are finite; ``bankroll`` needed for the trip and the goal.

    >>> a = risk_answers(RiskQuestions(goal=100.0, target_ror=math.exp(-1)), 0.02, 2.0, 100.0)
    >>> round(a.goal_probability.value, 6), round(a.bankroll_for_target_ror.value, 6)
    (0.731059, 100.0)
    """
    if not (math.isfinite(sd) and sd > 0):
        raise InputError("the ramp's result has no variance: no risk figures")
    known = (win_se is not None and sd_se is not None and math.isfinite(win_se)
             and math.isfinite(sd_se))
    w_se, s_se = (win_se, sd_se) if known else (0.0, 0.0)
    assert w_se is not None and s_se is not None

    def needs_bankroll() -> float:
        if bankroll is None:
            raise InputError(f"{questions.need_bankroll} needs --bankroll (units)")
        return bankroll

    trip = questions.trip
    trip_ror = goal = target = rounds = hours = None
    if trip is not None:
        bank = needs_bankroll()
        trip_ror = RiskAnswer(trip_risk_of_ruin(win, sd, bank, trip), trip_risk_of_ruin_se(
            win, w_se, sd, s_se, bank, trip) if known else None)
    if questions.goal is not None:
        bank = needs_bankroll()
        goal = RiskAnswer(goal_probability(win, sd, bank, questions.goal),
                          goal_probability_se(win, w_se, sd, s_se, bank, questions.goal)
                          if known else None)
    if questions.target_ror is not None:
        b = bankroll_for_ror(win, sd, questions.target_ror)
        target = (RiskAnswer(None, reason=NOT_WINNING) if b is None else RiskAnswer(
            b, bankroll_for_ror_se(b, win, w_se, sd, s_se) if known else None))
    if questions.confidence is not None:
        n = rounds_to_confidence(win, sd, questions.confidence)
        rounds = (RiskAnswer(None, reason=NOT_WINNING) if n is None else RiskAnswer(
            n, rounds_to_confidence_se(n, win, w_se, sd, s_se) if known else None))
        per_hour = questions.rounds_per_hour
        hours = (RiskAnswer(None, reason="no --rounds-per-hour") if per_hour is None
                 else rounds if rounds.value is None else RiskAnswer(
                     rounds.value / per_hour, None if rounds.se is None
                     else rounds.se / per_hour))
    return RiskAnswers(questions, trip_ror, goal, target, rounds, hours)


def unanswered(questions: RiskQuestions, reason: str) -> RiskAnswers:
    """:class:`RiskAnswers` with every question asked unanswered for ``reason``.

    >>> unanswered(RiskQuestions(goal=5.0), "no SD").goal_probability
    RiskAnswer(value=None, se=None, reason='no SD')
    """
    none = RiskAnswer(None, reason=reason)
    return RiskAnswers(questions, none if questions.trip is not None else None,
                       none if questions.goal is not None else None,
                       none if questions.target_ror is not None else None,
                       none if questions.confidence is not None else None,
                       none if questions.confidence is not None else None)
