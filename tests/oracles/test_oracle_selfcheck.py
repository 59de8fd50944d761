"""Self-checks of the independent blackjack oracle (the ``tests/oracles/bj_oracle`` package).

Hand calculations written out, the published dealer tables of docs/REFERENCE.md,
and the exchangeability claims the project relies on. They test the oracle,
not the engine, and run in a few seconds.
"""

from __future__ import annotations

from dataclasses import replace

import bj_oracle as oracle
import pytest
from bj_oracle import (
    dealer_distribution,
    dealer_distribution_no_blackjack,
    full_shoe,
    hand_evs,
    hand_evs_shortcut,
    hand_evs_suited,
    remove,
    split_ev,
    split_ev_bruteforce,
    split_ev_bruteforce_suited,
    split_ev_postsplit_bruteforce,
    split_ev_resplit_bruteforce,
    split_ev_suited,
    suited_shoe,
)
from oracle_groups import split_case_group
from rational import Fraction

from strategy_calc.rules import BlackjackRules

PEEK = BlackjackRules(decks=1, hole_card="peek")
ENHC = BlackjackRules(decks=1, hole_card="enhc", enhc_loses="all")
ENHC_ORIGINAL = BlackjackRules(decks=1, hole_card="enhc", enhc_loses="original")


def shoe_of(**counts: int) -> tuple[int, ...]:
    """A shoe from counts by name: ``shoe_of(A=1, T=2, r5=1)``."""
    names = ("A", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "T")
    unknown = set(counts) - set(names)
    assert not unknown, unknown
    return tuple(counts.get(name, 0) for name in names)


# ------------------------------------------------------------------ dealer


def test_dealer_worked_by_hand() -> None:
    # Up 6, shoe {T, T, 5}. Second card T (2/3): 16, draws from {T, 5}: T busts
    # (1/2), 5 makes 21 (1/2). Second card 5 (1/3): 11, draws T: 21.
    dist = dealer_distribution(shoe_of(T=2, r5=1), 6, hits_soft_17=False)
    assert dist["21"] == Fraction(2, 3) * Fraction(1, 2) + Fraction(1, 3) == Fraction(2, 3)
    assert dist["bust"] == Fraction(1, 3)
    assert dist["blackjack"] == dist["17"] == dist["20"] == 0


def test_dealer_soft_17_by_hand() -> None:
    # Up A, shoe {6, 6, T}. Second card T (1/3): blackjack. Second card 6 (2/3):
    # soft 17. S17 stands. H17 draws from {6, T}: 6 gives A66 = hard 13, which
    # draws the T and busts; T gives A6T = hard 17.
    shoe = shoe_of(r6=2, T=1)
    s17 = dealer_distribution(shoe, 1, hits_soft_17=False)
    assert (s17["17"], s17["bust"], s17["blackjack"]) == (Fraction(2, 3), 0, Fraction(1, 3))
    h17 = dealer_distribution(shoe, 1, hits_soft_17=True)
    third = Fraction(1, 3)
    assert (h17["17"], h17["bust"], h17["blackjack"]) == (third, third, third)
    # Given no blackjack the second card was a 6.
    assert dealer_distribution_no_blackjack(shoe, 1, hits_soft_17=True)["17"] == Fraction(1, 2)
    assert "blackjack" not in dealer_distribution_no_blackjack(shoe, 1, hits_soft_17=False)


def _assert_printed(value: Fraction, printed: str) -> None:
    """``value`` agrees with the printed decimal.

    The published tables round twice (to one more digit first): 16/51 =
    .31372549 is printed .313726 and the 2-deck P(19) against a 2,
    .13074349, is printed .130744. So the tolerance is 0.55 units of the
    last printed digit rather than 0.5; every other entry is within 0.5.
    """
    digits = len(printed.split(".")[1])
    assert abs(float(value) - float(printed)) <= 0.55 * 10.0**-digits, (value, printed)


KEYS_2B = ("17", "18", "19", "20", "21", "blackjack", "bust")
APPENDIX_2B_1DECK = {  # docs/REFERENCE.md, Wizard of Odds appendix 2B (no peek), 1 deck, S17
    1: (".126128", ".131003", ".129486", ".131553", ".0515646", ".313726", ".11654"),
    2: (".138976", ".131762", ".131815", ".123948", ".120526", "0", ".352973"),
    6: (".166948", ".106454", ".107192", ".100705", ".0978785", "0", ".420823"),
    7: (".372345", ".138583", ".0773344", ".0788967", ".072987", "0", ".259854"),
}


@pytest.mark.parametrize("up", sorted(APPENDIX_2B_1DECK))
def test_appendix_2b_one_deck(up: int) -> None:
    dist = dealer_distribution(remove(full_shoe(1), [up]), up, hits_soft_17=False)
    assert sum(dist.values()) == 1
    for key, printed in zip(KEYS_2B, APPENDIX_2B_1DECK[up], strict=True):
        if printed == "0":
            assert dist[key] == 0
        else:
            _assert_printed(dist[key], "0" + printed)
    if up == 1:
        assert dist["blackjack"] == Fraction(16, 51)


KEYS_2 = ("17", "18", "19", "20", "21", "bust")
APPENDIX_2 = {  # docs/REFERENCE.md, Wizard of Odds appendix 2 (after peek), S17
    (1, 1): (".183786", ".19089", ".18868", ".191692", ".075137", ".169815"),
    (1, 10): (".124156", ".122486", ".124421", ".356869", ".03957", ".232499"),
    (2, 1): (".186367", ".189883", ".188851", ".190272", ".076531", ".168096"),
    (2, 10): (".122412", ".1216", ".122524", ".36387", ".038449", ".231144"),
    (2, 2): (".139367", ".133348", ".130744", ".123997", ".119254", ".353291"),
}


@pytest.mark.parametrize(("decks", "up"), sorted(APPENDIX_2))
def test_appendix_2_after_peek(decks: int, up: int) -> None:
    dist = dealer_distribution_no_blackjack(remove(full_shoe(decks), [up]), up, False)
    assert sum(dist.values()) == 1
    for key, printed in zip(KEYS_2, APPENDIX_2[(decks, up)], strict=True):
        _assert_printed(dist[key], "0" + printed)


# ------------------------------------------------------- peek: exact vs shortcut


def test_peek_exact_vs_shortcut_up_ten() -> None:
    # Up T, shoe {A, T, T}, player T,T. The dealer has no blackjack, so his hole
    # card is not the ace: it is a T (dealer 20) and the player's cards come
    # from {A, T}.
    #   exact hit: A (1/2) makes 21 and wins, T (1/2) busts: 0.
    #   shortcut hit: draws from {A, T, T} as if no hole card: A (1/3) wins,
    #   else bust: 1/3 - 2/3 = -1/3.
    shoe = shoe_of(A=1, T=2)
    exact = hand_evs((10, 10), 10, shoe, PEEK)
    short = hand_evs_shortcut((10, 10), 10, shoe, PEEK)
    assert exact["stand"] == short["stand"] == 0  # 20 against 20
    assert exact["hit"] == 0
    assert short["hit"] == Fraction(-1, 3)
    assert (exact["double"], short["double"]) == (0, Fraction(-2, 3))


def test_peek_exact_vs_shortcut_up_ace() -> None:
    # Up A, shoe {A, 9, 9, T}, player T,T. No dealer blackjack: the hole card is
    # the A (1/3) or a 9 (2/3).
    #   hole A: the player draws from {9, 9, T} and busts: -1.
    #   hole 9: dealer soft 20; the player draws from {A, 9, T}: the A (1/3)
    #   wins with 21, else bust: 1/3 - 2/3 = -1/3.
    #   exact hit = 1/3 * (-1) + 2/3 * (-1/3) = -5/9.
    # Shortcut: the player draws from {A, 9, 9, T}: A (1/4) wins against the
    # dealer's no-blackjack hand of {9, 9, T} (soft 20), else bust: -1/2.
    # Standing on 20 is -1/3 either way: hole A makes 21 (A,A + 9 or + T + 9),
    # hole 9 pushes.
    shoe = shoe_of(A=1, r9=2, T=1)
    exact = hand_evs((10, 10), 1, shoe, PEEK)
    short = hand_evs_shortcut((10, 10), 1, shoe, PEEK)
    assert exact["hit"] == Fraction(1, 3) * -1 + Fraction(2, 3) * Fraction(-1, 3) == Fraction(-5, 9)
    assert short["hit"] == Fraction(1, 4) - Fraction(3, 4) == Fraction(-1, 2)
    assert exact["stand"] == short["stand"] == Fraction(-1, 3)
    assert exact["double"] == Fraction(-10, 9)
    # insurance: p = 1/4 tens; 0.5 * (2p - (1 - p)) = -1/8
    assert exact["insurance"] == short["insurance"] == Fraction(-1, 8)


@pytest.mark.oracle
def test_peek_exact_vs_shortcut_differ_on_one_deck() -> None:
    shoe = remove(full_shoe(1), [9, 2, 10])
    exact = hand_evs((9, 2), 10, shoe, PEEK)
    short = hand_evs_shortcut((9, 2), 10, shoe, PEEK)
    assert exact["stand"] == short["stand"]  # standing: the same no-blackjack dealer
    assert exact["hit"] != short["hit"]
    assert exact["double"] != short["double"]


def test_hole_card_posterior() -> None:
    # The weights imply: after the player draws D, the hole card is distributed
    # as a card of the shoe S - D that does not complete a blackjack. (The
    # oracle does not use this; it is the identity an engine may rely on.)
    shoe = remove(full_shoe(1), [5, 6, 1])
    solver = oracle._hand_solver(
        oracle._Setup(
            layout=oracle.RANK_LAYOUT, shoe=shoe, up=1, model="exact", h17=False,
            start=(4, 5), natural=False, bj_pays=Fraction(3, 2),
            loss_vs_bj=(Fraction(-1), Fraction(-2)), split_hand=False,
            split_double_totals=frozenset(), one_card=False,
            bonus_777=Fraction(0), bonus_678=Fraction(0),
        )
    )
    drawn = (1, 0, 0, 0, 0, 0, 0, 0, 2, 1)  # the player drew A, 9, 9, T
    left = tuple(s - d for s, d in zip(shoe, drawn, strict=True))
    weights = dict(solver.weights(drawn))
    total = sum(weights.values())
    not_ten = sum(left[:9])
    for hole, w in weights.items():
        assert w / total == Fraction(left[hole], not_ten)


@pytest.mark.oracle
def test_peek_equals_enhc_when_no_blackjack_is_possible() -> None:
    # Against a 5 the dealer cannot have blackjack: dealing the hole card before
    # the player draws (peek, exact) or after (ENHC) gives the same expectations.
    shoe = remove(full_shoe(1), [5, 6, 5, 10, 10, 10, 3, 2, 9, 8, 7, 4, 1, 10, 10, 6])
    peek = hand_evs((5, 6), 5, shoe, PEEK)
    enhc = hand_evs((5, 6), 5, shoe, ENHC)
    for key in ("stand", "hit", "double"):
        assert peek[key] == enhc[key]


# ------------------------------------------------------------------ ENHC and misc


@pytest.mark.oracle
def test_naturals() -> None:
    shoe = remove(full_shoe(1), [1, 10, 6])
    assert hand_evs((1, 10), 6, shoe, PEEK)["stand"] == Fraction(3, 2)
    assert hand_evs((1, 10), 6, shoe, ENHC)["stand"] == Fraction(3, 2)
    assert hand_evs((10, 1), 6, shoe, PEEK, initial=False)["stand"] != Fraction(3, 2)
    shoe = remove(full_shoe(1), [1, 10, 10])
    p_bj = Fraction(3, 49)  # three aces left among 49 cards
    assert hand_evs((1, 10), 10, shoe, ENHC)["stand"] == (1 - p_bj) * Fraction(3, 2)
    assert hand_evs((1, 10), 10, shoe, PEEK)["stand"] == Fraction(3, 2)
    em = BlackjackRules(decks=1, hole_card="enhc", even_money=True)
    assert hand_evs((1, 10), 10, shoe, em)["even_money"] is None
    em_ten = BlackjackRules(decks=1, hole_card="enhc", even_money=True, even_money_vs_ten=True)
    assert hand_evs((1, 10), 10, shoe, em_ten)["even_money"] == 1


def test_enhc_doubled_hand_loses_double_to_blackjack() -> None:
    # 6,5 vs T doubled never busts, so "all" and "original" differ exactly by
    # P(dealer blackjack) = (aces left) / (cards left), whatever card came.
    shoe = remove(full_shoe(1), [6, 5, 10])
    all_ = hand_evs((6, 5), 10, shoe, ENHC)["double"]
    original = hand_evs((6, 5), 10, shoe, ENHC_ORIGINAL)["double"]
    assert original - all_ == Fraction(4, 49)
    # Undoubled hands lose 1 either way.
    assert hand_evs((6, 5), 10, shoe, ENHC)["hit"] == hand_evs((6, 5), 10, shoe, ENHC_ORIGINAL)[
        "hit"
    ]


@pytest.mark.oracle
def test_surrender_values() -> None:
    shoe = remove(full_shoe(1), [10, 6, 10])
    p_bj = Fraction(4, 49)
    late_enhc = BlackjackRules(decks=1, hole_card="enhc", surrender="late")
    assert hand_evs((10, 6), 10, shoe, late_enhc)["surrender"] == -p_bj - (1 - p_bj) / 2
    late_peek = BlackjackRules(decks=1, surrender="late")
    assert hand_evs((10, 6), 10, shoe, late_peek)["surrender"] == Fraction(-1, 2)
    early_peek = BlackjackRules(decks=1, surrender="early")
    value = hand_evs((10, 6), 10, shoe, early_peek)["surrender"]
    assert value == (Fraction(-1, 2) + p_bj) / (1 - p_bj)
    macau = BlackjackRules(decks=1, hole_card="enhc", surrender="not_vs_ace")
    assert hand_evs((10, 6), 10, shoe, macau)["surrender"] == Fraction(-1, 2)
    assert hand_evs((10, 6), 1, remove(full_shoe(1), [10, 6, 1]), macau)["surrender"] is None
    deluxe = BlackjackRules(decks=1, surrender="2-9")
    assert hand_evs((10, 6), 10, shoe, deluxe)["surrender"] is None
    assert hand_evs((10, 6), 9, remove(full_shoe(1), [10, 6, 9]), deluxe)["surrender"] == Fraction(
        -1, 2
    )
    assert hand_evs((10, 6), 10, shoe, late_peek, initial=False)["surrender"] is None
    assert hand_evs((10, 4, 2), 10, remove(shoe, [4, 2]), late_peek)["surrender"] is None


@pytest.mark.oracle
def test_double_on() -> None:
    shoe = remove(full_shoe(1), [6, 4, 7])
    rules_11 = BlackjackRules(decks=1, double_on="11")
    rules_9_11 = BlackjackRules(decks=1, double_on="9-11")
    assert hand_evs((6, 4), 7, shoe, rules_11)["double"] is None
    assert hand_evs((6, 4), 7, shoe, rules_9_11)["double"] is not None
    assert hand_evs((6, 4), 7, shoe, PEEK)["double"] is not None


# ------------------------------------------------------------------ bonus


@pytest.mark.oracle
@pytest.mark.parametrize("rules", [PEEK, ENHC])
def test_suited_678_bonus_probability(rules: BlackjackRules) -> None:
    # One deck, player 6s 7s against a 2: 49 cards left and exactly one of them
    # is the 8s, so the next card is the 8s with probability 1/49 (in the peek
    # game too: the hole card is the 8s with probability 1/49, and otherwise
    # the 8s is one of the 48 cards the player draws from: 48/49 * 1/48).
    hand = ((6, "s"), (7, "s"))
    shoe = suited_shoe(1, [*hand, (2, None)])
    assert sum(shoe[0]) == 49
    bonus = BlackjackRules(**{**_fields(rules), "bonus_suited_678": 3.0})
    with_bonus = hand_evs_suited(hand, 2, shoe, bonus)
    without = hand_evs_suited(hand, 2, shoe, rules)
    # With the 8s the hand is settled for 3 instead of standing on 21.
    stand_21 = hand_evs((6, 7, 8), 2, remove(full_shoe(1), [6, 7, 8, 2]), rules)["stand"]
    assert with_bonus["hit"] - without["hit"] == Fraction(1, 49) * (3 - stand_21)
    assert with_bonus["stand"] == without["stand"]
    assert with_bonus["double"] == without["double"]  # no bonus on a doubled hand
    # Off-suit 7: no suited 6-7-8 possible.
    off = ((6, "s"), (7, "h"))
    shoe_off = suited_shoe(1, [*off, (2, None)])
    assert hand_evs_suited(off, 2, shoe_off, bonus) == hand_evs_suited(off, 2, shoe_off, rules)
    # Rank-only hand_evs gives the no-bonus values.
    assert hand_evs((6, 7), 2, remove(full_shoe(1), [6, 7, 2]), rules) == without


def test_777_bonus_probability() -> None:
    # 7,7 against a 6, one deck: two 7s among 49 cards.
    shoe = remove(full_shoe(1), [7, 7, 6])
    bonus = BlackjackRules(decks=1, hole_card="enhc", bonus_777=3.0)
    stand_21 = hand_evs((7, 7, 7), 6, remove(shoe, [7]), ENHC)["stand"]
    diff = hand_evs((7, 7), 6, shoe, bonus)["hit"] - hand_evs((7, 7), 6, shoe, ENHC)["hit"]
    assert diff == Fraction(2, 49) * (3 - stand_21)
    # A three-card 7-7-7 is settled at once.
    assert hand_evs((7, 7, 7), 6, remove(shoe, [7]), bonus)["stand"] == 3
    assert hand_evs((7, 7, 7), 6, remove(shoe, [7]), bonus)["hit"] is None


def test_rank_functions_refuse_suited_bonus() -> None:
    rules = BlackjackRules(decks=1, bonus_suited_678=3.0)
    with pytest.raises(ValueError, match="suits"):
        hand_evs((6, 7), 2, remove(full_shoe(1), [6, 7, 2]), rules)


def _fields(rules: BlackjackRules) -> dict[str, object]:
    return {name: getattr(rules, name) for name in rules.__dataclass_fields__}


# ------------------------------------------------------------------ splits


SPLIT_CASES = [
    # (rules, pair rank, up, shoe): 1 deck with 30 to 36 cards removed
    (PEEK, 8, 6, (2, 1, 2, 2, 2, 2, 2, 1, 2, 6)),
    (PEEK, 1, 10, (0, 2, 2, 2, 2, 2, 2, 2, 2, 5)),
    # (these three on 15 and 16 cards: about 1 CPU-s each for the two brute forces, 3.4 to
    # 5.5 on 16 and 18 before; the 7,7 vs A split's value still differs under ENHC all and
    # original)
    (PEEK, 2, 5, (1, 0, 2, 0, 0, 2, 2, 2, 1, 5)),
    (ENHC, 7, 1, (2, 1, 1, 1, 0, 1, 1, 2, 2, 5)),
    (ENHC_ORIGINAL, 7, 1, (2, 1, 1, 1, 0, 1, 1, 2, 2, 5)),
    # (19 cards: 1.6 CPU-s, 4-6 on the 22-card shoe with another 3, 4 and 5; ENHC original
    # still differs from all there)
    (ENHC_ORIGINAL, 8, 10, (2, 1, 1, 1, 1, 2, 2, 1, 2, 6)),
    (BlackjackRules(decks=1, dealer_hits_soft_17=True, bonus_777=3.0, double_on="10-11"),
     7, 4, (1, 2, 1, 0, 1, 2, 1, 2, 1, 5)),
    (BlackjackRules(decks=1, hole_card="enhc", double_after_split=False),
     1, 1, (1, 2, 1, 2, 1, 2, 1, 2, 1, 6)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*c, marks=split_case_group(*c)) for c in SPLIT_CASES])
def test_split_equals_sequential_play(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    brute = split_ev_bruteforce(pair, up, shoe, rules)
    assert split_ev(pair, up, shoe, rules) == brute
    # The resplit brute force with two hands at most is the same process.
    assert rules.max_split_hands == 2
    assert split_ev_resplit_bruteforce(pair, up, shoe, rules) == brute


@pytest.mark.slow
def test_split_suited_bonus_equals_sequential_play() -> None:
    # 7s 7h split against a T from an 18-card shoe holding 6s 6h 8s 8h: each
    # hand can make its suited 6-7-8 (and hits its 13 or 15 against the T).
    rules = BlackjackRules(decks=1, hole_card="enhc", bonus_suited_678=3.0, bonus_777=3.0)
    pair = ((7, "s"), (7, "h"))
    removed = [*pair, (10, None), (9, None), (9, None), (2, None), (2, None), (2, None),
               (3, None), (3, None), (3, None), (4, None), (4, None), (4, None),
               (5, None), (5, None), (5, None), (1, None), (1, None), (6, "d"), (6, "c"),
               (7, "d"), (8, "d"), (8, "c"), *[(10, None)] * 10]
    shoe = suited_shoe(1, removed)
    assert sum(shoe[0]) == 52 - len(removed) == 18
    value = split_ev_suited(pair, 10, shoe, rules)
    assert value == split_ev_bruteforce_suited(pair, 10, shoe, rules)
    no_split_bonus = BlackjackRules(**{**_fields(rules), "bonus_on_split_hands": False})
    no_bonus = BlackjackRules(decks=1, hole_card="enhc")
    assert split_ev_suited(pair, 10, shoe, no_split_bonus) == split_ev(7, 10, shoe[0], no_bonus)
    assert split_ev(7, 10, shoe[0], no_bonus) < value


@pytest.mark.oracle
def test_split_symmetry_and_limits() -> None:
    shoe = remove(full_shoe(1), [8, 8, 6, 10, 10, 10, 10, 2, 3, 4, 5, 9, 9, 1, 7, 7])
    one = split_ev(8, 6, shoe, PEEK)
    assert one is not None
    # With "all" (and in a peek game) the two hands are the same problem.
    solver = oracle._hand_solver(oracle._split_setups(oracle.RANK_LAYOUT, [(8, None)] * 2, 6,
                                                      shoe, PEEK)[0])
    root = (0,) * 10
    assert one == 2 * solver.value(root) / solver.weight(root)
    assert split_ev(8, 6, shoe, BlackjackRules(decks=1, max_split_hands=1)) is None
    with pytest.raises(NotImplementedError):
        split_ev(8, 6, shoe, BlackjackRules(decks=1, max_split_hands=4))


# ------------------------------------------------------------------ resplits


def test_resplit_peek_tens_by_hand() -> None:
    # T,T split against a 7 (peek, S17), shoe {A, T, T, T, T}, up to 3 hands.
    # The hole card is a T (4/5: dealer 17) or the A (1/5: soft 18); the dealer
    # stands either way. Every split hand stands on 20 and 21 (standing wins
    # for sure in its own model; hitting or doubling could only lose), so the
    # value is 3 x (hands that win):
    #   hole A: the player draws from {T, T, T, T}: H1 T (resplit, 3 hands),
    #     H1 T (20, no resplit at 3 hands), H2 T (20), H3 T (20): all beat 18.
    #   hole T: the player draws from {A, T, T, T}; whatever the order, H1,
    #     H2 and H3 end on 20 or 21 (the A gives 21, a T is resplit once and
    #     then gives 20), which beat 17.
    # So 3, where splitting once gives 2.
    # (A hand of 21 stands: doubling T,A would draw from a shoe that may be empty.)
    shoe = shoe_of(A=1, T=4)
    three = BlackjackRules(decks=1, max_split_hands=3, hand_of_21_stands=True)
    once = BlackjackRules(decks=1, hand_of_21_stands=True)
    assert split_ev_resplit_bruteforce(10, 7, shoe, three) == 3
    assert split_ev_resplit_bruteforce(10, 7, shoe, once) == 2 == split_ev(10, 7, shoe, once)


@pytest.mark.parametrize(("loses", "value"), [("all", Fraction(-12, 5)),
                                               ("original", Fraction(-4, 5))])
def test_resplit_enhc_tens_against_ace_by_hand(loses: str, value: Fraction) -> None:
    # T,T split against an A (ENHC), shoe {9, T, T, T, T}, up to 3 hands. The
    # policy stands on 19 and 20 (the hand's own model: hitting busts; standing
    # is no worse, and ties go to standing). The 9 and three Ts go to the three
    # hands (the first T drawn is resplit) and the dealer's second card is the
    # last card. It is the 9 only on the order T (4/5: resplit), T (3/4: H1 is
    # 20), T (2/3: H2 is 20), T (1/2: H3 is 20): probability 1/5, the dealer has
    # soft 20 and all three hands push. Otherwise (4/5) it is a T: blackjack,
    # which takes the three bets ("all": -3) or H1's bet only ("original": -1).
    # "all": 4/5 * -3 = -12/5; "original": 4/5 * -1 = -4/5.
    rules = BlackjackRules(decks=1, hole_card="enhc", enhc_loses=loses, max_split_hands=3)
    assert split_ev_resplit_bruteforce(10, 1, shoe_of(r9=1, T=4), rules) == value


@pytest.mark.oracle
def test_resplit_limits() -> None:
    # 8,8 against a 6 with two more 8s in a 15-card shoe: each extra hand helps.
    shoe = shoe_of(A=1, r4=1, r5=1, r6=1, r8=2, r9=3, T=6)
    values = [split_ev_resplit_bruteforce(8, 6, shoe, BlackjackRules(decks=1, max_split_hands=n))
              for n in (2, 3, 4)]
    assert values[0] == split_ev(8, 6, shoe, PEEK)
    assert values[0] < values[1] < values[2]
    # No pair card left: nothing to resplit.
    no_eights = shoe_of(A=1, r4=1, r5=2, r6=1, r9=3, T=7)
    four = BlackjackRules(decks=1, max_split_hands=4)
    assert split_ev_resplit_bruteforce(8, 6, no_eights, four) == split_ev(8, 6, no_eights, PEEK)
    # Aces: resplit only with resplit_aces.
    aces = shoe_of(A=2, r3=1, r4=1, r5=1, r7=1, r8=2, r9=2, T=4)
    no_rsa = BlackjackRules(decks=1, max_split_hands=4)
    rsa = BlackjackRules(decks=1, max_split_hands=4, resplit_aces=True)
    once = split_ev(1, 10, aces, PEEK)
    assert split_ev_resplit_bruteforce(1, 10, aces, no_rsa) == once
    assert split_ev_resplit_bruteforce(1, 10, aces, rsa) != once
    no_split = BlackjackRules(decks=1, max_split_hands=1)
    assert split_ev_resplit_bruteforce(8, 6, shoe, no_split) is None
    with pytest.raises(ValueError, match="suits"):
        split_ev_resplit_bruteforce(8, 6, shoe, BlackjackRules(decks=1, max_split_hands=3,
                                                               bonus_suited_678=3.0))


# ------------------------------------------------- post-split (hand 2 sees hand 1)


@pytest.mark.parametrize("rules", [PEEK, ENHC, ENHC_ORIGINAL])
def test_postsplit_split_aces_one_card_is_split_ev(rules: BlackjackRules) -> None:
    # One card on each split ace: hand 2 has no decision to make, so knowing
    # hand 1's cards changes nothing.
    for up, shoe in [(10, shoe_of(A=2, r3=1, r4=1, r5=1, r7=1, r8=2, r9=2, T=4)),
                     (6, shoe_of(A=1, r2=1, r5=2, r6=1, r7=1, r9=2, T=6))]:
        assert split_ev_postsplit_bruteforce(1, up, shoe, rules) == split_ev(1, up, shoe, rules)


POSTSPLIT_CASES = [
    # (rules, pair rank, up, shoe): 12 to 14 cards, never run out
    (PEEK, 8, 6, (1, 0, 1, 1, 1, 1, 1, 1, 2, 5)),
    (ENHC, 9, 1, (1, 1, 1, 0, 1, 1, 1, 1, 1, 6)),
    (ENHC_ORIGINAL, 8, 10, (1, 1, 1, 1, 0, 1, 1, 1, 1, 6)),
    (BlackjackRules(decks=1, dealer_hits_soft_17=True, bonus_777=3.0, double_on="10-11"),
     7, 4, (1, 1, 1, 0, 1, 1, 1, 1, 1, 5)),
    (BlackjackRules(decks=1, double_after_split=False), 2, 5, (1, 0, 1, 1, 0, 1, 1, 1, 1, 5)),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"), POSTSPLIT_CASES)
def test_postsplit_at_least_split_ev(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    # Hand 2's frozen policy is one of the policies it chooses from, and hand
    # 1's expectation does not depend on hand 2's play (the shoe never runs
    # out: the plain brute force plays these shoes through).
    frozen = split_ev(pair, up, shoe, rules)
    assert frozen == split_ev_bruteforce(pair, up, shoe, rules)
    informed = split_ev_postsplit_bruteforce(pair, up, shoe, rules)
    assert informed is not None and frozen is not None
    assert informed >= frozen


def test_postsplit_hand_1_changes_hand_2s_play() -> None:
    # 9,9 split against a T (peek, no DAS), shoe {2, 4, 9, 9, 9}: the hole card
    # is any of them (none completes a blackjack). Path: hand 1 draws the 4
    # and stands on 13 (its policy), hand 2 draws a 9: 18. Probability: hole 2
    # (1/5), hand 1 draws the 4 from {4, 9, 9, 9} (1/4), hand 2 a 9 (1); or
    # hole 9 (3/5), the 4 from {2, 4, 9, 9} (1/4), a 9 from {2, 9, 9} (2/3):
    # 1/20 + 1/10 = 3/20.
    # Hand 2 has seen the 4 and its 9: the unseen cards are {2, 9, 9}, the hole
    # card a 9 (2/3) or the 2 (1/3). Dealer T + 9 stands on 19; T + 2 draws a
    # 9: 21. Standing on 18 loses for sure: -1. Hitting: hole 9, draw from
    # {2, 9}: the 2 gives 20, which beats 19 (+1), the 9 busts (-1): 0; hole 2,
    # the card is a 9: bust (-1). Hit: 2/3 * 0 + 1/3 * -1 = -1/3: hand 2 hits.
    # The frozen policy ignores hand 1's 4 (it counts it among the unseen
    # cards, where it can turn the dealer's 12 into 16 and a bust) and stands.
    # This is the only decision that changes, so the gain is
    # 3/20 * (-1/3 - -1) = 1/10.
    rules = BlackjackRules(decks=1, double_after_split=False)
    shoe = shoe_of(r2=1, r4=1, r9=3)
    assert split_ev(9, 10, shoe, rules) == split_ev_bruteforce(9, 10, shoe, rules)
    assert split_ev_postsplit_bruteforce(9, 10, shoe, rules) - split_ev(9, 10, shoe, rules) \
        == Fraction(1, 10)
    assert split_ev(9, 10, shoe, rules) == Fraction(-3, 5)
    # The two policies at hand 2's 9,9, seen directly.
    _, second = oracle._split_hand_setups(oracle.RANK_LAYOUT, [(9, None)] * 2, 10, shoe, rules)
    nine = (0,) * 8 + (1, 0)  # hand 2 has drawn one 9
    frozen = oracle._hand_solver(second)
    assert frozen.action(nine) == "stand"
    four = (0, 0, 0, 1, 0, 0, 0, 0, 0, 0)  # hand 1's cards beyond its 9
    informed = oracle._HandAfter(replace(second, shoe=remove(shoe, [4])), four)
    # the hole card's posterior, from the deal: proportional to {2, 9, 9, 9}
    assert informed.scenarios == ((1, Fraction(1, 4)), (8, Fraction(3, 4)))
    options = {a: v / informed.weight(nine) for a, v in informed.options(nine).items()}
    assert options == {"stand": -1, "hit": Fraction(-1, 3)}
    assert informed.action(nine) == "hit"


def test_postsplit_limits() -> None:
    shoe = shoe_of(A=1, r4=1, r5=1, r6=1, r9=3, T=6)
    for n in (1, 3):
        with pytest.raises(NotImplementedError):
            split_ev_postsplit_bruteforce(8, 6, shoe, BlackjackRules(decks=1, max_split_hands=n))
    with pytest.raises(ValueError, match="suits"):
        split_ev_postsplit_bruteforce(8, 6, shoe, BlackjackRules(decks=1, bonus_suited_678=3.0))
