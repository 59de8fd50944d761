"""ENHC "original bet only" with a suited pair split (RULES.md, Macau rule 3; issue 28
item 6): a dealer blackjack takes the original bet, which rides on the first split
hand, the hand of the pair card given first. With the suits known the two hands can
differ (here the 7 and 8 of diamonds are gone, so only the spade 6 can make a suited
6-7-8), so the order changes the split's EV, and ``hand`` says so."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from strategy_calc.cli import app

BASE = ["--rules", "macau-1983", "--set", "enhc_loses=original", "--decks", "1",
        "--removed", "7d,8d", "--json"]


def hand(*args: str) -> dict:
    result = CliRunner().invoke(app, ["hand", *args, *BASE])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_the_original_bet_rides_on_the_first_pair_card_given() -> None:
    diamond_first, spade_first = hand("6d,6s", "--vs", "T"), hand("6s,6d", "--vs", "T")
    assert diamond_first["ev"]["split"] != spade_first["ev"]["split"]
    assert any("hand of 6d (the card given first) carries the original bet" in n
               for n in diamond_first["notes"])
    assert any("hand of 6s (the card given first)" in n for n in spade_first["notes"])


def test_the_order_does_not_matter_where_no_dealer_blackjack_can_come() -> None:
    """Against a 9 the dealer cannot have a blackjack: the same EV, no note."""
    diamond_first, spade_first = hand("6d,6s", "--vs", "9"), hand("6s,6d", "--vs", "9")
    assert diamond_first["ev"]["split"] == spade_first["ev"]["split"]
    assert not diamond_first["notes"]


def test_under_enhc_all_no_order_note() -> None:
    result = CliRunner().invoke(app, ["hand", "6d,6s", "--vs", "T", "--rules", "macau-1983",
                                      "--json"])
    assert not any("original bet" in n for n in json.loads(result.stdout)["notes"])
