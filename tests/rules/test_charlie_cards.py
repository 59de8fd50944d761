"""``charlie_cards``: a hand that reaches that many cards without busting wins its bet at
once (issue 47: five-card Charlie and its kin).

The oracles (``bj_oracle``, ``oracle_round``) read the field from the rules text: "a player
hand reaching that many cards without busting wins at once (even money)"; in a peek game
the dealer's blackjack is settled first, under ENHC a Charlie is paid when it is made and a
dealer blackjack found later does not take it (the field's text). Each test is named after
the part of the rule it checks; the whole rounds are in
tests/blackjack/test_game_vs_oracle.py (``CHARLIE``).
"""

from __future__ import annotations

import json
from pathlib import Path

import bj_oracle as oracle
import pytest
from one_hand import assert_hand_evs_equal_the_oracle
from typer.testing import CliRunner

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Card, Rank, Shoe, parse_cards
from strategy_calc.cli import app
from strategy_calc.rules import BlackjackRules, RulesError
from strategy_calc.rules.describe import describe_ruleset

runner = CliRunner()
TOL = 1e-12


def _engine_split(rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...],
                  strategy: str) -> float:
    """``hand``'s split EV of ``pair`` against ``up`` when ``shoe`` is left after them."""
    start = [n + (i == pair - 1) * 2 + (i == up - 1) for i, n in enumerate(shoe)]
    value = analyse_hand([Card(Rank(pair)), Card(Rank(pair))], Card(Rank(up)), rules,
                         shoe=Shoe.from_counts(start), split_strategy=strategy).ev["split"]
    assert value is not None
    return value


def _one_deck(**fields: object) -> BlackjackRules:
    return BlackjackRules(**{"decks": 1, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [1, 4, 22, -5])
def test_charlie_cards_is_0_or_5_to_21(bad: int) -> None:
    with pytest.raises(RulesError, match="charlie_cards"):
        BlackjackRules(charlie_cards=bad)
    assert BlackjackRules(charlie_cards=5).is_charlie(5)
    assert not BlackjackRules(charlie_cards=0).is_charlie(9)


@pytest.mark.parametrize("bad", ["4", "five", "5.5", "99"])
def test_charlie_cards_bad_value_on_the_command_line_is_one_error_line(bad: str) -> None:
    result = runner.invoke(app, ["edge", "--set", f"charlie_cards={bad}"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "charlie_cards" in lines[0]


def test_charlie_cards_bad_value_in_a_toml_file_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('base = "deluxe"\ncharlie_cards = "5"\n')
    result = runner.invoke(app, ["hand", "T,6", "--vs", "T", "--rules", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "charlie_cards" in lines[0]


def test_charlie_cards_shows_in_rules_with_its_meaning_and_source() -> None:
    for name in ("macau-1983", "deluxe"):
        field = next(f for f in describe_ruleset(name).fields if f.name == "charlie_cards")
        assert field.value == 0 and "wins its bet at once" in field.meaning
        assert "ENHC" in field.meaning and field.source
    data = json.loads(runner.invoke(app, ["rules", "deluxe", "--json"]).stdout)
    assert data["fields"]["charlie_cards"]["value"] == 0


HANDS = [("2,2,3,4", "T"), ("2,3,A", "6"), ("A,2,2,3", "A"), ("2,3", "T"), ("4,2,A,2", "9")]


@pytest.mark.parametrize("fields", [
    {"charlie_cards": 5}, {"charlie_cards": 5, "hole_card": "enhc"},
    {"charlie_cards": 6, "dealer_hits_soft_17": True},
    {"charlie_cards": 5, "hole_card": "enhc", "enhc_loses": "original"},
], ids=["5-peek", "5-enhc", "6-h17", "5-enhc-original"])
@pytest.mark.parametrize(("hand", "up"), HANDS)
def test_charlie_hand_evs_equal_the_oracle(fields: dict[str, object], hand: str, up: str
                                           ) -> None:
    """``hand``: stand, hit and double of hands of two to four cards, one deck, against
    ``bj_oracle.hand_evs`` (a hit that makes the Charlie is paid 1 at once)."""
    assert_hand_evs_equal_the_oracle(hand, up, _one_deck(**fields))


def test_a_hand_that_is_a_charlie_wins_its_bet_and_says_so() -> None:
    got = analyse_hand("2,2,2,3,4", "T", _one_deck(charlie_cards=5), outcomes=True)
    assert got.ev["stand"] == 1.0 and got.ev["hit"] is None
    assert any("Charlie" in note for note in got.notes)
    assert got.outcomes is not None and got.outcomes["stand"] == {"win": 1.0, "push": 0.0,
                                                                  "lose": 0.0}


def test_a_charlie_changes_the_value_of_hitting_four_cards() -> None:
    """The rule bites: hitting 2,2,3,4 (hard 11, four cards) against a ten makes five cards
    that no card can bust: a Charlie for sure, worth 1 exactly."""
    plain = analyse_hand("2,2,3,4", "T", _one_deck()).ev["hit"]
    charlie = analyse_hand("2,2,3,4", "T", _one_deck(charlie_cards=5)).ev["hit"]
    assert plain is not None and charlie == pytest.approx(1.0, abs=TOL) and plain < 1.0


# (rules, pair, up, shoe after the pair and the up card): split hands make Charlies too
# (12 cards: a few CPU-seconds per brute force)
# 2,2 vs T with 11 cards left (a five-card split hand is still a Charlie there: the rule
# adds 0.38 to the split; 2.8 and 1.1 CPU-s, the 12-card shoe with a second 2 left took
# 5.1 and 1.8)
SPLITS = [
    (_one_deck(charlie_cards=5), 2, 10, (1, 1, 2, 1, 1, 1, 1, 0, 0, 3)),
    (_one_deck(charlie_cards=5, hole_card="enhc", enhc_loses="original"), 2, 10,
     (1, 1, 2, 1, 1, 1, 1, 0, 0, 3)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"), SPLITS)
def test_charlie_split_values_equal_the_casino_order_brute_forces(
        rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    """A split hand of five cards is a Charlie: ``cdp1`` against the oracle's split
    brute force (each hand its own best play, both from one shoe), ``optimal`` against its
    fully optimal split, to 1e-12 (both conditioned on no dealer blackjack in peek)."""
    cdp1 = oracle.split_ev_bruteforce(pair, up, shoe, rules)
    optimal = oracle.split_ev_optimal_bruteforce(pair, up, shoe, rules)
    assert cdp1 is not None and optimal is not None
    assert abs(_engine_split(rules, pair, up, shoe, "cdp1") - float(cdp1)) < TOL
    assert abs(_engine_split(rules, pair, up, shoe, "optimal") - float(optimal)) < TOL
    plain = BlackjackRules(**{**{f: getattr(rules, f) for f in rules.__slots__},
                              "charlie_cards": 0})
    # the rule bites: without it the split is worth less (valued by the engine, which the
    # split tests prove equal to this brute force without the rule)
    assert _engine_split(plain, pair, up, shoe, "cdp1") < float(cdp1) - TOL


def test_a_counted_round_ends_a_charlie_at_once() -> None:
    """``count``'s play-out: a hand that reaches five cards is settled there (it draws no
    more, and the dealer has nothing left to settle), where without the rule it hits on."""
    from strategy_calc.actions import Action
    from strategy_calc.blackjack.playout import RoundPlan, play_round
    from strategy_calc.rules import blackjack_rules

    # 2 (player), T (up), 2 (player), 9 (the hole card); every later decision hits
    plan = RoundPlan(0.0, None, {(10, 2, 2, False): Action.HIT}, {10: bytes([2] * 8192)},
                     frozenset())
    cards = parse_cards("2,T,2,9,3,A,2,4,5,T")
    # 2,2,3,A,2 is a Charlie at the 7th card; without the rule 2,2,3,A,2,4,5,T busts
    assert play_round(blackjack_rules("deluxe", ["charlie_cards=5"]), cards, 0, plan) == 7
    assert play_round(blackjack_rules("deluxe"), cards, 0, plan) == 10
