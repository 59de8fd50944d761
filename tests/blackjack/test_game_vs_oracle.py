"""Whole rounds: what ``analyse_game`` reports against a casino-order brute force.

``analyse_game(rules, shoe=..., distribution=True)`` gives the EV of a round off the
top of a shoe and the distribution of its net result, under optimal play and under
its own chart. ``oracle_round`` derives both again from the rules text and the
stated definitions (docs/MODEL.md, strategy.py docstring) by enumerating every deal on a
tiny shoe with exact fractions; see its docstring. Each test is named after the
rule or definition it checks.

Tests marked ``xfail(strict=True)`` are disagreements found by this brute force and
not explained by a reading of the rules text; each reason says what differs. They
fail loudly (XPASS) once the calculator changes there, so the reason can be
revisited.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction

import bj_oracle
import oracle_round
import pytest
from oracle_round import Chart, RoundOracle, RoundResult

import strategy_calc as sc
from strategy_calc.blackjack.game_analysis import GameAnalysis
from strategy_calc.cards import Shoe
from strategy_calc.rules import BlackjackRules

TOL = 1e-12


@dataclass(frozen=True)
class Case:
    """A ruleset (with FIELD=VALUE overrides) and a tiny shoe of rank counts (ace first)."""

    name: str
    counts: tuple[int, ...]
    sets: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}[{','.join(self.sets)}]:{''.join(map(str, self.counts))}"

    @property
    def rules(self) -> BlackjackRules:
        return sc.blackjack_rules(self.name, ["decks=1", *self.sets])

    @property
    def suits(self) -> tuple[tuple[int, ...], ...] | None:
        """The 6s, 7s and 8s spread evenly over the suits (the oracle's default)."""
        if self.rules.bonus_suited_678 == 0:
            return None
        return tuple((self.counts[r - 1] // 4,) * 4 for r in (6, 7, 8))


# Peek game (Deluxe: peek, S17, surrender vs 2-9, split once, DAS, a 21 stands).
DELUXE = [
    Case("deluxe", (1, 1, 1, 1, 1, 1, 1, 1, 1, 6)),
    Case("deluxe", (2, 1, 1, 1, 1, 1, 1, 2, 2, 6)),
    Case("deluxe", (1, 1, 1, 1, 1, 2, 2, 2, 2, 6)),
]
# A peek shoe where the two readings of the total-dependent sums differ against an ace.
DELUXE_PEEK_SCALE = Case("deluxe", (1, 2, 1, 1, 1, 1, 1, 1, 1, 5))
# A peek shoe with exactly tied decisions (hit = stand to the last digit).
DELUXE_TIES = Case("deluxe", (1, 1, 1, 2, 1, 1, 1, 1, 1, 6))
# ENHC, single deck: the hole card is dealt before the player acts, unchecked (Macau
# rule 3); 7-7-7 pays 3 (rank only, so suits are not enumerated here).
MACAU_RANKS = [
    Case("macau-1983", (1, 1, 1, 1, 1, 1, 3, 1, 1, 6), ("bonus_suited_678=0",)),
    Case("macau-1983", (1, 1, 1, 1, 2, 1, 3, 1, 2, 6), ("bonus_suited_678=0",)),
    Case("macau-1983", (1, 1, 1, 1, 1, 1, 3, 1, 1, 6),
         ("bonus_suited_678=0", "enhc_loses=original")),
    Case("macau-1983", (1, 1, 1, 1, 2, 1, 3, 1, 2, 6),
         ("bonus_suited_678=0", "enhc_loses=original")),
]
# Full Macau 1983 with the suited 6-7-8 bonus, from a 2-deck shoe game (the dealer's
# second card comes after the players); one 6, 7 and 8 of each suit.
MACAU_SUITED = [
    Case("macau-1983", (1, 1, 1, 1, 1, 4, 4, 4, 1, 5), ("decks=2",)),
    Case("macau-1983", (1, 1, 1, 1, 1, 4, 4, 4, 2, 5), ("decks=2",)),
    # split 7s and 8s against a 6 decide differently by the up card's suit
    Case("macau-1983", (1, 1, 2, 2, 1, 4, 4, 4, 1, 4), ("decks=2",)),
]
# Where the calculator's total-dependent play leaves the suited 6-7-8 out (see below).
# Even money at 6:5 (RULES.md "Insurance"): worth more than standing on a natural against
# an ace (and, Macau's 1991 amendment, a ten), so optimal play and the chart take it; the
# first shoe is rich enough in tens that insurance pays for some starts too.
EVEN_MONEY = [
    Case("deluxe", (1, 1, 1, 1, 1, 1, 1, 1, 1, 6), ("blackjack_pays=1.2", "even_money=true")),
    Case("macau-1983", (1, 1, 1, 1, 2, 1, 3, 1, 2, 6),
         ("bonus_suited_678=0", "blackjack_pays=1.2", "even_money=true",
          "even_money_vs_ten=true")),
]
# Late surrender against a ten or an ace only (the game of Wizard of Odds' effects-of-removal
# table, docs/REFERENCE.md): peek (surrender after the check) and ENHC (a dealer blackjack
# then takes the whole bet).
LATE_TEN_ACE = [
    Case("deluxe", (1, 1, 1, 1, 1, 1, 1, 1, 1, 6), ("surrender=late_vs_ten_ace",)),
    Case("macau-1983", (1, 1, 1, 1, 2, 1, 3, 1, 2, 6),
         ("bonus_suited_678=0", "surrender=late_vs_ten_ace")),
]

# no_split_ranks (issue 47): the named pairs have no split; peek and ENHC, ranks that
# optimal play would split on these shoes (banning each alone lowers the optimal EV: 8s,
# aces; 4s, 7s; a pair of 5s, which it does not split here, is named too, its pair row
# checked all the same); shoes without exact ties (where the distribution would turn on
# how a tie is broken). (14-18 cards: 2-3 CPU-s each; the 17-21-card shoes took 4.4-7.2)
NO_SPLIT = [
    Case("deluxe", (1, 1, 1, 1, 1, 1, 1, 2, 1, 4), ("no_split_ranks=8",)),
    Case("deluxe", (2, 1, 1, 1, 1, 1, 1, 2, 1, 4), ("no_split_ranks=A,8",)),
    Case("macau-1983", (1, 1, 1, 2, 2, 1, 3, 1, 1, 5),
         ("bonus_suited_678=0", "no_split_ranks=4,5,7")),
]

# charlie_cards (issue 47): shoes of many small cards, so that hands reach five and six
# cards; peek and ENHC (one deck: the hole card dealt unchecked; two decks: after). The
# smallest shoes where the rule still bites, split hands included (the rule's effect
# differs with every pair splittable and with none), without exact ties: a Charlie of five
# on 13 cards (1-2.5 CPU-s each; the 15-card shoes took 3.5-7.5), of six on 14 (9 CPU-s;
# the 16-card shoe took 17; the 13-card ones with six have exact ties).
CHARLIE = [
    Case("deluxe", (2, 1, 1, 1, 1, 1, 1, 1, 1, 3), ("charlie_cards=5",)),
    Case("macau-1983", (2, 1, 1, 1, 1, 1, 1, 1, 1, 3),
         ("bonus_suited_678=0", "charlie_cards=5")),
    Case("macau-1983", (2, 1, 1, 1, 1, 1, 1, 1, 1, 3),
         ("decks=2", "bonus_suited_678=0", "charlie_cards=5", "enhc_loses=original")),
    Case("deluxe", (2, 2, 1, 1, 1, 1, 1, 1, 1, 3),
         ("charlie_cards=6", "hand_of_21_stands=false")),
]

# double_after_hit (issue 47): shoes of many small cards, so that hands of three and more
# cards can double; peek, ENHC (a shoe: the second card after; one deck: the hole card
# dealt at once, unchecked; enhc_loses all and original), double_on any, 9-11 and 10-11 (a
# hand of 21 stands: the oracle's limit), with and without doubling after a split.
# (14-15 cards: each case 3-6 CPU-seconds; the 18-19-card shoes took 30)
DOUBLE_AFTER_HIT = [
    Case("deluxe", (2, 1, 1, 1, 1, 1, 1, 1, 1, 4), ("double_after_hit=true",)),
    Case("macau-1983", (2, 1, 1, 1, 1, 1, 1, 1, 1, 4),
         ("bonus_suited_678=0", "double_after_hit=true", "double_on=9-11",
          "double_after_split=true")),
    Case("deluxe", (2, 2, 1, 1, 1, 1, 1, 1, 1, 4),
         ("double_after_hit=true", "double_after_split=false", "hand_of_21_stands=true")),
    Case("macau-1983", (2, 1, 1, 1, 1, 1, 1, 1, 1, 4),
         ("decks=1", "bonus_suited_678=0", "double_after_hit=true", "double_on=10-11",
          "double_after_split=true", "enhc_loses=original")),
]

PEEK_SCALE_REASON = (
    "total-dependent play, peek game, up A or T: the calculator sums E[result * "
    "1{no blackjack}] (each composition weighted by its draw probability times "
    "P(no dealer blackjack | composition)); the docstring's reading sums the EVs "
    "given no blackjack, which decides hard 15 vs A the other way on this shoe")


def _ids(cases: list[Case]) -> list[str]:
    return [str(c) for c in cases]


def same_worker(case: Case) -> pytest.MarkDecorator:
    """The tests of one case run on one xdist worker (``--dist loadgroup``, set in
    pyproject.toml), so that :func:`brute` and :func:`engine`, cached per process,
    compute each case once."""
    # (xdist reads the group after the last "@" only when no "]" follows it)
    return pytest.mark.xdist_group("oracle-" + re.sub(r"[^\w.=-]", "_", str(case)))


# Cases whose tests run in the deep tier only (`pytest -m deep`, docs/TESTING.md): a
# further shoe for a rule another case checks in the default run: DELUXE[2] beside the
# two other peek shoes (pairs of 6-9 split there as 8s and 9s are in DELUXE[1]), the
# second and third Macau suited shoes (the first stays; the third's split 7s and 8s
# against a 6 that decide by the up card's suit are checked split by split against the
# brute force in tests/blackjack/split/test_split_suit_joint.py), and the larger
# enhc_loses=original shoe (the smaller one stays; the larger one stays under "all").
DEEP = frozenset({DELUXE[2], MACAU_SUITED[1], MACAU_SUITED[2], MACAU_RANKS[3]})


def _param(cases: list[Case], xfail: set[Case] = frozenset(), reason: str = "",
           slow: bool = False) -> list[object]:
    """The cases as parameters: the first in the fast tier, the others (or all) slow,
    those of :data:`DEEP` deep; each in its case's xdist group (:func:`same_worker`)."""
    out = []
    for i, case in enumerate(cases):
        marks = [same_worker(case)]
        if slow or i > 0:
            marks.append(pytest.mark.slow)
        if case in DEEP:
            marks.append(pytest.mark.deep)
        if case in xfail:
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        out.append(pytest.param(case, marks=marks, id=str(case)))
    return out


@functools.cache
def engine(case: Case) -> GameAnalysis:
    """The calculator's round analysis of ``case`` (public API only)."""
    rules = case.rules
    shoe = Shoe.from_counts(case.counts, decks=rules.decks)
    if case.suits is not None:  # tell the calculator the suits the oracle uses
        rows = list(shoe.suits)
        for j, r in enumerate((6, 7, 8)):
            rows[r - 1] = case.suits[j]
        shoe = Shoe(rules.decks, case.counts, tuple(rows))
    return sc.analyse_game(rules, shoe=shoe, distribution=True)


def chart_of(case: Case) -> Chart:
    game = engine(case)
    return Chart(game.hard, game.soft, game.pairs, game.insure)


@functools.lru_cache(maxsize=1)
def _oracle(case: Case, **options: object) -> RoundOracle:
    """The round oracle of ``case``; only the last one asked for is kept (with its memos),
    so that a case's optimal round and its chart's round, which its tests ask one after
    the other (one xdist group), share its dealer and hand memos: the chart's brute
    force does not recompute what the optimal one found (the same exact values)."""
    return RoundOracle(case.rules, case.counts, suits=case.suits, **options)  # type: ignore[arg-type]


@functools.cache
def brute(case: Case, strategy: str, **options: object) -> RoundResult:
    """The oracle's round (only the result is kept; the memos stay with :func:`_oracle`'s
    last oracle)."""
    chart = chart_of(case) if strategy == "chart" else None
    return _oracle(case, **options).analyse(strategy, chart)


def _brute(case: Case, strategy: str, **options: object) -> RoundResult:
    return brute(case, strategy, **dict(sorted(options.items())))


def assert_same_distribution(got: RoundResult, want: dict[float, float]) -> None:
    bins = got.bins()
    for key in sorted(set(bins) | set(want)):
        assert abs(bins.get(key, 0.0) - want.get(key, 0.0)) < TOL, (key, bins.get(key),
                                                                     want.get(key))


def assert_consistent(result: RoundResult) -> None:
    """The oracle's own distribution adds up to 1 and its mean is its EV, exactly."""
    assert sum(result.distribution.values()) == 1
    assert sum(x * p for x, p in result.distribution.items()) == result.ev


def assert_optimal_round_is_the_brute_force(case: Case) -> RoundResult:
    """The engine's optimal EV and round distribution (``risk``) equal the brute force's,
    whose own distribution is consistent; the brute force's result."""
    game = engine(case)
    optimal = _brute(case, "optimal")
    assert_consistent(optimal)
    assert abs(float(optimal.ev) - game.ev_optimal) < TOL
    assert game.outcomes_optimal is not None
    assert_same_distribution(optimal, game.outcomes_optimal)
    return optimal


def assert_chart_round_is_the_brute_force(case: Case, distribution: bool = True) -> None:
    """The chart's EV (and distribution) equal the brute force playing the chart, with the
    calculator's reading of the total-dependent sums (PEEK_SCALE_REASON)."""
    game = engine(case)
    chart = _brute(case, "chart", td_peek_scale="joint")
    assert abs(float(chart.ev) - game.ev_basic) < TOL
    if distribution:
        assert game.outcomes_basic is not None
        assert_same_distribution(chart, game.outcomes_basic)


def without(case: Case, field: str) -> Case:
    """``case`` with its override of ``field`` dropped (the ruleset's own value)."""
    return Case(case.name, case.counts,
                tuple(s for s in case.sets if not s.startswith(field + "=")))


# ------------------------------------------------------------- optimal play


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(DELUXE + MACAU_RANKS + EVEN_MONEY)
                         + _param(LATE_TEN_ACE))
def test_whole_round_optimal_ev_equals_the_brute_force_on_tiny_shoes(case: Case) -> None:
    """docs/MODEL.md "Basic strategy and the house edge": every initial deal, dealer
    blackjacks included, each hand's best composition-dependent play, insured where the
    insurance is worth more than nothing, a natural taking even money where that is
    worth more than standing; peek games with the hole card really dealt and checked,
    single-deck ENHC with it dealt unchecked before the player acts, enhc_loses all /
    original."""
    result = _brute(case, "optimal")
    assert_consistent(result)
    assert abs(float(result.ev) - engine(case).ev_optimal) < TOL


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(DELUXE + MACAU_RANKS + EVEN_MONEY))
def test_round_distribution_equals_the_brute_force(case: Case) -> None:
    """``risk``: the exact distribution of a round's net result (split rounds jointly:
    both hands and the dealer from one shoe), bin by bin."""
    game = engine(case)
    assert game.outcomes_optimal is not None
    assert_same_distribution(_brute(case, "optimal"), game.outcomes_optimal)


@pytest.mark.slow
@pytest.mark.parametrize("case", _param(MACAU_SUITED))
def test_macau_suit_enumeration_equals_the_brute_force(case: Case) -> None:
    """Macau rule 9 with suits: suited 6-7-8 / 7-7-7 pay 3 at once; two-card 6-7, 6-8,
    7-8 starts know their suits and the up card's; split 6s/7s/8s decide knowing the
    suits of their own two cards and the up card's (a 6, 7 or 8 up card of another rank
    is one card of their suited 6-7-8 gone, or not). The brute force deals real suited
    cards."""
    result = _brute(case, "optimal")
    assert_consistent(result)
    assert abs(float(result.ev) - engine(case).ev_optimal) < TOL


@pytest.mark.slow
@pytest.mark.parametrize("case", _param(MACAU_SUITED))
def test_macau_split_hands_draw_their_suited_bonuses_from_one_shoe(case: Case) -> None:
    """Both split hands' suited 6-7-8 come from one shoe: with one 6, 7, 8 of each suit,
    both hands of a split 7 are suited with chance 1/144 given the ranks, not the 1/256
    of two independent 1/16 chances; the round's whole distribution (P(+6) included)
    equals the brute force's (pair cards sharing a suit:
    tests/blackjack/split/test_split_suit_joint.py)."""
    game = engine(case)
    assert game.outcomes_optimal is not None
    assert_same_distribution(_brute(case, "optimal"), game.outcomes_optimal)


@pytest.mark.slow
def test_the_suited_distribution_agrees_once_split_hands_make_no_bonus() -> None:
    """Pins the previous disagreement on split hands: with ``bonus_on_split_hands =
    false`` the suited game's whole distribution agrees."""
    case = Case("macau-1983", MACAU_SUITED[0].counts, ("decks=2", "bonus_on_split_hands=false"))
    game = engine(case)
    result = _brute(case, "optimal")
    assert abs(float(result.ev) - game.ev_optimal) < TOL
    assert game.outcomes_optimal is not None
    assert_same_distribution(result, game.outcomes_optimal)


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(NO_SPLIT))
def test_no_split_ranks_round_equals_the_brute_force(case: Case) -> None:
    """``no_split_ranks``: a pair of a named rank is played as the unsplit hand it is (the
    oracle reads the field's text itself); the optimal EV, the round distribution
    (``risk``) and the chart's EV, with its pair rows, equal the brute force's, and the
    rule changes the EV (the brute force of the same shoe with every pair splittable). The
    chart is played with the calculator's reading of the total-dependent sums (summing
    E[result 1{no blackjack}], PEEK_SCALE_REASON; on these shoes the other reading gives
    the same chart EV, and DELUXE_PEEK_SCALE's tests pin where they differ)."""
    optimal = assert_optimal_round_is_the_brute_force(case)
    assert_chart_round_is_the_brute_force(case, distribution=False)
    game = engine(case)
    banned = {s.partition("=")[2] for s in case.sets if s.startswith("no_split_ranks=")}
    for rank in banned.pop().split(","):
        assert all("P" not in code for code in game.chart.pairs[rank].values())
    free = without(case, "no_split_ranks")
    # the rule bites: the same shoe with every pair splittable is worth more (valued by the
    # engine, which the tests above prove equal to the brute force without the rule)
    assert engine(free).ev_optimal > float(optimal.ev) + TOL


# hand_of_21_stands off with double_on=any (issue 47): a split hand's two-card 21 may be
# doubled; on this shoe split tens that draw an ace double against a 4 or a 5.
DOUBLE_SPLIT_21 = Case("deluxe", (1, 1, 1, 1, 1, 1, 1, 1, 1, 6),
                       ("double_on=any", "hand_of_21_stands=false"))


@pytest.mark.oracle
@same_worker(DOUBLE_SPLIT_21)
def test_a_split_21_is_doubled_where_worth_more_when_a_21_need_not_stand() -> None:
    """``hand_of_21_stands`` false (its field text): a split hand's two-card 21 (ten + ace,
    no blackjack) may be doubled where ``double_on`` allows 21, and optimal play doubles it
    where that is worth more. The oracle reads that text itself: split tens against a 4
    here, the hand T,A doubles (the 21 of a tens-rich shoe draws another ten often enough);
    the engine's optimal EV and round distribution equal the brute force's."""
    case = DOUBLE_SPLIT_21
    oracle = RoundOracle(case.rules, case.counts)
    ctx = oracle.ctx(4, split=True)
    ten_ace = (1, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    unseen = bj_oracle.remove(case.counts, [10, 10, 4, 1])
    _, action = oracle_round._node(ten_ace, unseen, ctx)
    assert action == "double"
    stands = RoundOracle(sc.blackjack_rules("deluxe", ["decks=1", "double_on=any"]),
                         case.counts).ctx(4, split=True)
    assert oracle_round._node(ten_ace, unseen, stands)[1] == "stand"  # (the 21 stands)
    assert_optimal_round_is_the_brute_force(case)


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(CHARLIE, slow=True))
def test_charlie_cards_round_equals_the_brute_force(case: Case) -> None:
    """``charlie_cards``: a hand (split hands too) that reaches that many cards without
    busting wins its bet at once (the oracle reads the field's text itself: in a peek game
    the dealer's blackjack is settled first; under ENHC a dealer blackjack found later does
    not take a Charlie); the total-dependent play leaves a Charlie out of its sums (no
    decision is made there). The optimal EV, the round distribution (``risk``) and the
    chart's EV equal the brute force's, and the rule changes the EV."""
    optimal = assert_optimal_round_is_the_brute_force(case)
    assert_chart_round_is_the_brute_force(case)
    free = without(case, "charlie_cards")
    # the rule bites: the same shoe without a Charlie is worth less (valued by the engine,
    # which the tests above prove equal to the brute force without the rule)
    assert engine(free).ev_optimal < float(optimal.ev) - TOL


BONUS_TABLE = [
    Case("deluxe", (2, 1, 1, 1, 1, 1, 1, 1, 1, 2),
         ("bonus_hands=2-3-4=2 plays-on; A-A-9=3; A-2-3=1.5 not-split",)),
    Case("macau-1983", (2, 2, 1, 1, 1, 1, 2, 1, 1, 2),
         ("bonus_hands=A-2-2=2; 7-7-A=4 plays-on", "bonus_suited_678=0")),
]


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(BONUS_TABLE))
def test_a_bonus_tables_round_equals_the_brute_force(case: Case) -> None:
    """``bonus_hands``: rows of any suits (the oracle reads them from the field's text:
    paid at once when the hand's cards are exactly the row's ranks, then settled or left
    standing on its total, split hands only where the row says; no decision, so the
    total-dependent play leaves them out of its sums), below 21, peek and ENHC. The
    optimal EV, the round distribution (``risk``) and the chart's EV and distribution
    equal the brute force's, and the rows change the round's value."""
    optimal = assert_optimal_round_is_the_brute_force(case)
    assert_chart_round_is_the_brute_force(case)
    assert abs(engine(without(case, "bonus_hands")).ev_optimal - float(optimal.ev)) > 1e-6


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(DOUBLE_AFTER_HIT, slow=True))
def test_double_after_hit_round_equals_the_brute_force(case: Case) -> None:
    """``double_after_hit``: a hand of three or more cards may double within ``double_on``'s
    totals (split hands where ``double_after_split`` lets them double); the oracle reads the
    field's text itself. The optimal EV, the round distribution (``risk``), and the chart's
    EV and distribution (its total-dependent play doubling a total's hands of three or more
    cards where that beats its hit/stand play summed over them) equal the brute force's, and
    the rule changes the optimal EV."""
    optimal = assert_optimal_round_is_the_brute_force(case)
    assert_chart_round_is_the_brute_force(case)
    free = without(case, "double_after_hit")
    # the rule bites (the engine without it is proved equal to the brute force above)
    assert engine(free).ev_optimal < float(optimal.ev) - TOL


# ------------------------------------------------------------------ the chart


@pytest.mark.oracle
@pytest.mark.parametrize("case", _param(DELUXE + MACAU_RANKS + EVEN_MONEY)
                         + _param(MACAU_SUITED, slow=True) + _param(LATE_TEN_ACE))
def test_chart_round_ev_equals_the_brute_force(case: Case) -> None:
    """docs/MODEL.md "Basic strategy and the house edge", (a) playing the chart: two-
    card decisions from the chart (codes per report.CODES; split hands by the row of
    their total), then the total-dependent hit/stand play of the strategy.py
    docstring."""
    result = _brute(case, "chart")
    assert_consistent(result)
    assert abs(float(result.ev) - engine(case).ev_basic) < TOL


@pytest.mark.parametrize(
    "case", _param(DELUXE + MACAU_RANKS + EVEN_MONEY)
    + _param(MACAU_SUITED, slow=True))
def test_chart_round_distribution_equals_the_brute_force(case: Case) -> None:
    game = engine(case)
    assert game.outcomes_basic is not None
    assert_same_distribution(_brute(case, "chart"), game.outcomes_basic)


@pytest.mark.slow
@same_worker(MACAU_SUITED[0])
def test_total_dependent_sums_count_the_suited_bonus_chance() -> None:
    """The total-dependent play counts the suit-averaged 6-7-8 chance of the 6-7 / 6-8 /
    7-8 compositions (the calculator once left it out): on this shoe that makes hard 15
    vs 9 a hit, and leaving it out would give another chart EV."""
    case = MACAU_SUITED[0]
    with_bonus = _brute(case, "chart")
    assert abs(float(with_bonus.ev) - engine(case).ev_basic) < TOL
    without = _brute(case, "chart", td_suited_bonus=False)
    assert abs(float(without.ev) - engine(case).ev_basic) > 1e-6


@pytest.mark.slow
@same_worker(DELUXE[1])
def test_total_dependent_play_weights_a_composition_by_its_draw_probability() -> None:
    """"each weighted by its probability as a draw from the shoe less the up card":
    the probability of drawing that multiset, not of one order of its cards (which
    weighs three-card hands 6 times less than the multiset and changes 4 cells here)."""
    case = DELUXE[1]
    want = engine(case).ev_basic
    assert abs(float(_brute(case, "chart").ev) - want) < TOL
    assert abs(float(_brute(case, "chart", td_weight="sequence").ev) - want) > 1e-6


@pytest.mark.slow
@same_worker(DELUXE_PEEK_SCALE)
def test_peek_total_dependent_play_is_not_the_sum_of_evs_given_no_blackjack() -> None:
    """The definition matters (strategy.py docstring): the calculator weighs each
    composition by its draw probability times P(no dealer blackjack | composition); the
    plain sum of the EVs given no blackjack would decide hard 15 vs A the other way on
    this shoe, and the chart's EV would differ."""
    case = DELUXE_PEEK_SCALE
    assert abs(float(_brute(case, "chart").ev) - engine(case).ev_basic) > 1e-6


@pytest.mark.slow
@same_worker(DELUXE_PEEK_SCALE)
def test_peek_total_dependent_play_of_the_calculator_sums_joint_expectations() -> None:
    """Pins PEEK_SCALE_REASON: summing E[result * 1{no blackjack}] reproduces the
    calculator's chart EV and distribution; optimal play is not affected."""
    case = DELUXE_PEEK_SCALE
    game = engine(case)
    result = _brute(case, "chart", td_peek_scale="joint")
    assert abs(float(result.ev) - game.ev_basic) < TOL
    assert game.outcomes_basic is not None
    assert_same_distribution(result, game.outcomes_basic)
    assert abs(float(_brute(case, "optimal").ev) - game.ev_optimal) < TOL


# -------------------------------------------------- ties, order, self-checks


@pytest.mark.slow
def test_exact_ties_stand_and_change_the_distribution_but_not_the_ev() -> None:
    """A decision where hitting and standing have exactly equal EVs (tiny shoes make
    them: here A,2,4,6 against a 7, both -89/165): the EV is the same either way; the
    distribution depends on the choice. docs/MODEL.md "Exact ties": the calmer play is
    taken, so the calculator stands, as the oracle does by its default tie order (the
    engine's floats put hit 1 ulp above stand here, so before the one rule it hit)."""
    case = DELUXE_TIES
    game = engine(case)
    assert game.outcomes_optimal is not None
    stand_first = _brute(case, "optimal")
    hit_first = _brute(case, "optimal", tie_order=("hit", "stand", "double", "surrender",
                                                    "split"))
    assert stand_first.ev == hit_first.ev
    assert abs(float(stand_first.ev) - game.ev_optimal) < TOL
    assert stand_first.distribution != hit_first.distribution
    assert_same_distribution(stand_first, game.outcomes_optimal)


@pytest.mark.oracle
@same_worker(MACAU_RANKS[0])
def test_enhc_hole_card_dealt_before_or_after_the_player_gives_the_same_round() -> None:
    """Macau rule 3: single deck, the hole card is dealt face down before the player
    acts; shoe, after. Unchecked and unseen, it changes nothing (exactly)."""
    case = MACAU_RANKS[0]
    before = _brute(case, "optimal", hole_timing="before")
    after = _brute(case, "optimal", hole_timing="after")
    assert before.ev == after.ev and before.distribution == after.distribution


@pytest.mark.slow
@pytest.mark.parametrize("case", [DELUXE[0], MACAU_RANKS[0], MACAU_RANKS[2]], ids=str)
def test_the_oracles_decision_values_equal_bj_oracle(case: Case) -> None:
    """Self-check of the round oracle's recursion against the one-hand oracle
    (``bj_oracle.hand_evs`` / ``split_ev``, its hole card enumerated) on every two-card
    deal: stand, hit, double, surrender and split values."""
    rules = case.rules
    oracle = RoundOracle(rules, case.counts, suits=case.suits)
    # bj_oracle reads a hand as its sorted ranks (hands.py, ``start``): P1,P2 and P2,P1
    # are one hand to it, computed once (17.4 -> 14.6 CPU-s for the three cases); the round
    # oracle's values of both deals are still checked against it
    one_hand: dict[tuple[object, ...], dict[str, Fraction | None]] = {}
    for info in oracle.initial_infos():
        values = oracle.optimal_values(info)
        if not values:
            continue
        p1, up, p2 = (oracle.kinds[k][0] for k in info)
        shoe = bj_oracle.remove(case.counts, [p1, up, p2])
        key = (min(p1, p2), max(p1, p2), up, tuple(shoe))
        if key not in one_hand:
            one_hand[key] = bj_oracle.hand_evs([p1, p2], up, shoe, rules)
        want = one_hand[key]
        p_play = Fraction(1)
        if rules.peek:  # the round oracle's values are E[result * 1{no blackjack}]
            bj = shoe[9] if up == 1 else shoe[0] if up == 10 else 0
            p_play = 1 - Fraction(bj, sum(shoe))
        for action, value in values.items():
            if action == "split":
                expected = bj_oracle.split_ev(p1, up, shoe, rules)
            else:
                expected = want[action]
            assert expected is not None, (info, action)
            assert value == expected * p_play, (info, action, value, expected)
