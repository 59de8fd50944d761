"""An independent, exact blackjack oracle (pure Python, ``fractions.Fraction``).

This module is a second derivation of the blackjack expectations, written from
the rules text (docs/RULES.md sections 1 and 2 and the project's decided
readings) without looking at the engine. It is slow and plain on purpose: it
documents the rules as much as it checks the engine.

Conventions
-----------
* A rank is an int 1..10 (1 = ace, 10 = any ten-valued card).
* A *shoe* is a tuple of 10 counts: ``shoe[0]`` aces ... ``shoe[9]`` tens. It
  is always what is left after the player's cards, the dealer's up card and any
  other removed cards have been taken out.
* A *suited shoe* (only for the 6-7-8 / 7-7-7 bonus) is a pair
  ``(counts, suits)``: ``counts`` a shoe as above and ``suits`` three 4-tuples,
  ``suits[j][k]`` = number of cards of rank ``6 + j`` and suit ``"shdc"[k]``;
  ``sum(suits[j]) == counts[5 + j]`` must hold (every 6, 7 and 8 has a known
  suit). A suited card is ``(rank, suit)``: suit one of ``"shdc"`` for ranks
  6, 7, 8 and ``None`` for the others. :func:`suited_shoe` builds one.
* Every expectation is per unit initial bet, as an exact ``Fraction``.
* Internally a shoe is a tuple of counts over *card kinds*: the 10 ranks, or,
  in the suited layout, 19 kinds (A-5, 9, T, and the 12 suited 6s, 7s, 8s).

The dealer
----------
The dealer holds the up card, gets a second card, and (unless those two are a
blackjack, A + ten) draws while his total is below 17; an ace counts 11 when
that does not exceed 21; with ``hits_soft_17`` he also draws to a soft 17.
His play from a given state is counted in integers (``_dealer_ways``: the
number of ordered deals of a fixed number of cards in which he ends on each
total), which is exact and much faster than summing fractions.

Player expectations: one recursion, three information models
------------------------------------------------------------
Let ``S`` be the shoe at the start and ``D`` the multiset of cards the player
has drawn since (his hand is the starting cards plus ``D``). The recursion
works with *unnormalised* values::

    J(D) = sum over dealer scenarios h of  w(h, D) * (payoff given h and D)

where ``w(h, D)`` is the joint probability of scenario ``h`` and of the player
drawing the cards of ``D`` in one fixed order. Because the player's decision at
``D`` must be ONE decision for every scenario he cannot tell apart, the best
action is the one maximising ``sum_h w(h, D) * U_h(action)``; that is the
conditional expectation given everything he knows, times the common positive
factor ``P(D) = sum_h w(h, D)``, so maximising the unnormalised sum is the same
decision. Hitting is ``J_hit(D) = sum_c J(D + c)``, since
``w(h, D + c) = w(h, D) * P(next card is c | h, D)``. At the root
``sum_h w(h, {}) = 1`` and the expectations are ``J({})``.

* ``exact`` (peek game, ``hand_evs``): the scenarios are the dealer's hole
  card ``h``, a real card dealt from ``S`` before the player acts. The dealer
  has checked and has no blackjack, so ``h`` cannot complete one (up A: ``h``
  not a ten; up T: ``h`` not an ace) and ``P(h) = S[h] / (|S| - #completing
  cards)``. The player's cards then come from ``S - h``::

      w(h, D) = P(h) * prod_k ff((S - h)[k], D[k]) / ff(|S| - 1, |D|)

  (``ff`` the falling factorial). Standing settles against a dealer holding
  ``up + h`` who draws from ``S - h - D``. Nothing here uses the
  exchangeability identity the engine may rely on: the hole card is
  enumerated, and the player's posterior on it is implied by the weights.
* ``shortcut`` (peek game, ``hand_evs_shortcut``): one scenario; the player
  draws from ``S`` as if no hole card had been dealt, ``w(D) = P(D | S)``, and
  standing uses the dealer distribution conditioned on no blackjack for the
  shoe ``S - D`` at that moment.
* ``enhc`` (European no hole card): one scenario; the player draws from ``S``;
  the dealer's second card is drawn from ``S - D`` after the player is done.
  A dealer blackjack beats every player hand except a natural (push), even a
  21: an undoubled hand loses 1, a doubled hand loses 2 under
  ``enhc_loses == "all"`` and 1 under ``"original"``.

In every model a hand whose hard total passes 21 loses its whole bet at once,
and a bonus hand (below) is paid at once. (A consequence of the exact weights,
checked in the self-tests but never used here: after the player has drawn D,
his posterior on the hole card is proportional to ``(S - D)[h]`` over the
cards that do not complete a blackjack, so standing is the same in the exact
and the shortcut models; hitting and doubling are not.)

Other actions (two-card hands only): *double* if ``double_on`` allows the
best total (one card, bet 2, stand); *surrender* (``initial`` only): ``late``
is -1/2 in a peek game (already conditioned) and ``-P(bj) - (1 - P(bj))/2``
in ENHC; ``early`` / ``not_vs_ace`` (not against an ace) is -1/2 in ENHC and
``(-1/2 - P(bj) * L) / (1 - P(bj))`` in a peek game, L = -1 (0 for a
natural), so that it compares right with the conditioned EVs; ``2-9`` is -1/2
against 2..9. *insurance* (``initial``, up A): ``(2p - (1 - p)) / 2`` with p
the share of tens in the shoe. *even_money*: 1 for a natural against an ace
(or a ten with ``even_money_vs_ten``). P(bj) is the share of the shoe that
completes the dealer's blackjack.

Choices made here (the rules text does not settle them)
-------------------------------------------------------
* After a hit (and in split hands) a hand that reaches 21 stands; it is never
  hit again. The top-level ``"hit"`` of :func:`hand_evs` is still reported for
  any hand that is not bust (one card, then optimal play).
* When the player would need a card and none is left, ``"hit"`` and
  ``"double"`` are unavailable (``None``); a dealer who needs a card from an
  empty shoe raises :class:`ShoeExhausted`.
* Ties between actions are broken in the order stand, hit, double (this only
  matters for :func:`split_ev_bruteforce`, which replays the policy).
* ``"double"`` in :func:`hand_evs` is offered on any two-card hand whose best
  total ``double_on`` allows, whatever ``initial`` says.
* A hand that is already a bonus hand gets ``"stand"`` = the bonus and ``None``
  for every other action.

Splits (``split_ev``)
---------------------
Each split hand starts with one pair card and draws from the shoe that has
both pair cards, the up card and the removed cards taken out; its play is the
best for its own cards only (it ignores the other hand's cards), its first
draw is forced, split aces get one card and stand, other split hands may double
on two cards if ``double_after_split``; no surrender, and A + ten is a plain 21.
In a peek game each hand is computed with the exact hole-card model; in ENHC
under ``"original"`` a dealer blackjack takes hand 1's original bet and gives
hand 2 its bet (and all doubles) back, so hand 2 is played for 0 against a
blackjack. ``split_ev_bruteforce`` plays the two hands one after the other from
one shoe (the second from what the first left) and the dealer last, with the
same policies, by plain enumeration; equality with ``split_ev`` is the
exchangeability claim.

Resplits (``split_ev_resplit_bruteforce``, tiny shoes only): the hands are
played one at a time in queue order from one shoe; a hand's second card of the
pair's rank, while fewer than ``max_split_hands`` hands exist (aces only with
``resplit_aces``), starts a new hand at the end of the queue and the hand
draws again. Every hand keeps the frozen one-hand policy above (its own cards
only; the pair cards it passed on are ignored); H1 plays and settles as split
hand 1, every later hand as split hand 2 (ENHC ``"original"``: a dealer
blackjack takes H1's original bet only). With two hands it is
``split_ev_bruteforce``.

Post-split play (``split_ev_postsplit_bruteforce``, tiny shoes only): one
split; hand 1 plays the frozen policy above, then hand 2 plays the best policy
given hand 1's actual cards too (each decision maximises hand 2's own
conditional expectation). Its solver (``_HandAfter``) draws from the shoe
less hand 1's cards; in a peek game its prior on the hole card is the joint
probability, from the deal, of the hole card (dealt first) and of hand 1's
cards. Both hands and the dealer really draw from one shoe, as in
``split_ev_bruteforce``.

Bonus (Macau rule 9)
--------------------
Exactly three cards 7-7-7 (any suits) or 6-7-8 of one suit: paid
``bonus_777`` / ``bonus_suited_678`` times the bet at once and settled (a
dealer blackjack does not take it). Not on a doubled hand; on split hands only
if ``bonus_on_split_hands``. The rank-only functions handle 7-7-7 and refuse a
nonzero ``bonus_suited_678`` (suits are needed: use the ``*_suited`` ones).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from strategy_calc.rules import BlackjackRules

Shoe = tuple[int, ...]
SuitedCard = tuple[int, str | None]
SuitedShoe = tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]

SUITS = "shdc"
DEALER_KEYS = ("17", "18", "19", "20", "21", "bust")
ACTIONS = ("stand", "hit", "double", "surrender", "insurance", "even_money")

# Card kinds: (rank, suit). The rank layout has one kind per rank; the suited
# layout splits the 6s, 7s and 8s into their four suits.
RANK_LAYOUT: tuple[SuitedCard, ...] = tuple((r, None) for r in range(1, 11))
SUITED_LAYOUT: tuple[SuitedCard, ...] = (
    *((r, None) for r in range(1, 6)),
    *((r, s) for r in (6, 7, 8) for s in SUITS),
    (9, None),
    (10, None),
)


class ShoeExhausted(ValueError):
    """The dealer (or a forced draw) needs a card and the shoe is empty."""


# ---------------------------------------------------------------- small helpers


def full_shoe(decks: int = 1) -> Shoe:
    """The rank counts of ``decks`` full decks."""
    return tuple(16 * decks if r == 10 else 4 * decks for r in range(1, 11))


def remove(shoe: Shoe, ranks: Iterable[int]) -> Shoe:
    """``shoe`` without the cards of ``ranks`` (an error if one runs out)."""
    counts = list(shoe)
    for r in ranks:
        if counts[r - 1] == 0:
            raise ValueError(f"no {r} left in the shoe")
        counts[r - 1] -= 1
    return tuple(counts)


def suited_shoe(decks: int = 1, removed: Iterable[SuitedCard] = ()) -> SuitedShoe:
    """A suited shoe of ``decks`` decks without the ``removed`` cards.

    Removed 6s, 7s and 8s must carry their suit.
    """
    counts = list(full_shoe(decks))
    suits = [[decks] * 4 for _ in range(3)]
    for rank, suit in removed:
        if counts[rank - 1] == 0:
            raise ValueError(f"no {rank} left in the shoe")
        counts[rank - 1] -= 1
        if rank in (6, 7, 8):
            if suit is None or suits[rank - 6][SUITS.index(suit)] == 0:
                raise ValueError(f"removed card {rank}{suit} needs a suit that is left")
            suits[rank - 6][SUITS.index(suit)] -= 1
    return tuple(counts), tuple(tuple(row) for row in suits)


def _take(counts: tuple[int, ...], i: int) -> tuple[int, ...]:
    """``counts`` with one card of kind ``i`` less."""
    return (*counts[:i], counts[i] - 1, *counts[i + 1 :])


@functools.cache
def _falling(n: int, k: int) -> int:
    """The falling factorial n (n-1) ... (n-k+1); 0 when k > n."""
    out = 1
    for j in range(k):
        out *= n - j
    return out


def _exact(x: float) -> Fraction:
    """A payout given as a float in the rules (1.5, 1.2, 3.0) as the fraction meant."""
    return Fraction(repr(float(x)))


def _best_total(hard: int, has_ace: bool) -> int:
    """The total with one ace counted 11 when that does not exceed 21."""
    return hard + 10 if has_ace and hard + 10 <= 21 else hard


def _completes_blackjack(up: int, rank: int) -> bool:
    """True when ``up`` and a second card of ``rank`` are A + ten."""
    return {up, rank} == {1, 10}


# --------------------------------------------------------------------- dealer


@functools.cache
def _dealer_ways(shoe: Shoe, hard: int, has_ace: bool, h17: bool) -> tuple[int, tuple[int, ...]]:
    """The dealer's play from a state, counted in integers (exact, and fast).

    The dealer holds cards of hard total ``hard`` (``has_ace``: one is an ace),
    is past the blackjack check, and draws from the rank counts ``shoe`` (n
    cards). He draws only while his hard total is 16 or less and every card
    adds at least 1, so he draws at most ``17 - hard`` more cards; let
    ``K = min(n, max(0, 17 - hard))``. Deal K cards from the shoe in order:
    there are ff(n, K) such deals and the dealer's play uses a prefix of each.
    Returns K and, for 17, 18, 19, 20, 21, bust, the number of those deals in
    which he ends there; divided by ff(n, K) these are the probabilities.
    """
    n = sum(shoe)
    k = min(n, max(0, 17 - hard))
    total = _best_total(hard, has_ace)
    soft = total != hard
    ways = [0] * 6
    if hard > 21 or (total >= 17 and not (total == 17 and soft and h17)):
        ways[5 if hard > 21 else total - 17] = _falling(n, k)
        return k, tuple(ways)
    if n == 0:
        raise ShoeExhausted("the dealer must draw from an empty shoe")
    for i, count in enumerate(shoe):
        if count:
            k_c, ways_c = _dealer_ways(_take(shoe, i), hard + i + 1, has_ace or i == 0, h17)
            # k_c <= k - 1: each deal of k_c cards after this one extends in
            # ff(n - 1 - k_c, k - 1 - k_c) ways to a deal of k - 1 cards.
            m = count * _falling(n - 1 - k_c, k - 1 - k_c)
            for j in range(6):
                ways[j] += m * ways_c[j]
    return k, tuple(ways)


@functools.cache
def _dealer_from(shoe: Shoe, hard: int, has_ace: bool, h17: bool) -> tuple[Fraction, ...]:
    """P(17), P(18), P(19), P(20), P(21), P(bust) of a dealer who holds cards of
    hard total ``hard`` (``has_ace``: one of them an ace), is past the blackjack
    check, and draws from the rank counts ``shoe``."""
    k, ways = _dealer_ways(shoe, hard, has_ace, h17)
    deals = _falling(sum(shoe), k)
    return tuple(Fraction(w, deals) for w in ways)


@functools.cache
def _dealer_two_step(shoe: Shoe, up: int, h17: bool) -> tuple[tuple[Fraction, ...], Fraction]:
    """(unconditioned P of each non-blackjack outcome, P(blackjack)) for up card
    ``up`` and a second card drawn from ``shoe``."""
    n = sum(shoe)
    if n == 0:
        raise ShoeExhausted("the dealer's second card must come from an empty shoe")
    acc = [Fraction(0)] * 6
    p_bj = Fraction(0)
    for i, count in enumerate(shoe):
        if not count:
            continue
        if _completes_blackjack(up, i + 1):
            p_bj += Fraction(count, n)
            continue
        sub = _dealer_from(_take(shoe, i), up + i + 1, up == 1 or i == 0, h17)
        for k in range(6):
            acc[k] += Fraction(count, n) * sub[k]
    return tuple(acc), p_bj


def dealer_distribution(shoe: Shoe, up: int, hits_soft_17: bool) -> dict[str, Fraction]:
    """The dealer's final outcome, blackjack included (keys 17..21, bust, blackjack).

    ``shoe`` is what is left after the up card and every known card is removed;
    the second card comes from it.
    """
    dist, p_bj = _dealer_two_step(tuple(shoe), up, hits_soft_17)
    return {**dict(zip(DEALER_KEYS, dist, strict=True)), "blackjack": p_bj}


def dealer_distribution_no_blackjack(
    shoe: Shoe, up: int, hits_soft_17: bool
) -> dict[str, Fraction]:
    """The dealer's final outcome given that he has no blackjack (keys 17..21, bust)."""
    dist, p_bj = _dealer_two_step(tuple(shoe), up, hits_soft_17)
    if p_bj == 1:
        raise ValueError("the dealer has blackjack for sure")
    return {k: p / (1 - p_bj) for k, p in zip(DEALER_KEYS, dist, strict=True)}


def _versus(total: int, dist: Sequence[Fraction]) -> Fraction:
    """Player's result standing on ``total`` against the dealer outcomes ``dist``
    (17..21, bust; a total below 17 loses to every dealer total)."""
    result = dist[5]
    for k in range(5):
        dealer = 17 + k
        result += dist[k] * ((total > dealer) - (total < dealer))
    return result


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
        """The bonus this (undoubled) hand is paid at once, 0 if none."""
        if self.n_cards(d) != 3:
            return Fraction(0)
        cards = [self.s.layout[k] for k in self.hand(d)]
        ranks = sorted(rank for rank, _ in cards)
        if ranks == [7, 7, 7]:
            return self.s.bonus_777
        if ranks == [6, 7, 8] and len({suit for _, suit in cards}) == 1:
            return self.s.bonus_678
        return Fraction(0)

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
                dist = _dealer_from(dealer_shoe, s.up + hole, s.up == 1 or hole == 1, s.h17)
                value += w * bet * _versus(total, dist)
                continue
            dealer_shoe = self._rank_counts(tuple(a - b for a, b in zip(s.shoe, d, strict=True)))
            dist, p_bj = _dealer_two_step(dealer_shoe, s.up, s.h17)
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
                v = self.bonus(d) * self.weight(d)
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
        elif (s.split_hand and s.one_card and n == 2) or self.total(d) == 21:
            opts["stand"] = self.stand(d, 1)
        else:
            opts["stand"] = self.stand(d, 1)
            if self.cards_left(d) > 0:
                opts["hit"] = self.hit(d)
                if s.split_hand and n == 2 and self.total(d) in s.split_double_totals:
                    opts["double"] = self.double(d)
        self._memo_opts[d] = opts
        return opts

    def action(self, d: tuple[int, ...]) -> str:
        """The policy: the best action at D (ties: stand, then hit, then double)."""
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
    """The two-card best totals ``double_on`` allows."""
    return {
        "any": frozenset(range(2, 22)),
        "9-11": frozenset((9, 10, 11)),
        "10-11": frozenset((10, 11)),
        "11": frozenset((11,)),
        "none": frozenset(),
    }[rules.double_on]


def _bonuses(rules: BlackjackRules, layout: tuple[SuitedCard, ...]) -> tuple[Fraction, Fraction]:
    b777, b678 = _exact(rules.bonus_777), _exact(rules.bonus_suited_678)
    if b678 and len(layout) == len(RANK_LAYOUT):
        raise ValueError("the suited 6-7-8 bonus needs suits: use the *_suited functions")
    return b777, b678


def _enhc_losses(rules: BlackjackRules, hand_index: int) -> tuple[Fraction, Fraction]:
    """ENHC: what an undoubled / doubled (not busted) hand gets against a dealer
    blackjack. ``hand_index`` 2 is the second hand of a split."""
    if rules.enhc_loses == "all":
        return Fraction(-1), Fraction(-2)
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


# ------------------------------------------------------------- hand_evs


def _hand_evs(
    layout: tuple[SuitedCard, ...],
    cards: Sequence[SuitedCard],
    up: int,
    shoe: tuple[int, ...],
    rules: BlackjackRules,
    initial: bool,
    model: str,
) -> dict[str, Fraction | None]:
    ranks = [rank for rank, _ in cards]
    if sum(ranks) > 21:
        raise ValueError("the hand is bust")
    natural = initial and sorted(ranks) == [1, 10]
    b777, b678 = _bonuses(rules, layout)
    setup = _Setup(
        layout=layout,
        shoe=tuple(shoe),
        up=up,
        model=model,
        h17=rules.dealer_hits_soft_17,
        start=tuple(sorted(_kind_of(layout, c) for c in cards)),
        natural=natural,
        bj_pays=_exact(rules.blackjack_pays),
        loss_vs_bj=_enhc_losses(rules, 1),
        split_hand=False,
        split_double_totals=frozenset(),
        one_card=False,
        bonus_777=b777,
        bonus_678=b678,
    )
    solver = _hand_solver(setup)
    root = (0,) * len(layout)
    norm = solver.weight(root)  # 1: the scenarios' probabilities add up to 1
    evs: dict[str, Fraction | None] = dict.fromkeys(ACTIONS)

    bonus = solver.bonus(root)
    if bonus:
        evs["stand"] = bonus
        return evs
    evs["stand"] = solver.stand(root, 1) / norm
    if solver.cards_left(root) > 0:
        evs["hit"] = solver.hit(root) / norm
        if len(cards) == 2 and solver.total(root) in _double_totals(rules):
            evs["double"] = solver.double(root) / norm

    rank_shoe = solver._rank_counts(tuple(shoe))
    p_bj = _bj_probability(rank_shoe, up)
    if len(cards) == 2 and initial:
        evs["surrender"] = _surrender(rules, up, p_bj, natural)
        if rules.insurance and up == 1:
            p = Fraction(rank_shoe[9], sum(rank_shoe))
            evs["insurance"] = Fraction(1, 2) * (2 * p - (1 - p))
    if (
        rules.even_money
        and natural
        and (up == 1 or (up == 10 and rules.even_money_vs_ten))
    ):
        evs["even_money"] = Fraction(1)
    return evs


def _surrender(rules: BlackjackRules, up: int, p_bj: Fraction, natural: bool) -> Fraction | None:
    """The surrender value on the scale of the other EVs (module docstring of B)."""
    kind = rules.surrender
    if kind == "none" or (kind == "not_vs_ace" and up == 1):
        return None
    if kind == "2-9":
        return Fraction(-1, 2) if 2 <= up <= 9 else None
    if kind == "late":
        if rules.peek:  # conditioned on no dealer blackjack
            return Fraction(-1, 2)
        return -p_bj - (1 - p_bj) / 2
    # early (and not_vs_ace): half back even against a dealer blackjack
    if not rules.peek:
        return Fraction(-1, 2)
    loss_vs_bj = 0 if natural else -1
    return (Fraction(-1, 2) - p_bj * loss_vs_bj) / (1 - p_bj)


def hand_evs(
    hand: Sequence[int], up: int, shoe: Shoe, rules: BlackjackRules, initial: bool = True
) -> dict[str, Fraction | None]:
    """EV of each action (stand, hit, double, surrender, insurance, even_money;
    ``None`` = not allowed) for ``hand`` (ranks) against ``up``, drawing from
    ``shoe``. Peek games: conditioned exactly on no dealer blackjack."""
    model = "exact" if rules.peek else "enhc"
    return _hand_evs(RANK_LAYOUT, [(r, None) for r in hand], up, tuple(shoe), rules, initial, model)


def hand_evs_shortcut(
    hand: Sequence[int], up: int, shoe: Shoe, rules: BlackjackRules, initial: bool = True
) -> dict[str, Fraction | None]:
    """As :func:`hand_evs`, but a peek game uses the common shortcut: the player
    draws from ``shoe`` as if no hole card were dealt, and standing uses the
    no-blackjack dealer distribution of the shoe at that moment. (ENHC: the same
    as :func:`hand_evs`.)"""
    model = "shortcut" if rules.peek else "enhc"
    return _hand_evs(RANK_LAYOUT, [(r, None) for r in hand], up, tuple(shoe), rules, initial, model)


def hand_evs_suited(
    hand_cards: Sequence[SuitedCard],
    up: int,
    shoe_suited: SuitedShoe,
    rules: BlackjackRules,
    initial: bool = True,
) -> dict[str, Fraction | None]:
    """:func:`hand_evs` with suits on the 6s, 7s and 8s, so the suited 6-7-8
    bonus is paid on the hand's cards as drawn."""
    model = "exact" if rules.peek else "enhc"
    counts = _suited_counts(shoe_suited)
    return _hand_evs(SUITED_LAYOUT, list(hand_cards), up, counts, rules, initial, model)


# ---------------------------------------------------------------- splits


def _split_setups(
    layout: tuple[SuitedCard, ...],
    pair: Sequence[SuitedCard],
    up: int,
    shoe: tuple[int, ...],
    rules: BlackjackRules,
) -> tuple[_Setup, _Setup] | None:
    """The setups of split hand 1 and split hand 2 (None: no split allowed)."""
    if rules.max_split_hands == 1:
        return None
    if rules.max_split_hands > 2:
        raise NotImplementedError("the oracle handles one split (two hands) only")
    return _split_hand_setups(layout, pair, up, shoe, rules)


def _split_hand_setups(
    layout: tuple[SuitedCard, ...],
    pair: Sequence[SuitedCard],
    up: int,
    shoe: tuple[int, ...],
    rules: BlackjackRules,
) -> tuple[_Setup, _Setup]:
    """The setups of split hand 1 and of split hand 2 (and of every later hand
    of a resplit), whatever ``max_split_hands`` says."""
    rank = pair[0][0]
    if pair[1][0] != rank:
        raise ValueError("not a pair")
    aces = rank == 1
    one_card = aces and rules.split_aces_one_card
    may_double = rules.double_after_split and not one_card
    b777, b678 = _bonuses(rules, layout)
    if not rules.bonus_on_split_hands:
        b777 = b678 = Fraction(0)
    setups = []
    for index, card in enumerate(pair, start=1):
        setups.append(
            _Setup(
                layout=layout,
                shoe=tuple(shoe),
                up=up,
                model="exact" if rules.peek else "enhc",
                h17=rules.dealer_hits_soft_17,
                start=(_kind_of(layout, card),),
                natural=False,
                bj_pays=_exact(rules.blackjack_pays),
                loss_vs_bj=_enhc_losses(rules, index),
                split_hand=True,
                split_double_totals=_double_totals(rules) if may_double else frozenset(),
                one_card=one_card,
                bonus_777=b777,
                bonus_678=b678,
            )
        )
    return setups[0], setups[1]


def _split_value(setups: tuple[_Setup, _Setup] | None) -> Fraction | None:
    if setups is None:
        return None
    total = Fraction(0)
    for setup in setups:
        solver = _hand_solver(setup)
        root = (0,) * len(setup.layout)
        total += solver.value(root) / solver.weight(root)
    return total


def split_ev(pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules) -> Fraction | None:
    """EV (per unit initial bet, both hands) of splitting a pair of ``pair_rank``;
    ``shoe`` has both pair cards, the up card and the removed cards taken out."""
    pair = [(pair_rank, None), (pair_rank, None)]
    return _split_value(_split_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules))


def split_ev_suited(
    pair_cards: Sequence[SuitedCard], up: int, shoe_suited: SuitedShoe, rules: BlackjackRules
) -> Fraction | None:
    """:func:`split_ev` with suits: hand 1 starts with ``pair_cards[0]``, hand 2
    with ``pair_cards[1]``."""
    counts = _suited_counts(shoe_suited)
    return _split_value(_split_setups(SUITED_LAYOUT, list(pair_cards), up, counts, rules))


# ------------------------------------------------- split brute force (tiny shoes)


Outcome = tuple[str, Fraction, int]  # ("bust" | "bonus" | "total", bonus or total, bet)


def _draws(left: tuple[int, ...]) -> Iterator[tuple[int, Fraction]]:
    """Each kind a split hand can draw from ``left``, with its probability."""
    n = sum(left)
    if n == 0:
        raise ShoeExhausted("a split hand must draw from an empty shoe")
    for c, count in enumerate(left):
        if count:
            yield c, Fraction(count, n)


def _walk_hand(
    solver: _Hand, d: tuple[int, ...], left: tuple[int, ...], p: Fraction
) -> Iterator[tuple[Outcome, tuple[int, ...], Fraction]]:
    """Play a hand on from its own cards ``d`` with ``solver``'s policy, really
    drawing from ``left``: (final outcome, shoe left, probability), with ``p``
    the probability of getting here; the same outcome may come several times."""
    if solver.hard(d) > 21:
        yield ("bust", Fraction(0), 1), left, p
        return
    bonus = solver.bonus(d)
    if bonus:
        yield ("bonus", bonus, 1), left, p
        return
    act = solver.action(d)
    if act == "stand":
        yield ("total", Fraction(solver.total(d)), 1), left, p
    elif act == "hit":
        for c, q in _draws(left):
            yield from _walk_hand(solver, solver.plus(d, c), _take(left, c), p * q)
    else:  # double: one card, stand with 2 units, no bonus
        for c, q in _draws(left):
            nd = solver.plus(d, c)
            if solver.hard(nd) > 21:
                final: Outcome = ("bust", Fraction(0), 2)
            else:
                final = ("total", Fraction(solver.total(nd)), 2)
            yield final, _take(left, c), p * q


def _play_in_shoe(
    solver: _Hand, shoe: tuple[int, ...]
) -> dict[tuple[Outcome, tuple[int, ...]], Fraction]:
    """Play one hand with ``solver``'s policy, really drawing from ``shoe``:
    the probability of each (final outcome, shoe left)."""
    out: dict[tuple[Outcome, tuple[int, ...]], Fraction] = {}
    for final, left, p in _walk_hand(solver, (0,) * solver.n_kinds, shoe, Fraction(1)):
        out[(final, left)] = out.get((final, left), Fraction(0)) + p
    return out


def _settle(outcome: Outcome, dealer: int, loss_vs_bj: tuple[Fraction, Fraction]) -> Fraction:
    """One split hand's result; ``dealer`` 0..4 = 17..21, 5 = bust, 6 = blackjack."""
    kind, value, bet = outcome
    if kind == "bust":
        return Fraction(-bet)
    if kind == "bonus":
        return value
    if dealer == 6:
        return loss_vs_bj[bet - 1]
    if dealer == 5:
        return Fraction(bet)
    return Fraction(bet * ((value > 17 + dealer) - (value < 17 + dealer)))


def _dealer_law(solver: _Hand, left: tuple[int, ...], hole: int | None) -> tuple[Fraction, ...]:
    """P(17), ..., P(21), P(bust), P(blackjack) for the dealer of ``solver``'s
    setup drawing from ``left`` (``hole``: his known hole card in a peek game,
    None in ENHC, where his second card comes from ``left`` now)."""
    up, h17 = solver.s.up, solver.s.h17
    dealer_shoe = solver._rank_counts(left)
    if hole is None:
        dist, p_bj = _dealer_two_step(dealer_shoe, up, h17)
        return (*dist, p_bj)
    rank = solver.ranks[hole]  # peek: up + hole, known not to be a blackjack
    return (*_dealer_from(dealer_shoe, up + rank, up == 1 or rank == 1, h17), Fraction(0))


def _split_bruteforce(
    setups: tuple[_Setup, _Setup] | None, postsplit: bool = False
) -> Fraction | None:
    """Hand 1, then hand 2, then the dealer, really drawing from one shoe.

    Plain enumeration, with the sums regrouped (linearity) so that hand 2 and
    the dealer are enumerated once per shoe that hand 1 can leave. Hand 2
    plays the frozen policy of ``setups[1]`` (its own cards only) or, with
    ``postsplit``, the best policy given hand 1's cards too
    (:class:`_HandAfter`).
    """
    if setups is None:
        return None
    first, second = setups
    solver1, frozen2 = _hand_solver(first), _hand_solver(second)
    informed: dict[tuple[int, ...], _Hand] = {}  # hand 2's solver per hand 1's cards

    def hand2(seen: tuple[int, ...]) -> _Hand:
        if not postsplit:
            return frozen2
        if seen not in informed:
            rest = tuple(a - b for a, b in zip(second.shoe, seen, strict=True))
            informed[seen] = _HandAfter(replace(second, shoe=rest), seen)
        return informed[seen]

    ev = Fraction(0)
    for hole, p_hole in solver1.scenarios:  # exact: the hole card; enhc: none yet
        shoe = first.shoe if hole is None else _take(first.shoe, hole)
        hand1_by_left: dict[tuple[int, ...], list[tuple[Outcome, Fraction]]] = {}
        for (out1, left1), p1 in _play_in_shoe(solver1, shoe).items():
            hand1_by_left.setdefault(left1, []).append((out1, p1))
        for left1, outcomes1 in hand1_by_left.items():
            # hand 1's cards: what it took from the shoe it drew from
            solver2 = hand2(tuple(a - b for a, b in zip(shoe, left1, strict=True)))
            dealer = [Fraction(0)] * 7  # the dealer's law after hand 2, given left1
            ev2 = Fraction(0)  # hand 2's expected result, given left1
            for (out2, left2), p2 in _play_in_shoe(solver2, left1).items():
                for k, p_dealer in enumerate(_dealer_law(solver1, left2, hole)):
                    if p_dealer:
                        dealer[k] += p2 * p_dealer
                        ev2 += p2 * p_dealer * _settle(out2, k, second.loss_vs_bj)
            for out1, p1 in outcomes1:
                ev1 = sum(
                    (p * _settle(out1, k, first.loss_vs_bj) for k, p in enumerate(dealer) if p),
                    Fraction(0),
                )
                ev += p_hole * p1 * (ev1 + ev2)
    return ev


def split_ev_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """:func:`split_ev` by playing hand 1, then hand 2, then the dealer from one
    shoe (each hand's decisions on its own cards only). For tiny shoes."""
    pair = [(pair_rank, None), (pair_rank, None)]
    return _split_bruteforce(_split_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules))


def split_ev_bruteforce_suited(
    pair_cards: Sequence[SuitedCard], up: int, shoe_suited: SuitedShoe, rules: BlackjackRules
) -> Fraction | None:
    """:func:`split_ev_bruteforce` with suits (bonus on split hands)."""
    counts = _suited_counts(shoe_suited)
    return _split_bruteforce(_split_setups(SUITED_LAYOUT, list(pair_cards), up, counts, rules))


# --------------------------------------------- resplit brute force (tiny shoes)


HandEnd = tuple[Outcome, tuple[int, ...], int]  # (outcome, shoe left, hands so far)


def _play_split_hand(
    solver: _Hand, left: tuple[int, ...], hands: int, max_hands: int, resplit_kind: int | None
) -> dict[HandEnd, Fraction]:
    """Play the current split hand from ``left`` when ``hands`` hands exist:
    while its second card is of ``resplit_kind`` (None: never) and fewer than
    ``max_hands`` hands exist, that card starts a new hand and the hand draws
    again; then the hand plays on with ``solver``'s policy on its own cards.
    The probability of each (outcome, shoe left, number of hands then)."""
    out: dict[HandEnd, Fraction] = {}
    zero = (0,) * solver.n_kinds

    def second_card(left: tuple[int, ...], hands: int, p: Fraction) -> None:
        for c, q in _draws(left):
            rest = _take(left, c)
            if c == resplit_kind and hands < max_hands:
                second_card(rest, hands + 1, p * q)  # a new hand; draw again
                continue
            for final, left_end, p_end in _walk_hand(solver, solver.plus(zero, c), rest, p * q):
                key = (final, left_end, hands)
                out[key] = out.get(key, Fraction(0)) + p_end

    second_card(left, hands, Fraction(1))
    return out


def split_ev_resplit_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """EV (per unit initial bet, all hands) of splitting a pair of ``pair_rank``
    with resplits up to ``rules.max_split_hands`` hands, by playing the real
    sequential process from one shoe. For tiny shoes; rank-only.

    ``shoe`` has both pair cards, the up card and the removed cards taken out.
    Hands H1, H2 start with one pair card each and are played one at a time in
    queue order. A hand's second card, if it is of the pair's rank (all tens
    alike) while fewer than ``max_split_hands`` hands exist (aces: only with
    ``resplit_aces``), starts a new hand at the end of the queue and the hand
    draws its second card again; otherwise the hand plays on. The dealer plays
    last. The policy is frozen: every hand plays the :func:`split_ev` policy
    of one split hand on its own cards (beyond its starting pair card) only,
    ignoring every other card seen, including the pair cards it passed on:
    H1 that of split hand 1, every later hand that of split hand 2 (they
    differ only in ENHC under ``"original"``, where a dealer blackjack takes
    H1's original bet and returns every other bet and double). Peek game: the
    hole card is enumerated first (not completing a blackjack), so the value
    is conditioned on no dealer blackjack. With ``max_split_hands == 2`` this
    is :func:`split_ev_bruteforce`.

    Plain enumeration with the sums regrouped (linearity): after each hand the
    paths are grouped by (shoe left, number of hands), keeping how often each
    hand outcome occurs on them, and the dealer is enumerated once per shoe
    the hands can leave.
    """
    if rules.max_split_hands == 1:
        return None
    pair = [(pair_rank, None), (pair_rank, None)]
    first, later = _split_hand_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules)
    solver1, solver2 = _hand_solver(first), _hand_solver(later)
    resplit_kind = pair_rank - 1 if pair_rank != 1 or rules.resplit_aces else None
    max_hands = rules.max_split_hands

    plays: dict[tuple[int, tuple[int, ...], int], dict[HandEnd, Fraction]] = {}

    def play(index: int, left: tuple[int, ...], hands: int) -> dict[HandEnd, Fraction]:
        """The current hand (H1 when ``index`` is 0) from ``left``, memoised."""
        key = (min(index, 1), left, hands)
        if key not in plays:
            solver = solver1 if index == 0 else solver2
            plays[key] = _play_split_hand(solver, left, hands, max_hands, resplit_kind)
        return plays[key]

    # A state (shoe left, hands so far) carries P(state) and, for each (1 for H1
    # / 2 for a later hand, outcome), E[number of such hands; state]: enough to
    # settle every hand once the dealer's law (a function of the shoe left) is
    # known, since the total result is a sum over the hands.
    State = tuple[tuple[int, ...], int]
    Tally = dict[tuple[int, Outcome], Fraction]
    ev = Fraction(0)
    for hole, p_hole in solver1.scenarios:  # exact: the hole card; enhc: none yet
        start = tuple(shoe) if hole is None else _take(tuple(shoe), hole)
        states: dict[State, tuple[Fraction, Tally]] = {(start, 2): (Fraction(1), {})}
        finished: dict[State, tuple[Fraction, Tally]] = {}
        played = 0  # hands played in every state of ``states``
        while states:
            following: dict[State, tuple[Fraction, Tally]] = {}
            for (left, hands), (p, tally) in states.items():
                if played == hands:
                    finished[(left, hands)] = (p, tally)  # no other state has this key
                    continue
                for (final, left2, hands2), q in play(played, left, hands).items():
                    p_new, tally_new = following.get((left2, hands2), (Fraction(0), {}))
                    for key, n in tally.items():
                        tally_new[key] = tally_new.get(key, Fraction(0)) + n * q
                    key = (1 if played == 0 else 2, final)
                    tally_new[key] = tally_new.get(key, Fraction(0)) + p * q
                    following[(left2, hands2)] = (p_new + p * q, tally_new)
            states = following
            played += 1
        losses = {1: first.loss_vs_bj, 2: later.loss_vs_bj}
        for (left, _), (_, tally) in finished.items():
            for k, p_dealer in enumerate(_dealer_law(solver1, left, hole)):
                if p_dealer:
                    result = sum(
                        (n * _settle(out, k, losses[cls]) for (cls, out), n in tally.items()),
                        Fraction(0),
                    )
                    ev += p_hole * p_dealer * result
    return ev


# ------------------------------------------ post-split brute force (tiny shoes)


class _HandAfter(_Hand):
    """Split hand 2 when it has seen hand 1's cards ``seen`` (counts per kind).

    Its setup's ``shoe`` is the shoe at the split, S, less ``seen`` (in a peek
    game the unseen hole card is still in it), so it draws and the dealer
    draws from the right cards. Only the exact model's prior on the hole card
    differs from :class:`_Hand`: it is the joint probability, straight from
    the deal, of the hole card h and of hand 1's cards. The hole card is dealt
    first from S (not completing a blackjack), then hand 1 draws from S - h;
    hand 1's decisions do not depend on h, so given h the chance of its actual
    draws is that of drawing ``seen`` in one fixed order from S - h::

        P(h, seen) = P(h) * prod_k ff((S - h)[k], seen[k]) / ff(|S| - 1, |seen|)

    normalised over h (the posterior on the hole card given hand 1's cards).
    The rest of the recursion (weights, standing, the policy) is
    :class:`_Hand`'s, so hand 2's play maximises its own expected result given
    the up card, the pair and hand 1's cards. (ENHC: no hole card, the prior is
    the one scenario.)
    """

    def __init__(self, setup: _Setup, seen: tuple[int, ...]) -> None:
        self.seen = seen
        super().__init__(setup)

    def _scenarios(self) -> tuple[tuple[int | None, Fraction], ...]:
        s = self.s
        if s.model != "exact":
            return ((None, Fraction(1)),)
        full = tuple(a + b for a, b in zip(s.shoe, self.seen, strict=True))  # S
        joint: list[tuple[int, Fraction]] = []
        for h, n in enumerate(full):
            if not n or _completes_blackjack(s.up, self.ranks[h]):
                continue
            pool = _take(full, h)
            orderings = 1
            for k in range(self.n_kinds):
                orderings *= _falling(pool[k], self.seen[k])
            if orderings:
                joint.append((h, n * Fraction(orderings, _falling(sum(pool), sum(self.seen)))))
        total = sum((p for _, p in joint), Fraction(0))
        if total == 0:
            raise ValueError("the dealer cannot be without blackjack")
        return tuple((h, p / total) for h, p in joint)


def split_ev_postsplit_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """EV (per unit initial bet, both hands) of splitting a pair of ``pair_rank``
    once when hand 2 plays knowing hand 1's cards. For tiny shoes; rank-only.

    ``shoe`` has both pair cards, the up card and the removed cards taken out.
    Hand 1 plays the :func:`split_ev` policy of split hand 1 (its own cards,
    the up card and the pair only). Hand 2 then plays the best
    composition-dependent policy given everything seen by then (the up card,
    the pair and all of hand 1's actual cards): each of its decisions
    maximises hand 2's own conditional expectation, with the shoe less hand
    1's cards and, in a peek game, the hole card a real card dealt first whose
    posterior is taken from the deal (:class:`_HandAfter`). Otherwise the
    rules are :func:`split_ev`'s (split aces one card, doubling after a split,
    no surrender, A + ten a plain 21, a 21 stands, ENHC ``"original"``: a
    dealer blackjack takes hand 1's original bet only, busted hands lose at
    once, 7-7-7 per ``bonus_on_split_hands``). Both hands and the dealer really
    draw from one shoe, as in :func:`split_ev_bruteforce`; a peek game's value
    is conditioned on no dealer blackjack. Only ``max_split_hands == 2``.

    It is at least :func:`split_ev` (hand 2's frozen policy is one of those it
    chooses from, and hand 1's expectation does not depend on how hand 2
    plays, as long as the shoe does not run out: the dealer's cards could as
    well come from the bottom of the shoe), and equal to it when hand 2 has no
    decision (split aces, one card each).
    """
    if rules.max_split_hands != 2:
        raise NotImplementedError("the post-split brute force handles one split only")
    pair = [(pair_rank, None), (pair_rank, None)]
    setups = _split_hand_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules)
    return _split_bruteforce(setups, postsplit=True)
