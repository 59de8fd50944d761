"""``edge --strategy optimal`` computes optimal play alone (no chart:
``strategy_calc.blackjack.game_analysis.optimal_edge``); its figures are the whole analysis's to the
bit, and meet the published figure the whole analysis meets."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.game_analysis import analyse_game, optimal_edge
from strategy_calc.cli import app
from strategy_calc.rules import blackjack_rules

runner = CliRunner()


@pytest.mark.parametrize(("name", "sets", "split_strategy"), [
    ("deluxe", ["decks=8", "surrender=none"], "cdp1"),
    ("macau-1983", ["decks=1"], "cdp1"),
    ("deluxe", ["decks=2", "max_split_hands=4", "dealer_hits_soft_17=true"], "cdp"),
    ("deluxe", ["decks=1", "hole_card=enhc"], "cdz"),
])
def test_optimal_play_alone_gives_the_whole_analysis_optimal_figures(
        name: str, sets: list[str], split_strategy: str) -> None:
    rules = blackjack_rules(name, sets)
    alone = optimal_edge(rules, split_strategy=split_strategy)
    whole = analyse_game(rules, split_strategy=split_strategy)
    assert alone.ev_optimal == whole.ev_optimal
    assert alone.by_up_card("optimal") == whole.by_up_card("optimal")


def test_edge_optimal_meets_wizard_of_odds_appendix_9_at_one_deck() -> None:
    """Wizard of Odds, appendix 9 (the optimal-play return of 1 deck, S17, DAS, resplits
    to 4, no surrender): +0.1839% (docs/REFERENCE.md)."""
    out = runner.invoke(app, ["edge", "--rules", "deluxe", "--decks", "1", "--set",
                              "max_split_hands=4", "--set", "surrender=none", "--strategy",
                              "optimal", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert abs(data["ev"] - 0.001839) < 1e-5
    assert data["ev"] == data["ev_optimal"] and len(data["by_up_card"]) == 10
