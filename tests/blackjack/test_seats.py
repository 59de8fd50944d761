"""Several boxes at the table (``count --seats N``): casino order, the cards the other
boxes take, and why the player's exact EV does not depend on them.

Rules text (RULES.md, the shoe and the deal): each box gets a card, the dealer his up
card, each box a second card; in a peek game the hole card comes at once, otherwise the
dealer's second card comes after every box has played, and only if some box still needs
it. The round sequences below are worked out by hand.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from strategy_calc.actions import Action
from strategy_calc.blackjack.playout import RoundPlan, play_round
from strategy_calc.cards import parse_cards
from strategy_calc.cli import app
from strategy_calc.rules import blackjack_rules

PEEK = blackjack_rules("deluxe")
NO_HOLE = blackjack_rules("macau-1983", ["burn_before_dealer_cards=false"])
"""6 decks: the dealer's second card comes late (Art. 2's burns around it aside: they are
tests/counting/test_shoe_procedure.py's)."""
STAND_ALL = bytes([4]) * 4096  # every later decision: stand
HIT_ALL = bytes([2]) * 4096


def plan_of(actions: dict[tuple[int, int, int, bool], Action], codes: bytes = STAND_ALL,
            up: int = 6) -> RoundPlan:
    return RoundPlan(0.0, None, actions, {up: codes}, frozenset())


def test_two_boxes_standing_then_the_dealer_draws_in_casino_order() -> None:
    """T (box 1), 9 (box 2), 6 up, 7 (box 1), 8 (box 2), T hole; both stand on 17; the
    dealer's 16 draws the 5: seven cards."""
    plan = plan_of({(6, 7, 10, False): Action.STAND, (6, 8, 9, False): Action.STAND})
    assert play_round(PEEK, parse_cards("T,9,6,7,8,T,5,2"), 0, plan, seats=2) == 7


def test_the_dealer_does_not_draw_when_every_box_is_bust() -> None:
    """Both boxes hit their 12 and bust on tens; the dealer's 16 is not played: 2 x 2 +
    up + hole + 2 hits = 8 cards (the dealer's T,6 would otherwise draw the ninth)."""
    plan = plan_of({(6, 2, 10, False): Action.HIT}, HIT_ALL)
    cards = parse_cards("T,T,6,2,2,T,T,T,5")
    assert play_round(PEEK, cards, 0, plan, seats=2) == 8


def test_a_late_hole_card_is_dealt_after_every_box_and_only_if_needed() -> None:
    """No hole card (Macau): box 1 busts (T,2 + T), box 2 stands on 17 (9,8): the dealer's
    second card comes after both boxes, then he draws to 17 or more (6 + 5 = 11, + 6 =
    17): 2 x 2 + up + 1 hit + the late card + 1 draw = 8. With box 2 bust as well no
    dealer card comes: 2 x 2 + up + 2 hits = 7."""
    plan = RoundPlan(0.0, None, {(6, 2, 10, False): Action.HIT, (6, 8, 9, False): Action.STAND},
                     {6: HIT_ALL}, frozenset())
    assert play_round(NO_HOLE, parse_cards("T,9,6,2,8,T,5,6,T"), 0, plan, seats=2) == 8
    both_bust = RoundPlan(0.0, None, {(6, 2, 10, False): Action.HIT}, {6: HIT_ALL},
                          frozenset())
    assert play_round(NO_HOLE, parse_cards("T,T,6,2,2,T,T,5"), 0, both_bust, seats=2) == 7


def test_a_blackjack_against_a_ten_waits_for_the_late_card() -> None:
    """No hole card: box 1's A,T against a ten is settled on the dealer's second card
    (a dealer blackjack would push it), even when box 2 surrenders: 2 x 2 + up + 1 = 6."""
    plan = RoundPlan(0.0, None, {(10, 6, 10, False): Action.SURRENDER}, {10: STAND_ALL},
                     frozenset())
    assert play_round(NO_HOLE, parse_cards("A,T,T,T,6,9,5"), 0, plan, seats=2) == 6


def test_one_seat_is_the_single_box_round() -> None:
    """``seats=1`` deals exactly as the one-box round: player, up, player, hole."""
    plan = plan_of({(6, 7, 10, False): Action.STAND})
    assert play_round(PEEK, parse_cards("T,6,7,T,5"), 0, plan) == 5
    assert play_round(PEEK, parse_cards("T,6,7,T,5"), 0, plan, seats=1) == 5


# -------------------------------------------- the player's EV does not depend on the seats


def _total(ranks: list[int]) -> tuple[int, bool]:
    hard = sum(ranks)
    soft = 1 in ranks and hard <= 11
    return (hard + 10 if soft else hard), soft


def _casino_round(order: tuple[int, ...], seats: int) -> Fraction:
    """Box 1's result of one round dealt from ``order`` by the rules text, written here
    independently of the package: peek (a dealer blackjack ends the round), S17, every
    box hits below 13 and stands from 13 (no double, split or surrender), a blackjack
    pays 3:2. Returns the result in units of box 1's bet."""
    deck = list(order)
    firsts = [deck.pop(0) for _ in range(seats)]
    up = deck.pop(0)
    seconds = [deck.pop(0) for _ in range(seats)]
    hole = deck.pop(0)
    dealer_bj = sorted([up, hole]) == [1, 10]
    hands = [[a, b] for a, b in zip(firsts, seconds, strict=True)]
    natural = sorted(hands[0]) == [1, 10]
    if dealer_bj:
        return Fraction(0) if natural else Fraction(-1)
    if natural:
        return Fraction(3, 2)
    for hand in hands:
        if sorted(hand) == [1, 10]:
            continue
        while _total(hand)[0] < 13:
            hand.append(deck.pop(0))
    mine = _total(hands[0])[0]
    if mine > 21:
        return Fraction(-1)
    dealer = [up, hole]
    while _total(dealer)[0] < 17:
        dealer.append(deck.pop(0))
    theirs = _total(dealer)[0]
    if theirs > 21 or mine > theirs:
        return Fraction(1)
    return Fraction(0) if mine == theirs else Fraction(-1)


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_the_players_exact_ev_is_the_same_with_a_second_box() -> None:
    """Brute force over every ordering of a 10-card shoe (5, 6, 7, 8, 9 and five tens:
    10!/5! = 30,240 orderings, each equally likely): box 1's mean result is the same
    whether it plays alone or beside a second box dealt in between (exchangeability: the
    model behind ``count --seats``, which values the player's round off the shoe before
    it). No round can run out of cards: a box takes at most 3 (5,6 then any card makes
    17 or more), the dealer likewise, 9 in all."""
    shoe = (5, 6, 7, 8, 9, 10, 10, 10, 10, 10)
    orders = set(itertools.permutations(shoe))
    assert len(orders) == 30240
    alone = sum(_casino_round(o, 1) for o in orders) / len(orders)
    beside = sum(_casino_round(o, 2) for o in orders) / len(orders)
    assert alone == beside
    assert alone != 0  # (a real game, not a trivial one)


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_count_reports_its_seats_and_refuses_a_crowded_table() -> None:
    runner = CliRunner()
    done = runner.invoke(app, ["count", "--rules", "deluxe", "--decks", "1", "--rounds", "8",
                               "--seats", "3", "--jobs", "1", "--json"])
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout)["seats"] == 3
    bad = runner.invoke(app, ["count", "--decks", "1", "--seats", "8"])
    assert bad.exit_code == 2
    baccarat = runner.invoke(app, ["count", "--rules", "macau-baccarat", "--seats", "2"])
    assert baccarat.exit_code == 2
