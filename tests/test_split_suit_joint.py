"""Macau rule 9 on split hands: both hands' suited 6-7-8 bonuses come from one shoe.

Issue 12 (the last part of item 1): the distribution of a split 6, 7 or 8's round
treated the two hands' suited chances as independent. One shoe makes them depend on
each other: a 6 of hand 2's suit that hand 1 draws is one hand 2 cannot, and two pair
cards of unknown suit share one only as often as the shoe allows. With one 6, 7 and 8
of each suit, both hands of a split 7 are suited with chance 1/144 given the ranks,
where independent 1/16 chances give 1/256.

Each case compares the engine's joint distribution of one split round, bin by bin, with
``oracle_round``'s casino-order brute force over the real suited cards (hand 1 played
out, then hand 2, then the dealer; each hand deciding by its own cards, the up card
and the pair, knowing its own suits), on a 2-deck ENHC shoe whose 6s, 7s and 8s are
spread unevenly over the suits, so that the two pair cards may share a suit, and a
suit may lack a rank.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from oracle_round import RoundOracle

from strategy_calc import engine
from strategy_calc.blackjack import split_round_params
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.distributions import HIST_OFFSET, HIST_SIZE
from strategy_calc.rules import BlackjackRules, blackjack_rules

TOL = 1e-12
COUNTS = (1, 1, 1, 1, 1, 4, 4, 4, 1, 5)
# 6s, 7s, 8s by suit (spades, hearts, diamonds, clubs)
ROWS = ((2, 1, 1, 0), (2, 1, 0, 1), (1, 2, 0, 1))
SUITS = "shdc"


def _rules(*sets: str) -> BlackjackRules:
    return blackjack_rules("macau-1983", ["decks=2", *sets])


def _shoe() -> Shoe:
    full = Shoe.from_counts(COUNTS, 2)
    rows = list(full.suits)
    for j in range(3):
        rows[5 + j] = ROWS[j]
    return Shoe(2, COUNTS, tuple(rows))


def _oracle(rules: BlackjackRules, pair: tuple[Card, Card], up: Card) -> dict[int, Fraction]:
    """The split round's distribution, by net result in hundredths of a unit; pair cards
    of unknown suit are averaged over the deals of their ranks, by their numbers of ways."""
    oracle = RoundOracle(rules, COUNTS, suits=ROWS)

    def kinds(card: Card) -> list[int]:
        return [k for k, (r, s) in enumerate(oracle.kinds)
                if r == int(card.rank) and (card.suit is None or s == card.suit)]

    n = sum(oracle.shoe0) - 3
    total: dict[int, Fraction] = {}
    weight = Fraction(0)
    for (p1, up_k, p2), ways in oracle.initial_infos().items():
        if p1 in kinds(pair[0]) and p2 in kinds(pair[1]) and up_k in kinds(up):
            info = (p1, up_k, p2)
            dist = oracle.action_distribution(
                info, "split", oracle._policies(info, "split", "optimal", None))
            weight += ways
            for net, count in dist.items():
                key = round(Fraction(net, oracle.scale) * 100)
                total[key] = total.get(key, Fraction(0)) + ways * Fraction(count,
                                                                             oracle.fact[n])
    return {k: v / weight for k, v in total.items()}


def _engine(rules: BlackjackRules, pair: tuple[Card, Card], up: Card) -> dict[int, float]:
    base = _shoe().remove([up])
    conditioning = engine.Conditioning.of(rules)
    first, second, suits = split_round_params(rules, base, list(pair), conditioning)
    assert suits is not None
    hist = np.zeros(HIST_SIZE)
    engine.split_distribution(base, pair[0].rank, up.rank, first, None, hist, None, second,
                              suits)
    return {i - HIST_OFFSET: float(hist[i]) for i in range(HIST_SIZE) if hist[i] > 0}


def _card(text: str) -> Card:
    rank = {"T": Rank.TEN, "A": Rank.ACE}.get(text[0]) or Rank(int(text[0]))
    return Card(rank, text[1] if len(text) > 1 else None)


def assert_same(got: dict[int, float], want: dict[int, Fraction]) -> None:
    for key in sorted(set(got) | set(want)):
        assert abs(got.get(key, 0.0) - float(want.get(key, 0))) < TOL, (key, got.get(key),
                                                                        want.get(key))


CASES = [
    ("7s", "7s", "T"),   # one suit: both hands need the 6 and the 8 of spades (2 and 1)
    ("7s", "7h", "T"),   # two suits
    ("7", "7", "T"),     # suits unknown: they share one with chance 2/12
    ("6", "6", "2"),
    ("8h", "8", "7s"),   # an up card of a suited rank leaves the shoe by its suit
]


@pytest.mark.parametrize(("one", "two", "up"), CASES)
def test_both_split_hands_draw_their_suited_bonus_from_one_shoe(one: str, two: str,
                                                                up: str) -> None:
    rules = _rules()
    pair, dealer = (_card(one), _card(two)), _card(up)
    want = _oracle(rules, pair, dealer)
    assert want.get(600, 0) > 0  # both suited: +3 each
    assert_same(_engine(rules, pair, dealer), want)


def test_a_whole_round_refuses_suits_it_would_take_as_spread_evenly() -> None:
    """``analyse_game`` values the two-card 6-7 / 6-8 / 7-8 starts with each rank spread
    evenly over the suits (suits of removed cards unknown); a shoe that says otherwise
    is refused rather than mis-valued."""
    import strategy_calc as sc
    from strategy_calc.cards import CardError

    with pytest.raises(CardError, match="by rank"):
        sc.analyse_game(_rules(), shoe=_shoe())


def test_a_split_six_seven_or_eight_sees_the_up_cards_suit() -> None:
    """An up card of unknown suit is still a card the player sees: a split 7 against a 6
    knows whether the 6 of its own suit is the up card (then it cannot make a suited
    6-7-8). The split's EV is the mean over the up card's suits of the split played
    knowing it, which the brute force gives deal by deal (averaged over the deals of
    those ranks by their numbers of ways); deciding without the up card's suit is
    worth 1.1e-3 less for 7,7 vs 6 on this shoe."""
    import strategy_calc as sc

    counts = (1, 1, 2, 2, 1, 4, 4, 4, 1, 4)  # one 6, 7, 8 of each suit
    rows = list(Shoe.from_counts(counts, 2).suits)
    rows[5:8] = [(1, 1, 1, 1)] * 3
    shoe = Shoe(2, counts, tuple(rows))
    rules = _rules()
    oracle = RoundOracle(rules, counts)
    for pair, up in ((7, 6), (8, 6), (6, 7)):
        total, ways = Fraction(0), 0
        for info, w in oracle.initial_infos().items():
            if tuple(oracle.rank_of[k] for k in info) == (pair, up, pair):
                total += w * oracle.optimal_values(info)["split"]
                ways += w
        got = sc.analyse_hand(f"{pair},{pair}", str(up), rules, shoe=shoe).ev["split"]
        assert got is not None and abs(got - float(total / ways)) < TOL, (pair, up)
