"""Macau rule 9's suited 6-7-8 when the suits are not given: the hand valued both ways.

The bonus is paid on exactly three cards 6-7-8 of one suit, so a start 6,8 of two suits can
never earn it, and a start of one suit earns it by drawing that suit's 7. Without the
suits, ``hand`` averages the bonus over the suits the shoe may hold, and shows the suited
and mixed readings beside that average (``by_suits``).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from strategy_calc.actions import ACTIONS
from strategy_calc.blackjack.hand_analysis import analyse_hand, hand_by_suits
from strategy_calc.cli import app
from strategy_calc.rules import blackjack_rules

MACAU_6 = blackjack_rules("macau-1983")
runner = CliRunner()


def test_a_mixed_six_eight_cannot_earn_the_suited_bonus_so_it_surrenders_to_a_ten() -> None:
    """6s,8h: no 7 completes a suited 6-7-8 and no 7-7-7 can come, so the hand is worth
    what it is worth without any bonus; and against a ten that is surrender."""
    readings = hand_by_suits("6,8", "T", MACAU_6)
    assert readings is not None
    mixed = readings["mixed"]
    assert [str(c) for c in mixed.cards] == ["6s", "8h"]
    no_bonus = blackjack_rules("macau-1983", ["bonus_777=0", "bonus_suited_678=0"])
    plain = analyse_hand("6s,8h", "T", no_bonus)
    for action in ACTIONS:
        assert mixed.ev[action] == pytest.approx(plain.ev[action], abs=1e-15)
    assert mixed.best == "surrender" and readings["suited"].best == "hit"


def test_the_average_weighs_one_suit_by_a_quarter_on_a_full_shoe() -> None:
    """Hand calculation: six decks hold 6 eights of each suit among 24, whatever the
    six's suit (the ten up card takes none of them), so an unsuited 6,8 is of one suit
    with probability 6/24 = 1/4; each action's EV averages the readings with 1/4, 3/4."""
    readings = hand_by_suits("6,8", "T", MACAU_6)
    assert readings is not None
    average = analyse_hand("6,8", "T", MACAU_6)
    for action in ACTIONS:
        s, m, a = readings["suited"].ev[action], readings["mixed"].ev[action], average.ev[action]
        if a is None:
            assert s is None and m is None
            continue
        assert s is not None and m is not None
        assert a == pytest.approx(s / 4 + 3 * m / 4, abs=1e-14)


def test_the_suited_reading_takes_the_suit_the_seen_cards_spent_least() -> None:
    """The 8s removed: spades are the suit of which the seen cards hold most of the
    hand's ranks, hearts the first of those holding none."""
    readings = hand_by_suits("6,8", "T", MACAU_6, removed="8s")
    assert readings is not None
    assert [str(c) for c in readings["suited"].cards] == ["6h", "8h"]
    assert [str(c) for c in readings["mixed"].cards] == ["6h", "8d"]


@pytest.mark.parametrize(("cards", "rules"), [
    ("6s,8h", MACAU_6),   # suits given: nothing to average
    ("6,6", MACAU_6),     # a pair: no 6-7-8 start
    ("T,6", MACAU_6),
    ("6,8", blackjack_rules("macau-1983", ["bonus_suited_678=0"])),  # no suited bonus
])
def test_no_reading_where_the_suits_cannot_change_the_bonus(cards: str, rules: object) -> None:
    assert hand_by_suits(cards, "T", rules) is None  # type: ignore[arg-type]


def test_hand_json_by_suits_names_each_reading_and_its_best_play() -> None:
    """The contract: ``by_suits`` with ``suited``, ``mixed`` and ``average``, each with
    ``ev`` and ``best``; the mixed 6,8 against a ten surrenders (the first test)."""
    result = runner.invoke(app, ["hand", "6,8", "--vs", "T", "--rules", "macau-1983", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    by_suits = data["by_suits"]
    assert set(by_suits) == {"suited", "mixed", "average"}
    assert by_suits["mixed"]["best"] == "surrender"
    assert by_suits["average"]["ev"] == data["ev"] and by_suits["average"]["best"] == data["best"]
    plain = json.loads(runner.invoke(app, ["hand", "T,6", "--vs", "T", "--json"]).stdout)
    assert plain["by_suits"] is None


def test_hand_text_shows_the_best_play_by_suits() -> None:
    result = runner.invoke(app, ["hand", "6,8", "--vs", "T", "--rules", "macau-1983"],
                           env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "the best play by suits (it depends on them):" in result.stdout
    assert any(line.split()[:3] == ["mixed", "suits", "6s,8h"] and "surrender" in line
               for line in result.stdout.splitlines())
