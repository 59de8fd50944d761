"""Several boxes in one round (issue 30, item 4): the casino-order brute force
(tests/oracles/oracle_boxes.py) proves what the engine's figure rests on.

With strategies that see only a box's own cards and the up card, the boxes are
exchangeable and the joint law of any two boxes and the dealer does not depend on how
many other boxes are dealt (cards dealt to other boxes are unseen random cards), as long
as the shoe cannot run out; so Var(X_1 + ... + X_N) = N Var(X_1) + N (N - 1) Cov(X_1, X_2).
"""

from __future__ import annotations

import array
import functools
import json
import math
from fractions import Fraction

import bj_oracle
import pytest
from oracle_boxes import BoxRules, ShoeExhausted, Strategy, box_moments, mimic_strategy
from typer.testing import CliRunner

from strategy_calc.actions import Action
from strategy_calc.blackjack.boxes import (
    BoxFigures,
    box_figures,
    check_boxes,
    check_cannot_run_out,
    most_cards_dealt,
    up_card_moments,
)
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.cards import Rank, Shoe
from strategy_calc.cli import app
from strategy_calc.counting.counter import BlackjackCounter, blackjack_counter
from strategy_calc.engine import CODE_DOUBLE, CODE_HIT, CODE_STAND, engine_params, node_table
from strategy_calc.errors import InputError
from strategy_calc.render.game import boxes_text
from strategy_calc.rules import BlackjackRules, blackjack_rules

runner = CliRunner()

# Shoes (cards per rank, aces first) small enough to enumerate, big enough that no deal
# of three boxes empties them (the brute force would raise ShoeExhausted)
SHOES = [(1, 0, 0, 0, 0, 0, 1, 2, 2, 7), (2, 0, 0, 0, 0, 0, 1, 2, 2, 8)]
GAMES = [BoxRules(peek=False), BoxRules(peek=True)]


def test_two_boxes_on_a_shoe_of_tens_and_one_ace_match_a_hand_calculation() -> None:
    """Five tens and an ace, ENHC, stand on 20. The ace goes to a box (chance 1/3 for
    each box): that box has a natural, paid 3/2 (the dealer cannot have one too); to the
    up card or the dealer's second card (1/6 each): the dealer has blackjack and both
    boxes lose 1; else every hand is 20 and pushes. So E[X1] = 1/3 * 3/2 - 1/6 - 1/6 =
    1/6, E[X1^2] = 1/3 * 9/4 + 1/3 = 13/12, E[X1 X2] = 1/6 + 1/6 = 1/3 (a natural's box
    has a partner at 20, which pushes), Var(X1 + X2) = 2 (13/12 - 1/36) + 2 (1/3 -
    1/36) = 49/18."""
    m = box_moments((1, 0, 0, 0, 0, 0, 0, 0, 0, 5), 2, mimic_strategy, BoxRules())
    assert m.ev == (Fraction(1, 6), Fraction(1, 6))
    assert m.second == (Fraction(13, 12), Fraction(13, 12))
    assert m.cross[(0, 1)] == Fraction(1, 3)
    assert m.total_variance == Fraction(49, 18)


@pytest.mark.oracle
@pytest.mark.parametrize("rules", GAMES, ids=["enhc", "peek"])
@pytest.mark.parametrize("shoe", SHOES)
def test_boxes_are_exchangeable_and_a_pair_of_boxes_does_not_depend_on_the_others(
        shoe: tuple[int, ...], rules: BoxRules) -> None:
    one = box_moments(shoe, 1, mimic_strategy, rules)
    two = box_moments(shoe, 2, mimic_strategy, rules)
    three = box_moments(shoe, 3, mimic_strategy, rules)
    for m in (two, three):  # every box alike, every pair alike
        assert set(m.ev) == {one.ev[0]}
        assert set(m.second) == {one.second[0]}
        assert set(m.cross.values()) == {two.cross[(0, 1)]}
    cov = two.covariance(0, 1)
    assert cov > 0  # the boxes share the dealer's hand
    for m in (two, three):
        n = m.boxes
        assert m.total_variance == n * one.variance(0) + n * (n - 1) * cov


def test_a_shoe_that_can_run_out_gives_two_boxes_a_law_but_not_three() -> None:
    """Nine cards: two boxes always find their cards, three can empty the shoe (then
    the joint law of two boxes is not defined independently of the others)."""
    shoe = (1, 0, 0, 0, 0, 1, 1, 1, 1, 4)
    assert box_moments(shoe, 2, mimic_strategy, BoxRules()).ev[0] is not None
    with pytest.raises(ShoeExhausted):
        box_moments(shoe, 3, mimic_strategy, BoxRules())


# ---------------------------------------------------------------- the engine's figure

def _engine_arrays(strategy: Strategy, up: int) -> tuple[memoryview, memoryview]:
    """A strategy as the engine takes it: two-card plays per start, codes per node."""
    table = node_table()
    actions = array.array("b", bytes(100))
    for a in range(1, 11):
        for b in range(a, 11):
            actions[10 * (a - 1) + (b - 1)] = "SHDPR".index(strategy((a, b), up, "first"))
    codes = array.array("b", bytes(table.n_nodes))
    for counts, i in table.index.items():
        cards = tuple(r + 1 for r in range(10) for _ in range(counts[r]))
        if len(cards) >= 2:
            x = strategy(cards, up, "split" if len(cards) == 2 else "later")
            codes[i] = CODE_DOUBLE | CODE_HIT if x == "D" else (CODE_HIT if x == "H"
                                                                else CODE_STAND)
    return memoryview(actions), memoryview(codes)


def engine_box_moments(shoe: tuple[int, ...], peek: bool, strategy: Strategy = mimic_strategy,
                       push22: bool = False) -> tuple[float, float, float, float]:
    """(E[X1], E[X1^2], E[X1 X2], E[X1 1{dealer blackjack}]) of two boxes from the
    engine, summed over up cards (``push22``: ``dealer_22_pushes``)."""
    rules = BlackjackRules(decks=1, hole_card="peek" if peek else "enhc",
                           surrender="late" if peek else "early", dealer_22_pushes=push22)
    params = engine_params(rules)
    aces = engine_params(rules, pair=Rank.ACE)
    n = sum(shoe)
    out = [0.0, 0.0, 0.0, 0.0]
    for up in range(1, 11):
        if shoe[up - 1] == 0:
            continue
        base = Shoe.from_counts([c - (i == up - 1) for i, c in enumerate(shoe)])
        actions, codes = _engine_arrays(strategy, up)
        splits = {}
        for p in range(1, 11):
            if strategy((p, p), up, "first") == "P" and base.counts[p - 1] >= 2:
                c = base.counts[p - 1]
                splits[Rank(p)] = c * (c - 1) / ((n - 1) * (n - 2))
        got = up_card_moments(rules, base, Rank(up), params, actions, codes, [None] * 10,
                              [aces] + [None] * 9, splits)
        for k in range(4):
            out[k] += shoe[up - 1] / n * got[k]
    return out[0], out[1], out[2], out[3]


ENGINE_SHOES = [(1, 0, 0, 0, 0, 0, 1, 2, 2, 7), (2, 0, 0, 0, 0, 0, 1, 2, 2, 8),
                (1, 1, 0, 0, 0, 0, 1, 2, 2, 6), (2, 1, 1, 0, 0, 0, 0, 0, 1, 6)]


def _agree(shoe: tuple[int, ...], peek: bool) -> None:
    m = box_moments(shoe, 2, mimic_strategy, BoxRules(peek=peek))
    ev, second, cross, with_bj = engine_box_moments(shoe, peek)
    assert ev == pytest.approx(float(m.ev[0]), abs=1e-12)
    assert with_bj == pytest.approx(float(m.with_blackjack[0]), abs=1e-12)
    assert second == pytest.approx(float(m.second[0]), abs=1e-12)
    assert cross == pytest.approx(float(m.cross[(0, 1)]), abs=1e-12)


def test_two_boxes_in_the_engine_agree_with_the_casino_order_brute_force() -> None:
    """Splits of aces (one card each) and 8s, doubles on 10 and 11, surrender of 16 vs
    a ten, naturals: E[X1], E[X1^2], E[X1 X2] and E[X1 1{dealer blackjack}] to 1e-12
    (ENHC, one shoe)."""
    _agree(ENGINE_SHOES[2], False)


@pytest.mark.oracle
@pytest.mark.parametrize("peek", [False, True], ids=["enhc", "peek"])
@pytest.mark.parametrize("shoe", ENGINE_SHOES)
def test_two_boxes_in_the_engine_agree_with_the_brute_force_on_tiny_shoes(
        shoe: tuple[int, ...], peek: bool) -> None:
    _agree(shoe, peek)


@pytest.mark.oracle
@pytest.mark.parametrize("peek", [False, True], ids=["enhc", "peek"])
@pytest.mark.parametrize("shoe", [(1, 0, 0, 0, 0, 0, 1, 2, 2, 7), (1, 1, 0, 0, 0, 0, 1, 2, 2, 6),
                                  (2, 1, 1, 0, 0, 0, 0, 0, 1, 6)])
def test_two_boxes_with_dealer_22_pushes_match_the_brute_force(
        shoe: tuple[int, ...], peek: bool) -> None:
    """``--boxes``: E[X1], E[X1^2], E[X1 X2], E[X1 1{dealer blackjack}] of two boxes
    against ``oracle_boxes`` dealing the round in casino order."""
    m = box_moments(shoe, 2, mimic_strategy, BoxRules(peek=peek, push22=True))
    ev, second, cross, with_bj = engine_box_moments(shoe, peek, push22=True)
    assert ev == pytest.approx(float(m.ev[0]), abs=1e-12)
    assert with_bj == pytest.approx(float(m.with_blackjack[0]), abs=1e-12)
    assert second == pytest.approx(float(m.second[0]), abs=1e-12)
    assert cross == pytest.approx(float(m.cross[(0, 1)]), abs=1e-12)


def _own_optimum(shoe: tuple[int, ...], rules: BlackjackRules) -> Strategy:
    """A box's own optimal play, from the exact one-hand oracle (``bj_oracle``, written from
    the rules text): each decision the best of its exact values for the box's cards and the
    up card off ``shoe``, an exact tie taking the calmer play (docs/MODEL.md "Exact ties":
    stand, hit, double, surrender, split). A split hand is valued as its cards alone (the
    brute force shows a strategy only the hand's cards, not the other pair card); on the
    shoes below only tens are split, and no split hand's play turns on that card."""
    order = ("stand", "hit", "double", "surrender", "split")

    @functools.cache
    def play(cards: tuple[int, ...], up: int, where: str) -> str:
        left = bj_oracle.remove(shoe, [*cards, up])
        evs = dict(bj_oracle.hand_evs(list(cards), up, left, rules, initial=where == "first"))
        if where == "first" and cards[0] == cards[1]:
            evs["split"] = bj_oracle.split_ev(cards[0], up, left, rules)
        values = {a: v for a in order if (v := evs.get(a)) is not None}
        best = next(a for a in order if values.get(a) == max(values.values()))
        return "SHDRP"[order.index(best)]
    return lambda cards, up, where: play(tuple(cards), up, where)


# Shoes where a box meets exact ties (on the first: 4,8 against a ten and a split 10,4
# against an 8 or a 9 stand or hit for -5/6 alike; 4,6 against a ten hits or doubles for
# 0), which the engine broke by floating-point rounding before the one rule: its
# covariances here were 0.53751, 0.44494 and 0.62252 (2026-12-07).
TIE_SHOES = [(0, 0, 0, 1, 0, 1, 0, 1, 1, 11), (0, 0, 1, 0, 0, 0, 1, 1, 1, 11),
             (0, 0, 0, 1, 1, 1, 0, 1, 1, 11)]


@pytest.mark.parametrize("shoe", TIE_SHOES)
def test_two_boxes_take_the_calmer_play_on_exact_ties_as_the_brute_force_does(
        shoe: tuple[int, ...]) -> None:
    """Exact ties (docs/MODEL.md): either play is optimal for the box, but the choice
    changes what the dealer and the other box draw. Two boxes each playing its own
    optimum (deluxe, one deck: peek, late surrender against 2-9), the calmer play on a
    tie: EV, variance and covariance against the casino-order brute force to 1e-12."""
    rules = blackjack_rules("deluxe", ["decks=1"])
    m = box_moments(shoe, 2, _own_optimum(shoe, rules), BoxRules(peek=True))
    fig = box_figures(rules, Shoe.from_counts(shoe), boxes=2)
    assert fig.ev_per_box == pytest.approx(float(m.ev[0]), abs=1e-12)
    assert fig.variance_per_box == pytest.approx(float(m.second[0] - m.ev[0] ** 2), abs=1e-12)
    assert fig.covariance == pytest.approx(float(m.cross[(0, 1)] - m.ev[0] * m.ev[1]),
                                           abs=1e-12)


@pytest.mark.slow
def test_ev_per_box_is_the_ev_of_edge_for_either_play() -> None:
    """Consistency (engine against engine; the brute force above is the independent
    check): a box playing edge's optimal play, or its chart, has edge's EV for that play
    (deluxe, one deck: no bonus). On a 24-card shoe, every rank twice (every pair can be
    split) and six tens, so that insurance and even money are never worth it off its top
    (with eight tens, 26 cards, insurance pays for some starts and the equality holds only
    with insurance=false); the chart still plays worse than the optimum there. (1 CPU-s;
    the full deck took 10.)"""
    rules = blackjack_rules("deluxe", ["decks=1"])
    shoe = Shoe.from_counts((2, 2, 2, 2, 2, 2, 2, 2, 2, 6), decks=1)
    game = analyse_game(rules, shoe=shoe)
    assert game.ev_basic < game.ev_optimal - 1e-6
    fig = box_figures(rules, shoe=shoe, boxes=2)
    assert fig.ev_per_box == pytest.approx(game.ev_optimal, abs=1e-12)
    assert fig.variance_per_round == pytest.approx(
        2 * fig.variance_per_box + 2 * fig.covariance, abs=1e-12)
    chart = box_figures(rules, shoe=shoe, boxes=2, play="basic")
    assert chart.play == "basic"
    assert chart.ev_per_box == pytest.approx(game.ev_basic, abs=1e-12)


@pytest.mark.parametrize("boxes", [0, 8, -1])
def test_a_number_of_boxes_a_table_does_not_have_is_refused(boxes: int) -> None:
    with pytest.raises(InputError, match="--boxes must be 1 to 7"):
        check_boxes(boxes)


@pytest.mark.fullsize
def test_six_deck_variance_and_covariance_match_wongs_published_benchmark() -> None:
    """Stanford Wong, *Professional Blackjack*, p. 203 (quoted by Wizard of Odds, "Variance
    in blackjack", appendix 4): variance 1.28 and covariance 0.47 per hand for his
    benchmark rules, six decks, S17, no double after split, no resplit of aces, no
    surrender (his basic strategy, simulated; ours each box's own optimum, exact off the
    top, one split: the chart gives 1.2785 and 0.4703, docs/REFERENCE.md, but costs the
    chart's derivation too). Wizard of Odds' own simulation of those rules with resplits:
    1.295 and 0.478."""
    rules = blackjack_rules("deluxe", ["decks=6", "double_after_split=false",
                                       "surrender=none"])
    fig = box_figures(rules, boxes=2)
    assert fig.variance_per_box == pytest.approx(1.28, abs=0.01)
    assert fig.covariance == pytest.approx(0.47, abs=0.01)


# ---------------------------------------------------------------- the CLI

SMALL_SHOE = "A=3,2=3,3=3,4=3,5=3,6=3,7=3,8=3,9=3,T=12"  # three quarters of a deck


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_edge_boxes_gives_the_round_of_n_boxes_in_json() -> None:
    """deluxe from three quarters of a deck, three boxes: the round's variance is N Var +
    N (N - 1) Cov, worked from the printed figures. A box's EV is at most edge's optimal
    EV (the boxes decline insurance, which optimal play takes where it is worth it; on a
    shoe where it never is they agree, test_ev_per_box_is_the_ev_of_edge_for_either_play)."""
    result = runner.invoke(app, ["edge", "--rules", "deluxe", "--shoe", SMALL_SHOE, "--boxes",
                                 "3", "--strategy", "optimal", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    fig = data["box_figures"]
    assert data["boxes"] == fig["boxes"] == 3
    assert data["covariance_between_boxes"] == {"value": fig["covariance_between_boxes"],
                                                "se": 0.0}
    assert fig["ev_per_box"] <= data["ev_optimal"] + 1e-12
    var, cov = fig["variance_per_box"], fig["covariance_between_boxes"]
    assert fig["variance_per_round"] == pytest.approx(3 * var + 6 * cov, abs=1e-12)
    assert fig["sd_per_round"] == pytest.approx(math.sqrt(3 * var + 6 * cov), abs=1e-12)
    assert fig["ev_per_round"] == pytest.approx(3 * fig["ev_per_box"], abs=1e-15)
    assert fig["correlation_between_boxes"] == pytest.approx(cov / var, abs=1e-12)


@pytest.mark.slow
def test_hand_boxes_adds_the_box_figures_to_text_and_json() -> None:
    args = ["hand", "T,6", "--vs", "T", "--rules", "deluxe", "--shoe", SMALL_SHOE, "--boxes"]
    text = runner.invoke(app, [*args, "3"])
    assert text.exit_code == 0, text.output
    assert "covariance between two boxes" in text.stdout
    assert "a round of 3 boxes" in text.stdout
    # the JSON of the same figures (one box's do not depend on the number of boxes)
    data = json.loads(runner.invoke(app, [*args, "2", "--json"]).stdout)
    assert data["boxes"] == 2 and "stand" in data["ev"]
    fig = data["box_figures"]
    assert f"variance per box {fig['variance_per_box']:.4f}" in text.stdout


@pytest.mark.slow
def test_edge_boxes_plays_the_chart_under_basic_strategy() -> None:
    """edge's default strategy is the chart: the boxes play it, and say so; autoplay is
    refused before any work."""
    args = ["edge", "--rules", "deluxe", "--shoe", SMALL_SHOE, "--boxes", "2"]
    fig = json.loads(runner.invoke(app, [*args, "--json"]).stdout)["box_figures"]
    assert fig["play"] == "basic"
    assert "each box playing the chart" in boxes_text(BoxFigures(
        2, fig["ev_per_box"], fig["second_moment_per_box"],
        fig["covariance_between_boxes"] + fig["ev_per_box"] ** 2, fig["play"]))
    refused = runner.invoke(app, [*args, "--strategy", "autoplay"])
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines() == [
        "error: --boxes takes --strategy basic or optimal, not autoplay"]


@pytest.mark.parametrize("command", [["edge"], ["hand", "T,6", "--vs", "T"]])
@pytest.mark.parametrize("boxes", ["0", "8"])
def test_a_bad_number_of_boxes_is_one_error_line_and_exit_2(command: list[str],
                                                            boxes: str) -> None:
    result = runner.invoke(app, [*command, "--boxes", boxes])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: --boxes must be 1 to 7 (boxes at one table), not {boxes}"]


def test_the_most_cards_a_round_of_boxes_can_take_from_one_deck() -> None:
    """Hand calculation: every hand's cards but its last hold at most 20 points (the
    dealer's 16). Four boxes, each splitting once, and the dealer: 9 hands, 4 x 2 x 20 +
    16 = 176 points; the smallest cards of a deck (four each of A-7: 112 points, then
    8s: 144, then 9s: three more, 171) are 35 cards, plus a last card a hand: 44 <= 52.
    Five boxes: 216 points, 11 hands: all A-9 (180 points) and three tens (210) are 39
    cards, 50 <= 52. Six: 256 points, 13 hands: 36 + 7 tens = 43 cards, 56 > 52."""
    deck = Shoe.full(1).counts
    assert [most_cards_dealt(deck, n) for n in (4, 5, 6)] == [44, 50, 56]
    check_cannot_run_out(deck, 5)
    with pytest.raises(InputError, match=r"could empty this 52-card shoe.*at most 5 boxes"):
        check_cannot_run_out(deck, 6)


def test_boxes_that_could_empty_the_shoe_are_one_error_line() -> None:
    result = runner.invoke(app, ["edge", "--rules", "deluxe", "--shoe", SMALL_SHOE, "--boxes",
                                 "4"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: a round of 4 boxes could empty this 39-card shoe (up to 40 cards), and then"
        " the exact figures have no meaning: at most 3 boxes here"]


# ---------------------------------------------------------------- count --boxes

def _counter_strategy(counter: BlackjackCounter) -> Strategy:
    """The counter's chart play (no index plays) as the brute force takes a strategy:
    each start its chart cell, split hands' two-card plays and later hits its codes."""
    table = node_table()
    letters = {Action.STAND: "S", Action.HIT: "H", Action.DOUBLE: "D", Action.SPLIT: "P",
               Action.SURRENDER: "R"}

    def strategy(cards: tuple[int, ...], up: int, where: str) -> str:
        if where == "first":
            return letters[counter.chart.code((cards[0], cards[1]), Rank(up)).action]
        code = counter.planner.play_codes(Rank(up))[table.node(cards)]
        return "D" if code & CODE_DOUBLE else ("H" if code & CODE_HIT else "S")

    return strategy


@pytest.mark.parametrize("shoe", [(1, 0, 0, 0, 0, 0, 1, 2, 2, 7), (1, 1, 0, 0, 0, 0, 1, 2, 2, 6)])
def test_a_counted_round_of_two_boxes_agrees_with_the_casino_order_brute_force(
        shoe: tuple[int, ...]) -> None:
    """count --boxes 2: a round's EV, second moment (of both boxes' total) and covariance
    between the boxes, from a tiny shoe left in a counted shoe, against the brute force
    playing the counter's chart: to 1e-12 (deluxe: peek, double any two, DAS, surrender
    against 2-9)."""
    rules = blackjack_rules("deluxe", ["decks=1"])
    counter = blackjack_counter(rules, cut_card=30, boxes=2)
    plan = counter.plan(Shoe.from_counts(shoe), 0.0, moments=True)
    m = box_moments(shoe, 2, _counter_strategy(counter), BoxRules(peek=True))
    assert plan.ev == pytest.approx(float(m.ev[0] + m.ev[1]), abs=1e-12)
    total_second = m.total_variance + (m.ev[0] + m.ev[1]) ** 2
    assert plan.second_moment == pytest.approx(float(total_second), abs=1e-12)
    assert plan.covariance == pytest.approx(float(m.covariance(0, 1)), abs=1e-12)


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_count_boxes_reports_the_covariance_between_boxes() -> None:
    """A short run from a shoe rich in tens (so that no round of two boxes can empty it
    at the cut card): the JSON keys of the contract, and the round's variance includes
    the covariance (SD of two boxes above sqrt(2) x one box's is what a positive
    covariance does; worked from the run's own figures below)."""
    shoe = "A=4,2=1,3=1,4=1,5=1,6=4,7=4,8=4,9=4,T=24"
    args = ["count", "--rules", "deluxe", "--shoe", shoe, "--cut-card", "30", "--rounds",
            "6", "--moment-every", "1", "--format", "json"]
    two = json.loads(runner.invoke(app, [*args, "--boxes", "2"]).stdout)
    one = json.loads(runner.invoke(app, args).stdout)
    assert two["boxes"] == 2 and "boxes" not in one
    cov = two["covariance_between_boxes"]
    assert set(cov) == {"value", "se"} and cov["value"] > 0.3
    assert two["ev_off_the_top"] == pytest.approx(2 * one["ev_off_the_top"], abs=1e-12)
    assert two["sd_per_round"] > math.sqrt(2) * one["sd_per_round"] * 0.9


def test_count_boxes_refuses_a_shoe_a_round_of_them_could_empty_at_the_cut_card() -> None:
    """One deck, 20 cards behind the cut card: a round of two boxes could take 30
    (test_the_most_cards_a_round_of_boxes_can_take_from_one_deck's bound)."""
    result = runner.invoke(app, ["count", "--rules", "deluxe", "--decks", "1", "--boxes", "2"])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --boxes 2: a round could take up to 30 cards, more than the 21 a round can"
        " start from at the cut card; deal fewer boxes or less of the shoe"]


def test_a_box_ramp_plays_its_boxes_from_its_count_up() -> None:
    """--box-ramp 2:2: one box below true count +2 (floored), two from it; a round of two
    boxes has twice one box's EV (E[X_1 + X_2] = 2 E[X_1])."""
    rules = blackjack_rules("deluxe", ["decks=1"])
    single = blackjack_counter(rules, cut_card=30)
    ramped = blackjack_counter(rules, cut_card=30, box_ramp=((2, 2),))
    assert [ramped.boxes_at(tc) for tc in (-3.0, 1.99, 2.0, 5.5)] == [1, 1, 2, 2]
    top = Shoe.full(1)
    one = single.plan(top, 0.0, moments=False).ev
    assert ramped.plan(top, 1.5, moments=False).ev == one
    assert ramped.plan(top, 2.5, moments=False).ev == pytest.approx(2 * one, abs=1e-15)


@pytest.mark.parametrize(("ramp", "message"), [
    ("2:x", "error: --box-ramp: '2:x' is not TC:BOXES (whole numbers, e.g. 2:2)"),
    ("2:8", "error: --box-ramp: 2:8: boxes must be 1 to 7"),
    ("2:2,2:3", "error: --box-ramp: the count 2 is given twice")])
def test_a_bad_box_ramp_is_one_error_line(ramp: str, message: str) -> None:
    result = runner.invoke(app, ["count", "--rules", "deluxe", "--box-ramp", ramp])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [message]
