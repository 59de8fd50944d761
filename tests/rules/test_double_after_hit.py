"""``double_after_hit``: doubling on any number of cards (issue 47).

The oracles (``bj_oracle``, ``oracle_round``) read the field from the rules text: "a hand
of three or more cards may double too (bet doubled, exactly one more card, then it
stands), when its best total is one ``double_on`` allows; split hands only where
``double_after_split`` lets them double". Each test is named after the part of the rule
it checks; the whole rounds (optimal and chart EV, both distributions) are in
tests/blackjack/test_game_vs_oracle.py (``DOUBLE_AFTER_HIT``).
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


def _one_deck(**fields: object) -> BlackjackRules:
    return BlackjackRules(**{"decks": 1, "double_after_hit": True, **fields})  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["maybe", "2", "yes please"])
def test_double_after_hit_bad_value_on_the_command_line_is_one_error_line(bad: str) -> None:
    result = runner.invoke(app, ["hand", "2,3,4", "--vs", "6", "--set",
                                 f"double_after_hit={bad}"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "double_after_hit" in lines[0]


def test_double_after_hit_bad_value_in_a_toml_file_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('base = "deluxe"\ndouble_after_hit = "sometimes"\n')
    result = runner.invoke(app, ["edge", "--rules", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "double_after_hit" in lines[0]


def test_double_after_hit_with_a_charlie_is_refused_in_one_error_line() -> None:
    """A Charlie made by a double is not modelled: the two fields together are refused."""
    with pytest.raises(RulesError, match="charlie_cards"):
        BlackjackRules(double_after_hit=True, charlie_cards=5)
    result = runner.invoke(app, ["edge", "--set", "double_after_hit=true",
                                 "--set", "charlie_cards=5"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")


def test_double_after_hit_shows_in_rules_with_its_meaning_and_source() -> None:
    for name in ("macau-1983", "deluxe"):
        field = next(f for f in describe_ruleset(name).fields if f.name == "double_after_hit")
        assert field.value is False and "three or more cards" in field.meaning
        assert field.source
    data = json.loads(runner.invoke(app, ["rules", "deluxe", "--json"]).stdout)
    assert data["fields"]["double_after_hit"]["value"] is False
    assert "DAH" in str(_one_deck()) and "DAH" not in str(BlackjackRules())


def test_may_double_hand_reads_the_rule() -> None:
    """Three or more cards: within ``double_on``'s totals; split hands also need
    ``double_after_split``; without the rule only two cards double."""
    rules = _one_deck(double_on="9-11", double_after_split=False)
    assert rules.may_double_hand(4, 10) and not rules.may_double_hand(3, 12)
    assert not rules.may_double_hand(3, 10, split=True)
    assert not BlackjackRules().may_double_hand(3, 10) and BlackjackRules().may_double_hand(2, 10)


HANDS = [("2,2,3,4", "T"), ("A,A,8", "6"),
         *(pytest.param(*case, marks=pytest.mark.slow) for case in (
             ("2,3,4", "6"), ("A,2,3", "5"), ("2,3,A,2", "9"), ("3,3,4", "A")))]
RULES = [
    pytest.param({}, id="any-peek"),
    pytest.param({"hole_card": "enhc"}, id="any-enhc", marks=pytest.mark.slow),
    pytest.param({"double_on": "9-11"}, id="9-11", marks=pytest.mark.slow),
    pytest.param({"double_on": "10-11", "dealer_hits_soft_17": True}, id="10-11-h17",
                 marks=pytest.mark.slow),
]


@pytest.mark.parametrize("fields", RULES)
@pytest.mark.parametrize(("hand", "up"), HANDS)
def test_double_after_hit_hand_evs_equal_the_oracle(fields: dict[str, object], hand: str,
                                                    up: str) -> None:
    """``hand``: stand, hit and double of hands of three and four cards, one deck, against
    ``bj_oracle.hand_evs`` (double offered where the total allows it; a hit plays on with
    later doubles)."""
    assert_hand_evs_equal_the_oracle(hand, up, _one_deck(**fields))


def test_a_three_card_hand_may_double_only_under_the_rule() -> None:
    """2,3,4 (hard 9) against a 6: no double without the rule; with it, doubling is the
    best play, and the hit is worth more (a later double is open to it)."""
    plain = analyse_hand("2,3,4", "6", BlackjackRules(decks=1)).ev
    late = analyse_hand("2,3,4", "6", _one_deck()).ev
    assert plain["double"] is None and late["double"] is not None
    assert late["double"] > max(late["stand"] or 0.0, late["hit"] or 0.0)  # type: ignore[operator]
    assert late["hit"] > plain["hit"] + 1e-6  # type: ignore[operator]


def _engine_split(rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...],
                  strategy: str) -> float:
    """``hand``'s split EV of ``pair`` against ``up`` when ``shoe`` is left after them."""
    start = [n + (i == pair - 1) * 2 + (i == up - 1) for i, n in enumerate(shoe)]
    value = analyse_hand([Card(Rank(pair)), Card(Rank(pair))], Card(Rank(up)), rules,
                         shoe=Shoe.from_counts(start), split_strategy=strategy).ev["split"]
    assert value is not None
    return value


# (rules, pair, up, shoe after the pair and the up card): split hands of three cards double
SHOE = (0, 1, 2, 1, 1, 1, 1, 1, 0, 4)
SPLITS = [
    pytest.param(_one_deck(), 2, 6, SHOE, id="das"),
    pytest.param(_one_deck(hole_card="enhc", enhc_loses="original"), 2, 10, SHOE,
                 id="das-enhc-original"),
    pytest.param(_one_deck(double_after_split=False), 2, 6, SHOE, id="no-das"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"), SPLITS)
def test_double_after_hit_split_values_equal_the_casino_order_brute_forces(
        rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    """A split hand of three or more cards doubles where ``double_after_split`` lets it:
    ``cdp1`` against the oracle's split brute force (each hand its own best play, both
    from one shoe), ``optimal`` against its fully optimal split, to 1e-12; without
    double after split the rule does not reach split hands (the plain value)."""
    cdp1 = oracle.split_ev_bruteforce(pair, up, shoe, rules)
    optimal = oracle.split_ev_optimal_bruteforce(pair, up, shoe, rules)
    assert cdp1 is not None and optimal is not None
    assert abs(_engine_split(rules, pair, up, shoe, "cdp1") - float(cdp1)) < TOL
    assert abs(_engine_split(rules, pair, up, shoe, "optimal") - float(optimal)) < TOL
    plain = BlackjackRules(**{**{f: getattr(rules, f) for f in rules.__slots__},
                              "double_after_hit": False})
    without = oracle.split_ev_bruteforce(pair, up, shoe, plain)
    assert (without == cdp1) is (not rules.double_after_split)


@pytest.mark.slow
def test_double_after_hit_cdz_and_postsplit_equal_the_brute_forces() -> None:
    """The pre-split strategy (``cdz``: a split hand plays as the same cards unsplit,
    doubling where split hands may) and post-split play (hand 2 sees hand 1's cards)
    against the oracle's brute forces, to 1e-12 (ENHC, only the original bet lost)."""
    rules = _one_deck(hole_card="enhc", enhc_loses="original")
    cdz = oracle.split_ev_cdz_bruteforce(2, 6, SHOE, rules)
    post = oracle.split_ev_postsplit_bruteforce(2, 6, SHOE, rules)
    assert cdz is not None and post is not None
    assert abs(_engine_split(rules, 2, 6, SHOE, "cdz") - float(cdz)) < TOL
    assert abs(_engine_split(rules, 2, 6, SHOE, "postsplit") - float(post)) < TOL


def test_a_counted_round_doubles_after_a_hit() -> None:
    """``count``'s play-out: a hand of three cards whose code doubles takes one card and
    stands (the dealer's T,9 need no card), where without the rule it hits on."""
    from strategy_calc.actions import Action
    from strategy_calc.blackjack.playout import RoundPlan, play_round
    from strategy_calc.rules import blackjack_rules

    # 2 (player), T (up), 2 (player), 9 (the hole card); every later decision: double,
    # else hit (codes 3)
    plan = RoundPlan(0.0, None, {(10, 2, 2, False): Action.HIT}, {10: bytes([3] * 8192)},
                     frozenset())
    cards = parse_cards("2,T,2,9,3,A,2,4,5,T")
    # 2,2,3 doubles on the A (soft 18, six cards); without the rule 2,2,3,A,2,4,5,T busts
    assert play_round(blackjack_rules("deluxe", ["double_after_hit=true"]), cards, 0,
                      plan) == 6
    assert play_round(blackjack_rules("deluxe"), cards, 0, plan) == 10


def test_the_chart_prints_its_doubles_after_a_hit() -> None:
    """The chart's total-dependent play after the first decision doubles a total's hands of
    three or more cards where that beats its hit/stand play summed over them: printed as
    an "After a hit" section (``Dh``, ``Ds``) and the JSON key ``after_hit``; one deck,
    Deluxe: hard 11 doubles against every up card."""
    args = ["chart", "--rules", "deluxe", "--set", "decks=1", "--set", "double_after_hit=true"]
    data = json.loads(runner.invoke(app, [*args, "--format", "json"]).stdout)
    assert set(data["after_hit"]["hard"]["11"].values()) == {"Dh"}
    text = runner.invoke(app, args, env={"COLUMNS": "200"}).stdout
    assert "After a hit (three or more cards" in text
    plain = json.loads(runner.invoke(app, [*args[:-2], "--format", "json"]).stdout)
    assert "after_hit" not in plain
    assert data["house_edge"] < plain["house_edge"]


def test_the_drill_asks_a_split_hand_of_three_cards_to_double() -> None:
    """The drill's split hands: under the rule a hand of three cards may double where split
    hands may, and the chart's answer is its after-hit play: 2,3,5 (hard 10, split from
    2,2) against a 6 doubles (one deck, Deluxe: hard 10 doubles after a hit vs 6)."""
    from strategy_calc.drill.play import PlayDrill
    from strategy_calc.drill.questions import Deal
    from strategy_calc.rules import blackjack_rules

    drill = PlayDrill(blackjack_rules("deluxe", ["decks=1", "double_after_hit=true"]))
    two, three, five = Rank.TWO, Rank.THREE, Rank.FIVE
    question = drill.split_question(Deal((two, two), Rank.SIX, 0.01), 1, (two, three, five),
                                    (), 1.0)
    assert question.choices == ("s", "h", "d") and question.chart == "d"
    ev = analyse_hand("2,3,5", "6", blackjack_rules("deluxe", ["decks=1",
                                                               "double_after_hit=true"]),
                      removed="2").ev
    assert question.values["d"] == ev["double"]
