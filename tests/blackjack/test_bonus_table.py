"""``bonus_hands``: a ruleset's table of bonus hands (issue 47). A row is a multiset of
ranks (three or more cards), suited or of any suits, a payout, whether the paid hand is
settled or also stands, and whether split hands count; a hand whose cards, as dealt, are
exactly a row's ranks is paid at once (the higher of two rows); a doubled hand never.

The oracles (tests/oracles/bj_oracle/) read the rows from that text, apart from the
engine (``_Hand.paid``); the engine agrees with them to 1e-12 on small shoes, and with
hand calculations written out below. The shorthands ``bonus_777`` / ``bonus_suited_678``
are rows of the same table: a game given either way has the same figures, bit for bit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import bj_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from one_hand import assert_suited_hand_evs_equal_the_oracle
from typer.testing import CliRunner

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.cli import app
from strategy_calc.rules import BlackjackRules, RulesError, blackjack_rules
from strategy_calc.rules.bonus_hands import BonusHand, parse_bonus_hands

TOL = 1e-12

ROWS = ("7-7-7=5", "6-7-8=2", "2-3-4=1.5 plays-on", "A-2-3-4=2", "5-5-5=1 not-split",
        "2-2-2-2=3 plays-on", "A-A-9=4", "3-3-3-3-3=2 not-split", "T-5-6=1", "4-4-4=0.5")
"""Rows of any suits a table is drawn from: three to five cards, totals 9 to 21, settled
or standing, on split hands or not (each multiset once)."""


def _table(text: str) -> tuple[BonusHand, ...]:
    return parse_bonus_hands(text, from_text=True)


# ---------------------------------------------------------------- the rule's text


def test_a_row_is_read_from_text_and_from_toml(tmp_path: Path) -> None:
    """Text rows and TOML tables read alike; the ranks kept in order, faces as tens."""
    rows = _table("suited 8-6-7=5 plays-on; K-5-6=1.5 not-split")
    assert [(r.ranks, r.suited, r.pays, r.settles, r.split_hands) for r in rows] == [
        ((6, 7, 8), True, 5.0, False, True), ((5, 6, 10), False, 1.5, True, False)]
    path = tmp_path / "house.toml"
    path.write_text('game = "blackjack"\nname = "house"\nbase = "deluxe"\n'
                    'bonus_hands = [{cards = "8-6-7", pays = 5, suited = true, settles = false},'
                    ' {cards = "K-5-6", pays = 1.5, split_hands = false}]\n', encoding="utf-8")
    assert blackjack_rules(str(path)).bonus_hands == rows


@pytest.mark.parametrize(("value", "why"), [
    ("7-7=3", "three or more cards"), ("7-7-9=1", "bust"), ("7-7-7=0", "> 0"),
    ("7-7-7=x", "finite number"), ("suited 7-7-7=5", "only a suited 6-7-8"),
    ("7-7-Z=2", "unknown rank"), ("7-7-7=2; 7-7-7=3", "given twice"),
    ("suited 6-7-8=2; 6-7-8=3", "pay more"), ("6-7-8=2; suited 6-7-8=4 plays-on", "settles"),
    ("7-7-7=2 sideways", "expected")])
def test_a_bad_row_is_one_error_line(value: str, why: str) -> None:
    result = CliRunner().invoke(app, ["hand", "7,7", "--vs", "T", "--rules", "deluxe",
                                      "--set", f"bonus_hands={value}"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and why in lines[0], lines


def test_a_row_may_not_repeat_a_shorthand_nor_be_a_charlie() -> None:
    with pytest.raises(RulesError, match="given twice"):
        blackjack_rules("macau-1983", ["bonus_hands=7-7-7=5"])
    with pytest.raises(RulesError, match="Charlie"):
        BlackjackRules(charlie_cards=5, bonus_hands=_table("A-2-3-4-5=2"))


def test_the_table_shows_in_the_ruleset_and_its_label() -> None:
    """``rules NAME --set ... --json``: the field's rows as keys, set by ``--set``, and
    ``bonus_table``: every row that pays. Macau 1983, Art. 9 (RULES.md): a suited 6-7-8
    and a 7-7-7 each pay 3 and settle the hand, on split hands too (its shorthands), so
    with a 6-7-8 of any suits paying 2 and a 2-3-4 paying 1.5 that stands, four rows pay;
    Deluxe pays none."""
    import json

    result = CliRunner().invoke(app, ["rules", "deluxe", "--json", "--set",
                                      "bonus_hands=7-7-7=5 plays-on"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    field = data["fields"]["bonus_hands"]
    assert field["value"] == [{"cards": "7-7-7", "pays": 5.0, "suited": False,
                               "settles": False, "split_hands": True}]
    assert field["set_by"] == "--set" and data["bonus_table"] == field["value"]
    rules = blackjack_rules("deluxe", ["bonus_hands=7-7-7=5 plays-on; 2-3-4=1"])
    assert "bonus[7-7-7=5-plays-on,2-3-4=1]" in str(rules)
    macau = CliRunner().invoke(app, ["rules", "macau-1983", "--json", "--decks", "2",
                                     "--set", "bonus_hands=6-7-8=2; 2-3-4=1.5 plays-on"])
    assert macau.exit_code == 0, macau.output
    data = json.loads(macau.stdout)
    assert data["bonus_table"] == [
        {"cards": "6-7-8", "pays": 3.0, "suited": True, "settles": True, "split_hands": True},
        {"cards": "7-7-7", "pays": 3.0, "suited": False, "settles": True, "split_hands": True},
        {"cards": "6-7-8", "pays": 2.0, "suited": False, "settles": True, "split_hands": True},
        {"cards": "2-3-4", "pays": 1.5, "suited": False, "settles": False, "split_hands": True}]
    assert data["fields"]["decks"] == {**data["fields"]["decks"], "value": 2, "set_by": "--decks"}
    text = CliRunner().invoke(app, ["rules", "macau-1983", "--set",
                                    "bonus_hands=6-7-8=2; 2-3-4=1.5 plays-on"]).stdout
    assert "bonus hands paid: suited 6-7-8=3; 7-7-7=3; 6-7-8=2; 2-3-4=1.5 plays-on" in text
    assert "bonus hands paid: none" in CliRunner().invoke(app, ["rules", "deluxe"]).stdout
    assert json.loads(CliRunner().invoke(app, ["rules", "deluxe", "--json"]).stdout
                      )["bonus_table"] == []


@pytest.mark.parametrize(("args", "message"), [
    (["rules", "--set", "decks=2"], "error: --set and --decks describe one ruleset: give its"
     " NAME"),
    (["rules", "deluxe", "--set", "bonus_hands=7-7=5"], "error: a bonus hand has three or more"),
    (["rules", "macau-baccarat", "--decks", "inf"], "error: invalid value 'inf' for decks"),
])
def test_rules_refuses_a_bad_override_in_one_error_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and result.stderr.startswith(message)


# ------------------------------------------------------------- hand calculations


def test_a_three_card_row_by_hand() -> None:
    """ENHC, 2,3 against a ten from a shoe of 2, 3, 4, 7, 7, 9, T, T: five cards left (4,
    7, 7, 9, T). The row 2-3-4 changes only the hand 2,3,4: hitting draws the 4 with
    chance 1/5, and is then paid 1.5 at once and settled instead of holding 9 and playing
    on (its plain value V). So hit = plain hit + (1.5 - V) / 5, stand unchanged."""
    rules = BlackjackRules(decks=1, hole_card="enhc", surrender="none", double_on="none",
                           bonus_hands=_table("2-3-4=1.5"))
    plain = replace(rules, bonus_hands=())
    shoe = Shoe.from_counts([0, 1, 1, 1, 0, 0, 2, 0, 1, 2], decks=1)
    up = Card(Rank.TEN)
    got = analyse_hand([Card(Rank.TWO), Card(Rank.THREE)], up, rules, shoe=shoe).ev
    base = analyse_hand([Card(Rank.TWO), Card(Rank.THREE)], up, plain, shoe=shoe).ev
    nine = analyse_hand([Card(Rank.TWO), Card(Rank.THREE), Card(Rank.FOUR)], up, plain,
                        shoe=shoe).ev
    v = max(x for x in (nine["stand"], nine["hit"]) if x is not None)
    assert got["stand"] == base["stand"]
    assert base["hit"] is not None and got["hit"] is not None
    assert got["hit"] == pytest.approx(base["hit"] + (1.5 - v) / 5, abs=TOL)
    paid = analyse_hand([Card(Rank.FOUR), Card(Rank.TWO), Card(Rank.THREE)], up, rules,
                        shoe=shoe).ev
    assert paid["stand"] == 1.5 and paid["hit"] is None  # the made hand: paid, settled


# ----------------------------------------------------------------- the oracle


@st.composite
def tables(draw: st.DrawFn) -> tuple[BonusHand, ...]:
    rows = draw(st.lists(st.sampled_from(ROWS), min_size=1, max_size=4, unique=True))
    return _table("; ".join(rows))


@st.composite
def deals(draw: st.DrawFn, pair: bool = False) -> tuple[BlackjackRules, tuple[int, ...], int,
                                                         tuple[int, ...]]:
    """A one-deck shoe rich in low cards: a table, rules, a hand (a pair) of two cards of
    one of its rows, an up card and the removed cards (8s, 9s and tens, so that the rows
    are often made)."""
    rules = BlackjackRules(
        decks=1, bonus_hands=draw(tables()),
        hole_card=draw(st.sampled_from(["peek", "enhc"])),
        dealer_hits_soft_17=draw(st.booleans()),
        double_on=draw(st.sampled_from(["any", "9-11", "none"])),
        double_after_split=draw(st.booleans()),
        surrender=draw(st.sampled_from(["none", "late", "early"])))
    pool = [r for r in range(1, 11) for _ in range(16 if r == 10 else 4)]
    row = draw(st.sampled_from(rules.bonus_hands)).ranks  # the hand starts on its way
    if pair:
        hand = (draw(st.sampled_from(row)),) * 2
    else:
        first = draw(st.integers(0, len(row) - 1))
        second = draw(st.sampled_from([i for i in range(len(row)) if i != first]))
        hand = tuple(sorted((row[first], row[second])))
    for r in hand:
        pool.remove(r)
    up = draw(st.sampled_from([2, 5, 6, 9, 10, 1]))
    pool.remove(up)
    rich = [r for r in pool if r >= 8 and r not in row]
    removed = tuple(draw(st.permutations(rich))[:draw(st.integers(20, 26))])
    return rules, hand, up, removed


def _engine(rules: BlackjackRules, hand: tuple[int, ...], up: int,
            removed: tuple[int, ...]) -> dict[str, float | None]:
    return dict(analyse_hand([Card(Rank(r)) for r in hand], Card(Rank(up)), rules,
                             [Card(Rank(r)) for r in removed]).ev)


SETTINGS = settings(max_examples=12, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@pytest.mark.oracle
@SETTINGS
@given(deals())
def test_a_hand_under_a_bonus_table_matches_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    rules, hand, up, removed = deal
    shoe = oracle.remove(oracle.full_shoe(1), [*hand, up, *removed])
    exact = oracle.hand_evs(hand, up, shoe, rules)
    got = _engine(rules, hand, up, removed)
    for key in ("stand", "hit", "double", "surrender"):
        want = exact.get(key)
        assert (got[key] is None) == (want is None), key
        if want is not None:
            assert abs(got[key] - float(want)) <= TOL, (key, got[key], float(want))


@pytest.mark.oracle
@settings(max_examples=6, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(deals(pair=True))
def test_a_split_under_a_bonus_table_matches_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    """Split hands are paid by the rows that count on them (``not-split`` rows do not)."""
    rules, hand, up, removed = deal
    shoe = oracle.remove(oracle.full_shoe(1), [*hand, up, *removed])
    want = oracle.split_ev(hand[0], up, shoe, rules)
    got = _engine(rules, hand, up, removed)["split"]
    assert (want is None) == (got is None)
    if want is not None and got is not None:
        assert abs(got - float(want)) <= TOL


@pytest.mark.oracle
@pytest.mark.parametrize("table", ["suited 6-7-8=5; 6-7-8=2", "6-7-8=2 plays-on",
                                   "suited 6-7-8=4 plays-on; 7-7-7=2 plays-on"])
@pytest.mark.parametrize(("hand", "up"), [((("6", "s"), ("7", "s")), 10),
                                          ((("6", "s"), ("8", "h")), 2),
                                          ((("7", "s"), ("8", "s")), 1)])
def test_a_suited_row_and_a_row_of_any_suits_on_one_hand_match_the_oracle(
        table: str, hand: tuple[tuple[str, str], ...], up: int) -> None:
    """A 6-7-8 pays the row of any suits, or the suited row's higher payout when its three
    cards are of one suit (known suits, one deck, many cards gone)."""
    rules = BlackjackRules(decks=1, hole_card="enhc", surrender="late",
                           bonus_hands=_table(table))
    assert_suited_hand_evs_equal_the_oracle(hand, up, rules)


# ------------------------------------------- the shorthands are rows of the table


@pytest.mark.parametrize(("shorthand", "row"), [
    (["bonus_777=3"], "7-7-7=3"),
    (["bonus_777=3", "bonus_settles_hand=false", "bonus_on_split_hands=false"],
     "7-7-7=3 plays-on not-split")])
def test_a_shorthand_and_its_row_give_the_same_figures(shorthand: list[str], row: str) -> None:
    """Every figure of ``edge`` (the whole game, optimal play and the chart's) and of a
    split 7,7 under ``bonus_777`` equals the one under the same row of ``bonus_hands``,
    bit for bit (the shorthand's meaning is checked against the oracles elsewhere:
    test_bonus.py, test_bonus_settles_hand.py)."""
    args = ["--rules", "deluxe", "--decks", "1", "--json"]
    runner = CliRunner()
    for command in (["edge"], ["hand", "7,7", "--vs", "9"]):
        a = runner.invoke(app, [*command, *args, *[x for s in shorthand for x in ("--set", s)]])
        b = runner.invoke(app, [*command, *args, "--set", f"bonus_hands={row}"])
        assert a.exit_code == 0 == b.exit_code, (a.stderr, b.stderr)
        strip = [line for line in a.stdout.splitlines() if '"ruleset"' not in line
                 and "bonus" not in line]
        assert strip == [line for line in b.stdout.splitlines() if '"ruleset"' not in line
                         and "bonus" not in line]


@pytest.mark.slow
@pytest.mark.parametrize("table", ["suited 6-7-8=4 plays-on; 6-7-8=2 plays-on; 2-3-4=1.5;"
                                   " 2-2-2-2=3 plays-on not-split; 7-7-7=5 plays-on"])
def test_a_tables_round_distribution_has_the_edge_as_its_mean(table: str) -> None:
    """The round's outcome distribution (the engine's hand-by-hand enumeration of where
    each hand ends, a code path apart from the values') sums to 1 and its mean is the
    house edge, under optimal play and under the chart, with rows settled and standing,
    of three and four cards, suited and of any suits, on split hands or not."""
    from strategy_calc.blackjack.game_analysis import analyse_game

    game = analyse_game(blackjack_rules("macau-1983", ["decks=1", "bonus_suited_678=0",
                                                       "bonus_777=0", f"bonus_hands={table}"]),
                        distribution=True)
    for outcomes, ev in ((game.outcomes_optimal, game.ev_optimal),
                         (game.outcomes_basic, game.ev_basic)):
        assert outcomes is not None
        assert abs(sum(outcomes.values()) - 1.0) < 1e-12
        assert abs(sum(x * p for x, p in outcomes.items()) - ev) < 1e-12

