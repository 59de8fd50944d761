"""A brute force of one blackjack round with several boxes, in casino order, on tiny
shoes (exact fractions), written from the rules text (shared RULES.md, docs/MODEL.md),
not from the engine.

The deal, as a casino deals it: one card to each box in turn, the dealer's up card, a
second card to each box in turn; in a peek game the hole card then, checked (a dealer
blackjack ends the round: a box with a natural pushes, every other box loses its one
unit); each box then plays out in turn (its splits hand by hand), and the dealer
draws last (ENHC: his second card only now). Every card is drawn without replacement,
each remaining card equally likely; :func:`round_distribution` follows every sequence
of ranks, step by step in that order (merging the states that leave the same shoe and
the same hands), so the law it gives is the casino's.

A box's *strategy* looks only at its own cards and the up card (``Strategy``): the
first decision of a two-card hand (``"S"`` stand, ``"H"`` hit, ``"D"`` double, ``"R"``
surrender, ``"P"`` split), then hit or stand. Split hands (one split, no resplit) take
a second card each in turn as they are played and decide by their own cards (the pair
card included) and the up card; split aces take one card each. A natural (A + ten as
a box's first two cards) is paid ``blackjack_pays`` unless the dealer has one too
(push); no insurance, no even money. Settlement: a bust loses the hand's bet at once;
ENHC: a dealer blackjack takes every bet on the box, doubles and split bets included
(``enhc_loses = "all"``); surrender loses half (ENHC: also against a later dealer
blackjack, Macau's early surrender). Totals compare as usual; with ``push22`` (the rules'
``dealer_22_pushes``) a dealer who ends on exactly 22 pushes every hand still standing (a
natural is still paid, a bust has lost). No bonuses.

If the dealer or a box must draw from an empty shoe the enumeration raises
:class:`ShoeExhausted` (then there is no law to give).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from rational import Fraction

Strategy = Callable[[tuple[int, ...], int, str], str]
"""strategy(cards, up, where) -> action; cards: the hand's ranks (1 = ace .. 10), in
the order drawn; where: ``"first"`` (a box's two cards), ``"split"`` (a split hand's two
cards), ``"later"`` (after a hit)."""


class ShoeExhausted(Exception):
    """A draw from an empty shoe."""


@dataclass(frozen=True)
class BoxRules:
    """The rules the brute force knows (a subset of ``BlackjackRules``, same meanings)."""

    peek: bool = False
    h17: bool = False
    blackjack_pays: Fraction = Fraction(3, 2)
    double_after_split: bool = True
    split_aces_one_card: bool = True
    push22: bool = False


def total(cards: tuple[int, ...]) -> tuple[int, bool]:
    """(best total, soft) of ranks 1..10."""
    t = sum(cards)
    if 1 in cards and t + 10 <= 21:
        return t + 10, True
    return t, False


def _natural(cards: tuple[int, ...]) -> bool:
    return len(cards) == 2 and sorted(cards) == [1, 10]


Counts = tuple[int, ...]
Dist = dict  # outcome -> Fraction


def _draws(counts: Counts) -> Iterator[tuple[int, Fraction, Counts]]:
    """Each rank (1..10) the next card can be, its chance, and the shoe after it."""
    n = sum(counts)
    if n == 0:
        raise ShoeExhausted
    for r in range(10):
        if counts[r]:
            yield r + 1, Fraction(counts[r], n), (*counts[:r], counts[r] - 1, *counts[r + 1:])


def _add(d: dict, key: object, p: Fraction) -> None:
    d[key] = d.get(key, Fraction(0)) + p


# A hand's end, as it settles: ("nat",), ("sur",), ("bust", bet), ("stand", total, bet).
End = tuple


def _hit_out(cards: tuple[int, ...], counts: Counts, up: int, strategy: Strategy,
             bet: int, last_card: bool) -> dict[tuple[End, Counts], Fraction]:
    """The hand ``cards`` takes a card, then (unless ``last_card``) hits while its
    strategy says so: its ends and the shoe after them."""
    out: dict[tuple[End, Counts], Fraction] = {}
    for r, p, rest in _draws(counts):
        now = (*cards, r)
        t, _ = total(now)
        if t > 21:
            _add(out, (("bust", bet), rest), p)
        elif last_card or t == 21 or strategy(tuple(sorted(now)), up, "later") != "H":
            _add(out, (("stand", t, bet), rest), p)
        else:
            for key, q in _hit_out(now, rest, up, strategy, bet, False).items():
                _add(out, key, p * q)
    return out


def _play_hand(cards: tuple[int, ...], counts: Counts, up: int, strategy: Strategy,
               where: str, rules: BoxRules) -> dict[tuple[End, Counts], Fraction]:
    """A two-card hand (a box's, or a split hand's) played out from ``counts``."""
    t, _ = total(cards)
    if t == 21:
        return {(("stand", 21, 1), counts): Fraction(1)}
    action = strategy(tuple(sorted(cards)), up, where)
    if action == "R" and where == "first":
        return {(("sur",), counts): Fraction(1)}
    if action == "D" and (where == "first" or rules.double_after_split):
        return _hit_out(cards, counts, up, strategy, 2, True)
    if action == "S":
        return {(("stand", t, 1), counts): Fraction(1)}
    if action not in "HD":
        raise ValueError(f"action {action!r} not allowed here")
    return _hit_out(cards, counts, up, strategy, 1, False)


@cache
def _play_box(cards: tuple[int, ...], counts: Counts, up: int, strategy: Strategy,
              rules: BoxRules) -> dict[tuple[tuple[End, ...], Counts], Fraction]:
    """A box's round from its two cards: the ends of its hands (two after a split, the
    first hand played out before the second takes its second card) and the shoe after."""
    if sorted(cards) == [1, 10]:
        return {((("nat",),), counts): Fraction(1)}
    if cards[0] == cards[1] and strategy(tuple(sorted(cards)), up, "first") == "P":
        pair = cards[0]
        out: dict[tuple[tuple[End, ...], Counts], Fraction] = {}
        one = pair == 1 and rules.split_aces_one_card

        def split_hand(c: Counts) -> dict[tuple[End, Counts], Fraction]:
            got: dict[tuple[End, Counts], Fraction] = {}
            for r, p, rest in _draws(c):
                if one:
                    _add(got, (("stand", total((pair, r))[0], 1), rest), p)
                    continue
                for key, q in _play_hand((pair, r), rest, up, strategy, "split",
                                         rules).items():
                    _add(got, key, p * q)
            return got

        for (e1, c1), p1 in split_hand(counts).items():
            for (e2, c2), p2 in split_hand(c1).items():
                _add(out, ((e1, e2), c2), p1 * p2)
        return out
    return {((e,), c): p for (e, c), p in _play_hand(cards, counts, up, strategy, "first",
                                                     rules).items()}


@cache
def _dealer(counts: Counts, cards: tuple[int, ...], h17: bool,
            push22: bool = False) -> dict[object, Fraction]:
    """The dealer's outcome from ``cards`` (two or more): "bj", 17..21, 22 (bust), or
    "push" (exactly 22 where ``push22``)."""
    t, soft = total(cards)
    if len(cards) == 2 and t == 21:
        return {"bj": Fraction(1)}
    if t > 21:
        return {"push" if push22 and t == 22 else 22: Fraction(1)}
    if t > 17 or (t == 17 and not (soft and h17)):
        return {t: Fraction(1)}
    out: dict[object, Fraction] = {}
    for r, p, rest in _draws(counts):
        for k, q in _dealer(rest, (*cards, r), h17, push22).items():
            _add(out, k, p * q)
    return out


def _settle(ends: tuple[End, ...], dealer: object, rules: BoxRules) -> Fraction:
    """A box's net result against the dealer's outcome (None: not needed)."""
    x = Fraction(0)
    for e in ends:
        if e[0] == "sur":
            x -= Fraction(1, 2)  # (ENHC: early surrender keeps half even against a blackjack)
        elif e[0] == "nat":
            x += 0 if dealer == "bj" else rules.blackjack_pays
        elif e[0] == "bust":
            x -= e[1]
        elif dealer == "bj":
            x -= e[2]  # ENHC: the dealer's blackjack takes every bet on the box
        elif dealer == "push":
            pass  # his 22 pushes every hand still standing
        else:
            assert isinstance(dealer, int)
            x += e[2] if dealer > 21 or e[1] > dealer else (-e[2] if e[1] < dealer else 0)
    return x


def round_distribution(counts: Counts, boxes: int, strategy: Strategy,
                       rules: BoxRules) -> dict[tuple[Fraction, ...], Fraction]:
    """The joint law of the boxes' net results (per unit bet a box), exactly.
    ``counts``: cards per rank, index 0 = aces .. 9 = ten-valued."""
    out: dict[tuple[Fraction, ...], Fraction] = {}
    for (x, _bj), p in round_law(counts, boxes, strategy, rules).items():
        _add(out, x, p)
    return out


def round_law(counts: Counts, boxes: int, strategy: Strategy, rules: BoxRules
              ) -> dict[tuple[tuple[Fraction, ...], bool], Fraction]:
    """:func:`round_distribution` with, in each key, whether the dealer had blackjack."""
    # the deal in casino order: first cards, the up card, second cards, (peek) the hole card
    deal: dict[tuple[Counts, tuple[int, ...]], Fraction] = {(tuple(counts), ()): Fraction(1)}
    for _ in range(2 * boxes + 1 + rules.peek):
        nxt: dict[tuple[Counts, tuple[int, ...]], Fraction] = {}
        for (c, seen), p in deal.items():
            for r, q, rest in _draws(c):
                _add(nxt, (rest, (*seen, r)), p * q)
        deal = nxt
    # the same cards to the same boxes play alike (a strategy sees a hand's cards as a set)
    dealt: dict[tuple[Counts, int, tuple[tuple[int, int], ...], int | None], Fraction] = {}
    for (c, seen), p in deal.items():
        _add(dealt, (c, seen[boxes], tuple(tuple(sorted((seen[b], seen[boxes + 1 + b])))
                                          for b in range(boxes)),
                     seen[2 * boxes + 1] if rules.peek else None), p)
    out: dict[tuple[tuple[Fraction, ...], bool], Fraction] = {}
    for (c, up, hands, hole), p in dealt.items():
        if hole is not None and sorted((up, hole)) == [1, 10]:
            _add(out, (tuple(Fraction(0) if sorted(h) == [1, 10] else Fraction(-1)
                             for h in hands), True), p)
            continue
        # each box plays out in turn
        states: dict[tuple[tuple[tuple[End, ...], ...], Counts], Fraction] = {((), c): p}
        for h in hands:
            nxt2: dict[tuple[tuple[tuple[End, ...], ...], Counts], Fraction] = {}
            for (done, c1), q in states.items():
                for (ends, c2), q2 in _play_box(h, c1, up, strategy, rules).items():
                    _add(nxt2, ((*done, ends), c2), q * q2)
            states = nxt2
        for (done, c2), q in states.items():
            stands = any(e[0] == "stand" for ends in done for e in ends)
            if stands:
                first = (up,) if hole is None else (up, hole)
                if hole is None:
                    law: dict[object, Fraction] = {}
                    for r, q3, rest in _draws(c2):
                        for k, q4 in _dealer(rest, (up, r), rules.h17, rules.push22).items():
                            _add(law, k, q3 * q4)
                else:
                    law = _dealer(c2, first, rules.h17, rules.push22)
            elif hole is None:  # ENHC: only whether the dealer has blackjack (a natural's
                # payout, and E[X 1{dealer blackjack}]; his second card is an unseen card)
                law = {}
                for r, q3, _rest in _draws(c2):
                    _add(law, "bj" if sorted((up, r)) == [1, 10] else 0, q3)
            else:
                law = {None: Fraction(1)}
            for k, q5 in law.items():
                _add(out, (tuple(_settle(ends, k, rules) for ends in done), k == "bj"),
                     q * q5)
    return out


@dataclass(frozen=True)
class BoxMoments:
    """Exact moments of one round of ``boxes`` boxes, per unit bet a box."""

    boxes: int
    ev: tuple[Fraction, ...]                       # E[X_i]
    second: tuple[Fraction, ...]                   # E[X_i^2]
    cross: dict[tuple[int, int], Fraction]         # E[X_i X_j], i < j
    total_variance: Fraction                       # Var(X_1 + ... + X_N)
    with_blackjack: tuple[Fraction, ...] = ()      # E[X_i 1{dealer blackjack}]

    def covariance(self, i: int, j: int) -> Fraction:
        return self.cross[(i, j)] - self.ev[i] * self.ev[j]

    def variance(self, i: int) -> Fraction:
        return self.second[i] - self.ev[i] ** 2


def box_moments(counts: tuple[int, ...], boxes: int, strategy: Strategy,
                rules: BoxRules = BoxRules()) -> BoxMoments:
    """The moments of every box and pair of boxes, summed over every way the round goes.
    Raises :class:`ShoeExhausted` when some deal empties the shoe."""
    ev = [Fraction(0)] * boxes
    second = [Fraction(0)] * boxes
    cross = {(i, j): Fraction(0) for i in range(boxes) for j in range(i + 1, boxes)}
    s1 = Fraction(0)
    s2 = Fraction(0)
    mass = Fraction(0)
    bj = [Fraction(0)] * boxes
    for (x, dealer_bj), p in round_law(counts, boxes, strategy, rules).items():
        mass += p
        if dealer_bj:
            for i in range(boxes):
                bj[i] += p * x[i]
        for i in range(boxes):
            ev[i] += p * x[i]
            second[i] += p * x[i] * x[i]
            for j in range(i + 1, boxes):
                cross[(i, j)] += p * x[i] * x[j]
        s1 += p * sum(x)
        s2 += p * sum(x) ** 2
    assert mass == 1, mass
    return BoxMoments(boxes, tuple(ev), tuple(second), cross, s2 - s1 * s1, tuple(bj))


def mimic_strategy(cards: tuple[int, ...], up: int, where: str) -> str:
    """A fixed strategy that sees its own cards and the up card only: surrender 16 (two
    cards) against a ten, split aces and 8s, double 10 and 11 against 2-9, hit below 17
    (below 13 against 2-6), else stand."""
    t, soft = total(cards)
    if where == "first" and len(cards) == 2 and cards[0] == cards[1] and cards[0] in (1, 8):
        return "P"
    if where == "first" and t == 16 and not soft and up == 10:
        return "R"
    if where in ("first", "split") and len(cards) == 2 and t in (10, 11) and 2 <= up <= 9:
        return "D"
    if soft:
        return "H" if t < 18 else "S"
    if 2 <= up <= 6:
        return "H" if t < 13 else "S"
    return "H" if t < 17 else "S"
