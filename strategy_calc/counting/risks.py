"""The risks a counter asks of a bet ramp beyond its lifetime risk of ruin
(:func:`strategy_calc.counting.ramps.risk_of_ruin`): the risk of ruin within a trip, the
chance to reach a win goal before losing the bankroll, the bankroll for a target risk of
ruin, and the rounds (hours) to be ahead with a given confidence (Schlesinger,
*Blackjack Attack*, 3rd ed., ch. 8; CVCX's risk figures). ``count --trip-rounds``,
``--trip-hours``, ``--goal``, ``--target-ror``, ``--confidence``.

Each is the *diffusion approximation*: the bankroll's path is a Brownian motion with
drift ``w`` and SD ``s`` per round (the ramp's win and SD per round, units), so after t
rounds the result is normal with mean w t and variance s^2 t, continuous in t. A real
bankroll moves in jumps of whole bets whose size follows the count: the approximation is
poor for trips of few rounds (tens, where a few bets decide) and for bankrolls or goals
of a few of the ramp's largest bets.

>>> answers = risk_answers(RiskQuestions(trip_rounds=1e9, confidence=0.975), 0.02, 2.0, 100.0)
>>> round(answers.trip_risk_of_ruin.value, 6), round(answers.rounds_to_confidence.value)
(0.367879, 38415)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from strategy_calc.blackjack.risk import log_ruin_terms
from strategy_calc.errors import InputError


def trip_risk_of_ruin(win: float, sd: float, bankroll: float, rounds: float) -> float:
    """The chance of losing a bankroll of ``bankroll`` units at some time within a trip of
    ``rounds`` rounds (``rounds > 0``), under the diffusion approximation (the result
    after t rounds a Brownian motion with drift ``win`` and SD ``sd`` per round, units):

        P(min over [0, N] of X_t <= -B) = Phi((-B - w N) / (s sqrt N))
                                          + exp(-2 w B / s^2) Phi((-B + w N) / (s sqrt N)).

    Derivation (X_N ~ N(w N, s^2 N)). A ruined path either ends below -B, chance
    Phi((-B - w N) / (s sqrt N)), or hits -B and ends at some x > -B. Reflect the latter
    after its first passage (strong Markov property): it ends at y = -2B - x < -B. The
    path's density is a driftless path's times exp(w X_N / s^2 - w^2 N / (2 s^2)), and the
    reflection keeps the driftless density, so P(ruined, X_N in dx) = P(X_N in dy) x
    exp(w (x - y) / s^2) = P(X_N in dy) exp(-2 w (y + B) / s^2). Summed over y < -B:
    exp(-2 w B / s^2) E[exp(-2 w X_N / s^2); X_N < -B]; the factor exp(-2 w X_N / s^2)
    has mean 1 and tilts N(w N, s^2 N) to N(-w N, s^2 N), so that is exp(-2 w B / s^2)
    Phi((-B + w N) / (s sqrt N)). At w = 0 the two terms are equal (the reflection
    principle, 2 P(X_N <= -B)). As N grows the sum tends to the lifetime risk of ruin
    exp(-2 w B / s^2) (w > 0; :func:`strategy_calc.counting.ramps.risk_of_ruin`), to 1
    (w <= 0).

    The figure is :func:`strategy_calc.blackjack.risk.log_ruin_terms`' (the formula's one
    home, summed there in logs: no overflow of exp(-2 w B / s^2) when w < 0).

    >>> round(trip_risk_of_ruin(0.0, 1.0, 10.0, 100.0), 6)  # 2 Phi(-1)
    0.317311
    >>> round(trip_risk_of_ruin(0.02, 2.0, 100.0, 1e9), 6)  # exp(-1), the lifetime figure
    0.367879
    """
    direct, reflected = log_ruin_terms(win, sd, bankroll, rounds)
    return min(1.0, math.exp(direct) + math.exp(reflected))


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
    reflected = math.exp(log_ruin_terms(win, sd, bankroll, rounds)[1])
    u = (-bankroll - win * rounds) / (sd * math.sqrt(rounds))
    d_w = -2.0 * bankroll / sd ** 2 * reflected
    density = math.exp(-0.5 * u * u) / math.sqrt(2.0 * math.pi)  # phi(u)
    d_s = (2.0 * bankroll * density / (sd ** 2 * math.sqrt(rounds))
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
    """The bankroll, in units, whose lifetime risk of ruin exp(-2 w B / s^2)
    (:func:`strategy_calc.counting.ramps.risk_of_ruin`) is ``ror`` (0 < ror < 1): B = -s^2
    ln(ror) / (2 w) (the diffusion approximation); None for a ramp that does not win
    (every bankroll is lost in the end).

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


def rounds_to_confidence(win: float, sd: float, confidence: float) -> float | None:
    """The rounds after which the result is ahead (above 0) with probability
    ``confidence`` (1/2 < confidence < 1), under the normal approximation of the result
    after N rounds (mean w N, SD s sqrt N): Phi(w sqrt N / s) = C, so N = (z_C s / w)^2
    = z_C^2 N0; None for a ramp that does not win.

    >>> round(rounds_to_confidence(0.02, 2.0, 0.975))  # (1.959964 x 100)^2
    38415
    """
    from scipy import stats  # type: ignore[import-untyped, unused-ignore]

    z = float(stats.norm.ppf(confidence))
    return (z * sd / win) ** 2 if win > 0 else None


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
