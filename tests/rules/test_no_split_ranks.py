"""``no_split_ranks``: pairs of the ranks it names may not be split (issue 47, SJM's "no
splitting aces"; tables that forbid splitting fours, fives or tens).

Each test is named after the part of the rule it checks. The whole rounds (optimal play,
the chart and the round distribution) against the casino-order brute force are in
tests/blackjack/test_game_vs_oracle.py (``NO_SPLIT``).
"""

from __future__ import annotations

import json
from pathlib import Path

import bj_oracle as oracle
import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.blackjack.split.plan import split_plans
from strategy_calc.cards import Rank
from strategy_calc.cli import app
from strategy_calc.counting.indices import index_matrix
from strategy_calc.rules import BlackjackRules, RulesError, blackjack_rules
from strategy_calc.rules.describe import describe_ruleset

runner = CliRunner()
TOL = 1e-12


@pytest.mark.parametrize(("given", "kept"), [
    ("", ""), ("none", ""), ("A", "A"), ("4,5,T", "4,5,T"), ("t, 5 ,4", "4,5,T"),
    ("45T", "4,5,T"), ("K", "T"), ("10,J", "T"), ("8 8", "8"),
])
def test_no_split_ranks_is_read_as_ranks_in_rank_order(given: str, kept: str) -> None:
    """The field's text: rank symbols separated by commas or spaces, or run together; J,
    Q, K and 10 are T (a ten-valued pair); kept once each, in rank order."""
    assert BlackjackRules(no_split_ranks=given).no_split_ranks == kept


@pytest.mark.parametrize("bad", ["X", "1", "4,Z", "11", "A;8", "B"])
def test_no_split_ranks_refuses_what_is_not_a_rank(bad: str) -> None:
    with pytest.raises(RulesError, match="no_split_ranks"):
        BlackjackRules(no_split_ranks=bad)


@pytest.mark.parametrize("bad", ["X", "4,Z", "1"])
def test_no_split_ranks_bad_value_on_the_command_line_is_one_error_line(bad: str) -> None:
    result = runner.invoke(app, ["hand", "8,8", "--vs", "T", "--set", f"no_split_ranks={bad}"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "no_split_ranks" in lines[0]


def test_no_split_ranks_bad_value_in_a_toml_file_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('base = "deluxe"\nno_split_ranks = 8\n')
    result = runner.invoke(app, ["hand", "8,8", "--vs", "T", "--rules", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "no_split_ranks" in lines[0]


def test_no_split_ranks_shows_in_rules_with_its_meaning_and_source() -> None:
    for name in ("macau-1983", "deluxe"):
        field = next(f for f in describe_ruleset(name).fields if f.name == "no_split_ranks")
        assert field.value == ""
        assert "may not be split" in field.meaning
        assert field.source
    data = json.loads(runner.invoke(app, ["rules", "macau-1983", "--json"]).stdout)
    assert "Art. 10" in json.dumps(data["fields"]["no_split_ranks"])


def test_the_split_plan_of_a_forbidden_pair_allows_no_split() -> None:
    plans = split_plans(blackjack_rules("deluxe", ["max_split_hands=4", "no_split_ranks=A,8"]))
    assert not plans[Rank.ACE].allowed and not plans[Rank.EIGHT].allowed
    assert plans[Rank.NINE].max_hands == 4 and plans[Rank.TEN].max_hands == 4


def test_a_forbidden_pair_has_no_split_action_and_a_note_says_why() -> None:
    """``hand``: the split is absent (null in JSON) with a note naming the rule; every other
    action is the unsplit hand's, as without the rule."""
    rules = blackjack_rules("macau-1983", ["no_split_ranks=A"])
    got = analyse_hand("A,A", "6", rules)
    plain = analyse_hand("A,A", "6", blackjack_rules("macau-1983"))
    assert got.ev["split"] is None and plain.ev["split"] is not None
    assert {a: v for a, v in got.ev.items() if a != "split"} == {
        a: v for a, v in plain.ev.items() if a != "split"}
    assert any("no_split_ranks = A" in note for note in got.notes)
    for strategy in ("optimal", "postsplit", "cdz"):
        asked = analyse_hand("A,A", "6", rules, split_strategy=strategy)
        assert asked.ev["split"] is None and any("no_split_ranks" in n for n in asked.notes)


@pytest.mark.parametrize(("pair", "up"), [(8, 10), (9, 6), (1, 5)])
def test_split_values_of_other_pairs_do_not_change_and_the_oracle_agrees(pair: int, up: int
                                                                         ) -> None:
    """The oracle (bj_oracle.split_ev, from the rules text) refuses the named pairs and
    values the others as without the rule; so does the engine, to 1e-12, one deck."""
    rules = blackjack_rules("deluxe", ["decks=1", "no_split_ranks=4,5,T,8"])
    shoe = oracle.remove(oracle.full_shoe(1), [pair, pair, up])
    want = oracle.split_ev(pair, up, shoe, rules)
    symbol = Rank(pair).symbol
    got = analyse_hand(f"{symbol},{symbol}", Rank(up).symbol, rules).ev["split"]
    if pair == 8:
        assert want is None and got is None
    else:
        assert want is not None and got is not None
        # split_ev is the exact peek EV given no dealer blackjack, as hand's
        assert abs(float(want) - got) < TOL


def test_the_optimal_split_brute_force_refuses_a_forbidden_pair() -> None:
    rules = blackjack_rules("deluxe", ["decks=1", "no_split_ranks=8"])
    shoe = (1, 1, 1, 1, 1, 1, 1, 2, 1, 5)
    assert oracle.split_ev_optimal_bruteforce(8, 10, shoe, rules) is None
    assert oracle.split_ev_resplit_bruteforce(8, 10, shoe, rules) is None


def test_no_splitting_aces_costs_what_the_aces_split_was_worth_one_deck() -> None:
    """Off the top of one deck, deluxe: forbidding split aces lowers the optimal EV by the
    aces' gain from splitting, summed over the deals that split them (the chart's edge
    moves the same way); measured 2026-12-07: 0.1636 points of edge."""
    base = analyse_game(blackjack_rules("deluxe", ["decks=1"]))
    noa = analyse_game(blackjack_rules("deluxe", ["decks=1", "no_split_ranks=A"]))
    assert noa.ev_optimal < base.ev_optimal and noa.ev_basic < base.ev_basic
    assert all("P" not in code for code in noa.chart.pairs["A"].values())


def test_the_indices_leave_out_a_forbidden_split() -> None:
    """``indices``: the split index of a pair the rules forbid splitting is not offered."""
    rules = blackjack_rules("deluxe", ["decks=1", "no_split_ranks=T"])
    cell = index_matrix(rules, hand="T,T", up="6").cells[0]
    assert all("split" not in row.decision.actions for row in cell.rows)
    allowed = index_matrix(blackjack_rules("deluxe", ["decks=1"]), hand="T,T", up="6").cells[0]
    assert any("split" in row.decision.actions for row in allowed.rows)


def test_no_split_ranks_in_a_sweep_takes_the_run_together_form() -> None:
    result = runner.invoke(app, ["sweep", "--rules", "deluxe", "--set", "decks=1", "--vary",
                                 "no_split_ranks=none,A,45T", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["rows"]
    assert [r["overrides"].get("no_split_ranks") for r in rows] == [None, "none", "A", "45T"]
    assert rows[1]["effect"] == 0.0 and rows[2]["effect"] > 0 and rows[3]["effect"] > 0


def test_a_counted_run_never_splits_a_forbidden_pair() -> None:
    """``count``: the counter plays the chart of its shoe; a pair the rules forbid
    splitting has no split in it, so the run's rounds are those of the unsplit hand."""
    from strategy_calc.counting.counter import blackjack_counter

    rules = blackjack_rules("deluxe", ["decks=1", "no_split_ranks=A,8"])
    chart = blackjack_counter(rules).chart
    for pair in (Rank.ACE, Rank.EIGHT):
        for up in Rank:
            assert chart.code((int(pair), int(pair)), up).action != "split"
    allowed = blackjack_counter(blackjack_rules("deluxe", ["decks=1"])).chart
    assert allowed.code((8, 8), Rank.SIX).action == "split"
