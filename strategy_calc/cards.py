"""Cards and shoes for every game: one symbol table, one parser, validated shoes.

A card is written as its face (``A``, ``2``..``9``, ``T``/``10``, ``J``, ``Q``,
``K``), optionally followed by a suit letter (``s``, ``h``, ``d``, ``c``); lists
are separated by commas and/or spaces. Two views of a card:

- blackjack folds J/Q/K into T: :class:`Rank` (10 values), :class:`Card` and
  the rank-count :class:`Shoe` (which also tracks suits, to refuse a second 5
  of spades in one deck and to price the suited 6-7-8 bonus);
- pair bets and baccarat tell the 13 faces apart (J-J is a pair, J-Q is not):
  :data:`FACES`, :class:`FaceCard` and the suit-aware :class:`FaceShoe`.

The deck count of every shoe is checked in one place, :func:`check_decks`.

>>> parse_cards("T,6")
(Card(rank=<Rank.TEN: 10>, suit=None), Card(rank=<Rank.SIX: 6>, suit=None))
>>> Shoe.full(1).remove(parse_cards("A,T")).counts
(3, 4, 4, 4, 4, 4, 4, 4, 4, 15)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal, Self, TypeAlias

from strategy_calc.errors import InputError

SUITS = "shdc"
"""Suit letters: spades, hearts, diamonds, clubs."""
SUIT_NAMES: dict[str, str] = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
"""Suit letters (the order of :data:`SUITS`) and their names."""

MAX_DECKS = 6250
"""The most decks a blackjack shoe may hold: the engine takes up to 100,000 cards of a rank
(its shoe check), and a deck holds 16 ten-valued cards (100,000 / 16 = 6,250)."""
INFINITE_DECK: Literal["inf"] = "inf"
"""``decks`` of an infinite deck (``--decks inf``): every card, the dealer's and the
player's, is drawn with replacement, an ace and each of 2..9 with chance 1/13, a ten-valued
card 4/13, whatever was dealt before (blackjack only)."""
Decks: TypeAlias = int | Literal["inf"]
"""A blackjack shoe's decks: a whole number (1 to :data:`MAX_DECKS`) or :data:`INFINITE_DECK`."""
MAX_BACCARAT_DECKS = 25
"""The most decks a baccarat shoe may hold: its engine counts ordered 6-card deals in 64-bit
integers, exact up to 1,300 cards (``_BAC_MAX_CARDS``), 25 decks."""

FACES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
"""The 13 faces, in the order of every face-count tuple."""
FACE_INDEX: dict[str, int] = {**{f: i for i, f in enumerate(FACES)}, "1": 0, "10": 9}
"""Index in :data:`FACES` of every accepted face symbol (upper case)."""


class CardError(InputError):
    """A card, hand or shoe that cannot exist (unknown card, too many of a rank...)."""


def check_decks(decks: object, most: int = MAX_DECKS) -> int:
    """``decks`` if it is a whole number of decks a shoe may hold (1 to ``most``, by default
    :data:`MAX_DECKS`), else CardError.

    >>> check_decks(8), check_decks(1000)
    (8, 1000)
    >>> check_decks(6251)
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: decks must be between 1 and 6250, not 6251
    >>> check_decks(26, MAX_BACCARAT_DECKS)
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: decks must be between 1 and 25, not 26
    """
    if isinstance(decks, bool) or not isinstance(decks, int):
        raise CardError(f"decks must be a whole number, not {decks!r}")
    if not 1 <= decks <= most:
        raise CardError(f"decks must be between 1 and {most}, not {decks}")
    return decks


def split_cards(text: str | Iterable[str]) -> list[str]:
    """The card tokens of a list separated by commas and/or spaces (``""``: none).

    >>> split_cards("5, 5 Kd,10"), split_cards("")
    (['5', '5', 'Kd', '10'], [])
    >>> split_cards("5,,5")
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: empty card in the list '5,,5'
    """
    if not isinstance(text, str):
        return [str(t).strip() for t in text]
    if not text.strip():
        return []
    tokens = []
    for part in text.split(","):
        words = part.split()
        if not words:
            raise CardError(f"empty card in the list {text.strip()!r}")
        tokens += words
    return tokens


_UNKNOWN = "(use A, 2-9, T, J, Q, K, optionally a suit letter s, h, d or c)"


def parse_face(token: str) -> tuple[str, str | None]:
    """One card token to its face symbol (of :data:`FACES`) and suit letter or ``None``.

    >>> parse_face("10h"), parse_face("q"), parse_face("6s")
    (('T', 'h'), ('Q', None), ('6', 's'))
    >>> parse_face("Kx")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: unknown card 'Kx' (use A, 2-9, T, J, Q, K, ...)
    """
    text = token.strip()
    if not text:
        raise CardError("empty card")
    symbol = text.upper()
    if symbol in FACE_INDEX:
        return FACES[FACE_INDEX[symbol]], None
    head, suit = text[:-1].strip().upper(), text[-1].lower()
    if len(text) >= 2 and suit in SUITS and head in FACE_INDEX:
        return FACES[FACE_INDEX[head]], suit
    if len(text) > 12:
        text = text[:12] + "..."
    raise CardError(f"unknown card {text!r} {_UNKNOWN}")


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
RANK_SYMBOLS: tuple[str, ...] = FACES[:10]
"""The ranks' one-letter symbols, rank 1 (ace) to 10 (:attr:`Rank.symbol`'s)."""
SUITED_RANKS: tuple[Rank, ...] = (Rank.SIX, Rank.SEVEN, Rank.EIGHT)
"""The ranks whose suits the shoe tracks (the suited 6-7-8 bonus needs them)."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank and, if it was given, a suit letter (``s``, ``h``, ``d``, ``c``)."""

    rank: Rank
    suit: str | None = None

    def __str__(self) -> str:
        return self.rank.symbol + (self.suit or "")


def rank_of_face(face: str) -> Rank:
    """The blackjack rank of a face symbol (J, Q, K count as T).

    >>> rank_of_face("K"), rank_of_face("A")
    (<Rank.TEN: 10>, <Rank.ACE: 1>)
    """
    return Rank(min(FACE_INDEX[face] + 1, 10))


def parse_rank(text: str) -> Rank:
    """Parse a rank symbol (``A``, ``2``..``9``, ``T``/``10``/``J``/``Q``/``K``).

    >>> parse_rank("k"), parse_rank("10")
    (<Rank.TEN: 10>, <Rank.TEN: 10>)
    """
    face, suit = parse_face(text)
    if suit is not None:
        raise CardError(f"a rank has no suit: {text.strip()!r}")
    return rank_of_face(face)


def parse_card(text: str) -> Card:
    """Parse one card such as ``A``, ``T``, ``10``, ``6s``, ``7h``.

    >>> parse_card("6s"), parse_card("Q")
    (Card(rank=<Rank.SIX: 6>, suit='s'), Card(rank=<Rank.TEN: 10>, suit=None))
    """
    face, suit = parse_face(text)
    return Card(rank_of_face(face), suit)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse a list of cards separated by commas and/or spaces (``""`` gives no cards).

    >>> [str(c) for c in parse_cards("A, 7 8c")]
    ['A', '7', '8c']
    """
    return tuple(parse_card(token) for token in split_cards(text))


@dataclass(frozen=True, slots=True)
class FaceCard:
    """One card of a game that tells the 13 faces apart: a face and, if given, a suit.

    >>> str(FaceCard("K", "h")), str(FaceCard("5"))
    ('Kh', '5')
    """

    face: str
    """The face symbol, one of :data:`FACES`."""
    suit: str | None = None
    """The suit letter (``s``, ``h``, ``d``, ``c``), or ``None`` when it is unknown."""

    def __str__(self) -> str:
        return self.face + (self.suit or "")

    @property
    def rank(self) -> str:
        """The face symbol (the name the pair bet and baccarat use)."""
        return self.face


def parse_face_card(text: str) -> FaceCard:
    """Parse one card keeping its face (J, Q, K stay distinct).

    >>> parse_face_card("10h"), parse_face_card("q")
    (FaceCard(face='T', suit='h'), FaceCard(face='Q', suit=None))
    """
    return FaceCard(*parse_face(text))


def parse_face_cards(cards: str | Iterable[str]) -> tuple[FaceCard, ...]:
    """Cards separated by commas and/or spaces (or an iterable of cards); ``""`` gives none.

    >>> [str(card) for card in parse_face_cards("5,5, Kh Qs,10")]
    ['5', '5', 'Kh', 'Qs', 'T']
    """
    return tuple(parse_face_card(token) for token in split_cards(cards))


@dataclass(frozen=True, slots=True)
class FaceShoe:
    """A suit-aware shoe of the 13 faces: the cards still in it, some removed with unknown suit.

    ``known[f][s]`` counts the cards of face ``FACES[f]`` and suit ``SUITS[s]``
    not known to be out (the full shoe less the removals whose suit was given);
    ``unknown[f]`` more cards of that face are out, suits unknown. Removing a
    card the shoe cannot hold (a second K of spades in one deck, a fifth K) is
    an error.

    >>> shoe = FaceShoe.full(1).remove(parse_face_cards("K, Kh"))
    >>> shoe.cards_left, shoe.known[12], shoe.unknown[12], shoe.face_counts[12]
    (50, (1, 0, 1, 1), 1, 2)
    """

    decks: int
    """Number of 52-card decks in the full shoe."""
    known: tuple[tuple[int, ...], ...]
    """Per face of :data:`FACES`, per suit of ``SUITS``: cards not known to be out."""
    unknown: tuple[int, ...]
    """Per face of :data:`FACES`: cards out whose suit is unknown."""

    @classmethod
    def full(cls, decks: int) -> Self:
        """A full shoe of ``decks`` 52-card decks (``decks`` cards of each face and suit).

        >>> FaceShoe.full(8).cards_left
        416
        """
        check_decks(decks)
        return cls(decks, tuple((decks,) * len(SUITS) for _ in FACES), (0,) * len(FACES))

    @property
    def face_counts(self) -> tuple[int, ...]:
        """Cards left of each face of :data:`FACES`."""
        return tuple(sum(row) - out for row, out in zip(self.known, self.unknown, strict=True))

    @property
    def cards_left(self) -> int:
        """Number of cards in the shoe."""
        return sum(map(sum, self.known)) - sum(self.unknown)

    def remove(self, cards: Iterable[FaceCard]) -> Self:
        """The shoe without ``cards``; an error if a face (or a face and suit) runs out.

        >>> FaceShoe.full(1).remove(parse_face_cards("Ks,Ks"))
        Traceback (most recent call last):
        ...
        strategy_calc.cards.CardError: more K of spades than the 1-deck shoe holds
        >>> FaceShoe.full(1).remove(parse_face_cards("Kh,K,K,K,K"))
        Traceback (most recent call last):
        ...
        strategy_calc.cards.CardError: more Ks than the 1-deck shoe holds
        """
        known = [list(row) for row in self.known]
        unknown = list(self.unknown)
        for card in cards:
            f = FACE_INDEX[card.face]
            if card.suit is None:
                unknown[f] += 1
                continue
            s = SUITS.index(card.suit)
            if known[f][s] == 0:
                raise CardError(f"more {card.face} of {SUIT_NAMES[card.suit]}"
                                f" than the {self.decks}-deck shoe holds")
            known[f][s] -= 1
        for f, face in enumerate(FACES):
            if unknown[f] > sum(known[f]):
                raise CardError(f"more {face}s than the {self.decks}-deck shoe holds")
        return type(self)(self.decks, tuple(tuple(row) for row in known), tuple(unknown))


@dataclass(frozen=True, slots=True)
class Shoe:
    """The cards left in a blackjack shoe.

    ``counts[i]`` is the number of cards of ``RANKS[i]`` (index 0 is the ace,
    index 9 the ten-valued cards). ``suits[i][k]`` is the number of cards of
    ``RANKS[i]`` in suit ``SUITS[k]`` not known to be out; a card removed
    without a suit leaves them alone, which keeps every suit equally likely
    for it (the probability that the next 8 is a spade is
    ``suits[7][0] / sum(suits[7])`` either way). A card removed with a suit
    the shoe no longer holds (a second 5 of spades in one deck) is an error.
    """

    decks: Decks
    counts: tuple[int, ...]
    suits: tuple[tuple[int, ...], ...]

    @classmethod
    def full(cls, decks: Decks) -> Shoe:
        """A full shoe of ``decks`` 52-card decks, or an infinite deck (:data:`INFINITE_DECK`):
        the counts of one deck, which no card dealt changes (:meth:`remove`).

        >>> Shoe.full(2).total
        104
        >>> Shoe.full("inf").remove(parse_cards("5,5,5,5,5")).count(Rank.FIVE)
        4
        """
        if decks == INFINITE_DECK:
            one = cls.full(1)
            return cls(INFINITE_DECK, one.counts, one.suits)
        check_decks(decks)
        counts = tuple(16 * decks if r is Rank.TEN else 4 * decks for r in RANKS)
        return cls(decks, counts, tuple((c // 4,) * 4 for c in counts))

    @property
    def infinite(self) -> bool:
        """Every card is drawn with replacement (an infinite deck): dealing changes nothing."""
        return self.decks == INFINITE_DECK

    @classmethod
    def from_counts(cls, counts: Sequence[int], decks: int = 1) -> Shoe:
        """A shoe of the given rank counts (ace first) whose suits are unknown, all equally
        likely (e.g. a tiny shoe for a test, or one from a simulation).

        Its cards are those of a full ``decks``-deck shoe less cards of unknown suit (the
        suit rows of :meth:`full`), or, for a rank with more cards than that holds, of the
        fewest cards spread evenly over the suits that hold them. So the counts of a full
        shoe give :meth:`full`, and a shoe dealt from one is that shoe with its suits
        forgotten (which matters only where two hands' suits are seen together).

        >>> Shoe.from_counts((1,) * 9 + (4,)).total
        13
        >>> Shoe.from_counts([4] * 9 + [16]) == Shoe.full(1)
        True
        """
        check_decks(decks)
        if len(counts) != len(RANKS) or any(c < 0 for c in counts):
            raise CardError(f"a shoe needs {len(RANKS)} non-negative rank counts")
        full = cls.full(decks)
        rows = tuple((max(f[0], -(-c // len(SUITS))),) * len(SUITS)
                     for c, f in zip(counts, full.suits, strict=True))
        return cls(decks, tuple(counts), rows)

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
        >>> Shoe.full(1).remove(parse_cards("5s,5s"))
        Traceback (most recent call last):
        ...
        strategy_calc.cards.CardError: more 5 of spades than the 1-deck shoe holds
        """
        if self.infinite:  # (cards drawn with replacement leave the shoe as it was)
            return self
        counts = list(self.counts)
        suits = [list(s) for s in self.suits]
        for card in cards:
            i = card.rank - 1
            if counts[i] == 0:
                raise CardError(f"more {card.rank.symbol}s than the {self.decks}-deck shoe holds")
            counts[i] -= 1
            if card.suit is not None:
                k = SUITS.index(card.suit)
                if suits[i][k] == 0:
                    raise CardError(f"more {card.rank.symbol} of {SUIT_NAMES[card.suit]}"
                                    f" than the {self.decks}-deck shoe holds")
                suits[i][k] -= 1
        return Shoe(self.decks, tuple(counts), tuple(tuple(s) for s in suits))

    def suit_fraction(self, rank: Rank, suit: str) -> float:
        """Probability that the next card of ``rank`` drawn has ``suit``.

        >>> Shoe.full(1).remove(parse_cards("8s")).suit_fraction(Rank.EIGHT, "s")
        0.0
        """
        row = self.suits[rank - 1]
        known = sum(row)
        return row[SUITS.index(suit)] / known if known else 0.0


def decks_words(decks: Decks) -> str:
    """A shoe's decks in words, for titles.

    >>> decks_words(1), decks_words(6), decks_words("inf")
    ('1 deck', '6 decks', 'infinite deck')
    """
    if decks == INFINITE_DECK:
        return "infinite deck"
    return f"{decks} deck{'s' if decks != 1 else ''}"


def rank_counts(cards: Sequence[Card]) -> tuple[int, ...]:
    """Counts per rank (index 0 = ace .. 9 = ten) of ``cards``.

    >>> rank_counts(parse_cards("A,A,T"))
    (2, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    """
    counts = [0] * 10
    for card in cards:
        counts[card.rank - 1] += 1
    return tuple(counts)


def decks_holding(cards: int, most: int = MAX_DECKS) -> int:
    """The fewest decks (1 to ``most``, by default :data:`MAX_DECKS`) whose cards number at
    least ``cards`` (a shoe's label: ``52_000`` cards are 1000 decks, ``53`` cards 2).

    >>> decks_holding(52), decks_holding(53), decks_holding(10_000), decks_holding(52_000)
    (1, 2, 193, 1000)
    >>> decks_holding(10**7), decks_holding(10_000, MAX_BACCARAT_DECKS)
    (6250, 25)
    """
    return min(most, max(1, -(-cards // 52)))


def parse_counts(
    text: str, symbols: Sequence[str], symbol_of: Callable[[str], str], noun: str,
    every: str, example: str,
) -> tuple[int, ...]:
    """Counts per symbol from ``SYMBOL=COUNT,...`` (``--shoe``), every one of ``symbols``
    given exactly once; ``symbol_of`` parses a token to its symbol (a ``CardError`` if
    unknown). ``noun``, ``every``, ``example``: the wording of the errors."""
    counts: dict[str, int] = {}
    for part in (p.strip() for p in text.replace(" ", ",").split(",")):
        if not part:
            continue
        head, sep, tail = part.partition("=")
        try:
            symbol, n = symbol_of(head), int(tail)
        except (CardError, ValueError):
            raise CardError(f"--shoe: {part!r} is not {noun.upper()}=COUNT (e.g. {example})"
                            ) from None
        if not sep or n < 0:
            raise CardError(f"--shoe: {part!r}: a count is a whole number, 0 or more")
        if symbol in counts:
            raise CardError(f"--shoe: {noun} {symbol} given twice")
        counts[symbol] = n
    missing = [f for f in symbols if f not in counts]
    if missing:
        raise CardError(f"--shoe: give every {noun} {every} once; missing {', '.join(missing)}")
    return tuple(counts[f] for f in symbols)


def parse_shoe(text: str) -> Shoe:
    """A shoe given per rank, as the classic analyzers take it: ``A=4,2=4,...,T=16``.

    Every rank ``A``, ``2`` .. ``9``, ``T`` must be given once (tens include
    J, Q, K); suits are unknown, each equally likely.

    >>> parse_shoe("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=16").total
    52
    >>> parse_shoe("A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,T=16")
    Traceback (most recent call last):
    ...
    strategy_calc.cards.CardError: --shoe: give every rank A, 2..9, T once; missing 9
    """
    counts = parse_counts(text, [r.symbol for r in RANKS], lambda t: parse_rank(t).symbol,
                          "rank", "A, 2..9, T", "A=4,...,T=16")
    total = sum(counts)
    if total < 13:
        raise CardError(f"--shoe: {total} cards is too few for a round (13 at least)")
    return Shoe.from_counts(counts, decks_holding(total))
