"""Several boxes in one round: each box's EV and variance and the covariance between two
boxes, exactly, off a given shoe (issue 30, item 4).

A player may bet on several boxes of one round (RULES.md, Macau rule 13 and the shoe
rules). The boxes share the dealer's hand and the cards, so their results are
correlated and the variance of a round of ``N`` boxes is not ``N`` times one box's.
With every box playing a strategy that sees only its own cards and the up card, the
boxes are exchangeable and the joint law of two boxes and the dealer does not depend on
how many other boxes are dealt (their cards are unseen random cards), as long as the
shoe cannot run out (proved on tiny shoes by the casino-order brute force
``tests/oracles/oracle_boxes.py``). So, per unit bet a box,

    Var(X_1 + ... + X_N) = N Var(X_1) + N (N - 1) Cov(X_1, X_2),

and one exact ``Cov(X_1, X_2)`` serves every ``N``. The engine computes it
(:func:`strategy_calc.engine.box_pair_moments`: every initial deal of both boxes and the
up card, both boxes' ends jointly with the dealer against both).

The play: each box plays each start's best composition-dependent action for its own
two cards and the up card off ``shoe`` (as ``edge``'s optimal play, split hands cdp1),
hits by its own cards after; or the chart of ``shoe`` (as ``edge``'s basic strategy);
insurance and even money declined; Macau's suited 6-7-8
counted with its chance for cards of unknown suit (:attr:`UpCardDeals.suited_chance`),
not from the suits of a two-card 6-7, 6-8 or 7-8 (so with that bonus the EV per box
can differ from ``edge``'s a little).

A round of three boxes, each of variance 1.3 and covariance 0.5 with another (and EV
0): 3 x 1.3 + 3 x 2 x 0.5 = 6.9, against 3.9 for independent boxes.

>>> fig = BoxFigures(3, 0.0, 1.3, 0.5)
>>> round(fig.variance_per_round, 12), round(fig.sd_per_round, 4)
(6.9, 2.6268)
"""

from __future__ import annotations

import array
import math
from collections.abc import Callable
from dataclasses import dataclass

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.blackjack.bonus import bonus_rows
from strategy_calc.blackjack.chart import Chart
from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.distributions import optimal_codes
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.game_pass import (
    GamePass,
    PassRequest,
    UpCardDeals,
    add_split_values,
    chart_codes,
    whole_game_pass,
)
from strategy_calc.blackjack.hand_rules import best_play
from strategy_calc.cards import Rank, Shoe
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules

MAX_BOXES = 7
"""The most boxes a table has."""

_ACTION_CODE = {Action.STAND: 0, Action.HIT: 1, Action.DOUBLE: 2, Action.SPLIT: 3,
                Action.SURRENDER: 4}


def check_boxes(boxes: int) -> int:
    """``boxes`` if it is a number of boxes a table has (1..7), else InputError."""
    if not 1 <= boxes <= MAX_BOXES:
        raise InputError(f"--boxes must be 1 to {MAX_BOXES} (boxes at one table), not {boxes}")
    return boxes


def most_cards_dealt(counts: tuple[int, ...], boxes: int) -> int:
    """An upper bound on the cards one round of ``boxes`` boxes (each splitting once at
    most) and the dealer can take from a shoe of rank ``counts`` (ace first).

    Every hand's cards but its last have a hard total (aces 1) of at most 20 (a player
    hits only below 21) or, the dealer's, 16 (he draws only below 17), so all the hands'
    cards but one each hold at most ``20 x 2 boxes + 16`` points: no more cards than the
    shoe's smallest cards summing to that, plus one last card a hand.

    >>> # 96 points: the four A-6 of one deck (84 points) and a 7: 25 cards, 5 hands
    >>> most_cards_dealt(Shoe.full(1).counts, 2)
    30
    """
    hands = 2 * boxes + 1
    points = 20 * 2 * boxes + 16
    taken = 0
    for rank, n in enumerate(counts, start=1):
        k = min(n, points // rank)
        taken += k
        points -= k * rank
        if k < n:
            break
    return taken + hands


def check_cannot_run_out(counts: tuple[int, ...], boxes: int) -> None:
    """InputError unless no round of ``boxes`` boxes (two at least: the covariance is
    two boxes') can empty the shoe: the figures' premise (MODEL.md, "Several boxes")."""
    need = most_cards_dealt(counts, max(boxes, 2))
    if need > sum(counts):
        fits = [n for n in range(2, MAX_BOXES + 1) if most_cards_dealt(counts, n)
                <= sum(counts)]
        most = f"at most {fits[-1]} boxes" if fits else "not even two boxes"
        raise InputError(f"a round of {boxes} boxes could empty this {sum(counts)}-card shoe"
                         f" (up to {need} cards), and then the exact figures have no"
                         f" meaning: {most} here")


@dataclass(frozen=True)
class BoxFigures:
    """One round of ``boxes`` boxes off a shoe, per unit bet a box (dealer blackjacks
    included, unconditioned: the whole round)."""

    boxes: int
    ev_per_box: float
    """E[X_1]: EV of one box."""
    second_moment_per_box: float
    """E[X_1^2]."""
    cross_moment: float
    """E[X_1 X_2]: two boxes of the same round."""
    play: str = "optimal"
    """How each box plays (:data:`PLAYS`)."""

    @property
    def variance_per_box(self) -> float:
        """Var(X_1)."""
        return self.second_moment_per_box - self.ev_per_box ** 2

    @property
    def covariance(self) -> float:
        """Cov(X_1, X_2) between two boxes of one round."""
        return self.cross_moment - self.ev_per_box ** 2

    @property
    def correlation(self) -> float:
        """Cov(X_1, X_2) / Var(X_1)."""
        return self.covariance / self.variance_per_box

    @property
    def ev_per_round(self) -> float:
        """E[X_1 + ... + X_N] = N E[X_1]."""
        return self.boxes * self.ev_per_box

    @property
    def variance_per_round(self) -> float:
        """Var(X_1 + ... + X_N) = N Var(X_1) + N (N - 1) Cov(X_1, X_2)."""
        n = self.boxes
        return n * self.variance_per_box + n * (n - 1) * self.covariance

    @property
    def sd_per_round(self) -> float:
        """The standard deviation of a round's total result (units)."""
        return math.sqrt(self.variance_per_round)


def surrender_blackjack_loss(rules: BlackjackRules) -> float:
    """What a surrendered box loses to a dealer blackjack found after it surrendered
    (ENHC: 1 under late surrender, else 1/2; peek games check first, so never used)."""
    return 1.0 if rules.hole_card == "enhc" and rules.surrender in (
        "late", "late_vs_ten_ace") else 0.5


def up_card_cross(game: GamePass, ups: UpCardDeals, plays: dict[tuple[int, int], Action],
                  codes: array.array[int], own_splits: bool, insured: bool) -> float:
    """E[(X_1 + I)(X_2 + I)] given the up card of ``ups``: two boxes of one round whose
    starts take ``plays`` (two-card start, low card first: its first action; a natural
    is paid) and then ``codes``; split hands play ``codes`` too, or (``own_splits``) each
    its own best play (cdp1). ``insured``: every box takes insurance (``I``: +1 when the
    dealer has blackjack, -1/2 else, per unit bet; the same for both boxes), so E[(X1 +
    I)(X2 + I)] = E[X1 X2] + 2 E[X1 I] + E[I^2] with E[X1 I] = 3/2 E[X1 1{blackjack}] -
    1/2 E[X1]; else I = 0."""
    up, rules = ups.up, game.rules
    params = engine.engine_params(rules, game.conditioning).with_bonus(
        bonus_rows(rules), rules.suited_678()[0], ups.suited_chance)
    actions = array.array("b", bytes(100))
    split_codes: list[memoryview | None] = [None] * 10
    split_params: list[engine.EngineParams | None] = [None] * 10
    for (a, b), action in plays.items():
        if (a, b) == (1, 10):
            continue
        actions[10 * (a - 1) + (b - 1)] = _ACTION_CODE[action]
        if action is Action.SPLIT:
            pair = Rank(a)
            sp = game.plans[pair].blind_params(ups.suited_chance)
            split_params[a - 1] = sp
            if own_splits:
                played, _suited = engine.split_play(ups.base, pair, up, sp)
                split_codes[a - 1] = memoryview(array.array("b", played))
    e, _s, cross, with_bj = engine.box_pair_moments(
        ups.base, up, params, memoryview(actions), memoryview(codes), split_codes,
        split_params, rules.blackjack_pays, surrender_blackjack_loss(rules))
    if not insured:
        return cross
    counts = ups.base.counts
    p_bj = counts[9] / sum(counts) if up is Rank.ACE else 0.0
    return cross + 2.0 * (1.5 * with_bj - 0.5 * e) + p_bj + 0.25 * (1.0 - p_bj)


def up_card_moments(
    rules: BlackjackRules, base: Shoe, up: Rank, params: engine.EngineParams,
    actions: memoryview, codes: memoryview, split_codes: list[memoryview | None],
    split_params: list[engine.EngineParams | None], splits: dict[Rank, float],
) -> tuple[float, float, float, float]:
    """``(E[X_1], E[X_1^2], E[X_1 X_2], E[X_1 1{dealer blackjack}])`` given the up card
    ``up`` (``base``: the shoe
    less it), boxes playing fixed decisions (:func:`strategy_calc.engine.box_pair_moments`'
    arguments); ``splits``: the pair ranks that split, with their starts' chances from
    ``base``, whose second moments (both hands jointly) come from
    :func:`strategy_calc.engine.split_moments`."""
    e, s, c, with_bj = engine.box_pair_moments(base, up, params, actions, codes, split_codes,
                                                split_params, rules.blackjack_pays,
                                                surrender_blackjack_loss(rules))
    for pair, w in splits.items():  # a split box's second moment: its hands jointly
        i = int(pair) - 1
        sp = split_params[i] or params
        sc = split_codes[i] if split_codes[i] is not None else codes
        sm = engine.split_moments(base, pair, up, sp, sc)
        if sm is None:  # (a shoe small enough that the identities fail: the distribution)
            hist = array.array("d", bytes(8 * engine.HIST_SIZE))
            engine.split_distribution(base, pair, up, sp, sc, hist)
            s += w * math.fsum(m * ((k - engine.HIST_OFFSET) / 100.0) ** 2
                               for k, m in enumerate(hist) if m != 0.0)
        else:
            s += w * sm[1]
    return e, s, c, with_bj


PLAYS = ("optimal", "basic")
"""How the boxes play: each its own optimum, or the chart (basic strategy)."""


def _first_plays(ups: UpCardDeals, chart: Chart | None) -> tuple[array.array[int],
                                                                dict[Rank, float]]:
    """Each two-card start's play against ``ups.up`` (the engine's ``actions``: the best
    of its values summed over its suit cases, or the chart's cell), and the pairs that
    split with their starts' chances."""
    up = ups.up
    actions = array.array("b", bytes(100))
    splits: dict[Rank, float] = {}
    for hand, cases in ups.deals.items():
        a, b = sorted(hand)
        if chart is not None:
            best = chart.code(hand, up).action
            if best is Action.EVEN_MONEY:
                continue  # (a natural: paid, even money declined)
        else:
            values: dict[Action, float] = {}
            for case in cases:
                for action, v in case.allowed().items():
                    values[action] = values.get(action, 0.0) + case.probability * v
            best = best_play(values)
        actions[10 * (a - 1) + (b - 1)] = _ACTION_CODE[best]
        if best is Action.SPLIT:
            splits[Rank(a)] = ups.weight(hand)
    return actions, splits


def box_figures(rules: BlackjackRules, shoe: Shoe | None = None, boxes: int = 2,
                progress: Callable[[int, int], None] | None = None,
                play: str = "optimal") -> BoxFigures:
    """The exact moments of ``boxes`` boxes of one round off ``shoe`` (default a full
    shoe), each box playing its own optimum (module docstring) or, ``play="basic"``, the
    chart of ``shoe`` (each start its cell's action, then the total-dependent hit/stand
    play; split hands by the chart's rows, as ``edge``'s basic strategy plays them).

    InputError for a bad number of boxes, or a shoe that a round of them could empty
    (:func:`check_cannot_run_out`). ``progress(done, 10)`` after each up card.
    """
    check_boxes(boxes)
    if play not in PLAYS:
        raise InputError(f"the boxes play {' or '.join(PLAYS)}, not {play}")
    if rules.max_split_hands > 2:
        raise InputError("--boxes values one split per box (max_split_hands=2); resplits"
                         " are not modelled for several boxes yet")
    shoe = shoe if shoe is not None else Shoe.full(rules.decks)
    check_cannot_run_out(shoe.counts, boxes)
    game = whole_game_pass(PassRequest(rules, shoe, partial=True))
    params = engine.engine_params(rules, game.conditioning)
    chart = None
    if play == "basic":
        chart = analyse_game(rules, shoe=shoe).chart
    ev = second = cross = 0.0
    for step, up in enumerate(UP_ORDER):
        ups = game.ups.get(up)
        if ups is None:
            continue
        if chart is None:
            codes = optimal_codes(ups.table, rules.double_after_hit)
            add_split_values(game, ups, codes, None, 1)
        else:
            codes = chart_codes(ups.policy, chart.split_hand_bits(up))
        p = params.with_bonus(bonus_rows(rules), rules.suited_678()[0],
                              ups.suited_chance)
        actions, splits = _first_plays(ups, chart)
        split_codes: list[memoryview | None] = [None] * 10
        split_params: list[engine.EngineParams | None] = [None] * 10
        for pair in splits:
            sp = game.plans[pair].blind_params(ups.suited_chance)
            split_params[int(pair) - 1] = sp
            if chart is None:  # cdp1: each split hand's own best play (the chart's: codes)
                played, _suited = engine.split_play(ups.base, pair, up, sp)
                split_codes[int(pair) - 1] = memoryview(array.array("b", played))
        e, s, c, _bj = up_card_moments(rules, ups.base, up, p, memoryview(actions),
                                  memoryview(codes), split_codes, split_params, splits)
        ev += ups.p_up * e
        second += ups.p_up * s
        cross += ups.p_up * c
        if progress is not None:
            progress(step + 1, len(UP_ORDER))
    return BoxFigures(boxes, ev, second, cross, play)


__all__ = [
    "MAX_BOXES",
    "PLAYS",
    "BoxFigures",
    "box_figures",
    "check_boxes",
    "check_cannot_run_out",
    "most_cards_dealt",
    "surrender_blackjack_loss",
    "up_card_cross",
    "up_card_moments",
]
