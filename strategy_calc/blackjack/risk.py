"""Risk: the exact distribution of a round's result, and what it means for a bankroll.

The round distribution comes from :func:`strategy_calc.blackjack.game_analysis.analyse_game`
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

>>> from strategy_calc.blackjack.risk import summarise
>>> s = summarise({-1.0: 0.5, 1.0: 0.5}, bankroll=1, rounds=1)
>>> s.mean, s.sd, s.risk_of_ruin
(0.0, 1.0, 0.5)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import reduce

import numpy as np

from strategy_calc.actions import Strategy
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.cards import Shoe
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules, RulesError


class RiskStrategy(StrEnum):
    """The plays whose round distribution is computed (the value is ``risk --strategy``'s
    word; each is also a :class:`~strategy_calc.actions.Strategy`).

    >>> Strategy(RiskStrategy.BASIC), RiskStrategy("optimal") == "optimal"
    (<Strategy.BASIC: 'basic'>, True)
    """

    OPTIMAL = "optimal"
    """Each initial hand's best composition-dependent play."""
    BASIC = "basic"
    """The basic-strategy chart."""


@dataclass(frozen=True, slots=True)
class RiskSummary:
    """What a round distribution means for a flat bettor.

    ``mean``/``sd`` per round; ``risk_of_ruin``: exact probability that the
    bankroll falls to 0 or less within ``rounds`` rounds (``_normal``: the
    Brownian approximation); ``loss_probability``: P(behind after ``rounds``),
    exact and normal; ``quantiles``: result after ``rounds`` at 5/25/50/75/95%.
    With resplits (:func:`summarise_moments`) the round's distribution is not
    enumerated: ``outcomes`` and the exact figures are None, ``mean`` and ``sd`` are
    exact, and the normal figures come from them.
    """

    outcomes: Mapping[float, float] | None
    mean: float
    sd: float
    bankroll: float
    rounds: int
    risk_of_ruin: float | None
    risk_of_ruin_normal: float
    log10_risk_of_ruin_normal: float
    """``log10`` of the normal approximation's risk, computed in logs: finite where the
    risk itself is below the smallest double (and so 0); ``-inf`` when the risk is 0
    or when even its log is below the double range (about ``-1.8e308``: a bankroll near
    1e308 over a few rounds)."""
    loss_probability: float | None
    loss_probability_normal: float
    quantiles: Mapping[str, float] | None
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
    """Risk figures of a round distribution for ``bankroll`` units over ``rounds`` rounds.

    Any finite positive bankroll works: one that ``rounds`` rounds of the worst result
    cannot exhaust has an exact risk of 0 (no dynamic programme is run), and the normal
    approximation is summed in logs, so a huge bankroll gives 0 and its log, not an
    overflow. With a win of 1 or a loss of 1 each half the time, a bankroll of a million
    over 10 rounds is never ruined, and the normal risk is 0 with a finite log:

    >>> s = summarise({-1.0: 0.5, 1.0: 0.5}, bankroll=1e6, rounds=10)
    >>> s.risk_of_ruin, s.risk_of_ruin_normal, f"{s.log10_risk_of_ruin_normal:.5g}"
    (0.0, 0.0, '-2.1715e+10')

    (By hand: ``2 Phi(-B / sqrt N)`` with ``B / sqrt N = 316,228``; ``log Phi(-x)`` is
    about ``-x^2 / 2``, so ``log10`` is about ``-1e11 / 2 / ln 10 = -2.1715e10``.)
    """
    _check_bankroll(bankroll, rounds)
    xs = np.array(list(outcomes))
    ps = np.array(list(outcomes.values()))
    mean = float(xs @ ps)
    sd = float(math.sqrt(max(float((xs - mean) ** 2 @ ps), 0.0)))
    step, low, probs = _grid(outcomes)

    # exact: ruin dynamic programme; wealth index w means bankroll + w*step... kept as
    # offsets from the start in lattice steps; ruined mass is removed each round
    ruined = 0.0
    # the worst a run can do is ``rounds`` times the lowest result (``low`` steps): a
    # bankroll beyond that is never ruined, and skipping the programme keeps a huge
    # bankroll out of integer arithmetic
    steps_to_ruin = bankroll / step - 1e-12
    reachable = steps_to_ruin < -low * rounds
    ruin_level = -math.ceil(steps_to_ruin) if reachable else 0  # offsets <= this are ruin
    alive = np.array([1.0])
    alive_low = 0  # lattice offset of alive[0]
    for _ in range(rounds if reachable else 0):
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

    return replace(_normal_summary(mean, sd, bankroll, rounds), outcomes=dict(outcomes),
                   risk_of_ruin=min(ruined, 1.0), loss_probability=loss, quantiles=quantiles)


def _check_bankroll(bankroll: float, rounds: int) -> None:
    """One ``InputError`` unless ``rounds`` is at least 1 and ``bankroll`` positive, finite."""
    if rounds < 1:
        raise InputError(f"rounds must be at least 1, not {rounds}")
    if not (math.isfinite(bankroll) and bankroll > 0):
        raise InputError(f"bankroll must be a positive finite number, not {bankroll}")


def summarise_moments(mean: float, second_moment: float, bankroll: float,
                      rounds: int) -> RiskSummary:
    """The figures of :func:`summarise` that a round's mean and second moment give (the
    normal approximation's), the exact ones None: for rounds whose distribution is not
    enumerated (resplits; :func:`round_moments`).

    >>> s = summarise_moments(0.0, 1.0, bankroll=1, rounds=1)
    >>> s.sd, s.risk_of_ruin, round(s.risk_of_ruin_normal, 6)  # 2 Phi(-1)
    (1.0, None, 0.317311)
    """
    _check_bankroll(bankroll, rounds)
    return _normal_summary(mean, math.sqrt(max(second_moment - mean * mean, 0.0)), bankroll,
                           rounds)


def _normal_summary(mean: float, sd: float, bankroll: float, rounds: int) -> RiskSummary:
    """:func:`summarise_moments` from the round's mean and standard deviation."""
    from scipy import stats  # type: ignore[import-untyped, unused-ignore]

    n_mean, n_sd = mean * rounds, sd * math.sqrt(rounds)
    normal = stats.norm(n_mean, n_sd)
    quantiles_normal = {f"{int(q * 100)}%": float(normal.ppf(q)) for q in QUANTILES}
    log_ror = _log_ruin_normal(mean, sd, bankroll, rounds)
    ror_normal = math.exp(log_ror)  # (exp(-inf) is 0.0)
    return RiskSummary(
        outcomes=None, mean=mean, sd=sd, bankroll=bankroll, rounds=rounds,
        risk_of_ruin=None, risk_of_ruin_normal=min(ror_normal, 1.0),
        log10_risk_of_ruin_normal=min(log_ror / math.log(10), 0.0),
        loss_probability=None, loss_probability_normal=float(normal.cdf(0.0)),
        quantiles=None, quantiles_normal=quantiles_normal,
    )


def _log_ruin_normal(mean: float, sd: float, bankroll: float, rounds: int) -> float:
    """Natural log of the Brownian first-passage risk of the module docstring,
    ``Phi(a) + exp(c) Phi(b)`` (:func:`log_ruin_terms`), summed in logs. With ``sigma =
    0`` the result is fixed: ruin iff ``mu N <= -B``.

    >>> round(math.exp(_log_ruin_normal(0.0, 1.0, 1.0, 1)), 6)  # 2 Phi(-1)
    0.317311
    """
    if sd == 0.0:
        return 0.0 if mean * rounds <= -bankroll else -math.inf
    first, second = log_ruin_terms(mean, sd, bankroll, rounds)
    return float(np.logaddexp(first, second))


def log_ruin_terms(mean: float, sd: float, bankroll: float, rounds: float
                   ) -> tuple[float, float]:
    """The natural logs of the two terms of the Brownian first-passage risk of the module
    docstring (the chance that a Brownian motion with drift ``mean`` and SD ``sd`` per
    round, from 0, reaches ``-bankroll`` within ``rounds`` rounds; ``sd > 0``,
    ``rounds > 0``, not necessarily whole): ``log Phi(a)``, the paths that end below
    ``-B``, and ``c + log Phi(b)``, the ruined paths that end above it (the reflected
    ones), with ``a = (-B - mu N) / (sigma sqrt N)``, ``b = (-B + mu N) / (sigma sqrt
    N)``, ``c = -2 mu B / sigma^2``. In logs (``log Phi`` by scipy's ``logcdf``): ``c``
    overflows ``exp`` for a losing game and a large bankroll while ``exp(c) Phi(b)``
    stays below 1. With ``mu = 0`` the two terms are equal.

    >>> [round(math.exp(t), 6) for t in log_ruin_terms(0.0, 1.0, 1.0, 1)]  # Phi(-1) each
    [0.158655, 0.158655]
    """
    from scipy import stats  # type: ignore[import-untyped, unused-ignore]

    n_mean, n_sd = mean * rounds, sd * math.sqrt(rounds)
    first = float(stats.norm.logcdf((-bankroll - n_mean) / n_sd))
    if mean == 0.0:
        return first, first
    return first, (-2 * mean * bankroll / sd**2
                   + float(stats.norm.logcdf((-bankroll + n_mean) / n_sd)))


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
    check 1e-12). ``split_strategy``: ``cdp1``, ``cdp`` or ``cdp-hands`` (the same: one
    split) or ``cdz`` (optimal play's split hands).
    """
    optimal = _risk_strategy(strategy) is Strategy.OPTIMAL
    game = analyse_game(rules, progress, shoe=shoe, distribution=True,
                        split_strategy=split_strategy)
    outcomes = game.outcomes_optimal if optimal else game.outcomes_basic
    assert outcomes is not None
    return outcomes, game.ev_optimal if optimal else game.ev_basic


def round_moments(
    rules: BlackjackRules, strategy: Strategy | str,
    progress: Callable[[int, int], None] | None = None, split_strategy: str = "cdp1",
    shoe: Shoe | None = None,
) -> tuple[float, float, float]:
    """``(E[X], E[X^2], the game's EV)`` of a round under ``strategy``, exactly, resplits
    included (:func:`strategy_calc.blackjack.distributions.round_moments`); E[X] is that EV (the
    tests check 1e-12). ``split_strategy``: ``cdp1`` or ``cdz`` with resplits."""
    optimal = _risk_strategy(strategy) is Strategy.OPTIMAL
    game = analyse_game(rules, progress, shoe=shoe, moments=True, split_strategy=split_strategy)
    moments = game.moments_optimal if optimal else game.moments_basic
    assert moments is not None
    return moments[0], moments[1], game.ev_optimal if optimal else game.ev_basic


def _risk_strategy(strategy: RiskStrategy | Strategy | str) -> Strategy:
    """``strategy`` as :attr:`Strategy.OPTIMAL` or :attr:`Strategy.BASIC`, else an error."""
    try:
        chosen = Strategy(strategy)
    except ValueError:
        chosen = None
    if chosen not in (Strategy.OPTIMAL, Strategy.BASIC):
        raise RulesError(f"unknown strategy {strategy!r} for risk (optimal or basic)")
    return chosen


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
