"""The side bets' exact odds for any shoe against the brute force of tests/oracles/
(sidebet_oracle: every ordering of the round's first cards, dealt in casino order, exact
fractions), on small shoes, to 1e-12."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from sidebet_oracle import SUITS, Card, brute_force, deck, with_unknown_removals

from strategy_calc.cards import FACES, FaceShoe, parse_face_cards
from strategy_calc.sidebets.exact import by_sequence, line_probabilities, price
from strategy_calc.sidebets.paytables import builtin_sidebet

BETS = ("21+3", "lucky-ladies", "deluxe-pair")


def face_shoe(cards: list[Card]) -> FaceShoe:
    """The engine's shoe holding exactly ``cards`` (suits known)."""
    known = [[0] * 4 for _ in FACES]
    for face, suit in cards:
        known[FACES.index(face)][SUITS.index(suit)] += 1
    decks = max(1, *(max(row) for row in known))
    return FaceShoe(decks, tuple(tuple(row) for row in known), (0,) * len(FACES))


def assert_agrees(bet: str, shoe: FaceShoe, oracle: dict[str, Fraction]) -> float:
    """The engine's probabilities equal the oracle's to 1e-12; the largest difference."""
    got = price(builtin_sidebet(bet), shoe).probabilities
    assert set(oracle) <= set(got)
    worst = max(abs(got[line] - float(oracle.get(line, 0))) for line in got)
    assert worst < 1e-12, (bet, got, oracle)
    return worst


# A two-deck mixture: duplicates of a card (matched 20s, perfect pairs, suited trips),
# two queens of hearts, aces and tens for the dealer's blackjack, straights and flushes.
RICH: list[Card] = [("Q", "h"), ("Q", "h"), ("A", "s"), ("A", "c"), ("K", "d"), ("K", "d"),
                    ("T", "h"), ("J", "s"), ("9", "h"), ("5", "h"), ("5", "h"), ("5", "h"),
                    ("4", "h"), ("3", "c"), ("2", "h"), ("Q", "s")]


@pytest.mark.parametrize("bet", BETS)
def test_each_bet_on_a_rich_two_deck_shoe_agrees_with_the_brute_force(bet: str) -> None:
    assert_agrees(bet, face_shoe(RICH), brute_force(bet, RICH))


@pytest.mark.parametrize("bet", BETS)
def test_cards_out_of_unknown_suit_are_averaged_over_the_cards_they_could_be(bet: str
                                                                            ) -> None:
    # one queen and one five out, suits unknown: the oracle averages over which physical
    # queen (of 3) and five (of 3) went; the engine takes the shoe less "Q,5"
    shoe = face_shoe(RICH).remove(parse_face_cards("Q,5"))
    assert_agrees(bet, shoe, with_unknown_removals(bet, RICH, "Q5"))


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.parametrize("bet", ("21+3", "deluxe-pair"))
def test_three_card_bets_on_a_full_deck_agree_with_the_brute_force(bet: str) -> None:
    assert_agrees(bet, FaceShoe.full(1), brute_force(bet, deck(1)))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("bet", BETS)
def test_each_bet_on_random_small_two_deck_shoes_agrees_with_the_brute_force(
        bet: str, seed: int) -> None:
    cards = random.Random(seed).sample(deck(2), 13 + seed)
    assert_agrees(bet, face_shoe(cards), brute_force(bet, cards))


@pytest.mark.parametrize("bet", BETS)
def test_the_array_sum_of_a_shoe_of_known_suits_is_the_loop_over_sequences_bit_for_bit(
        bet: str) -> None:
    # the count prices every round by the arrays; the loop is the definition
    rng = random.Random(7)
    for decks in (1, 2, 6):
        cards = [f + s for f in FACES for s in SUITS] * decks
        shoe = FaceShoe.full(decks).remove(parse_face_cards(rng.sample(cards, 20 * decks)))
        event = builtin_sidebet(bet).event
        assert line_probabilities(event, shoe) == by_sequence(event, shoe)
