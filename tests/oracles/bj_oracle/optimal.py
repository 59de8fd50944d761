"""The fully optimal split: every decision for the whole round. (see the package docstring)."""

from __future__ import annotations

import functools
import math

from rational import Fraction

from bj_oracle.basics import Shoe, ShoeExhausted, _completes_blackjack, _exact, _split_forbidden
from bj_oracle.dealer import _dealer_ways
from bj_oracle.solver import _double_totals, _enhc_losses
from strategy_calc.rules import BlackjackRules

# ------------------------------------- fully optimal split (small shoes only)

Counts = tuple[int, ...]
HandState = tuple[int, bool, int, bool, bool]  # hard, soft ace, cards (<= 3), all 7s, first
Finished = tuple[tuple[int, int, bool], ...]  # sorted (total class 16..21, stake, first)


def _add(d: Counts, c: int) -> Counts:
    return (*d[:c], d[c] + 1, *d[c + 1 :])


def _sign(total: int, dealer: int) -> int:
    """A standing total against dealer outcome 0..4 (17..21), 5 (bust) or 6 (22, where the
    rules count it apart: every standing hand pushes it)."""
    if dealer == 5:
        return 1
    if dealer == 6:
        return 0
    return (total > 17 + dealer) - (total < 17 + dealer)


_SIGNS = tuple(tuple(_sign(16 + cls, j) for j in range(7)) for cls in range(6))
"""``_SIGNS[cls][j]``: :func:`_sign` of total class ``16 + cls`` against dealer end ``j``."""


@functools.cache  # the dealer's ways come from a cache too: few distinct tuples
def _settled(ways: tuple[int, ...]) -> tuple[int, ...]:
    """Per total class 16..21, sum over dealer ends j of ways[j] * sign (one unit)."""
    return tuple(sum(w * s for w, s in zip(ways, row, strict=True)) for row in _SIGNS)


class _OptimalSplit:
    """The recursion behind :func:`split_ev_optimal_bruteforce`.

    Values are *unnormalised*, as in the package docstring: ``J(state) = sum
    over hole cards h of w(h, D) * E[round result | h, state]``, with ``D`` the
    cards the player has drawn since the split (all hands, in one fixed order)
    and ``w(h, D)`` the joint probability of the hole card ``h`` (dealt first;
    ENHC: no hole card, one scenario) and of those draws. Maximising the
    unnormalised sum is maximising the conditional expectation given what the
    player has seen, so one decision serves every hole card he cannot tell
    apart, and the hole card's posterior is implied by the weights.

    Everything is an integer in units of ``1 / scale`` (no fractions until the
    end): a probability of the deal of ``h`` and ``D`` is counted over ordered
    deals of the whole shoe, and the dealer's ends over ordered deals of his
    cards (``_dealer_ways``), so every product below is an integer.

    * peek: ``w(h, D) = S[h] / M * ff(S - h, D) / ff(N - 1, |D|)`` (M: the cards
      that cannot complete a blackjack, N = |S|); in units of
      ``1 / (M (N - 1)! b)``, ``w = S[h] ff(S - h, D) (N - 1 - |D|)! b``.
    * ENHC: ``w(D) = ff(S, D) / ff(N, |D|)``; in units of ``1 / (N! b)``,
      ``w = ff(S, D) (N - |D|)! b``.

    (``b``: the bonus payout's denominator, so that paying it stays an integer.)

    The state is Markov: the hole card's posterior and the cards to come
    depend on the *multiset* ``D`` only (the player's choices never depend on
    the hole card), and the result of a finished standing hand depends only on
    its total class (16 stands for every total below 17), its stake and, in
    ENHC ``"original"`` only, whether it is hand 1. Busted and bonus hands are
    settled at once: ``-stake`` or ``bonus`` times ``w(D)``, the same for every
    later action (the weights of the children of a draw add up to the
    parent's), so they leave the state.
    """

    def __init__(self, pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules) -> None:
        self.shoe = tuple(shoe)
        self.n = sum(self.shoe)
        self.up = up
        self.h17 = rules.dealer_hits_soft_17
        self.push22 = rules.dealer_22_pushes
        self.peek = rules.peek
        self.pair = pair_rank
        aces = pair_rank == 1
        self.max_hands = rules.max_split_hands if (not aces or rules.resplit_aces) else 2
        self.one_card = rules.split_aces_take_one_card(aces)
        self.double_totals = (
            _double_totals(rules) if rules.split_hands_may_double(aces) else frozenset()
        )
        # double_after_hit ("doubling on any number of cards", RULES text): three or more
        # cards may double within double_on's totals, where a split hand may double at all
        self.late_totals = self.double_totals if rules.double_after_hit else frozenset()
        bonus = _exact(rules.bonus_777) if rules.bonus_on_split_hands else Fraction(0)
        self.bonus_num, self.b = bonus.numerator, bonus.denominator
        self.track_first = not self.peek and rules.enhc_loses == "original"
        self.bonus_settles = rules.bonus_settles_hand
        # a Charlie (RULES text): a hand reaching this many cards unbust wins 1 at once
        self.charlie = rules.charlie_cards
        # ENHC: what a standing hand gets against a dealer blackjack, by (first, stake)
        self.loss_bj = {
            (first, stake): int(_enhc_losses(rules, 1 if first else 2)[stake - 1])
            for first in (False, True)
            for stake in (1, 2)
        }
        if self.peek:
            self.holes = [
                h for h in range(10) if self.shoe[h] and not _completes_blackjack(up, h + 1)
            ]
            m = sum(self.shoe[h] for h in self.holes)
            if m == 0:
                raise ValueError("the dealer cannot be without blackjack")
            self.scale = m * math.factorial(self.n - 1) * self.b
        else:
            self.scale = math.factorial(self.n) * self.b
        self._w: dict[Counts, int] = {}
        self._a: dict[Counts, tuple[tuple[int, ...], int]] = {}
        self._memo: dict[tuple[Counts, HandState | None, int, int, Finished], int] = {}

    # --- weights and the dealer

    def _ff(self, pool: Counts, d: Counts) -> int:
        out = 1
        for k in range(10):
            out *= math.perm(pool[k], d[k]) if pool[k] >= d[k] else 0
        return out

    def weight(self, d: Counts) -> int:
        """sum over h of w(h, D), in units of 1 / scale."""
        if d not in self._w:
            drawn = sum(d)
            if self.peek:
                total = 0
                for h in self.holes:
                    pool = (*self.shoe[:h], self.shoe[h] - 1, *self.shoe[h + 1 :])
                    total += self.shoe[h] * self._ff(pool, d)
                self._w[d] = total * math.factorial(self.n - 1 - drawn) * self.b
            else:
                self._w[d] = self._ff(self.shoe, d) * math.factorial(self.n - drawn) * self.b
        return self._w[d]

    def cards_left(self, d: Counts) -> int:
        """How many cards the player can still draw (the hole card is not among them)."""
        return self.n - self.peek - sum(d)

    def settlement(self, d: Counts) -> tuple[tuple[int, ...], int]:
        """For the final D: (for each total class 16..21, the sum over dealer ends
        (and hole cards) of weight * result of one unit standing on it;
        the weight of a dealer blackjack (ENHC; 0 in a peek game))."""
        if d in self._a:
            return self._a[d]
        acc = [0] * 6
        bj = 0
        drawn = sum(d)
        if self.peek:
            for h in self.holes:
                pool = (*self.shoe[:h], self.shoe[h] - 1, *self.shoe[h + 1 :])
                ways_hd = self.shoe[h] * self._ff(pool, d)
                if not ways_hd:
                    continue
                left = tuple(a - b for a, b in zip(pool, d, strict=True))
                rank = h + 1
                k, ways = _dealer_ways(left, self.up + rank, self.up == 1 or rank == 1, self.h17,
                                       self.push22)
                base = ways_hd * self.b * math.factorial(self.n - 1 - drawn - k)
                for cls, v in enumerate(_settled(ways)):
                    acc[cls] += base * v
        else:
            ff = self._ff(self.shoe, d)
            if ff:
                left = tuple(a - b for a, b in zip(self.shoe, d, strict=True))
                n = self.n - drawn
                if n == 0:
                    raise ShoeExhausted("the dealer's second card must come from an empty shoe")
                for c in range(10):
                    if not left[c]:
                        continue
                    if _completes_blackjack(self.up, c + 1):
                        bj += ff * self.b * left[c] * math.factorial(n - 1)
                        continue
                    rest = (*left[:c], left[c] - 1, *left[c + 1 :])
                    rank = c + 1
                    k, ways = _dealer_ways(rest, self.up + rank, self.up == 1 or rank == 1,
                                           self.h17, self.push22)
                    base = ff * self.b * left[c] * math.factorial(n - 1 - k)
                    for cls, v in enumerate(_settled(ways)):
                        acc[cls] += base * v
        self._a[d] = (tuple(acc), bj)
        return self._a[d]

    def terminal(self, d: Counts, fin: Finished) -> int:
        """The dealer plays; every finished standing hand is settled."""
        if not fin:
            return 0
        acc, bj = self.settlement(d)
        return sum(stake * acc[cls - 16] + self.loss_bj[(first, stake)] * bj
                   for cls, stake, first in fin)

    # --- the round

    def hand_state(self, hard: int, ace: bool, cards: int, sevens: bool, first: bool) -> HandState:
        """A canonical hand: an ace that can no longer count 11 is forgotten, 3+ cards
        are alike (but up to a Charlie's number), the 7s matter only for the bonus, "first"
        only in ENHC original."""
        return (hard, ace and hard <= 11, min(cards, max(3, self.charlie)),
                sevens and cards <= 2 and self.bonus_num > 0, first and self.track_first)

    def finish(self, fin: Finished, total: int, stake: int, first: bool) -> Finished:
        entry = (max(16, min(total, 21)), stake, first and self.track_first)
        return tuple(sorted((*fin, entry)))

    def root(self) -> Fraction:
        hand = self.hand_state(self.pair, self.pair == 1, 1, self.pair == 7, True)
        value = self.play((0,) * 10, hand, 1, 2, ())
        return Fraction(value, self.scale)

    def between(self, d: Counts, waiting: int, created: int, fin: Finished) -> int:
        """Between hands: the next waiting hand (one pair card) or the dealer."""
        if waiting == 0:
            return self.terminal(d, fin)
        hand = self.hand_state(self.pair, self.pair == 1, 1, self.pair == 7, False)
        return self.play(d, hand, waiting - 1, created, fin)

    def play(self, d: Counts, hand: HandState, waiting: int, created: int, fin: Finished) -> int:
        """The current hand (not bust, no bonus, not forced to stand) decides, or
        (one card) takes its second card."""
        key = (d, hand, waiting, created, fin)
        if key in self._memo:
            return self._memo[key]
        if not self.weight(d):
            return 0
        cards = hand[2]
        if cards == 1:
            if self.cards_left(d) <= 0:
                raise ShoeExhausted("a split hand needs a second card")
            value = 0
            for c in range(10):
                if self.shoe[c] <= d[c]:
                    continue
                nd = _add(d, c)
                v = self.after_card(nd, hand, c, waiting, created, fin)
                if c + 1 == self.pair and created < self.max_hands:  # may resplit
                    v = max(v, self.play(nd, hand, waiting + 1, created + 1, fin))
                value += v
        else:
            value = max(self.options(d, hand, waiting, created, fin).values())
        self._memo[key] = value
        return value

    def options(self, d: Counts, hand: HandState, waiting: int, created: int,
                fin: Finished) -> dict[str, int]:
        """The actions of a hand of two or more cards at D and their (unnormalised) values."""
        hard, ace, cards, _, first = hand
        total = hard + 10 if ace else hard
        opts = {"stand": self.between(d, waiting, created, self.finish(fin, total, 1, first))}
        if self.cards_left(d) > 0:
            opts["hit"] = sum(self.after_card(_add(d, c), hand, c, waiting, created, fin)
                              for c in range(10) if self.shoe[c] > d[c])
            if total in (self.double_totals if cards == 2 else self.late_totals):
                opts["double"] = self.double(d, hand, waiting, created, fin)
        return opts

    def double(self, d: Counts, hand: HandState, waiting: int, created: int,
               fin: Finished) -> int:
        """Doubling the current two-card hand: one more card of each kind left."""
        return sum(self.doubled(_add(d, c), hand, c, waiting, created, fin)
                   for c in range(10) if self.shoe[c] > d[c])

    def after_card(self, d: Counts, hand: HandState, c: int, waiting: int, created: int,
                   fin: Finished) -> int:
        """The current (undoubled) hand has just drawn a card of kind ``c`` (in ``d``)."""
        w = self.weight(d)
        if not w:
            return 0
        hard, ace, cards, sevens, first = hand
        hard += c + 1
        ace = ace or c == 0
        cards += 1
        sevens = sevens and c == 6
        if hard > 21:
            return -w + self.between(d, waiting, created, fin)
        if cards == 3 and sevens and self.bonus_num:  # paid; settled, or standing as a 21
            if not self.bonus_settles:
                fin = self.finish(fin, 21, 1, first)
            return self.bonus_num * (w // self.b) + self.between(d, waiting, created, fin)
        if self.charlie and cards >= self.charlie:  # a Charlie: its bet won at once
            return w + self.between(d, waiting, created, fin)
        total = hard + 10 if ace and hard <= 11 else hard
        if self.one_card and cards == 2:
            return self.between(d, waiting, created, self.finish(fin, total, 1, first))
        if total == 21:  # never hit; doubled where double_on allows 21 (hand_of_21_stands off)
            state = self.hand_state(hard, ace, cards, sevens, first)
            stand = self.between(d, waiting, created, self.finish(fin, total, 1, first))
            if 21 in (self.double_totals if cards == 2 else self.late_totals) \
                    and self.cards_left(d) > 0:
                return max(stand, self.double(d, state, waiting, created, fin))
            return stand
        return self.play(d, self.hand_state(hard, ace, cards, sevens, first), waiting, created,
                         fin)

    def doubled(self, d: Counts, hand: HandState, c: int, waiting: int, created: int,
                fin: Finished) -> int:
        """The current hand, doubled, has drawn its one card: bust, or stand on 2 units."""
        w = self.weight(d)
        if not w:
            return 0
        hard, ace, _, _, first = hand
        hard += c + 1
        if hard > 21:
            return -2 * w + self.between(d, waiting, created, fin)
        total = hard + 10 if (ace or c == 0) and hard <= 11 else hard
        return self.between(d, waiting, created, self.finish(fin, total, 2, first))


@functools.cache  # a pure function of immutable arguments; several test files ask it
def split_ev_optimal_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """EV (per unit initial bet, all hands) of splitting a pair of ``pair_rank``
    against ``up`` with the fully optimal play. For small shoes; rank-only.

    ``shoe`` has both pair cards, the up card and the removed cards taken out.
    Casino order: hand 1 takes its second card and is played out, then hand 2,
    and so on; the dealer plays last, from what is left. Every decision (hit,
    stand, double where a split hand may double, resplit) is taken knowing
    everything seen in the round so far (the pair, the up card, every card of
    every hand dealt before and of the current hand) and maximises the
    expectation of the whole round (all hands), not of the current hand.

    Resplit: a hand's second card of the pair's rank (all tens alike), while
    fewer than ``max_split_hands`` hands exist (aces: only with
    ``resplit_aces``, otherwise two hands at most), MAY start a new hand at the
    end of the queue, the hand then drawing its second card again; if not, the
    hand plays on holding the pair. Split aces with ``split_aces_one_card``
    take their one card and stand (they may still resplit an ace). A split
    hand may double on two cards when ``double_after_split`` and ``double_on``
    allow its total (one card, 2 units, no bonus); a hand of 21 stands (the
    package's choice); A + ten is a plain 21. 7-7-7 on a split hand (with
    ``bonus_on_split_hands``) is paid ``bonus_777`` at once and settled; a bust
    loses its stake at once. Peek game: the hole card is a real card dealt
    first, known not to complete a blackjack, so the value is conditioned on no
    dealer blackjack; the player never sees it. ENHC: the dealer's second card
    comes after every hand; a blackjack takes from every standing hand what
    ``_enhc_losses`` says (``"all"``: every bet and double; ``"original"``:
    hand 1's original bet only).

    It is at least :func:`split_ev_postsplit_bruteforce` and
    :func:`split_ev_resplit_bruteforce` (their policies are among those it
    chooses from), and equals :func:`split_ev_bruteforce` when no decision is
    left (one-card split aces without resplit). Only ``bonus_suited_678 == 0``.
    """
    if rules.bonus_suited_678:
        raise ValueError("the suited 6-7-8 bonus needs suits: this oracle is rank-only")
    if _split_forbidden(rules, pair_rank):
        return None
    return _OptimalSplit(pair_rank, up, tuple(shoe), rules).root()
