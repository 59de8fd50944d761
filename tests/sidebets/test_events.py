"""The events' lines by hand calculations on full shoes, and the Deluxe pair bet in these
terms against the pair bet's own exact figure (strategy_calc.blackjack.pair_bet)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from strategy_calc.blackjack.pair_bet import analyse_pair
from strategy_calc.rules import blackjack_rules
from strategy_calc.sidebets.exact import make_shoe, price
from strategy_calc.sidebets.paytables import builtin_sidebet


@pytest.mark.parametrize("removed", ["", "8,8", "Kh,Kh,K,Qs,5"])
def test_the_deluxe_pair_bet_as_a_side_bet_equals_sidebet_pair(removed: str) -> None:
    expected = analyse_pair(blackjack_rules("deluxe"), removed)
    odds = price(builtin_sidebet("deluxe-pair"), make_shoe(8, removed))
    assert odds.ev == pytest.approx(float(expected.exact_ev()), abs=1e-14)
    for line in ("perfect", "coloured", "mixed"):
        assert odds.probabilities[line] == pytest.approx(
            float(expected.exact_probabilities()[line]), abs=1e-15)


def test_lucky_ladies_queen_of_hearts_pair_by_hand_on_six_decks() -> None:
    # 6 queens of hearts of 312: 6*5 ordered pairs of 312*311; the dealer's blackjack from
    # the 310 left: 24 aces and 94 ten-valued cards, up ace and second ten or the reverse
    pair = Fraction(6 * 5, 312 * 311)
    blackjack = Fraction(2 * 24 * 94, 310 * 309)
    odds = price(builtin_sidebet("lucky-ladies"), make_shoe(6))
    assert odds.probabilities["qh_pair_dealer_blackjack"] == pytest.approx(
        float(pair * blackjack), rel=1e-13)
    assert odds.probabilities["qh_pair"] == pytest.approx(float(pair * (1 - blackjack)),
                                                          rel=1e-13)


def test_21_plus_3_one_deck_hands_by_hand() -> None:
    # C(52, 3) = 22,100 hands. Straight flushes: 12 sequences (A-2-3 .. Q-K-A) x 4 suits =
    # 48; three of a kind: 13 faces x C(4, 3) = 52; straights: 12 x 4^3 - 48 = 720;
    # flushes: 4 x C(13, 3) - 48 = 1,096; no suited three of a kind in one deck
    odds = price(builtin_sidebet("21+3"), make_shoe(1))
    expected = {"suited_three_of_a_kind": 0, "straight_flush": 48, "three_of_a_kind": 52,
                "straight": 720, "flush": 1096}
    for line, hands in expected.items():
        assert odds.probabilities[line] == pytest.approx(hands / 22100, rel=1e-13, abs=1e-17)
    assert odds.ev == pytest.approx(9 * (48 + 52 + 720 + 1096) / 22100 - (
        22100 - 1916) / 22100, abs=1e-14)
