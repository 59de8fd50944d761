"""Baccarat (docs/RULES.md section 3): published figures, an independent exact oracle,
hand-worked shoes and the ``strategy-calc baccarat`` command-line contract."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from strategy_calc.baccarat.odds import BETS, RANKS, analyse, analyse_counts, effects_of_removal
from strategy_calc.cli import app
from strategy_calc.rules import BaccaratRules, baccarat_rules

runner = CliRunner()

# ---------------------------------------------------------------------------
# (a) Published figures: docs/REFERENCE.md, "Baccarat" section.
# ---------------------------------------------------------------------------

# docs/REFERENCE.md, Baccarat, table "Ordered 6-card deals (unused cards counted as
# dealt)", rows "6" and "8" (source: casinoexploit.com/baccarat.html):
# decks -> (total, Banker wins, Player wins, Ties).
PUBLISHED_DEALS = {
    6: (878_869_206_895_680, 403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288),
    8: (4_998_398_275_503_360, 2_292_252_566_437_888, 2_230_518_282_592_256,
        475_627_426_473_216),
}

# docs/REFERENCE.md, Baccarat, table "House edge (percent of the bet)", rows "6" and
# "8" (source: multiplayerbaccarat.com/odds.html): Banker, Player, Tie 8:1, Tie 9:1.
PUBLISHED_EDGE = {
    6: ("1.0558", "1.2374", "14.4382", "4.9313"),
    8: ("1.0579", "1.2351", "14.3596", "4.8440"),
}

# docs/REFERENCE.md, Baccarat, "Pair bets (exact)": P(pair), 11:1 edge, edge in percent.
PUBLISHED_PAIRS = {
    6: (Fraction(23, 311), Fraction(35, 311), "11.2540"),
    8: (Fraction(31, 415), Fraction(43, 415), "10.3614"),
}


@pytest.mark.parametrize("decks", [6, 8])
def test_reference_ordered_deal_totals(decks: int) -> None:
    """docs/REFERENCE.md Baccarat "Ordered 6-card deals" row for ``decks``: every integer."""
    odds = analyse(BaccaratRules(decks=decks))
    assert (odds.deals, odds.banker_wins, odds.player_wins, odds.ties) == PUBLISHED_DEALS[decks]


@pytest.mark.parametrize("decks", [6, 8])
def test_reference_house_edges(decks: int) -> None:
    """docs/REFERENCE.md Baccarat "House edge" row for ``decks``, to the 4 decimals printed."""
    banker, player, tie8, tie9 = PUBLISHED_EDGE[decks]
    ev = analyse(baccarat_rules("macau-baccarat", decks=decks)).ev
    assert f"{-100 * ev['banker']:.4f}" == banker
    assert f"{-100 * ev['player']:.4f}" == player
    assert f"{-100 * ev['tie']:.4f}" == tie8
    ev9 = analyse(baccarat_rules("macau-baccarat", ["tie_pays=9:1"], decks=decks)).ev
    assert f"{-100 * ev9['tie']:.4f}" == tie9


@pytest.mark.parametrize("decks", [6, 8])
def test_reference_pair_fractions(decks: int) -> None:
    """docs/REFERENCE.md Baccarat "Pair bets (exact)": P(pair) and the 11:1 edge for ``decks``."""
    probability, edge, percent = PUBLISHED_PAIRS[decks]
    odds = analyse(BaccaratRules(decks=decks))
    exact_p = odds.exact_probabilities()
    exact_ev = odds.exact_ev()
    for side in ("player_pair", "banker_pair"):
        assert exact_p[side] == probability
        assert -exact_ev[side] == edge
        assert f"{-100 * odds.ev[side]:.4f}" == percent


@pytest.mark.parametrize("decks", range(1, 13))
def test_reference_pair_formula_every_deck_count(decks: int) -> None:
    """docs/REFERENCE.md Baccarat "Pair bets": P(pair) = (4d-1)/(52d-1); deals = n(n-1)...(n-5)."""
    odds = analyse(BaccaratRules(decks=decks))
    assert odds.exact_probabilities()["player_pair"] == Fraction(4 * decks - 1, 52 * decks - 1)
    n = 52 * decks
    assert odds.deals == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5)
    assert odds.banker_wins + odds.player_wins + odds.ties == odds.deals


# ---------------------------------------------------------------------------
# (b) An independent exact oracle, written from the docs/RULES.md section 3 table:
# it deals card by card (P1, B1, P2, B2, then third cards) from the 13 ranks,
# multiplying conditional probabilities as Fractions. It knows nothing of
# 6-card deal counts, point classes or the closed form of the pair bets.
# ---------------------------------------------------------------------------

ORACLE_VALUE = {"A": 1, **{str(v): v for v in range(2, 10)}, "T": 0, "J": 0, "Q": 0, "K": 0}
"""docs/RULES.md "Values": A = 1, 2..9 face, T/J/Q/K = 0."""

EVERY_CARD = frozenset(range(10))
BANKER_DRAWS_ON = {
    0: EVERY_CARD, 1: EVERY_CARD, 2: EVERY_CARD,   # "0-2 draw"
    3: EVERY_CARD - {8},                           # "3 draws unless c = 8"
    4: frozenset({2, 3, 4, 5, 6, 7}),              # "4 draws if c in 2-7"
    5: frozenset({4, 5, 6, 7}),                    # "5 draws if c in 4-7"
    6: frozenset({6, 7}),                          # "6 draws if c in 6-7"
    7: frozenset(),                                # "7 stands"
}
"""docs/RULES.md "Banker, Player drew card c": Banker's point -> the values c on which it draws."""


def oracle(shoe: dict[str, int]) -> dict[str, Fraction]:
    """Exact probabilities of: banker (win), banker_six (win on 6), player, tie,
    player_pair, banker_pair; ``shoe`` maps rank symbols to the cards left."""
    left = dict(shoe)
    out = dict.fromkeys(
        ("banker", "banker_six", "player", "tie", "player_pair", "banker_pair"), Fraction(0))

    def draw(chance: Fraction) -> Iterator[tuple[str, Fraction]]:
        """Each next card with the chance of getting here and drawing it (taken out meanwhile)."""
        n = sum(left.values())
        for rank in list(left):
            if left[rank]:
                chance_rank = chance * Fraction(left[rank], n)
                left[rank] -= 1
                yield rank, chance_rank
                left[rank] += 1

    def point(*cards: str) -> int:
        return sum(ORACLE_VALUE[c] for c in cards) % 10

    def finish(player: int, banker: int, chance: Fraction) -> Iterator[tuple[int, int, Fraction]]:
        if player >= 8 or banker >= 8:        # "Naturals": nobody draws
            yield player, banker, chance
        elif player <= 5:                     # "Player draws a third card on 0-5"
            for third, chance3 in draw(chance):
                player3 = (player + ORACLE_VALUE[third]) % 10
                if ORACLE_VALUE[third] in BANKER_DRAWS_ON[banker]:
                    for card, chance4 in draw(chance3):
                        yield player3, (banker + ORACLE_VALUE[card]) % 10, chance4
                else:
                    yield player3, banker, chance3
        elif banker <= 5:                     # "Banker, Player stood: draws on 0-5"
            for card, chance3 in draw(chance):
                yield player, (banker + ORACLE_VALUE[card]) % 10, chance3
        else:                                 # both stand on 6-7
            yield player, banker, chance

    for p1, c1 in draw(Fraction(1)):
        for b1, c2 in draw(c1):
            for p2, c3 in draw(c2):
                for b2, c4 in draw(c3):
                    if p1 == p2:                  # pair = same rank (J-J yes, J-Q no)
                        out["player_pair"] += c4
                    if b1 == b2:
                        out["banker_pair"] += c4
                    for player, banker, chance in finish(point(p1, p2), point(b1, b2), c4):
                        if banker > player:
                            out["banker"] += chance
                            if banker == 6:
                                out["banker_six"] += chance
                        elif player > banker:
                            out["player"] += chance
                        else:
                            out["tie"] += chance
    return out


def oracle_ev(p: dict[str, Fraction], pays: dict[str, Fraction]) -> dict[str, Fraction]:
    """EV per unit bet from the docs/RULES.md "Payouts" row: win ``pays``, lose 1, push on a tie."""
    return {
        "banker": pays["banker"] * (p["banker"] - p["banker_six"]) + pays["six"] * p["banker_six"]
        - p["player"],
        "player": pays["player"] * p["player"] - p["banker"],
        "tie": pays["tie"] * p["tie"] - (1 - p["tie"]),
        "player_pair": pays["pair"] * p["player_pair"] - (1 - p["player_pair"]),
        "banker_pair": pays["pair"] * p["banker_pair"] - (1 - p["banker_pair"]),
    }


MACAU_PAYS = {"banker": Fraction(19, 20), "six": Fraction(19, 20), "player": Fraction(1),
              "tie": Fraction(8), "pair": Fraction(11)}
NO_COMMISSION_PAYS = {"banker": Fraction(1), "six": Fraction(1, 2), "player": Fraction(1),
                      "tie": Fraction(9), "pair": Fraction(11)}
NO_COMMISSION = BaccaratRules(name="no-commission", banker_pays=1, banker_six_pays=0.5,
                              tie_pays=9)


def check_against_oracle(shoe: dict[str, int]) -> None:
    counts = [shoe.get(rank, 0) for rank in RANKS]
    expected = oracle(shoe)
    for rules, pays in ((BaccaratRules(), MACAU_PAYS), (NO_COMMISSION, NO_COMMISSION_PAYS)):
        odds = analyse_counts(rules, counts)
        got = odds.exact_probabilities()
        for key in ("banker", "player", "tie", "player_pair", "banker_pair"):
            assert got[key] == expected[key], key
        assert Fraction(odds.banker_wins_on_six, odds.deals) == expected["banker_six"]
        assert odds.exact_ev() == oracle_ev(expected, pays)


@st.composite
def small_shoes(draw: st.DrawFn) -> dict[str, int]:
    """Up to 6 distinct ranks (any of the 13), 1 to 9 cards each, at least 6 cards."""
    ranks = draw(st.lists(st.sampled_from(RANKS), min_size=1, max_size=6, unique=True))
    shoe = {rank: draw(st.integers(1, 9)) for rank in ranks}
    shoe[ranks[0]] += max(0, 6 - sum(shoe.values()))
    return shoe


@pytest.mark.oracle
@settings(max_examples=100, deadline=None, derandomize=True)
@given(small_shoes())
def test_engine_agrees_with_the_oracle_on_random_shoes(shoe: dict[str, int]) -> None:
    check_against_oracle(shoe)


@pytest.mark.slow
@pytest.mark.parametrize(
    "shoe",
    [
        # medium shoes: 7 to 9 distinct ranks including J, Q, K (under 1 s each)
        {"A": 3, "3": 2, "4": 4, "6": 5, "8": 2, "J": 3, "K": 2},
        {"2": 6, "5": 5, "7": 4, "9": 3, "T": 2, "Q": 2, "K": 1},
        {"A": 2, "2": 1, "3": 3, "4": 2, "5": 2, "6": 1, "7": 2, "8": 3, "9": 2},
    ],
)
def test_engine_agrees_with_the_oracle_on_medium_shoes(shoe: dict[str, int]) -> None:
    check_against_oracle(shoe)


# ---------------------------------------------------------------------------
# (c) Shoes worked out by hand.
# ---------------------------------------------------------------------------


def shoe_of(**cards: int) -> list[int]:
    """Counts per rank from keywords such as ``T=4, n9=2`` (``nX`` for the digit X)."""
    return [cards.get(rank if rank.isalpha() else f"n{rank}", 0) for rank in RANKS]


def test_hand_shoe_of_tens_and_jacks_always_ties() -> None:
    """4 T + 4 J: every card is worth 0, so both sides stay on 0 whatever is drawn:
    always a tie. Player Pair = T-T or J-J = (4*3 + 4*3) / (8*7) = 3/7 (J-T is no pair),
    so it wins 11 * 3/7 - 4/7 = 29/7 per unit; Tie wins 8; Player and Banker push."""
    odds = analyse_counts(BaccaratRules(), shoe_of(T=4, J=4))
    assert odds.deals == 8 * 7 * 6 * 5 * 4 * 3
    assert odds.ties == odds.deals
    assert odds.exact_probabilities()["player_pair"] == Fraction(3, 7)
    assert odds.exact_ev() == {"banker": 0, "player": 0, "tie": 8,
                               "player_pair": Fraction(29, 7), "banker_pair": Fraction(29, 7)}
    assert odds.best == "tie" and odds.best_is_positive


def test_hand_shoe_of_tens_and_nines() -> None:
    """4 T + 2 nines = 6 cards, all of them dealt: 720 orderings. Split by the number
    of nines the Player (i) and the Banker (j) hold in their first two cards. Weight of
    one arrangement of the first 4 cards with k nines: 2_(k) * 4_(4-k) = 24, 48, 24 for
    k = 0, 1, 2, and there are C(2,i) C(2,j) arrangements (out of 6*5*4*3 = 360):

    * (0,0) 24: both 0, nobody natural; Player draws a 9, Banker (0) draws the other 9: tie.
    * (1,0) 96: Player natural 9 beats 0.      * (0,1) 96: Banker natural 9 wins.
    * (1,1) 96: 9 against 9, tie.              * (2,0) 24: Player 9+9 = 8 natural beats 0.
    * (0,2) 24: Banker 8 natural wins.

    So Banker, Player and Tie each win 120/360 = 1/3: Banker EV 0.95/3 - 1/3 = -1/60,
    Player 0, Tie 8/3 - 2/3 = 2. Pair: (4*3 + 2*1)/(6*5) = 7/15, EV 11*7/15 - 8/15 = 23/5.
    """
    odds = analyse_counts(BaccaratRules(), shoe_of(T=4, n9=2))
    assert (odds.deals, odds.banker_wins, odds.player_wins, odds.ties) == (720, 240, 240, 240)
    assert odds.exact_ev() == {"banker": Fraction(-1, 60), "player": 0, "tie": 2,
                               "player_pair": Fraction(23, 5), "banker_pair": Fraction(23, 5)}
    assert odds.best == "player_pair"


def test_hand_shoe_of_tens_and_eights_banker_six() -> None:
    """4 T + 2 eights, as above with 8s (T+8 = 8, 8+8 = 6): (0,0) 24: both 0, Player
    draws an 8, Banker (0) draws the other 8: tie. (1,0) 96 Player natural, (0,1) 96
    Banker natural, (1,1) 96 tie. (2,0) 24: Player 6 stands, Banker 0 draws a T: Player
    6 beats 0. (0,2) 24: Player 0 draws a T (0), Banker 6 stands (Player's third is a
    0): Banker wins WITH A SIX, 24/360 = 1/15. So 1/3 each; with a commission-free
    Banker (1:1, 1:2 on a six): EV = (1/3 - 1/15) + (1/2)(1/15) - 1/3 = -1/30."""
    odds = analyse_counts(NO_COMMISSION, shoe_of(T=4, n8=2))
    assert (odds.deals, odds.banker_wins, odds.player_wins, odds.ties) == (720, 240, 240, 240)
    assert Fraction(odds.banker_wins_on_six, odds.deals) == Fraction(1, 15)
    assert odds.exact_ev()["banker"] == Fraction(-1, 30)
    assert odds.exact_ev()["tie"] == 9 * Fraction(1, 3) - Fraction(2, 3)


def test_hand_pair_needs_the_same_rank_not_the_same_value() -> None:
    """3 J + 3 Q: all worth 0, but J-Q is no pair: P(pair) = (3*2 + 3*2)/(6*5) = 2/5."""
    odds = analyse_counts(BaccaratRules(), shoe_of(J=3, Q=3))
    assert odds.exact_probabilities()["player_pair"] == Fraction(2, 5)
    assert odds.exact_probabilities()["banker_pair"] == Fraction(2, 5)


def test_hand_pair_unchanged_by_removing_one_card_from_a_full_shoe() -> None:
    """Removing one card of any rank from a full d-deck shoe (n = 52d) keeps P(pair):
    [(4d-1)(4d-2) + 12*4d(4d-1)] / ((n-1)(n-2)) = (4d-1)(52d-2) / ((52d-1)(52d-2))."""
    eor = effects_of_removal(analyse(BaccaratRules(decks=2)))
    for rank in RANKS:
        delta = eor[rank]
        assert delta is not None
        assert delta["player_pair"] == 0 and delta["banker_pair"] == 0


# ---------------------------------------------------------------------------
# Effects of removal and rules.
# ---------------------------------------------------------------------------


def test_effects_of_removal_are_differences_of_exact_evs() -> None:
    base = analyse(BaccaratRules(decks=1), "5,5,K")
    eor = effects_of_removal(base)
    assert list(eor) == list(RANKS)
    after = analyse(BaccaratRules(decks=1), "5,5,K,7")
    delta = eor["7"]
    assert delta is not None
    assert {bet: after.exact_ev()[bet] - base.exact_ev()[bet] for bet in BETS} == delta
    # on a full shoe T, J, Q, K are interchangeable
    full = effects_of_removal(analyse(BaccaratRules(decks=8)))
    assert full["T"] == full["J"] == full["Q"] == full["K"]


def test_effects_of_removal_of_a_missing_rank_is_none() -> None:
    eor = effects_of_removal(analyse(BaccaratRules(decks=1), "A,A,A,Ad"))
    assert eor["A"] is None
    assert eor["2"] is not None


def test_rules_file_and_validation(tmp_path: Path) -> None:
    path = tmp_path / "tie9.toml"
    path.write_text('base = "macau-baccarat"\ndecks = 6\ntie_pays = 9.0\n', encoding="utf-8")
    rules = baccarat_rules(str(path))
    assert (rules.name, rules.decks, rules.tie_pays) == ("tie9", 6, 9.0)
    with pytest.raises(ValueError, match="banker_pays must be a number >= 0"):
        BaccaratRules(banker_pays=-0.5)
    with pytest.raises(ValueError, match="decks must be between 1 and 25"):
        baccarat_rules(decks=26)


def test_builtin_ruleset_is_the_default_rules() -> None:
    """macau-baccarat.toml sets every field to the docs/RULES.md section 3 value."""
    assert baccarat_rules("macau-baccarat") == BaccaratRules(name="macau-baccarat")


# ---------------------------------------------------------------------------
# (d) The CLI contract: strategy-calc baccarat [...] [--json].
# ---------------------------------------------------------------------------


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["baccarat", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_cli_json_contract_keys() -> None:
    data = run_json()
    assert data["rules"] == "macau-baccarat"
    assert data["decks"] == 8
    assert data["removed"] == []
    assert data["probabilities"] == pytest.approx(
        {"banker": 0.458597, "player": 0.446247, "tie": 0.095156}, abs=1e-6)
    ev = data["ev"]
    assert isinstance(ev, dict) and set(ev) == set(BETS)
    assert ev["banker"] == pytest.approx(-0.010579, abs=1e-6)
    assert data["best"] == "banker"
    assert "eor" not in data


def test_cli_json_decks_removed_and_eor() -> None:
    data = run_json("--decks", "6", "--removed", "5,5,Kd,10h,q", "--eor")
    assert data["decks"] == 6
    assert data["removed"] == ["5", "5", "K", "T", "Q"]
    eor = data["eor"]
    assert isinstance(eor, dict) and list(eor) == list(RANKS)
    assert all(isinstance(d, dict) and set(d) == set(BETS) for d in eor.values())
    expected = analyse(BaccaratRules(decks=6), "5,5,K,T,Q")
    assert data["ev"] == expected.ev


def test_cli_json_exact_fractions_sum_to_one() -> None:
    data = run_json("--exact", "--decks", "6")
    exact = data["exact"]
    assert isinstance(exact, dict)
    assert sum(Fraction(v) for v in exact["probabilities"].values()) == 1
    assert Fraction(exact["ev"]["player_pair"]) == Fraction(-35, 311)


def test_cli_rules_file_and_set(tmp_path: Path) -> None:
    """docs/REFERENCE.md Baccarat "House edge" row 8, column "Tie 9:1" (4.8440) via a file."""
    path = tmp_path / "tie9.toml"
    path.write_text('base = "macau-baccarat"\nname = "tie9"\ntie_pays = 9\n',
                    encoding="utf-8")
    data = run_json("--rules", str(path))
    assert data["rules"] == "tie9"
    assert isinstance(data["ev"], dict)
    assert f"{-100 * data['ev']['tie']:.4f}" == "4.8440"
    data = run_json("--set", "tie_pays=9:1")
    assert isinstance(data["ev"], dict)
    assert f"{-100 * data['ev']['tie']:.4f}" == "4.8440"


def test_cli_text_table_and_positive_best_bet() -> None:
    result = runner.invoke(app, ["baccarat", "--exact", "--eor"])
    assert result.exit_code == 0, result.output
    for text in ("Banker", "Player Pair", "0.95:1", "11:1", "1.0579%",
                 "no bet has positive expectation", "EV(player_pair) = -43/415"):
        assert text in result.stdout
    # 1 deck down to its 4 tens and 4 jacks: always a tie, Tie 8:1 is the best bet
    others = [rank for rank in RANKS if rank not in "TJ"]
    removed = ",".join(rank for rank in others for _ in range(4))
    result = runner.invoke(app, ["baccarat", "--decks", "1", "--removed", removed])
    assert result.exit_code == 0, result.output
    assert "Best bet: Tie, EV +8.000000 per unit bet: positive expectation" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--removed", "X"], "unknown card 'X'"),
        (["--removed", "5, 1Z"], "unknown card '1Z'"),
        (["--removed", "5,,5"], "empty card in the list '5,,5'"),
        (["--decks", "1", "--removed", "5h,5h"], "more 5 of hearts than the 1-deck shoe holds"),
        (["--decks", "1", "--removed", "J,J,J,J,Jh"], "more Js than the 1-deck shoe holds"),
        (["--decks", "1", "--removed", ",".join(["A", "2", "3", "4", "5", "6", "7", "8",
                                                 "9", "T", "J", "Q"] * 4 + ["K"] * 2)],
         "only 2 cards left"),
        (["--decks", "26"], "decks must be between 1 and 25"),
        (["--set", "colour=red"], "unknown field 'colour' for baccarat rules"),
        (["--set", "tie_pays=lots"], "invalid value 'lots' for tie_pays"),
        (["--set", "tie_pays=-8"], "tie_pays must be a number >= 0"),
        (["--rules", "deluxe"], "ruleset 'deluxe' is for blackjack, not baccarat"),
        (["--rules", "no/such/file.toml"], "unknown ruleset 'no/such/file.toml'"),
    ],
)
def test_cli_errors_are_one_line_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["baccarat", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("decks = [", "invalid ruleset file"),
        ('game = "baccarat"\nshoe_colour = "red"\n', "unknown field 'shoe_colour'"),
        ('base = "macau-baccarat"\ndecks = "eight"\n', "invalid value 'eight' for decks"),
        ('game = "baccarat"\ntie_pays = 9\n', "names no base and leaves 14 fields unset"),
        ('base = "deluxe"\ngame = "baccarat"\n', "but its base deluxe is for blackjack"),
    ],
)
def test_cli_bad_ruleset_files(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["baccarat", "--rules", str(path), "--json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_shoe_given_per_face_is_the_same_as_decks_and_removed_cards() -> None:
    """--shoe lists the cards per face: 32 of each is 8 decks; 8 decks less two fives and a
    king is --removed 5,5,K."""
    import json

    from typer.testing import CliRunner

    from strategy_calc.cli import app

    runner = CliRunner()
    full = ",".join(f"{face}=32" for face in "A23456789TJQK")

    def run(*args: str) -> dict[str, object]:
        result = runner.invoke(app, ["baccarat", *args, "--json"])
        assert result.exit_code == 0, result.output
        data: dict[str, object] = json.loads(result.stdout)
        return data

    assert run("--shoe", full) == run("--decks", "8")
    short = full.replace("5=32", "5=30").replace("K=32", "K=31")
    assert run("--shoe", short)["ev"] == run("--decks", "8", "--removed", "5,5,K")["ev"]
