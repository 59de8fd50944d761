"""Splitting a pair, once or with resplits up to four hands, exactly.

Strategy (named, as every analyzer must): each split hand plays the best
composition-dependent strategy for *its own cards, the up card and the
original pair*; it ignores the other hands' cards, extra pair cards included
(with one split allowed there are none, and this is the usual baseline).

The engine values one split hand with ``a`` further pair cards gone
(:func:`strategy_calc._engine.split_tables`): ``X[a]`` (its second card may be
anything; a pair card is played) and ``P[a]`` (its second card is a pair
card). Everything else is exchangeability of the cards:

- the order of the dealing does not change the probability of a deal, so the
  split is a sequence of *second-card draws* (``P``: a pair card, resplit;
  ``X``: any other card, the hand is complete) until the hands run out or the
  maximum is reached, after which second cards are unconstrained; the cards a
  hand draws while playing are unconstrained too;
- removing an unseen random card from the shoe does not change the EV of a
  fixed strategy that ignores it. With ``v`` the chance that it is a pair
  card, ``E[a, b-1] = v E[a+1, b-1] + (1 - v) E[a, b]`` gives the value with
  ``b`` other hands' non-pair second cards gone;
- a hand whose second card is known not to be a pair card is worth
  ``F / (1 - v)`` with ``F = X - v P`` (the same identity holds for ``F``, the
  expectation of ``value * 1{second card not a pair}``).

These identities hold for one fixed strategy. ``cdp1`` plays the rows of one (the
decisions best for ``a = 0``, frozen), so the sum is its exact EV. The field's CDP
(``cdp``, Eric Farmer's definition) feeds the same sum rows ``X[a]``, ``P[a]`` that each
play the decisions best for their own ``a``: each term follows the number of pair cards
removed in the shoe it is valued with, and the identities mix the strategies of
neighbouring ``a`` (no single process of play has this value; with one split it is
``cdp1``). ``cdp-hands`` is such a process: every hand's second card dealt first, then
all hands play the decisions best for the ``k`` resplits made (``by_resplits`` of
:func:`combine`: the rows frozen at ``a = k``, used by the arrangements with ``k``
resplits).

>>> arrangements(3)
[('early', 2, 0, 2, 1), ('max', 3, 1, 0, 1), ('max', 3, 1, 1, 1)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from strategy_calc.engine import SplitRow

Value = Callable[[int, int], float]
"""A split hand's value given (extra pair cards gone, other hands' non-pair second cards gone)."""


@cache
def arrangements(max_hands: int) -> list[tuple[str, int, int, int, int]]:
    """Ways the second-card draws can run: ``(kind, hands, pairs, non_pairs, count)``.

    ``early``: every hand got a non-pair second card before the maximum was
    reached (``hands`` hands, ``pairs = hands - 2`` resplits, ``non_pairs =
    hands``). ``max``: the last allowed pair card came after ``non_pairs``
    hands were complete; the other ``hands - non_pairs`` hands then draw
    freely. ``count``: the number of orders of those draws.
    """
    found: dict[tuple[str, int, int, int], int] = {}

    def walk(created: int, done: int, pairs: int) -> None:
        if created == max_hands:
            key = ("max", created, pairs, done)
        elif done == created:
            key = ("early", created, pairs, done)
        else:
            walk(created + 1, done, pairs + 1)
            walk(created, done + 1, pairs)
            return
        found[key] = found.get(key, 0) + 1

    walk(2, 0, 0)
    return sorted((*key, n) for key, n in found.items())


def combine(
    first: Sequence[SplitRow], others: Sequence[SplitRow], column: int, n: int, n_pair: int,
    max_hands: int,
    by_resplits: Sequence[tuple[Sequence[SplitRow], Sequence[SplitRow]]] | None = None,
    replacement: bool = False,
) -> tuple[float, float]:
    """EV of the first split hand and of all the others together (engine scale).

    ``first`` / ``others``: :func:`~strategy_calc._engine.split_tables` rows for
    the first hand and for the others (they differ only in what an ENHC dealer
    blackjack takes). ``column``: 0 optimal, 2 chart, 4 chart without double
    after split. ``n`` / ``n_pair``: cards and pair cards left once both pair
    cards and the up card are gone. ``by_resplits`` (``cdp-hands``): for ``k``
    resplits, the rows of the strategy the hands play when ``k`` extra pair cards
    were split off (its decisions fixed, so the same removal identities value it
    under every removal); entry 0 is ``(first, others)``. (``cdp`` needs no
    ``by_resplits``: its rows, each its own removal's best play, are ``first`` and
    ``others``.) ``replacement``: an infinite deck, every card drawn with replacement:
    each card is a pair card with chance ``n_pair / n`` whatever was dealt (``n`` and
    ``n_pair`` then count the shoe's proportions, no card gone).

    A play worth -0.5 a hand whatever is removed (``X = P = -0.5`` in every row), 10
    cards left of which 2 pair cards, up to 3 hands: the first hand is worth -0.5, the
    others -0.5 times the expected number of other hands, 1 + P(a resplit) =
    2 - (8/10)(7/9):

    >>> row = (-0.5, -0.5, 0.0, 0.0, 0.0, 0.0)
    >>> first, others = combine([row] * 3, [row] * 3, 0, 10, 2, 3)
    >>> round(first, 12), round(others, 12), round(-0.5 * (2 - 8 / 10 * 7 / 9), 12)
    (-0.5, -0.688888888889, -0.688888888889)
    """
    if max_hands == 2:  # one split: each hand's row 0 (what the general sum reduces to)
        return first[0][column], others[0][column]
    tables = [(_removal_values(f, column, n, n_pair, replacement),
               _removal_values(o, column, n, n_pair, replacement))
              for f, o in (by_resplits or [(first, others)])]
    total_first = total_others = 0.0
    for kind, hands, pairs, non_pairs, count in arrangements(max_hands):
        (x1, n1), (x2, n2) = tables[min(pairs, len(tables) - 1)]
        prob = _arrangement_chance(count, pairs, non_pairs, n, n_pair, replacement)
        if prob <= 0.0:
            continue
        a = pairs
        if kind == "early":
            total_first += prob * n1(a, hands - 1)
            total_others += prob * (hands - 1) * n2(a, hands - 1)
        elif non_pairs >= 1:
            total_first += prob * n1(a, non_pairs - 1)
            total_others += prob * ((non_pairs - 1) * n2(a, non_pairs - 1)
                                    + (hands - non_pairs) * x2(a, non_pairs))
        else:
            total_first += prob * x1(a, 0)
            total_others += prob * (hands - 1) * x2(a, 0)
    return total_first, total_others


def _arrangement_chance(count: int, pairs: int, non_pairs: int, n: int, n_pair: int,
                        replacement: bool = False) -> float:
    """P(the next ``pairs`` cards are pair cards and the ``non_pairs`` after them are not),
    times ``count`` orders (``n`` cards left, ``n_pair`` of them pair cards; with
    ``replacement`` none is ever gone)."""
    prob = float(count)
    if replacement:
        return prob * (n_pair / n) ** pairs * ((n - n_pair) / n) ** non_pairs
    for t in range(pairs):
        prob *= (n_pair - t) / (n - t)
    for t in range(non_pairs):
        prob *= (n - n_pair - t) / (n - pairs - t)
    return prob


def _removal_values(rows: Sequence[SplitRow], column: int, n: int, n_pair: int,
                    replacement: bool = False) -> tuple[Value, Value]:
    """``(x, non_pair)`` of one hand's rows (``column``: as in :func:`combine`): ``x(a, b)``
    its value with ``a`` extra pair cards and ``b`` other hands' non-pair second cards
    gone, ``non_pair(a, b)`` the same given its own second card is no pair card (the
    removal identities of the module docstring)."""

    def v(a: int, b: int) -> float:
        if replacement:  # (no card is ever gone)
            return n_pair / n
        left = n - a - b
        return (n_pair - a) / left if left > 0 and n_pair > a else 0.0

    @cache
    def x(a: int, b: int) -> float:
        if a >= len(rows):
            return 0.0
        if b == 0:
            return rows[a][column]
        w = v(a, b - 1)
        return (x(a, b - 1) - w * x(a + 1, b - 1)) / (1.0 - w) if w < 1.0 else 0.0

    @cache
    def f(a: int, b: int) -> float:
        if a >= len(rows):
            return 0.0
        if b == 0:
            w = v(a, 0)
            return rows[a][column] - (w * rows[a][column + 1] if w > 0 else 0.0)
        w = v(a, b - 1)
        return (f(a, b - 1) - w * f(a + 1, b - 1)) / (1.0 - w) if w < 1.0 else 0.0

    def non_pair(a: int, b: int) -> float:
        w = v(a, b)
        return f(a, b) / (1.0 - w) if w < 1.0 else 0.0

    return x, non_pair


MomentRow = tuple[float, ...]
"""One row of :func:`strategy_calc._engine.resplit_moment_rows` (20 raw sums)."""


def combine_moments(rows: Sequence[MomentRow | None], n: int, n_pair: int,
                    max_hands: int, replacement: bool = False) -> tuple[float, float, float]:
    """Raw ``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of a split round with resplits up to
    ``max_hands`` hands, X the net result of all its hands, from the engine's rows (``a``
    further pair cards gone; ``n`` / ``n_pair`` as in :func:`combine`).

    X = sum_h X_h, so E[X^2] = sum_h E[X_h^2] + 2 sum_{h<g} E[X_h X_g]. Every split hand
    plays one fixed strategy on its own cards, so the module's identities hold for any
    expectation of the hands' and the dealer's cards, joint ones included: per
    arrangement of the second-card draws, a hand whose second card is known to be no
    pair card (it completed before the maximum) and a *free* one (after it) are valued
    with the other hands' non-pair second cards gone as unseen cards; two such hands
    jointly likewise, the indicator of each constrained hand's second card taken in the
    engine's sums (``E[Y 1{s1 != pair}] = E[Y] - E[Y 1{s1 = pair}]``, and for two hands
    the four terms) and divided by its probability. By symmetry every pair of hands of
    one kind (the first hand or a later one; constrained or free) has the same value, so
    an arrangement adds its pair counts times those values. ``E[X]`` is
    :func:`combine`'s sum on the same rows, and with ``max_hands`` 2 this is the one-split
    round's (``X_1 + X_2``, no constraint). ``replacement`` (an infinite deck): as in
    :func:`combine`, every second card a pair card with chance ``n_pair / n`` whatever was
    dealt (the rows are then all alike: no card is gone).

    Every hand worth -1 whatever happens (r = -1, r^2 = 1, no blackjack part; a part is
    its chance times that): with up to 3 hands, 10 cards left of which 2 pair cards,
    X = -H with H the number of hands, 3 with chance p3 = 1 - (8/10)(7/9) (a pair card
    among the two second cards), so E[X] = -(2 + p3) and E[X^2] = 4 + 5 p3:

    >>> def row(a):  # a further pair cards gone: the second card a pair card with chance v
    ...     n, k = 10 - a, 2 - a
    ...     v, vv = k / n, k * (k - 1) / (n * (n - 1))
    ...     return (-1.0, 1.0, 0.0, -v, v, 0.0) * 2 + (1.0, v, v, vv) * 2
    >>> m1, m2, _ = combine_moments([row(a) for a in range(3)], 10, 2, 3)
    >>> p3 = 1 - 8 / 10 * 7 / 9
    >>> round(m1, 12) == round(-(2 + p3), 12), round(m2, 12) == round(4 + 5 * p3, 12)
    (True, True)
    """
    singles, pairs = _moment_values(rows, n, n_pair, replacement)
    totals = [0.0, 0.0, 0.0]
    for kind, hands, resplits, non_pairs, count in arrangements(max_hands):
        prob = _arrangement_chance(count, resplits, non_pairs, n, n_pair, replacement)
        if prob <= 0.0:
            continue
        a = resplits
        # constrained: the first hand and c - 1 later ones; free: f later ones
        c = hands if kind == "early" else non_pairs
        f = hands - c
        for q in range(3):
            (free_1, cons_1), (free_o, cons_o) = singles[0][q], singles[1][q]
            if c:
                value = cons_1(a, c - 1) + (c - 1) * cons_o(a, c - 1) + f * free_o(a, c)
            else:
                value = free_1(a, 0) + (hands - 1) * free_o(a, 0)
            totals[q] += prob * value
        (ff_1, cf_1, cc_1), (ff_o, cf_o, cc_o) = pairs
        if c:  # pairs of hands by kind, times their value
            terms = [(c - 1, cc_1, c - 2), (f, cf_1, c - 1),
                     ((c - 1) * (c - 2) // 2, cc_o, c - 2), ((c - 1) * f, cf_o, c - 1),
                     (f * (f - 1) // 2, ff_o, c)]
        else:
            terms = [(hands - 1, ff_1, 0), ((hands - 1) * (hands - 2) // 2, ff_o, 0)]
        totals[1] += prob * 2.0 * sum(k * value(a, b) for k, value, b in terms if k)
    return totals[0], totals[1], totals[2]


Values = Callable[[int, int], float]
"""A quantity's value given (further pair cards gone, other hands' non-pair second cards gone)."""


def _pair_chance(n: int, n_pair: int, a: int, b: int, replacement: bool) -> float:
    """The chance that the next card is a pair card, ``a`` further pair cards and ``b``
    other cards gone (``replacement``: none is ever gone)."""
    if replacement:
        return n_pair / n
    left = n - a - b
    return (n_pair - a) / left if left > 0 and n_pair > a else 0.0


def _no_pair_twice(n: int, n_pair: int, a: int, b: int, replacement: bool) -> float:
    """The chance that neither of the next two cards is a pair card (as
    :func:`_pair_chance`)."""
    if replacement:
        return (1.0 - n_pair / n) ** 2
    left, pairs = n - a - b, max(n_pair - a, 0)
    if left < 2:
        return 0.0
    return (left - pairs) * (left - pairs - 1) / (left * (left - 1))


def _moment_values(rows: Sequence[MomentRow | None], n: int, n_pair: int,
                   replacement: bool = False
                   ) -> tuple[list[list[tuple[Values, Values]]], list[tuple[Values, ...]]]:
    """:func:`combine_moments`' values from its rows: per role (0 the first hand, 1 a later
    one) and quantity (r, r^2, r 1{bj}) one hand's (free, constrained) values; per role
    (0 first and later, 1 two later) two hands' (free-free, constrained-free,
    constrained-constrained) values of E[r1 r2]."""
    def v(a: int, b: int) -> float:
        return _pair_chance(n, n_pair, a, b, replacement)

    def both(a: int, b: int) -> float:
        return _no_pair_twice(n, n_pair, a, b, replacement)

    def extend(at: Callable[[int], float]) -> Values:
        @cache
        def g(a: int, b: int) -> float:
            if b == 0:
                return at(a)
            w = v(a, b - 1)
            return (g(a, b - 1) - w * g(a + 1, b - 1)) / (1.0 - w) if w < 1.0 else 0.0
        return g

    def column(*terms: tuple[float, int]) -> Callable[[int], float]:
        def at(a: int) -> float:
            row = rows[a] if a < len(rows) else None
            return 0.0 if row is None else sum(s * row[i] for s, i in terms)
        return at

    def cond(g: Callable[[int, int], float], p: Callable[[int, int], float]
             ) -> Callable[[int, int], float]:
        def h(a: int, b: int) -> float:
            q = p(a, b)
            return g(a, b) / q if q > 0.0 else 0.0
        return h

    def no_pair(a: int, b: int) -> float:
        return 1.0 - v(a, b)

    def one(role: int, q: int) -> tuple[Callable[[int, int], float], Callable[[int, int], float]]:
        """(free, constrained) values of one hand's quantity q (0 r, 1 r^2, 2 r 1{bj})."""
        i = 6 * role + q
        return extend(column((1.0, i))), cond(extend(column((1.0, i), (-1.0, i + 3))), no_pair)

    def two(role: int) -> tuple[Callable[[int, int], float], ...]:
        """(free-free, constrained-free, constrained-constrained) values of E[r1 r2]."""
        i = 12 + 4 * role  # XX, XP (hand 2's second card a pair card), PX, PP
        return (extend(column((1.0, i))),
                cond(extend(column((1.0, i), (-1.0, i + 2))), no_pair),
                cond(extend(column((1.0, i), (-1.0, i + 1), (-1.0, i + 2), (1.0, i + 3))),
                     both))

    return ([[one(role, q) for q in range(3)] for role in range(2)],
            [two(role) for role in range(2)])
