"""Post-split play (the second hand sees the first) on tiny shoes. (see the package docstring)."""

from __future__ import annotations

import functools

from rational import Fraction

from bj_oracle.basics import RANK_LAYOUT, Shoe, _completes_blackjack, _falling, _take
from bj_oracle.solver import _Hand, _Setup
from bj_oracle.split_bruteforce import _split_bruteforce
from bj_oracle.splits import _split_hand_setups
from strategy_calc.rules import BlackjackRules

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


@functools.cache  # a pure function of immutable arguments; several test files ask it
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
