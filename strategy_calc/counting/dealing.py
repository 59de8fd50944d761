"""One shoe dealt by a ruleset's shoe procedure (:class:`strategy_calc.rules.shoe.ShoeProcedure`):
the burns, the cut card and the last-round rule, for either game's counter.

The counter deals each round itself (the game's casino order) from ``cards[pos:]`` and
tells the shoe where the round ended; the shoe decides whether another round starts and
burns what the procedure burns. Burnt cards are unseen: they stay among the cards a
counter values the next round for.

>>> import random
>>> from strategy_calc.rules.shoe import ShoeProcedure
>>> shoe = DealtShoe(ShoeProcedure("cut_card", (3, 3), "ruleset", burn_per_round=1),
...                  list(range(10)), random.Random(1), value=lambda c: c)
>>> shoe.open(), shoe.next_round(), shoe.pos  # one card burnt before the round
([], True, 1)
>>> shoe.pos = 6  # the round took five cards: four are left, more than three
>>> shoe.next_round(), shoe.pos
(True, 7)
>>> shoe.pos = 8  # two left: the cut card came out in that round, the shoe's last
>>> shoe.next_round()
False
"""

from __future__ import annotations

import array
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from strategy_calc.rules.shoe import ShoeProcedure

C = TypeVar("C")


class DealtShoe(Generic[C]):
    """A shuffled shoe of ``cards`` dealt by ``procedure``: :meth:`open` before the first
    round, :meth:`next_round` before each; the counter moves :attr:`pos` past each round.

    ``draw``: the shoe's random source (it places the cut card when the procedure gives
    a range); ``value``: how many cards a shown card burns (ace 1, tens and faces 10).
    """

    def __init__(self, procedure: ShoeProcedure, cards: Sequence[C], draw: random.Random,
                 value: Callable[[C], int]) -> None:
        self.procedure = procedure
        self.cards = cards
        self.value = value
        self.pos = 0
        """The next card to deal."""
        self.cut = procedure.cut_card(draw)
        """This shoe's cut card: the cards behind it."""
        self._more: int | None = None  # rounds still to deal once the cut card is out

    @property
    def left(self) -> int:
        """Cards still in the shoe."""
        return len(self.cards) - self.pos

    def open(self) -> list[C]:
        """Burn what the procedure burns before a shoe's first round; the cards shown (seen
        by a counter): the first card under ``burn_shown_card``."""
        shown: list[C] = []
        if self.procedure.burn_shown_card:
            first = self.cards[0]
            shown.append(first)
            self.pos = 1 + self.value(first)
        self.pos += self.procedure.burn_start
        return shown

    def next_round(self, least: int = 0) -> bool:
        """Whether another round is dealt (burning ``burn_per_round`` cards before it if
        so). A round starts while more than :attr:`cut` cards are left (the cut card comes
        out with the last card in front of it); once it is out, ``rounds_after_cut_card``
        more. Never with ``least`` cards or fewer left (a round may need more)."""
        if self._more is None and self.left <= self.cut:
            self._more = self.procedure.rounds_after_cut_card
        if self._more is not None:
            if self._more == 0:
                return False
            self._more -= 1
        if self.left - self.procedure.burn_per_round <= least:
            return False
        self.pos += self.procedure.burn_per_round
        return True


@dataclass(frozen=True, slots=True)
class SurveyedShoe:
    """A shoe dealt without valuing its rounds
    (:meth:`strategy_calc.counting.counter.BlackjackCounter.survey_one`): before each
    round, the count its bet is keyed by and the cards unseen."""

    index: int
    """The shoe's index in the run (its shuffle)."""
    keys: array.array[float]
    """Per round, the count the bet reads
    (:attr:`strategy_calc.counting.counter.RoundRecord.tc`)."""
    states: array.array[int]
    """Per round, ten rank counts (ace first) of the cards unseen before it, one after
    the other."""
    controls: tuple[float, ...] = ()
    """What the survey's ``controls`` gave for the shuffled cards (none without them)."""
    play_keys: array.array[float] | None = None
    """With index plays: per round, the count the plays read (the round was played, and
    is valued, by the plan at that count); None: the chart alone."""

    def state(self, j: int) -> tuple[int, ...]:
        """The rank counts unseen before round ``j``."""
        return tuple(self.states[10 * j:10 * (j + 1)])
