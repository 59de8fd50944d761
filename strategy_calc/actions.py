"""The player's actions and the chart's codes: one value each, with its letter.

Every other encoding is derived from these: the JSON keys are the values, the chart
letters :attr:`Action.letter`, the engine's play bits
:func:`strategy_calc.engine.split_hand_code`.

>>> Action.DOUBLE.letter, str(ChartCode(Action.DOUBLE, Action.HIT))
('D', 'Dh')
>>> ChartCode.parse("Rp").otherwise
<Action.SPLIT: 'split'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache


class Action(StrEnum):
    """One decision a blackjack player can take (the value is its JSON key)."""

    STAND = "stand"
    """Take no more cards."""
    HIT = "hit"
    """Take a card (and decide again)."""
    DOUBLE = "double"
    """Double the bet and take exactly one card."""
    SPLIT = "split"
    """Split a pair into two hands, each with one more bet."""
    SURRENDER = "surrender"
    """Give up half the bet (how a dealer blackjack counts depends on the rules)."""
    INSURANCE = "insurance"
    """A side bet of half the bet against an ace, paying 2:1 if the dealer has blackjack."""
    EVEN_MONEY = "even_money"
    """Take 1:1 at once for a blackjack against an ace."""

    @property
    def letter(self) -> str:
        """The chart letter (``S``, ``H``, ``D``, ``P``, ``R``, and ``E`` for even money, a
        natural's cell); insurance has none (the chart takes it for every start or none)."""
        return _LETTERS.get(self, "")


_LETTERS = {Action.STAND: "S", Action.HIT: "H", Action.DOUBLE: "D", Action.SPLIT: "P",
            Action.SURRENDER: "R", Action.EVEN_MONEY: "E"}
_BY_LETTER = {letter: action for action, letter in _LETTERS.items()}

ACTIONS: tuple[str, ...] = tuple(a.value for a in Action)
"""The keys of a hand's action EVs (:attr:`strategy_calc.blackjack.hand_analysis.HandAnalysis.ev`),
in display order."""

OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "blackjack", "22")
"""Dealer outcome keys: final totals, bust, blackjack (up card plus hole card), and "22"
(he ends on exactly 22: an outcome of its own, which pushes every standing hand, only under
``dealer_22_pushes``; results leave it out otherwise, and "bust" holds it)."""

PLAY_ACTIONS: tuple[Action, ...] = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT,
                                    Action.SURRENDER)
"""The actions that play a hand, in display order."""


@dataclass(frozen=True, slots=True)
class ChartCode:
    """A basic-strategy cell: the action, and what to do where the rules do not allow it.

    ``otherwise`` is read as the legend says: ``Dh`` double, else hit; ``Rs``
    surrender, else stand; ``Ph`` split when doubling after the split is
    allowed, else hit.
    """

    action: Action
    otherwise: Action | None = None

    def __str__(self) -> str:
        return self.action.letter + (self.otherwise.letter.lower() if self.otherwise else "")

    @classmethod
    def parse(cls, code: str) -> ChartCode:
        """The value of a code such as ``H``, ``Dh``, ``Rp``."""
        return _parse_code(code)


@cache
def _parse_code(code: str) -> ChartCode:
    action = _BY_LETTER[code[0]]
    return ChartCode(action, _BY_LETTER[code[1].upper()] if len(code) > 1 else None)


class Strategy(StrEnum):
    """How the player plays a round (the value is the CLI's ``--strategy`` word)."""

    BASIC = "basic"
    """The basic-strategy chart: its two-card cells, then hit or stand by total."""
    OPTIMAL = "optimal"
    """Each initial hand's best composition-dependent play; split hands play their own cards."""
    AUTOPLAY = "autoplay"
    """Deluxe's play on disconnection: hit while the total is 11 or less, then stand."""
