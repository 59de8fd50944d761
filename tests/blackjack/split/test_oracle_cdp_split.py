"""Self-checks of the oracle's cdp-hands resplit brute force
(``bj_oracle.split_ev_cdp_hands_bruteforce``).

The ``cdp-hands`` process (the calculator's ``cdp`` before issue 28, not the field's CDP)
deals every split hand its second card (resplitting as it goes) before any
hand plays; then each hand plays the one-split-hand policy for the shoe less
the ``a`` extra pair cards that started hands. Checked here, each by another
derivation, against the oracle's other brute forces (they test the oracle, not
the engine):

1. one split (``max_split_hands = 2``, so ``a = 0``): :func:`split_ev_bruteforce`;
2. with the ``a = 0`` policy for every hand (the private ``frozen`` switch):
   :func:`split_ev_resplit_bruteforce`, which deals in casino order, so dealing
   every second card first does not change a fixed strategy's value;
3. cdp-hands itself against the resplit value: it differs on some case, and only on
   cases where some hand's decision for ``a > 0`` differs from ``a = 0`` on a
   state the hand can reach (no reachable difference: the values are equal).
"""

from __future__ import annotations

import functools
from dataclasses import replace
from fractions import Fraction

import bj_oracle as oracle
import pytest
from bj_oracle import (
    RANK_LAYOUT,
    split_ev_bruteforce,
    split_ev_cdp_hands_bruteforce,
    split_ev_resplit_bruteforce,
)
from bj_oracle.cdp import _cdp_bruteforce
from oracle_groups import split_case_group
from test_resplit import ENHC, ORIGINAL, _rules

from strategy_calc.rules import BlackjackRules

# (id, rules, pair rank, up rank, shoe left = 1 deck - pair - pair - up - removed)
ONE_SPLIT = [
    ("peek-88v9-2", _rules(max_split_hands=2), 8, 9, (1, 1, 1, 1, 1, 1, 1, 0, 2, 6)),
    ("peek-NDAS-66v5-2", _rules(max_split_hands=2, double_after_split=False), 6, 5,
     (1, 1, 1, 1, 0, 1, 1, 1, 1, 6)),
    ("enhc-original-88vT-2", _rules(max_split_hands=2, **ORIGINAL), 8, 10,
     (1, 2, 1, 0, 1, 2, 1, 2, 0, 6)),
    ("peek-AAv6-2", _rules(max_split_hands=2, resplit_aces=True), 1, 6,
     (1, 1, 1, 1, 1, 1, 1, 1, 1, 7)),
]

RESPLIT = {
    case[0]: case
    for case in [
        ("peek-88v6-3", _rules(max_split_hands=3), 8, 6, (1, 0, 0, 1, 1, 1, 0, 2, 3, 6)),
        ("peek-88vT-4", _rules(max_split_hands=4), 8, 10, (1, 0, 0, 1, 0, 2, 1, 2, 2, 5)),
        ("peek-88vA-4", _rules(max_split_hands=4), 8, 1, (2, 0, 1, 1, 0, 0, 1, 2, 2, 6)),
        ("peek-NDAS-66v5-4", _rules(max_split_hands=4, double_after_split=False), 6, 5,
         (0, 2, 2, 0, 0, 2, 1, 2, 0, 5)),
        ("enhc-all-88vT-4", _rules(max_split_hands=4, **ENHC), 8, 10,
         (0, 1, 0, 2, 1, 1, 2, 2, 0, 5)),
        ("enhc-original-88vT-4", _rules(max_split_hands=4, **ORIGINAL), 8, 10,
         (1, 2, 1, 0, 1, 2, 1, 2, 0, 6)),
        ("enhc-original-99vA-3", _rules(max_split_hands=3, **ORIGINAL), 9, 1,
         (1, 1, 2, 0, 1, 1, 0, 2, 1, 7)),
        ("peek-AAv6-RSA-4", _rules(max_split_hands=4, resplit_aces=True), 1, 6,
         (2, 1, 0, 1, 3, 1, 0, 1, 1, 5)),
        ("peek-AAvT-noRSA-4", _rules(max_split_hands=4, resplit_aces=False), 1, 10,
         (2, 0, 1, 1, 1, 0, 1, 2, 2, 4)),
        ("enhc-AAv5-RSA-hit-split-aces-3",
         _rules(max_split_hands=3, resplit_aces=True, split_aces_one_card=False, **ENHC), 1, 5,
         (2, 0, 0, 1, 1, 4, 0, 2, 0, 6)),
    ]
}

# Check 2: 3 and 4 hands, aces with and without resplit_aces, peek, ENHC all / original.
FROZEN_IDS = ["peek-88v6-3", "peek-88vT-4", "enhc-all-88vT-4", "enhc-original-88vT-4",
              "enhc-original-99vA-3", "peek-AAv6-RSA-4", "peek-AAvT-noRSA-4",
              "enhc-AAv5-RSA-hit-split-aces-3"]

# Check 3: cdp-hands vs the resplit value (the a = 0 policy); True where they differ.
CDP_DIFFERS = {
    "peek-88v6-3": False,
    "peek-88vT-4": True,
    "peek-88vA-4": True,
    "peek-NDAS-66v5-4": False,
    "enhc-all-88vT-4": True,
    "enhc-original-88vT-4": True,
    "enhc-original-99vA-3": False,
    "enhc-AAv5-RSA-hit-split-aces-3": True,
}


def _check_shoe(decks: int, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    """``shoe`` is a tiny part of ``decks`` decks less the pair and the up card."""
    start = oracle.remove(oracle.full_shoe(decks), [pair, pair, up])
    assert all(0 <= k <= s for s, k in zip(start, shoe, strict=True))
    assert 12 <= sum(shoe) <= 16


@functools.cache
def _resplit(case_id: str) -> Fraction:
    _, rules, pair, up, shoe = RESPLIT[case_id]
    value = split_ev_resplit_bruteforce(pair, up, shoe, rules)
    assert value is not None
    return value


def _policy_differences(
    pair: int, up: int, shoe: tuple[int, ...], rules: BlackjackRules
) -> list[tuple[int, int, list[int], str, str]]:
    """Every (hand class, a, cards, a = 0 action, cdp-hands action) where a hand that
    follows the cdp-hands policy for ``a`` extra pair cards reaches a state on which
    that policy and the ``a = 0`` one disagree (states reachable for the shoe
    the policy assumes, a superset of the really reachable ones)."""
    first, later = oracle._split_hand_setups(RANK_LAYOUT, [(pair, None)] * 2, up, shoe, rules)
    resplits = pair != 1 or rules.resplit_aces
    most = min(rules.max_split_hands - 2, shoe[pair - 1]) if resplits else 0
    out: list[tuple[int, int, list[int], str, str]] = []

    def walk(cls: int, a: int, cdp: oracle._Hand, base: oracle._Hand, d: tuple[int, ...]) -> None:
        if cdp.hard(d) > 21 or cdp.bonus(d):
            return
        act, act0 = cdp.action(d), base.action(d)
        if act != act0:
            out.append((cls, a, [cdp.ranks[k] for k in cdp.hand(d)], act0, act))
        if act == "hit":
            for nd in cdp.next_cards(d):
                walk(cls, a, cdp, base, nd)

    for cls, setup in ((1, first), (2, later)):
        base = oracle._hand_solver(setup)
        for a in range(1, most + 1):
            fewer = tuple(n - a * (k == pair - 1) for k, n in enumerate(shoe))
            cdp = oracle._hand_solver(replace(setup, shoe=fewer))
            for d in cdp.next_cards((0,) * cdp.n_kinds):  # the second card: of the pair's
                if d[pair - 1] == 0 or a == rules.max_split_hands - 2:  # rank at max hands only
                    walk(cls, a, cdp, base, d)
    return out


def _same_case(case_id: str) -> pytest.MarkDecorator:
    """The xdist group of a RESPLIT case (its brute forces are shared with other files)."""
    return split_case_group(*RESPLIT[case_id][1:])


@pytest.mark.oracle
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:]))
                          for case in ONE_SPLIT])
def test_cdp_with_one_split_is_the_split_bruteforce(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    _check_shoe(rules.decks, pair, up, shoe)
    want = split_ev_bruteforce(pair, up, shoe, rules)
    assert want is not None
    assert split_ev_cdp_hands_bruteforce(pair, up, shoe, rules) == want


def test_cdp_without_a_split_is_none() -> None:
    rules = _rules(max_split_hands=1)
    assert split_ev_cdp_hands_bruteforce(8, 6, (1, 0, 0, 1, 1, 1, 0, 2, 3, 6), rules) is None


@pytest.mark.oracle
@pytest.mark.parametrize("case_id", [pytest.param(c, id=c, marks=_same_case(c))
                                     for c in FROZEN_IDS])
def test_second_cards_first_keep_a_fixed_strategys_value(case_id: str) -> None:
    _, rules, pair, up, shoe = RESPLIT[case_id]
    _check_shoe(rules.decks, pair, up, shoe)
    assert _cdp_bruteforce(pair, up, shoe, rules, frozen=True) == _resplit(case_id)


@pytest.mark.oracle
@pytest.mark.parametrize("case_id", [pytest.param(c, id=c, marks=_same_case(c))
                                     for c in CDP_DIFFERS])
def test_cdp_differs_only_where_the_policy_does(case_id: str) -> None:
    _, rules, pair, up, shoe = RESPLIT[case_id]
    _check_shoe(rules.decks, pair, up, shoe)
    cdp = split_ev_cdp_hands_bruteforce(pair, up, shoe, rules)
    resplit = _resplit(case_id)
    differences = _policy_differences(pair, up, shoe, rules)
    assert (cdp != resplit) == CDP_DIFFERS[case_id], (float(cdp), float(resplit))
    if cdp != resplit:  # a changed value needs a changed decision
        assert differences, (float(cdp), float(resplit))
    if not differences:  # the same play: the same value
        assert cdp == resplit


@pytest.mark.oracle
@_same_case("peek-88vA-4")
def test_cdp_differs_from_the_frozen_resplit_somewhere() -> None:
    assert any(CDP_DIFFERS.values())
    _, rules, pair, up, shoe = RESPLIT["peek-88vA-4"]
    cdp = split_ev_cdp_hands_bruteforce(pair, up, shoe, rules)
    assert cdp is not None
    assert cdp > _resplit("peek-88vA-4")  # here cdp-hands' better informed hands gain
    assert float(cdp) == pytest.approx(-0.5138058443613999, abs=1e-15)
    assert float(_resplit("peek-88vA-4")) == pytest.approx(-0.5169402613847058, abs=1e-15)
