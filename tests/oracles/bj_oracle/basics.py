"""Types, card layouts and small helpers of the oracle. (see the package docstring)."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rational import Fraction

from strategy_calc.rules import BlackjackRules

Shoe = tuple[int, ...]
SuitedCard = tuple[int, str | None]
SuitedShoe = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]

SUITS = "shdc"
DEALER_KEYS = ("17", "18", "19", "20", "21", "bust", "22")
"""The dealer's ends but a blackjack, in the order of every tuple of them here: "22" is
his ending on exactly 22 where the rules make every standing hand push it
(``dealer_22_pushes``); otherwise a 22 is a "bust" and that entry is 0."""
ACTIONS = ("stand", "hit", "double", "surrender", "insurance", "even_money")

# Card kinds: (rank, suit). The rank layout has one kind per rank; the suited
# layout splits the 6s, 7s and 8s into their four suits.
RANK_LAYOUT: tuple[SuitedCard, ...] = tuple((r, None) for r in range(1, 11))
SUITED_LAYOUT: tuple[SuitedCard, ...] = (
    *((r, None) for r in range(1, 6)),
    *((r, s) for r in (6, 7, 8) for s in SUITS),
    (9, None),
    (10, None),
)


class ShoeExhausted(ValueError):
    """The dealer (or a forced draw) needs a card and the shoe is empty."""


# ---------------------------------------------------------------- small helpers


def full_shoe(decks: int = 1) -> Shoe:
    """The rank counts of ``decks`` full decks."""
    return tuple(16 * decks if r == 10 else 4 * decks for r in range(1, 11))


def remove(shoe: Shoe, ranks: Iterable[int]) -> Shoe:
    """``shoe`` without the cards of ``ranks`` (an error if one runs out)."""
    counts = list(shoe)
    for r in ranks:
        if counts[r - 1] == 0:
            raise ValueError(f"no {r} left in the shoe")
        counts[r - 1] -= 1
    return tuple(counts)


def suited_shoe(decks: int = 1, removed: Iterable[SuitedCard] = ()) -> SuitedShoe:
    """A suited shoe of ``decks`` decks without the ``removed`` cards.

    Removed 6s, 7s and 8s must carry their suit.
    """
    counts = list(full_shoe(decks))
    suits = [[decks] * 4 for _ in range(3)]
    for rank, suit in removed:
        if counts[rank - 1] == 0:
            raise ValueError(f"no {rank} left in the shoe")
        counts[rank - 1] -= 1
        if rank in (6, 7, 8):
            if suit is None or suits[rank - 6][SUITS.index(suit)] == 0:
                raise ValueError(f"removed card {rank}{suit} needs a suit that is left")
            suits[rank - 6][SUITS.index(suit)] -= 1
    return tuple(counts), tuple(tuple(row) for row in suits)


def _take(counts: tuple[int, ...], i: int) -> tuple[int, ...]:
    """``counts`` with one card of kind ``i`` less."""
    return (*counts[:i], counts[i] - 1, *counts[i + 1 :])


@functools.cache
def _falling(n: int, k: int) -> int:
    """The falling factorial n (n-1) ... (n-k+1); 0 when k > n."""
    out = 1
    for j in range(k):
        out *= n - j
    return out


def _exact(x: float) -> Fraction:
    """A payout given as a float in the rules (1.5, 1.2, 3.0) as the fraction meant."""
    return Fraction(repr(float(x)))


def _best_total(hard: int, has_ace: bool) -> int:
    """The total with one ace counted 11 when that does not exceed 21."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


def _split_forbidden(rules: BlackjackRules, pair_rank: int) -> bool:
    """True when the rules let no pair of ``pair_rank`` be split: one hand at most
    (``max_split_hands == 1``), or the rank named in ``no_split_ranks`` (RULES text:
    "pairs of those ranks may not be split"; rank symbols A, 2..9, T separated by commas,
    T any ten-valued card)."""
    names = {"A": 1, "T": 10, "10": 10, "J": 10, "Q": 10, "K": 10}
    names.update({str(r): r for r in range(2, 10)})
    banned = {names[w.strip().upper()] for w in rules.no_split_ranks.split(",")
              if w.strip()}
    return rules.max_split_hands == 1 or pair_rank in banned


def _completes_blackjack(up: int, rank: int) -> bool:
    """True when ``up`` and a second card of ``rank`` are A + ten."""
    return {up, rank} == {1, 10}
