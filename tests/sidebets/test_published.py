"""The built-ins' full-shoe figures against published ones (docs/REFERENCE.md "Side bets:
21+3 and Lucky Ladies")."""

from __future__ import annotations

import pytest

from strategy_calc.sidebets.exact import for_dealer, make_shoe, price
from strategy_calc.sidebets.paytables import builtin_sidebet

# Wizard of Odds, 21+3, version 1 (9 to 1 on every winning hand): the house edge by decks
WIZARD_21_PLUS_3 = {1: 0.1330, 2: 0.0726, 4: 0.0424, 6: 0.0324, 8: 0.0274}


@pytest.mark.parametrize("decks", WIZARD_21_PLUS_3)
def test_21_plus_3_house_edge_is_wizard_of_odds_by_decks(decks: int) -> None:
    odds = price(builtin_sidebet("21+3"), make_shoe(decks))
    assert round(odds.house_edge, 4) == WIZARD_21_PLUS_3[decks]


def test_21_plus_3_six_deck_combinations_are_wizard_of_odds_version_3() -> None:
    # Wizard of Odds' six-deck table: combinations of 3 of 312 cards, C(312, 3) = 5,013,320
    total = 5_013_320
    odds = price(builtin_sidebet("21+3"), make_shoe(6))
    published = {"suited_three_of_a_kind": 1040, "three_of_a_kind": 25272,
                 "straight_flush": 10368, "straight": 155520, "flush": 292896}
    for line, combinations in published.items():
        assert odds.probabilities[line] == pytest.approx(combinations / total, rel=1e-13)
    assert odds.house_edge == pytest.approx(0.032386, abs=5e-7)


def test_lucky_ladies_six_deck_permutations_are_wizard_of_odds_pay_table_a() -> None:
    # 312 * 311 * 310 * 309 = 9,294,695,280 orderings of the four cards
    total = 9_294_695_280
    odds = price(builtin_sidebet("lucky-ladies"), make_shoe(6))
    published = {"qh_pair_dealer_blackjack": 135_360, "qh_pair": 2_738_340,
                 "matched_20": 43_105_500, "suited_20": 193_112_640, "any_20": 744_863_040}
    for line, permutations in published.items():
        assert odds.probabilities[line] == pytest.approx(permutations / total, rel=1e-12)
    assert odds.house_edge == pytest.approx(0.247089, abs=5e-7)


@pytest.mark.parametrize(("decks", "published"), [(8, 0.2405), (1, 0.3816)])
def test_lucky_ladies_house_edge_is_the_published_one_at_eight_and_one_deck(
        decks: int, published: float) -> None:
    # onlineblackjack.org: "from 24.05% for an eight-deck game to 38.16% for a single-deck"
    odds = price(builtin_sidebet("lucky-ladies"), make_shoe(decks))
    assert round(odds.house_edge, 4) == published


def test_21_plus_3_version_3_six_decks_returns_wizard_of_odds_rows() -> None:
    # Wizard of Odds' version 3 rows (pays x probability): 0.020745 + 0.166352 + 0.072383
    # + 0.310214 + 0.292118 - 0.903239 = -0.041427
    odds = price(builtin_sidebet("21+3"), make_shoe(6), "version-3")
    assert odds.ev == pytest.approx(-0.041427, abs=3e-6)


# Wizard of Odds, Buster Blackjack, pay table 1 (3 or 4 cards 2, 5 cards 4, 6 cards 12, 7
# cards 50, 8 or more 250): the house edge by decks, dealer stands / hits soft 17
WIZARD_BUSTER = {1: (0.0877, 0.0689), 2: (0.0848, 0.0651), 4: (0.0831, 0.0629),
                 5: (0.0827, 0.0625), 6: (0.0825, 0.0621), 8: (0.0822, 0.0617)}


@pytest.mark.parametrize("decks", WIZARD_BUSTER)
@pytest.mark.parametrize("h17", [False, True])
def test_buster_house_edge_is_wizard_of_odds_by_decks_and_soft_17(decks: int, h17: bool
                                                                  ) -> None:
    odds = price(for_dealer(builtin_sidebet("buster"), h17), make_shoe(decks))
    assert round(odds.house_edge, 4) == WIZARD_BUSTER[decks][h17]


def test_buster_six_deck_h17_probabilities_are_wizard_of_odds_pay_table_1() -> None:
    odds = price(for_dealer(builtin_sidebet("buster"), True), make_shoe(6))
    p = odds.probabilities
    eight = p["bust_8_or_more"] + p["bust_8_or_more_player_blackjack"]
    seven = p["bust_7"] + p["bust_7_player_blackjack"]
    published = {"8+": (eight, 0.000012), "7": (seven, 0.000214), "6": (p["bust_6"], 0.002638),
                 "5": (p["bust_5"], 0.020473), "4": (p["bust_4"], 0.089392),
                 "3": (p["bust_3"], 0.173032)}
    for line, (ours, theirs) in published.items():
        assert round(ours, 6) == theirs, line
    # the page's "dealer doesn't bust" 0.714241 is 1 less its rows (0.285761) to 1.2e-6:
    # its own total -0.062143 needs 0.714240 (0.652097 of wins less it), which is ours
    assert round(p["lose"], 6) == 0.714240 and abs(p["lose"] - 0.714241) < 1.5e-6
    assert round(eight * 250, 6) == 0.002986  # the page's return of 8 or more cards
    assert round(odds.house_edge, 6) == 0.062143  # the page's total, -0.062143


def test_buster_version_2_house_edge_is_wizard_of_odds_six_decks_s17() -> None:
    odds = price(for_dealer(builtin_sidebet("buster"), False), make_shoe(6), "version-2")
    assert round(odds.house_edge, 4) == 0.0620
# --- baccarat: Wizard of Odds' combinations of the ordered 6-card deals of eight decks ----

BACCARAT_DEALS = 4_998_398_275_503_360
"""416 * 415 * 414 * 413 * 412 * 411: every page below counts its lines out of these."""


def eight_deck_deals(bet: str) -> dict[str, int]:
    """The engine's deals of each line of a baccarat bet on eight decks (exact integers)."""
    from strategy_calc import _engine
    from strategy_calc.sidebets.exact import end_cells

    deals, _, grid = _engine.baccarat_deal_counts([32] * 13)
    assert deals == BACCARAT_DEALS
    return {line: sum(grid[i] for i in cells)
            for line, cells in end_cells(builtin_sidebet(bet).event).items()}


def test_lucky_6_eight_deck_combinations_and_edges_are_wizard_of_odds() -> None:
    # wizardofodds.com/games/baccarat/side-bets/lucky-6/: 2-card winning Banker 6
    # 186,173,936,904,192, 3-card 83,058,367,551,488; house edge 16.68% (Macau, 20 to 1 on
    # three cards: return -0.166836) and 11.70% (Las Vegas, 23 to 1: -0.116985)
    assert eight_deck_deals("lucky6") == {"two_card_six": 186_173_936_904_192,
                                          "three_card_six": 83_058_367_551_488}
    macau = price(builtin_sidebet("lucky6"), make_shoe(8))
    vegas = price(builtin_sidebet("lucky6-vegas"), make_shoe(8))
    assert round(macau.house_edge, 6) == 0.166836
    assert round(vegas.house_edge, 6) == 0.116985


def test_dragon_bonus_eight_deck_combinations_are_wizard_of_odds() -> None:
    # wizardofodds.com/games/baccarat/appendix/5/, "Dragon Bonus — Player" and "— Banker"
    natural = {"natural_win": 812_685_054_124_032, "natural_tie": 89_325_908_267_520}
    assert eight_deck_deals("dragon-bonus-player") == {
        "win_by_9": 18_409_431_764_992, "win_by_8": 34_097_645_543_424,
        "win_by_7": 89_590_261_473_280, "win_by_6": 141_238_897_317_888,
        "win_by_5": 166_169_165_987_840, "win_by_4": 186_780_352_174_080, **natural}
    assert eight_deck_deals("dragon-bonus-banker") == {
        "win_by_9": 15_390_342_909_952, "win_by_8": 28_305_092_784_128,
        "win_by_7": 79_517_099_278_336, "win_by_6": 119_200_072_366_080,
        "win_by_5": 157_275_882_332_160, "win_by_4": 201_147_167_287_296, **natural}


# the same page's "Dragon Bonus House Edge" by decks (Player, Banker), and the eight-deck
# returns -0.026517 and -0.093731
WIZARD_DRAGON_BONUS = {4: (0.0270, 0.0942), 6: (0.0267, 0.0939), 8: (0.0265, 0.0937)}


@pytest.mark.parametrize("decks", WIZARD_DRAGON_BONUS)
def test_dragon_bonus_house_edge_is_wizard_of_odds_by_decks(decks: int) -> None:
    edges = tuple(price(builtin_sidebet(f"dragon-bonus-{side}"), make_shoe(decks)).house_edge
                  for side in ("player", "banker"))
    assert tuple(round(edge, 4) for edge in edges) == WIZARD_DRAGON_BONUS[decks]
    if decks == 8:
        assert tuple(round(edge, 6) for edge in edges) == (0.026517, 0.093731)


def test_dragon_7_and_panda_8_eight_deck_combinations_and_edges_are_wizard_of_odds() -> None:
    # Wizard of Odds, EZ Baccarat (copy at user-casino.com/games/ez-baccarat/): Dragon 7
    # wins 112,633,011,329,024 (return -0.076113), Panda 8 172,660,763,262,976 (-0.101876);
    # Jacobson's edges 7.6113% and 10.1876%
    assert eight_deck_deals("dragon7") == {"dragon_7": 112_633_011_329_024}
    assert eight_deck_deals("panda8") == {"panda_8": 172_660_763_262_976}
    dragon = price(builtin_sidebet("dragon7"), make_shoe(8))
    assert round(dragon.house_edge, 6) == 0.076113
    # Jacobson (888casino.com, card-counting-the-dragonfortune-7-baccarat-side-bet): "The
    # standard deviation is 6.0849. The hit frequency is 2.2534%."
    assert (round(dragon.sd, 4), round(dragon.probabilities["dragon_7"], 6)) == (6.0849,
                                                                                 0.022534)
    assert round(price(builtin_sidebet("panda8"), make_shoe(8)).house_edge, 6) == 0.101876


# Wizard of Odds, "Individual Egalite Bets" (copy of wizardofodds.com/games/baccarat/
# side-bets/egalite/ at daikenfudousan.com): per point, pays, combinations, return
WIZARD_EGALITE = {
    9: (80, 55_146_054_060_032, -0.106348), 8: (80, 54_879_416_675_072, -0.110669),
    7: (45, 101_717_538_899_968, -0.063899), 6: (45, 96_170_001_308_416, -0.114952),
    5: (110, 39_684_046_743_808, -0.118732), 4: (120, 36_294_133_463_040, -0.121401),
    3: (200, 22_250_510_129_408, -0.105243), 2: (225, 20_006_606_104_576, -0.095412),
    1: (215, 20_499_217_668_352, -0.114150), 0: (150, 28_979_901_420_544, -0.124527),
}


@pytest.mark.parametrize("point", WIZARD_EGALITE)
def test_egalite_eight_deck_combinations_and_returns_are_wizard_of_odds(point: int) -> None:
    pays, combinations, ev = WIZARD_EGALITE[point]
    bet = builtin_sidebet(f"egalite-{point}")
    assert bet.paytable()["tie"] == pays
    assert eight_deck_deals(f"egalite-{point}") == {"tie": combinations}
    assert round(price(bet, make_shoe(8)).ev, 6) == ev


def test_the_egalites_add_up_to_the_tie_bet() -> None:
    # the ten ties are the tie bet's 475,627,426,473,216 deals (baccarat --json, the
    # published total of docs/REFERENCE.md)
    assert sum(combinations for _, combinations, _ in WIZARD_EGALITE.values()) == (
        475_627_426_473_216)


@pytest.mark.parametrize("side", ["player", "banker"])
def test_natural_8_and_9_eight_deck_combinations_and_edges_are_wizard_of_odds(side: str
                                                                             ) -> None:
    # Wizard of Odds, Natural Hand Side Bets (copy of wizardofodds.com/games/baccarat/
    # side-bets/natural/ at jndiario.com): Natural 8 wins 472,508,456,071,680 (9 to 1:
    # return -0.054680; 8 to 1: -0.149212), Natural 9 474,361,430,409,216 (9 to 1: house
    # edge 5.10%); "the odds are the same on both the Banker and Player side"
    assert eight_deck_deals(f"natural8-{side}") == {"natural_8": 472_508_456_071_680}
    assert eight_deck_deals(f"natural9-{side}") == {"natural_9": 474_361_430_409_216}
    eight = builtin_sidebet(f"natural8-{side}")
    assert round(price(eight, make_shoe(8)).ev, 6) == -0.054680
    assert round(price(eight, make_shoe(8), "eight").ev, 6) == -0.149212
    assert round(price(builtin_sidebet(f"natural9-{side}"), make_shoe(8)).house_edge, 4) == (
        0.0510)


def test_lucky_6_effects_of_removal_are_wizard_of_odds() -> None:
    # wizardofodds.com/games/baccarat/counting-lucky-6/ (the 23-12 table, eight decks): the
    # effect of removing one card of each rank, times 3274 (his "x3274" column), rank 0 the
    # tens and faces
    from strategy_calc.sidebets.exact import effects_of_removal

    published = {"T": -1.999652, "A": -1.075759, "2": -1.056097, "3": -3.701455,
                 "4": -1.286914, "5": -0.910899, "6": -17.632244, "7": 12.792298,
                 "8": 11.578561, "9": 9.291114}
    faces, _ = effects_of_removal(price(builtin_sidebet("lucky6-vegas"), make_shoe(8)))
    ours = {r.card: r.effect for r in faces}
    for rank, effect in published.items():
        assert ours[rank] is not None and round(ours[rank] * 3274, 6) == effect
    assert ours["J"] == ours["Q"] == ours["K"] == ours["T"]


def test_super_6_eight_deck_edges_are_the_published_ones() -> None:
    # a Banker win on 6 is Lucky 6's two lines together (Wizard of Odds' counts above);
    # 12 to 1: house edge 29.98% (LeoVegas, Super 6); 15 to 1: 13.82%, hit frequency 5.39%
    # (cooper-boating.com, with Jacobson's count)
    twelve = price(builtin_sidebet("super6"), make_shoe(8))
    fifteen = price(builtin_sidebet("super6"), make_shoe(8), "fifteen")
    hit = (186_173_936_904_192 + 83_058_367_551_488) / BACCARAT_DEALS
    assert twelve.probabilities["lose"] == pytest.approx(1 - hit, abs=1e-15)
    assert round(twelve.house_edge, 4) == 0.2998
    assert (round(fifteen.house_edge, 4), round(hit, 4)) == (0.1382, 0.0539)


# Wizard of Odds, Pair Square (wizardofodds.com/games/blackjack/side-bets/pair-square/): six
# decks, C(312, 2) = 48,516 pairs of cards: suited pair 780, non-suited pair 2,808; the
# returns of his pay tables (six decks unless said)
WIZARD_PAIR_SQUARE = {("15-10", 6): -0.106109, ("12-10", 6): -0.154341,
                      ("12-12", 6): -0.038585, ("20-10", 6): -0.025723,
                      ("25-10", 2): -0.106796, ("15", 1): -0.058824}


@pytest.mark.parametrize(("paytable", "decks"), WIZARD_PAIR_SQUARE)
def test_pair_square_returns_are_wizard_of_odds_by_pay_table(paytable: str, decks: int
                                                             ) -> None:
    odds = price(builtin_sidebet("pair-square"), make_shoe(decks), paytable)
    assert odds.ev == pytest.approx(WIZARD_PAIR_SQUARE[paytable, decks], abs=5e-7)


def test_pair_square_six_deck_combinations_and_the_any_pair_edge_are_published() -> None:
    odds = price(builtin_sidebet("pair-square"), make_shoe(6))
    assert odds.probabilities["perfect"] == pytest.approx(780 / 48_516, rel=1e-13)
    unsuited = odds.probabilities["coloured"] + odds.probabilities["mixed"]
    assert unsuited == pytest.approx(2_808 / 48_516, rel=1e-13)
    # Evolution's "Any Pair", 25-8 at eight decks: Wizard of Odds' 4.10%; Jacobson's
    # 20/10 six decks 2.5723% and 25/10 two decks 10.6796%
    any_pair = price(builtin_sidebet("pair-square"), make_shoe(8), "25-8")
    assert round(any_pair.house_edge, 4) == 0.0410
    assert price(builtin_sidebet("pair-square"), make_shoe(6), "20-10").house_edge == \
        pytest.approx(0.025723, abs=5e-7)
    assert price(builtin_sidebet("pair-square"), make_shoe(2), "25-10").house_edge == \
        pytest.approx(0.106796, abs=5e-7)


def test_big_tiger_eight_deck_count_and_edge_are_jacobsons() -> None:
    # a three-card winning Banker 6: Wizard of Odds' Lucky 6 count, 83,058,367,551,488;
    # 50 to 1: Jacobson (advancedadvantageplay.com, Big Tiger) house edge 15.2533%, standard
    # deviation 6.519, hit percentage 1.662%
    assert eight_deck_deals("big-tiger") == {"three_card_win_6": 83_058_367_551_488}
    odds = price(builtin_sidebet("big-tiger"), make_shoe(8))
    assert round(odds.house_edge, 6) == 0.152533
    assert (round(odds.sd, 3), round(odds.probabilities["three_card_win_6"], 5)) == (
        6.519, 0.01662)


@pytest.mark.parametrize(("side", "wins", "ev"), [
    ("player", 942_837_427_226_624, -0.056860), ("banker", 763_885_033_768_960, -0.083044)])
def test_3_card_win_eight_deck_counts_and_returns_are_wizard_of_odds(side: str, wins: int,
                                                                     ev: float) -> None:
    # Wizard of Odds, 3-Card Win (copy of wizardofodds.com/games/baccarat/side-bets/
    # 3-card-win/ at nilapub.com): Player 4 to 1, Banker 5 to 1
    assert eight_deck_deals(f"three-card-win-{side}") == {"three_card_win": wins}
    assert round(price(builtin_sidebet(f"three-card-win-{side}"), make_shoe(8)).ev, 6) == ev


def test_banker_wins_by_total_eight_deck_counts_are_the_published_ones() -> None:
    # excelpunks.com, "Concepts 13: Baccarat Vs. Non-Commission Baccarat": the deals on
    # which the Banker wins with each total 1 .. 9; they add up to the Banker bet's
    # 2,292,252,566,437,888 wins (the baccarat table of docs/REFERENCE.md), and 6 is Lucky
    # 6's two lines together (Wizard of Odds)
    from strategy_calc import _engine
    from strategy_calc.sidebets.events import find_event
    from strategy_calc.sidebets.exact import end_cells

    published = {1: 24_291_119_898_624, 2: 44_681_581_871_104, 3: 72_927_778_568_192,
                 4: 163_359_790_133_248, 5: 216_715_928_915_968, 6: 269_232_304_455_680,
                 7: 384_279_324_919_808, 8: 529_914_458_673_152, 9: 586_850_279_002_112}
    assert sum(published.values()) == 2_292_252_566_437_888
    assert published[6] == 186_173_936_904_192 + 83_058_367_551_488
    event = find_event("banker_wins_with_" + "_or_".join(map(str, published)))
    _, _, grid = _engine.baccarat_deal_counts([32] * 13)
    ours = {line: sum(grid[i] for i in cells) for line, cells in end_cells(event).items()}
    assert ours == {f"win_{t}": n for t, n in published.items()}
