"""An independent, exact blackjack oracle (pure Python; exact rationals, ``rational.Fraction``).

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
With ``dealer_22_pushes`` (``push22``) a hand he ends on exactly 22 is not a bust but
an end of its own ("22", :data:`DEALER_KEYS`) against which every hand still standing
pushes (a natural is still paid, a busted hand has lost at once).
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
  ``enhc_loses == "all"`` and 1 under ``"original"`` and ``"original_and_splits"``
  (the original bet and the split bets are lost, the doubles returned: every split hand
  loses its own stake, doubled or not).

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
  hit again. A split hand's two-card 21 may still be doubled where ``double_on``
  allows 21 and ``hand_of_21_stands`` is off (that field's docstring: only a game
  with it "never doubles" a 21). The top-level ``"hit"`` of :func:`hand_evs` is still reported for
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

Two re-optimised resplit strategies: ``split_ev_cdp_hands_bruteforce`` plays a
process (every second card dealt first, then each hand plays the best policy for the
pair cards that started hands); ``split_ev_cdp_field`` is the field's CDP (Eric
Farmer's), which is no process but a closed form: the resplit sum fed, for each number
of pair cards removed, that removal's own best one-hand values (its docstring).

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
dealer blackjack does not take it); with ``bonus_settles_hand`` false (the other reading
of Art. 9) the hand, paid, also stands as a 21 of one unit against the dealer. Not on a
doubled hand; on split hands only if ``bonus_on_split_hands``. The rank-only functions
handle 7-7-7 and refuse a nonzero ``bonus_suited_678`` (suits are needed: use the
``*_suited`` ones).
"""

from __future__ import annotations

from bj_oracle.basics import (
    ACTIONS,
    DEALER_KEYS,
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
    full_shoe,
    remove,
    suited_shoe,
)
from bj_oracle.cdp import split_ev_cdp_hands_bruteforce
from bj_oracle.cdp_field import split_ev_cdp_field
from bj_oracle.dealer import (
    _dealer_from,
    _dealer_two_step,
    _dealer_ways,
    _versus,
    dealer_distribution,
    dealer_distribution_no_blackjack,
)
from bj_oracle.hands import _hand_evs, _surrender, hand_evs, hand_evs_shortcut, hand_evs_suited
from bj_oracle.optimal import split_ev_optimal_bruteforce
from bj_oracle.postsplit import _HandAfter, split_ev_postsplit_bruteforce
from bj_oracle.resplit import (
    HandEnd,
    _play_split_hand,
    split_ev_resplit_bruteforce,
    split_moments_resplit_bruteforce,
)
from bj_oracle.solver import (
    _bj_probability,
    _bonuses,
    _double_totals,
    _enhc_losses,
    _Hand,
    _hand_solver,
    _kind_of,
    _Setup,
    _suited_counts,
)
from bj_oracle.split_bruteforce import (
    Outcome,
    _dealer_law,
    _draws,
    _play_in_shoe,
    _settle,
    _split_bruteforce,
    _walk_hand,
    split_ev_bruteforce,
    split_ev_bruteforce_suited,
    split_ev_cdz_bruteforce,
)
from bj_oracle.splits import (
    _split_hand_setups,
    _split_setups,
    _split_value,
    split_ev,
    split_ev_suited,
)

__all__ = [  # every name, the private helpers too: some tests reach into them
    "ACTIONS",
    "DEALER_KEYS",
    "RANK_LAYOUT",
    "SUITED_LAYOUT",
    "SUITS",
    "HandEnd",
    "Outcome",
    "Shoe",
    "ShoeExhausted",
    "SuitedCard",
    "SuitedShoe",
    "_Hand",
    "_HandAfter",
    "_Setup",
    "_best_total",
    "_bj_probability",
    "_bonuses",
    "_completes_blackjack",
    "_dealer_from",
    "_dealer_law",
    "_dealer_two_step",
    "_dealer_ways",
    "_double_totals",
    "_draws",
    "_enhc_losses",
    "_exact",
    "_falling",
    "_hand_evs",
    "_hand_solver",
    "_kind_of",
    "_play_in_shoe",
    "_play_split_hand",
    "_settle",
    "_split_bruteforce",
    "_split_hand_setups",
    "_split_setups",
    "_split_value",
    "_suited_counts",
    "_surrender",
    "_take",
    "_versus",
    "_walk_hand",
    "dealer_distribution",
    "dealer_distribution_no_blackjack",
    "full_shoe",
    "hand_evs",
    "hand_evs_shortcut",
    "hand_evs_suited",
    "remove",
    "split_ev",
    "split_ev_bruteforce",
    "split_ev_bruteforce_suited",
    "split_ev_cdp_field",
    "split_ev_cdp_hands_bruteforce",
    "split_ev_cdz_bruteforce",
    "split_ev_optimal_bruteforce",
    "split_ev_postsplit_bruteforce",
    "split_ev_resplit_bruteforce",
    "split_ev_suited",
    "split_moments_resplit_bruteforce",
    "suited_shoe",
]
