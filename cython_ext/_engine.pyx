# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled engine of strategy_calc (private: use :mod:`strategy_calc.engine`).

Blackjack
---------
Ranks are indexed 0..9 (ace .. ten-valued). A *shoe* is an array of 10 card
counts. Everything is exact enumeration over the actual remaining cards.

*Dealer.* Every final dealer hand is a multiset ``M`` of cards, the up card
included; which multisets are final does not depend on the order the cards
came in, only how many valid orders there are: ``w_u(M)`` orders start with
up card ``u`` and stop exactly at the last card. From a shoe ``s`` (``N``
cards) *that still holds the up card*, ``P(up = u and the dealer ends with M)
= w_u(M) prod_r s_r!/(s_r-m_r)! / (N!/(N-|M|)!)``, so dividing by ``s_u/N``
gives ``P(M | up = u)`` for all ten up cards from one pass over one prefix
tree of multisets (4,048 nodes S17). Busts are never enumerated: P(bust) is
one minus the rest, which is exact whenever the shoe holds at least as many
cards as the longest dealer hand (13 with the up card); smaller shoes use a
tree with the bust leaves and report lost mass (the dealer could run out).

A player hand ``H`` against up card ``u`` from the shoe ``S`` (up card gone)
sees the dealer draw from ``S - H``, i.e. from ``(S + u) - H`` given up card
``u``: one evaluation of ``(S + u) - H`` serves every up card. A
:class:`DealerMemo` keeps them by the cards removed from one *origin* shoe
(the shoe with the up card in), so a whole-game pass (every hand, every
split hand, every up card) evaluates each removed multiset once.

*Player.* Every multiset of player cards with hard total <= 21 is a node of a
static table (3,083 nodes, children by rank). For a query, a node's shoe is
``base - counts(node)``; values are memoized per node within the query.

*Conditioning* (``Params.mode``): 0 = no hole card checked (ENHC): plain
expectation, a dealer blackjack beats a standing hand (loss ``bjl1``, doubled
``bjl2``); 1 = peek, exact: the values are E[payoff * 1{no dealer
blackjack}], the hole card drawn last (exchangeable with the player's draws),
so a bust is worth ``-P(no blackjack | shoe then)``; the caller divides by
P(no blackjack) at the root; 2 = peek, the common shortcut: the player draws
as if no hole card were dealt and standing uses the dealer distribution
renormalised to no blackjack.

*With replacement* (``Params.replace``, an infinite deck: ``--decks inf``): every card is
drawn from ``base``'s proportions whatever was dealt, so a node's shoe, a split row's and
a split hand's are ``base`` itself, a deal's chance is a product of powers, and the
dealer's distribution is one per up card (``replacement_rows``: his states, highest hard
total first, each the mean of its children), used in place of the trees and the memo.
What enumerates real cards jointly (split moments, two boxes, the optimal split's
solver, suited split rounds) refuses it (``finite_only``).

Reentrancy: the tables are built once at import (the dealer trees of a soft-17
rule when a call first reads that rule, and those of several up cards on first
use, with the GIL held, and never changed after); every
call owns its scratch (or a caller-owned :class:`DealerMemo`, one call at a
time) and runs without the GIL, so calls from many threads do not interfere.

Files
-----
One compiled module, its concerns in separate files (``include``d below, in
this order): ``_baccarat.pxi``; ``_rules.pxi`` the rules of play, each written once
(the soft total, the dealer's draw and outcome, a standing hand's settlement);
``_player_nodes.pxi`` the player table;
``_dealer_trees.pxi`` the dealer trees and their evaluation;
``_dealer_memo.pxi`` the dealer memo; ``_play.pxi`` the parameter struct and
one hand's play; ``_game_pass.pxi`` the whole-game pass; ``_distributions.pxi``
one hand's outcome terms; ``_split_round.pxi`` whole-round distributions;
``_split_moments.pxi`` split-round moments and split play;
``_optimal_split.pxi`` the fully optimal split; ``_boxes.pxi`` two boxes of one round; ``_chart_deal.pxi`` a counted shoe dealt by a chart. The constants they share (and
those Python reads) are declared once in ``strategy_calc/_engine.pxd``. They
stay one module because the hot functions call each other across files
(``cdef inline``, no GIL): separate extension modules would call through
function pointers that the C compiler cannot inline.
"""

from libc.stdlib cimport malloc, free, calloc, realloc, qsort
cdef extern from "stdlib.h" nogil:
    int posix_memalign(void** memptr, size_t alignment, size_t size)
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint64_t
from libc.math cimport isfinite, INFINITY, NAN

cdef extern from "lanes.h" nogil:  # the four-shoe walks' hot loops, built for AVX2 too
    void sc_lanes_nodes(const int* steps, int n, const double* cf, double* buf)
    void sc_lanes_groups(const int* node, const double* w, const int* start, int ngroups,
                         const double* buf, double* const* rows)
    void sc_lanes_combs_apart(const int* fi, const int* di, int n, const double* const* f,
                              const double* const* d, double* cf)

import array

# Refusals of input a user can give (a shoe too small, a bust hand) are InputError, which
# the CLI prints as one error line; every other ValueError here is a caller's bug.
from strategy_calc.errors import InputError as _InputError

include "_baccarat.pxi"


# The engine, one concern a file (see Files above).
include "_rules.pxi"
include "_player_nodes.pxi"
include "_dealer_trees.pxi"
include "_dealer_memo.pxi"
include "_play.pxi"
include "_game_pass.pxi"
include "_distributions.pxi"
include "_split_round.pxi"
include "_split_moments.pxi"
include "_resplit_moments.pxi"
include "_optimal_split.pxi"
include "_boxes.pxi"
include "_chart_deal.pxi"
