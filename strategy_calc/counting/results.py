"""What a counted blackjack run reports (:mod:`strategy_calc.counting.runs` computes them):
values only."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from strategy_calc.counting.counter import BlackjackCounter, Spread, Wong
    from strategy_calc.counting.ramp_constraints import RampConstraints
    from strategy_calc.counting.ramps import CountBucket, OptimalRamp, RampFigures
    from strategy_calc.counting.risks import RiskAnswers
    from strategy_calc.counting.sampling import Estimate
    from strategy_calc.counting.sidebets import SideBetCount
    from strategy_calc.counting.stratified import TwoPhase


@dataclass(frozen=True, slots=True)
class TrueCountRow:
    """Rounds dealt at one true count (floored): their share and mean exact EV.

    >>> TrueCountRow(2, 0.07, 0.0117)
    TrueCountRow(tc=2, frequency=0.07, ev=0.0117)
    """

    tc: int
    frequency: float
    ev: float


@dataclass(frozen=True, slots=True)
class BlackjackCount:
    """The result of :func:`blackjack_count`; EVs per round in units of the initial bet.

    Definitions (Don Schlesinger, *Blackjack Attack*, 3rd ed., ch. 10; the bet
    ramp's win rate ``w`` and SD ``s`` per round, in units), each computed by one
    function of :mod:`strategy_calc.counting.ramps`: ``n0 = (s/w)^2``, the rounds needed
    for the expected win to equal one SD; ``di = 1000 w/s``, the desirability
    index; ``score = di^2 = 10^6 (w/s)^2``, the win per 100 rounds of a player
    with a bankroll of 10,000 units betting the ramp scaled to his optimal
    (Kelly) size; ``risk_of_ruin = exp(-2 w B / s^2)`` for a bankroll of ``B``
    units (the diffusion approximation). Ramp figures are None without a spread.
    """

    counter: BlackjackCounter
    penetration: float
    """The share of the shoe dealt before the cut card (the mean over a range's places)."""
    rounds: int
    shoes: int
    spread: Spread | None
    bankroll: float | None
    ev_per_round: Estimate
    ev_off_the_top: float
    cut_card_effect: Estimate
    by_true_count: tuple[TrueCountRow, ...]
    sd_per_round: float | None
    """SD of a round's result under the ramp (flat bets without one), in units."""
    win_rate_per_round: Estimate | None
    n0: float | None
    score: float | None
    di: float | None
    risk_of_ruin: float | None
    moment_rounds: int
    """Rounds whose exact second moment was computed (the SD comes from them)."""
    sd_per_round_se: float | None = None
    """Standard error of :attr:`sd_per_round` over the shoes (:func:`sd_estimate`): the
    rounds are random, and their second moments a sample of them."""
    one_round_per_shuffle: bool = False
    """Every round was the first of its shuffle (``single_deck_one_round``): dealt off
    the top, so its EV is the off-the-top EV and the cut-card effect is exactly 0."""
    wong: Wong | None = None
    share_played: float | None = None
    """With :attr:`wong`: the share of the rounds observed that were played (bet)."""
    covariance_between_boxes: Estimate | None = None
    """With several boxes: the mean over the rounds with a second moment of Cov(X_1,
    X_2) between two of the player's boxes at that round's shoe (per unit bet a box),
    its standard error over the shoes."""
    score_se: float | None = None
    """Standard error of :attr:`score` (:func:`strategy_calc.counting.ramps.score_se`)."""
    optimal: OptimisedRamp | None = None
    """With ``--optimize-ramp``: the optimal ramp and its figures over the same rounds."""
    sidebets: dict[str, SideBetCount] | None = None
    """With side bets (``count --sidebets``): each one's figures over the same rounds."""
    risks: RiskAnswers | None = None
    """With a ramp and risk questions (``--trip-rounds``, ``--goal``, ...): their answers
    from the ramp's win rate and SD per round (played or observed) and the bankroll
    (:func:`strategy_calc.counting.risks.risk_answers`; None without an SD)."""
    deck_estimation_cost: DeckEstimationCost | None = None
    """With a deck estimation other than exact and a ramp (``--spread`` or wonging): the
    ramp's SCORE against that of perfect estimation on the same shoes."""
    play_errors_cost: PlayErrorsCost | None = None
    """With play errors (``--play-errors`` above 0): what they cost on the run's rounds."""
    optimal_wong: OptimalWong | None = None
    """With ``--optimize-wong``: the entry and exit counts that maximise SCORE on the
    same rounds (:func:`best_wong`)."""
    method: str = "direct"
    """``direct``: every round dealt valued exactly; ``stratified``: a survey of the rounds
    and exact values of a stratified sample of them (:attr:`two_phase`)."""
    two_phase: TwoPhase | None = None
    """With ``method`` stratified: what the figures rest on
    (:func:`strategy_calc.counting.stratified.two_phase_count`)."""


@dataclass(frozen=True, slots=True)
class OptimalWong:
    """``count --optimize-wong``: of every pair of whole entry and exit counts (exit at
    most entry), the one whose wonging maximises SCORE per round observed over the run's
    rounds, the ramp (``--spread``, or flat) bet on the rounds played.

    The shoes are dealt the same whether the counter plays or watches
    (:class:`strategy_calc.counting.counter.Wong`), so each pair is evaluated on the same
    recorded rounds, re-deciding which are played from their counts: no redealing, and
    every comparison paired."""

    wong: Wong
    result: RampResult
    """The best pair's figures, per round observed (watched rounds bet 0)."""
    share_played: float
    every_round: RampResult
    """The same ramp on every round (no wonging)."""
    gain: Estimate | None
    """The best pair's SCORE less playing every round's, paired over the shoes (None:
    either has no SCORE)."""
    given_gain: Estimate | None
    """With ``--enter/--exit``: the best pair's SCORE less theirs, paired."""
    tried: int
    """How many pairs were evaluated."""


@dataclass(frozen=True, slots=True)
class DeckEstimationCost:
    """What estimating the decks unseen costs a ramp (``count --deck-estimation``): its
    SCORE with the true count divided by the estimated decks (:attr:`score`, the run's),
    and with them known exactly (:attr:`score_exact`), on the same shoes (paired).

    When the plays do not read the count (``basic`` or ``optimal`` play, no box ramp) the
    rounds are the same ones, and only the bets (and wonging) differ; otherwise the shoes
    are dealt again by a counter that knows the decks exactly (the same shuffles, so the
    same cards in the same order, played by its own decisions), and shoe ``i`` of one run
    is paired with shoe ``i`` of the other."""

    score_exact: float | None
    score: float | None
    difference: Estimate | None
    """``score - score_exact`` with its paired standard error over the shoes
    (:func:`score_difference`; None when either ramp has no SCORE)."""
    redealt: bool
    """Whether the exact counter's shoes were dealt again (its plays read the count)."""
    win_rate_difference: Estimate | None = None
    """The win per round (units) with the decks estimated less that with them known
    exactly, paired over the shoes (:func:`win_rate_difference`): defined where a SCORE
    is not (a ramp that does not win)."""


@dataclass(frozen=True, slots=True)
class PlayErrorsCost:
    """What play errors cost (``count --play-errors``): the run's rounds (dealt as the
    erring player plays them) each valued exactly both ways, with the errors and without
    them, at the same shoe and the same bet: the figures of perfect play on those rounds
    and the paired differences (docs/MODEL.md, "Play errors")."""

    rate: float
    """The play-error rate."""
    ev_difference: Estimate
    """The flat EV per round with errors less without, paired over the shoes (units)."""
    score_perfect: float | None
    """With a ramp: its SCORE on the same rounds valued without errors (None: no ramp, or
    a ramp that does not win)."""
    score: float | None
    """The run's own SCORE (with errors)."""
    difference: Estimate | None
    """``score - score_perfect`` with its paired standard error over the shoes (None
    where either SCORE is undefined)."""
    win_rate_difference: Estimate | None
    """With a ramp: its win per round with errors less without, paired (units)."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """Several count systems on the same seeded shoes (paired: ``count --compare``)."""

    results: tuple[BlackjackCount, ...]


@dataclass(frozen=True, slots=True)
class RampResult:
    """A ramp's figures over the rounds of a run, per round in units, each with the
    estimator the hand-given ramp's figures use (:func:`summarise`): the win rate a
    ratio estimate over shoes, the SD from the rounds with a second moment."""

    spread: Spread | None
    """The ramp (None: flat one unit)."""
    win_rate_per_round: Estimate
    sd_per_round: float | None
    sd_per_round_se: float | None
    n0: float | None
    score: float | None
    score_se: float | None
    di: float | None
    risk_of_ruin: float | None
    """For the bankroll given, else None."""
    hours_to_double: float | None = None
    """With a bankroll and rounds per hour: the hours for the expected win to equal the
    bankroll (:func:`strategy_calc.counting.ramps.hours_to_double`)."""


@dataclass(frozen=True, slots=True)
class OptimisedRamp:
    """``count --optimize-ramp``: the ramp chosen on the run's counts, its figures over the
    run's rounds, and the hand-given ramp's beside it (the same rounds)."""

    ramp: OptimalRamp
    """The bets per count and the figures of the per-count data it was chosen on."""
    buckets: tuple[CountBucket, ...]
    """The per-count data: frequency, EV, E[X^2] (see :func:`count_buckets`)."""
    result: RampResult
    """The optimal ramp over the run's rounds."""
    spread_result: RampResult | None
    """The hand-given ramp (``--spread``) over the same rounds, with its hours to double."""
    spread_figures: RampFigures | None
    """The hand-given ramp's figures from the same per-count data as :attr:`ramp`'s
    (the quantity the optimum maximises: the like-for-like comparison)."""
    spread_within_limits: bool | None
    """Whether every bet of the hand-given ramp is within the minimum and maximum bet
    (only then is the optimum's SCORE sure to be at least its)."""
    score_difference: Estimate | None = None
    """The optimum's SCORE less the hand-given ramp's over the same rounds, with its
    paired standard error (:func:`score_difference`)."""
    constraints: ConstraintCost | None = None
    """With constraints (``--bet-unit``, ``--max-spread``, ``--max-bet-levels``):
    :attr:`ramp` is the constrained optimum, and this what the constraints cost."""


@dataclass(frozen=True, slots=True)
class ConstrainedRamp:
    """A ramp optimised under some constraints (or none), over a run's rounds, and the
    SCORE it loses against the unconstrained optimum."""

    constraints: RampConstraints
    ramp: OptimalRamp
    result: RampResult
    cost: Estimate | None
    """The unconstrained optimum's SCORE less this ramp's over the same rounds, with its
    paired standard error (:func:`score_difference`; None when either has no SCORE)."""


@dataclass(frozen=True, slots=True)
class ConstraintCost:
    """``count --optimize-ramp`` with constraints: the unconstrained optimum (the same
    limits and criterion) over the same rounds, the constrained one's cost against it, and
    with several constraints each one's alone."""

    constraints: RampConstraints
    unconstrained: OptimalRamp
    unconstrained_result: RampResult
    cost: Estimate | None
    """The unconstrained optimum's SCORE less the constrained one's over the same
    rounds (paired)."""
    each: tuple[tuple[str, ConstrainedRamp], ...]
    """With more than one constraint: each alone (its JSON name, its optimum), where it
    has one (not a spread cap without a unit under the Kelly criterion)."""
