"""The built-ins' full-shoe figures against published ones (docs/REFERENCE.md "Side bets:
21+3 and Lucky Ladies")."""

from __future__ import annotations

import pytest

from strategy_calc.sidebets.exact import for_dealer, make_shoe, price
from strategy_calc.sidebets.paytables import builtin_sidebet

# Wizard of Odds, 21+3, version 1 (9 to 1 on every winning hand): the house edge by decks
WIZARD_21_PLUS_3 = {1: 0.1330, 2: 0.0726, 4: 0.0424, 6: 0.0324, 8: 0.0274}


@pytest.mark.parametrize("decks", WIZARD_21_PLUS_3)
def test_21_plus_3_house_edge_is_wizard_of_odds_by_decks(decks: int) -> None:
    odds = price(builtin_sidebet("21+3"), make_shoe(decks))
    assert round(odds.house_edge, 4) == WIZARD_21_PLUS_3[decks]


def test_21_plus_3_six_deck_combinations_are_wizard_of_odds_version_3() -> None:
    # Wizard of Odds' six-deck table: combinations of 3 of 312 cards, C(312, 3) = 5,013,320
    total = 5_013_320
    odds = price(builtin_sidebet("21+3"), make_shoe(6))
    published = {"suited_three_of_a_kind": 1040, "three_of_a_kind": 25272,
                 "straight_flush": 10368, "straight": 155520, "flush": 292896}
    for line, combinations in published.items():
        assert odds.probabilities[line] == pytest.approx(combinations / total, rel=1e-13)
    assert odds.house_edge == pytest.approx(0.032386, abs=5e-7)


def test_lucky_ladies_six_deck_permutations_are_wizard_of_odds_pay_table_a() -> None:
    # 312 * 311 * 310 * 309 = 9,294,695,280 orderings of the four cards
    total = 9_294_695_280
    odds = price(builtin_sidebet("lucky-ladies"), make_shoe(6))
    published = {"qh_pair_dealer_blackjack": 135_360, "qh_pair": 2_738_340,
                 "matched_20": 43_105_500, "suited_20": 193_112_640, "any_20": 744_863_040}
    for line, permutations in published.items():
        assert odds.probabilities[line] == pytest.approx(permutations / total, rel=1e-12)
    assert odds.house_edge == pytest.approx(0.247089, abs=5e-7)


@pytest.mark.parametrize(("decks", "published"), [(8, 0.2405), (1, 0.3816)])
def test_lucky_ladies_house_edge_is_the_published_one_at_eight_and_one_deck(
        decks: int, published: float) -> None:
    # onlineblackjack.org: "from 24.05% for an eight-deck game to 38.16% for a single-deck"
    odds = price(builtin_sidebet("lucky-ladies"), make_shoe(decks))
    assert round(odds.house_edge, 4) == published


def test_21_plus_3_version_3_six_decks_returns_wizard_of_odds_rows() -> None:
    # Wizard of Odds' version 3 rows (pays x probability): 0.020745 + 0.166352 + 0.072383
    # + 0.310214 + 0.292118 - 0.903239 = -0.041427
    odds = price(builtin_sidebet("21+3"), make_shoe(6), "version-3")
    assert odds.ev == pytest.approx(-0.041427, abs=3e-6)


# Wizard of Odds, Buster Blackjack, pay table 1 (3 or 4 cards 2, 5 cards 4, 6 cards 12, 7
# cards 50, 8 or more 250): the house edge by decks, dealer stands / hits soft 17
WIZARD_BUSTER = {1: (0.0877, 0.0689), 2: (0.0848, 0.0651), 4: (0.0831, 0.0629),
                 5: (0.0827, 0.0625), 6: (0.0825, 0.0621), 8: (0.0822, 0.0617)}


@pytest.mark.parametrize("decks", WIZARD_BUSTER)
@pytest.mark.parametrize("h17", [False, True])
def test_buster_house_edge_is_wizard_of_odds_by_decks_and_soft_17(decks: int, h17: bool
                                                                  ) -> None:
    odds = price(for_dealer(builtin_sidebet("buster"), h17), make_shoe(decks))
    assert round(odds.house_edge, 4) == WIZARD_BUSTER[decks][h17]


def test_buster_six_deck_h17_probabilities_are_wizard_of_odds_pay_table_1() -> None:
    odds = price(for_dealer(builtin_sidebet("buster"), True), make_shoe(6))
    p = odds.probabilities
    eight = p["bust_8_or_more"] + p["bust_8_or_more_player_blackjack"]
    seven = p["bust_7"] + p["bust_7_player_blackjack"]
    published = {"8+": (eight, 0.000012), "7": (seven, 0.000214), "6": (p["bust_6"], 0.002638),
                 "5": (p["bust_5"], 0.020473), "4": (p["bust_4"], 0.089392),
                 "3": (p["bust_3"], 0.173032)}
    for line, (ours, theirs) in published.items():
        assert round(ours, 6) == theirs, line
    # the page's "dealer doesn't bust" 0.714241 is 1 less its rows (0.285761) to 1.2e-6:
    # its own total -0.062143 needs 0.714240 (0.652097 of wins less it), which is ours
    assert round(p["lose"], 6) == 0.714240 and abs(p["lose"] - 0.714241) < 1.5e-6
    assert round(eight * 250, 6) == 0.002986  # the page's return of 8 or more cards
    assert round(odds.house_edge, 6) == 0.062143  # the page's total, -0.062143


def test_buster_version_2_house_edge_is_wizard_of_odds_six_decks_s17() -> None:
    odds = price(for_dealer(builtin_sidebet("buster"), False), make_shoe(6), "version-2")
    assert round(odds.house_edge, 4) == 0.0620
