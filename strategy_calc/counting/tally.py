"""The cards a counter has seen of one shoe (:class:`Tally`): the rank counts unseen, the
running count, and the counts a round is keyed by, with the side counts bets read
(:class:`SideCount`).

>>> from strategy_calc.counting.counter import blackjack_counter
>>> from strategy_calc.cards import parse_cards
>>> from strategy_calc.rules import blackjack_rules
>>> tally = Tally(blackjack_counter(blackjack_rules("deluxe", ["decks=1"])))
>>> tally.saw(parse_cards("2,3,4,5"))  # Hi-Lo +4 with 48 cards left: 4 x 52 / 48
>>> tally.keys(52)[:2]
(4.333333333333333, 4.333333333333333)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from strategy_calc.cards import Card

if TYPE_CHECKING:
    from strategy_calc.counting.counter import BlackjackCounter


@dataclass(frozen=True, slots=True)
class SideCount:
    """A side count a run bets by: its ``ranks``, the running-count points one card of
    them seen is worth in the bet's count (``weight``:
    :meth:`strategy_calc.counting.systems.CountSystem.side_weights`), and their ``share`` of
    the shoe every deal starts from."""

    name: str
    ranks: frozenset[int]
    weight: float
    share: float

    def adjustment(self, seen: int, dealt: int) -> float:
        """What the bet's running count adds with ``seen`` cards of the side count's ranks
        among ``dealt`` cards: ``weight`` times the surplus over the expected ``dealt *
        share``.

        >>> SideCount("aces", frozenset({1}), -2.0, 1 / 13).adjustment(seen=6, dealt=52)
        -4.0
        """
        return self.weight * (seen - dealt * self.share)


class Tally:
    """The cards a counter has seen of one shoe: the rank counts unseen and the running
    count, and the counts a round is keyed by."""

    def __init__(self, counter: BlackjackCounter) -> None:
        self.counter = counter
        self.system = counter.system
        self.full = counter.start().counts
        self.counts = list(self.full)
        self.running: float = counter.system.initial_running_count(
            counter.rules.finite_decks("count"))

    def saw(self, dealt: Sequence[Card]) -> None:
        """Count ``dealt`` as seen."""
        counts = self.counts
        for card in dealt:
            counts[card.rank - 1] -= 1
            self.running += self.system.tag_card(card)

    def keys(self, n: int) -> tuple[float, float, float | None]:
        """Before a round of a shoe of ``n`` cards: the count plays read, the count bets
        read (with the side counts), and that count with exact decks under a deck
        estimation (None otherwise)."""
        return self.keys_at(self.running, self.counts, n)

    def keys_at(self, running: float, counts: Sequence[int], n: int
                ) -> tuple[float, float, float | None]:
        """:meth:`keys` with the running count ``running`` and the rank counts unseen
        ``counts`` (a side count's cards seen are those of its ranks not unseen: burnt
        cards stay unseen)."""
        counter, full = self.counter, self.full
        unseen = sum(counts)
        tc = counter.key_count(running, unseen)
        if not counter.side:
            bet_running, bet_key = running, tc
        else:
            bet_running = running + sum(
                c.adjustment(sum(full[r - 1] - counts[r - 1] for r in c.ranks), n - unseen)
                for c in counter.side)
            bet_key = counter.key_count(bet_running, unseen)
        exact_key = (None if not counter.estimates else
                     counter.key_count(bet_running, unseen, "exact"))
        return tc, bet_key, exact_key

    def bet_keys(self, running: np.ndarray, counts: np.ndarray, n: int) -> np.ndarray:
        """The counts bets read (:meth:`keys_at`'s second) before many rounds at once, the
        decks unseen known exactly: ``running`` counts and ``counts`` (a row of unseen rank
        counts each); the same floating-point operations, so the same values."""
        counter = self.counter
        unseen = counts.sum(axis=1, dtype=np.int64)
        if not counter.side:
            return counter.key_counts(running, unseen)
        adjust: np.ndarray | int = 0
        full = np.array(self.full, dtype=np.int64)
        for c in counter.side:
            at = [r - 1 for r in sorted(c.ranks)]
            seen = (full[at] - counts[:, at]).sum(axis=1)
            adjust = adjust + c.weight * (seen - (n - unseen) * c.share)
        return counter.key_counts(running + adjust, unseen)
