"""Card counting over dealt shoes (``count``): each round's exact moments, the deal, the
statistics, and reproducibility. Each test is named after the rule or definition it checks.

The per-round figures are checked against the whole-round casino-order brute force
(``oracle_round``, written from the rules text) on tiny depleted shoes, with the chart
and total-dependent play fixed off the top as a basic-strategy counter plays them.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from dataclasses import replace
from fractions import Fraction

import pytest
from cluster import local_cluster_pool
from oracle_round import Chart, RoundOracle

import strategy_calc as sc
from strategy_calc.actions import Action
from strategy_calc.baccarat.odds import BETS, RANKS, analyse, analyse_counts
from strategy_calc.baccarat.odds import effects_of_removal as baccarat_eor
from strategy_calc.blackjack import playout
from strategy_calc.blackjack.split.plan import split_plans
from strategy_calc.cards import Rank, Shoe
from strategy_calc.counting import baccarat as baccarat_count
from strategy_calc.counting import counter as count
from strategy_calc.counting import runs, sampling
from strategy_calc.counting.planner import RoundPlanner
from strategy_calc.engine import node_table
from strategy_calc.parallel import executor
from strategy_calc.rules import baccarat_rules

TOL = 1e-12


# ------------------------------------------------------------- blackjack: one round


def _fixed_chart_oracle(rules: sc.BlackjackRules, full: tuple[int, ...],
                        now: tuple[int, ...], insure: bool = False
                        ) -> tuple[Fraction, Fraction]:
    """(EV, E[X^2]) of a round from ``now`` played by the chart and total-dependent play
    made off the top of ``full``: the oracle's chart strategy with its total-dependent
    play taken from an oracle of the full shoe; ``insure``: insurance taken against
    every ace."""
    top = RoundOracle(rules, full)
    td = {up: top.td_play(up) for up in range(1, 11) if full[up - 1] > 0}
    game = sc.analyse_game(rules, shoe=Shoe.from_counts(full, rules.decks))
    chart = Chart(game.hard, game.soft, game.pairs, game.insure)
    oracle = RoundOracle(rules, now, insure_vs_ace=insure)
    oracle._td.update(td)
    result = oracle.analyse("chart", chart)
    second = sum((x * x * p for x, p in result.distribution.items()), Fraction(0))
    return result.ev, second


DEPLETED = [
    # (ruleset, sets, full tiny shoe, cards gone by the round, per rank)
    ("deluxe", (), (2, 1, 1, 1, 1, 1, 1, 2, 2, 6), (0, 0, 0, 0, 0, 0, 0, 1, 0, 2)),
    ("deluxe", (), (2, 1, 1, 1, 1, 1, 1, 2, 2, 6), (1, 0, 0, 1, 0, 0, 1, 0, 0, 1)),
    ("macau-1983", ("bonus_suited_678=0",), (1, 1, 1, 1, 2, 1, 3, 1, 2, 6),
     (0, 1, 0, 0, 0, 0, 1, 0, 0, 1)),
]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["deluxe", "macau-1983"])
def test_a_charts_round_valuing_only_the_charts_plays_has_the_same_moments(name: str) -> None:
    """With the chart alone each first play is the chart's, so the round values only
    that play of each start (``chart_play_rows``) and reads it from the chart: the same
    EV and E[X^2], bit for bit, as the general path that values every play and chooses
    per case (taken here with an index play that never changes a play), on depleted
    shoes (macau-1983: the suited 6-7-8 cases too)."""
    rules = sc.blackjack_rules(name, ["decks=2"])
    counter = count.blackjack_counter(rules, seed=3)
    assert counter.planner._chart_wants is not None
    inert = count.IndexPlay(up=10, total=16, pair=None, actions=("stand", "hit"),
                            index=1e9, above="stand")  # below its index: the chart's hit
    whole = replace(counter, plays=(inert,))
    assert whole.planner._chart_wants is None
    rng = random.Random(11)
    for _ in range(3):
        counts = list(counter.start().counts)
        for _ in range(rng.randrange(10, 40)):
            counts[rng.choices(range(10), weights=counts)[0]] -= 1
        shoe = Shoe.from_counts(counts, 2)
        got, want = counter.plan(shoe, 0.0, True), whole.plan(shoe, 0.0, True)
        assert (repr(got.ev), repr(got.second_moment)) == (repr(want.ev),
                                                           repr(want.second_moment))
        assert got.actions == want.actions


@pytest.mark.slow
@pytest.mark.parametrize(("name", "sets", "decks", "gone"), [
    ("deluxe", (), 2, (5, 60)),
    ("deluxe", ("dealer_hits_soft_17=true", "double_after_split=false",
                "double_on=9-11", "surrender=late"), 2, (5, 60)),
    ("deluxe", ("max_split_hands=1", "hand_of_21_stands=false"), 1, (20, 40)),  # ranks run out
    ("macau-1983", ("bonus_suited_678=0",), 2, (5, 60)),  # no hole card: values unconditioned
    ("macau-1983", ("bonus_suited_678=0", "surrender=late", "bonus_777=3"), 1, (20, 40)),
])
def test_a_charts_ev_round_read_off_the_pass_table_equals_the_per_deal_records(
        name: str, sets: tuple[str, ...], decks: int, gone: tuple[int, int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A round without its second moment, every first play the chart's and no suit case,
    reads each start's value straight off the pass's table: bit for bit the EV and the
    plays of the general path, which makes a record per deal and chooses per case (taken
    with an index play that never changes a play), on depleted shoes."""
    rules = sc.blackjack_rules(name, [f"decks={decks}", *sets])
    counter = count.blackjack_counter(rules, seed=5)
    inert = count.IndexPlay(up=10, total=16, pair=None, actions=("stand", "hit"),
                            index=1e9, above="stand")  # below its index: the chart's hit
    whole = replace(counter, plays=(inert,))
    calls = []
    read_off = RoundPlanner._chart_round
    monkeypatch.setattr(RoundPlanner, "_chart_round",
                        lambda self, game, *rest: calls.append(1) or read_off(self, game, *rest))
    rng = random.Random(7)
    for k in range(4):
        counts = list(counter.start().counts)
        for _ in range(rng.randrange(*gone)):
            counts[rng.choices(range(10), weights=counts)[0]] -= 1
        shoe = Shoe.from_counts(counts, decks)
        got, want = counter.plan(shoe, 0.0, False), whole.plan(shoe, 0.0, False)
        assert len(calls) == k + 1  # the counter read the table; the general path did not
        assert repr(got.ev) == repr(want.ev)
        assert (got.second_moment, want.second_moment) == (None, None)
        assert got.actions == want.actions
        assert got.codes == want.codes
        assert got.insure == want.insure == frozenset()


@pytest.mark.slow
def test_a_round_with_the_suited_bonus_keeps_its_suit_cases_without_its_second_moment(
) -> None:
    """The suited 6-7-8 bonus splits a 6-7, 6-8 or 7-8 start into suit cases (played
    apart: the suited ones are keyed apart), so an EV round keeps them: the same EV and
    plays as the round with its second moment, suited keys included."""
    rules = sc.blackjack_rules("macau-1983", ["decks=2"])
    counter = count.blackjack_counter(rules, seed=5)
    shoe = counter.start()
    got, want = counter.plan(shoe, 0.0, False), counter.plan(shoe, 0.0, True)
    assert repr(got.ev) == repr(want.ev)
    assert got.actions == want.actions
    assert any(suited for (_up, _a, _b, suited) in got.actions)


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "sets", "full", "gone"), DEPLETED,
                         ids=[f"{d[0]}-{i}" for i, d in enumerate(DEPLETED)])
def test_round_ev_and_second_moment_under_the_off_the_top_chart_equal_the_brute_force(
        name: str, sets: tuple[str, ...], full: tuple[int, ...], gone: tuple[int, ...]
) -> None:
    """A basic-strategy counter keeps the chart and the total-dependent play made off the
    top; the round's EV and E[X^2] for the cards left are exact (joint split rounds)."""
    rules = sc.blackjack_rules(name, ["decks=1", *sets])
    now = tuple(f - g for f, g in zip(full, gone, strict=True))
    counter = count.blackjack_counter(rules, shoe=Shoe.from_counts(full), cut_card=sum(full) - 1)
    plan = counter.plan(Shoe.from_counts(now), 0.0, moments=True)
    ev, second = _fixed_chart_oracle(rules, full, now)
    assert abs(plan.ev - float(ev)) < TOL
    assert plan.second_moment is not None
    assert abs(plan.second_moment - float(second)) < TOL
    ev_only = counter.plan(Shoe.from_counts(now), 0.0, moments=False)  # (read off the rows)
    assert abs(ev_only.ev - float(ev)) < TOL
    assert ev_only.second_moment is None


# No hole-card check, where a dealer blackjack does not always leave the round at -1:
# a 7-7-7 hit against the ace is paid whatever the dealer holds; under "original" a
# split second hand gets its stake back unless it busted (8,8 vs A splits there).
INSURED = [
    *DEPLETED,
    ("macau-1983", ("bonus_suited_678=0",), (1, 1, 1, 1, 2, 1, 3, 1, 2, 6),
     (0, 1, 0, 0, 0, 0, 0, 0, 0, 1)),
    ("macau-1983", ("bonus_suited_678=0", "double_after_split=true", "enhc_loses=original"),
     (2, 1, 1, 1, 2, 1, 3, 2, 2, 6), (0, 1, 0, 0, 0, 0, 0, 0, 0, 1)),
]


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "sets", "full", "gone"), INSURED,
                         ids=[f"{d[0]}-{i}" for i, d in enumerate(INSURED)])
def test_an_insured_rounds_ev_and_second_moment_equal_the_brute_force(
        name: str, sets: tuple[str, ...], full: tuple[int, ...], gone: tuple[int, ...]
) -> None:
    """Insurance against an ace (half the bet, 2:1 on a dealer blackjack) as an index
    play takes it: in a peek game a dealer blackjack ends the round; without a hole-card
    check (Macau) the player's hands are still played and settled, and the insurance is
    settled on the same dealer hand, so the round's E[X^2] needs each hand's results
    jointly with the dealer's blackjack. Both equal the brute force that bets it."""
    rules = sc.blackjack_rules(name, ["decks=1", *sets])
    now = tuple(f - g for f, g in zip(full, gone, strict=True))
    counter = count.blackjack_counter(rules, shoe=Shoe.from_counts(full), cut_card=sum(full) - 1)
    play = count.IndexPlay(1, None, None, ("insurance", "decline"), -100.0, "insurance")
    plan = replace(counter, plays=(play,)).plan(Shoe.from_counts(now), 0.0, moments=True)
    ev, second = _fixed_chart_oracle(rules, full, now, insure=True)
    assert plan.insure == {1}
    assert abs(plan.ev - float(ev)) < TOL
    assert plan.second_moment is not None
    assert abs(plan.second_moment - float(second)) < TOL


def test_without_a_hole_card_check_a_dealer_blackjack_takes_every_bet_on_the_box() -> None:
    """The engine's outcomes with a dealer blackjack, kept apart (``bj_hist``), by hand:
    macau-1983 (ENHC, ``enhc_loses = "all"``), 1 deck, up A. A blackjack comes with the
    dealer's second card, drawn after the player: by exchangeability with chance
    16/49 for any play (16 tens in the 49 cards left after the A and the two player
    cards, none of them a ten). A doubled 5,6 then loses 2; a split 9,9 loses 1 per hand
    (busted or beaten; a 9 makes no bonus): every such outcome is -2, and the two
    histograms add up to 1."""
    import numpy as np

    from strategy_calc import engine
    from strategy_calc.blackjack.distributions import HIST_OFFSET, HIST_SIZE
    from strategy_calc.blackjack.split.plan import SplitPlan
    from strategy_calc.cards import Card, Rank

    rules = sc.blackjack_rules("macau-1983", ["decks=1"])
    cond = engine.Conditioning.of(rules)
    params = engine.engine_params(rules, cond)
    for cards in ((Rank.FIVE, Rank.SIX), (Rank.NINE, Rank.NINE)):
        base = Shoe.full(1).remove([Card(Rank.ACE)])
        hist, bj = np.zeros(HIST_SIZE), np.zeros(HIST_SIZE)
        if cards[0] == cards[1]:
            split = SplitPlan.of(rules, cards[0], cond)
            first, second, suits = split.round_params(base, [Card(r) for r in cards])
            engine.split_distribution(base, cards[0], Rank.ACE, first, None, hist, None, second,
                                      suits, bj)
        else:
            engine.hand_distribution(base, [Card(r) for r in cards], Rank.ACE, params, 2, None,
                                     hist, None, bj)
        assert abs(bj.sum() - 16 / 49) < TOL
        assert abs(bj[HIST_OFFSET - 200] - 16 / 49) < TOL
        assert abs(hist.sum() + bj.sum() - 1.0) < TOL


@pytest.mark.slow
def test_a_nearly_used_up_ranks_suit_chances_stay_probabilities() -> None:
    """Regression (the count found it): a 6-7 start's suit cases against an 8 up, deep in
    a one-deck shoe (suits of the cards dealt unknown: the suit rows stay the full deck's).
    The chances came from each rank's count spread over four suits, and with two 8s left
    an up 8 of the start's suit gave q = (2/4 - 1) / 1 < 0. By hand, as off the top: the
    start is suited with chance 1/4 and the up 8 has its suit with chance 1/4, so q is 0
    with chance 1/16 and 1/3 (one 8 of that suit among the three others) with 3/16."""
    from strategy_calc.blackjack.deals import suit_cases

    shoe = Shoe.from_counts((4, 4, 4, 4, 4, 3, 3, 2, 4, 16), 1)
    cases = suit_cases((6, 7), 8, shoe.suits)
    assert all(0.0 <= p <= 1.0 and 0.0 <= q <= 1.0 for p, q in cases)
    assert cases == [(13 / 16, 0.0), (3 / 16, 1 / 3)]
    # dealt deep, as a multi-round single deck (Macau's metal box deals one round)
    rules = sc.blackjack_rules("macau-1983", ["decks=1", "single_deck_one_round=false"])
    counter = count.blackjack_counter(rules, cut_card=20, seed=5, moment_every=1)
    for record in counter.play_one(0):  # every round to the cut card, moments included
        assert record.second_moment is not None and record.second_moment >= record.ev ** 2


@pytest.mark.statistical
def test_a_shoe_dealt_one_round_deep_has_no_cut_card_effect() -> None:
    """Penetration -> 0: with the cut card one card in, every round is off the top, so
    the EV per round is the exact off-the-top EV of the chart (analyse_game's, which the
    game tests prove against the brute force), at true count 0. (No card shown before the
    first round: a shown card would leave the cut card no round, a refused run.)"""
    rules = sc.blackjack_rules("deluxe", ["decks=1", "burn_shown_card=false"])
    counter = count.blackjack_counter(rules, cut_card=51, seed=3)
    result = runs.blackjack_count(counter, rounds=4)
    top = sc.analyse_game(rules).ev_basic
    assert result.shoes == 4
    assert abs(result.ev_off_the_top - top) < TOL
    assert abs(result.ev_per_round.value - top) < TOL
    assert abs(result.cut_card_effect.value) < TOL
    assert [(r.tc, r.frequency) for r in result.by_true_count] == [(0, 1.0)]


@pytest.mark.slow
def test_macau_s_single_deck_deals_one_round_per_shuffle_with_no_cut_card_effect() -> None:
    """RULES.md, shuffle: a single deck (the metal box) deals exactly one round per
    shuffle. So 30 rounds take 30 shuffles, each round is dealt from the full deck at
    true count 0, its EV is the game's off-the-top EV under the chart (analyse_game's,
    proved against the brute force in the game tests), and the cut-card effect is 0
    exactly. A cut card cannot be placed; with the rule off the deck deals on."""
    rules = sc.blackjack_rules("macau-1983", ["decks=1"])
    result = runs.blackjack_count(count.blackjack_counter(rules, seed=4), rounds=30)
    top = sc.analyse_game(rules).ev_basic
    assert (result.rounds, result.shoes, result.one_round_per_shuffle) == (30, 30, True)
    assert abs(result.ev_off_the_top - top) < TOL
    assert result.ev_per_round.value == result.ev_off_the_top
    assert (result.cut_card_effect.value, result.cut_card_effect.se) == (0.0, 0.0)
    assert [(r.tc, r.frequency) for r in result.by_true_count] == [(0, 1.0)]
    with pytest.raises(ValueError, match="one round per shuffle"):
        count.blackjack_counter(rules, penetration=0.5)
    dealing_on = count.blackjack_counter(
        sc.blackjack_rules("macau-1983", ["decks=1", "single_deck_one_round=false"]))
    assert not dealing_on.one_round and dealing_on.cut_card == 20
    six = count.blackjack_counter(sc.blackjack_rules("macau-1983"))  # the rule is one deck's
    # (Art. 2: the shoe's cut card goes between the last 20 and 30 cards)
    assert not six.one_round and six.shoe_procedure.cut_card_from_end == (20, 30)
    deluxe = count.blackjack_counter(sc.blackjack_rules("deluxe", ["decks=1"]))
    assert not deluxe.one_round


def test_insurance_index_adds_the_insurance_ev_to_every_deal_against_an_ace() -> None:
    """Insurance (half the bet, pays 2:1) is worth 0.5 (3 P(ten in the hole) - 1) per unit
    initial bet; taken against an ace above the index, off the top of one deck with the
    player's two cards and the ace gone. Hand calculation: 16 tens in 52 cards, so with
    an A up and the player holding x tens of his two cards, P = (16 - x) / 49."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    plain = count.blackjack_counter(rules, cut_card=51)
    play = count.IndexPlay(1, None, None, ("insurance", "decline"), -100.0, "insurance")
    insured = replace(plain, plays=(play,))
    full = Shoe.full(1)
    gain = insured.plan(full, 0.0, moments=False).ev - plain.plan(full, 0.0, moments=False).ev
    p_ace = Fraction(4, 52)
    want = Fraction(0)
    for tens in range(3):  # how many of the player's two cards (from 51 cards) are tens
        ways = math.comb(16, tens) * math.comb(35, 2 - tens)  # 35 non-tens left
        p_hand = Fraction(ways, math.comb(51, 2))
        want += p_ace * p_hand * Fraction(1, 2) * (3 * Fraction(16 - tens, 49) - 1)
    assert abs(gain - float(want)) < TOL


@pytest.mark.slow
def test_the_ten_ten_split_index_is_taken_above_it() -> None:
    """Illustrious 18: split T-T against a 5 or a 6 at or above the index, stand below. The
    split had to be valued before it could be chosen (it once never was)."""
    rules = sc.blackjack_rules("deluxe", ["decks=6", "surrender=none"])
    counter = count.blackjack_counter(rules, strategy="basic+indices", cut_card=200)
    for up in (5, 6):
        play = next(p for p in counter.plays if p.pair == 10 and p.up == up)
        above = counter.plan(Shoe.full(6), play.index + 0.5, moments=False)
        below = counter.plan(Shoe.full(6), play.index - 0.5, moments=False)
        assert above.actions[(up, 10, 10, False)] is Action.SPLIT
        assert below.actions[(up, 10, 10, False)] is Action.STAND


def test_index_play_applies_to_its_total_and_up_card_only() -> None:
    """16 vs T: the two-card hard 16s (not 8-8, not soft), against a ten, stand at or
    above the index."""
    play = count.IndexPlay(10, 16, None, ("stand", "hit"), 0.0, "stand")
    assert play.applies((6, 10), 10) and play.applies((7, 9), 10)
    assert not play.applies((8, 8), 10) and not play.applies((6, 10), 9)
    assert play.play(0.0) == "stand" and play.play(-0.5) == "hit"


@pytest.mark.parallel
def test_same_seed_gives_the_same_run_whatever_the_executor() -> None:
    """Shoe i of seed s is shuffled by its own random source, and the first N rounds in
    shoe order are kept, so threads, processes and batches change nothing."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, seed=7, moment_every=50)
    one = runs.blackjack_count(counter, rounds=25, batch=1)
    with executor(2, kind="threads") as pool:
        two = runs.blackjack_count(counter, rounds=25, pool=pool, batch=3)
    assert one == two
    assert one.rounds >= 25 and one.moment_rounds >= 1
    assert one.rounds == sum(len(counter.play_one(i)) for i in range(one.shoes))


@pytest.mark.statistical
def test_ramp_figures_follow_their_definitions() -> None:
    """Blackjack Attack: n0 = (s/w)^2, di = 1000 w/s, score = di^2; risk of ruin
    exp(-2 w B / s^2); the ramp's win per round is the mean of bet x exact EV."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, seed=2, moment_every=5)
    ramp = count.parse_spread("0:1,2:4")
    result = runs.blackjack_count(counter, rounds=20, spread=ramp, bankroll=200)
    assert result.win_rate_per_round is not None and result.sd_per_round is not None
    w, s = result.win_rate_per_round.value, result.sd_per_round
    assert result.di == pytest.approx(1000 * w / s)
    assert result.score == pytest.approx((1000 * w / s) ** 2)
    assert result.n0 == pytest.approx((s / w) ** 2)
    assert result.risk_of_ruin == pytest.approx(math.exp(-2 * w * 200 / s**2) if w > 0 else 1)
    flat = runs.blackjack_count(counter, rounds=20)
    assert flat.win_rate_per_round is None and flat.n0 is None and flat.score is None


def _stacked(symbols: str) -> list[sc.cards.Card]:
    return list(sc.cards.parse_cards(symbols))


def test_a_round_is_dealt_in_casino_order_and_played_by_the_chart() -> None:
    """Player, up card, player, hole card; then the chart. Deluxe, 1 deck, off the top:
    T-6 vs T hits (16 vs T, no surrender against a ten) and makes 21 with a 5; the dealer
    stands on T-7: 5 cards. 8-8 vs 6 splits; the first hand draws a 3 (11 vs 6, doubled
    after the split) and gets its one card, a 9; the second draws a T and stands on 18;
    the dealer's 6-T draws a 5: 8 cards."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, cut_card=51)
    plan = counter.plan(Shoe.full(1), 0.0, moments=False)
    assert counter.deal_round(_stacked("T T 6 7 5 2 2 2"), 0, plan) == 5
    assert counter.deal_round(_stacked("8 6 8 T 3 9 T 5 2 2"), 0, plan) == 8
    # a dealer blackjack in a peek game ends the round after the deal
    assert counter.deal_round(_stacked("9 A 7 T 2 2"), 0, plan) == 4


class _WantsACard(Exception):
    """The round reads a card past the ordered cards being enumerated."""


def _best(hand: list[int]) -> int:
    hard = sum(hand)
    return hard + 10 if 1 in hand and hard <= 11 else hard


def _peek_round_by_the_rules(ranks: list[int], rules: sc.BlackjackRules,
                             plan: playout.RoundPlan) -> tuple[Fraction, int]:
    """The net result (units of the initial bet) and the number of cards used of one
    round of a peek game dealt from ``ranks`` in order, played as ``plan`` decides,
    written from RULES.md (Deluxe) without the counter's deal: player, up card, player,
    hole card; a dealer blackjack takes the original bet and pushes a player's
    blackjack; a player's blackjack is paid ``blackjack_pays``; a surrender loses
    half; a double draws one card for twice the bet; a split pair makes two hands, each
    dealt its second card and played out before the next (split aces one card only;
    a split hand may double if the rules let it); a hand stands on 21, and otherwise
    hits while its code says hit; the dealer draws (to 17, a soft 17 too under H17)
    only if a hand is left to settle. No insurance (a basic counter takes none)."""
    pos = 0

    def card() -> int:
        nonlocal pos
        if pos == len(ranks):
            raise _WantsACard
        pos += 1
        return ranks[pos - 1]

    p1, up, p2, hole = card(), card(), card(), card()
    if {up, hole} == {1, 10}:
        return Fraction(0 if {p1, p2} == {1, 10} else -1), pos
    if {p1, p2} == {1, 10}:
        return Fraction(rules.blackjack_pays), pos
    action = plan.actions[(up, min(p1, p2), max(p1, p2), False)]
    codes, node = plan.codes[up], node_table().node

    def hit_on(hand: list[int]) -> list[int]:
        while _best(hand) < 21 and codes[node(hand)] & 2:
            hand.append(card())
        return hand

    if action is Action.SURRENDER:
        return Fraction(-1, 2), pos
    hands: list[tuple[list[int], int]] = []  # (cards, bet)
    if action is Action.STAND:
        hands = [([p1, p2], 1)]
    elif action is Action.DOUBLE:
        hands = [([p1, p2, card()], 2)]
    elif action is Action.HIT:
        hands = [(hit_on([p1, p2, card()]), 1)]
    else:
        assert action is Action.SPLIT and p1 == p2
        for _ in range(2):
            hand = [p1, card()]
            if p1 == 1 and rules.split_aces_one_card:
                hands.append((hand, 1))
            elif (_best(hand) < 21 and codes[node(hand)] & 1 and rules.double_after_split
                  and rules.may_double(_best(hand))):
                hands.append(([*hand, card()], 2))
            else:
                hands.append((hit_on(hand), 1))
    net = Fraction(-sum(bet for hand, bet in hands if _best(hand) > 21))
    left = [(hand, bet) for hand, bet in hands if _best(hand) <= 21]
    if not left:
        return net, pos
    dealer = [up, hole]
    while _best(dealer) < 17 or (rules.dealer_hits_soft_17 and _best(dealer) == 17
                                 and sum(dealer) == 7):
        dealer.append(card())
    d = _best(dealer)
    for hand, bet in left:
        t = _best(hand)
        net += bet if d > 21 or t > d else -bet if t < d else 0
    return net, pos


PLAYED_OUT = [
    # (sets, full tiny shoe, cards gone by the round): every action taken somewhere
    ((), (2, 1, 1, 1, 1, 1, 1, 2, 2, 6), (0, 1, 1, 1, 0, 0, 1, 0, 0, 0)),
    ((), (2, 1, 1, 1, 1, 1, 1, 2, 2, 6), (0, 1, 0, 1, 0, 1, 0, 0, 1, 1)),
    (("dealer_hits_soft_17=true", "double_on=9-11"), (2, 1, 1, 1, 1, 1, 1, 2, 2, 6),
     (0, 1, 0, 1, 0, 1, 0, 0, 1, 1)),
]


@pytest.mark.statistical
@pytest.mark.parametrize(("sets", "full", "gone"), PLAYED_OUT,
                         ids=[f"deluxe-{i}" for i in range(len(PLAYED_OUT))])
def test_a_round_played_out_card_by_card_wins_its_exact_ev_and_uses_the_cards_dealt(
        sets: tuple[str, ...], full: tuple[int, ...], gone: tuple[int, ...]) -> None:
    """What makes the cut-card effect come out right: the round the counter deals is the
    round whose EV it adds. Every ordering of the cards a round can use (each extended one
    card at a time, with its chance count / cards left) is played out by the rules above:
    the results average to the plan's exact EV (so the deal plays the strategy the EV
    values), and the counter's deal (``deal_round``) uses exactly as many cards on every one
    (so the cut card is reached when it would be). By optional stopping, the sum of the
    rounds' exact EVs over a shoe then has the expectation of the sum of their results,
    whatever the cut card does."""
    # (no insurance offered: this shoe is rich enough in tens that the chart would insure,
    # and the play-out by the rules above settles no insurance bet)
    rules = sc.blackjack_rules("deluxe", ["decks=1", "insurance=false", *sets])
    now = tuple(f - g for f, g in zip(full, gone, strict=True))
    counter = count.blackjack_counter(rules, shoe=Shoe.from_counts(full), cut_card=sum(full) - 1)
    plan = counter.plan(Shoe.from_counts(now), 0.0, moments=False)
    assert not plan.insure
    ev, chance, actions = Fraction(0), Fraction(0), set()
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        ranks, p = stack.pop()
        try:
            result, used = _peek_round_by_the_rules(ranks, rules, plan)
        except _WantsACard:
            left = [n - ranks.count(r) for r, n in enumerate(now, 1)]
            assert sum(left) > 0, "the shoe ran out within the round"
            stack += [([*ranks, r], p * Fraction(k, sum(left)))
                      for r, k in enumerate(left, 1) if k]
            continue
        ev += p * result
        chance += p
        cards = list(sc.cards.parse_cards(" ".join("A23456789T"[r - 1] for r in ranks)))
        assert counter.deal_round(cards, 0, plan) == used, ranks
        if {ranks[1], ranks[3]} != {1, 10} and {ranks[0], ranks[2]} != {1, 10}:
            actions.add(plan.actions[(ranks[1], min(ranks[0], ranks[2]),
                                      max(ranks[0], ranks[2]), False)])
    assert chance == 1
    assert abs(float(ev) - plan.ev) < TOL
    assert actions == {Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER}


@functools.cache
def _kc_first_rounds() -> tuple[count.BlackjackCounter, playout.RoundPlan, Fraction, Fraction,
                                Fraction]:
    """k_c's example enumerated (see the test below): the counter, its plan off the top,
    P(both pat), P(both pat without a blackjack) and the second round's EV per deck."""
    rules = sc.blackjack_rules("deluxe", ["decks=1", "dealer_hits_soft_17=true",
                                          "double_after_split=false", "surrender=none",
                                          "burn_shown_card=false"])  # (his deck burns none)
    hit_77 = count.IndexPlay(10, None, 7, ("hit", "stand"), -100.0, "hit")
    counter = replace(count.blackjack_counter(rules, cut_card=47, seed=7, moment_every=10**6),
                      plays=(hit_77,))
    full = Shoe.full(1)
    top = counter.plan(full, 0.0, moments=False)
    assert top.actions[(10, 7, 7, False)] is Action.HIT
    pat = pat_no_blackjack = second = Fraction(0)
    second_ev: dict[tuple[int, ...], Fraction] = {}
    for deal in itertools.product(range(1, 11), repeat=4):
        left, p = list(full.counts), Fraction(1)
        for r in deal:
            p *= Fraction(left[r - 1], sum(left))
            left[r - 1] -= 1
        if p == 0:
            continue
        try:
            _peek_round_by_the_rules(list(deal), rules, top)
        except _WantsACard:
            continue  # a card was drawn: the cut card is out, the deck is shuffled
        pat += p
        if {deal[0], deal[2]} != {1, 10} and {deal[1], deal[3]} != {1, 10}:
            pat_no_blackjack += p
        key = tuple(left)  # the orderings of one four-card multiset leave one deck
        if key not in second_ev:
            second_ev[key] = Fraction(counter.plan(Shoe.from_counts(key), 0.0,
                                                   moments=False).ev)
        second += p * second_ev[key]
    return counter, top, pat, pat_no_blackjack, second


KC_GROUP = pytest.mark.xdist_group("kc-cut-card")  # one worker computes _kc_first_rounds


@pytest.mark.oracle  # every four-card first round enumerated in fractions
@KC_GROUP
def test_a_cut_card_behind_the_fourth_card_costs_what_the_published_exact_analysis_says(
) -> None:
    """k_c's exact combinatorial example of the cut-card effect (Blackjack Info forum,
    "Example of cut card effect using combinatorial analysis"): one deck, H17, double any
    two, no double after a split, split once, one card to split aces, peek, no
    surrender, 3:2, one player, total-dependent basic strategy; the cut card lies behind
    the fourth card, so a second round is dealt only when neither the player nor the
    dealer drew a card in the first (rounds are dealt while more than 47 cards are
    left). Published (per unit bet): the full deck's EV -0.2051%; both pat without a
    blackjack 7.535815%; the second round adds -0.2494087% a deck; in all
    -0.4544837% a deck (his pat and non-pat parts of the first round, 2.499459% and
    -2.704534%, sum to -0.205075%).

    Total-dependent: 7-7 against a ten hits as a hard 14, where the chart's pair row
    stands (a composition-dependent play), so that pair gets an index play that always
    hits. The first rounds are enumerated (every four-card deal, played out by the rules
    in ``_peek_round_by_the_rules``); then a seeded run of the counter must find the
    same EV per round, (EV per deck) / (1 + P(second round)), within 3 standard
    errors, and deal a second round in the share of decks that the enumeration says."""
    _counter, top, _pat, pat_no_blackjack, second = _kc_first_rounds()
    per_deck = top.ev + float(second)
    assert abs(top.ev - (-0.002051)) < 5e-7
    assert abs(float(pat_no_blackjack) - 0.07535815) < 1e-8
    assert abs(float(second) - (-0.002494087)) < 1e-8
    assert abs(per_deck - (-0.004544837)) < 5e-8  # (his two parts' sum: 3e-8)


@pytest.mark.statistical
@KC_GROUP
def test_a_seeded_run_with_the_cut_card_behind_the_fourth_card_finds_the_exact_effect(
) -> None:
    """The long part of k_c's example (split from the exact check above): a seeded run
    of 600 rounds finds the enumerated EV per round, (EV per deck) / (1 + P(second
    round)), within 3 standard errors, and deals a second round in the share of decks
    that the enumeration says."""
    counter, top, pat, _pat_no_blackjack, second = _kc_first_rounds()
    exact = (top.ev + float(second)) / (1 + float(pat))
    result = runs.blackjack_count(counter, rounds=600)
    assert result.ev_off_the_top == top.ev
    # a second round in a share P(pat) of the decks, a binomial share of result.shoes
    q = float(pat)
    assert abs(result.rounds / result.shoes - (1 + q)) < 3 * math.sqrt(q * (1 - q) / result.shoes)
    assert result.ev_per_round.se < 0.0003  # the effect, -0.18 points, is 6 of them
    assert abs(result.ev_per_round.value - exact) < 3 * result.ev_per_round.se
    assert abs(result.cut_card_effect.value - (exact - top.ev)) < 3 * result.ev_per_round.se


def test_optimal_split_hands_are_played_out_by_their_own_decisions() -> None:
    """``--strategy optimal`` values a split by each hand's own best play (cdp1: it may
    double after the split); its play-out must take the same decisions. Deluxe, 1 deck,
    off the top: 3-3 vs 7 splits; the first hand draws an 8 (11 vs 7: doubled) and gets
    one card, a 5 (16, doubled: it stops); the second draws an 8, doubles and gets a T;
    the dealer's 7-9 draws a 2 and stands on 18: 9 cards. Played by the unsplit hit/stand
    codes (no double) the first hand would hit 16 vs 7 again."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, strategy="optimal", cut_card=51)
    plan = counter.plan(Shoe.full(1), 0.0, moments=False)
    assert plan.actions[(7, 3, 3, False)] is Action.SPLIT
    cards = _stacked("3h 7s 3d 9c 8h 5h 8d Td 2c 2h 2d")
    assert counter.deal_round(cards, 0, plan, Shoe.full(1)) == 9


@pytest.mark.statistical
def test_a_second_split_hand_is_played_out_with_its_own_blackjack_losses() -> None:
    """Macau with ``enhc_loses = "original"``: a dealer blackjack takes the first split
    hand's bet but gives the second hand its stake back, so the two play differently:
    8-8 vs A, 6 decks, optimal play, the first hand hits its 16 and the second stands on
    it. Stacked: the first draws an 8 (16), hits a 2 (18); the second draws an 8 (16)
    and stands; the dealer's A-9 stands: 7 cards (8 if the second hand hit its 16)."""
    rules = sc.blackjack_rules("macau-1983", ["decks=6", "enhc_loses=original",
                                              "burn_before_dealer_cards=false"])
    counter = count.blackjack_counter(rules, strategy="optimal")
    plan = counter.plan(Shoe.full(6), 0.0, moments=False)
    assert plan.actions[(1, 8, 8, False)] is Action.SPLIT
    cards = _stacked("8s Ah 8h 8d 2c 8c 9d Tc 5d 5c")
    sixteen = sc.engine.node_table().node([8, 8])
    eights = split_plans(rules)[Rank.EIGHT]
    first = playout._split_play_of(eights, Shoe.full(6), cards[1], cards[0], cards[2])
    second = playout._split_play_of(eights, Shoe.full(6), cards[1], cards[2], cards[0], True)
    assert first[0][sixteen] & 2 and not second[0][sixteen] & 2
    assert counter.deal_round(cards, 0, plan, Shoe.full(6)) == 7


@pytest.mark.statistical
def test_a_split_seven_is_played_out_by_its_suits() -> None:
    """Macau (6 decks, optimal): 7-7 vs 2 splits; the first hand draws the 6 of its own
    suit, a suited 6-7 that hits (the issue's figures), and makes the suited 6-7-8 with
    the 8 of hearts (paid at once); the second draws a 6 of another suit and stands on
    13; the dealer's 2-T draws a 9: 8 cards. (Standing on the suited 13 instead, the
    second hand would take the 8 and the dealer's 2-6 the T: 7 cards.)"""
    rules = sc.blackjack_rules("macau-1983", ["burn_before_dealer_cards=false"])
    counter = count.blackjack_counter(rules, strategy="optimal")
    plan = counter.plan(Shoe.full(6), 0.0, moments=False)
    assert plan.actions[(2, 7, 7, False)] is Action.SPLIT
    assert counter.deal_round(_stacked("7h 2s 7d 6h 8h 6c Ts 9d 5d 5c"), 0, plan,
                         Shoe.full(6)) == 8


def test_a_no_hole_card_shoe_deals_the_dealer_s_second_card_only_when_needed() -> None:
    """Macau 1983 (6 decks): the dealer's second card comes after the players, and only
    for a hand left to settle. T-5 vs 9 hits and busts: 4 cards. T-6 vs T surrenders
    (early, not against an ace): 3. A blackjack against a 6 is paid at once: 3. 7-7 vs 8
    hits (chart) and makes 7-7-7, paid at once and settled: 4. T-8 vs 6 stands; the
    dealer's 6-T draws a 5: 5 cards. (Art. 2's burns around the dealer's second card
    aside: tests/counting/test_shoe_procedure.py checks them.)"""
    rules = sc.blackjack_rules("macau-1983", ["burn_before_dealer_cards=false"])
    counter = count.blackjack_counter(rules, cut_card=200)
    plan = counter.plan(Shoe.full(6), 0.0, moments=False)
    assert counter.deal_round(_stacked("T 9 5 T 2 2 2"), 0, plan) == 4
    assert counter.deal_round(_stacked("T T 6 2 2 2"), 0, plan) == 3
    assert counter.deal_round(_stacked("A 6 T 2 2 2"), 0, plan) == 3
    assert counter.deal_round(_stacked("7 8 7 7 5 7 2"), 0, plan) == 4
    assert counter.deal_round(_stacked("T 6 8 T 5 2 2"), 0, plan) == 5


def test_optimal_play_counts_shoes_that_ran_out_of_a_rank() -> None:
    """A deep one-deck shoe often has no aces (or no fives) left: the round is still
    valued, its up cards limited to the ranks left."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, strategy="optimal", moment_every=1000)
    left = (0, 3, 2, 4, 0, 3, 2, 4, 3, 9)
    plan = counter.plan(Shoe.from_counts(left), 0.0, moments=False)
    assert math.isfinite(plan.ev)


def test_bad_count_input_is_refused() -> None:
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    with pytest.raises(ValueError, match="penetration"):
        count.blackjack_counter(rules, penetration=1.2)
    with pytest.raises(ValueError, match="cut card"):
        count.blackjack_counter(rules, cut_card=5)
    with pytest.raises(ValueError, match="not both"):
        count.blackjack_counter(rules, cut_card=30, penetration=0.5)
    with pytest.raises(ValueError, match="leave no round"):  # (the shown ten and 10 burnt)
        runs.blackjack_count(count.blackjack_counter(rules, cut_card=41), rounds=1)
    with pytest.raises(ValueError, match="strategy"):
        count.blackjack_counter(rules, strategy="perfect")
    with pytest.raises(ValueError, match="spread"):
        count.parse_spread("1-2")
    with pytest.raises(ValueError, match="hundredths"):  # (resplits are counted: see
        # tests/blackjack/split/test_resplit_moments.py; a bonus the moments cannot key is not)
        count.blackjack_counter(sc.blackjack_rules("macau-1983", ["bonus_777=2.125"]))


# ------------------------------------------------------------- baccarat


def test_the_dealing_procedure_reproduces_the_engine_tableau_on_every_ordered_deal() -> None:
    """The third-card rules as the dealer applies them to a real shoe (``baccarat_deal``)
    against the engine's counts: every ordered 6-card deal of a 9-card shoe, played out,
    wins and ties counted (the unused cards of a deal count as dealt, as in the engine)."""
    shoe = [0, 2, 4, 5, 6, 7, 9, 9, 12]  # A 3 5 6 7 8 T T K
    counts = [0] * len(RANKS)
    for card in shoe:
        counts[card] += 1
    wins = {"banker": 0, "player": 0, "tie": 0}
    for deal in itertools.permutations(shoe, 6):
        _pos, p, b = baccarat_count.baccarat_deal(deal, 0)
        wins["tie" if p == b else "player" if p > b else "banker"] += 1
    odds = analyse_counts(baccarat_rules(), counts)
    assert (wins["banker"], wins["player"], wins["tie"]) == (
        odds.banker_wins, odds.player_wins, odds.ties)


def test_linear_count_is_exact_for_one_card_removed() -> None:
    """The linear count's slopes b_i = -(N - 1) E_i reproduce the exact EV of every shoe
    one card short: removing rank i moves the shares by (p0_j - [j = i]) / (N - 1), so
    the estimate is EV0 + E_i - sum_j p0_j E_j, and sum_j p0_j E_j = 0 (removing an
    unseen card at random leaves the expectation unchanged)."""
    rules = baccarat_rules("macau-baccarat", decks=1)
    counter = baccarat_count.linear_counter(rules, 14, 1)
    full = analyse(rules)
    for i, rank in enumerate(RANKS):
        counts = list(full.counts)
        counts[i] -= 1
        exact = analyse_counts(rules, counts).ev
        guess = counter.estimate(counts)
        for j, bet in enumerate(BETS):
            assert abs(guess[j] - exact[bet]) < 1e-12, (rank, bet)
    eor = baccarat_eor(full)
    for bet in BETS:
        assert abs(sum(float(eor[r][bet]) * full.counts[i] / full.cards_left  # type: ignore[index]
                       for i, r in enumerate(RANKS))) < 1e-15


def test_perfect_information_wins_at_least_what_the_linear_count_wins_in_every_shoe() -> None:
    """Betting exactly the positive-EV hands takes the sum of the positive EVs, the most
    any choice of hands can take from a shoe."""
    rules = baccarat_rules("macau-baccarat", decks=2)
    counter = baccarat_count.linear_counter(rules, 14, 5)
    for shoe in counter.play(range(3)):
        for j in range(len(BETS)):
            assert shoe.win[j] >= shoe.linear_win[j] - 1e-15
            assert shoe.positive_ev[j] == shoe.win[j]


def test_baccarat_run_reports_the_exact_off_the_top_evs() -> None:
    """Off the top of 8 decks: Banker -1.0579%, Player -1.2351%, Tie -14.3596% (Wizard of
    Odds' baccarat house edges); positive-EV shares are shares of the hands dealt."""
    result = baccarat_count.baccarat_count(baccarat_rules(), shoes=2, seed=1)
    ev = {bet: b.ev_off_the_top for bet, b in result.bets.items()}
    assert round(ev["banker"], 6) == -0.010579
    assert round(ev["player"], 6) == -0.012351
    assert round(ev["tie"], 6) == -0.143596
    assert result.hands > 100
    assert all(0 <= b.positive_share <= 1 for b in result.bets.values())


@pytest.mark.slow
def test_a_dask_cluster_and_local_processes_deal_the_same_run() -> None:
    """Shoes in batches on a real LocalCluster (loopback) and on two local processes give
    the serial figures exactly, for blackjack and for baccarat."""
    pytest.importorskip("distributed", reason="needs the cluster extra")  # (before the serial runs)
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, seed=5, moment_every=40)
    serial = runs.blackjack_count(counter, rounds=16, batch=2)
    bac = baccarat_rules("macau-baccarat", decks=1)
    bac_serial = baccarat_count.baccarat_count(bac, shoes=4, seed=2, batch=1)
    with executor(2) as pool:
        assert runs.blackjack_count(counter, rounds=16, pool=pool, batch=2) == serial
    with local_cluster_pool() as pool:
        assert runs.blackjack_count(counter, rounds=16, pool=pool, batch=2) == serial
        assert baccarat_count.baccarat_count(bac, shoes=4, seed=2, pool=pool, batch=1) == bac_serial


@pytest.mark.statistical
def test_a_losing_ramp_has_no_score_and_no_n0() -> None:
    """SCORE (Kelly win per 100 rounds) and N0 (rounds to overcome one SD) exist only for a
    winning ramp; a flat-ish ramp at the start of a shoe loses."""
    rules = sc.blackjack_rules("deluxe", ["decks=6"])
    counter = count.blackjack_counter(rules, seed=1, moment_every=100)
    result = runs.blackjack_count(counter, rounds=3, spread=count.parse_spread("5:2"))
    assert result.win_rate_per_round is not None and result.win_rate_per_round.value < 0
    assert result.score is None and result.n0 is None
    assert result.di is not None and result.di < 0


def test_the_sds_standard_error_is_the_delta_method_over_shoes_worked_by_hand() -> None:
    """Two shoes of two rounds, one second moment each: E[X^2] 3 and 5, EVs summing to
    +0.2 and -0.2. m2 = 8 / 2 = 4, m1 = 0 / 4 = 0, SD = 2. Per shoe psi = (a - m2 k) /
    mean(k) - 2 m1 (...) = -1 and +1, so Var(SD^2) = (1 + 1) / (2 * 1) = 1 and
    se(SD) = 1 / (2 * 2) = 0.25. With m1 = 0.5 (EV sums 1.2 and 0.8): SD^2 = 4 - 0.25,
    psi = -1 - 2 (0.5)(0.2) / 2 = -1.1 and +1.1, Var = 1.21, se = 1.1 / (2 sqrt(3.75))."""
    got = sampling.sd_estimate([3.0, 5.0], [1.0, 1.0], [0.2, -0.2], [2.0, 2.0])
    assert got.value == pytest.approx(2.0, abs=1e-15) and got.se == pytest.approx(0.25)
    got = sampling.sd_estimate([3.0, 5.0], [1.0, 1.0], [1.2, 0.8], [2.0, 2.0])
    assert got.value == pytest.approx(math.sqrt(3.75))
    assert got.se == pytest.approx(1.1 / (2 * math.sqrt(3.75)))
    one = sampling.sd_estimate([3.0], [1.0], [0.2], [2.0])  # one shoe: no spread to measure
    assert one.value == pytest.approx(math.sqrt(3.0 - 0.01)) and math.isnan(one.se)


@pytest.mark.parametrize("sets", [(), ("hole_card=enhc",),
                                  ("surrender=none", "dealer_hits_soft_17=true"),
                                  ("surrender=late", "blackjack_pays=6:5")])
def test_a_chart_round_summed_in_the_engine_is_the_python_sum_bit_for_bit(
        sets: tuple[str, ...]) -> None:
    """A chart-played round's EV summed in the engine (one call per up card) is the
    double the Python sum over the starts makes (the same operations in the same order),
    on depleted shoes, with and without the peek, surrender (late: the whole bet lost to
    a dealer blackjack) and soft 17, and at 6:5; the actions recorded are the same too."""
    rules = sc.blackjack_rules("deluxe", ["decks=2", *sets])
    planner = count.blackjack_counter(rules).planner
    engine_sums = planner._chart_sums
    assert engine_sums and all(v is not None for v in engine_sums.values())
    rng = random.Random(49)
    for _ in range(4):
        counts = list(Shoe.full(2).counts)
        for _ in range(30):
            r = rng.choice([r for r in range(10) if counts[r] > 0])
            counts[r] -= 1
        shoe = Shoe.from_counts(tuple(counts))
        fast = planner.plan(shoe, 0.0, moments=False)
        planner._chart_sums = {}  # (the Python sum)
        try:
            slow = planner.plan(shoe, 0.0, moments=False)
        finally:
            planner._chart_sums = engine_sums
        assert fast.ev == slow.ev
        assert fast.actions == slow.actions and list(fast.actions) == list(slow.actions)
