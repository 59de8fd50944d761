"""Cards and shoes: the immutable values every game is computed from.

Blackjack ranks fold J/Q/K into T (``Rank.TEN``); suits are kept only where a
rule needs them (the suited 6-7-8 bonus), as an optional letter on a card.

>>> parse_cards("T,6")
(Card(rank=<Rank.TEN: 10>, suit=None), Card(rank=<Rank.SIX: 6>, suit=None))
>>> Shoe.full(1).remove(parse_cards("A,T")).counts
(3, 4, 4, 4, 4, 4, 4, 4, 4, 15)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

SUITS = "shdc"
"""Suit letters: spades, hearts, diamonds, clubs."""

MAX_DECKS = 12


class CardError(ValueError):
    """A card, hand or shoe that cannot exist (unknown card, too many of a rank...)."""


class Rank(IntEnum):
    """A blackjack rank; its value is the card's hard value (ace 1, ten-valued 10)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10

    @property
    def symbol(self) -> str:
        """The one-letter symbol: ``A``, ``2`` .. ``9``, ``T``.

        >>> Rank.TEN.symbol, Rank.ACE.symbol, Rank.SEVEN.symbol
        ('T', 'A', '7')
        """
        return "A" if self is Rank.ACE else "T" if self is Rank.TEN else str(int(self))


RANKS: tuple[Rank, ...] = tuple(Rank)
_RANK_BY_SYMBOL = {"A": Rank.ACE, "1": Rank.ACE, "T": Rank.TEN, "10": Rank.TEN, "J": Rank.TEN,
                   "Q": Rank.TEN, "K": Rank.TEN, **{str(v): Rank(v) for v in range(2, 10)}}
SUITED_RANKS: tuple[Rank, ...] = (Rank.SIX, Rank.SEVEN, Rank.EIGHT)
"""The ranks whose suits the shoe tracks (the suited 6-7-8 bonus needs them)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and, if it was given, a suit letter (``s``, ``h``, ``d``, ``c``)."""

    rank: Rank
    suit: str | None = None

    def __str__(self) -> str:
        return self.rank.symbol + (self.suit or "")


def parse_rank(text: str) -> Rank:
    """Parse a rank symbol (``A``, ``2``..``9``, ``T``/``10``/``J``/``Q``/``K``).

    >>> parse_rank("k"), parse_rank("10")
    (<Rank.TEN: 10>, <Rank.TEN: 10>)
    """
    rank = _RANK_BY_SYMBOL.get(text.strip().upper())
    if rank is None:
        raise CardError(f"unknown card rank {text.strip()!r} (use A, 2-9, T, J, Q, K)")
    return rank


def parse_card(text: str) -> Card:
    """Parse one card such as ``A``, ``T``, ``10``, ``6s``, ``7h``.

    >>> parse_card("6s"), parse_card("Q")
    (Card(rank=<Rank.SIX: 6>, suit='s'), Card(rank=<Rank.TEN: 10>, suit=None))
    """
    token = text.strip()
    if not token:
        raise CardError("empty card in list")
    suit: str | None = None
    if len(token) >= 2 and token[-1].lower() in SUITS and token[:-1].strip():
        suit = token[-1].lower()
        token = token[:-1]
    return Card(parse_rank(token), suit)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a comma-separated list of cards (``""`` gives no cards).

    >>> [str(c) for c in parse_cards("A, 7, 8c")]
    ['A', '7', '8c']
    """
    if not text.strip():
        return ()
    return tuple(parse_card(part) for part in text.split(","))


@dataclass(frozen=True, slots=True)
class Shoe:
    """The cards left in a blackjack shoe.

    ``counts[i]`` is the number of cards of ``RANKS[i]`` (index 0 is the ace,
    index 9 the ten-valued cards). ``suits[j][k]`` is the number of cards of
    ``SUITED_RANKS[j]`` in suit ``SUITS[k]`` still known to be in the shoe; a
    card removed without a suit leaves them alone, which keeps every suit
    equally likely for it (the probability that the next 8 is a spade is
    ``suits[2][0] / sum(suits[2])`` either way).
    """

    decks: int
    counts: tuple[int, ...]
    suits: tuple[tuple[int, ...], ...]

    @classmethod
    def full(cls, decks: int) -> Shoe:
        """A full shoe of ``decks`` 52-card decks.

        >>> Shoe.full(2).total
        104
        """
        if not 1 <= decks <= MAX_DECKS:
            raise CardError(f"decks must be between 1 and {MAX_DECKS}, not {decks}")
        counts = tuple(16 * decks if r is Rank.TEN else 4 * decks for r in RANKS)
        return cls(decks, counts, tuple((decks,) * 4 for _ in SUITED_RANKS))

    @property
    def total(self) -> int:
        """Number of cards left."""
        return sum(self.counts)

    def count(self, rank: Rank) -> int:
        """Number of cards of ``rank`` left."""
        return self.counts[rank - 1]

    def remove(self, cards: Iterable[Card]) -> Shoe:
        """The shoe without ``cards``; an error if a rank (or suit) runs out.

        >>> Shoe.full(1).remove(parse_cards("5,5,5,5,5"))
        Traceback (most recent call last):
        ...
        strategy_calc.cards.CardError: more 5s than the 1-deck shoe holds
        """
        counts = list(self.counts)
        suits = [list(s) for s in self.suits]
        for card in cards:
            i = card.rank - 1
            if counts[i] == 0:
                raise CardError(f"more {card.rank.symbol}s than the {self.decks}-deck shoe holds")
            counts[i] -= 1
            if card.suit is not None and card.rank in SUITED_RANKS:
                j, k = SUITED_RANKS.index(card.rank), SUITS.index(card.suit)
                if suits[j][k] == 0:
                    raise CardError(f"more {card}s than the {self.decks}-deck shoe holds")
                suits[j][k] -= 1
        return Shoe(self.decks, tuple(counts), tuple(tuple(s) for s in suits))

    def suit_fraction(self, rank: Rank, suit: str) -> float:
        """Probability that the next card of ``rank`` drawn has ``suit`` (6, 7, 8 only).

        >>> Shoe.full(1).remove(parse_cards("8s")).suit_fraction(Rank.EIGHT, "s")
        0.0
        """
        row = self.suits[SUITED_RANKS.index(rank)]
        known = sum(row)
        return row[SUITS.index(suit)] / known if known else 0.0


def rank_counts(cards: Sequence[Card]) -> tuple[int, ...]:
    """Counts per rank (index 0 = ace .. 9 = ten) of ``cards``.

    >>> rank_counts(parse_cards("A,A,T"))
    (2, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    """
    counts = [0] * 10
    for card in cards:
        counts[card.rank - 1] += 1
    return tuple(counts)
