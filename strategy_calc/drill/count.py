"""The count drills: running and true counts of shuffled cards, graded."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from strategy_calc.cards import RANKS, SUITS, Card, Rank
from strategy_calc.counting.systems import CountSystem
from strategy_calc.errors import InputError


@dataclass(frozen=True, slots=True)
class CountQuestion:
    """A count drill's question: the cards shown and the exact answer.

    ``kind``: ``count`` (the running count of ``cards``, from ``start``) or
    ``true-count`` (the running count ``running`` and ``decks_dealt`` decks in the
    discard tray of a ``decks``-deck shoe: the true count, per the system's divisor,
    unrounded when the system does not round).
    """

    kind: str
    cards: tuple[Card, ...]
    start: float
    running: float
    decks: int
    decks_dealt: float
    answer: float

    @property
    def unseen_cards(self) -> int:
        """Cards not yet dealt."""
        return self.decks * 52 - len(self.cards)

    @property
    def tolerance(self) -> float:
        """How far an answer may be off and still be right: 0 for a running count, under
        0.5 for a true count (it reads as the same whole count)."""
        return 0.0 if self.kind == "count" else 0.5


@dataclass(frozen=True, slots=True)
class CountAnswer:
    """An answer to a count question: its error (answer - exact) and whether it is right."""

    question: CountQuestion
    answer: float
    seconds: float | None = None

    @property
    def error(self) -> float:
        """The answer less the exact value."""
        return self.answer - self.question.answer

    @property
    def correct(self) -> bool:
        """Exact for a running count; within (not at) half a point for a true count."""
        if self.question.tolerance == 0.0:
            return self.error == 0.0
        return abs(self.error) < self.question.tolerance


def _shuffled_shoe(decks: int, rng: random.Random) -> list[Card]:
    cards = [Card(rank, suit) for _ in range(decks) for rank in RANKS
             for suit in SUITS for _ in range(4 if rank is Rank.TEN else 1)]
    rng.shuffle(cards)
    return cards


def count_questions(system: CountSystem, decks: int, kind: str, questions: int,
                    cards_per_question: int, seed: int | None) -> list[CountQuestion]:
    """The seeded questions of a count drill (``kind`` ``count`` or ``true-count``).

    ``count``: ``cards_per_question`` cards off the top of a freshly shuffled shoe, the
    answer their running count from the system's initial count. ``true-count``: a shoe
    dealt to a whole number of half decks (at least half a deck left), the answer the
    running count per deck (or half deck) of the cards left.

    >>> from strategy_calc.counting.systems import HILO
    >>> q = count_questions(HILO, 1, "count", 1, 5, seed=1)[0]
    >>> q.answer == sum(HILO.tag_card(c) for c in q.cards)
    True
    """
    if kind not in ("count", "true-count"):
        raise InputError(f"unknown count drill {kind!r}: count or true-count")
    if not 1 <= cards_per_question <= decks * 52:
        raise InputError(f"--cards must be between 1 and {decks * 52}, not"
                         f" {cards_per_question}")
    rng = random.Random(seed)
    out = []
    for _ in range(questions):
        shoe = _shuffled_shoe(decks, rng)
        start = system.initial_running_count(decks)
        if kind == "count":
            dealt = tuple(shoe[:cards_per_question])
            running = start + math.fsum(system.tag_card(c) for c in dealt)
            out.append(CountQuestion(kind, dealt, start, running, decks, len(dealt) / 52,
                                     running))
            continue
        halves = rng.randint(1, 2 * decks - 1)
        dealt = tuple(shoe[:26 * halves])
        running = start + math.fsum(system.tag_card(c) for c in dealt)
        true = system.true_count(running, decks * 52 - len(dealt))
        out.append(CountQuestion(kind, dealt, start, running, decks, halves / 2, true))
    return out


def parse_count_answer(text: str) -> float:
    """A count answered (a number, halves allowed); :class:`InputError` otherwise.

    >>> parse_count_answer(" -3 "), parse_count_answer("+2.5")
    (-3.0, 2.5)
    """
    try:
        value = float(text.strip())
    except ValueError:
        raise InputError(f"{text.strip()!r} is not a count: answer a number, e.g. -3 or"
                         " 2.5 (q quits)") from None
    if not math.isfinite(value):
        raise InputError(f"{text.strip()!r} is not a count: answer a finite number")
    return value


@dataclass(frozen=True, slots=True)
class CountReport:
    """A finished count drill: the answers, accuracy (None with none) and mean time."""

    system: CountSystem
    kind: str
    answers: tuple[CountAnswer, ...]

    @property
    def accuracy(self) -> float | None:
        """Right answers / answers."""
        if not self.answers:
            return None
        return sum(a.correct for a in self.answers) / len(self.answers)

    @property
    def mean_seconds(self) -> float | None:
        """Mean time to answer, seconds (None when not timed)."""
        times = [a.seconds for a in self.answers if a.seconds is not None]
        return math.fsum(times) / len(times) if times else None
