"""Post-split play: the engine's ``split_postsplit`` agrees with the oracle's brute force.

``bj_oracle.split_ev_postsplit_bruteforce`` splits once and plays hand 1 with
the frozen one-split-hand policy (its own cards), then hand 2 with the best
policy given hand 1's actual cards too (peek: the hole card a real card dealt
first, its posterior taken from the deal), then the dealer, all from one tiny
shoe, by plain enumeration. The shoes are 1 deck with 14 to 16 cards left.
In every case but one-card split aces (where hand 2 has nothing to decide)
the value differs from the frozen ``split_ev``, so the cases tell the two
apart.
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
    return BlackjackRules(**{"decks": 1, "max_split_hands": 2, **fields})  # type: ignore[arg-type]


ENHC = {"hole_card": "enhc", "enhc_loses": "all"}
ORIGINAL = {"hole_card": "enhc", "enhc_loses": "original"}

# (id, rules, pair rank, up rank, shoe left = full shoe - pair - pair - up - removed)
CASES = [
    ("peek-88v9", _rules(), 8, 9, (1, 1, 1, 1, 1, 1, 1, 0, 2, 6)),
    ("peek-99vT", _rules(), 9, 10, (1, 1, 1, 2, 1, 1, 1, 1, 0, 6)),
    # (the 14-card shoe of test_oracle_optimal_split's peek-H17-22vA: one xdist group)
    ("peek-22vA-H17", _rules(dealer_hits_soft_17=True), 2, 1, (0, 1, 0, 1, 0, 2, 1, 1, 1, 7)),
    ("peek-NDAS-66v5", _rules(double_after_split=False), 6, 5, (1, 1, 1, 1, 0, 1, 1, 1, 1, 6)),
    ("peek-AAv6", _rules(), 1, 6, (1, 1, 1, 1, 1, 1, 1, 1, 1, 7)),
    ("peek-AAvT-hit-split-aces", _rules(split_aces_one_card=False), 1, 10,
     (0, 1, 1, 1, 0, 1, 1, 1, 1, 7)),  # (test_oracle_optimal_split's shoe: one group)
    ("enhc-all-88vT", _rules(**ENHC), 8, 10, (1, 1, 1, 1, 1, 1, 1, 0, 1, 6)),
    ("enhc-all-H17-33v7", _rules(dealer_hits_soft_17=True, **ENHC), 3, 7,
     (1, 1, 1, 1, 0, 1, 0, 1, 1, 7)),  # (test_oracle_optimal_split's shoe: one group)
    ("enhc-original-TTvA", _rules(**ORIGINAL), 10, 1, (1, 1, 1, 1, 2, 2, 1, 1, 1, 5)),
    ("enhc-original-NDAS-44vT", _rules(double_after_split=False, **ORIGINAL), 4, 10,
     (1, 1, 1, 0, 1, 1, 2, 1, 1, 6)),
    ("enhc-original-77v9-777", _rules(bonus_777=3.0, **ORIGINAL), 7, 9,
     (1, 1, 1, 1, 1, 1, 1, 1, 0, 6)),
    ("peek-55v4-D10-11", _rules(double_on="10-11"), 5, 4,
     (1, 1, 1, 0, 0, 1, 1, 1, 1, 7)),  # (test_oracle_optimal_split's shoe: one group)
]


def _removed(pair: int, up: int, shoe: tuple[int, ...]) -> list[int]:
    """The removed ranks that leave ``shoe`` after the pair and the up card."""
    start = oracle.remove(oracle.full_shoe(1), [pair, pair, up])
    assert all(s >= k for s, k in zip(start, shoe, strict=True))
    return [r for r in range(1, 11) for _ in range(start[r - 1] - shoe[r - 1])]


@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:]))
                          for case in CASES])
def test_postsplit_matches_the_bruteforce(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    removed = _removed(pair, up, shoe)
    assert 14 <= sum(shoe) <= 18
    want = oracle.split_ev_postsplit_bruteforce(pair, up, shoe, rules)
    assert want is not None
    frozen = oracle.split_ev(pair, up, shoe, rules)
    assert (want == frozen) == (pair == 1 and rules.split_aces_one_card)
    result = analyse_hand([Card(Rank(pair)), Card(Rank(pair))], Card(Rank(up)), rules,
                          [Card(Rank(r)) for r in removed], postsplit=True)
    got = result.split_postsplit
    assert got is not None
    assert abs(got - float(want)) <= TOL, (got, float(want))
