"""Shoes of more than 12 decks (issue 47): exact like the others, labelled by their decks.

The engine takes up to 100,000 cards of a rank (6,250 decks); 12 was a limit of the
rules records, not of the engine. The figures are checked against the rational oracle
(tests/oracles/bj_oracle, written from the rules text) at 13 and 20 decks, and their
approach to the infinite deck (tests/oracles/infinite_deck_oracle, every card drawn
with replacement) as the decks grow.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import replace

import bj_oracle as oracle
import infinite_deck_oracle as infinite
import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.hand_analysis import analyse_hand, dealer_outcomes
from strategy_calc.cards import MAX_DECKS, Card, Rank, Shoe, decks_holding
from strategy_calc.cli import app, run
from strategy_calc.rules import BlackjackRules, blackjack_rules

runner = CliRunner()
TOL = 1e-12
PEEK = BlackjackRules(hole_card="peek", surrender="none", bonus_777=0.0,
                      bonus_suited_678=0.0, double_on="any")
ENHC = replace(PEEK, hole_card="enhc", enhc_loses="all")


def _ranks(*ranks: int) -> list[Card]:
    return [Card(Rank(r)) for r in ranks]


@pytest.mark.parametrize(("decks", "rules", "hand", "up"), [
    (13, PEEK, (10, 6), 10), (20, PEEK, (10, 6), 10), (20, ENHC, (1, 7), 9)])
# (each hand of many hits costs the oracle 0.7-1.2 s: one, soft, is enough here)
def test_a_hand_of_more_than_twelve_decks_equals_the_rational_oracle(
        decks: int, rules: BlackjackRules, hand: tuple[int, int], up: int) -> None:
    rules = replace(rules, decks=decks)
    shoe = oracle.remove(oracle.full_shoe(decks), [*hand, up])
    want = oracle.hand_evs(hand, up, shoe, rules)
    got = analyse_hand(_ranks(*hand), Card(Rank(up)), rules, []).ev
    for action in ("stand", "hit", "double"):
        assert abs(got[action] - float(want[action])) <= TOL, (action, got, want)


def test_the_dealer_of_a_twenty_deck_shoe_equals_the_rational_oracle() -> None:
    counts = oracle.full_shoe(20)
    for up in range(1, 11):
        shoe = oracle.remove(counts, [up])
        want = oracle.dealer_distribution(shoe, up, False)
        got = dealer_outcomes(Shoe.from_counts(shoe, 20), Rank(up), replace(ENHC, decks=20))
        for key, value in want.items():
            assert abs(got[key] - float(value)) <= TOL, (up, key)


def test_a_shoe_is_labelled_by_the_fewest_whole_decks_that_hold_it() -> None:
    # 1000 decks of 52 cards, and one card more (not whole decks: the next deck up)
    assert (decks_holding(52_000), decks_holding(52_001), decks_holding(53)) == (1000, 1001, 2)
    whole = "A=4000,2=4000,3=4000,4=4000,5=4000,6=4000,7=4000,8=4000,9=4000,T=16000"
    result = runner.invoke(app, ["hand", "T,6", "--vs", "T", "--shoe", whole])
    assert result.exit_code == 0 and "1000D" in result.stdout.splitlines()[0]
    result = runner.invoke(app, ["hand", "T,6", "--vs", "T", "--json", "--shoe",
                                 whole.replace("A=4000", "A=4001")])
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"] == 1001


@pytest.mark.parametrize(("args", "message"), [
    (["--decks", "0"], "decks must be between 1 and 6250, not 0"),
    (["--decks", "-3"], "decks must be between 1 and 6250, not -3"),
    (["--decks", "2.5"], "'2.5' is not a valid int"),
    (["--set", "decks=2.5"], "invalid value '2.5' for decks"),
    (["--decks", str(MAX_DECKS + 1)], "decks must be between 1 and 6250, not 6251"),
])
def test_a_deck_count_out_of_range_is_one_error_line(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["hand", "T,6", "--vs", "T", *args]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_standing_16_against_a_ten_approaches_the_infinite_deck_as_the_decks_grow() -> None:
    """Removing the player's T, 6 and the dealer's T matters less and less: the distance to
    the with-replacement figure shrinks with the decks (about as 1 / decks)."""
    for rules in (PEEK, ENHC):
        limit = float(infinite.stand(16, 10, h17=False, peek=rules.peek))
        gaps = [analyse_hand(_ranks(10, 6), Card(Rank.TEN), replace(rules, decks=d), []
                             ).ev["stand"] - limit for d in (8, 50, 200, MAX_DECKS)]
        assert all(abs(a) > abs(b) > 0 for a, b in itertools.pairwise(gaps)), gaps
        assert abs(gaps[-1]) < 1e-6, gaps


def test_the_house_edge_off_the_top_moves_monotonically_with_the_decks() -> None:
    edges = [analyse_game(blackjack_rules("deluxe", decks=d)).ev_optimal
             for d in (8, 50, 200)]
    # worse with every deck, by ever smaller steps (8 to 50, then 50 to 200): toward a limit
    assert edges[0] - edges[1] > edges[1] - edges[2] > 0, edges


# Wizard of Odds, blackjack appendix 1 (docs/REFERENCE.md, "Infinite deck"): an infinite
# deck, S17, peek, double after split, split to four hands but aces, one card to split
# aces. The player's return by standing (given no dealer blackjack), to four places, for
# 16 or less .. 21 against up cards 2..9, T, A; and the house edge of the whole game.
WOO_STAND = {
    16: (-0.2928, -0.2523, -0.2111, -0.1672, -0.1537, -0.4754, -0.5105, -0.5431, -0.5404,
         -0.667),
    17: (-0.153, -0.1172, -0.0806, -0.0449, 0.0117, -0.1068, -0.382, -0.4232, -0.4197,
         -0.478),
    18: (0.1217, 0.1483, 0.1759, 0.1996, 0.2834, 0.3996, 0.106, -0.1832, -0.1783, -0.1002),
    19: (0.3863, 0.4044, 0.4232, 0.4395, 0.496, 0.616, 0.5939, 0.2876, 0.0631, 0.2776),
    20: (0.64, 0.6503, 0.661, 0.6704, 0.704, 0.7732, 0.7918, 0.7584, 0.5545, 0.6555),
    21: (0.882, 0.8853, 0.8888, 0.8918, 0.9028, 0.9259, 0.9306, 0.9392, 0.9626, 0.9222),
}
WOO_HOUSE_EDGE = 0.00511734
UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def test_the_with_replacement_oracle_stands_as_the_wizard_of_odds_infinite_deck() -> None:
    for total, row in WOO_STAND.items():
        for up, published in zip(UPS, row, strict=True):
            exact = infinite.stand(total, up, h17=False, peek=True)
            assert abs(float(exact) - published) <= 0.5e-4 + 1e-12, (total, up)


def test_the_house_edge_at_6250_decks_is_within_the_deck_effect_of_the_infinite_deck() -> None:
    """About 6.4e-6 off at 1000 decks and 1.0e-6 at 6,250 (as 1 / decks): the figures of
    many decks close in on the published infinite-deck edge."""
    rules = replace(blackjack_rules("deluxe"), surrender="none", max_split_hands=4)
    gaps = [analyse_game(replace(rules, decks=d)).ev_optimal + WOO_HOUSE_EDGE
            for d in (1000, MAX_DECKS)]
    assert abs(gaps[1]) < abs(gaps[0]) / 5 and abs(gaps[1]) < 2e-6, gaps
