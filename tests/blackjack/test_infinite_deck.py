"""An infinite deck (``--decks inf``, issue 47): every card drawn with replacement, exactly.

The engine's with-replacement mode is checked against the with-replacement oracle
(tests/oracles/infinite_deck_oracle.py, written from the rules text: an ace and each of
2..9 with chance 1/13, a ten-valued card 4/13, whatever was dealt) to 1e-12, and the
whole game against Wizard of Odds' infinite-deck house edge (blackjack appendix 1,
docs/REFERENCE.md "Infinite deck") to his printed places. Analyses that deal, count or
remove real cards refuse it with one error line.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import infinite_deck_oracle as infinite
import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.exact import dealer_exact, stand_exact
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.game_pass import PassRequest, whole_game_pass
from strategy_calc.blackjack.hand_analysis import analyse_hand, dealer_outcomes
from strategy_calc.cards import MAX_DECKS, Card, Rank, Shoe
from strategy_calc.cli import app, run
from strategy_calc.rules import BlackjackRules, blackjack_rules

runner = CliRunner()
TOL = 1e-12
PEEK = BlackjackRules(decks="inf", hole_card="peek", surrender="none", bonus_777=0.0,
                      bonus_suited_678=0.0, double_on="any", max_split_hands=2,
                      double_after_split=True, split_aces_one_card=True)
ENHC = replace(PEEK, hole_card="enhc", enhc_loses="all")
KEYS = ("17", "18", "19", "20", "21", "bust", "blackjack")


def _ranks(*ranks: int) -> list[Card]:
    return [Card(Rank(r)) for r in ranks]


@pytest.mark.parametrize("h17", [False, True])
def test_the_dealer_of_an_infinite_deck_draws_with_replacement(h17: bool) -> None:
    rules = replace(ENHC, dealer_hits_soft_17=h17)
    for up in range(1, 11):
        want = infinite.dealer(up, h17)
        got = dealer_outcomes(Shoe.full("inf"), Rank(up), rules)
        for key in KEYS:
            assert abs(got[key] - float(want[key])) <= TOL, (up, key)


@pytest.mark.parametrize(("rules", "hand", "up"), [
    (PEEK, (10, 6), 10), (PEEK, (9, 2), 1), (PEEK, (1, 7), 9), (PEEK, (5, 3), 6),
    (ENHC, (10, 6), 10), (ENHC, (1, 6), 1), (ENHC, (4, 4, 4), 7)])
def test_stand_hit_and_double_of_an_infinite_deck_equal_the_with_replacement_oracle(
        rules: BlackjackRules, hand: tuple[int, ...], up: int) -> None:
    """Peek: given no dealer blackjack (the oracle's ``peek``); ENHC: his blackjack takes
    every bet. A hand holding more of a rank than one deck does is fine with replacement."""
    got = analyse_hand(_ranks(*hand), Card(Rank(up)), rules, []).ev
    hard, has_ace = sum(hand), 1 in hand
    total = infinite.best_total(hard, has_ace)
    want = {"stand": infinite.stand(total, up, False, rules.peek),
            "hit": infinite.hit(hard, has_ace, up, False, rules.peek)}
    if len(hand) == 2:
        want["double"] = infinite.double(hard, has_ace, up, False, rules.peek)
    for action, value in want.items():
        assert abs(got[action] - float(value)) <= TOL, (action, got, value)


@pytest.mark.parametrize("rules", [PEEK, ENHC])
def test_standing_16_wins_exactly_when_the_dealer_of_an_infinite_deck_busts(
        rules: BlackjackRules) -> None:
    """The outcome distribution (``hand``'s P(win)) draws with replacement too: standing on
    16 wins when the dealer busts (given no blackjack in a peek game)."""
    law = infinite.dealer(10, h17=False)
    bust = law["bust"] / (1 - law["blackjack"]) if rules.peek else law["bust"]
    outcomes = analyse_hand(_ranks(10, 6), Card(Rank.TEN), rules, [], outcomes=True).outcomes
    stand = outcomes["stand"] if outcomes is not None else None
    assert stand is not None and abs(stand["win"] - float(bust)) <= TOL, stand


def test_a_hand_of_five_fours_is_dealt_from_an_infinite_deck() -> None:
    """Five 4s: more than one deck holds, none too many with replacement."""
    got = analyse_hand(_ranks(4, 4, 4, 4, 4), Card(Rank.TEN), PEEK, []).ev
    assert abs(got["stand"] - float(infinite.stand(20, 10, False, True))) <= TOL


@pytest.mark.parametrize(("rules", "pair", "up"), [
    (PEEK, 8, 10), (PEEK, 1, 6), (ENHC, 9, 7), (replace(PEEK, double_after_split=False), 2, 5)])
def test_one_split_of_an_infinite_deck_is_twice_one_independent_hand(
        rules: BlackjackRules, pair: int, up: int) -> None:
    got = analyse_hand(_ranks(pair, pair), Card(Rank(up)), rules, []).ev["split"]
    want = infinite.split(pair, up, False, rules.peek, rules.double_after_split)
    assert got is not None and abs(got - float(want)) <= TOL, (got, want)


def test_every_split_strategy_values_an_infinite_deck_split_alike() -> None:
    """No card dealt tells anything about the next: each hand's best play for its own
    cards is the best play (cdp, cdp-hands, postsplit, the optimal split of one split);
    cdz's pre-split decisions are those too here (no bonus, double after split)."""
    values = {s: analyse_hand(_ranks(8, 8), Card(Rank.TEN), PEEK, [],
                              split_strategy=s).ev["split"]
              for s in ("cdp1", "cdz", "cdp", "cdp-hands", "postsplit", "optimal")}
    want = float(infinite.split(8, 10, False, True, True))
    assert all(v is not None and abs(v - want) <= TOL for v in values.values()), values


# Wizard of Odds, blackjack appendix 1 (docs/REFERENCE.md, "Infinite deck"): S17, peek,
# double any two and after split, split to four hands but aces, one card to split aces.
WOO_RULES = replace(blackjack_rules("deluxe", ["decks=inf"]), surrender="none",
                    max_split_hands=4)
WOO_HOUSE_EDGE_PERCENT = 0.511734
WOO_8_8_VS_10 = {"stand": -0.5404, "hit": -0.5398, "double": -1.0797, "split": -0.4807}


def test_the_infinite_deck_house_edge_is_the_wizard_of_odds_figure() -> None:
    game = analyse_game(WOO_RULES)
    for ev in (game.ev_optimal, game.ev_basic):  # (one play per total: no composition)
        assert abs(-100 * ev - WOO_HOUSE_EDGE_PERCENT) <= 0.5e-6, ev


def test_eight_eight_against_a_ten_is_the_wizard_of_odds_worked_example() -> None:
    got = analyse_hand(_ranks(8, 8), Card(Rank.TEN), WOO_RULES, []).ev
    for action, published in WOO_8_8_VS_10.items():
        value = got[action]
        assert value is not None and abs(value - published) <= 0.5e-4 + 1e-12, action


def test_6250_decks_come_within_two_millionths_of_the_infinite_deck() -> None:
    exact = analyse_game(WOO_RULES).ev_optimal
    many = analyse_game(replace(WOO_RULES, decks=MAX_DECKS)).ev_optimal
    assert many != exact and abs(many - exact) < 2e-6, (many, exact)


def test_the_suited_678_bonus_of_an_infinite_deck_has_independent_suits() -> None:
    """Macau 1983: a three-card suited 6-7-8 pays 3 at once and settles the hand (ENHC:
    before the dealer's blackjack). With replacement a card's suit is uniform and
    independent: a 6,7 of unknown suits hitting to 6-7-8 is suited with chance 1/16."""
    rules = blackjack_rules("macau-1983", ["decks=inf"])
    assert (rules.bonus_suited_678, rules.bonus_settles_hand, rules.peek) == (3.0, True, False)
    for up in (9, 10):
        want = Fraction(0)
        for r in range(1, 11):
            on = infinite.play(13 + r, r == 1, up, False, False)
            if r == 8:
                on = Fraction(1, 16) * 3 + Fraction(15, 16) * on
            want += infinite.p_rank(r) * on
        got = analyse_hand(_ranks(6, 7), Card(Rank(up)), rules, []).ev["hit"]
        assert got is not None and abs(got - float(want)) <= TOL, (up, got, want)


def _macau_split_sevens(up: int) -> Fraction:
    """7,7 split once under macau-1983 with replacement, from the rules text: each hand (no
    double after split) plays its own cards at best, the bonuses counting on split hands
    (3 at once, settling the hand, before the dealer's blackjack): a 7,7 that draws a 7 is
    a 7-7-7; a 7,6 or 7,8 sees its suits, one suit with chance 1/4, and then the missing
    card is of that suit with chance 1/4. The hands are independent: twice one hand."""
    def hit_to(hard: int, bonus_rank: int, q: Fraction) -> Fraction:
        value = Fraction(0)
        for x in range(1, 11):
            on = infinite.play(hard + x, x == 1, up, False, False)
            if x == bonus_rank:
                on = q * 3 + (1 - q) * on
            value += infinite.p_rank(x) * on
        return value

    one = Fraction(0)
    for r in range(1, 11):
        stand = infinite.stand(infinite.best_total(7 + r, r == 1), up, False, False)
        if r == 7:
            value = max(stand, hit_to(14, 7, Fraction(1)))
        elif r in (6, 8):
            value = sum((w * max(stand, hit_to(7 + r, 14 - r, q))
                         for w, q in ((Fraction(1, 4), Fraction(1, 4)),
                                      (Fraction(3, 4), Fraction(0)))), Fraction(0))
        else:
            value = infinite.play(7 + r, r == 1, up, False, False)
        one += infinite.p_rank(r) * value
    return 2 * one


@pytest.mark.parametrize("up", [6, 9])
def test_a_macau_split_of_sevens_sees_its_suits_drawn_with_replacement(up: int) -> None:
    rules = blackjack_rules("macau-1983", ["decks=inf"])
    assert (rules.bonus_on_split_hands, rules.double_after_split) == (True, False)
    got = analyse_hand(_ranks(7, 7), Card(Rank(up)), rules, []).ev["split"]
    want = _macau_split_sevens(up)
    assert got is not None and abs(got - float(want)) <= TOL, (got, want)


def test_a_whole_game_values_a_6_7_start_by_its_suits_drawn_with_replacement() -> None:
    """The whole-game pass splits a 6,7 start by its suits: one suit with chance 1/4 (the
    7's suit is the 6's), then an 8 drawn is of that suit with chance 1/4, whatever the up
    card (an 8 here: with replacement it takes no 8 of its suit away)."""
    rules = blackjack_rules("macau-1983", ["decks=inf"])
    cases = whole_game_pass(PassRequest(rules)).ups[Rank.EIGHT].deals[(6, 7)]
    assert sorted((c.probability, c.q678) for c in cases) == [(0.25, 0.25), (0.75, 0.0)]
    for case in cases:
        want = Fraction(0)
        for r in range(1, 11):
            on = infinite.play(13 + r, r == 1, 8, False, False)
            if r == 8:
                q = Fraction(case.q678)
                on = q * 3 + (1 - q) * on
            want += infinite.p_rank(r) * on
        assert abs(case.hit - float(want)) <= TOL, (case, want)


@pytest.mark.parametrize("up", [10, 6, 1])
@pytest.mark.parametrize("max_hands", [3, 4])
def test_resplit_aces_of_an_infinite_deck_have_independent_hands_given_the_dealer(
        up: int, max_hands: int) -> None:
    """A resplit round's second moment drawn with replacement (it was left blank): split
    aces, one card each, resplit to ``max_hands``, against the oracle's round of hands
    independent given the dealer's total (peek: given no blackjack), to 1e-12."""
    rules = blackjack_rules("deluxe", [f"max_split_hands={max_hands}", "resplit_aces=true"],
                            "inf")
    got = analyse_hand(_ranks(1, 1), Card(Rank(up)), rules, [], outcomes=True)
    mean, square = infinite.split_aces_round(up, max_hands)
    assert got.ev["split"] is not None and abs(got.ev["split"] - float(mean)) <= TOL
    assert got.second_moments is not None
    assert abs((got.second_moments["split"] or 0.0) - float(square)) <= TOL


# The limit of a large shoe: 6,250 decks (the most) differ from the infinite deck by about
# 1/decks, measured 4e-5 on a second moment of 3.7 and 2e-6 on a probability here.
@pytest.mark.parametrize(("ruleset", "pair", "up", "sets"), [
    ("deluxe", 8, 10, ["max_split_hands=4"]),       # resplits, DAS, peek
    ("macau-1983", 9, 10, ["max_split_hands=4"]),   # resplits, ENHC (all bets lost)
    ("macau-1983", 7, 6, []),                        # split sevens seeing their suits
    ("macau-1983", 8, 6, []),
])
def test_an_infinite_deck_split_is_the_limit_of_6250_decks(
        ruleset: str, pair: int, up: int, sets: list[str]) -> None:
    """The split's P(win, push, lose) and second moment, blank under --decks inf before
    (resplit rounds' moments; macau's split 6s, 7s and 8s, whose hands see their suits),
    come within 2e-5 (relative) of 6,250 decks'."""
    def split(decks: int | str) -> tuple[dict[str, float], float]:
        rules = blackjack_rules(ruleset, sets, decks)
        a = analyse_hand(_ranks(pair, pair), Card(Rank(up)), rules, [], outcomes=True)
        assert a.outcomes is not None and a.second_moments is not None
        return dict(a.outcomes["split"] or {}), a.second_moments["split"] or 0.0

    (inf_law, inf_square), (big_law, big_square) = split("inf"), split(6250)
    assert inf_square == pytest.approx(big_square, rel=2e-5)
    if not sets:  # (a resplit round's outcomes are not enumerated, finite or not)
        assert set(inf_law) == {"win", "push", "lose"}
        for key in inf_law:
            assert inf_law[key] == pytest.approx(big_law[key], abs=1e-5), key


def test_the_suits_of_a_split_pair_do_not_matter_drawn_with_replacement() -> None:
    """Macau's split 7s: with replacement no card is gone, so 7d,7d, 7d,7s and 7,7 (suits
    not given) split alike, their round's outcomes too (each hand's next 6 or 8 has its
    suit with chance 1/4 whatever the other drew)."""
    rules = blackjack_rules("macau-1983", decks="inf")
    rounds = [analyse_hand(cards, "T", rules, [], outcomes=True) for cards in
              ("7d,7d", "7d,7s", "7,7")]
    first = rounds[0]
    assert first.outcomes is not None and first.outcomes["split"] is not None
    for other in rounds[1:]:
        assert other.outcomes is not None and other.second_moments is not None
        assert first.second_moments is not None
        assert abs((other.ev["split"] or 0.0) - (first.ev["split"] or 0.0)) <= TOL
        for key, value in first.outcomes["split"].items():
            assert abs((other.outcomes["split"] or {})[key] - value) <= TOL
        assert abs((other.second_moments["split"] or 0.0)
                   - (first.second_moments["split"] or 0.0)) <= TOL


def test_the_post_split_value_of_an_infinite_deck_is_each_hands_own_play() -> None:
    """The second hand seeing the first's cards learns nothing drawn with replacement, so
    --postsplit (refused before) is the split's cdp1 value; with resplits it is refused as
    at any shoe (it is defined for one split)."""
    rules = blackjack_rules("macau-1983", decks="inf")
    got = analyse_hand("7,7", "6", rules, [], postsplit=True)
    assert got.split_postsplit is not None and got.ev["split"] is not None
    assert abs(got.split_postsplit - got.ev["split"]) <= TOL
    big = analyse_hand("7,7", "6", blackjack_rules("macau-1983", decks=6250), [],
                       postsplit=True)
    assert got.split_postsplit == pytest.approx(big.split_postsplit, abs=1e-5)
    assert run(["hand", "8,8", "--vs", "T", "--decks", "inf", "--set", "max_split_hands=4",
                "--postsplit"]) == 2


@pytest.mark.slow  # (sympy's import: about a second)
def test_hand_exact_fractions_of_an_infinite_deck_are_the_oracle_s() -> None:
    """``hand --exact``'s dealer and standing fractions draw with replacement too."""
    dealer = dealer_exact(Shoe.full("inf"), Rank.TEN, False)
    law = infinite.dealer(10, h17=False)
    assert {k: Fraction(str(v)) for k, v in dealer.items()} == law
    stand = stand_exact(16, False, dealer, True, 1.5)
    assert Fraction(str(stand)) == infinite.stand(16, 10, False, True)


def test_decks_inf_is_shown_as_inf_in_json_and_labels() -> None:
    result = runner.invoke(app, ["hand", "T,6", "--vs", "T", "--rules", "deluxe", "--decks",
                                 "INF", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["decks"] == "inf" and data["ruleset"].startswith("deluxe: infD ")
    result = runner.invoke(app, ["edge", "--rules", "deluxe", "--set", "decks=inf", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["decks"] == "inf"


def test_a_sweep_of_an_infinite_deck_is_exact() -> None:
    result = runner.invoke(app, ["sweep", "--rules", "deluxe", "--set", "decks=inf", "--set",
                                 "surrender=none", "--vary", "max_split_hands=4", "--json",
                                 "--jobs", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = {json.dumps(r["overrides"]): r["ev"] for r in data["rows"]}
    assert data["decks"] == "inf"
    assert abs(-100 * rows['{"max_split_hands": "4"}'] - WOO_HOUSE_EDGE_PERCENT) <= 0.5e-6, rows


@pytest.mark.parametrize(("args", "message"), [
    (["count", "--decks", "inf", "--rounds", "10"], "count needs a shoe of whole decks"),
    (["indices", "--decks", "inf"], "indices needs a shoe of whole decks"),
    (["eor", "--decks", "inf"], "effects of removal needs a shoe of whole decks"),
    (["hand", "T,6", "--vs", "T", "--decks", "inf", "--removed", "5"], "no cards to remove"),
    (["hand", "T,6", "--vs", "T", "--decks", "inf", "--shoe",
      "A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=16"], "give --shoe or --decks, not both"),
    (["baccarat", "--decks", "inf"], "'inf' is not a valid int"),
    (["baccarat", "--set", "decks=inf"], "invalid value 'inf' for decks"),
    (["sidebet", "21+3", "--decks", "inf"], "needs a shoe of whole decks"),
    (["hand", "T,6", "--vs", "T", "--decks", "inf", "--boxes", "2"], "infinite deck"),
    (["edge", "--rules", "deluxe", "--decks", "inf", "--set", "max_split_hands=4",
      "--split-strategy", "optimal"], "not computed for an infinite deck"),
    (["hand", "T,6", "--vs", "T", "--decks", "infinite"], "'infinite' is not a valid int"),
])
def test_what_an_infinite_deck_cannot_be_is_one_error_line(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(args) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


@pytest.mark.slow
def test_risk_of_macau_on_an_infinite_deck_has_the_games_ev() -> None:
    """``risk --rules macau-1983 --decks inf`` (refused before: its split 6s, 7s and 8s see
    their suits): the mean of its exact round distribution, built from the split rounds'
    distributions, is the whole game's EV from the split values (another path), to 1e-12."""
    result = runner.invoke(app, ["risk", "--rules", "macau-1983", "--decks", "inf", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["distribution"] == "exact"
    mean = sum(float(x) * p for x, p in data["outcomes"].items())
    assert abs(data["ev"] - data["ev_game"]) <= TOL
    assert abs(mean - data["ev_game"]) <= 1e-9  # (the outcomes rounded to their bins)
