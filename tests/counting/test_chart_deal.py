"""The engine deals a chart's rounds as the Python play-out does: every round's cards (the
position after it and the cards burnt), and a surveyed shoe's counts before each round,
checked against the Python dealing (strategy_calc/blackjack/playout.py, the counter's tally
and shoe procedure) on shuffled shoes under rules that exercise each branch: peek and no
hole card, one deck's hole card at once, splits and resplits, doubles after splits and
after hits, surrender, Charlies, the Macau bonuses (suited 6-7-8 reads the suits),
insurance, burns, other boxes at the table, suit-read and fractional tags, side counts."""

from __future__ import annotations

import array
import random

import numpy as np
import pytest

from strategy_calc.counting.chart_deal import ShoeCards, chart_deal
from strategy_calc.counting.counter import BlackjackCounter, blackjack_counter
from strategy_calc.counting.dealing import DealtShoe
from strategy_calc.counting.tally import Tally
from strategy_calc.rules import blackjack_rules

CASES = [
    ("deluxe", ["decks=1"], "hilo", 1),
    ("deluxe", ["decks=2", "dealer_hits_soft_17=true", "charlie_cards=5",
                "max_split_hands=4"], "halves", 2),
    ("macau-1983", ["decks=2"], "red7", 3),
    ("macau-1983", ["decks=1", "double_on=9-11", "double_after_split=true",
                    "bonus_settles_hand=false", "bonus_on_split_hands=true",
                    "double_after_hit=true"], "zen", 1),
    ("deluxe", ["decks=2", "burn_before_dealer_cards=true", "split_aces_one_card=false"],
     "hiopt2", 2),
    ("deluxe", ["decks=2", "burn_per_round=1", "rounds_after_cut_card=1"], "ko", 1),
    ("macau-1983", ["decks=2", "shuffle=continuous", "continuous_buffer_cards=52"], "hilo",
     1),
    ("deluxe", ["decks=1", "bonus_hands=suited 6-7-8=5 plays-on; 6-7-8=2 plays-on;"
                " 2-3-4=1 not-split; 2-2-2-2=3 plays-on; 7-7-7=2"], "hilo", 2),
]


def _counter(name: str, sets: list[str], system: str, seats: int) -> BlackjackCounter:
    return blackjack_counter(blackjack_rules(name, sets), system=system, seats=seats,
                             moment_every=10**9)


def _python_survey(counter: BlackjackCounter, index: int) -> tuple[list[float], list[int]]:
    """Shoe ``index`` dealt card by card in Python (the play-out, the tally, the procedure):
    before each round, the count the bet reads and the rank counts unseen."""
    cards, _order, draw = counter._shuffled(index)
    plan = counter.planner.top_plan(False)
    tally = Tally(counter)
    shoe = DealtShoe(counter.shoe_procedure, cards, draw, lambda c: int(c.rank))
    tally.saw(shoe.open())
    keys: list[float] = []
    states: list[int] = []
    while shoe.next_round():
        key = tally.keys(len(cards))[1]
        start, burnt = shoe.pos, list[int]()
        try:
            shoe.pos = counter.deal_round(cards, start, plan, None, burnt)
        except IndexError:
            break
        keys.append(key)
        states.extend(tally.counts)
        tally.saw([cards[i] for i in range(start, shoe.pos) if i not in burnt])
    return keys, states


@pytest.mark.parametrize(("name", "sets", "system", "seats"), CASES)
def test_a_surveyed_shoe_has_the_python_dealings_counts(name: str, sets: list[str],
                                                        system: str, seats: int) -> None:
    counter = _counter(name, sets, system, seats)
    rounds = 0
    for index in range(6):
        keys, states = _python_survey(counter, index)
        shoe = counter.survey_one(index)
        assert list(shoe.keys) == keys
        assert shoe.states == array.array("H", states)
        rounds += len(keys)
    assert rounds >= 6  # (one deck of macau-1983 deals one round a shuffle)


@pytest.mark.parametrize(("name", "sets", "system", "seats"), CASES)
def test_each_round_takes_the_python_playouts_cards(name: str, sets: list[str], system: str,
                                                    seats: int) -> None:
    """From random places in random shuffles, the round's end and burnt cards agree; and
    where the Python play-out runs out of cards the engine says so."""
    counter = _counter(name, sets, system, seats)
    plan = counter.planner.top_plan(False)
    deal = chart_deal(counter)
    cards = list(counter.planner.unshuffled())
    arrays = ShoeCards.of(cards, counter)
    draw = random.Random(48)
    splits = ran_out = 0
    for _ in range(400):
        order = list(range(len(cards)))
        draw.shuffle(order)
        shuffled = arrays.shuffled(order)
        dealt = [cards[i] for i in order]
        pos = draw.randrange(len(cards) - 3)
        burnt: list[int] = []
        try:
            end = counter.deal_round(dealt, pos, plan, None, burnt)
            want: tuple[int, list[int]] | None = (end, burnt)
        except IndexError:
            want = None
            ran_out += 1
        assert deal.deal_round(shuffled.rank, shuffled.suit, pos) == want
        splits += want is not None and want[0] - pos > 2 * seats + 6
    assert ran_out > 0 and splits > 0


def test_a_suited_six_seven_eight_reads_the_suits() -> None:
    """Macau 1983 (no hole card, a card burnt before the dealer's second card): the
    player's 6,7 against a 10 hits (the chart) and draws an 8: paid at once and settled
    when its three cards share a suit, so the dealer takes no second card; of mixed suits
    it stands as a 21, and the dealer burns one card and takes his second, a 9: 19, he
    stands. Casino order: 6 (player), T (up), 7 (player), 8 (the hit), the burn, the 9."""
    counter = _counter("macau-1983", ["decks=2"], "hilo", 1)
    deal = chart_deal(counter)
    rank = np.array([6, 10, 7, 8, 5, 9], dtype=np.int8)
    suited = np.zeros(6, dtype=np.int8)
    mixed = np.array([0, 0, 0, 1, 0, 0], dtype=np.int8)
    assert deal.deal_round(rank, suited, 0) == (4, [])
    assert deal.deal_round(rank, mixed, 0) == (6, [4])
