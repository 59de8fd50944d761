"""``dealer_22_pushes``: when the dealer ends on exactly 22, every player hand still
standing pushes (Free Bet and Blackjack Switch's rule); a player blackjack is still paid,
a busted hand has already lost.

The oracles (tests/oracles/: ``bj_oracle``, ``oracle_round``, ``oracle_boxes``) learn the
rule from that sentence, apart from the engine (their dealer ends on "22" as an outcome
of its own, which pushes); every check here compares the engine with one of them, or
with a hand calculation written out below, to 1e-12 on small shoes.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import bj_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle_round import RoundOracle
from test_split_strategies import _engine_split
from typer.testing import CliRunner

import strategy_calc as sc
from strategy_calc.blackjack.hand_analysis import analyse_hand, dealer_outcomes
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.cli import app
from strategy_calc.rules import BlackjackRules

TOL = 1e-12

rules_st = st.builds(
    BlackjackRules,
    decks=st.just(1),
    dealer_22_pushes=st.just(True),
    hole_card=st.sampled_from(["peek", "enhc"]),
    enhc_loses=st.sampled_from(["all", "original"]),
    dealer_hits_soft_17=st.booleans(),
    double_on=st.sampled_from(["any", "9-11", "10-11"]),
    surrender=st.sampled_from(["none", "late", "early"]),
    bonus_777=st.sampled_from([0.0, 3.0]),
    blackjack_pays=st.sampled_from([1.5, 1.2]),
)


@st.composite
def deals(draw: st.DrawFn, low: int, high: int) -> tuple[
        BlackjackRules, tuple[int, ...], int, tuple[int, ...]]:
    """(rules, hand ranks, up rank, removed ranks) from one deck with removals."""
    rules = draw(rules_st)
    pool = [r for r in range(1, 11) for _ in range(16 if r == 10 else 4)]
    order = draw(st.permutations(pool))
    hand, up = order[:2], order[2]
    n_removed = draw(st.integers(low, high))
    return rules, tuple(hand), up, tuple(order[3:3 + n_removed])


def _cards(ranks: tuple[int, ...]) -> list[Card]:
    return [Card(Rank(r)) for r in ranks]


def _shoe(hand: tuple[int, ...], up: int, removed: tuple[int, ...]) -> tuple[int, ...]:
    return oracle.remove(oracle.full_shoe(1), [*hand, up, *removed])


# ------------------------------------------------------------------ a hand calculation


def test_a_standing_19_pushes_the_dealers_only_22() -> None:
    """Hand calculation: ENHC, T,9 against a 6; the cards left are one ten and one 6.
    The dealer's second card is the ten (1/2: 16, he draws the 6: 22) or the 6 (1/2:
    12, he draws the ten: 22): he ends on 22 for sure. With the rule standing pushes
    (EV 0); without, it wins (EV +1). Hitting takes the ten or the 6 and busts (-1)."""
    removed = [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4 + [5] * 4 + [6] * 2 + [7] * 4 + [8] * 4 \
        + [9] * 3 + [10] * 14
    on = BlackjackRules(decks=1, hole_card="enhc", dealer_22_pushes=True, surrender="none")
    got = analyse_hand(_cards((10, 9)), Card(Rank(6)), on, _cards(tuple(removed)))
    assert got.ev["stand"] == 0.0
    assert got.ev["hit"] == -1.0
    assert got.dealer["22"] == 1.0 and got.dealer["bust"] == 0.0
    off = analyse_hand(_cards((10, 9)), Card(Rank(6)), replace(on, dealer_22_pushes=False),
                       _cards(tuple(removed)))
    assert off.ev["stand"] == 1.0
    assert off.dealer["bust"] == 1.0 and "22" not in off.dealer


# ------------------------------------------------------------ the dealer and one hand


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("up", range(1, 11))
def test_dealer_22_is_an_outcome_of_its_own_as_the_oracle_counts_it(up: int, h17: bool) -> None:
    """Full deck less the up card: the engine's 17..21, bust (23 or more), 22 and
    blackjack equal the oracle's; "bust" + "22" is the bust of the rule's absence."""
    rules = BlackjackRules(decks=1, hole_card="enhc", dealer_hits_soft_17=h17,
                           dealer_22_pushes=True)
    shoe = oracle.remove(oracle.full_shoe(1), [up])
    got = dealer_outcomes(Shoe.full(1).remove([Card(Rank(up))]), Rank(up), rules)
    want = oracle.dealer_distribution(shoe, up, h17, push22=True)
    assert set(got) == set(want)
    for key, value in want.items():
        assert abs(got[key] - float(value)) <= TOL, key
    plain = oracle.dealer_distribution(shoe, up, h17)
    assert want["bust"] + want["22"] == plain["bust"]


@pytest.mark.oracle
@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(deals(24, 34))
def test_hand_evs_with_dealer_22_pushes_match_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    """Every action of one hand (peek exact, ENHC all / original, H17, 7-7-7) on a
    one-deck shoe with 24 to 34 cards gone (15 to 25 left: 4.5 CPU-s for the 60 examples;
    18 to 32 gone took 8.7)."""
    rules, hand, up, removed = deal
    if sum(hand) > 21:
        hand = (hand[0], 1)
    exact = oracle.hand_evs(hand, up, _shoe(hand, up, removed), rules)
    got = analyse_hand(_cards(hand), Card(Rank(up)), rules, _cards(removed)).ev
    if sum(hand) + 10 * (1 in hand) == 21:  # a hand of 21 stands: the engine reports no hit
        exact = {**exact, "hit": None}
    for key in ("stand", "hit", "double", "surrender", "insurance"):
        want = exact.get(key)
        if want is None:
            assert got[key] is None, key
        else:
            assert got[key] is not None and abs(got[key] - float(want)) <= TOL, key


@pytest.mark.oracle
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(deals(10, 30))
def test_exact_fractions_with_dealer_22_pushes_equal_the_oracle(deal: tuple) -> None:  # type: ignore[type-arg]
    """``hand --exact``: the dealer's outcomes ("22" among them) and standing, digit for
    digit."""
    from strategy_calc.blackjack.exact import hand_exact

    rules, hand, up, removed = deal
    rules = replace(rules, bonus_777=0.0)
    if sum(hand) > 21:
        hand = (hand[0], 1)
    result = analyse_hand(_cards(hand), Card(Rank(up)), rules, _cards(removed))
    exact = hand_exact(result)
    shoe = _shoe(hand, up, removed)
    dist = (oracle.dealer_distribution_no_blackjack(shoe, up, rules.dealer_hits_soft_17, True)
            if rules.peek else
            oracle.dealer_distribution(shoe, up, rules.dealer_hits_soft_17, True))
    for key, value in dist.items():
        assert Fraction(exact["dealer"][key]) == value, key
    assert Fraction(exact["stand"]) == oracle.hand_evs(hand, up, shoe, rules)["stand"]


# ------------------------------------------------------------------------- splits

SPLITS = [  # (rules, pair, up, shoe left: one deck less the pair, the up card, removals)
    (BlackjackRules(decks=1, dealer_22_pushes=True), 8, 6, (1, 1, 1, 1, 1, 1, 1, 0, 2, 6)),
    (BlackjackRules(decks=1, dealer_22_pushes=True, hole_card="enhc", enhc_loses="original"),
     6, 5, (1, 1, 1, 1, 1, 0, 1, 1, 1, 6)),
    (BlackjackRules(decks=1, dealer_22_pushes=True, hole_card="enhc", max_split_hands=3,
                    dealer_hits_soft_17=True), 2, 4, (1, 0, 1, 0, 1, 1, 1, 1, 1, 6)),
]


@pytest.mark.oracle
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"), SPLITS,
                         ids=["peek", "original", "3-hands"])
def test_optimal_split_with_dealer_22_pushes_is_the_brute_force_optimum(
        rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    """``--split-strategy optimal`` against the casino-order optimum of the split."""
    want = oracle.split_ev_optimal_bruteforce(pair, up, shoe, rules)
    assert want is not None
    assert abs(_engine_split(rules, pair, up, shoe, "optimal") - float(want)) <= TOL


@pytest.mark.oracle
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"), SPLITS[:2], ids=["peek", "original"])
def test_split_with_dealer_22_pushes_equals_both_hands_played_from_one_shoe(
        rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    """The default split (each hand its own best play) against the oracle's split and its
    sequential brute force (both hands, then the dealer, from one shoe)."""
    got = _engine_split(rules, pair, up, shoe, "cdp1")
    for want in (oracle.split_ev(pair, up, shoe, rules),
                 oracle.split_ev_bruteforce(pair, up, shoe, rules)):
        assert want is not None and abs(got - float(want)) <= TOL


# ------------------------------------------------------------ whole rounds and boxes

ROUNDS = [  # (ruleset, tiny shoe of rank counts, overrides)
    ("deluxe", (1, 1, 1, 1, 1, 1, 1, 1, 1, 6), ()),
    ("macau-1983", (1, 1, 1, 1, 2, 1, 3, 1, 2, 6), ("bonus_suited_678=0",)),
    ("macau-1983", (1, 1, 1, 1, 1, 1, 3, 1, 1, 6), ("bonus_suited_678=0", "enhc_loses=original",
                                                   "dealer_hits_soft_17=true")),
]


@pytest.mark.oracle
@pytest.mark.parametrize(("name", "counts", "sets"), ROUNDS,
                         ids=["deluxe", "macau", "macau-orig-h17"])
def test_round_with_dealer_22_pushes_equals_the_casino_order_brute_force(
        name: str, counts: tuple[int, ...], sets: tuple[str, ...]) -> None:
    """``edge``/``risk`` on a tiny shoe: the optimal and the chart's round EV, and the
    distribution of the round's net result bin by bin (``risk``'s input), against
    ``oracle_round`` dealing every round in casino order."""
    rules = sc.blackjack_rules(name, ["decks=1", "dealer_22_pushes=true", *sets])
    game = sc.analyse_game(rules, shoe=Shoe.from_counts(counts, decks=1), distribution=True)
    brute = RoundOracle(rules, counts)
    optimal = brute.analyse("optimal")
    assert abs(float(optimal.ev) - game.ev_optimal) <= TOL
    assert game.outcomes_optimal is not None
    bins = optimal.bins()
    for key in set(bins) | set(game.outcomes_optimal):
        assert abs(bins.get(key, 0.0) - game.outcomes_optimal.get(key, 0.0)) <= TOL, key
    from oracle_round import Chart

    chart = brute.analyse("chart", Chart(game.hard, game.soft, game.pairs, game.insure))
    assert abs(float(chart.ev) - game.ev_basic) <= TOL
    assert game.outcomes_basic is not None
    bins = chart.bins()
    for key in set(bins) | set(game.outcomes_basic):
        assert abs(bins.get(key, 0.0) - game.outcomes_basic.get(key, 0.0)) <= TOL, key


# -------------------------------------------------- every analysis reads the rule


def _json(*args: str) -> dict:  # type: ignore[type-arg]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_sweep_and_edge_agree_on_dealer_22_pushes() -> None:
    """``sweep`` of the field gives the figures ``edge --set`` gives (one deck)."""
    off = _json("edge", "--rules", "deluxe", "--decks", "1")["ev"]
    on = _json("edge", "--rules", "deluxe", "--decks", "1", "--set", "dealer_22_pushes=true")["ev"]
    assert on < off
    sweep = _json("sweep", "--rules", "deluxe", "--set", "decks=1", "--vary",
                  "dealer_22_pushes=false,true", "--yes", "--jobs", "1")
    text = json.dumps(sweep)
    assert repr(on) in text and repr(off) in text


@pytest.mark.slow
def test_count_plays_dealer_22_pushes() -> None:
    """``count`` (a short seeded run: the same shoes either way) plays the rule's game:
    its slug, and a lower exact EV of the rounds dealt."""
    args = ("count", "--rules", "deluxe", "--decks", "2", "--rounds", "20", "--seed", "1",
            "--jobs", "1", "--yes")
    off, on = _json(*args), _json(*args, "--set", "dealer_22_pushes=true")
    assert "22-push" in json.dumps(on) and "22-push" not in json.dumps(off)
    assert on != off


@pytest.mark.parametrize("bad", ["maybe", "2", ""])
def test_a_bad_dealer_22_pushes_is_one_error_line(bad: str) -> None:
    result = CliRunner().invoke(app, ["edge", "--rules", "deluxe", "--set",
                                      f"dealer_22_pushes={bad}"])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and "dealer_22_pushes" in lines[0]


def test_rules_shows_dealer_22_pushes_with_its_meaning() -> None:
    result = CliRunner().invoke(app, ["rules", "deluxe"])
    assert result.exit_code == 0
    line = next(line for line in result.output.splitlines() if "dealer_22_pushes" in line)
    assert "false" in line.lower()
    assert "22" in result.output.split("dealer_22_pushes", 1)[1][:400]


# ---------------------------------------------------------------- a published figure

# docs/REFERENCE.md "Dealer 22": Wizard of Odds, "Push 22", P(the dealer draws to 22),
# dealer hits soft 17, by decks (the page's S17 column is not reproduced: see there).
WIZARD_PUSH22_H17 = {1: 0.073362, 2: 0.073470, 3: 0.073504, 4: 0.073520, 5: 0.073530,
                     6: 0.073536, 7: 0.073541, 8: 0.073544}


@pytest.mark.parametrize("decks", sorted(WIZARD_PUSH22_H17))
def test_chance_of_a_dealer_22_is_wizard_of_odds_push_22_table(decks: int) -> None:
    rules = BlackjackRules(decks=decks, hole_card="enhc", dealer_hits_soft_17=True,
                           dealer_22_pushes=True)
    full = Shoe.full(decks)
    p22 = sum(full.counts[u - 1] / full.total
              * dealer_outcomes(full.remove([Card(Rank(u))]), Rank(u), rules)["22"]
              for u in range(1, 11))
    assert p22 == pytest.approx(WIZARD_PUSH22_H17[decks], abs=5e-7)
