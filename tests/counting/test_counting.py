"""Effects of removal and count indices: the burned-card identity behind the
"effects sum to zero" check, hand-checkable insurance cases, and the published Hi-Lo
Illustrious 18 reproduced within one true count."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import RANKS, Card, Rank, Shoe, parse_cards, rank_counts
from strategy_calc.counting.effects import (
    DECK_WEIGHTS,
    EffectsOfRemoval,
    decision_effects,
    effects_of_removal,
)
from strategy_calc.counting.indices import (
    ILLUSTRIOUS_18,
    PUBLISHED_RULES,
    CountFamily,
    Decision,
    count_index,
    count_indices,
    find_count,
)
from strategy_calc.counting.systems import HILO
from strategy_calc.render.counting import eor_dict, eor_text
from strategy_calc.render.indices import indices_dict, indices_text
from strategy_calc.rules import blackjack_rules

REFERENCE = blackjack_rules(*PUBLISHED_RULES)
"""The published indices' game: 6 decks, peek, S17, double any two cards, DAS, no surrender."""
ENHC = blackjack_rules("macau-1983")
"""No hole card: EVs are plain expectations (no conditioning on the dealer's blackjack)."""


@pytest.fixture(scope="module")
def eor6() -> EffectsOfRemoval:
    return effects_of_removal(REFERENCE)


# ---------------------------------------------------------------- effects of removal


@pytest.mark.slow
def test_game_effects_sum_to_13_times_the_value_of_one_burned_card(eor6: EffectsOfRemoval) -> None:
    """Sum of A..9 once and T four times (one suit; the full shoe's counts are 24x these).

    A fixed strategy's EV is unchanged on average by burning one unseen card, so
    its effects would sum to exactly 0; ``ev_optimal`` re-optimises the play for
    each reduced shoe, so the sum is 13 times the (non-negative) value of seeing
    one burned card: sign exact (tolerance = float rounding of sums over ~3,000
    hands), size second order. Measured 1.36e-4, 1.45% of the sum of the
    absolute effects. The 2.5% bound is that plus headroom and still catches a
    single wrong effect: flipping the sign of any rank but 8 moves the sum by at
    least 7% of the total, dropping one by at least 3.5% (the 9's share).
    """
    total = eor6.deck_sum
    size = sum(DECK_WEIGHTS[r] * abs(eor6.game[r.symbol]) for r in RANKS)
    assert total >= -1e-12
    assert total <= 0.025 * size


def test_game_effects_have_the_textbook_signs(eor6: EffectsOfRemoval) -> None:
    """Removing small cards helps the player, removing aces and tens hurts; the 5 most."""
    game = eor6.game
    assert max(game, key=lambda s: game[s]) == "5"
    assert min(game, key=lambda s: game[s]) == "A"
    assert all(game[s] > 0 for s in "234567")
    assert all(game[s] < 0 for s in "9TA")


@pytest.mark.parametrize("hand", ["T,2", "T,6", "5,4"])
def test_fixed_play_effects_sum_to_exactly_zero_with_the_shoes_own_weights(hand: str) -> None:
    """The burned-card identity, exact: sum_r s_r [X(s - e_r) - X(s)] = 0 for a fixed play.

    ENHC, so EVs are unconditioned expectations; ``s`` is the shoe the hand is
    dealt from. Standing is a fixed play (0 up to rounding: 1e-11 covers ten
    products of weights <= 96 with EVs carrying ~1e-14 of enumeration rounding;
    measured 9e-14). Hitting re-optimises the continuation for each shoe, so its
    sum is >= 0 (the value of seeing the burned card), > 0 for T,2 whose
    continuation can change.
    """
    up = Card(Rank.TEN)
    base = analyse_hand(hand, up, ENHC)
    shoe = base.shoe.counts
    stand = hit = 0.0
    for rank in RANKS:
        less = analyse_hand(hand, up, ENHC, removed=[Card(rank)])
        assert less.ev["stand"] is not None and base.ev["stand"] is not None
        assert less.ev["hit"] is not None and base.ev["hit"] is not None
        stand += shoe[rank - 1] * (less.ev["stand"] - base.ev["stand"])
        hit += shoe[rank - 1] * (less.ev["hit"] - base.ev["hit"])
    assert abs(stand) < 1e-11
    assert hit >= -1e-11
    if hand == "T,2":
        assert hit > 1e-3


def test_decision_effects_for_16_vs_ten_have_the_reasoned_signs() -> None:
    """T,6 vs T: stand - hit is negative off the top of 6 decks (the published 6-deck
    chart hits 16 vs T when surrender is not offered, docs/REFERENCE.md).

    Removing a 5 (the card that makes 21) makes hitting worse: stand - hit up.
    Removing a ten (the commonest bust card) makes hitting better: down.
    """
    d = decision_effects(REFERENCE)
    assert d.full < 0
    assert d.effects["5"] > d.effects["4"] > 0
    assert d.effects["T"] < 0
    assert max(d.effects, key=lambda s: d.effects[s]) == "5"


def test_removing_a_ten_makes_insurance_worse_by_the_formula() -> None:
    """Insurance pays 2:1 on half a bet: EV = 0.5 (2p - (1 - p)), p = tens / cards left.

    6 decks less 9, 7 and the ace: 96 tens in 309 cards. A ten out: 95/308,
    worse; a 5 out: 96/308, better.
    """

    def formula(tens: int, cards: int) -> float:
        p = Fraction(tens, cards)
        return float(Fraction(1, 2) * (2 * p - (1 - p)))

    def insurance(removed: str) -> float:
        value = analyse_hand("9,7", "A", REFERENCE, removed=removed).ev["insurance"]
        assert value is not None
        return value

    assert insurance("") == pytest.approx(formula(96, 309), abs=1e-15)
    assert insurance("T") == pytest.approx(formula(95, 308), abs=1e-15)
    assert insurance("5") == pytest.approx(formula(96, 308), abs=1e-15)
    assert insurance("T") < insurance("") < insurance("5")


# ---------------------------------------------------------------- the family


@settings(deadline=None, derandomize=True)
@given(decks=st.integers(1, 12), step=st.integers(-30, 30))
def test_family_holds_half_the_shoe_and_tilts_only_the_hilo_groups(decks: int, step: int) -> None:
    family = CountFamily(decks)
    unseen = family.unseen(step)
    assert sum(unseen) == family.unseen_cards == 26 * decks
    assert family.running_count(step) == 10 * step
    assert family.true_count(step) == pytest.approx(20 * step / decks)
    assert unseen[6:9] == (2 * decks,) * 3  # 7, 8, 9 neutral
    assert len(set(unseen[1:6])) == 1  # 2-6 move together
    assert unseen[1] == 2 * decks - step
    assert unseen[0] == 2 * decks + step and unseen[9] == 8 * decks + 4 * step


def test_family_counts_the_hand_and_the_up_card_as_seen() -> None:
    """Full shoe = unseen + removed + hand + up card, rank by rank."""
    family = CountFamily(6)
    hand = parse_cards("T,6")
    removed = family.removed(3, hand, Card(Rank.TEN))
    assert removed is not None
    parts = zip(family.unseen(3), rank_counts(removed), rank_counts([*hand, Card(Rank.TEN)]),
                strict=True)
    assert tuple(a + b + c for a, b, c in parts) == Shoe.full(6).counts
    analysis = analyse_hand(hand, "T", REFERENCE, removed=removed)
    assert analysis.shoe.counts == family.unseen(3)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_insurance_index_is_ten_thirds_in_the_half_shoe_family(decks: int) -> None:
    """By hand: insure when p > 1/3 (0.5 (2p - (1 - p)) > 0 <=> p > 1/3).

    At step j the unseen cards are 26 D with 8 D + 4 j tens: p > 1/3 <=>
    24 D + 12 j > 26 D <=> j > D / 6, and the true count is 20 j / D = 10/3 for
    every D. p is linear in j, so the interpolation is exact.
    """
    rules = blackjack_rules("deluxe", [f"decks={decks}"])
    row = count_index(rules, ILLUSTRIOUS_18[0])
    assert row.decision.name == "insurance"
    assert row.index == pytest.approx(10 / 3, abs=1e-9)
    assert row.above == "insurance"


# ---------------------------------------------------------------- the Illustrious 18

# The published column is the Hi-Lo Illustrious 18 (Schlesinger, Blackjack Attack; 6 decks
# S17 DAS) as in docs/REFERENCE.md and in counting.ILLUSTRIOUS_18, in this order.
DECISIONS = ["insurance", "16 vs T", "15 vs T", "T-T vs 5", "T-T vs 6", "10 vs T", "12 vs 3",
             "12 vs 2", "11 vs A", "9 vs 2", "10 vs A", "9 vs 7", "16 vs 9", "13 vs 2",
             "12 vs 4", "12 vs 5", "12 vs 6", "13 vs 3"]
EXPLAINED: dict[str, str] = {}
"""Rows allowed to miss the published index by more than 1, each with its reason (none)."""


def test_illustrious_18_reproduced_within_one_true_count() -> None:
    table = count_indices(REFERENCE)
    assert [row.decision.name for row in table.rows] == DECISIONS
    for row in table.rows:
        assert row.index is not None, row.decision.name
        assert row.above == row.decision.actions[0]  # the published sense: first at or above
        assert row.difference is not None
        if abs(row.difference) > 1:
            assert row.decision.name in EXPLAINED and row.note, row.decision.name
        else:
            assert row.note == ""


def test_a_play_the_rules_forbid_has_no_index_and_says_why() -> None:
    """Macau doubles on 11 only: 10 vs T has no double; 11 vs A never beats hitting (ENHC)."""
    rows = {row.decision.name: row for row in count_indices(ENHC).rows}
    assert rows["10 vs T"].index is None and "not allowed" in rows["10 vs T"].note
    assert rows["11 vs A"].index is None and rows["11 vs A"].note.startswith("hit at every")
    assert rows["16 vs T"].index is not None


def test_a_decision_that_never_flips_has_no_index() -> None:
    """A decision that never flips in [-20, 20] has no index: standing on 20 vs 6."""
    row = count_index(REFERENCE, Decision("20 vs 6", "T,T", "6", ("stand", "hit")))
    assert row.index is None and row.note.startswith("stand at every true count")


# ---------------------------------------------------------------- reports and errors


def test_unknown_count_system_is_a_one_line_value_error() -> None:
    with pytest.raises(ValueError, match=r"unknown count system 'zen-lite' \(built in: hilo,"
                       ) as info:
        count_indices(REFERENCE, "zen-lite")
    assert "\n" not in str(info.value)
    assert find_count("Hi-Lo") is HILO


def test_indices_json_contract_and_progress() -> None:
    ticks: list[tuple[int, int]] = []
    table = count_indices(REFERENCE, "hilo", lambda done, total: ticks.append((done, total)))
    data = json.loads(json.dumps(indices_dict(table)))
    assert ticks[-1] == (18, 18)
    assert {"rules", "decks", "count", "family", "indices"} <= set(data)
    assert (data["rules"], data["decks"], data["count"]) == ("deluxe", 6, "hilo")
    first = data["indices"][1]
    assert {"decision", "actions", "index", "published", "note"} <= set(first)
    assert first["decision"] == "16 vs T" and first["actions"] == ["stand", "hit"]
    assert first["published"] == 0


def test_indices_text_is_a_table_with_the_family() -> None:
    text = indices_text(count_indices(REFERENCE, "hilo"))
    assert "16 vs T" in text and "family:" in text and "-0.13" in text


def test_eor_report_json_and_text(eor6: EffectsOfRemoval) -> None:
    data = json.loads(json.dumps(eor_dict(eor6)))
    assert list(data["game"]) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    assert data["decision"]["hand"] == "T,6" and data["decision"]["up"] == "T"
    assert set(data["decision"]["stand_minus_hit"]) == set(data["game"])
    assert (data["rules"], data["decks"]) == ("deluxe", 6)
    assert data["ev_full"] == eor6.ev_full
    text = eor_text(eor6)
    assert "weighted sum" in text and f"{100 * eor6.game['5']:+.4f}" in text  # the 5, in %


def test_count_indices_takes_any_list_of_decisions() -> None:
    table = count_indices(REFERENCE, decisions=ILLUSTRIOUS_18[:2])
    assert [row["decision"] for row in indices_dict(table)["indices"]] == ["insurance", "16 vs T"]
