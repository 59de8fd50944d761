"""Families of unseen-card compositions along a count, the abscissa of count indices
(:mod:`strategy_calc.counting.indices`): by true count for a balanced system
(:class:`CountFamily`), by running count from the IRC for an unbalanced one
(:class:`RunningCountFamily`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from strategy_calc.cards import RANKS, Card, Shoe, check_decks, rank_counts
from strategy_calc.counting.effects import ONE_DECK
from strategy_calc.counting.systems import HILO, CountSystem
from strategy_calc.errors import InputError

TRUE_COUNT_RANGE = 20.0
"""The family is explored for true counts in [-20, +20] (steps are at most 20 apart)."""


class _HalfShoe:
    """What both families share: their depth, half the shoe unseen, and the cards out of
    the shoe at a step (each family gives :meth:`unseen` and its ``decks``)."""

    __slots__ = ()
    decks: int

    def unseen(self, step: int) -> tuple[int, ...]:  # pragma: no cover (each family's)
        raise NotImplementedError

    @property
    def unseen_cards(self) -> int:
        """Number of unseen cards, the same at every step: half the shoe."""
        return 26 * self.decks

    @property
    def decks_remaining(self) -> float:
        """Unseen cards in decks (a true count's divisor, ``r``)."""
        return self.unseen_cards / 52

    def removed(self, step: int, hand: Sequence[Card], up: Card) -> list[Card] | None:
        """The cards out of the shoe other than ``hand`` and ``up``, or None if impossible."""
        return _removed(self.decks, self.unseen(step), hand, up)

    def shoe_at(self, step: int, hand: Sequence[Card], up: Card) -> Shoe | None:
        """The full shoe less :meth:`removed` (suits unknown, so the suit rows stay full:
        :meth:`~strategy_calc.cards.Shoe.remove`), made from the rank counts: the same
        shoe without a list of ``26 * decks`` cards to remove one by one (at 1,000 decks
        that list cost 5 ms an analysis); None if impossible.

        >>> from strategy_calc.cards import Rank
        >>> family = CountFamily(6)
        >>> hand, up = [Card(Rank.TEN), Card(Rank.SIX)], Card(Rank.TEN)
        >>> family.shoe_at(2, hand, up) == Shoe.full(6).remove(family.removed(2, hand, up))
        True
        """
        gone = [a + b for a, b in zip(rank_counts(hand), rank_counts([up]), strict=True)]
        full = Shoe.full(self.decks)
        counts = []
        for total, left_unseen, seen in zip(full.counts, self.unseen(step), gone, strict=True):
            if left_unseen < 0 or total - left_unseen - seen < 0:
                return None
            counts.append(left_unseen + seen)
        return Shoe(self.decks, tuple(counts), full.suits)


@dataclass(frozen=True, slots=True)
class CountFamily(_HalfShoe):
    """Unseen-card compositions indexed by true count: half a shoe, tilted along the count.

    *Unseen cards* are the cards not yet seen when the player decides: the
    player's own cards and the dealer's up card are seen (and counted). The
    family fixes their number at half the shoe, ``26 * decks`` cards, i.e.
    ``decks / 2`` decks remaining. Step ``j`` (an integer) holds, per rank
    ``r``, ``ONE_DECK[r] * decks / 2 - j * tag_r * ONE_DECK[r] / g`` cards
    (``g`` the gcd of the nonzero ``tag_r * ONE_DECK[r]``). For Hi-Lo: ``2 D``
    of each rank and ``8 D`` tens at step 0, then per step one more ace, four
    more tens and one fewer of each of 2-6 (7-9 unchanged): the low and the
    high groups move in proportion to their shares. The running count is
    ``10 j`` and the true count ``20 j / D``.

    Why this direction: for cards seen at random, the best linear predictor
    of the unseen count of rank ``r`` given the running count moves it in
    proportion to ``share_r * tag_r`` (the covariance of a hypergeometric
    sample with a balanced count), so each step is the average shoe at that
    count, not a shoe picked to suit a decision. Integer steps keep the
    composition *exactly* proportional within each group; between them the
    EV difference is interpolated linearly, which for the average shoe is
    exact to first order (the error is the curvature of the EV difference: a
    cubic through the four nearest steps moves none of the Illustrious 18 by
    more than 0.06 at 6 or 8 decks). The steps are ``20 / D`` true counts
    apart (3.3 at 6 decks), so the family is coarse for one or two decks.

    >>> family = CountFamily(6)
    >>> family.unseen(0), family.unseen(2)
    ((12, 12, 12, 12, 12, 12, 12, 12, 12, 48), (14, 10, 10, 10, 10, 10, 12, 12, 12, 56))
    >>> family.running_count(2), round(family.true_count(2), 4)
    (20, 6.6667)
    """

    decks: int
    count: CountSystem = HILO

    def __post_init__(self) -> None:
        check_decks(self.decks)
        self.count.require_balanced("a count family")

    @property
    def step_vector(self) -> tuple[int, ...]:
        """Change of each rank's unseen count per step (half-point tags doubled first)."""
        weighted = [Fraction(t) * n for t, n in zip(self.count.tags, ONE_DECK, strict=True)]
        scale = math.lcm(*(w.denominator for w in weighted))
        whole = [int(w * scale) for w in weighted]
        g = math.gcd(*whole)
        return tuple(-w // g for w in whole)

    def unseen(self, step: int) -> tuple[int, ...]:
        """Unseen cards per rank (ace first) at ``step``; may be negative (check yourself)."""
        return tuple(n * self.decks // 2 + step * v
                     for n, v in zip(ONE_DECK, self.step_vector, strict=True))

    def running_count(self, step: int) -> float:
        """Running count of the seen cards: minus the tag sum of the unseen (balanced count)."""
        return -sum(t * n for t, n in zip(self.count.tags, self.unseen(step), strict=True))

    def true_count(self, step: int) -> float:
        """Running count per deck remaining."""
        return self.running_count(step) / self.decks_remaining

    index_kind = "true"
    """What an index along this family is: a true count."""

    def steps(self) -> range:
        """The integer steps whose true count is in [-20, 20] (at least -1 to 1)."""
        reach = max(1, math.floor(TRUE_COUNT_RANGE / self.true_count(1) + 1e-9))
        return range(-reach, reach + 1)

    def coordinate(self, step: int) -> float:
        """The index's unit at ``step``: its true count."""
        return self.true_count(step)

    def line(self, step: int) -> tuple[float, ...]:
        """The unseen cards per rank on the family's straight line (here: whole cards)."""
        return tuple(float(n) for n in self.unseen(step))

    def line_coordinate(self, step: int) -> float:
        """The true count at ``step`` of :meth:`line`."""
        return self.true_count(step)

    def true_count_of(self, index: float) -> float:
        """The true count of an index: the index itself."""
        return index

    def describe(self) -> str:
        """One line for reports."""
        moves = ", ".join(f"{v:+d} {r.symbol}" for r, v in zip(RANKS, self.step_vector,
                                                                 strict=True) if v)
        return (f"unseen cards (after the player's two cards and the up card, which are counted)"
                f" = half the shoe: {self.unseen_cards} cards, {self.decks_remaining:g} decks"
                f" remaining; step j: neutral half shoe plus j times ({moves}); running count"
                f" {self.running_count(1)}j, true count {self.true_count(1):.4g}j; EV difference"
                f" linearly interpolated between integer steps; root by scipy brentq")


def _removed(decks: int, unseen: Sequence[int], hand: Sequence[Card], up: Card
             ) -> list[Card] | None:
    """The cards out of a ``decks``-deck shoe other than ``hand``, ``up`` and the ``unseen``
    cards (per rank, ace first), or None if impossible."""
    gone = [a + b for a, b in zip(rank_counts(hand), rank_counts([up]), strict=True)]
    out: list[Card] = []
    full = Shoe.full(decks).counts
    for rank, total, left_unseen, seen in zip(RANKS, full, unseen, gone, strict=True):
        left = total - left_unseen - seen
        if left_unseen < 0 or left < 0:
            return None
        out.extend([Card(rank)] * left)
    return out


@dataclass(frozen=True, slots=True)
class RunningCountFamily(_HalfShoe):
    """Unseen-card compositions indexed by an unbalanced system's running count (KO, Red 7).

    As :class:`CountFamily`, the unseen cards are half the shoe, ``26 * decks`` cards
    (``r = decks / 2`` decks remaining), and the player's two cards and the up card are
    seen. The *running count* is the player's: the system's IRC (``irc`` of
    :class:`~strategy_calc.counting.systems.CountSystem`; KO 4 - 4 x decks, Red 7 -2 x
    decks) plus the tags of the seen cards, i.e. ``IRC + s * decks - sum_r t_r u_r``
    (``s`` a deck's tag sum, ``t_r`` the tags, a seven whose suit is not known counting
    the mean of a red and a black one, ``u_r`` the unseen cards). On average half way
    through the shoe it is ``IRC + s * r``; its excess ``e`` over that, per deck
    remaining, is the *equivalent true count* ``T = e / r`` (the true count of the
    balanced count with tags ``t_r - s / 52``), so at this depth ``RC = IRC + s * decks
    - s * r + T * r``: for KO (IRC 4 - 4 D, s = 4) ``RC = 4 + (T - 4) r``, for Red 7
    (IRC -2 D, s = 2) ``RC = (T - 2) r``. At the pivot (KO +4, Red 7 0) ``T = s``
    whatever the depth; elsewhere one running count means different true counts at
    different depths, and this family states its depth: half the shoe dealt.

    Step ``j`` is the average unseen half shoe at excess ``e = j * decks`` (a true count
    ``2 j``): the best linear predictor of the unseen cards of each rank given the seen
    cards' count, ``u_r = n_r r - e * p_r (t_r - s / 52) / v`` (``n_r`` cards of the
    rank in a deck, ``p_r = n_r / 52``, ``v = sum_q p_q (t_q - s / 52)^2``), rounded to
    whole cards: ace to 9 each to the nearest (so ranks of one tag stay equal), the
    ten-valued cards the rest of the half shoe. Unlike Hi-Lo's, this direction has no
    small whole-card step (KO's would move 14 aces, 56 tens and 12 of each of 2-7 at
    once), so the compositions are rounded: each step's running count is the exact one
    of its rounded composition, not ``j * decks``; of several steps with one running
    count, the one whose line passes nearest to it is analysed.

    >>> from strategy_calc.counting.systems import find_system
    >>> ko = RunningCountFamily(2, find_system("ko"))
    >>> ko.unseen(0), ko.coordinate(0), ko.true_count_of(ko.coordinate(0))  # 4 + (0 - 4) 1
    ((4, 4, 4, 4, 4, 4, 4, 4, 4, 16), 0.0, 0.0)
    >>> ko.true_count_of(4)  # the pivot: T = 4 at every depth
    4.0
    """

    decks: int
    count: CountSystem

    def __post_init__(self) -> None:
        check_decks(self.decks)
        if self.count.balanced or self.count.irc is None:
            what = "is balanced" if self.count.balanced else "states no IRC"
            raise InputError(f"count system {self.count.name!r} {what}: a running-count"
                             " index needs an unbalanced system with an IRC (ko, red7)")

    index_kind = "running"
    """What an index along this family is: a running count from the IRC."""

    @property
    def irc(self) -> float:
        """The initial running count of the shoe."""
        return self.count.initial_running_count(self.decks)

    @property
    def pivot(self) -> float | None:
        """The system's pivot: the running count whose true count is the same at every
        depth."""
        return self.count.pivot

    def _tags(self) -> list[Fraction]:
        return [Fraction(self.count.tag(r)) for r in RANKS]

    def line(self, step: int) -> tuple[float, ...]:
        """The unseen cards per rank at ``step`` before rounding (fractions of cards)."""
        tags = self._tags()
        mean = Fraction(self.count.deck_sum) / 52
        shares = [Fraction(n, 52) for n in ONE_DECK]
        variance = sum((p * (t - mean) ** 2 for p, t in zip(shares, tags, strict=True)),
                       Fraction(0))
        excess = step * self.decks
        return tuple(float(n * Fraction(self.decks, 2) - excess * p * (t - mean) / variance)
                     for n, p, t in zip(ONE_DECK, shares, tags, strict=True))

    def unseen(self, step: int) -> tuple[int, ...]:
        """:meth:`line` in whole cards: ace to 9 each rounded to the nearest (halves up),
        so ranks of one tag move together, and the ten-valued cards the rest of the half
        shoe; may be negative (check yourself)."""
        whole = [math.floor(x + 0.5) for x in self.line(step)[:-1]]
        return (*whole, self.unseen_cards - sum(whole))

    def running_count(self, unseen: Sequence[float]) -> float:
        """The running count from the IRC when ``unseen`` (per rank) are the unseen cards."""
        return float(self.irc + Fraction(self.count.deck_sum) * self.decks
                     - sum(t * Fraction(u) for t, u in zip(self._tags(), unseen, strict=True)))

    def steps(self) -> range:
        """The steps whose equivalent true count is in [-20, 20] (two apart)."""
        reach = math.floor(TRUE_COUNT_RANGE / 2)
        return range(-reach, reach + 1)

    def coordinate(self, step: int) -> float:
        """The running count of step ``step``'s (rounded) composition."""
        return self.running_count(self.unseen(step))

    def line_coordinate(self, step: int) -> float:
        """The running count at ``step`` of :meth:`line` (``IRC + s * r + step * decks``)."""
        return self.running_count(self.line(step))

    def true_count_of(self, index: float) -> float:
        """The equivalent true count of a running count at this depth: ``(RC - IRC - s *
        decks) / r + s``."""
        s = self.count.deck_sum
        return (index - self.irc - s * self.decks) / self.decks_remaining + s

    def describe(self) -> str:
        """One line for reports."""
        pivot = "none" if self.pivot is None else format(self.pivot, "+g")
        average = self.irc + self.count.deck_sum * self.decks_remaining
        return (f"unseen cards (after the player's two cards and the up card, which are counted)"
                f" = half the shoe: {self.unseen_cards} cards, {self.decks_remaining:g} decks"
                f" remaining; running count from the IRC {self.irc:+g} (pivot {pivot}); step j:"
                f" the average unseen half shoe at {self.decks}j running-count points above the"
                f" average at this depth ({average:+g}), rounded to whole cards; running count"
                " = IRC + s x decks - tags of the unseen cards, equivalent true count ="
                " (running count - IRC - s x decks) / decks remaining + s; EV difference"
                " linearly interpolated between steps; root by scipy brentq")


Family = CountFamily | RunningCountFamily
"""A family of unseen compositions along a count: by true count or by running count."""


def index_family(decks: int, count: CountSystem) -> Family:
    """The family a system's indices are computed along: :class:`CountFamily` (true count)
    for a balanced system, :class:`RunningCountFamily` (running count from the IRC) for
    an unbalanced one; one ``error:`` line for an unbalanced system without an IRC."""
    if count.balanced:
        return CountFamily(decks, count)
    return RunningCountFamily(decks, count)


__all__ = ["TRUE_COUNT_RANGE", "CountFamily", "Family", "RunningCountFamily", "index_family"]
