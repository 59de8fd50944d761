"""One hand's solver, and the rules turned into a setup. (see the package docstring)."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass

from rational import Fraction

from bj_oracle.basics import (
    RANK_LAYOUT,
    SUITED_LAYOUT,
    SUITS,
    Shoe,
    ShoeExhausted,
    SuitedCard,
    SuitedShoe,
    _best_total,
    _completes_blackjack,
    _exact,
    _falling,
    _take,
)
from bj_oracle.dealer import _dealer_from, _dealer_two_step, _versus
from strategy_calc.rules import BlackjackRules

# ----------------------------------------------------------- one hand's solver


@dataclass(frozen=True)
class _Setup:
    """Everything a hand's value depends on, apart from the cards it draws."""

    layout: tuple[SuitedCard, ...]  # (rank, suit) of each card kind
    shoe: tuple[int, ...]  # counts per kind when the hand starts
    up: int
    model: str  # "exact", "shortcut" or "enhc" (module docstring)
    h17: bool
    start: tuple[int, ...]  # kind indices of the starting cards
    natural: bool  # the starting cards are a blackjack (two cards A + ten, initial)
    bj_pays: Fraction
    loss_vs_bj: tuple[Fraction, Fraction]  # ENHC: undoubled / doubled hand vs dealer bj
    split_hand: bool  # starts from one pair card: forced first draw, no surrender
    split_double_totals: frozenset[int]  # split hand: two-card totals it may double
    one_card: bool  # split aces: exactly one card, then stand
    bonus_777: Fraction
    bonus_678: Fraction
    push22: bool = False  # dealer_22_pushes: his 22 pushes every standing hand
    bonus_settles: bool = True  # bonus_settles_hand: a bonus hand is settled (else it also
                                # stands as a 21 against the dealer)
    charlie: int = 0  # charlie_cards: a hand of this many cards, not bust, wins 1 at once
    rows: tuple[tuple[tuple[int, ...], bool, Fraction, bool], ...] = ()  # bonus_hands, read
    # from its text: (the hand's ranks in order, its cards of one suit, pays, settles); a
    # hand whose cards are exactly those ranks is paid at once (the higher of two rows)
    late_double_totals: frozenset[int] = frozenset()  # double_after_hit: the totals a hand
    # of three or more cards may double ("doubling on any number of cards", within
    # double_on's totals; a split hand only where double_after_split lets it double)


class _Hand:
    """The value recursion of one hand for one :class:`_Setup`.

    ``D`` (the cards drawn since the start) is a tuple of counts per kind.
    Every value is unnormalised, as in the module docstring.
    """

    def __init__(self, setup: _Setup) -> None:
        self.s = setup
        self.n_kinds = len(setup.layout)
        self.ranks = tuple(rank for rank, _ in setup.layout)
        self.start_hard = sum(self.ranks[i] for i in setup.start)
        self.start_ace = any(self.ranks[i] == 1 for i in setup.start)
        self.scenarios = self._scenarios()
        self._memo_w: dict[tuple[int, ...], tuple[tuple[int | None, Fraction], ...]] = {}
        self._memo_v: dict[tuple[int, ...], Fraction] = {}
        self._memo_opts: dict[tuple[int, ...], dict[str, Fraction]] = {}

    # --- scenarios and weights

    def _scenarios(self) -> tuple[tuple[int | None, Fraction], ...]:
        """(hole-card kind, probability given no blackjack), or ((None, 1),)."""
        s = self.s
        if s.model != "exact":
            return ((None, Fraction(1)),)
        allowed = [
            i for i, n in enumerate(s.shoe) if n and not _completes_blackjack(s.up, self.ranks[i])
        ]
        total = sum(s.shoe[i] for i in allowed)
        if total == 0:
            raise ValueError("the dealer cannot be without blackjack")
        return tuple((i, Fraction(s.shoe[i], total)) for i in allowed)

    def weights(self, d: tuple[int, ...]) -> tuple[tuple[int | None, Fraction], ...]:
        """w(h, D) for each scenario h: P(h) * P(the player draws D in a fixed order)."""
        if d not in self._memo_w:
            drawn = sum(d)
            out = []
            for h, p_h in self.scenarios:
                pool = self.s.shoe if h is None else _take(self.s.shoe, h)
                orderings = 1  # ways to draw D's cards in a fixed order from pool
                for k in range(self.n_kinds):
                    orderings *= _falling(pool[k], d[k])
                p_seq = Fraction(orderings, _falling(sum(pool), drawn)) if orderings else 0
                out.append((h, p_h * p_seq))
            self._memo_w[d] = tuple(out)
        return self._memo_w[d]

    def weight(self, d: tuple[int, ...]) -> Fraction:
        """P(D) = sum of w(h, D)."""
        return sum((w for _, w in self.weights(d)), Fraction(0))

    def cards_left(self, d: tuple[int, ...]) -> int:
        """How many cards the player could draw next."""
        hole = 0 if self.s.model != "exact" else 1
        return sum(self.s.shoe) - hole - sum(d)

    # --- the hand

    def hand(self, d: tuple[int, ...]) -> list[int]:
        """The kinds of the hand's cards."""
        return [*self.s.start, *(k for k in range(self.n_kinds) for _ in range(d[k]))]

    def hard(self, d: tuple[int, ...]) -> int:
        return self.start_hard + sum(d[k] * self.ranks[k] for k in range(self.n_kinds))

    def total(self, d: tuple[int, ...]) -> int:
        has_ace = self.start_ace or d[0] > 0  # kind 0 is the ace in both layouts
        return _best_total(self.hard(d), has_ace)

    def n_cards(self, d: tuple[int, ...]) -> int:
        return len(self.s.start) + sum(d)

    def is_natural(self, d: tuple[int, ...]) -> bool:
        return self.s.natural and not any(d)

    def bonus(self, d: tuple[int, ...]) -> Fraction:
        """The bonus this (undoubled) hand is paid at once, 0 if none; a Charlie (RULES
        text: "a hand reaching that many cards without busting wins at once (even
        money)") is paid 1 so."""
        return self.paid(d)[0]

    def paid(self, d: tuple[int, ...]) -> tuple[Fraction, bool]:
        """(the bonus paid at once, 0 if none; whether the hand is then settled)."""
        if self.s.charlie and self.n_cards(d) >= self.s.charlie:
            return Fraction(1), True
        if self.n_cards(d) < 3:
            return Fraction(0), True
        cards = [self.s.layout[k] for k in self.hand(d)]
        ranks = tuple(sorted(rank for rank, _ in cards))
        one_suit = len({suit for _, suit in cards}) == 1 and None not in {s for _, s in cards}
        best = (Fraction(0), True)
        if ranks == (7, 7, 7) and self.s.bonus_777:
            best = (self.s.bonus_777, self.s.bonus_settles)
        if ranks == (6, 7, 8) and len({suit for _, suit in cards}) == 1 and self.s.bonus_678:
            best = max(best, (self.s.bonus_678, self.s.bonus_settles))
        for row, suited, pays, settles in self.s.rows:
            if row == ranks and (one_suit or not suited) and pays > best[0]:
                best = (pays, settles)
        return best

    def plus(self, d: tuple[int, ...], c: int) -> tuple[int, ...]:
        return (*d[:c], d[c] + 1, *d[c + 1 :])

    def next_cards(self, d: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        """D + c for every kind c the player can draw next (positive weight)."""
        for c in range(self.n_kinds):
            if self.s.shoe[c] > d[c]:
                nd = self.plus(d, c)
                if self.weight(nd):
                    yield nd

    # --- settling

    def stand(self, d: tuple[int, ...], bet: int) -> Fraction:
        """Unnormalised value of standing at D with ``bet`` units on the hand."""
        s = self.s
        natural = self.is_natural(d)
        total = self.total(d)
        value = Fraction(0)
        for h, w in self.weights(d):
            if not w:
                continue
            if s.model == "exact":
                if natural:  # the dealer has no blackjack: a natural wins
                    value += w * s.bj_pays
                    continue
                hole = self.ranks[h]
                left = _take(s.shoe, h)
                dealer_shoe = self._rank_counts(tuple(a - b for a, b in zip(left, d, strict=True)))
                dist = _dealer_from(dealer_shoe, s.up + hole, s.up == 1 or hole == 1, s.h17,
                                   s.push22)
                value += w * bet * _versus(total, dist)
                continue
            dealer_shoe = self._rank_counts(tuple(a - b for a, b in zip(s.shoe, d, strict=True)))
            dist, p_bj = _dealer_two_step(dealer_shoe, s.up, s.h17, s.push22)
            if s.model == "shortcut":  # conditioned on no dealer blackjack
                dist = tuple(p / (1 - p_bj) for p in dist)
                value += w * (s.bj_pays if natural else bet * _versus(total, dist))
            elif natural:  # enhc: a natural pushes a dealer blackjack
                value += w * (1 - p_bj) * s.bj_pays
            else:
                value += w * (p_bj * s.loss_vs_bj[bet - 1] + bet * _versus(total, dist))
        return value

    def _rank_counts(self, counts: tuple[int, ...]) -> Shoe:
        """Counts per kind folded to counts per rank (what the dealer needs)."""
        if len(self.s.layout) == len(RANK_LAYOUT):
            return counts
        out = [0] * 10
        for k, n in enumerate(counts):
            out[self.ranks[k] - 1] += n
        return tuple(out)

    def settle_doubled(self, d: tuple[int, ...]) -> Fraction:
        """A doubled hand after its one card: bust loses 2, else stand (no bonus)."""
        if self.hard(d) > 21:
            return -2 * self.weight(d)
        return self.stand(d, 2)

    # --- decisions

    def value(self, d: tuple[int, ...]) -> Fraction:
        """J(D): the hand at D, played on optimally (bust and bonus settle at once)."""
        if d not in self._memo_v:
            if self.hard(d) > 21:
                v = -self.weight(d)
            elif self.bonus(d):
                pays, settles = self.paid(d)
                v = pays * self.weight(d)
                if not settles:  # paid at once, then it stands (as a 21)
                    v += self.stand(d, 1)
            else:
                v = max(self.options(d).values())
            self._memo_v[d] = v
        return self._memo_v[d]

    def options(self, d: tuple[int, ...]) -> dict[str, Fraction]:
        """The actions open at D (after a hit, or a split hand) and their values."""
        if d in self._memo_opts:
            return self._memo_opts[d]
        s = self.s
        n = self.n_cards(d)
        opts: dict[str, Fraction] = {}
        if s.split_hand and n == 1:  # a split hand must take its second card
            if self.cards_left(d) <= 0:
                raise ShoeExhausted("a split hand needs a second card")
            opts["hit"] = self.hit(d)
        elif s.split_hand and s.one_card and n == 2:
            opts["stand"] = self.stand(d, 1)
        elif self.total(d) == 21:  # never hit; a split 21 may double where double_on allows
            opts["stand"] = self.stand(d, 1)
            if self.may_double(d) and self.cards_left(d) > 0:
                opts["double"] = self.double(d)
        else:
            opts["stand"] = self.stand(d, 1)
            if self.cards_left(d) > 0:
                opts["hit"] = self.hit(d)
                if self.may_double(d):
                    opts["double"] = self.double(d)
        self._memo_opts[d] = opts
        return opts

    def may_double(self, d: tuple[int, ...]) -> bool:
        """After a hit (or a split hand): a split hand's two cards by ``double_on`` where
        it may double; three or more cards by ``double_after_hit``'s totals."""
        n, total = self.n_cards(d), self.total(d)
        if n == 2:
            return self.s.split_hand and total in self.s.split_double_totals
        return n >= 3 and total in self.s.late_double_totals

    def action(self, d: tuple[int, ...]) -> str:
        """The policy: the best action at D (exact ties take the calmer play, docs/MODEL.md
        "Exact ties": stand, then hit, then double)."""
        opts = self.options(d)
        best = max(opts.values())
        return next(a for a in ("stand", "hit", "double") if opts.get(a) == best)

    def hit(self, d: tuple[int, ...]) -> Fraction:
        """One card, then optimal play."""
        return sum((self.value(nd) for nd in self.next_cards(d)), Fraction(0))

    def double(self, d: tuple[int, ...]) -> Fraction:
        """Bet doubled, exactly one card, stand."""
        return sum((self.settle_doubled(nd) for nd in self.next_cards(d)), Fraction(0))


_hand_solver = functools.lru_cache(maxsize=512)(_Hand)


# ------------------------------------------------------------ rules -> setup


def _double_totals(rules: BlackjackRules) -> frozenset[int]:
    """The two-card best totals ``double_on`` allows (not 21 where a hand of 21 stands)."""
    totals = {
        "any": frozenset(range(2, 22)),
        "9-11": frozenset((9, 10, 11)),
        "10-11": frozenset((10, 11)),
        "11": frozenset((11,)),
        "none": frozenset(),
    }[rules.double_on]
    return totals - {21} if rules.hand_of_21_stands else totals


def _bonuses(rules: BlackjackRules, layout: tuple[SuitedCard, ...]) -> tuple[Fraction, Fraction]:
    b777, b678 = _exact(rules.bonus_777), _exact(rules.bonus_suited_678)
    if b678 and len(layout) == len(RANK_LAYOUT):
        raise ValueError("the suited 6-7-8 bonus needs suits: use the *_suited functions")
    return b777, b678


def _bonus_rows(rules: BlackjackRules, layout: tuple[SuitedCard, ...], split: bool
                ) -> tuple[tuple[tuple[int, ...], bool, Fraction, bool], ...]:
    """The rows of ``bonus_hands`` that pay a hand (``split``: a split hand)."""
    rows = tuple((row.ranks, row.suited, _exact(row.pays), row.settles)
                 for row in rules.bonus_hands if row.split_hands or not split)
    if any(suited for _, suited, _, _ in rows) and len(layout) == len(RANK_LAYOUT):
        raise ValueError("a suited bonus row needs suits: use the *_suited functions")
    return rows


def _enhc_losses(rules: BlackjackRules, hand_index: int) -> tuple[Fraction, Fraction]:
    """ENHC: what an undoubled / doubled (not busted) hand gets against a dealer
    blackjack. ``hand_index`` 2 is the second hand of a split. ``"all"``: every bet on
    the hand; ``"original"``: the original bet only (hand 1's stake); ``"original_and_splits"``
    (the original bet and the split bets lost, doubles returned): each hand's own stake."""
    if rules.enhc_loses == "all":
        return Fraction(-1), Fraction(-2)
    if rules.enhc_loses == "original_and_splits":
        return Fraction(-1), Fraction(-1)
    if hand_index == 2:
        return Fraction(0), Fraction(0)
    return Fraction(-1), Fraction(-1)


def _bj_probability(rank_shoe: Shoe, up: int) -> Fraction:
    """P(the dealer's second card completes a blackjack)."""
    n = sum(rank_shoe)
    if up == 1:
        return Fraction(rank_shoe[9], n)
    if up == 10:
        return Fraction(rank_shoe[0], n)
    return Fraction(0)


def _kind_of(layout: tuple[SuitedCard, ...], card: SuitedCard) -> int:
    rank, suit = card
    if len(layout) == len(RANK_LAYOUT):
        return rank - 1
    return layout.index((rank, suit if rank in (6, 7, 8) else None))


def _suited_counts(shoe_suited: SuitedShoe) -> tuple[int, ...]:
    """A suited shoe as counts over :data:`SUITED_LAYOUT`."""
    counts, suits = shoe_suited
    for j in range(3):
        if sum(suits[j]) != counts[5 + j]:
            raise ValueError(f"the suits of the {6 + j}s do not add up to their count")
    return tuple(
        counts[r - 1] if suit is None else suits[r - 6][SUITS.index(suit)]
        for r, suit in SUITED_LAYOUT
    )
