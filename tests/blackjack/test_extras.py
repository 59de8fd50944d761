"""Bet behind, auto-play and the bonus value, checked by independent plain-Python sums.

The independent evaluations use only the oracle's dealer distributions
(tests/oracles/bj_oracle/) and the rules text, in exact fractions.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import bj_oracle as oracle
import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Card, Rank
from strategy_calc.cli import app
from strategy_calc.rules import BlackjackRules

ENHC = BlackjackRules(decks=1, hole_card="enhc", enhc_loses="all", double_on="any")
REMOVED = (10, 10, 10, 10, 10, 10, 9, 9, 8, 2, 3, 3, 4, 5, 5, 6, 1, 7, 10, 10)


def _shoe(hand: tuple[int, ...], up: int) -> tuple[int, ...]:
    return oracle.remove(oracle.full_shoe(1), [*hand, up, *REMOVED])


def _stand(total: int, dealer: dict[str, Fraction]) -> Fraction:
    """ENHC: standing on ``total`` (not a natural) against the dealer's distribution."""
    value = dealer["bust"] - dealer["blackjack"]
    for d in range(17, 22):
        value += dealer[str(d)] * (1 if total > d else -1 if total < d else 0)
    return value


def _best(hand: tuple[int, ...]) -> int:
    hard = sum(hand)
    return hard + 10 if 1 in hand and hard + 10 <= 21 else hard


def autoplay_by_hand(hand: tuple[int, ...], up: int, shoe: tuple[int, ...]) -> Fraction:
    """Auto-play as the Deluxe rules word it: hit while the total (an ace counting 11
    when it does not bust) is 11 or less, then stand. ENHC, 1 unit."""
    if _best(hand) <= 11:
        n = sum(shoe)
        return sum((Fraction(shoe[r - 1], n) * autoplay_by_hand(
            (*hand, r), up, oracle.remove(shoe, [r])) for r in range(1, 11) if shoe[r - 1]),
            Fraction(0))
    return _stand(_best(hand), oracle.dealer_distribution(shoe, up, False))


@pytest.mark.parametrize(("hand", "up"), [((2, 3), 10), ((5, 4), 6), ((2, 2), 1), ((9, 8), 7),
                                          ((1, 2), 5)])
def test_autoplay_hand_ev_matches_a_plain_evaluation_of_the_policy(
        hand: tuple[int, int], up: int) -> None:
    want = autoplay_by_hand(hand, up, _shoe(hand, up))
    got = analyse_hand([Card(Rank(r)) for r in hand], Card(Rank(up)), ENHC,
                       [Card(Rank(r)) for r in REMOVED]).autoplay
    assert abs(got - float(want)) <= 1e-12


def test_no_follow_double_is_one_hit_on_the_original_bet() -> None:
    """The follower keeps his bet when the seat doubles 5,6 vs 6: the third card acts as
    a single hit, then the hand stands: sum over c of P(c) * EV(stand on 5,6,c)."""
    hand, up = (5, 6), 6
    shoe = _shoe(hand, up)
    n = sum(shoe)
    want = Fraction(0)
    for r in range(1, 11):
        if shoe[r - 1]:
            after = oracle.remove(shoe, [r])
            want += Fraction(shoe[r - 1], n) * _stand(
                _best((*hand, r)), oracle.dealer_distribution(after, up, False))
    result = analyse_hand("5,6", "6", ENHC, [Card(Rank(r)) for r in REMOVED])
    assert result.one_card is not None
    assert abs(result.one_card - float(want)) <= 1e-12
    assert result.ev["double"] is not None
    # doubling the same draws on a bet of 2 (ENHC "all": a blackjack takes both units)
    assert abs(result.ev["double"] - 2 * float(want)) <= 1e-12


def _oracle_split_hands(rules: BlackjackRules) -> list[Fraction]:
    """The oracle's EV of each split hand of 8,8 vs T (its own setup and solver per hand)."""
    shoe = _shoe((8, 8), 10)
    setups = oracle._split_setups(oracle.RANK_LAYOUT, [(8, None), (8, None)], 10, shoe, rules)
    assert setups is not None
    values = []
    for setup in setups:
        solver = oracle._hand_solver(setup)
        root = (0,) * len(setup.layout)
        values.append(solver.value(root) / solver.weight(root))
    return values


def test_follow_first_split_is_half_the_split_when_blackjack_takes_all() -> None:
    """ENHC "all": each split hand risks the same to a dealer blackjack, so following the
    first hand only is worth half the split; each hand's EV is the oracle's."""
    result = analyse_hand("8,8", "T", ENHC, [Card(Rank(r)) for r in REMOVED])
    assert result.split_hands is not None and result.ev["split"] is not None
    first, second = result.split_hands
    want_first, want_second = _oracle_split_hands(ENHC)
    assert want_first == want_second
    assert abs(Fraction(first) - want_first) < 1e-12
    assert abs(Fraction(second) - want_second) < 1e-12


def test_follow_first_split_under_original_loses_only_the_first_bet() -> None:
    """ENHC "original": a dealer blackjack takes the first hand's bet only, so the second
    split hand is worth more than the first (it loses nothing to a blackjack)."""
    rules = replace(ENHC, enhc_loses="original")
    result = analyse_hand("8,8", "T", rules, [Card(Rank(r)) for r in REMOVED])
    assert result.split_hands is not None
    first, second = result.split_hands
    want_first, want_second = _oracle_split_hands(rules)
    assert want_second > want_first
    assert abs(Fraction(first) - want_first) < 1e-12
    assert abs(Fraction(second) - want_second) < 1e-12


runner = CliRunner()


def test_behind_json_ranks_each_situation_on_its_own() -> None:
    """The follower chooses after the seat doubled *or* after it split: each situation has
    its own best and margin; the choices of a situation the seat cannot be in are null."""
    out = runner.invoke(app, ["behind", "5,6", "--vs", "6", "--rules", "deluxe", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["follow_both_splits"] is None and data["follow_first_split"] is None
    assert data["best_after_split"] is None and data["margin_after_split"] is None
    assert data["best_after_double"] == "follow_double"  # 11 vs 6: doubling is worth it
    assert data["margin_after_double"] == pytest.approx(
        data["follow_double"] - data["no_follow_double"], abs=1e-15)
    assert "best" not in data
    tens = json.loads(runner.invoke(app, ["behind", "T,T", "--vs", "6", "--rules", "deluxe",
                                          "--json"]).stdout)
    for situation, keys in (("double", ("follow_double", "no_follow_double")),
                            ("split", ("follow_both_splits", "follow_first_split"))):
        values = [tens[k] for k in keys]
        assert tens[f"best_after_{situation}"] == keys[values.index(max(values))]
        assert tens[f"margin_after_{situation}"] == pytest.approx(abs(values[0] - values[1]))


def test_behind_without_a_choice_is_an_error() -> None:
    out = runner.invoke(app, ["behind", "T,7", "--vs", "6", "--rules", "macau-1983"])
    assert out.exit_code == 2 and out.stderr.startswith("error: ")


def test_edge_autoplay_json() -> None:
    out = runner.invoke(app, ["edge", "--rules", "deluxe", "--decks", "1", "--strategy",
                              "autoplay", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["strategy"] == "autoplay"
    assert data["rtp"] == pytest.approx(1 + data["ev"], abs=1e-15)
    assert data["ev"] < data["ev_optimal"]


@pytest.mark.slow
def test_bonus_value_is_the_edge_difference() -> None:
    out = runner.invoke(app, ["bonus", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["bonus_value"] == pytest.approx(
        data["ev_with_bonuses"] - data["ev_without_bonuses"], abs=1e-15)
    assert data["value_777"] > 0 and data["value_suited_678"] > 0
    assert {"hand": "7,7", "up": "T", "without": "surrender", "with": "hit"} in \
        data["changed_plays"]


def test_bonus_on_a_ruleset_without_bonuses_is_an_error() -> None:
    out = runner.invoke(app, ["bonus", "--rules", "deluxe"])
    assert out.exit_code == 2 and "pays no" in out.stderr


@pytest.mark.parametrize(("pair", "up"), [("8,8", "T"), ("7,7", "T"), ("6,6", "7")])
def test_post_split_knowledge_never_hurts(pair: str, up: str) -> None:
    """The second hand choosing with the first hand's cards in view can only gain."""
    rules = BlackjackRules(decks=1, hole_card="peek", double_after_split=True)
    result = analyse_hand(pair, up, rules, postsplit=True)
    assert result.ev["split"] is not None and result.split_postsplit is not None
    assert result.split_postsplit >= result.ev["split"] - 1e-15
    assert result.split_postsplit - result.ev["split"] < 0.01


def test_post_split_equals_the_baseline_when_there_is_nothing_to_decide() -> None:
    """Split aces get one card each: no decision, so what the first hand showed
    cannot change the second's play, and by exchangeability the EVs are equal."""
    rules = BlackjackRules(decks=1, hole_card="peek")
    result = analyse_hand("A,A", "6", rules, postsplit=True)
    assert result.ev["split"] is not None and result.split_postsplit is not None
    assert result.split_postsplit == pytest.approx(result.ev["split"], abs=1e-14)
