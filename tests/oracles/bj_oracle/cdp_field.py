"""The field's CDP split (Eric Farmer's definition) as a closed-form re-weighting.

See :func:`split_ev_cdp_field`. Written from the definition, not from the engine: the
hands' second-card draws are walked one by one (no arrangement counts), and a hand's value
with ``b`` unseen non-pair cards gone comes from a hypergeometric expansion over ``b``
random cards (not the engine's one-card-at-a-time recursion).
"""

from __future__ import annotations

import functools
from math import comb

from rational import Fraction

from bj_oracle.basics import RANK_LAYOUT, Shoe, _completes_blackjack, _split_forbidden
from bj_oracle.solver import _hand_solver
from bj_oracle.splits import _split_hand_setups
from strategy_calc.rules import BlackjackRules


def _no_blackjack(shoe: tuple[int, ...], up: int, peek: bool) -> Fraction:
    """P(the hole card drawn from ``shoe`` does not complete a blackjack); 1 without peek."""
    if not peek:
        return Fraction(1)
    completing = sum(n for k, n in enumerate(shoe) if _completes_blackjack(up, k + 1))
    return 1 - Fraction(completing, sum(shoe))


def split_ev_cdp_field(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """EV (per unit initial bet, all hands) of splitting a pair of ``pair_rank`` with
    resplits up to ``rules.max_split_hands`` hands under the field's CDP (Eric Farmer's,
    ``possibly-wrong/blackjack``). Same conventions as
    :func:`split_ev_resplit_bruteforce` (``shoe`` has both pair cards and the up card
    taken out; peek: conditioned on no dealer blackjack; None where no split is
    allowed). Rank-only, no bonuses.

    The definition. For ``a`` = 0, 1, ... extra pair cards gone, ``X[a]`` is the value of
    one split hand that draws its second card from the shoe less ``a`` pair cards (a
    pair card is played, not resplit) and ``P[a]`` its value when that card is a pair
    card, both played by the best decisions *for that shoe* (one fixed strategy for
    every ``a`` would make this the resplit value of
    :func:`split_ev_resplit_bruteforce`). All values are taken jointly with "no
    dealer blackjack" (peek): ``E[value; no blackjack]``, so that removing an unseen
    random card leaves them unchanged. A hand's value with ``a`` pair cards and ``b``
    non-pair cards gone is what a fixed strategy's would be: removing ``b`` random
    cards from the shoe less ``a`` pair cards, ``j`` of them pair cards with the
    hypergeometric chance ``H(j)``, gives ``V[a, 0] = sum_j H(j) V[a + j, b - j]``,
    solved for ``V[a, b]``. The same holds for ``F = E[value; second card not a
    pair]`` (``F[a, 0] = X[a] - v P[a]``, ``v`` the chance of a pair card) and a hand
    known to hold a non-pair second card is worth ``F / (1 - v)``.

    The second cards are drawn in queue order: a pair card makes a new hand while fewer
    than the maximum exist (aces only with ``resplit_aces``), any other card completes
    the hand. When every hand is complete, each is worth ``N[a, b - 1]`` (``a`` pair
    cards drawn, ``b`` non-pair cards drawn, its own among them); when the maximum is
    reached first, the complete hands are worth ``N[a, b - 1]`` and the others
    ``X[a, b]``. The first hand (ENHC ``original``: the one whose bet a dealer blackjack
    takes) is the first in the queue.
    """
    if _split_forbidden(rules, pair_rank):
        return None
    shoe = tuple(shoe)
    p_kind = pair_rank - 1
    resplits = pair_rank != 1 or rules.resplit_aces
    max_hands = rules.max_split_hands if resplits else 2
    n, n_pair = sum(shoe), shoe[p_kind]
    pair = [(pair_rank, None), (pair_rank, None)]

    @functools.cache
    def row(cls: int, a: int) -> tuple[Fraction, Fraction]:
        """``(X[a], F[a, 0])`` of a hand of class ``cls`` (1: the first, 2: the others),
        jointly with no dealer blackjack."""
        if a > n_pair:
            return Fraction(0), Fraction(0)
        fewer = tuple(c - a * (k == p_kind) for k, c in enumerate(shoe))
        solver = _hand_solver(_split_hand_setups(RANK_LAYOUT, pair, up, fewer, rules)[cls - 1])
        root = (0,) * solver.n_kinds
        no_bj = _no_blackjack(fewer, up, rules.peek)
        x = solver.value(root) / solver.weight(root) * no_bj
        d = solver.plus(root, p_kind)
        with_pair = solver.value(d) / solver.weight(root) * no_bj if solver.weight(d) else 0
        return x, x - with_pair

    def hypergeometric(a: int, b: int, j: int) -> Fraction:
        """P(``j`` pair cards among ``b`` random cards of the shoe less ``a`` pair cards)."""
        left_pair, left = n_pair - a, n - a
        return Fraction(comb(left_pair, j) * comb(left - left_pair, b - j), comb(left, b))

    @functools.cache
    def value(cls: int, column: int, a: int, b: int) -> Fraction:
        """``X`` (column 0) or ``F`` (column 1) with ``a`` pair and ``b`` non-pair cards
        gone."""
        if b == 0:
            return row(cls, a)[column]
        rest = sum((hypergeometric(a, b, j) * value(cls, column, a + j, b - j)
                    for j in range(1, b + 1) if a + j <= n_pair), Fraction(0))
        h0 = hypergeometric(a, b, 0)
        return (row(cls, a)[column] - rest) / h0 if h0 else Fraction(0)

    def completed(cls: int, a: int, b: int) -> Fraction:
        """A hand whose second card is no pair card, ``b`` other non-pair cards gone."""
        non_pair = Fraction(n - n_pair - b, n - a - b)  # P(its second card is no pair)
        return value(cls, 1, a, b) / non_pair if non_pair else Fraction(0)

    total = Fraction(0)

    def draw(hands: int, done: int, pairs: int, p: Fraction) -> None:
        nonlocal total
        if done == hands or hands == max_hands:
            for index in range(hands):  # the first ``done`` hands of the queue are complete
                cls = 1 if index == 0 else 2
                if index < done:
                    total += p * completed(cls, pairs, done - 1)
                else:  # still to draw its second card, freely
                    total += p * value(cls, 0, pairs, done)
            return
        left, left_pair = n - pairs - done, n_pair - pairs
        if left_pair:
            draw(hands + 1, done, pairs + 1, p * Fraction(left_pair, left))
        if left - left_pair:
            draw(hands, done + 1, pairs, p * Fraction(left - left_pair, left))

    draw(2, 0, 0, Fraction(1))
    return total / _no_blackjack(shoe, up, rules.peek)
