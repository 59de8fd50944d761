"""One hand's action EVs against the one-hand oracle: the check each rule of play's tests
make on hands of a few cards from one deck."""

from __future__ import annotations

import bj_oracle

from strategy_calc.blackjack.hand_analysis import HandAnalysis, analyse_hand
from strategy_calc.cards import Card, Rank, parse_cards
from strategy_calc.rules import BlackjackRules

TOL = 1e-12


def assert_hand_evs_equal_the_oracle(hand: str, up: str, rules: BlackjackRules,
                                     actions: tuple[str, ...] = ("stand", "hit", "double")
                                     ) -> None:
    """``analyse_hand``'s EV of each of ``actions`` for ``hand`` against ``up`` from one
    full deck less those cards equals ``bj_oracle.hand_evs``'s to 1e-12, and each is
    offered (not None) exactly where the oracle offers it."""
    ranks = [int(c.rank) for c in parse_cards(hand)]
    upr = int(parse_cards(up)[0].rank)
    shoe = bj_oracle.remove(bj_oracle.full_shoe(1), [*ranks, upr])
    want = bj_oracle.hand_evs(ranks, upr, shoe, rules)
    got = analyse_hand(hand, up, rules).ev
    for action in actions:
        assert (want[action] is None) == (got[action] is None), action
        if want[action] is not None:
            assert abs(float(want[action]) - got[action]) < TOL, action  # type: ignore[arg-type, operator]


SUITED_GONE = [("2", None), ("3", None), ("4", None), ("4", None), ("5", None), ("9", None),
               ("9", None), ("T", None), ("T", None), ("T", None), ("T", None), ("T", None),
               ("6", "h"), ("7", "c"), ("8", "d"), ("A", None), ("2", None), ("3", None),
               ("T", None), ("T", None), ("5", None), ("9", None)]
"""The 22 cards gone from one deck in the suited-bonus hand checks: a 6, a 7 and an 8 of
known suits among them."""


def assert_suited_hand_evs_equal_the_oracle(hand: tuple[tuple[str, str], ...], up: int,
                                            rules: BlackjackRules) -> HandAnalysis:
    """``analyse_hand``'s stand, hit, double and surrender EVs for ``hand`` (cards of known
    suits) against ``up`` (a 6, 7 or 8 up is a spade) from one deck less
    :data:`SUITED_GONE` equal ``bj_oracle.hand_evs_suited``'s to 1e-12, each offered
    exactly where the oracle offers it; the analysis, for further checks."""
    cards = [Card(Rank(int(r)), s) for r, s in hand]
    gone = [Card(Rank(1 if r == "A" else 10 if r == "T" else int(r)), s)
            for r, s in SUITED_GONE]
    up_card = Card(Rank(up), None if up not in (6, 7, 8) else "s")
    got = analyse_hand(cards, up_card, rules, gone)
    shoe = bj_oracle.suited_shoe(1, [(c.rank.value, c.suit) for c in [*cards, up_card, *gone]])
    exact = bj_oracle.hand_evs_suited(tuple((c.rank.value, c.suit) for c in cards), up, shoe,
                                      rules)
    for key in ("stand", "hit", "double", "surrender"):
        want = exact.get(key)
        assert (got.ev[key] is None) == (want is None), key
        if want is not None:
            assert abs(got.ev[key] - float(want)) <= TOL, key  # type: ignore[operator]
    return got
