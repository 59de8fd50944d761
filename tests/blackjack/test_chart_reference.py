"""The generated basic-strategy chart against the published 6-deck chart (docs/REFERENCE.md).

Source row: "Basic strategy chart, 6 decks S17, DAS, double any two, late
surrender, peek" and its H17 differences (wizardofodds.com basic strategy;
Wikipedia; blackjackinfo.com).
"""

from __future__ import annotations

import pytest

from strategy_calc.blackjack.game_analysis import UP_ORDER, GameAnalysis, analyse_game
from strategy_calc.rules import blackjack_rules

UPS = [u.symbol for u in UP_ORDER]


def row(text: str) -> list[str]:
    """Expand the reference notation, e.g. 'S x5, H H H Rh H' or 'Dh x8, H H'."""
    out: list[str] = []
    for part in text.replace(",", " ").split():
        if part.startswith("x"):
            out += [out[-1]] * (int(part[1:]) - 1)
        else:
            out.append(part)
    assert len(out) == 10, text
    return out


HARD = {
    **{t: row("H x10") for t in (5, 6, 7, 8)},
    9: row("H Dh Dh Dh Dh H H H H H"),
    10: row("Dh x8, H H"),
    11: row("Dh x9, H"),
    12: row("H H S S S H H H H H"),
    13: row("S x5, H x5"),
    14: row("S x5, H x5"),
    15: row("S x5, H H H Rh H"),
    16: row("S x5, H H Rh Rh Rh"),
    **{t: row("S x10") for t in (17, 18, 19, 20, 21)},
}
SOFT = {
    13: row("H H H Dh Dh H H H H H"),
    14: row("H H H Dh Dh H H H H H"),
    15: row("H H Dh Dh Dh H H H H H"),
    16: row("H H Dh Dh Dh H H H H H"),
    17: row("H Dh Dh Dh Dh H H H H H"),
    18: row("S Ds Ds Ds Ds S S H H H"),
    19: row("S x10"), 20: row("S x10"), 21: row("S x10"),
}
PAIRS = {
    "2": row("Ph Ph P P P P H H H H"),
    "3": row("Ph Ph P P P P H H H H"),
    "4": row("H H H Ph Ph H H H H H"),
    "5": row("Dh x8, H H"),
    "6": row("Ph P P P P H H H H H"),
    "7": row("P P P P P P H H H H"),
    "8": row("P x10"),
    "9": row("P P P P P S P P S S"),
    "T": row("S x10"),
    "A": row("P x10"),
}


@pytest.fixture(scope="module")
def s17() -> GameAnalysis:
    return analyse_game(blackjack_rules("deluxe", ["decks=6", "surrender=late"]))


@pytest.fixture(scope="module")
def h17() -> GameAnalysis:
    return analyse_game(blackjack_rules(
        "deluxe", ["decks=6", "surrender=late", "dealer_hits_soft_17=true"]))


def test_hard_rows_match_the_published_chart(s17: GameAnalysis) -> None:
    for total, cells in HARD.items():
        assert [s17.hard[total][u] for u in UPS] == cells, f"hard {total}"


def test_soft_rows_match_the_published_chart(s17: GameAnalysis) -> None:
    for total, cells in SOFT.items():
        assert [s17.soft[total][u] for u in UPS] == cells, f"soft {total}"


def test_pair_rows_match_the_published_chart(s17: GameAnalysis) -> None:
    for pair, cells in PAIRS.items():
        assert [s17.pairs[pair][u] for u in UPS] == cells, f"pair {pair}"


def test_h17_chart_differs_in_exactly_the_published_cells(
        s17: GameAnalysis, h17: GameAnalysis) -> None:
    """"11 vs A Dh; 15 vs A Rh; 17 vs A Rs; A7 vs 2 Ds; A8 vs 6 Ds; 8,8 vs A Rp"."""
    expected = {("hard", 11, "A"): "Dh", ("hard", 15, "A"): "Rh", ("hard", 17, "A"): "Rs",
                ("soft", 18, "2"): "Ds", ("soft", 19, "6"): "Ds", ("pair", "8", "A"): "Rp"}
    diffs = {}
    for kind, a, b in (("hard", s17.hard, h17.hard), ("soft", s17.soft, h17.soft),
                       ("pair", s17.pairs, h17.pairs)):
        for key in a:
            for up in UPS:
                if a[key][up] != b[key][up]:  # type: ignore[index]
                    diffs[kind, key, up] = b[key][up]  # type: ignore[index]
    assert diffs == expected


def test_house_edge_is_between_optimal_and_a_worse_strategy(s17: GameAnalysis) -> None:
    """Optimal composition-dependent play can only beat the chart."""
    assert s17.ev_optimal >= s17.ev_basic
    assert s17.ev_optimal - s17.ev_basic < 0.001


def test_exceptions_include_the_classic_twelve_vs_four() -> None:
    """The classic composition-dependent exception: T,2 vs 4 hits at 1-2 decks or
    with many tens gone; here at 6 decks the engine lists the two-card
    exceptions it finds, each with a positive gain."""
    game = analyse_game(blackjack_rules("deluxe", ["decks=6", "surrender=late"]))
    assert all(d.gain > 0 for d in game.exceptions)
    two_card = {(tuple(r.symbol for r in d.hand), d.up.symbol) for d in game.exceptions
                if len(d.hand) == 2}
    assert (("2", "T"), "4") in two_card
