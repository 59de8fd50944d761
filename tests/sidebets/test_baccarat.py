"""Baccarat's side bets on the finished round, exact for any shoe: the engine's line
probabilities against the brute force of tests/oracles/baccarat_sidebet_oracle.py (every
round dealt card by card in casino order from the third-card tableau of docs/RULES.md,
exact fractions) on small shoes, as equal fractions and as the floats `price` gives to
1e-12 (the command line and its errors: tests/cli/test_sidebet.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from baccarat_sidebet_oracle import SETTLE, SIDE_WINS, brute_force

from strategy_calc import _engine
from strategy_calc.cards import FACES
from strategy_calc.engine import BACCARAT_CELLS
from strategy_calc.sidebets.events import End, find_event
from strategy_calc.sidebets.exact import end_cells, end_probabilities, face_count_shoe, price
from strategy_calc.sidebets.paytables import BUILTIN_FILES, builtin_sidebet

pytestmark = pytest.mark.xdist_group("baccarat-sidebet-oracle")  # one worker: `ways`

BETS = tuple(bet for bet in SETTLE if bet in BUILTIN_FILES)
"""The built-in baccarat bets the oracle settles."""

# Small shoes of mixed ranks: sixes, sevens, eights and nines with tens and low cards, so
# that every line can happen (two- and three-card sixes, naturals and natural ties, wins
# by 4 to 9, three-card sevens and eights, ties on several points, pairs).
SHOES = {
    "sixes and tens": "6677889TTKA23",  # 13 cards, 9 faces
    "low and tens": "5566778899TTQ",  # 13 cards, 8 faces
}
SLOW_SHOES = {
    "fourteen": "66778899TTKA23",  # 14 cards, 10 faces
    "ten": "A2346789TJ",  # 10 cards, 10 faces
}


def engine_fractions(bet: str, shoe: str) -> dict[str, Fraction]:
    """The engine's exact line probabilities: its deal counts over all deals."""
    counts = [shoe.count(f) for f in FACES]
    deals, _, grid = _engine.baccarat_deal_counts(counts)
    cells = end_cells(builtin_sidebet(bet).event)
    return {line: Fraction(sum(grid[i] for i in found), deals)
            for line, found in cells.items()}


def assert_agrees(bet: str, shoe: str) -> None:
    """Equal fractions on every line, and `price`'s floats to 1e-12 (lose included)."""
    oracle = brute_force(bet, shoe)
    odds = price(builtin_sidebet(bet), face_count_shoe(tuple(shoe.count(f) for f in FACES)))
    if builtin_sidebet(bet).event.settle_end is not None:
        exact = engine_fractions(bet, shoe)
        assert {line: p for line, p in exact.items() if p} == {
            line: p for line, p in oracle.items() if line != "lose"}
    assert set(oracle) <= set(odds.probabilities)
    worst = max(abs(p - float(oracle.get(line, 0))) for line, p in odds.probabilities.items())
    assert worst < 1e-12, (bet, odds.probabilities, oracle)


@pytest.mark.parametrize("shoe", SHOES.values(), ids=SHOES)
@pytest.mark.parametrize("bet", BETS)
def test_each_baccarat_bet_on_a_small_shoe_agrees_with_the_brute_force(bet: str, shoe: str
                                                                        ) -> None:
    assert_agrees(bet, shoe)


@pytest.mark.slow
@pytest.mark.oracle
@pytest.mark.parametrize("shoe", SLOW_SHOES.values(), ids=SLOW_SHOES)
@pytest.mark.parametrize("bet", BETS)
def test_each_baccarat_bet_on_more_small_shoes_agrees_with_the_brute_force(bet: str,
                                                                           shoe: str) -> None:
    assert_agrees(bet, shoe)


@pytest.mark.parametrize("bet", BETS)
def test_every_line_happens_on_the_fast_shoes(bet: str) -> None:
    # so that the agreement above is not vacuous for any line
    seen = {line for shoe in SHOES.values() for line, p in brute_force(bet, shoe).items()
            if p}
    assert set(builtin_sidebet(bet).event.lines) <= seen


def test_five_tens_and_a_six_by_hand() -> None:
    # Six cards, so the round deals all of them and the 6 is equally likely at each of the
    # six places (P, B, P, B, third cards). In the Player's first two (2/6) he stands on 6
    # and the Banker draws a ten: Player 6-0 on three cards. In the Banker's first two
    # (2/6) the Player draws a ten (a third card of 0) and the Banker stands on 6: Banker
    # 6-0 on two cards. The Player's third card (1/6): Player 6-0. The Banker's (1/6): the
    # Player 0 on three cards, the Banker draws on 0 to a 6: Banker 6-0 on three cards.
    shoe = "TTTTT6"
    expected = {
        "lucky6": {"two_card_six": Fraction(1, 3), "three_card_six": Fraction(1, 6),
                   "lose": Fraction(1, 2)},
        "dragon-bonus-player": {"win_by_6": Fraction(1, 2), "lose": Fraction(1, 2)},
        "dragon-bonus-banker": {"win_by_6": Fraction(1, 2), "lose": Fraction(1, 2)},
    }
    for bet, lines in expected.items():
        assert brute_force(bet, shoe) == lines
        odds = price(builtin_sidebet(bet), face_count_shoe(tuple(shoe.count(f) for f in FACES)))
        assert {line: p for line, p in odds.probabilities.items() if p} == {
            line: float(p) for line, p in lines.items()}


@pytest.mark.parametrize("removed", ["", "5,5,K", "Q,Q,Q,J", "9h,9h,9,A"])
def test_the_pairs_as_side_bets_equal_the_baccarat_pair_bets(removed: str) -> None:
    from strategy_calc.baccarat.odds import analyse
    from strategy_calc.rules import baccarat_rules
    from strategy_calc.sidebets.exact import make_shoe

    main = analyse(baccarat_rules("macau-baccarat"), removed).exact_ev()
    for side in ("player", "banker"):
        odds = price(builtin_sidebet(f"{side}-pair"), make_shoe(8, removed))
        assert odds.ev == pytest.approx(float(main[f"{side}_pair"]), abs=1e-15)


@pytest.mark.parametrize("shoe", SHOES.values(), ids=SHOES)
@pytest.mark.parametrize("name", SIDE_WINS)
def test_a_side_wins_event_agrees_with_the_brute_force_of_its_definition(name: str,
                                                                         shoe: str) -> None:
    # the side-wins events (any point, some points, by cards, on two or three cards only),
    # priced from the engine's deal grid, against the oracle's rounds settled from the
    # definition: equal fractions, and the floats to 1e-12
    event = find_event(name)
    oracle = brute_force(name, shoe)
    counts = [shoe.count(f) for f in FACES]
    deals, _, grid = _engine.baccarat_deal_counts(counts)
    exact = {line: Fraction(sum(grid[i] for i in cells), deals)
             for line, cells in end_cells(event).items()}
    assert {line: p for line, p in exact.items() if p} == {
        line: p for line, p in oracle.items() if line != "lose"}
    floats = end_probabilities(event, face_count_shoe(tuple(counts)))
    assert max(abs(p - float(oracle.get(line, 0))) for line, p in floats.items()) < 1e-12
    # so that no line agrees vacuously: every line but an impossible win with 0 happens
    assert {line for line in event.lines if not line.endswith("win_0")} <= {
        line for s in SHOES.values() for line, p in brute_force(name, s).items() if p}


@pytest.mark.parametrize(("old", "family", "lines"), [
    ("banker_six", "banker_wins_with_6_by_cards",
     {"three_card_six": "three_card_win_6", "two_card_six": "two_card_win_6"}),
    ("dragon_7", "banker_wins_with_7_on_three_cards", {"dragon_7": "three_card_win_7"}),
    ("panda_8", "player_wins_with_8_on_three_cards", {"panda_8": "three_card_win_8"}),
])
def test_lucky_6_dragon_7_and_panda_8_are_side_wins_events(old: str, family: str,
                                                          lines: dict[str, str]) -> None:
    # the same rounds settle on the same lines, over every way a round can end
    before, after = find_event(old), find_event(family)
    assert before.settle_end is not None and after.settle_end is not None
    for cell in BACCARAT_CELLS:
        line = before.settle_end(End(*cell))
        assert lines.get(line, line) == after.settle_end(End(*cell)), cell
