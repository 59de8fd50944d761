"""Several boxes in one round (issue 30, item 4): the casino-order brute force
(tests/oracle_boxes.py) proves what the engine's figure rests on.

With strategies that see only a box's own cards and the up card, the boxes are
exchangeable and the joint law of any two boxes and the dealer does not depend on how
many other boxes are dealt (cards dealt to other boxes are unseen random cards), as long
as the shoe cannot run out; so Var(X_1 + ... + X_N) = N Var(X_1) + N (N - 1) Cov(X_1, X_2).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from oracle_boxes import BoxRules, ShoeExhausted, box_moments, mimic_strategy

# Shoes (cards per rank, aces first) small enough to enumerate, big enough that no deal
# of three boxes empties them (the brute force would raise ShoeExhausted)
SHOES = [(1, 0, 0, 0, 0, 0, 1, 2, 2, 7), (2, 0, 0, 0, 0, 0, 1, 2, 2, 8)]
GAMES = [BoxRules(peek=False), BoxRules(peek=True)]


def test_two_boxes_on_a_shoe_of_tens_and_one_ace_match_a_hand_calculation() -> None:
    """Five tens and an ace, ENHC, stand on 20. The ace goes to a box (chance 1/3 for
    each box): that box has a natural, paid 3/2 (the dealer cannot have one too); to the
    up card or the dealer's second card (1/6 each): the dealer has blackjack and both
    boxes lose 1; else every hand is 20 and pushes. So E[X1] = 1/3 * 3/2 - 1/6 - 1/6 =
    1/6, E[X1^2] = 1/3 * 9/4 + 1/3 = 13/12, E[X1 X2] = 1/6 + 1/6 = 1/3 (a natural's box
    has a partner at 20, which pushes), Var(X1 + X2) = 2 (13/12 - 1/36) + 2 (1/3 -
    1/36) = 49/18."""
    m = box_moments((1, 0, 0, 0, 0, 0, 0, 0, 0, 5), 2, mimic_strategy, BoxRules())
    assert m.ev == (Fraction(1, 6), Fraction(1, 6))
    assert m.second == (Fraction(13, 12), Fraction(13, 12))
    assert m.cross[(0, 1)] == Fraction(1, 3)
    assert m.total_variance == Fraction(49, 18)


@pytest.mark.oracle
@pytest.mark.parametrize("rules", GAMES, ids=["enhc", "peek"])
@pytest.mark.parametrize("shoe", SHOES)
def test_boxes_are_exchangeable_and_a_pair_of_boxes_does_not_depend_on_the_others(
        shoe: tuple[int, ...], rules: BoxRules) -> None:
    one = box_moments(shoe, 1, mimic_strategy, rules)
    two = box_moments(shoe, 2, mimic_strategy, rules)
    three = box_moments(shoe, 3, mimic_strategy, rules)
    for m in (two, three):  # every box alike, every pair alike
        assert set(m.ev) == {one.ev[0]}
        assert set(m.second) == {one.second[0]}
        assert set(m.cross.values()) == {two.cross[(0, 1)]}
    cov = two.covariance(0, 1)
    assert cov > 0  # the boxes share the dealer's hand
    for m in (two, three):
        n = m.boxes
        assert m.total_variance == n * one.variance(0) + n * (n - 1) * cov


def test_a_shoe_that_can_run_out_gives_two_boxes_a_law_but_not_three() -> None:
    """Nine cards: two boxes always find their cards, three can empty the shoe (then
    the joint law of two boxes is not defined independently of the others)."""
    shoe = (1, 0, 0, 0, 0, 1, 1, 1, 1, 4)
    assert box_moments(shoe, 2, mimic_strategy, BoxRules()).ev[0] is not None
    with pytest.raises(ShoeExhausted):
        box_moments(shoe, 3, mimic_strategy, BoxRules())
