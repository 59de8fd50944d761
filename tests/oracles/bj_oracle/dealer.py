"""The dealer's play, counted in integers. (see the package docstring)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from rational import Fraction

from bj_oracle.basics import (
    DEALER_KEYS,
    Shoe,
    ShoeExhausted,
    _best_total,
    _completes_blackjack,
    _falling,
    _take,
)

# --------------------------------------------------------------------- dealer


@functools.cache
def _dealer_ways(shoe: Shoe, hard: int, has_ace: bool, h17: bool,
                 push22: bool = False) -> tuple[int, tuple[int, ...]]:
    """The dealer's play from a state, counted in integers (exact, and fast).

    The dealer holds cards of hard total ``hard`` (``has_ace``: one is an ace),
    is past the blackjack check, and draws from the rank counts ``shoe`` (n
    cards). He draws only while his hard total is 16 or less and every card
    adds at least 1, so he draws at most ``17 - hard`` more cards; let
    ``K = min(n, max(0, 17 - hard))``. Deal K cards from the shoe in order:
    there are ff(n, K) such deals and the dealer's play uses a prefix of each.
    Returns K and, for 17, 18, 19, 20, 21, bust, 22 (:data:`DEALER_KEYS`), the number
    of those deals in which he ends there; divided by ff(n, K) these are the
    probabilities. ``push22``: the rules' "dealer 22 pushes" (a hand he ends on with a
    hard total of exactly 22 is counted as "22", not as a bust; it is always a hard
    total, since an ace counts 1 once 11 would pass 21).
    """
    n = sum(shoe)
    k = min(n, max(0, 17 - hard))
    total = _best_total(hard, has_ace)
    soft = total != hard
    ways = [0] * 7
    if hard > 21 or (total >= 17 and not (total == 17 and soft and h17)):
        ways[(6 if push22 and hard == 22 else 5) if hard > 21 else total - 17] = _falling(n, k)
        return k, tuple(ways)
    if n == 0:
        raise ShoeExhausted("the dealer must draw from an empty shoe")
    for i, count in enumerate(shoe):
        if count:
            k_c, ways_c = _dealer_ways(_take(shoe, i), hard + i + 1, has_ace or i == 0, h17,
                                       push22)
            # k_c <= k - 1: each deal of k_c cards after this one extends in
            # ff(n - 1 - k_c, k - 1 - k_c) ways to a deal of k - 1 cards.
            m = count * _falling(n - 1 - k_c, k - 1 - k_c)
            for j in range(7):
                ways[j] += m * ways_c[j]
    return k, tuple(ways)


@functools.cache
def _dealer_from(shoe: Shoe, hard: int, has_ace: bool, h17: bool,
                 push22: bool = False) -> tuple[Fraction, ...]:
    """P(17), P(18), P(19), P(20), P(21), P(bust), P(22) of a dealer who holds cards of
    hard total ``hard`` (``has_ace``: one of them an ace), is past the blackjack
    check, and draws from the rank counts ``shoe``."""
    k, ways = _dealer_ways(shoe, hard, has_ace, h17, push22)
    deals = _falling(sum(shoe), k)
    return tuple(Fraction(w, deals) for w in ways)


@functools.cache
def _dealer_two_step(shoe: Shoe, up: int, h17: bool,
                     push22: bool = False) -> tuple[tuple[Fraction, ...], Fraction]:
    """(unconditioned P of each non-blackjack outcome, P(blackjack)) for up card
    ``up`` and a second card drawn from ``shoe``."""
    n = sum(shoe)
    if n == 0:
        raise ShoeExhausted("the dealer's second card must come from an empty shoe")
    acc = [Fraction(0)] * 7
    p_bj = Fraction(0)
    for i, count in enumerate(shoe):
        if not count:
            continue
        if _completes_blackjack(up, i + 1):
            p_bj += Fraction(count, n)
            continue
        sub = _dealer_from(_take(shoe, i), up + i + 1, up == 1 or i == 0, h17, push22)
        for k in range(7):
            acc[k] += Fraction(count, n) * sub[k]
    return tuple(acc), p_bj


def _keyed(dist: Sequence[Fraction], push22: bool) -> dict[str, Fraction]:
    """``dist`` by :data:`DEALER_KEYS`, "22" only where the rules count it apart."""
    return {k: p for k, p in zip(DEALER_KEYS, dist, strict=True) if k != "22" or push22}


def dealer_distribution(shoe: Shoe, up: int, hits_soft_17: bool,
                        push22: bool = False) -> dict[str, Fraction]:
    """The dealer's final outcome, blackjack included (keys 17..21, bust, blackjack, and
    22 with ``push22``).

    ``shoe`` is what is left after the up card and every known card is removed;
    the second card comes from it.
    """
    dist, p_bj = _dealer_two_step(tuple(shoe), up, hits_soft_17, push22)
    return {**_keyed(dist, push22), "blackjack": p_bj}


def dealer_distribution_no_blackjack(
    shoe: Shoe, up: int, hits_soft_17: bool, push22: bool = False
) -> dict[str, Fraction]:
    """The dealer's final outcome given that he has no blackjack (keys 17..21, bust, and
    22 with ``push22``)."""
    dist, p_bj = _dealer_two_step(tuple(shoe), up, hits_soft_17, push22)
    if p_bj == 1:
        raise ValueError("the dealer has blackjack for sure")
    return _keyed([p / (1 - p_bj) for p in dist], push22)


def _versus(total: int, dist: Sequence[Fraction]) -> Fraction:
    """Player's result standing on ``total`` against the dealer outcomes ``dist``
    (17..21, bust, 22; a total below 17 loses to every dealer total; a dealer's 22,
    where the rules count it apart, pushes every standing hand: it adds nothing)."""
    result = dist[5]
    for k in range(5):
        dealer = 17 + k
        result += dist[k] * ((total > dealer) - (total < dealer))
    return result + dist[6] * 0
