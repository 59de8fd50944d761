"""Macau rule 9: suited 6-7-8 and 7-7-7 pay 3 times the bet at once (hand calculations)."""

from __future__ import annotations

import pytest

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.rules import blackjack_rules

MACAU_1 = blackjack_rules("macau-1983", decks=1)
MACAU_6 = blackjack_rules("macau-1983")


def _plain_21(cards: str, up: str, decks: int) -> float:
    """EV of standing on the three-card 21 without any bonus (what the bonus replaces)."""
    no_bonus = blackjack_rules("macau-1983", ["bonus_777=0", "bonus_suited_678=0"], decks)
    return analyse_hand(cards, up, no_bonus).ev["stand"] or 0.0


def test_suited_six_seven_hit_gains_the_eight_of_spades_term_one_deck() -> None:
    """1 deck, 6s 7s vs 2: 52 - 3 = 49 cards left, one of them the 8s, so hitting
    gains (1/49) * (3 - EV of a plain 21) over 6s 7h (whose 8s makes a plain 21)."""
    suited = analyse_hand("6s,7s", "2", MACAU_1).ev["hit"]
    mixed = analyse_hand("6s,7h", "2", MACAU_1).ev["hit"]
    assert suited is not None and mixed is not None
    bonus_term = (1 / 49) * (3 - _plain_21("6,7,8", "2", 1))
    assert suited - mixed == pytest.approx(bonus_term, abs=1e-14)


def test_suited_six_seven_six_decks() -> None:
    """6 decks: 312 - 3 = 309 cards left, six of them the 8s."""
    suited = analyse_hand("6s,7s", "2", MACAU_6).ev["hit"]
    mixed = analyse_hand("6s,7h", "2", MACAU_6).ev["hit"]
    assert suited is not None and mixed is not None
    assert suited - mixed == pytest.approx((6 / 309) * (3 - _plain_21("6,7,8", "2", 6)),
                                           abs=1e-14)


def test_unknown_suits_average_the_bonus() -> None:
    """Suits not given: the two cards share a suit with probability 1/4 (full deck,
    independent ranks), so the bonus term is a quarter of the suited one."""
    suited = analyse_hand("6s,7s", "2", MACAU_1)
    mixed = analyse_hand("6s,7h", "2", MACAU_1)
    unknown = analyse_hand("6,7", "2", MACAU_1)
    assert unknown.suits_known is False and suited.suits_known is True
    s, m, u = suited.ev["hit"], mixed.ev["hit"], unknown.ev["hit"]
    assert s is not None and m is not None and u is not None
    assert u - m == pytest.approx(0.25 * (s - m), abs=1e-14)


def test_seven_seven_hits_for_the_third_seven() -> None:
    """1 deck, 7,7 vs T: two 7s among the 49 cards left; a third 7 pays 3 at once
    (even if the dealer then has blackjack) instead of a plain three-card 21."""
    with_bonus = analyse_hand("7,7", "T", MACAU_1).ev["hit"]
    no_bonus = analyse_hand(
        "7,7", "T", blackjack_rules("macau-1983", ["bonus_777=0"], 1)).ev["hit"]
    assert with_bonus is not None and no_bonus is not None
    assert with_bonus - no_bonus == pytest.approx((2 / 49) * (3 - _plain_21("7,7,7", "T", 1)),
                                                  abs=1e-14)


def test_bonus_changes_the_play_of_seven_seven() -> None:
    """6 decks, 7,7 vs T: without the bonus early surrender is best; with it, hitting
    for the third 7 (22 of the 309 cards left) beats surrendering."""
    plain = blackjack_rules("macau-1983", ["bonus_777=0", "bonus_suited_678=0"])
    assert analyse_hand("7,7", "T", plain).best == "surrender"
    assert analyse_hand("7,7", "T", MACAU_6).best == "hit"


def test_bonus_on_split_sevens_is_a_rules_option() -> None:
    """Split 7s vs T: a split hand that draws 7, 7 is 7-7-7 and is paid only when the
    bonus counts on split hands."""
    on = analyse_hand("7,7", "T", MACAU_6).ev["split"]
    off = analyse_hand("7,7", "T", blackjack_rules(
        "macau-1983", ["bonus_on_split_hands=false"])).ev["split"]
    assert on is not None and off is not None and on > off


def test_a_paid_hand_is_settled() -> None:
    """Rule 9: 7-7-7 is paid 3 at once and settled: its only value is the bonus."""
    result = analyse_hand("7,7,7", "T", MACAU_6)
    assert result.ev["stand"] == 3.0 and result.ev["hit"] is None


@pytest.mark.slow
def test_the_chart_lists_the_plays_the_suited_bonus_changes() -> None:
    """The chart's suited exceptions (from the game pass's exact suit cases) are the
    two-card plays the bonus command finds by valuing 6s,7s / 6s,8s / 7s,8s one by one."""
    from strategy_calc.blackjack.game_analysis import analyse_game
    from strategy_calc.blackjack.whatif import bonus_value

    game = analyse_game(MACAU_6)
    in_chart = {(",".join(r.symbol for r in d.hand), d.up.symbol, d.best)
                for d in game.exceptions if d.suited}
    changed = {(hand.replace("s", ""), up, with_bonus)
               for hand, up, _without, with_bonus in bonus_value(MACAU_6).changed
               if hand != "7,7"}
    assert in_chart == changed and changed


@pytest.mark.slow
def test_a_start_whose_third_card_is_gone_hits_as_if_there_were_no_bonus() -> None:
    """6-8 against a 7 when the shoe's only 7 is the up card: no card can complete a
    6-7-8, so each suit case hits for what hitting 6-8 is worth with no bonus to
    reach (``analyse_hand``, its own path through the engine); before, the suit
    shift read the unreachable 6-7-8 node's NaN row and every case came out NaN,
    and a count from such shoes printed NaN EVs."""
    import math

    from strategy_calc.blackjack.game_pass import PassRequest, whole_game_pass
    from strategy_calc.cards import Rank, Shoe
    from strategy_calc.counting.counter import blackjack_counter

    rules = blackjack_rules("macau-1983", decks=2)
    shoe = Shoe.from_counts([8, 8, 8, 8, 8, 8, 1, 8, 8, 32], 2)  # one 7 left
    want = analyse_hand("6,8", "7", rules, shoe=shoe).ev["hit"]
    assert want is not None
    cases = whole_game_pass(PassRequest(rules, shoe, partial=True)).ups[Rank.SEVEN].deals[(6, 8)]
    assert len(cases) > 1  # the suit cases are still made
    for case in cases:
        assert case.hit == pytest.approx(want, abs=1e-15)
        assert case.hit_chart == case.hit_chart  # (not NaN)
    plan = blackjack_counter(rules).plan(shoe, 0.0, moments=True)
    assert math.isfinite(plan.ev) and plan.second_moment is not None
    assert math.isfinite(plan.second_moment)
