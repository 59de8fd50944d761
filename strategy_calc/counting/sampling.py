"""Seeded shoes and the standard errors of figures averaged over them (count runs).

*Seeded*: shoe ``i`` of a run with seed ``s`` is shuffled by
``random.Random(f"{s}/{i}")`` whatever worker deals it, so a run's figures do
not depend on ``--jobs`` or the executor.

*Standard errors* are of means over shoes (the rounds of one shoe are
correlated, the shoes are independent): a ratio over shoes uses the delta
method, ``se(sum x / sum n) = sd(x_i - r n_i) / (mean n sqrt(shoes))``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Progress = Callable[[int, int], None] | None
"""A callback ``progress(done, total)`` of a long run, or None."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure estimated from the dealt shoes and its standard error (same units)."""

    value: float
    se: float


def mean_estimate(values: Sequence[float]) -> Estimate:
    """The mean of independent values and its standard error (``sd / sqrt(n)``, ``n - 1``).

    >>> mean_estimate([1.0, 2.0, 3.0])
    Estimate(value=2.0, se=0.5773502691896257)
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, math.sqrt(var / n))


def ratio_estimate(sums: Sequence[float], counts: Sequence[float]) -> Estimate:
    """``sum(sums) / sum(counts)`` over independent shoes and its delta-method standard error.

    >>> ratio_estimate([2.0, 4.0], [1.0, 2.0])  # both shoes have ratio 2: no spread
    Estimate(value=2.0, se=0.0)
    """
    total = math.fsum(counts)
    if total <= 0:
        raise ValueError("nothing to average")
    ratio = math.fsum(sums) / total
    n = len(sums)
    if n == 1:
        return Estimate(ratio, math.nan)
    mean_n = total / n
    resid = [s - ratio * c for s, c in zip(sums, counts, strict=True)]
    var = math.fsum(r * r for r in resid) / (n - 1)
    return Estimate(ratio, math.sqrt(var / n) / mean_n)


def sd_estimate(second: Sequence[float], sampled: Sequence[float], first: Sequence[float],
                counts: Sequence[float]) -> Estimate:
    """SD = sqrt(m2 - m1^2) of a round's result and its delta-method standard error over
    independent shoes: per shoe ``i``, ``second[i]`` sums E[X^2] over its ``sampled[i]``
    rounds with a second moment, ``first[i]`` sums E[X] over all its ``counts[i]``.

    m2 = sum(second) / sum(sampled) and m1 = sum(first) / sum(counts), ratio estimates;
    SD^2 = m2 - m1^2 moves, to first order, by the mean over shoes of psi_i =
    (second_i - m2 sampled_i) / mean(sampled) - 2 m1 (first_i - m1 counts_i) / mean(counts),
    so Var(SD^2) = sum psi_i^2 / (n (n - 1)) and se(SD) = se(SD^2) / (2 SD).

    >>> sd_estimate([4.0, 4.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0])  # every shoe alike
    Estimate(value=2.0, se=0.0)
    """
    n = len(second)
    m2 = math.fsum(second) / math.fsum(sampled)
    m1 = math.fsum(first) / math.fsum(counts)
    var = m2 - m1 * m1
    sd = math.sqrt(max(var, 0.0))
    if n < 2 or sd == 0.0:
        return Estimate(sd, math.nan)
    k_bar, c_bar = math.fsum(sampled) / n, math.fsum(counts) / n
    psi = [(a - m2 * k) / k_bar - 2.0 * m1 * (b - m1 * c) / c_bar
           for a, k, b, c in zip(second, sampled, first, counts, strict=True)]
    return Estimate(sd, math.sqrt(math.fsum(x * x for x in psi) / (n * (n - 1))) / (2.0 * sd))


def shoe_rng(seed: int, index: int) -> random.Random:
    """The random source of shoe ``index`` of a run seeded with ``seed``."""
    return random.Random(f"{seed}/{index}")


def batches(n: int, size: int) -> list[range]:
    """Shoe indices ``0 .. n-1`` in consecutive batches of at most ``size``.

    >>> batches(5, 2)
    [range(0, 2), range(2, 4), range(4, 5)]
    """
    return [range(i, min(i + size, n)) for i in range(0, n, size)]
