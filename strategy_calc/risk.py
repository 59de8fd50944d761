"""Risk: the exact distribution of a round's result, and what it means for a bankroll.

The round distribution comes from :func:`strategy_calc.strategy.analyse_game`
(exact enumeration; split rounds enumerate both hands and the dealer jointly).
From it, for a flat bettor with a bankroll of ``B`` units over ``N`` rounds:

- *exact*: the result after ``N`` rounds is the ``N``-fold convolution of the
  round distribution; the risk of ruin (the bankroll reaching 0 or less at
  some point within the ``N`` rounds) is a dynamic programme over the bankroll
  with ruin absorbing;
- *normal approximation* (``scipy.stats``): the result after ``N`` rounds is
  normal with mean ``N mu`` and standard deviation ``sqrt(N) sigma``; the risk
  of ruin is the first-passage probability of a Brownian motion with that
  drift and variance, ``Phi((-B - mu N) / (sigma sqrt N)) + exp(-2 mu B /
  sigma^2) Phi((-B + mu N) / (sigma sqrt N))``.

Units are the initial bet throughout.

>>> from strategy_calc.risk import summarise
>>> s = summarise({-1.0: 0.5, 1.0: 0.5}, bankroll=1, rounds=1)
>>> s.mean, s.sd, s.risk_of_ruin
(0.0, 1.0, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import reduce

import numpy as np

from strategy_calc.actions import Strategy
from strategy_calc.cards import Shoe
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules, RulesError
from strategy_calc.strategy import analyse_game


@dataclass(frozen=True, slots=True)
class RiskSummary:
    """What a round distribution means for a flat bettor.

    ``mean``/``sd`` per round; ``risk_of_ruin``: exact probability that the
    bankroll falls to 0 or less within ``rounds`` rounds (``_normal``: the
    Brownian approximation); ``loss_probability``: P(behind after ``rounds``),
    exact and normal; ``quantiles``: result after ``rounds`` at 5/25/50/75/95%.
    """

    outcomes: Mapping[float, float]
    mean: float
    sd: float
    bankroll: float
    rounds: int
    risk_of_ruin: float
    risk_of_ruin_normal: float
    loss_probability: float
    loss_probability_normal: float
    quantiles: Mapping[str, float]
    quantiles_normal: Mapping[str, float]


QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def _grid(outcomes: Mapping[float, float]) -> tuple[float, int, np.ndarray]:
    """The outcomes on an integer lattice: (step, index of the lowest outcome, probabilities)."""
    cents = {round(x * 100): p for x, p in outcomes.items() if p > 0}
    step = reduce(math.gcd, (abs(c) for c in cents if c), 0) or 100
    low = min(cents) // step
    probs = np.zeros(max(cents) // step - low + 1)
    for c, p in cents.items():
        probs[c // step - low] += p
    return step / 100.0, low, probs


def summarise(outcomes: Mapping[float, float], bankroll: float, rounds: int) -> RiskSummary:
    """Risk figures of a round distribution for ``bankroll`` units over ``rounds`` rounds."""
    from scipy import stats  # type: ignore[import-untyped, unused-ignore]

    if rounds < 1:
        raise InputError(f"rounds must be at least 1, not {rounds}")
    if bankroll <= 0:
        raise InputError(f"bankroll must be positive, not {bankroll}")
    xs = np.array(list(outcomes))
    ps = np.array(list(outcomes.values()))
    mean = float(xs @ ps)
    sd = float(math.sqrt(max(float((xs - mean) ** 2 @ ps), 0.0)))
    step, low, probs = _grid(outcomes)

    # exact: ruin dynamic programme; wealth index w means bankroll + w*step... kept as
    # offsets from the start in lattice steps; ruined mass is removed each round
    ruin_level = -math.ceil(bankroll / step - 1e-12)  # offsets <= this are ruin
    alive = np.array([1.0])
    alive_low = 0  # lattice offset of alive[0]
    ruined = 0.0
    for _ in range(rounds):
        alive = np.convolve(alive, probs)
        alive_low += low
        cut = ruin_level - alive_low + 1  # entries below ``cut`` are ruined
        if cut > 0:
            ruined += float(alive[:cut].sum())
            alive = alive[cut:]
            alive_low += cut
    # exact: the unabsorbed result after ``rounds`` (for quantiles and losses)
    total, offsets, quantiles = _after(probs, low, step, rounds)
    loss = float(total[np.flatnonzero(offsets < -1e-12)].sum())

    n_mean, n_sd = mean * rounds, sd * math.sqrt(rounds)
    normal = stats.norm(n_mean, n_sd)
    quantiles_normal = {f"{int(q * 100)}%": float(normal.ppf(q)) for q in QUANTILES}
    ror_normal = float(stats.norm.cdf((-bankroll - n_mean) / n_sd))
    if mean != 0.0:
        ror_normal += float(math.exp(-2 * mean * bankroll / sd**2)
                            * stats.norm.cdf((-bankroll + n_mean) / n_sd))
    else:
        ror_normal *= 2
    return RiskSummary(
        outcomes=dict(outcomes), mean=mean, sd=sd, bankroll=bankroll, rounds=rounds,
        risk_of_ruin=min(ruined, 1.0), risk_of_ruin_normal=min(ror_normal, 1.0),
        loss_probability=loss, loss_probability_normal=float(normal.cdf(0.0)),
        quantiles=quantiles, quantiles_normal=quantiles_normal,
    )


def _power(probs: np.ndarray, n: int) -> np.ndarray:
    """The ``n``-fold convolution of ``probs`` (by repeated squaring, FFT when large)."""
    from scipy.signal import fftconvolve  # type: ignore[import-untyped, unused-ignore]

    def conv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.convolve(a, b) if min(a.size, b.size) < 64 else fftconvolve(a, b)
        clipped: np.ndarray = np.clip(np.asarray(out, dtype=float), 0.0, None)
        return clipped

    result = np.array([1.0])
    base = probs
    while n:
        if n & 1:
            result = conv(result, base)
        n >>= 1
        if n:
            base = conv(base, base)
    normalised: np.ndarray = result / result.sum()
    return normalised


def round_outcomes(
    rules: BlackjackRules, strategy: Strategy | str,
    progress: Callable[[int, int], None] | None = None, split_strategy: str = "cdp1",
    shoe: Shoe | None = None,
) -> tuple[Mapping[float, float], float]:
    """Exact distribution of a round's net result and the game's EV under ``strategy``.

    ``strategy``: :attr:`Strategy.OPTIMAL` (best composition-dependent play)
    or :attr:`Strategy.BASIC` (the chart). Its mean equals that EV (the tests
    check 1e-12). ``split_strategy``: ``cdp1``, ``cdp`` (the same: one split) or ``cdz``
    (optimal play's split hands).
    """
    try:
        chosen = Strategy(strategy)
    except ValueError:
        chosen = None
    if chosen not in (Strategy.OPTIMAL, Strategy.BASIC):
        raise RulesError(f"unknown strategy {strategy!r} for risk (optimal or basic)")
    game = analyse_game(rules, progress, shoe=shoe, distribution=True,
                        split_strategy=split_strategy)
    optimal = chosen is Strategy.OPTIMAL
    outcomes = game.outcomes_optimal if optimal else game.outcomes_basic
    assert outcomes is not None
    return outcomes, game.ev_optimal if optimal else game.ev_basic


def path_quantiles(
    outcomes: Mapping[float, float], rounds: int, points: int = 20
) -> list[tuple[int, dict[str, float]]]:
    """The result after ``n`` rounds at the :data:`QUANTILES`, for ``points`` values of
    ``n`` spread over 1..``rounds`` (exact: convolution powers of the round distribution,
    ruin not absorbed)."""
    step, low, probs = _grid(outcomes)
    checkpoints = sorted({max(1, round(rounds * k / points)) for k in range(1, points + 1)})
    return [(n, _after(probs, low, step, n)[2]) for n in checkpoints]


def _after(
    probs: np.ndarray, low: int, step: float, n: int
) -> tuple[np.ndarray, np.ndarray, dict[str, float]]:
    """The result after ``n`` rounds on the lattice of :func:`_grid`: (probabilities,
    results in units, the results at the :data:`QUANTILES`)."""
    total = _power(probs, n)
    offsets = (np.arange(total.size) + low * n) * step
    cdf = np.cumsum(total)
    quantiles = {f"{int(q * 100)}%": float(offsets[min(int(np.searchsorted(cdf, q)),
                                                       cdf.size - 1)]) for q in QUANTILES}
    return total, offsets, quantiles
