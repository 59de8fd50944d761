"""Resplits in the round's moments: the exact E[X], E[X^2] and E[X 1{dealer blackjack}] of a
split round with resplits to 3 and 4 hands
(``strategy_calc.blackjack.distributions.resplit_moments``) agree to 1e-12 with a brute force of the
real sequential process in casino order (``bj_oracle.split_moments_resplit_bruteforce``: hands in
queue order, a pair card drawn as a second card starts a new hand while fewer than the maximum
exist, every hand settled against the same dealer hand), every hand playing the frozen
one-split-hand policy on its own cards (cdp1). The shoes are small but leave the hands and the
dealer no way to run out of cards (the identities behind the engine's figure assume it;
``could_run_out`` says when they do not, and then the figure is refused)."""

from __future__ import annotations

import bj_oracle as oracle
import pytest
from oracle_groups import split_case_group

from strategy_calc.blackjack.distributions import split_moments
from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.blackjack.split.values import could_run_out, resplit_moments
from strategy_calc.cards import Card, Rank, Shoe
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
    # (20 cards, an ace for the peek and two 8s for the fourth hand: 2 CPU-s; the 24-card
    # shoe with a 2 and a 4 besides took 21)
    ("peek-88vT-4", _rules(max_split_hands=4), 8, 10, (1, 0, 1, 0, 1, 1, 1, 2, 1, 12)),
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
    split = SplitPlan.of(rules, Rank(pair), Conditioning.of(rules))
    got = resplit_moments(split, Rank(up), base, None)
    want = oracle.split_moments_resplit_bruteforce(pair, up, shoe, rules)
    assert want is not None
    scale = _no_blackjack(rules, up, shoe)  # the engine's sums are joint with no blackjack
    for g, w in zip(got, want, strict=True):
        assert abs(g - float(w) * scale) <= TOL, (got, [float(x) * scale for x in want])


@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:]))
                          for case in FAST])
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


@pytest.mark.slow  # (seconds: out of the developer's tier)
@pytest.mark.parametrize(("hands", "pair", "up"), [(3, 8, 10), (4, 8, 10), (4, 1, 6), (3, 2, 7)])
def test_resplit_mean_is_the_split_ev_at_six_decks(hands: int, pair: int, up: int) -> None:
    """The first moment is the cdp1 split EV the game reports (another derivation: the
    removal identities on one hand's values, ``splits.combine``), at a full 6-deck shoe."""
    rules = blackjack_rules("deluxe", ["surrender=none", f"max_split_hands={hands}",
                                       "resplit_aces=true"], decks=6)
    hand = [Card(Rank(pair)), Card(Rank(pair))]
    ev = analyse_hand(hand, Card(Rank(up)), rules).ev["split"]
    base = Shoe.full(6).remove([Card(Rank(up))])
    split = SplitPlan.of(rules, Rank(pair), Conditioning.of(rules))
    m1, m2, _ = resplit_moments(split, Rank(up), base, None)
    no_bj = _no_blackjack(rules, up, tuple(Shoe.full(6).remove([*hand, Card(Rank(up))]).counts))
    assert ev is not None
    assert abs(m1 / no_bj - ev) <= 1e-12
    assert m2 > m1 * m1  # (a spread, and more hands than one: not a check of its value)


def test_one_split_is_the_joint_round_of_two_hands() -> None:
    """With ``max_split_hands`` 2 the resplit sums give the one-split round's moments, which
    the joint enumeration (``split_moments``, checked against the round brute force in
    tests/blackjack/test_risk.py) gives another way."""
    rules = blackjack_rules("deluxe", ["surrender=none"], decks=2)
    base = Shoe.full(2).remove([Card(Rank.TEN)])
    cond = Conditioning.of(rules)
    joint = split_moments(SplitPlan.of(rules, Rank.EIGHT, cond), Rank.TEN, base, None)
    assert joint is not None
    from strategy_calc import engine
    from strategy_calc.blackjack.split.combine import combine_moments
    split = SplitPlan.of(rules, Rank.EIGHT, cond)
    first, second, _ = split.round_params(base, [Card(Rank.EIGHT)] * 2)
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
    split = SplitPlan.of(rules, Rank.EIGHT, Conditioning.of(rules))
    with pytest.raises(RulesError, match="run out"):
        resplit_moments(split, Rank.TEN, tiny, None)
    macau = blackjack_rules("macau-1983", ["max_split_hands=3"], decks=6)
    split = SplitPlan.of(macau, Rank.SEVEN, Conditioning.of(macau))
    with pytest.raises(RulesError, match="suited 6-7-8"):
        resplit_moments(split, Rank.TEN, Shoe.full(6).remove([Card(Rank.TEN)]), None)


@split_case_group(*FAST[0][1:])  # (the brute force of FAST[0], computed once)
def test_a_hands_split_second_moment_with_resplits_is_the_bruteforces() -> None:
    """``hand``'s ``second_moments["split"]`` with resplits (one deck less 32 cards, 8,8
    vs 6, up to 3 hands): the brute force's E[X^2] (no dealer blackjack against a 6)."""
    rules, pair, up, shoe = FAST[0][1:]
    assert rules.max_split_hands == 3
    start = oracle.remove(oracle.full_shoe(1), [pair, pair, up])
    removed = [Card(Rank(r)) for r in range(1, 11) for _ in range(start[r - 1] - shoe[r - 1])]
    got = analyse_hand([Card(Rank(pair))] * 2, Card(Rank(up)), rules, removed,
                       outcomes=True).second_moments
    want = oracle.split_moments_resplit_bruteforce(pair, up, shoe, rules)
    assert got is not None and got["split"] is not None and want is not None
    assert abs(got["split"] - float(want[1])) <= TOL


def test_a_resplit_takes_the_next_pair_card_in_the_playout() -> None:
    """The count's play-out resplits in casino order (RULES.md: a pair card drawn to a
    split hand starts another hand while fewer than the most allowed exist). Deal 8, up 6,
    8, hole T; the first hand draws an 8 (a third hand), then 3; the second hand T; the
    third 2; every hand stands, and the dealer's 16 draws T: 9 cards. Split once only,
    the first hand keeps its 8 (16), the second takes the 3, the dealer the T: 7 cards."""
    from strategy_calc.actions import Action
    from strategy_calc.blackjack.playout import RoundPlan, play_round
    from strategy_calc.cards import parse_cards

    plan = RoundPlan(0.0, None, {(6, 8, 8, False): Action.SPLIT}, {6: bytes([4]) * 4096},
                     frozenset())
    cards = parse_cards("8,6,8,T,8,3,T,2,T,T,T")
    three = blackjack_rules("deluxe", ["max_split_hands=3"])
    assert play_round(three, cards, 0, plan) == 9
    assert play_round(blackjack_rules("deluxe"), cards, 0, plan) == 7


@pytest.mark.slow
def test_the_counts_round_off_the_top_has_the_games_moments_with_resplits() -> None:
    """Two assemblies of one round's E[X^2] with resplits agree: the count's round plan
    off the top of a full deck (its split rounds' moments one deal at a time) and the
    game's (``analyse_game(moments=True)``, every deal weighted), under the chart."""
    from strategy_calc.blackjack.game_analysis import analyse_game
    from strategy_calc.counting.counter import blackjack_counter

    rules = blackjack_rules("deluxe", ["max_split_hands=4"], decks=1)
    plan = blackjack_counter(rules).plan(Shoe.full(1))
    game = analyse_game(rules, moments=True)
    assert game.moments_basic is not None and plan.second_moment is not None
    assert abs(plan.ev - game.ev_basic) <= 1e-12
    assert abs(plan.second_moment - game.moments_basic[1]) <= 1e-12
    assert abs(game.moments_basic[0] - game.ev_basic) <= 1e-12
    assert game.moments_optimal is not None  # optimal play: cdp1's split hands, the EV's
    assert abs(game.moments_optimal[0] - game.ev_optimal) <= 1e-12


@pytest.mark.fullsize
def test_wizard_of_odds_appendix_4_variance_with_doubling_after_splits() -> None:
    """Wizard of Odds, blackjack appendix 4 (basic strategy, a cut-card simulation of
    about 1e10 hands, resplits to 4): 6 decks, H17, DAS, no surrender, no resplit aces:
    variance 1.346 (docs/REFERENCE.md). The exact figure off the top: 1.3459."""
    from strategy_calc.blackjack.game_analysis import analyse_game

    rules = blackjack_rules("deluxe", ["dealer_hits_soft_17=true", "surrender=none",
                                       "max_split_hands=4"], decks=6)
    m = analyse_game(rules, moments=True).moments_basic
    assert m is not None
    assert abs(m[1] - m[0] ** 2 - 1.346) < 0.001


@pytest.mark.fullsize
def test_wizard_of_odds_no_das_variance_is_the_das_pair_splits() -> None:
    """His no-DAS rows sit 0.008-0.009 above the exact figure, and splitting the seven
    pairs a DAS chart splits and a no-DAS chart hits (2,2 and 3,3 vs 2-3, 4,4 vs 5-6,
    6,6 vs 2) adds that E[X^2]: 6 decks, S17, no DAS, no surrender (Wong's benchmark):
    his 1.295 (Wong's own 1.28) against 1.2869 + 0.0085. Each cell's weight is the
    chance of its deal (pair card, up card, pair card from 312 cards)."""
    from strategy_calc.blackjack.game_analysis import analyse_game

    rules = blackjack_rules("deluxe", ["double_after_split=false", "surrender=none",
                                       "max_split_hands=4"], decks=6)
    m = analyse_game(rules, moments=True).moments_basic
    assert m is not None
    variance = m[1] - m[0] ** 2
    extra = 0.0
    for pair, ups in ((2, (2, 3)), (3, (2, 3)), (4, (5, 6)), (6, (2,))):
        for up in ups:
            got = analyse_hand([Card(Rank(pair))] * 2, Card(Rank(up)), rules,
                               outcomes=True).second_moments
            assert got is not None and got["split"] is not None and got["hit"] is not None
            extra += 24 / 312 * 24 / 311 * 23 / 310 * (got["split"] - got["hit"])
    assert abs(variance - 1.295) > 0.007  # the chart's own play: outside his rounding
    assert abs(variance + extra - 1.295) < 0.001


def test_a_counted_round_too_short_for_exact_resplit_moments_has_none() -> None:
    """Deep in a counted shoe with resplits the shoe can be too short for the identities
    (``could_run_out``): that round's EV is still given, its second moment is None (the
    run's moments are sampled from the other rounds) rather than the run stopping. Two
    cards of each rank but four tens: 21 cards once the up card is gone, and four hands
    and the dealer could need 23."""
    from strategy_calc.counting.counter import blackjack_counter

    rules = blackjack_rules("deluxe", ["max_split_hands=4"], decks=1)
    short = Shoe.from_counts([2] * 9 + [4])
    assert could_run_out(Shoe.from_counts([2] * 9 + [3]), 4)  # (the shoe less a ten up)
    plan = blackjack_counter(rules).plan(short)
    assert plan.second_moment is None and plan.ev == plan.ev  # (a number, not NaN)
    longer = blackjack_counter(rules).plan(Shoe.from_counts([2] * 9 + [10]))
    assert longer.second_moment is not None
