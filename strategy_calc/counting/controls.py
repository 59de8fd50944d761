"""Control variates of a shoe with exactly known means, for ``count --method stratified``.

A shuffled shoe is a uniformly random order of its cards, so the running count after the
first ``k`` cards (every card's tag, seen or burnt) is the sum of the tags of a random
``k``-subset of the shoe: a multivariate hypergeometric sum whose distribution
:func:`count_distribution` gives exactly. Any function of the count along the shoe then
has an exactly computable mean. :class:`BetControls` takes four such functions, summed
over the positions every shoe deals past (before the cut card's farthest place): the bet
the ramp would place at that count, the bet times the count, the squared bet and the
count. A shoe's win under the ramp moves with them (a shoe whose count climbs wins more),
so their deviations from their known means carry most of the shoe-to-shoe noise of a
survey, which the regression estimator then removes (docs/MODEL.md "Two-phase
estimation").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import hypergeom  # type: ignore[import-untyped, unused-ignore]

from strategy_calc.cards import SUITS, Card, Rank
from strategy_calc.counting.counter import BlackjackCounter, Spread

SCALE = 2
"""Tags are whole or half numbers: doubled, they are integers."""


def count_distribution(tags: Sequence[int], last: int) -> tuple[np.ndarray, int]:
    """P[k, s]: the chance that the first ``k`` cards (``k`` = 0 .. ``last``) of a uniformly
    shuffled shoe whose cards carry the integer ``tags`` have tags summing to ``s - low``,
    and ``low`` (the least sum).

    Class by class (the cards of one tag value): with ``M`` cards of the classes so far,
    ``m`` of them of the new class, P_new[k, s] = sum over j of H(j; M, m, k) P_old[k - j,
    s - t j], H the hypergeometric chance of j of the m among k of the M (a random k-subset
    of M cards holds j of the class and a random (k - j)-subset of the others).

    >>> p, low = count_distribution([1, 1, -1, 0], 2)  # two +1s, a -1 and a 0
    >>> low, [round(float(x), 6) for x in p[1]]  # one card: -1, 0, +1 with 1/4, 1/4, 1/2
    (-1, [0.25, 0.25, 0.5, 0.0])
    >>> [round(float(x), 6) for x in p[2]]  # two of six pairs: {-1,0}, {-1,1} x2, {0,1} x2, {1,1}
    [0.166667, 0.333333, 0.333333, 0.166667]
    """
    values: dict[int, int] = {}
    for t in tags:
        values[t] = values.get(t, 0) + 1
    low = sum(min(t, 0) * m for t, m in values.items())
    width = sum(abs(t) * m for t, m in values.items()) + 1
    dp = np.zeros((last + 1, width))
    dp[0, -low] = 1.0
    cards = 0
    for t, m in sorted(values.items()):
        cards += m
        new = np.zeros_like(dp)
        ks = np.arange(last + 1)
        for j in range(min(m, last) + 1):
            h = np.nan_to_num(hypergeom.pmf(j, cards, m, ks[j:]))  # (k > cards: none)
            shift = t * j
            src = dp[:last + 1 - j]
            if shift >= 0:
                new[j:, shift:] += h[:, None] * src[:, :width - shift]
            else:
                new[j:, :width + shift] += h[:, None] * src[:, -shift:]
        dp = new
    return dp, low


@dataclass(frozen=True, slots=True)
class BetControls:
    """The four controls of one shoe (module doc): over the positions ``k = 0 ..
    last`` (cards already out), with ``c`` the count the counter would key a bet by
    after those cards (:meth:`BlackjackCounter.key_count` of the running count, all
    ``k`` cards counted) and ``b`` the ramp's bet at ``c``: the sums of b, b c, b^2 and c."""

    counter: BlackjackCounter
    spread: Spread
    last: int

    def __call__(self, tags: np.ndarray) -> tuple[float, ...]:
        """The sums for one shoe from its cards' tags in dealing order (each added in turn,
        as the counter's tally adds them)."""
        counter, last = self.counter, self.last
        start = float(counter.system.initial_running_count(counter.rules.finite_decks("count")))
        running = np.cumsum(np.concatenate(([start], tags[:last])))
        c = counter.key_counts(running, len(tags) - np.arange(last + 1))
        b = self.spread.bets(c)
        return tuple(float(np.cumsum(x)[-1]) for x in (b, b * c, b * b, c))

    def means(self) -> np.ndarray:
        """The controls' exact means over the shuffles (:func:`count_distribution`)."""
        counter, spread = self.counter, self.spread
        counts = counter.start().counts
        cards = [Card(rank, SUITS[k % 4]) for rank in Rank for k in range(counts[rank - 1])]
        tags = [counter.system.tag_card(c) * SCALE for c in cards]
        if any(t != round(t) for t in tags):
            raise ValueError("a tag that is not a whole or half number")
        p, low = count_distribution([round(t) for t in tags], self.last)
        n = len(cards)
        start = counter.system.initial_running_count(counter.rules.finite_decks("count"))
        out = np.zeros(4)
        for k in range(self.last + 1):
            row = p[k]
            where = np.flatnonzero(row > 0)
            c = np.array([counter.key_count(start + (s + low) / SCALE, n - k, "exact")
                          for s in where.tolist()])
            b = np.array([spread.bet(x) for x in c.tolist()])
            w = row[where]
            out += [float(w @ b), float(w @ (b * c)), float(w @ (b * b)), float(w @ c)]
        return out


def shoe_controls(counter: BlackjackCounter, spread: Spread | None) -> BetControls | None:
    """The controls of a run's shoes, or None where they do not apply: no ramp, or a
    continuous shuffler (no shoe to follow)."""
    procedure = counter.shoe_procedure
    if spread is None or procedure.shuffle != "cut_card":
        return None
    last = counter.start().total - procedure.cut_card_from_end[1] - 1
    return BetControls(counter, spread, last) if last >= 1 else None


def regression_estimate(sums: np.ndarray, rounds: np.ndarray, x: np.ndarray | None,
                        mean: np.ndarray | None) -> tuple[float, np.ndarray]:
    """The ratio ``sum(sums) / sum(rounds)`` over independent shoes adjusted by the
    controls ``x`` (a row a shoe) with known ``mean``: (sum(sums) - beta . sum(x - mean)) /
    sum(rounds), beta the least-squares slope of the shoes' ratio residuals on their
    controls' deviations; and each shoe's residual (for the standard error: its variance
    over the shoes, divided by the shoes and the squared mean rounds a shoe). Without
    controls, the plain ratio and its residuals.

    >>> rounds = np.array([10.0, 10.0, 10.0, 10.0])
    >>> sums = np.array([1.0, 2.0, 3.0, 4.0]); x = sums[:, None] + 5  # a perfect control
    >>> value, resid = regression_estimate(sums, rounds, x, np.array([7.0]))
    >>> round(value, 12), bool(np.abs(resid).max() < 1e-12)  # the mean of x is known: 7 - 5
    (0.2, True)
    """
    ratio = float(sums.sum() / rounds.sum())
    resid = sums - ratio * rounds
    if x is None or mean is None or len(sums) <= x.shape[1] + 1:
        return ratio, resid
    d = x - mean
    centred = d - d.mean(axis=0)
    beta, *_ = np.linalg.lstsq(centred, resid - resid.mean(), rcond=None)
    value = float((sums.sum() - beta @ d.sum(axis=0)) / rounds.sum())
    return value, sums - value * rounds - d @ beta


def ratio_se(resid: np.ndarray, rounds: np.ndarray) -> float:
    """The standard error of a ratio over ``len(resid)`` independent shoes from its
    residuals (:func:`regression_estimate`)."""
    k = len(resid)
    if k < 2:
        return math.nan
    return math.sqrt(float(((resid - resid.mean()) ** 2).sum()) / (k * (k - 1))) / float(
        rounds.mean())
