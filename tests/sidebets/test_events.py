"""The Deluxe pair bet in these terms against the pair bet's own exact figure
(strategy_calc.blackjack.pair_bet)."""

from __future__ import annotations

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
