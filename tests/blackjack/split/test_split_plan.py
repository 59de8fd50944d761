"""One split plan per pair: the facts of splitting a pair (how many hands it may become,
one-card aces, doubling after the split, the engine record its hands start from, whether
they see their suits) are derived from the rules in one place, ``SplitPlan.of``, once per
pair of an analysis (issue 46, item 3), and say what the rules text says.

Rules text (docs/RULES.md, splitting): a pair may be split into at most
``max_split_hands`` hands; aces are split once unless ``resplit_aces``; split aces take
one card each under ``split_aces_one_card``; a split hand may double under
``double_after_split`` (never a one-card split ace); Macau's suited 6-7-8 bonus on split
hands (``bonus_on_split_hands``) makes a split 6, 7 or 8 depend on its pair card's suit.
"""

from __future__ import annotations

from collections import Counter

import pytest

from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.split import plan as plans_module
from strategy_calc.blackjack.split.plan import SplitPlan, split_plans
from strategy_calc.cards import RANKS, Rank
from strategy_calc.counting.counter import blackjack_counter
from strategy_calc.rules import blackjack_rules


@pytest.fixture
def derivations(monkeypatch: pytest.MonkeyPatch) -> Counter[Rank]:
    """Counts, by pair, the calls of ``SplitPlan.of`` (the one function that turns the
    rules into a pair's split facts), from a cold start of the process's plans."""
    calls: Counter[Rank] = Counter()
    original = SplitPlan.of.__func__  # type: ignore[attr-defined]

    def counting(cls: type[SplitPlan], rules, pair, conditioning=None):  # type: ignore[no-untyped-def]
        calls[pair] += 1
        return original(cls, rules, pair, conditioning)

    monkeypatch.setattr(SplitPlan, "of", classmethod(counting))
    plans_module._plans.cache_clear()
    yield calls
    plans_module._plans.cache_clear()


def test_a_whole_game_derives_each_pairs_split_facts_once(derivations: Counter[Rank]) -> None:
    """analyse_game values every pair against every up card (suit cases and Macau's
    suited 6-7-8 included): the rules become each pair's split facts once."""
    analyse_game(blackjack_rules("macau-1983", ["decks=2"]))
    assert derivations == Counter(dict.fromkeys(RANKS, 1))


@pytest.mark.slow
def test_a_short_count_derives_each_pairs_split_facts_once(derivations: Counter[Rank]) -> None:
    """A counted run (its chart's analysis, then every round's pass, split values,
    moments and play-out) reads the same plans: once per pair for the run."""
    rules = blackjack_rules("deluxe", ["decks=1", "surrender=none"])
    counter = blackjack_counter(rules, moment_every=2, cut_card=30)
    records = counter.play_one(0) + counter.play_one(1)
    assert len(records) >= 4
    assert derivations == Counter(dict.fromkeys(RANKS, 1))


@pytest.mark.parametrize(("sets", "pair", "hands", "one_card", "doubles"), [
    ((), Rank.EIGHT, 2, False, True),  # Deluxe: split once, double after split
    (("max_split_hands=4",), Rank.EIGHT, 4, False, True),
    (("max_split_hands=4",), Rank.ACE, 2, True, False),  # aces once, one card, no double
    (("max_split_hands=4", "resplit_aces=true"), Rank.ACE, 4, True, False),
    (("max_split_hands=4", "split_aces_one_card=false"), Rank.ACE, 2, False, True),
    (("double_after_split=false",), Rank.NINE, 2, False, False),
    (("max_split_hands=1",), Rank.EIGHT, 1, False, True),  # no split at all
])
def test_the_plan_says_what_the_splitting_rules_say(
        sets: tuple[str, ...], pair: Rank, hands: int, one_card: bool, doubles: bool) -> None:
    plan = split_plans(blackjack_rules("deluxe", list(sets)))[pair]
    assert (plan.max_hands, plan.one_card, plan.may_double) == (hands, one_card, doubles)
    assert plan.allowed == (hands >= 2) and plan.resplits == (hands > 2)


def test_only_macaus_split_sixes_sevens_and_eights_see_their_suits() -> None:
    """The suited 6-7-8 bonus is paid on three cards of one suit: a split 6, 7 or 8
    starts one; no other pair does, nor any pair where the bonus is not paid on split
    hands. Where no hand sees its suits, every hand's record is the same (``fixed``)."""
    macau = split_plans(blackjack_rules("macau-1983"))
    assert {p for p, plan in macau.items() if plan.sees_suits} == {
        Rank.SIX, Rank.SEVEN, Rank.EIGHT}
    assert all((plan.fixed is None) == plan.sees_suits for plan in macau.values())
    off = split_plans(blackjack_rules("macau-1983", ["bonus_on_split_hands=false"]))
    assert not any(plan.sees_suits for plan in off.values())
    assert off[Rank.SEVEN].fixed is not None
    assert off[Rank.SEVEN].fixed.bonus_suited_678 == 0.0
    assert off[Rank.SEVEN].fixed.bonus_fixed == ()
