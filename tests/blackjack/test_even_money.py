"""Even money and insurance in the house edge (RULES.md "Insurance"; issue 28 item 1).

A natural against an ace is worth ``blackjack_pays`` x P(no dealer blackjack) standing,
and 1 with even money. At 3:2 standing is worth more off the top of any full shoe; at
6:5 it is not, so optimal play and the chart take even money, and the house edge falls
by P(player A,T and up A) x (1 - 1.2 x P(no dealer blackjack)), about 0.06 points at
6 decks (Wizard of Odds, "Ask the Wizard" #298: 0.06).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner
from wall_charts import same_chart, wall_chart_pdf

import strategy_calc as sc
from strategy_calc.cards import Shoe
from strategy_calc.cli import app
from strategy_calc.render.chart import chart_markdown, chart_pdf, edge_lines

SIX_TO_FIVE = ["decks=6", "blackjack_pays=1.2"]


def even_money_gain(decks: int, pays: Fraction) -> Fraction:
    """The hand calculation: the up card an ace (4D of 52D), the player's two cards an
    ace and a ten in either order (2 x (4D-1)/(52D-1) x 16D/(52D-2)); the dealer's hole
    card a ten with chance (16D-1)/(52D-3); even money 1 against standing's
    ``pays`` x P(no blackjack)."""
    n = 52 * decks
    p_deal = Fraction(4 * decks, n) * 2 * Fraction(4 * decks - 1, n - 1) * Fraction(
        16 * decks, n - 2)
    no_bj = 1 - Fraction(16 * decks - 1, n - 3)
    return p_deal * (1 - pays * no_bj)


def game(*sets: str) -> sc.GameAnalysis:
    return sc.analyse_game(sc.blackjack_rules("deluxe", [*SIX_TO_FIVE, *sets]))


@pytest.mark.slow
def test_at_6_to_5_even_money_lowers_the_house_edge_by_the_hand_calculation() -> None:
    """6 decks: 0.0035234 x 0.16893 = 0.060 points, optimal play and the chart alike."""
    gain = even_money_gain(6, Fraction(6, 5))
    assert abs(float(gain) - 0.0005952) < 1e-7  # the 0.060 points
    taken, declined = game("even_money=true"), game("even_money=false")
    assert taken.ev_optimal - declined.ev_optimal == pytest.approx(float(gain), abs=1e-12)
    assert taken.ev_basic - declined.ev_basic == pytest.approx(float(gain), abs=1e-12)


@pytest.mark.slow
def test_at_6_to_5_the_chart_shows_even_money_as_a_play() -> None:
    """The natural's cell (A,T) against an ace reads ``E``; against a ten (no even money
    offered there in Deluxe) it stands; the legend explains ``E``."""
    chart = game("even_money=true")
    assert chart.soft[21]["A"] == "E" and chart.soft[21]["T"] == "S"
    assert not chart.insure  # a full shoe: a third of the cards are never tens
    text = chart_markdown(chart)
    assert "`E` even money" in text


@pytest.mark.slow
def test_at_3_to_2_even_money_changes_nothing() -> None:
    """Standing is worth 1.5 x 214/309 = 1.039 > 1 at 6 decks (and more with fewer
    decks), so the chart stands and both house edges are the same to the last bit."""
    pays = Fraction(3, 2)
    assert even_money_gain(6, pays) < 0 and even_money_gain(1, pays) < 0
    rules = ["decks=6", "blackjack_pays=1.5"]
    taken = sc.analyse_game(sc.blackjack_rules("deluxe", [*rules, "even_money=true"]))
    declined = sc.analyse_game(sc.blackjack_rules("deluxe", [*rules, "even_money=false"]))
    assert taken.soft[21]["A"] == "S"
    assert (taken.ev_basic, taken.ev_optimal) == (declined.ev_basic, declined.ev_optimal)


def test_insurance_pays_for_the_chart_when_a_third_of_the_cards_left_are_tens() -> None:
    """One card each of A..9 and six tens, the up card an ace: 14 cards left, 6 of them
    tens. The player's two cards hold t tens (E[t] = 2 x 6/14 = 6/7), so the hole card is
    a ten with chance (6 - t)/12, on average (6 - 6/7)/12 = 3/7 > 1/3: insuring every
    start is worth more than declining all, and the chart insures. A full shoe never
    is that rich (at most 16/49 of the cards left are tens)."""
    assert (6 - Fraction(6, 7)) / 12 == Fraction(3, 7) > Fraction(1, 3)
    shoe = Shoe.from_counts((1, 1, 1, 1, 1, 1, 1, 1, 1, 6))
    rich = sc.analyse_game(sc.blackjack_rules("deluxe", ["decks=1"]), shoe=shoe)
    assert rich.insure
    assert "insurance taken against an ace" in "\n".join(edge_lines(rich))
    assert not sc.analyse_game(sc.blackjack_rules("deluxe", ["decks=1"])).insure


@pytest.mark.slow
def test_sweep_shows_the_effect_of_even_money_at_6_to_5() -> None:
    """``sweep --vary even_money=true,false`` used to show exactly 0."""
    result = CliRunner().invoke(app, [
        "sweep", "--rules", "deluxe", "--set", "decks=6", "--set", "blackjack_pays=1.2",
        "--vary", "even_money=true,false", "--json"])
    assert result.exit_code == 0, result.output
    rows = {row["overrides"].get("even_money"): row for row in json.loads(result.stdout)["rows"]}
    gain = float(even_money_gain(6, Fraction(6, 5)))
    assert rows["true"]["effect"] == pytest.approx(-100 * gain, abs=1e-9)  # points
    assert rows["false"]["effect"] == 0.0  # Deluxe offers no even money: the base


@pytest.mark.render
@same_chart("deluxe", 6)  # the 3:2 chart is the built-in one test_wall_chart.py typesets
def test_the_wall_chart_legend_lists_even_money_at_6_to_5() -> None:
    """The PDF's legend lists only the codes used: ``E`` at 6:5, not at 3:2."""
    import io

    import pypdf

    def legend(pdf: bytes) -> str:
        return str(pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text())

    six_to_five = sc.blackjack_rules("deluxe", [*SIX_TO_FIVE, "even_money=true"])
    assert "even money (take 1:1" in legend(chart_pdf(sc.analyse_game(six_to_five)))
    assert sc.blackjack_rules("deluxe", ["decks=6"]) == sc.blackjack_rules("deluxe", decks=6)
    assert "even money" not in legend(wall_chart_pdf("deluxe", 6))
