"""One hand's action EVs against the one-hand oracle: the check each rule of play's tests
make on hands of a few cards from one deck."""

from __future__ import annotations

import bj_oracle

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import parse_cards
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
