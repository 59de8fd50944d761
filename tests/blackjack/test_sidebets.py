"""The pair side bet (docs/RULES.md section 2, Deluxe "Pair side bet").

Hand calculations are written out next to each figure; removed cards of
unknown suit are checked against brute-force averaging over the physical
cards they could have been.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from strategy_calc.blackjack.pair_bet import (
    RANKS,
    NoPairBetError,
    PairShoe,
    analyse_pair,
    parse_pair_cards,
)
from strategy_calc.cards import SUITS, CardError
from strategy_calc.cli import app
from strategy_calc.render.hand import pair_text
from strategy_calc.rules import BlackjackRules, RulesError, blackjack_rules

runner = CliRunner()


def perfect_rules(decks: int) -> BlackjackRules:
    """The perfect-pairs table at its default 25/12/6 payouts."""
    return BlackjackRules(name="test", decks=decks, pair_bet="perfect")


# --- hand calculations, full shoes -------------------------------------------------


def test_eight_decks_perfect_pairs_probabilities() -> None:
    # 8 decks = 416 cards, 8 of each rank+suit. Whatever the first card is, 415 remain:
    # perfect:  7 more of its rank and suit                          -> 7/415
    # coloured: 8 of its rank in the other suit of its colour        -> 8/415
    # mixed:    2 suits x 8 of its rank in the other colour = 16     -> 16/415
    odds = analyse_pair(perfect_rules(8))
    assert odds.exact_probabilities() == {
        "perfect": Fraction(7, 415),
        "coloured": Fraction(8, 415),
        "mixed": Fraction(16, 415),
        "no_pair": Fraction(415 - 31, 415),
    }


def test_eight_decks_perfect_pairs_ev_of_the_25_12_6_table() -> None:
    # EV = (25*7 + 12*8 + 6*16 - (415 - 31)) / 415 = (175 + 96 + 96 - 384) / 415 = -17/415
    odds = analyse_pair(perfect_rules(8))
    expected = Fraction(25 * 7 + 12 * 8 + 6 * 16 - (415 - 31), 415)
    assert expected == Fraction(-17, 415)
    assert odds.exact_ev() == expected
    assert odds.ev == pytest.approx(-0.0409639, abs=1e-7)


def test_one_deck_has_no_perfect_pairs() -> None:
    # 1 deck: one card per rank+suit. After the first card, 51 left:
    # perfect 0; coloured: 1 card (the other suit of its colour) -> 1/51;
    # mixed: 2 cards (its rank in the two suits of the other colour) -> 2/51.
    p = analyse_pair(perfect_rules(1)).exact_probabilities()
    assert p["perfect"] == 0
    assert p["coloured"] == Fraction(1, 51)
    assert p["mixed"] == Fraction(2, 51)
    assert p["no_pair"] == Fraction(48, 51)


def test_any_pair_eleven_to_one_at_eight_decks() -> None:
    # Any pair: 31 cards of the first card's rank left (32 - 1) of 415 -> 31/415.
    # EV = (11 * 31 - 384) / 415 = -43/415 (the baccarat pair bet's figure too).
    odds = analyse_pair(BlackjackRules(decks=8, pair_bet="any", pair_pays_any=11))
    assert odds.exact_probabilities() == {"pair": Fraction(31, 415),
                                          "no_pair": Fraction(384, 415)}
    assert odds.exact_ev() == Fraction(11 * 31 - 384, 415) == Fraction(-43, 415)


def test_jacks_and_queens_are_different_ranks() -> None:
    # 1 deck, every card but the jacks and queens removed: 8 cards left, 4 J + 4 Q.
    # A pair needs the same rank: after the first card, 3 of its 7 companions match.
    others = [f"{r}{s}" for r in RANKS if r not in "JQ" for s in SUITS]
    p = analyse_pair(BlackjackRules(decks=1, pair_bet="any"), others).exact_probabilities()
    assert p["pair"] == Fraction(3, 7)


# --- removed cards -----------------------------------------------------------------


def test_removed_kings_of_known_suit() -> None:
    # 1 deck less Kh, Kd: 50 cards, 50*49 = 2450 ordered first-two-card deals.
    # Kings left: Ks, Kc (no red king). Other 12 ranks: one card per suit.
    # coloured (ordered): kings 2*(0*0 + 1*1) = 2, each other rank 2*(1+1) = 4 -> 2 + 48 = 50
    # mixed (ordered):    kings 2*(0+0)*(1+1) = 0, each other rank 2*2*2 = 8 -> 96
    odds = analyse_pair(perfect_rules(1), "Kh,Kd")
    assert odds.shoe.cards_left == 50
    assert odds.coloured == Fraction(50, 2450) == Fraction(1, 49)
    assert odds.mixed == Fraction(96, 2450)
    assert odds.perfect == 0


def test_removed_card_of_known_suit_at_two_decks() -> None:
    # 2 decks less Ks: 103 cards, 103*102 ordered deals.
    # kings: s=1, h=2, d=2, c=2. perfect: 0 + 2 + 2 + 2 = 6; other 12 ranks 4*2 = 8 each.
    # coloured: kings 2*(2*2 + 1*2) = 12; others 2*(4 + 4) = 16 each.
    # mixed: kings 2*(2+2)*(1+2) = 24; others 2*4*4 = 32 each.
    odds = analyse_pair(perfect_rules(2), "Ks")
    pairs = 103 * 102
    assert odds.perfect == Fraction(6 + 12 * 8, pairs)
    assert odds.coloured == Fraction(12 + 12 * 16, pairs)
    assert odds.mixed == Fraction(24 + 12 * 32, pairs)


def test_unknown_suit_removal_is_the_average_over_its_four_suits() -> None:
    # A king of unknown suit out of a full 2-deck shoe: each suit equally likely
    # (2 kings of each suit), so the exact answer is the plain average of the
    # four known-suit cases.
    unknown = analyse_pair(perfect_rules(2), "K").shoe.exact_probabilities()
    cases = [analyse_pair(perfect_rules(2), f"K{s}").shoe.exact_probabilities() for s in SUITS]
    for key in ("perfect", "coloured", "mixed", "no_pair"):
        assert unknown[key] == sum((case[key] for case in cases), Fraction(0)) / 4
    # By hand: the kings' perfect-pair count 4*2 = 8 times f = (7*6)/(8*7) = 3/4 -> 6,
    # equal to every known-suit case's 0 + 2 + 2 + 2.
    assert unknown["perfect"] == Fraction(6 + 12 * 8, 103 * 102)


def test_unknown_suit_is_not_the_plug_in_of_expected_counts() -> None:
    # 1 deck less one king, suit unknown. Whatever suit went, one colour keeps both
    # its kings: 2 ordered coloured king pairs. The plug-in a_s = 3/4 would give
    # 2*2*(3/4)^2 = 9/4 instead. Other ranks: 12 * 4 = 48. 51*50 = 2550 deals.
    odds = analyse_pair(perfect_rules(1), "K")
    assert odds.coloured == Fraction(2 + 48, 2550)
    assert odds.coloured != Fraction(Fraction(9, 4) + 48, 2550)


def test_unknown_suit_weights_follow_the_known_removals() -> None:
    # 1 deck less Ks then a king of unknown suit: it is h, d or c, each 1/3.
    unknown = analyse_pair(perfect_rules(1), "Ks,K").shoe.exact_probabilities()
    cases = [analyse_pair(perfect_rules(1), f"Ks,K{s}").shoe.exact_probabilities()
             for s in "hdc"]
    for key in unknown:
        assert unknown[key] == sum((case[key] for case in cases), Fraction(0)) / 3


def brute_force(decks: int, removed: str) -> dict[str, Fraction]:
    """Enumerate which physical cards the unknown-suit removals were (each equally
    likely), then every ordered pair of the cards left; average the outcomes."""
    shoe = [(r, s, copy) for r in RANKS for s in SUITS for copy in range(decks)]
    unknown: Counter[str] = Counter()
    for card in parse_pair_cards(removed):
        if card.suit is None:
            unknown[card.rank] += 1
        else:
            shoe.remove(next(c for c in shoe if c[:2] == (card.rank, card.suit)))
    choices = [list(itertools.combinations([c for c in shoe if c[0] == rank], n))
               for rank, n in unknown.items()]
    deals = (len(shoe) - sum(unknown.values())) * (len(shoe) - sum(unknown.values()) - 1)
    totals: Counter[str] = Counter()
    scenarios = 0
    for picked in itertools.product(*choices):
        gone = {c for group in picked for c in group}
        left = [c for c in shoe if c not in gone]
        scenarios += 1
        for a, b in itertools.permutations(left, 2):
            if a[0] != b[0]:
                key = "no_pair"
            elif a[1] == b[1]:
                key = "perfect"
            elif (a[1] in "hd") == (b[1] in "hd"):
                key = "coloured"
            else:
                key = "mixed"
            totals[key] += 1
    return {k: Fraction(totals[k], scenarios * deals)
            for k in ("perfect", "coloured", "mixed", "no_pair")}


@pytest.mark.oracle
@pytest.mark.parametrize(("decks", "removed"), [
    (1, "K"),
    (2, "K"),
    (2, "K,K,Kh"),
    (2, "7s,7,7,7d,Q,2c"),
    (3, "A,A,A,As,As"),
])
def test_matches_brute_force_over_the_unknown_suits(decks: int, removed: str) -> None:
    assert PairShoe.full(decks).remove(parse_pair_cards(removed)).exact_probabilities() == (
        brute_force(decks, removed))


@pytest.mark.oracle
@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["A", "5", "T", "K"]),
                          st.sampled_from(["", "s", "h", "d", "c"])), max_size=5))
def test_property_matches_brute_force_on_two_decks(cards: list[tuple[str, str]]) -> None:
    removed = ",".join(rank + suit for rank, suit in cards)
    try:
        shoe = PairShoe.full(2).remove(parse_pair_cards(removed))
    except CardError:
        return  # a rank+suit asked for more than twice: not a shoe
    probabilities = shoe.exact_probabilities()
    assert sum(probabilities.values()) == 1
    assert probabilities == brute_force(2, removed)


# --- errors ------------------------------------------------------------------------


def test_too_many_cards_of_a_rank_or_suit_is_an_error() -> None:
    with pytest.raises(CardError, match="more K of spades than the 1-deck shoe holds"):
        analyse_pair(perfect_rules(1), "Ks,Ks")
    with pytest.raises(CardError, match="more 5s than the 1-deck shoe holds"):
        analyse_pair(perfect_rules(1), "5,5,5,5,5")
    with pytest.raises(CardError, match="more Ks than the 1-deck shoe holds"):
        analyse_pair(perfect_rules(1), "Kh,Kd,K,K,K")
    with pytest.raises(CardError, match="unknown card"):
        analyse_pair(perfect_rules(1), "Z")


def test_no_pair_bet_in_the_ruleset_is_an_error() -> None:
    with pytest.raises(NoPairBetError, match="--set pair_bet=perfect"):
        analyse_pair(blackjack_rules("macau-1983"))
    assert issubclass(NoPairBetError, RulesError) and issubclass(NoPairBetError, ValueError)


# --- CLI contract ------------------------------------------------------------------


def test_cli_json_contract_for_deluxe() -> None:
    result = runner.invoke(app, ["sidebet", "pair", "--rules", "deluxe", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"ev", "probabilities", "pays", "rules", "decks", "removed", "table"}
    assert (data["rules"], data["decks"], data["removed"], data["table"]) == (
        "deluxe", 8, [], "perfect")
    assert data["probabilities"] == {"perfect": 7 / 415, "coloured": 8 / 415,
                                     "mixed": 16 / 415, "no_pair": 384 / 415}
    assert data["pays"] == {"perfect": 25.0, "coloured": 12.0, "mixed": 6.0, "no_pair": -1.0}
    assert data["ev"] == -17 / 415
    assert data["exact"]["ev"] == "-17/415"


def test_cli_any_table_decks_and_removed() -> None:
    result = runner.invoke(app, ["sidebet", "pair", "--rules", "deluxe", "--set", "pair_bet=any",
                                 "--decks", "1",
                                 "--removed", "5,5,Kh,10s", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["table"] == "any" and data["decks"] == 1
    assert data["removed"] == ["5", "5", "Kh", "Ts"]
    assert set(data["probabilities"]) == {"pair", "no_pair"}
    # 48 cards: ranks with 4 left give 4*3 ordered pairs (10 of them), 5s 2*1, K and T 3*2.
    pair = Fraction(10 * 12 + 2 + 2 * 6, 48 * 47)
    assert data["exact"]["probabilities"]["pair"] == str(pair)
    assert data["pays"] == {"pair": 11.0, "no_pair": -1.0}
    assert data["ev"] == pytest.approx(float(12 * pair - 1))


def test_cli_text_output_is_a_table() -> None:
    result = runner.invoke(app, ["sidebet", "pair", "--rules", "deluxe"])
    assert result.exit_code == 0, result.output
    assert "perfect pairs table" in result.stdout
    assert "7/415" in result.stdout
    assert result.stdout.strip().endswith("(house edge 4.0964%; exact -17/415)")
    odds = analyse_pair(blackjack_rules("deluxe"), "")
    assert pair_text(odds) == result.stdout.rstrip("\n")


@pytest.mark.parametrize(("args", "message"), [
    (["--rules", "macau-1983"], "error: ruleset 'macau-1983' has no pair side bet"),
    (["--removed", "Ks,Ks", "--decks", "1"], "error: more K of spades than the 1-deck"),
    (["--removed", "K,K,K,K,K", "--decks", "1"], "error: more Ks than the 1-deck shoe holds"),
    (["--removed", "X"], "error: unknown card 'X'"),
    (["--set", "pair_bet=some"], "error: invalid value 'some' for pair_bet"),
])
def test_cli_errors_are_one_line_with_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sidebet", "pair", "--rules", "deluxe", *args, "--json"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.stderr
