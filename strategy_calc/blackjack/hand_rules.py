"""The rules of play of one hand, written once in Python: its total, the dealer's draw, the
settlement of a standing hand against the dealer's final hand.

Each rule has one home here (and one in the engine, ``cython_ext/``); the oracles in
tests/oracles/ state them again on purpose, from the rules text, to check both.

- *Total*: cards count their rank (ace 1, tens 10); an ace counts 11 instead where that
  does not take the hand past 21, and the hand is then *soft* (:func:`best_total`).
- *Dealer's draw*: the dealer draws below 17, and on a soft 17 where the rules say he hits
  it (``dealer_hits_soft_17``); he stands on everything else (:func:`dealer_draws`).
- *Dealer's outcome*: his final hand is a total of 17 to 21, a bust, or a blackjack (two
  cards); under ``dealer_22_pushes`` a hand he ends on exactly 22 is an outcome of its own,
  ``"22"`` (:func:`dealer_outcome`).
- *Settlement*: a standing hand of 21 or less wins its bet against a dealer who busts or
  stands on less, pushes against an equal total and loses against more; it pushes a
  dealer's ``"22"`` (:func:`stand_result`); a natural, a dealer blackjack and the bonuses
  are settled by their own rules before this one applies.
- *Exact ties*: where two plays are worth the same (small shoes make exact ties), the
  calmer is taken: stand, then hit, then double, then surrender, then a split
  (:data:`TIE_ORDER`); no insurance, no even money. In floating point "the same" is
  "within :data:`~strategy_calc.engine.TIE`" (:func:`beats`, the engine's ``beats``).

>>> hand_total([1, 6]), hand_total([10, 6, 1]), hand_total([1, 1, 10])
((17, True), (17, False), (12, False))
>>> dealer_draws(7, True, h17=True), dealer_draws(7, True, h17=False)
(True, False)
>>> stand_result(18, "bust"), stand_result(18, 18), stand_result(18, 20), stand_result(18, "22")
(1, 0, -1, 0)
>>> dealer_outcome(22, False, 3, h17=False, pushes_22=True), dealer_outcome(22, False, 3, False)
('22', 'bust')
"""

from __future__ import annotations

import array
from collections.abc import Mapping, Sequence

from strategy_calc.actions import Action
from strategy_calc.engine import TIE

TIE_ORDER = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SURRENDER, Action.SPLIT)
"""The plays from the calmest: an exact tie between two takes the one that comes first."""

AUTOPLAY_POLICY = memoryview(array.array("b", [1 if (k % 32) <= 11 else 0 for k in range(64)]))
"""Auto-play on disconnection (Deluxe): hit while the best total (an ace counting
11 when that does not bust) is 11 or less, then stand; indexed by node class
(best total, plus 32 when soft)."""

DEALER_STANDS = 17
"""The dealer stands on this total or more (but a soft 17 under ``dealer_hits_soft_17``)."""


def best_total(hard: int, has_ace: bool) -> tuple[int, bool]:
    """The best total of a hand whose cards add up to ``hard`` (aces 1), and whether it is
    soft: with an ace, ``hard + 10`` where that is 21 or less.

    >>> best_total(11, True), best_total(12, True), best_total(11, False)
    ((21, True), (12, False), (11, False))
    """
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def hand_total(ranks: Sequence[int]) -> tuple[int, bool]:
    """Best total of a hand of ranks (1..10) and whether it is soft (an ace counted as 11)."""
    return best_total(sum(ranks), 1 in ranks)


def is_natural(ranks: Sequence[int]) -> bool:
    """A two-card ace + ten-valued card (a blackjack when it is the initial hand).

    >>> is_natural([10, 1]), is_natural([1, 5, 5])
    (True, False)
    """
    return len(ranks) == 2 and sorted(ranks) == [1, 10]


def dealer_draws(hard: int, has_ace: bool, h17: bool) -> bool:
    """Whether the dealer draws to a hand of hard total ``hard`` (``has_ace``: it holds
    an ace): below 17, or on a soft 17 when he hits soft 17 (``h17``)."""
    total, soft = best_total(hard, has_ace)
    return total < DEALER_STANDS or (h17 and soft and total == DEALER_STANDS)


def dealer_outcome(hard: int, has_ace: bool, ncards: int, h17: bool,
                   pushes_22: bool = False) -> str | None:
    """The outcome key (:data:`~strategy_calc.actions.OUTCOMES`) of a dealer hand of hard
    total ``hard`` and ``ncards`` cards where he stops drawing, else None: ``"blackjack"``
    (two cards of 21), ``"22"`` (exactly 22 where ``dealer_22_pushes``: ``pushes_22``),
    ``"bust"``, or his total ``"17"`` .. ``"21"``."""
    best, _soft = best_total(hard, has_ace)
    if ncards == 2 and best == 21:
        return "blackjack"
    if hard == 22 and pushes_22:
        return "22"
    if hard > 21:
        return "bust"
    if not dealer_draws(hard, has_ace, h17):
        return str(best)
    return None


def stand_result(total: int, dealer: int | str) -> int:
    """What a standing hand of ``total`` (21 or less) wins per unit bet against the dealer's
    final hand: a total of 17 to 21, ``"bust"``, or ``"22"`` (an outcome of its own only
    under ``dealer_22_pushes``, which every standing hand pushes): +1, 0 (a push) or -1."""
    if dealer == "bust":
        return 1
    if dealer == "22":
        return 0
    final = int(dealer)
    return 1 if total > final else -1 if total < final else 0


def beats(alt: float, keep: float) -> bool:
    """Whether the play worth ``alt`` is taken over the calmer one worth ``keep``: only when
    it is worth more by more than :data:`~strategy_calc.engine.TIE` (exact ties keep the
    calmer play; the engine's ``beats`` is the same rule).

    >>> beats(-13 / 15 + 1e-16, -13 / 15), beats(0.5, 0.4), beats(0.4, 0.4)
    (False, True, False)
    """
    return alt - keep > TIE


def best_play(values: Mapping[Action, float]) -> Action:
    """The best of the plays ``values`` holds: taken in :data:`TIE_ORDER`, a play replaces
    the best so far only where it :func:`beats` it (so an exact tie keeps the calmer play).

    >>> best_play({Action.HIT: -0.2, Action.STAND: -0.2, Action.DOUBLE: -0.1}).value
    'double'
    >>> best_play({Action.HIT: -0.2 + 1e-17, Action.STAND: -0.2}).value
    'stand'
    """
    best, top = None, 0.0
    for play in TIE_ORDER:
        if play in values and (best is None or beats(values[play], top)):
            best, top = play, values[play]
    if best is None:
        raise ValueError("no play to choose from")
    return best
