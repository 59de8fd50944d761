"""Resplits in the round's moments: the exact E[X], E[X^2] and E[X 1{dealer blackjack}] of a
split round with resplits to 3 and 4 hands (``strategy_calc.distributions.resplit_moments``)
agree to 1e-12 with a brute force of the real sequential process in casino order
(``bj_oracle.split_moments_resplit_bruteforce``: hands in queue order, a pair card drawn as
a second card starts a new hand while fewer than the maximum exist, every hand settled
against the same dealer hand), every hand playing the frozen one-split-hand policy on its
own cards (cdp1). The shoes are small but leave the hands and the dealer no way to run out
of cards (the identities behind the engine's figure assume it; ``could_run_out`` says
when they do not, and then the figure is refused)."""

from __future__ import annotations

import bj_oracle as oracle
import pytest

from strategy_calc.blackjack import analyse_hand
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.distributions import could_run_out, resplit_moments, split_moments
from strategy_calc.engine import Conditioning
from strategy_calc.rules import BlackjackRules, RulesError, blackjack_rules

TOL = 1e-12

ENHC = {"hole_card": "enhc", "enhc_loses": "all"}
ORIGINAL = {"hole_card": "enhc", "enhc_loses": "original"}


def _rules(**fields: object) -> BlackjackRules:
    return BlackjackRules(**{"decks": 1, **fields})  # type: ignore[arg-type]


def _base(pair: int, shoe: tuple[int, ...]) -> Shoe:
    """The engine's shoe: the oracle's (pair, pair, up gone) with both pair cards back."""
    counts = list(shoe)
    counts[pair - 1] += 2
    return Shoe.from_counts(counts)


def _no_blackjack(rules: BlackjackRules, up: int, shoe: tuple[int, ...]) -> float:
    """P(no dealer blackjack) for the hole card drawn from ``shoe`` (peek games)."""
    n = sum(shoe)
    if rules.hole_card != "peek" or up not in (1, 10):
        return 1.0
    return 1.0 - shoe[9 if up == 1 else 0] / n


# (id, rules, pair, up, shoe left = once both pair cards and the up card are gone)
FAST = [
    ("peek-88v6-3", _rules(max_split_hands=3), 8, 6, (1, 0, 1, 0, 1, 1, 0, 2, 1, 11)),
    ("enhc-original-88vT-4", _rules(max_split_hands=4, **ORIGINAL), 8, 10,
     (1, 0, 1, 0, 1, 0, 1, 2, 0, 12)),
    ("enhc-original-99vA-3", _rules(max_split_hands=3, **ORIGINAL), 9, 1,
     (1, 1, 1, 0, 1, 1, 0, 1, 2, 12)),
    ("peek-AAv6-RSA-4", _rules(max_split_hands=4, resplit_aces=True), 1, 6,
     (2, 0, 1, 1, 1, 0, 1, 1, 1, 13)),
    ("enhc-AAv5-RSA-hit-aces-3",
     _rules(max_split_hands=3, resplit_aces=True, split_aces_one_card=False, **ENHC), 1, 5,
     (1, 0, 1, 0, 0, 1, 1, 1, 1, 12)),
]
SLOW = [
    ("peek-88vT-4", _rules(max_split_hands=4), 8, 10, (1, 1, 1, 1, 1, 1, 1, 2, 1, 14)),
    ("peek-99vA-4-NDAS", _rules(max_split_hands=4, double_after_split=False), 9, 1,
     (1, 1, 0, 1, 1, 1, 1, 1, 2, 13)),
    ("enhc-all-77vT-3-777", _rules(decks=2, max_split_hands=3, bonus_777=3.0, **ENHC), 7, 10,
     (1, 0, 1, 0, 1, 1, 3, 1, 1, 12)),
    ("peek-H17-33v2-4-D10-11", _rules(max_split_hands=4, dealer_hits_soft_17=True,
                                      double_on="10-11"), 3, 2,
     (0, 0, 2, 0, 1, 1, 1, 1, 1, 13)),
]


def _check(rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    base = _base(pair, shoe)
    assert not could_run_out(base, rules.max_split_hands)
    got = resplit_moments(rules, Rank(pair), Rank(up), base, Conditioning.of(rules), None)
    want = oracle.split_moments_resplit_bruteforce(pair, up, shoe, rules)
    assert want is not None
    scale = _no_blackjack(rules, up, shoe)  # the engine's sums are joint with no blackjack
    for g, w in zip(got, want, strict=True):
        assert abs(g - float(w) * scale) <= TOL, (got, [float(x) * scale for x in want])


@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0]) for case in FAST])
def test_resplit_moments_match_the_casino_order_bruteforce(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    _check(rules, pair, up, shoe)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0]) for case in SLOW])
def test_resplit_moments_match_the_bruteforce_across_rules(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    _check(rules, pair, up, shoe)


@pytest.mark.parametrize(("hands", "pair", "up"), [(3, 8, 10), (4, 8, 10), (4, 1, 6), (4, 2, 7)])
def test_resplit_mean_is_the_split_ev_at_six_decks(hands: int, pair: int, up: int) -> None:
    """The first moment is the cdp1 split EV the game reports (another derivation: the
    removal identities on one hand's values, ``splits.combine``), at a full 6-deck shoe."""
    rules = blackjack_rules("deluxe", ["surrender=none", f"max_split_hands={hands}",
                                       "resplit_aces=true"], decks=6)
    hand = [Card(Rank(pair)), Card(Rank(pair))]
    ev = analyse_hand(hand, Card(Rank(up)), rules).ev["split"]
    base = Shoe.full(6).remove([Card(Rank(up))])
    m1, m2, _ = resplit_moments(rules, Rank(pair), Rank(up), base, Conditioning.of(rules),
                                None)
    no_bj = _no_blackjack(rules, up, tuple(Shoe.full(6).remove([*hand, Card(Rank(up))]).counts))
    assert ev is not None
    assert abs(m1 / no_bj - ev) <= 1e-12
    assert m2 > m1 * m1  # (a spread, and more hands than one: not a check of its value)


def test_one_split_is_the_joint_round_of_two_hands() -> None:
    """With ``max_split_hands`` 2 the resplit sums give the one-split round's moments, which
    the joint enumeration (``split_moments``, checked against the round brute force in
    tests/test_risk.py) gives another way."""
    rules = blackjack_rules("deluxe", ["surrender=none"], decks=2)
    base = Shoe.full(2).remove([Card(Rank.TEN)])
    cond = Conditioning.of(rules)
    joint = split_moments(rules, Rank.EIGHT, Rank.TEN, base, cond, None)
    assert joint is not None
    from strategy_calc import engine
    from strategy_calc.hands import split_round_params
    from strategy_calc.splits import combine_moments
    first, second, _ = split_round_params(rules, base, [Card(Rank.EIGHT)] * 2, cond)
    rows = engine.resplit_moment_rows(base, Rank.EIGHT, Rank.TEN, first, None, 2, second)
    got = combine_moments(rows, base.total - 2, base.count(Rank.EIGHT) - 2, 2)
    for g, w in zip(got, joint, strict=True):
        assert abs(g - w) <= 1e-12


def test_resplit_moments_refuse_what_they_cannot_make_exact() -> None:
    """One error, never a different game: a shoe the hands could run out of; split 6s,
    7s, 8s under the suited 6-7-8 bonus (each resplit hand's own suit chance)."""
    rules = _rules(max_split_hands=4)
    tiny = _base(8, (1, 1, 1, 1, 1, 1, 1, 1, 1, 3))
    assert could_run_out(tiny, 4)
    with pytest.raises(RulesError, match="run out"):
        resplit_moments(rules, Rank.EIGHT, Rank.TEN, tiny, Conditioning.of(rules), None)
    macau = blackjack_rules("macau-1983", ["max_split_hands=3"], decks=6)
    with pytest.raises(RulesError, match="suited 6-7-8"):
        resplit_moments(macau, Rank.SEVEN, Rank.TEN, Shoe.full(6).remove([Card(Rank.TEN)]),
                        Conditioning.of(macau), None)
