"""Macau's bonuses in a hand's engine terms: the chance a 6-7-8 is suited, and the bonus
terms of a hand or split hand."""

from __future__ import annotations

from collections.abc import Sequence

from strategy_calc.cards import SUITED_RANKS, SUITS, Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules


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
