"""A blackjack hand in the engine's terms: its total and Macau's bonus terms."""

from __future__ import annotations

import array
from collections.abc import Sequence

from strategy_calc.cards import SUITED_RANKS, SUITS, Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules

AUTOPLAY_POLICY = memoryview(array.array("b", [1 if (k % 32) <= 11 else 0 for k in range(64)]))
"""Auto-play on disconnection (Deluxe): hit while the best total (an ace counting
11 when that does not bust) is 11 or less, then stand; indexed by node class
(best total, plus 32 when soft)."""


def hand_total(ranks: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand and whether it is soft (an ace counted as 11).

    >>> hand_total([1, 6]), hand_total([10, 6, 1]), hand_total([1, 1, 10])
    ((17, True), (17, False), (12, False))
    """
    hard = sum(ranks)
    if 1 in ranks and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def is_natural(ranks: Sequence[int]) -> bool:
    """A two-card ace + ten-valued card (a blackjack when it is the initial hand)."""
    return len(ranks) == 2 and sorted(ranks) == [1, 10]


def suited_bonus_chance(shoe: Shoe, cards: Sequence[Card], needed: Sequence[Rank]) -> float:
    """Probability that ``cards`` plus one card of each rank in ``needed`` are all one suit.

    Cards given without a suit take each suit with the shoe's known suit
    proportions for their rank (an average over the possible assignments).

    >>> from strategy_calc.cards import parse_cards
    >>> shoe = Shoe.full(1).remove(parse_cards("6s,7s"))
    >>> suited_bonus_chance(shoe, parse_cards("6s,7s"), [Rank.EIGHT])
    0.25
    """
    total = 0.0
    for suit in SUITS:
        chance = 1.0
        for card in cards:
            if card.suit is not None:
                chance *= 1.0 if card.suit == suit else 0.0
            else:
                chance *= shoe.suit_fraction(card.rank, suit)
        for rank in needed:
            chance *= shoe.suit_fraction(rank, suit)
        total += chance
    return total


def bonus_terms(
    rules: BlackjackRules, shoe: Shoe, start: Sequence[Card], split_hand: bool
) -> tuple[float, float, float, bool]:
    """(bonus_777, bonus_678, q678, suits_known) for a hand (or split hand) starting with ``start``.

    ``q678`` is the probability that, if the hand becomes exactly 6-7-8, the
    three cards are of one suit.
    """
    if split_hand and not rules.bonus_on_split_hands:
        return 0.0, 0.0, 0.0, True
    ranks = {c.rank for c in start}
    q = 0.0
    known = True
    if rules.bonus_suited_678 > 0 and ranks <= set(SUITED_RANKS) and len(ranks) == len(start):
        needed = [r for r in SUITED_RANKS if r not in ranks]
        q = suited_bonus_chance(shoe, start, needed)
        known = all(c.suit is not None for c in start)
    return rules.bonus_777, rules.bonus_suited_678, q, known
