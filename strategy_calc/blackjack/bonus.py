"""Macau's bonuses in a hand's engine terms: the chance a 6-7-8 is suited, and the bonus
terms of a hand or split hand."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from strategy_calc.cards import SUITED_RANKS, SUITS, Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules
from strategy_calc.rules.bonus_hands import BonusRows, engine_rows


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


@lru_cache(maxsize=256)
def bonus_rows(rules: BlackjackRules, split: bool = False) -> BonusRows:
    """The bonus rows of any suits that pay a hand (``split``: a split hand), as the
    engine takes them (the suited 6-7-8 apart: :meth:`BlackjackRules.suited_678`).

    >>> bonus_rows(BlackjackRules(bonus_777=3.0))
    (((0, 0, 0, 0, 0, 0, 3, 0, 0, 0), 3.0, False),)
    """
    return engine_rows(rules.bonus_rows(split))


def bonus_terms(
    rules: BlackjackRules, shoe: Shoe, start: Sequence[Card], split_hand: bool
) -> tuple[BonusRows, float, float, bool]:
    """(fixed rows, bonus_678, q678, suits_known) for a hand (or split hand) starting with
    ``start``: the bonus rows of any suits that pay it (:func:`bonus_rows`)
    and the suited 6-7-8's payout.

    ``q678`` is the probability that, if the hand becomes exactly 6-7-8, the
    three cards are of one suit.
    """
    fixed = bonus_rows(rules, split_hand)
    b678 = rules.suited_678(split_hand)[0]
    ranks = {c.rank for c in start}
    q = 0.0
    known = True
    if b678 > 0 and ranks <= set(SUITED_RANKS) and len(ranks) == len(start):
        needed = [r for r in SUITED_RANKS if r not in ranks]
        q = suited_bonus_chance(shoe, start, needed)
        known = all(c.suit is not None for c in start)
    return fixed, b678, q, known


SUIT_READINGS = ("suited", "mixed")
"""The readings of a hand whose suits were not all given: its 6s, 7s and 8s of one suit,
and of mixed suits (``hand``'s ``by_suits``)."""


def suit_readings(
    hand: Sequence[Card], known: Sequence[Card] = ()
) -> dict[str, tuple[Card, ...]] | None:
    """The hand with its suits given both ways, when they decide the suited 6-7-8 bonus.

    That is a hand of two or three cards of different ranks among 6, 7 and 8 (a start of
    a 6-7-8), at least one of them without a suit and the suits given all alike (else no
    suited 6-7-8 can come and the suits change nothing). ``suited``: every card takes
    the suit given, else the suit of which ``known`` (the cards seen: removed, the up
    card) holds the fewest cards of the hand's ranks (ties in the order s, h, d, c).
    ``mixed``: the cards given keep their suit; the last card without one takes the
    next suit in that order, any other the suited reading's suit, so that the hand is
    not all of one suit. ``None`` when the suits are all given or cannot matter.

    >>> from strategy_calc.cards import parse_cards
    >>> readings = suit_readings(parse_cards("6,8"))
    >>> {k: ",".join(map(str, v)) for k, v in readings.items()}
    {'suited': '6s,8s', 'mixed': '6s,8h'}
    >>> {k: ",".join(map(str, v)) for k, v in suit_readings(parse_cards("7d,8")).items()}
    {'suited': '7d,8d', 'mixed': '7d,8s'}
    >>> suit_readings(parse_cards("6s,8h")) is None, suit_readings(parse_cards("6,6")) is None
    (True, True)
    """
    ranks = [c.rank for c in hand]
    given = {c.suit for c in hand if c.suit is not None}
    if (not 2 <= len(hand) <= 3 or len(set(ranks)) != len(ranks)
            or not set(ranks) <= set(SUITED_RANKS) or len(given) > 1
            or all(c.suit is not None for c in hand)):
        return None
    seen = {s: sum(1 for c in known if c.suit == s and c.rank in ranks) for s in SUITS}
    order = sorted(SUITS, key=lambda s: seen[s])
    first = given.pop() if given else order[0]
    other = next(s for s in order if s != first)
    suited = tuple(Card(c.rank, c.suit or first) for c in hand)
    unknown = [i for i, c in enumerate(hand) if c.suit is None]
    mixed = tuple(Card(c.rank, other if i == unknown[-1] else (c.suit or first))
                  for i, c in enumerate(hand))
    return {"suited": suited, "mixed": mixed}
