"""Resplits: the engine's split EV agrees with the oracle's brute force to 1e-12.

``bj_oracle.split_ev_resplit_bruteforce`` plays the real sequential process
(hands in queue order, a pair card drawn as a second card starts a new hand
while fewer than ``max_split_hands`` hands exist, the dealer last) from one tiny
shoe, every hand following the frozen one-split-hand policy on its own cards.
The shoes are 1 deck with 32 to 35 cards removed, keeping 1 to 3 more pair
cards so that resplits happen; in every case but aces without
``resplit_aces`` (equal to splitting once) the value differs from splitting
once. The 7-7-7 bonus needs 2 decks to be paid on a split hand: with one deck
only two 7s are left and the first goes to a resplit. (In the 1-deck bonus
case the bonus still changes the value, through the frozen policy: a 7,7 hand
ignores the 7 it passed on and hits for a 7-7-7 that cannot come.) In the
2-deck cases the bonus is paid (the value differs from the same game without
it) except where ``bonus_on_split_hands`` is off.
"""

from __future__ import annotations

import bj_oracle as oracle
import pytest
from oracle_groups import split_case_group

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Card, Rank
from strategy_calc.rules import BlackjackRules

pytestmark = pytest.mark.slow  # brute force of every play: the full run only

TOL = 1e-12


def _rules(**fields: object) -> BlackjackRules:
    return BlackjackRules(**{"decks": 1, **fields})  # type: ignore[arg-type]


ENHC = {"hole_card": "enhc", "enhc_loses": "all"}
ORIGINAL = {"hole_card": "enhc", "enhc_loses": "original"}

# (id, rules, pair rank, up rank, shoe left = full shoe - pair - pair - up - removed)
CASES = [
    ("peek-88v6-3", _rules(max_split_hands=3), 8, 6, (1, 0, 0, 1, 1, 1, 0, 2, 3, 6)),
    ("peek-88vT-4", _rules(max_split_hands=4), 8, 10, (1, 0, 0, 1, 0, 2, 1, 2, 2, 5)),
    ("peek-88vA-4", _rules(max_split_hands=4), 8, 1, (2, 0, 1, 1, 0, 0, 1, 2, 2, 6)),
    ("peek-NDAS-66v5-4", _rules(max_split_hands=4, double_after_split=False), 6, 5,
     (0, 2, 2, 0, 0, 2, 1, 2, 0, 5)),
    ("peek-D9-11-22v6-3", _rules(max_split_hands=3, double_on="9-11"), 2, 6,
     (1, 1, 0, 1, 1, 0, 1, 1, 1, 8)),
    ("enhc-all-88vT-4", _rules(max_split_hands=4, **ENHC), 8, 10,
     (0, 1, 0, 2, 1, 1, 2, 2, 0, 5)),
    ("enhc-original-88vT-4", _rules(max_split_hands=4, **ORIGINAL), 8, 10,
     (1, 2, 1, 0, 1, 2, 1, 2, 0, 6)),
    ("enhc-original-99vA-3", _rules(max_split_hands=3, **ORIGINAL), 9, 1,
     (1, 1, 2, 0, 1, 1, 0, 2, 1, 7)),
    ("enhc-all-H17-33v2-3", _rules(max_split_hands=3, dealer_hits_soft_17=True, **ENHC), 3, 2,
     (0, 3, 2, 0, 1, 2, 0, 0, 0, 6)),
    ("peek-AAv6-RSA-4", _rules(max_split_hands=4, resplit_aces=True), 1, 6,
     (2, 1, 0, 1, 3, 1, 0, 1, 1, 5)),
    ("peek-AAvT-noRSA-4", _rules(max_split_hands=4, resplit_aces=False), 1, 10,
     (2, 0, 1, 1, 1, 0, 1, 2, 2, 4)),
    ("enhc-AAv5-RSA-hit-split-aces-3",
     _rules(max_split_hands=3, resplit_aces=True, split_aces_one_card=False, **ENHC), 1, 5,
     (2, 0, 0, 1, 1, 4, 0, 2, 0, 6)),
    ("peek-H17-77v7-3", _rules(max_split_hands=3, dealer_hits_soft_17=True), 7, 7,
     (1, 0, 2, 1, 0, 2, 1, 1, 2, 7)),
    ("enhc-777-77vT-3-1deck", _rules(max_split_hands=3, bonus_777=3.0, **ENHC), 7, 10,
     (1, 0, 0, 1, 1, 0, 2, 2, 1, 7)),
    ("enhc-777-77vT-3-2decks", _rules(decks=2, max_split_hands=3, bonus_777=3.0, **ENHC), 7, 10,
     (1, 1, 0, 1, 1, 0, 3, 2, 1, 4)),
    ("peek-777-H17-77v6-4-2decks",
     _rules(decks=2, max_split_hands=4, bonus_777=3.0, dealer_hits_soft_17=True), 7, 6,
     (3, 0, 0, 2, 0, 0, 4, 2, 0, 5)),
    ("peek-777-not-on-splits-77v6-3-2decks",
     _rules(decks=2, max_split_hands=3, bonus_777=3.0, bonus_on_split_hands=False), 7, 6,
     (0, 1, 0, 1, 2, 1, 3, 2, 0, 6)),
]


def _removed(decks: int, pair: int, up: int, shoe: tuple[int, ...]) -> list[int]:
    """The removed ranks that leave ``shoe`` after the pair and the up card."""
    start = oracle.remove(oracle.full_shoe(decks), [pair, pair, up])
    assert all(s >= k for s, k in zip(start, shoe, strict=True))
    return [r for r in range(1, 11) for _ in range(start[r - 1] - shoe[r - 1])]


@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:]))
                          for case in CASES])
def test_resplit_matches_the_bruteforce(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    removed = _removed(rules.decks, pair, up, shoe)
    assert 11 <= sum(shoe) <= 17  # a tiny shoe: 1 deck less 32 to 38 removed cards
    want = oracle.split_ev_resplit_bruteforce(pair, up, shoe, rules)
    assert want is not None
    result = analyse_hand([Card(Rank(pair)), Card(Rank(pair))], Card(Rank(up)), rules,
                          [Card(Rank(r)) for r in removed])
    got = result.ev["split"]
    assert got is not None
    assert abs(got - float(want)) <= TOL, (got, float(want))
