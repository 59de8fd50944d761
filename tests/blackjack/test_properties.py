"""Invariants of every hand analysis on random shoes (hypothesis)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Card, Rank
from strategy_calc.rules import blackjack_rules

RULES = [blackjack_rules("deluxe"), blackjack_rules("macau-1983"),
         replace(blackjack_rules("deluxe"), max_split_hands=4, surrender="late")]


@st.composite
def situations(draw: st.DrawFn) -> tuple:  # type: ignore[type-arg]
    rules = replace(draw(st.sampled_from(RULES)), decks=draw(st.integers(1, 8)))
    decks = rules.decks
    pool = [r for r in range(1, 11) for _ in range(4 * decks * (4 if r == 10 else 1))]
    order = draw(st.permutations(pool))
    n_cards = draw(st.integers(2, 4))
    hand = list(order[:n_cards])
    while sum(hand) > 21:
        hand.pop()
    if len(hand) < 2:
        hand = [2, 3]
    up = order[n_cards]
    removed = order[n_cards + 1: n_cards + 1 + draw(st.integers(0, 20 * decks))]
    return rules, hand, up, removed


@pytest.mark.slow
@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_evs_are_bounded_and_dealer_probabilities_sum_to_one(s: tuple) -> None:  # type: ignore[type-arg]
    rules, hand, up, removed = s
    result = analyse_hand([Card(Rank(r)) for r in hand], Card(Rank(up)), rules,
                          [Card(Rank(r)) for r in removed])
    top = 3.0 if rules.has_bonus else rules.blackjack_pays
    for action, ev in result.ev.items():
        if ev is None:
            continue
        if action == "split":
            assert -2.0 * rules.max_split_hands - 1e-12 <= ev <= 2 * top * rules.max_split_hands
        elif action == "insurance":
            assert -0.5 - 1e-12 <= ev <= 1.0 + 1e-12
        else:
            assert -2.0 - 1e-12 <= ev <= top + 1e-12, (action, ev)
    assert abs(sum(result.dealer.values()) - 1.0) < 1e-12
    assert all(p >= 0 for p in result.dealer.values())
    if result.best != "even_money":  # even money is compared before the peek
        chosen = result.ev[result.best]
        assert chosen is not None
        assert all(chosen >= v - 1e-15 for a, v in result.ev.items()
                   if v is not None and a not in ("insurance", "even_money"))


def test_a_game_without_splits_is_charted_and_worth_less_to_an_optimal_player() -> None:
    """max_split_hands = 1: pairs are played as totals; taking the split away can only
    cost an optimal player (and the chart's pair rows then never say P)."""
    from strategy_calc.blackjack.game_analysis import analyse_game
    from strategy_calc.rules import blackjack_rules

    with_split = analyse_game(blackjack_rules("deluxe", ["decks=2"]))
    without = analyse_game(blackjack_rules("deluxe", ["decks=2", "max_split_hands=1"]))
    assert without.ev_optimal < with_split.ev_optimal
    assert all(not code.startswith("P") for row in without.pairs.values()
               for code in row.values())
    assert len(without.pairs) == 10


@given(st.lists(st.floats(min_value=0.0, max_value=1.0, allow_subnormal=False), max_size=3000),
       st.integers(min_value=0, max_value=40))
def test_hands_pairwise_sum_is_numpys_sum_to_the_last_bit(values: list[float], skip: int
                                                          ) -> None:
    """``hand``'s win/push/lose sums no longer import numpy: its pairwise order must give
    the double ``ndarray.sum()`` gives, on a slice as on the whole."""
    import numpy as np

    from strategy_calc.blackjack.hand_analysis import pairwise_sum

    start = min(skip, len(values))
    assert pairwise_sum(values, start, len(values)) == float(np.array(values[start:]).sum())
