"""The Cython engine agrees with the rational oracle (tests/oracles/bj_oracle/) to 1e-12.

The oracle is a second derivation written from the rules text (it enumerates
the hole card instead of using the engine's exchangeability identity). Shoes
are small (1-2 decks with random removals) so that the exact fractions stay
cheap; hypothesis draws hands, up cards, removals and rule variants.
"""

from __future__ import annotations

from dataclasses import replace

import bj_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from one_hand import assert_suited_hand_evs_equal_the_oracle

from strategy_calc.blackjack.hand_analysis import analyse_hand, dealer_outcomes
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules

TOL = 1e-12
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

rules_st = st.builds(
    BlackjackRules,
    hole_card=st.sampled_from(["peek", "enhc"]),
    enhc_loses=st.sampled_from(["all", "original"]),
    dealer_hits_soft_17=st.booleans(),
    double_on=st.sampled_from(["any", "9-11", "10-11", "11", "none"]),
    double_after_split=st.booleans(),
    surrender=st.sampled_from(["none", "late", "early", "not_vs_ace", "2-9", "late_vs_ten_ace"]),
    even_money=st.booleans(),
    bonus_777=st.sampled_from([0.0, 3.0]),
    blackjack_pays=st.sampled_from([1.5, 1.2]),
    split_aces_one_card=st.booleans(),
)


@st.composite
def deals(draw: st.DrawFn, decks: int, low: int, high: int) -> tuple[
        BlackjackRules, tuple[int, ...], int, tuple[int, ...]]:
    """(rules, hand ranks, up rank, removed ranks) on a shoe of ``decks`` with removals."""
    rules = replace(draw(rules_st), decks=decks)
    pool = [r for r in range(1, 11) for _ in range(4 * decks * (4 if r == 10 else 1))]
    order = draw(st.permutations(pool))
    n_removed = draw(st.integers(low, high))
    hand, up = order[:2], order[2]
    if sum(hand) > 21:  # two aces count 2 here; never bust
        hand = (hand[0], 1)
    return rules, tuple(hand), up, tuple(order[3:3 + n_removed])


def _sym(rank: int) -> str:
    return Rank(rank).symbol


def _engine(rules: BlackjackRules, hand: tuple[int, ...], up: int, removed: tuple[int, ...],
            method: str = "exact") -> dict[str, float | None]:
    result = analyse_hand([Card(Rank(r)) for r in hand], Card(Rank(up)), rules,
                          [Card(Rank(r)) for r in removed], peek_method=method)  # type: ignore[arg-type]
    return dict(result.ev)


def _oracle_shoe(decks: int, hand: tuple[int, ...], up: int,
                 removed: tuple[int, ...]) -> tuple[int, ...]:
    return oracle.remove(oracle.full_shoe(decks), [*hand, up, *removed])


def _agree(
    engine: dict[str, float | None], exact: dict[str, object], keys: tuple[str, ...]
) -> None:
    for key in keys:
        want = exact.get(key)
        got = engine.get(key)
        if want is None:
            assert got is None, key
        else:
            assert got is not None, key
            assert abs(got - float(want)) <= TOL, (key, got, float(want))  # type: ignore[arg-type]


ACTIONS = ("stand", "hit", "double", "surrender", "insurance", "even_money")


@pytest.mark.oracle
@SETTINGS
@given(deals(1, 18, 32))
def test_one_deck_hand_evs_match_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    rules, hand, up, removed = deal
    exact = oracle.hand_evs(hand, up, _oracle_shoe(1, hand, up, removed), rules)
    engine = _engine(rules, hand, up, removed)
    if sum(hand) + 10 * (1 in hand) == 21:  # a hand of 21 stands: the engine reports no hit
        exact = {**exact, "hit": None}
    _agree(engine, exact, ACTIONS)


@pytest.mark.oracle
@SETTINGS
@given(deals(2, 55, 75))
def test_two_deck_hand_evs_match_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    rules, hand, up, removed = deal
    exact = oracle.hand_evs(hand, up, _oracle_shoe(2, hand, up, removed), rules)
    engine = _engine(rules, hand, up, removed)
    if sum(hand) + 10 * (1 in hand) == 21:
        exact = {**exact, "hit": None}
    _agree(engine, exact, ACTIONS)


@pytest.mark.oracle
@SETTINGS
@given(deals(1, 0, 30), st.booleans())
def test_dealer_probabilities_match_the_oracle(deal: tuple, h17: bool) -> None:  # type: ignore[type-arg]
    rules, _hand, up, removed = deal
    shoe_counts = oracle.remove(oracle.full_shoe(1), [up, *removed])
    shoe = Shoe.from_counts(shoe_counts)
    for peek in (False, True):
        r = replace(rules, hole_card="peek" if peek else "enhc", dealer_hits_soft_17=h17)
        got = dealer_outcomes(shoe, Rank(up), r)
        if peek:
            if oracle.dealer_distribution(shoe_counts, up, h17)["blackjack"] == 1:
                continue
            want = oracle.dealer_distribution_no_blackjack(shoe_counts, up, h17)
        else:
            want = oracle.dealer_distribution(shoe_counts, up, h17)
        for key, value in want.items():
            assert abs(got[key] - float(value)) <= TOL, (key, got[key], value)
        assert abs(sum(got.values()) - 1.0) <= 1e-13


@pytest.mark.oracle
@SETTINGS
@given(deals(1, 22, 32))
def test_peek_shortcut_matches_the_oracle_shortcut(deal: tuple) -> None:  # type: ignore[type-arg]
    rules, hand, up, removed = deal
    rules = replace(rules, hole_card="peek")
    exact = oracle.hand_evs_shortcut(hand, up, _oracle_shoe(1, hand, up, removed), rules)
    engine = _engine(rules, hand, up, removed, method="shortcut")
    if sum(hand) + 10 * (1 in hand) == 21:
        exact = {**exact, "hit": None}
    _agree(engine, exact, ("stand", "hit", "double"))


def test_exact_peek_conditioning_differs_from_the_shortcut_on_a_small_shoe() -> None:
    """Up A, hard 12 with 45 cards gone from one deck: the hole card is known not to be a
    ten, which changes the player's draws; the common shortcut misses that."""
    rules = BlackjackRules(decks=1, hole_card="peek")
    hand, up = (10, 2), 1
    removed = (2, 2, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
               9, 9, 9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1)
    exact = _engine(rules, hand, up, removed)
    shortcut = _engine(rules, hand, up, removed, method="shortcut")
    assert exact["hit"] is not None and shortcut["hit"] is not None
    assert abs(exact["hit"] - shortcut["hit"]) > 1e-4
    shoe = _oracle_shoe(1, hand, up, removed)
    assert abs(exact["hit"] - float(oracle.hand_evs(hand, up, shoe, rules)["hit"])) <= TOL
    assert abs(shortcut["hit"]
               - float(oracle.hand_evs_shortcut(hand, up, shoe, rules)["hit"])) <= TOL


@st.composite
def pair_deals(draw: st.DrawFn, min_removed: int = 26) -> tuple[
        BlackjackRules, int, int, tuple[int, ...]]:
    rules = replace(draw(rules_st), decks=1)
    pair = draw(st.integers(1, 10))
    pool = [r for r in range(1, 11) for _ in range(16 if r == 10 else 4)]
    pool.remove(pair)
    pool.remove(pair)
    order = draw(st.permutations(pool))
    n_removed = draw(st.integers(min_removed, 34))
    return rules, pair, order[0], tuple(order[1:1 + n_removed])


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(pair_deals())
def test_split_ev_matches_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    rules, pair, up, removed = deal
    shoe = _oracle_shoe(1, (pair, pair), up, removed)
    want = oracle.split_ev(pair, up, shoe, rules)
    got = _engine(rules, (pair, pair), up, removed)["split"]
    assert want is not None and got is not None
    assert abs(got - float(want)) <= TOL


@pytest.mark.oracle
@pytest.mark.parametrize(("hand", "up"), [
    ((("6", "s"), ("7", "s")), 2), ((("6", "s"), ("8", "s")), 10), ((("7", "h"), ("8", "h")), 1),
    ((("6", "s"), ("7", "h")), 5), ((("7", "s"), ("7", "d")), 10)])
@pytest.mark.parametrize("hole_card", ["peek", "enhc"])
def test_suited_bonus_hands_match_the_oracle(hand: tuple[tuple[str, str], ...], up: int,
                                              hole_card: str) -> None:
    """Known suits on a 1-deck shoe with many cards gone, Macau bonuses 3 and 3."""
    rules = BlackjackRules(decks=1, hole_card=hole_card,  # type: ignore[arg-type]
                           bonus_777=3.0, bonus_suited_678=3.0, surrender="late")
    assert assert_suited_hand_evs_equal_the_oracle(hand, up, rules).suits_known


@pytest.mark.slow
@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(pair_deals(min_removed=31))
def test_split_equals_twice_one_hand_by_sequential_brute_force(deal: tuple) -> None:  # type: ignore[type-arg]
    """With one split, the split EV (each hand ignoring the other's cards) equals the
    brute-force value of both hands played in order from one shoe, dealer last."""
    rules, pair, up, removed = deal
    shoe = _oracle_shoe(1, (pair, pair), up, removed)
    brute = oracle.split_ev_bruteforce(pair, up, shoe, rules)
    got = _engine(rules, (pair, pair), up, removed)["split"]
    assert brute is not None and got is not None
    assert abs(got - float(brute)) <= TOL


@pytest.mark.oracle
@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(deals(1, 10, 30))
def test_exact_mode_fractions_equal_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    """``hand --exact``: the sympy fractions equal the oracle's, digit for digit."""
    from fractions import Fraction

    from strategy_calc.blackjack.exact import hand_exact

    rules, hand, up, removed = deal
    rules = replace(rules, bonus_777=0.0)
    result = analyse_hand([Card(Rank(r)) for r in hand], Card(Rank(up)), rules,
                          [Card(Rank(r)) for r in removed])
    exact = hand_exact(result)
    shoe = _oracle_shoe(1, hand, up, removed)
    dist = (oracle.dealer_distribution_no_blackjack(shoe, up, rules.dealer_hits_soft_17)
            if rules.peek else oracle.dealer_distribution(shoe, up, rules.dealer_hits_soft_17))
    for key, value in dist.items():
        assert Fraction(exact["dealer"][key]) == value, key
    want = oracle.hand_evs(hand, up, shoe, rules)
    assert Fraction(exact["stand"]) == want["stand"]
    if want["insurance"] is not None:
        assert Fraction(exact["insurance"]) == want["insurance"]
