"""Exact rational figures where they are cheap: the dealer's outcomes and standing.

``hand --exact`` prints these as fractions (sympy rationals) next to the
engine's floats. The dealer's draw sequences are enumerated with integer
arithmetic (every sequence's probability over one common denominator), so a
single composition takes well under a second even at 8 decks.

>>> from strategy_calc.cards import Shoe, Card, Rank
>>> d = dealer_exact(Shoe.full(1).remove([Card(Rank.ACE)]), Rank.ACE, False)
>>> d["blackjack"]
16/51
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from strategy_calc.actions import OUTCOMES
from strategy_calc.blackjack.hand_rules import (
    dealer_outcome,
    hand_total,
    is_natural,
    stand_result,
)
from strategy_calc.cards import Rank, Shoe
from strategy_calc.errors import InputError


def dealer_exact(shoe: Shoe, up: Rank, h17: bool, pushes_22: bool = False) -> dict[str, Any]:
    """Exact dealer outcome probabilities (sympy ``Rational``), unconditioned (``"22"``
    only under ``dealer_22_pushes``: ``pushes_22``).

    ``shoe``: the cards left after the up card (and the player's cards) are gone; an
    infinite shoe (:attr:`~strategy_calc.cards.Shoe.infinite`) draws with replacement (no
    card drawn changes the counts, and ``k`` cards have ``n ** k`` orders). Raises
    ``ValueError`` if the dealer could run out of cards.

    >>> dealer_exact(Shoe.full("inf"), Rank.ACE, False)["blackjack"]
    4/13
    """
    from sympy import Rational  # type: ignore[import-untyped, unused-ignore]

    counts = list(shoe.counts)
    n = sum(counts)
    gone = 0 if shoe.infinite else 1  # (what a card drawn takes from its rank)
    # ways[(outcome, k)]: sum over the k-card draw sequences ending in ``outcome`` of
    # the product of the counts drawn; each has probability that / ff(n, k)
    ways: dict[tuple[str, int], int] = {}
    short = False

    def walk(total: int, soft: bool, ncards: int, drawn: int, numerator: int) -> None:
        nonlocal short
        outcome = dealer_outcome(total, soft, ncards, h17, pushes_22)
        if outcome is not None:
            ways[outcome, drawn] = ways.get((outcome, drawn), 0) + numerator
            return
        if drawn >= n and gone:
            short = True
            return
        for r in range(10):
            if counts[r]:
                c = counts[r]
                counts[r] -= gone
                walk(total + r + 1, soft or r == 0, ncards + 1, drawn + 1, numerator * c)
                counts[r] += gone

    walk(int(up), up is Rank.ACE, 1, 0, 1)
    if short:
        raise InputError("too few cards left for an exact answer: the dealer could run out"
                         " of cards")
    result = dict.fromkeys((k for k in OUTCOMES if k != "22" or pushes_22), Rational(0))
    for (outcome, drawn), numerator in ways.items():
        falling = 1
        for k in range(drawn):
            falling *= n - gone * k
        result[outcome] += Rational(numerator, falling)
    return result


def stand_exact(total: int, natural: bool, dealer: Mapping[str, Any], peek: bool,
                blackjack_pays: float) -> Any:
    """Exact EV of standing on ``total`` (per unit bet), with the game's conditioning.

    Peek: given no dealer blackjack; ENHC: a dealer blackjack beats everything
    but a natural (push).
    """
    from sympy import Rational

    p_bj = dealer["blackjack"]
    if natural:
        win = Rational(str(blackjack_pays)) * (1 - p_bj)
        return win / (1 - p_bj) if peek else win
    value = dealer["bust"] - (0 if peek else p_bj)
    for d in range(17, 22):
        value += dealer[str(d)] * stand_result(total, d)
    value += dealer.get("22", 0) * stand_result(total, "22")
    return value / (1 - p_bj) if peek else value


def hand_exact(result: Any) -> dict[str, Any]:
    """Exact fractions for a :class:`~strategy_calc.blackjack.hand_analysis.HandAnalysis`: its
    dealer outcomes (same conditioning as the analysis), stand EV and insurance EV, as strings."""
    from sympy import Rational

    rules = result.rules
    dealer = dealer_exact(result.shoe, result.up.rank, rules.dealer_hits_soft_17,
                          rules.dealer_22_pushes)
    ranks = [int(c.rank) for c in result.hand]
    total, _soft = hand_total(ranks)
    stand = stand_exact(total, is_natural(ranks), dealer, rules.peek, rules.blackjack_pays)
    shown = dict(dealer)
    if rules.peek:
        no_bj = 1 - dealer["blackjack"]
        shown = {k: (v / no_bj if k != "blackjack" else Rational(0)) for k, v in dealer.items()}
    insurance = None
    if result.ev["insurance"] is not None:
        p = Rational(result.shoe.count(Rank.TEN), result.shoe.total)
        insurance = str(Rational(1, 2) * (2 * p - (1 - p)))
    return {"dealer": {k: str(v) for k, v in shown.items()}, "stand": str(stand),
            "insurance": insurance}
