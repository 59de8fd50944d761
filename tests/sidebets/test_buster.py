"""Buster (the dealer busts, paid by the number of cards in his busted hand): the priced
distribution against the casino-order brute force of tests/oracles/buster_oracle.py (a
player who plays before the dealer, a dealer who completes his hand whatever the player
did), and against the dealer engine's bust probability."""

from __future__ import annotations

from fractions import Fraction

import pytest
from buster_oracle import buster_round, dealer_alone

from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.engine import DEALER_H17, dealer_probs
from strategy_calc.sidebets.events import BUST_LINES
from strategy_calc.sidebets.exact import dealer_busts, face_count_shoe, for_dealer, price
from strategy_calc.sidebets.paytables import builtin_sidebet

# Small shoes per rank (ace .. ten-valued) that no round can run out of: SMALL has one
# ace (a player blackjack with a 7-card bust: 2-2-2-2-3-3-T), MIXED aces and sixes (the
# soft 17s H17 draws to).
SMALL = (1, 4, 2, 0, 0, 0, 0, 0, 0, 4)
MIXED = (2, 2, 1, 0, 1, 2, 0, 0, 0, 5)


def lines_of(round_: dict[tuple[int, bool] | None, Fraction]) -> dict[str, Fraction]:
    """The oracle's outcomes as Buster's lines."""
    out = dict.fromkeys(BUST_LINES, Fraction(0))
    for key, p in round_.items():
        if key is None:
            continue
        n, blackjack = key
        if n >= 7:
            top = "8_or_more" if n >= 8 else "7"
            out[f"bust_{top}_player_blackjack" if blackjack else f"bust_{top}"] += p
        else:
            out[f"bust_{n}"] += p
    return out


def priced(counts: tuple[int, ...], h17: bool) -> dict[str, float]:
    faces = (*counts[:9], counts[9], 0, 0, 0)  # the ten-valued cards as tens
    bet = for_dealer(builtin_sidebet("buster"), h17)
    return price(bet, face_count_shoe(faces)).probabilities


def assert_agrees(counts: tuple[int, ...], h17: bool, player_stands: int,
                  peek: bool = True) -> float:
    oracle = lines_of(buster_round(counts, h17, player_stands, peek))
    got = priced(counts, h17)
    worst = max(abs(got[line] - float(oracle[line])) for line in BUST_LINES)
    assert worst < 1e-12, (counts, h17, player_stands, got, oracle)
    return worst


@pytest.mark.oracle
@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("player_stands", [2, 13, 17])
def test_the_players_play_does_not_change_the_dealers_busts_on_a_small_shoe(
        h17: bool, player_stands: int) -> None:
    # the player never hits (stands on 2), hits to 13, hits to 17: the dealer's busted
    # hands by number of cards, and with a player blackjack, are those priced
    assert_agrees(SMALL, h17, player_stands)


@pytest.mark.oracle
def test_without_the_peek_the_dealers_busts_are_the_same() -> None:
    assert_agrees(SMALL, False, 13, peek=False)


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.parametrize("h17", [False, True])
def test_soft_17s_of_a_mixed_shoe_agree_with_the_casino_order_brute_force(h17: bool) -> None:
    assert_agrees(MIXED, h17, 13)


@pytest.mark.parametrize("h17", [False, True])
def test_the_dealer_alone_from_the_top_is_the_priced_distribution(h17: bool) -> None:
    oracle = dealer_alone(MIXED, h17)
    got = dealer_busts(MIXED, h17).cards
    assert set(got) == set(oracle)
    assert max(abs(got[n] - float(p)) for n, p in oracle.items()) < 1e-15


def engine_bust(shoe: Shoe, h17: bool) -> float:
    """The dealer engine's P(bust): each up card's, weighted by its share of the shoe."""
    return sum(shoe.count(up) / shoe.total
               * dealer_probs(shoe.remove([Card(up)]), up, DEALER_H17 if h17 else 0)[5]
               for up in Rank if shoe.count(up))


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("shoe", [Shoe.full(1), Shoe.full(6), Shoe.full(2).remove(
    [Card(Rank.TEN)] * 12 + [Card(Rank.FIVE)] * 3 + [Card(Rank.ACE)] * 2)],
    ids=["1 deck", "6 decks", "2 decks less 12 tens, 3 fives, 2 aces"])
def test_the_busts_by_number_of_cards_sum_to_the_dealer_engines_bust_probability(
        shoe: Shoe, h17: bool) -> None:
    busts = dealer_busts(tuple(shoe.counts), h17)
    assert sum(busts.cards.values()) == pytest.approx(engine_bust(shoe, h17), abs=1e-12)
