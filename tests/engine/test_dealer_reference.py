"""Dealer outcome probabilities against published tables (docs/REFERENCE.md)."""

from __future__ import annotations

import pytest

from strategy_calc.blackjack.hand_analysis import dealer_outcomes
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules

KEYS = ("17", "18", "19", "20", "21", "blackjack", "bust")

# docs/REFERENCE.md, "Wizard of Odds appendix 2B (no peek, blackjack included), 1 deck".
APPENDIX_2B = {
    Rank.ACE: (".126128", ".131003", ".129486", ".131553", ".0515646", ".313726", ".11654"),
    Rank.TWO: (".138976", ".131762", ".131815", ".123948", ".120526", "0", ".352973"),
    Rank.SIX: (".166948", ".106454", ".107192", ".100705", ".0978785", "0", ".420823"),
    Rank.SEVEN: (".372345", ".138583", ".0773344", ".0788967", ".072987", "0", ".259854"),
}

# docs/REFERENCE.md, "Wizard of Odds appendix 2 (after peek: dealer has no blackjack)".
APPENDIX_2 = {
    (1, Rank.ACE): (".183786", ".19089", ".18868", ".191692", ".075137", ".169815"),
    (1, Rank.TEN): (".124156", ".122486", ".124421", ".356869", ".03957", ".232499"),
    (2, Rank.ACE): (".186367", ".189883", ".188851", ".190272", ".076531", ".168096"),
    (2, Rank.TEN): (".122412", ".1216", ".122524", ".36387", ".038449", ".231144"),
    (2, Rank.TWO): (".139367", ".133348", ".130744", ".123997", ".119254", ".353291"),
}


def agrees_to_printed_digits(value: float, published: str) -> bool:
    """``value`` agrees with the published figure to within one unit of its last printed digit.

    One unit, not half: the tables were rounded twice. Up A, 1 deck, the
    blackjack probability is exactly 16/51 = 0.3137254902, printed .313726.
    """
    decimals = len(published.split(".")[1]) if "." in published else 12
    return abs(value - float(published)) <= 10.0**-decimals + 1e-12


def test_one_deck_ace_blackjack_is_sixteen_in_fifty_one() -> None:
    rules = BlackjackRules(decks=1, hole_card="enhc")
    got = dealer_outcomes(Shoe.full(1).remove([Card(Rank.ACE)]), Rank.ACE, rules)
    assert got["blackjack"] == pytest.approx(16 / 51, abs=1e-15)


@pytest.mark.parametrize("up", list(APPENDIX_2B))
def test_no_peek_one_deck_matches_appendix_2b(up: Rank) -> None:
    rules = BlackjackRules(decks=1, hole_card="enhc")
    got = dealer_outcomes(Shoe.full(1).remove([Card(up)]), up, rules)
    for key, published in zip(KEYS, APPENDIX_2B[up], strict=True):
        assert agrees_to_printed_digits(got[key], published), (key, got[key], published)


@pytest.mark.parametrize(("decks", "up"), list(APPENDIX_2))
def test_after_peek_matches_appendix_2(decks: int, up: Rank) -> None:
    rules = BlackjackRules(decks=decks, hole_card="peek")
    got = dealer_outcomes(Shoe.full(decks).remove([Card(up)]), up, rules)
    for key, published in zip((*KEYS[:5], "bust"), APPENDIX_2[decks, up], strict=True):
        assert agrees_to_printed_digits(got[key], published), (key, got[key], published)
    assert got["blackjack"] == 0.0


@pytest.mark.parametrize("up", list(Rank))
@pytest.mark.parametrize("h17", [False, True])
def test_outcomes_sum_to_one(up: Rank, h17: bool) -> None:
    rules = BlackjackRules(decks=8, dealer_hits_soft_17=h17, hole_card="enhc")
    got = dealer_outcomes(Shoe.full(8).remove([Card(up)]), up, rules)
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-13)


def test_dealer_with_only_tens_left_stands_on_twenty() -> None:
    """Hand calculation: up T, a shoe of tens only: the dealer makes 20 every time."""
    shoe = Shoe.from_counts((0, 0, 0, 0, 0, 0, 0, 0, 0, 5))
    got = dealer_outcomes(shoe, Rank.TEN, BlackjackRules(hole_card="enhc"))
    assert got["20"] == 1.0


def test_dealer_six_with_fives_and_tens_by_hand() -> None:
    """Up 6; shoe {5, T, T}: hole 5 (1/3) -> 11, then a T -> 21;
    hole T (2/3) -> 16, then the 5 (1/2) -> 21 or the other T (1/2) -> bust.
    So P(21) = 1/3 + 2/3 * 1/2 = 2/3 and P(bust) = 1/3."""
    shoe = Shoe.from_counts((0, 0, 0, 0, 1, 0, 0, 0, 0, 2))
    got = dealer_outcomes(shoe, Rank.SIX, BlackjackRules(hole_card="enhc"))
    assert got["21"] == pytest.approx(2 / 3, abs=1e-15)
    assert got["bust"] == pytest.approx(1 / 3, abs=1e-15)
