"""Rules the engine once bent: checked against the oracle and the rules text.

Each test is named after the rule (docs/RULES.md) it guards.
"""

from __future__ import annotations

from fractions import Fraction

import bj_oracle as oracle
import pytest

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import parse_cards
from strategy_calc.rules import blackjack_rules

# The depleted one-deck shoe where a split T drawing an ace used to be doubled under DAS.
DEPLETED = "3,4,2,6d,2,2,6,4,4,5,6h,3,3,5,5,5,6c,3,2"


def _oracle_split(rules_sets: list[str]) -> Fraction:
    rules = blackjack_rules("deluxe", rules_sets)
    ranks = [c.rank for c in parse_cards(DEPLETED)]
    shoe = oracle.remove(oracle.full_shoe(1), [10, 10, 4, *map(int, ranks)])
    value = oracle.split_ev(10, 4, shoe, rules)
    assert value is not None
    return value


@pytest.mark.parametrize("das", [True, False])
def test_a_split_hand_of_21_stands_so_das_changes_nothing_for_tens(das: bool) -> None:
    """Deluxe: "a hand reaching 21 stands automatically", split hands included. A split T
    that draws an ace is never doubled, so T,T vs 4 splits to the same EV with or without
    double after split (only 21s could differ: a split T doubles nothing else that pays)."""
    sets = ["decks=1", f"double_after_split={str(das).lower()}"]
    got = analyse_hand("T,T", "4", blackjack_rules("deluxe", sets), DEPLETED).ev["split"]
    assert got is not None
    assert abs(Fraction(got) - _oracle_split(sets)) < 1e-12


def test_das_value_of_split_tens_is_the_same_both_ways() -> None:
    with_das = analyse_hand("T,T", "4", blackjack_rules("deluxe", ["decks=1"]), DEPLETED)
    without = analyse_hand("T,T", "4", blackjack_rules(
        "deluxe", ["decks=1", "double_after_split=false"]), DEPLETED)
    assert with_das.ev["split"] == pytest.approx(without.ev["split"], abs=1e-12)


def test_a_blackjack_stands_it_is_neither_doubled_nor_surrendered() -> None:
    """Deluxe: a blackjack (a hand of 21) stands at once: no double, no surrender offered."""
    result = analyse_hand("A,T", "6", blackjack_rules("deluxe"))
    assert result.ev["double"] is None and result.ev["surrender"] is None
    assert result.best == "stand"


def test_a_blackjack_may_still_double_where_21_does_not_stand() -> None:
    """The rule is Deluxe's: with hand_of_21_stands = false a soft 21 may double (any two)."""
    result = analyse_hand("A,T", "6", blackjack_rules("deluxe", ["hand_of_21_stands=false"]))
    assert result.ev["double"] is not None


MACAU = blackjack_rules("macau-1983")


@pytest.mark.parametrize("hand", ["7,7,7", "7s,7h,7d", "6s,7s,8s"])
def test_a_completed_bonus_hand_is_paid_at_once(hand: str) -> None:
    """Macau rule 9: 7-7-7 (any suits) or suited 6-7-8 is paid 3 times the bet at once and
    settled; a dealer blackjack does not take it (no hole card: nothing else can happen)."""
    result = analyse_hand(hand, "T", MACAU)
    assert result.ev["stand"] == 3.0 and result.best == "stand"
    assert all(result.ev[a] is None for a in ("hit", "double", "split", "surrender"))


def test_a_6_7_8_of_unknown_suits_averages_the_bonus_over_them() -> None:
    """8,7,6h vs 7 (T,T gone): the 8 and the 7 are hearts with chance 1/4 each (their
    suits unknown, every suit equally likely in the shoe), so the bonus comes with chance
    1/16 and otherwise the hand is a plain 21 that stands:
    EV = 3/16 + 15/16 * stand(21), stand(21) from the oracle."""
    result = analyse_hand("8,7,6h", "7", MACAU, "T,T")
    plain_rules = blackjack_rules("macau-1983", ["bonus_suited_678=0", "bonus_777=0"])
    shoe = oracle.remove(oracle.full_shoe(6), [10, 10, 7, 8, 7, 6])
    stand = oracle.hand_evs([8, 7, 6], 7, shoe, plain_rules, initial=False)["stand"]
    assert stand is not None
    want = Fraction(3, 16) + Fraction(15, 16) * stand
    assert abs(Fraction(result.ev["stand"]) - want) < 1e-12


def test_a_6_7_8_of_mixed_known_suits_is_a_plain_21() -> None:
    mixed = analyse_hand("6s,7h,8s", "T", MACAU)
    plain = analyse_hand("6s,7h,8s", "T", blackjack_rules("macau-1983", ["bonus_suited_678=0"]))
    assert mixed.ev["stand"] == plain.ev["stand"]


@pytest.mark.slow
def test_each_split_hand_keeps_its_own_pair_cards_suit() -> None:
    """Macau rule 9 on split hands: 7s,7h vs 8 with 6s,8s,6h,8h gone: neither split hand
    can make a suited 6-7-8 (its pair card's suit has no 6 or 8 left), so the split is the
    oracle's split with only 7-7-7 paid. With the suits unknown (7,7) each hand has a
    1/8 chance and splits higher; the engine once gave 7s,7h that value too."""
    macau1 = blackjack_rules("macau-1983", ["decks=1"])
    got = analyse_hand("7s,7h", "8", macau1, "6s,8s,6h,8h").ev["split"]
    blind = analyse_hand("7,7", "8", macau1, "6s,8s,6h,8h").ev["split"]
    plain = blackjack_rules("macau-1983", ["decks=1", "bonus_suited_678=0"])
    shoe = oracle.remove(oracle.full_shoe(1), [7, 7, 8, 6, 8, 6, 8])
    want = oracle.split_ev(7, 8, shoe, plain)
    assert got is not None and blind is not None and want is not None
    assert abs(Fraction(got) - want) < 1e-12
    assert blind > got
