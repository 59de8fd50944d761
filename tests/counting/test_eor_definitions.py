"""Effects of removal: Wizard of Odds' Appendix 7 reproduced digit for digit, and the
``fixed-chart`` definition's exact zero sum (issue 28 item 4).

The published table (wizardofodds.com/games/blackjack/appendix/7/, "Effect of Card
Removal in Blackjack", last updated 2019-01-20; source: k_c's composition-dependent
combinatorial analyser): "the effect on the player's expected value by removing one of
each given card from a six-deck shoe ... double on any two cards, double after split
allowed, split anything only once, and strategy adjustments for the changed deck
composition", in % to three decimals, S17 and H17. Its surrender rule is not stated;
the twenty digits are reproduced by ``eor``'s default definition (one card out, the
play re-optimised) under late surrender against a ten or an ace, and by no other rule
we tried (docs/REFERENCE.md "Effects of removal").
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.cards import RANKS, Card, Shoe
from strategy_calc.cli import app
from strategy_calc.counting.effects import DECK_WEIGHTS, effects_of_removal
from strategy_calc.rules import BlackjackRules, blackjack_rules

WIZARD_APPENDIX_7 = {
    # rank: (S17, H17), % of the initial bet, as published (three decimals)
    "2": (0.069, 0.071), "3": (0.082, 0.086), "4": (0.110, 0.117), "5": (0.141, 0.143),
    "6": (0.079, 0.084), "7": (0.041, 0.038), "8": (-0.008, -0.010), "9": (-0.040, -0.045),
    "T": (-0.091, -0.097), "A": (-0.094, -0.084),
}
"""Wizard of Odds, Appendix 7, six decks (see the module docstring)."""

HALF_DIGIT = 0.0005 + 1e-9
"""A figure rounded to three decimals (in %) is within half a unit of the third of them."""


def wizard_rules(h17: bool, surrender: str = "late_vs_ten_ace") -> BlackjackRules:
    """His game: 6 decks, peek, DOA, DAS, split once (no resplit), S17 or H17."""
    return blackjack_rules("deluxe", ["decks=6", f"surrender={surrender}",
                                      f"dealer_hits_soft_17={str(h17).lower()}"])


def reoptimised_effect(rules: BlackjackRules, symbol: str, base: float) -> float:
    """One card of ``symbol`` out of the full shoe, the best play for that shoe, minus base."""
    rank = next(r for r in RANKS if r.symbol == symbol)
    shoe = Shoe.full(rules.decks).remove([Card(rank)])
    return analyse_game(rules, shoe=shoe).ev_optimal - base


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
def test_wizard_appendix_7_five_six_ten_ace_are_reproduced_to_the_published_digit(
        h17: bool) -> None:
    """The two figures issue 28 quotes (5: 0.141% S17, 0.143% H17; T: -0.091%, -0.097%),
    8-13% above what ``eor`` gave without surrender, and the 6 and the ace (0.079%, 0.084%;
    -0.094%, -0.084%): the default definition under his game gives them within the
    published rounding. (The other six are in the slow test below; five passes here,
    ~0.2 s.)"""
    rules = wizard_rules(h17)
    base = analyse_game(rules).ev_optimal
    column = 1 if h17 else 0
    for symbol in "56TA":
        got = 100 * reoptimised_effect(rules, symbol, base)
        assert abs(got - WIZARD_APPENDIX_7[symbol][column]) <= HALF_DIGIT, (symbol, got)


@pytest.mark.slow
@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
def test_wizard_appendix_7_whole_table_is_reproduced_by_eor(h17: bool) -> None:
    """All ten ranks of each column, through ``effects_of_removal`` (what ``eor --set
    surrender=late_vs_ten_ace [--set dealer_hits_soft_17=true]`` prints), within the
    published rounding; and the weighted sums agree (published 0.016% S17, 0.012% H17,
    each of 13 rounded terms off by at most 0.0005%)."""
    result = effects_of_removal(wizard_rules(h17))
    column = 1 if h17 else 0
    for symbol, published in WIZARD_APPENDIX_7.items():
        assert abs(100 * result.game[symbol] - published[column]) <= HALF_DIGIT, symbol
    published_sum = sum(DECK_WEIGHTS[r] * WIZARD_APPENDIX_7[r.symbol][column] for r in RANKS)
    assert abs(100 * result.deck_sum - published_sum) <= 13 * HALF_DIGIT


@pytest.mark.slow
@pytest.mark.parametrize("surrender", ["none", "late"])
def test_wizard_appendix_7_is_not_reproduced_without_his_surrender_rule(surrender: str) -> None:
    """What identifies his game: without surrender the 5 is 0.125% (12% low, the gap
    issue 28 reports); with late surrender against every up card (16 vs 9 surrendered
    too) the 5 is 0.143%, 0.002 above his 0.141%: neither is within the rounding."""
    rules = wizard_rules(False, surrender)
    got = 100 * reoptimised_effect(rules, "5", analyse_game(rules).ev_optimal)
    assert abs(got - WIZARD_APPENDIX_7["5"][0]) > 0.001


@pytest.mark.parametrize("name,sets", [
    pytest.param("deluxe", ["decks=1"], id="peek"),
    pytest.param("macau-1983", ["decks=1", "bonus_suited_678=0"], id="enhc",
                 marks=pytest.mark.slow)])
def test_fixed_chart_effects_sum_to_exactly_zero_over_a_deck(name: str, sets: list[str]) -> None:
    """The burned-card identity, by hand: a fixed strategy's EV is unchanged on average
    by burning one unseen card, and the full shoe holds ``4 D w_r`` of rank ``r``, so
    ``sum_r w_r [f(c - e_r) - f(c)] = (N / 4D) * (E[f(c - burned)] - f(c)) = 0`` with
    ``w`` = 1 for A..9 and 4 for T. Under ``fixed-chart`` the chart, its hit/stand policy
    and its insurance are those of the full shoe, so the sum is 0 to float rounding
    (1e-14: ten terms of EVs ~1e-2 carrying ~1e-16 each; measured 1e-15)."""
    rules = blackjack_rules(name, sets)
    fixed = effects_of_removal(rules, definition="fixed-chart")
    assert fixed.ev_full == analyse_game(rules).ev_basic
    assert abs(fixed.deck_sum) < 1e-14


@pytest.mark.slow
def test_reoptimised_effects_sum_to_more_than_zero_at_one_deck() -> None:
    """The contrast that makes the zero above a test of the fixing: re-optimising the play
    for each shoe adds the value of seeing the burned card, 13 times of which is the
    ``reoptimised`` sum; at one deck one card flips many plays (measured 0.0034)."""
    assert effects_of_removal(blackjack_rules("deluxe", ["decks=1"])).deck_sum > 1e-3


def test_eor_definition_flag_json_and_a_bad_name() -> None:
    """``--definition`` is in the JSON (key ``definition``); an unknown one is one
    ``error:`` line and exit status 2."""
    runner = CliRunner()
    out = runner.invoke(app, ["eor", "--decks", "1", "--definition", "fixed-chart", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["definition"] == "fixed-chart" and "chart" in data["definition_text"]
    assert abs(sum(DECK_WEIGHTS[r] * data["game"][r.symbol] for r in RANKS)) < 1e-14
    bad = runner.invoke(app, ["eor", "--decks", "1", "--definition", "scaled"])
    assert bad.exit_code == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("error: ")


@pytest.mark.slow
def test_fixed_chart_round_equals_the_counters_chart_round_on_a_reduced_shoe() -> None:
    """Two code paths, one definition: ``count``'s counter plays the full shoe's chart on
    every shoe it deals (``BlackjackCounter.plan``, its own sums over the pass's table);
    ``chart_round_ev`` does so for ``eor --definition fixed-chart``. On the shoe less a 5
    and less a ten (6 decks, late surrender against T and A, where the full shoe's chart
    surrenders 16 vs T) they agree to float rounding."""
    from strategy_calc.counting.counter import blackjack_counter
    from strategy_calc.counting.effects import chart_round_ev

    rules = wizard_rules(False)
    top = analyse_game(rules)
    counter = blackjack_counter(rules, "basic")
    for symbol in "5T":
        rank = next(r for r in RANKS if r.symbol == symbol)
        shoe = Shoe.full(6).remove([Card(rank)])
        ours = chart_round_ev(rules, top.chart, shoe)
        assert abs(ours - counter.plan(shoe, moments=False).ev) < 1e-14, symbol
