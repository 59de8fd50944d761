"""Self-checks of the oracle's fully optimal split (``bj_oracle.split_ev_optimal_bruteforce``).

The fully optimal split plays the hands in casino order and takes every
decision (hit, stand, double, resplit) for the whole round, knowing every card
seen so far. It is checked against the oracle's fixed-strategy brute forces
(independent derivations: every policy they play is one it chooses from, so it
is at least as large, and equal where nothing is left to choose), against two
hand calculations on 4- and 5-card shoes, and against a plain history-based
enumeration written here (tiny shoes). They test the oracle, not the engine.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import bj_oracle as oracle
import pytest
from bj_oracle import (
    ShoeExhausted,
    split_ev_bruteforce,
    split_ev_optimal_bruteforce,
    split_ev_postsplit_bruteforce,
    split_ev_resplit_bruteforce,
)
from bj_oracle.optimal import _OptimalSplit
from oracle_groups import split_case_group

from strategy_calc.rules import BlackjackRules


def _rules(**fields: object) -> BlackjackRules:
    return BlackjackRules(**{"decks": 1, "max_split_hands": 2, **fields})  # type: ignore[arg-type]


ENHC = {"hole_card": "enhc", "enhc_loses": "all"}
ORIGINAL = {"hole_card": "enhc", "enhc_loses": "original"}


def _check_shoe(decks: int, pair: int, up: int, shoe: tuple[int, ...]) -> None:
    """``shoe`` is a part of ``decks`` decks less the pair and the up card."""
    start = oracle.remove(oracle.full_shoe(decks), [pair, pair, up])
    assert all(0 <= k <= s for s, k in zip(start, shoe, strict=True))


# ------------------------------------------------ one split: >= post-split >= frozen

# (id, rules, pair, up, shoe left = 1 deck - pair - pair - up - removed, optimal > post-split)
ONE_SPLIT = [
    ("peek-88v9", _rules(), 8, 9, (1, 1, 1, 1, 1, 1, 1, 0, 2, 6), False),
    # (14 cards: 1 CPU-s for the three brute forces; the 16-card shoe with a 3 and a 5
    # more took 8; H17 still changes the optimum there, and post-split still differs from
    # the frozen split: tests/blackjack/split/test_postsplit.py plays the same case)
    ("peek-H17-22vA", _rules(dealer_hits_soft_17=True), 2, 1, (0, 1, 0, 1, 0, 2, 1, 1, 1, 7),
     False),
    ("peek-NDAS-66v5", _rules(double_after_split=False), 6, 5, (1, 1, 1, 1, 0, 1, 1, 1, 1, 6),
     False),
    # (a ten for the 4 of the 14-card shoe: 1 CPU-s for the three brute forces, 3 with the
    # 4; doubling on 10-11 only still changes the optimum)
    ("peek-D10-11-55v4", _rules(double_on="10-11"), 5, 4, (1, 1, 1, 0, 0, 1, 1, 1, 1, 7), False),
    ("peek-AAv6-one-card", _rules(), 1, 6, (1, 1, 1, 1, 1, 1, 1, 1, 1, 7), False),
    # (a ten for the 5 of the 14-card shoe: 2.3 CPU-s for the three brute forces, 5 with
    # the 5; the optimum still beats post-split, and hitting split aces still changes it)
    ("peek-AAvT-hit-split-aces", _rules(split_aces_one_card=False), 1, 10,
     (0, 1, 1, 1, 0, 1, 1, 1, 1, 7), True),
    # Hand 1's play for the round: see test_hand_1_plays_for_the_round.
    ("peek-NDAS-77v8", _rules(double_after_split=False), 7, 8, (2, 1, 1, 0, 0, 1, 0, 1, 2, 5),
     True),
    ("enhc-all-88vT", _rules(**ENHC), 8, 10, (1, 1, 1, 1, 1, 1, 1, 0, 1, 6), False),
    ("enhc-all-66v2", _rules(**ENHC), 6, 2, (1, 2, 2, 1, 1, 0, 0, 1, 2, 3), True),
    # (a ten for the 5 of the 14-card shoe: 1 CPU-s for the three brute forces, 3.5 with
    # the 5)
    ("enhc-all-H17-33v7", _rules(dealer_hits_soft_17=True, **ENHC), 3, 7,
     (1, 1, 1, 1, 0, 1, 0, 1, 1, 7), False),
    ("enhc-original-TTvA", _rules(**ORIGINAL), 10, 1, (1, 1, 1, 1, 2, 2, 1, 1, 1, 5), False),
    ("enhc-original-777-77v9", _rules(bonus_777=3.0, **ORIGINAL), 7, 9,
     (1, 1, 1, 1, 1, 1, 1, 1, 0, 6), False),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe", "strict"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:5]))
                          for case in ONE_SPLIT])
def test_optimal_at_least_postsplit_at_least_frozen(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...], strict: bool
) -> None:
    # Post-split play (hand 1 frozen, hand 2 best for itself given hand 1's
    # cards) is one of the policies the optimum chooses from, and it is at
    # least the frozen split (hand 2 frozen too). Most of these cases tie
    # exactly: a whole-round decision differs from the hand's own best only
    # when the two are close, which is rare even on these small shoes.
    _check_shoe(1, pair, up, shoe)
    assert 13 <= sum(shoe) <= 18
    optimal = split_ev_optimal_bruteforce(pair, up, shoe, rules)
    postsplit = split_ev_postsplit_bruteforce(pair, up, shoe, rules)
    frozen = split_ev_bruteforce(pair, up, shoe, rules)
    assert optimal is not None and postsplit is not None and frozen is not None
    assert optimal >= postsplit >= frozen
    assert (optimal > postsplit) == strict


def test_hand_1_plays_for_the_round() -> None:
    # 7,7 split against an 8 (peek, S17, no DAS), 13 cards left: A A 2 3 6 8
    # 9 9 T T T T T. Hand 1 holds 7,T = 17. For itself it stands: its own
    # expectation (the frozen policy's, which sees only its own cards) is
    # -248/495 standing and -12097/23760 hitting, 0.008 worse. For the round
    # it hits: the card it takes (an A, 2 or 3 improves it, the other 8 of
    # the 12 unseen cards bust it) leaves the shoe hand 2 and the dealer draw
    # from, and hand 2 sees it before deciding (it also tells it more about
    # the hole card, one of those 12); that is worth more to the rest of the
    # round than the 0.008 hand 1 gives up: the round is worth -87667/110880
    # (-0.7906) after standing and -776383/997920 (-0.7780) after hitting,
    # given hand 1's 7,T. Hence the optimum beats post-split play here, where
    # hand 1 plays the frozen policy and stands.
    rules = _rules(double_after_split=False)
    shoe = (2, 1, 1, 0, 0, 1, 0, 1, 2, 5)
    first, _ = oracle._split_hand_setups(oracle.RANK_LAYOUT, [(7, None)] * 2, 8, shoe, rules)
    ten = (0,) * 9 + (1,)  # hand 1 has drawn a T
    alone = oracle._hand_solver(first)
    own = {a: v / alone.weight(ten) for a, v in alone.options(ten).items()}
    assert own == {"stand": Fraction(-248, 495), "hit": Fraction(-12097, 23760)}
    assert alone.action(ten) == "stand"
    solver = _OptimalSplit(7, 8, shoe, rules)
    hand = solver.hand_state(17, False, 2, False, True)
    w = solver.weight(ten)
    round_values = {a: Fraction(v, w) for a, v in solver.options(ten, hand, 1, 2, ()).items()}
    assert round_values == {"stand": Fraction(-87667, 110880), "hit": Fraction(-776383, 997920)}


# --------------------------------------------- nothing to choose: equal to the frozen split

NO_CHOICE = [
    ("peek-AAv6", _rules(), 1, 6, (1, 1, 1, 1, 1, 1, 1, 1, 1, 7)),
    ("enhc-all-AAvT-4-no-RSA", _rules(max_split_hands=4, **ENHC), 1, 10,
     (2, 0, 1, 1, 1, 0, 1, 2, 2, 4)),
    ("enhc-original-AAv9", _rules(**ORIGINAL), 1, 9, (1, 1, 1, 1, 1, 1, 1, 1, 0, 6)),
]


@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:5]))
                          for case in NO_CHOICE])
def test_split_aces_one_card_without_resplit_is_the_frozen_split(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    # One card on each split ace and no resplit of aces: no decision is left.
    _check_shoe(1, pair, up, shoe)
    optimal = split_ev_optimal_bruteforce(pair, up, shoe, rules)
    # (aces without resplit_aces make two hands at most, whatever max_split_hands says)
    assert optimal == split_ev_bruteforce(pair, up, shoe, replace(rules, max_split_hands=2))
    assert optimal == split_ev_resplit_bruteforce(pair, up, shoe, rules)


# ------------------------------------------------------------ resplits: >= frozen resplit

# (id, rules, pair, up, shoe, optimal > frozen resplit)
RESPLITS = [
    ("peek-88v6-3", _rules(max_split_hands=3), 8, 6, (1, 0, 0, 1, 1, 1, 0, 2, 3, 6), False),
    ("peek-88vT-4", _rules(max_split_hands=4), 8, 10, (1, 0, 0, 1, 0, 2, 1, 2, 2, 5), True),
    ("peek-88vA-4", _rules(max_split_hands=4), 8, 1, (2, 0, 1, 1, 0, 0, 1, 2, 2, 6), True),
    ("peek-D9-11-22v6-3", _rules(max_split_hands=3, double_on="9-11"), 2, 6,
     (1, 1, 0, 1, 1, 0, 1, 1, 1, 8), True),
    ("peek-H17-77v7-3", _rules(max_split_hands=3, dealer_hits_soft_17=True), 7, 7,
     (1, 0, 2, 1, 0, 2, 1, 1, 2, 7), True),
    ("peek-AAv6-RSA-4", _rules(max_split_hands=4, resplit_aces=True), 1, 6,
     (2, 1, 0, 1, 3, 1, 0, 1, 1, 5), False),
    ("peek-AAvT-no-RSA-4", _rules(max_split_hands=4), 1, 10, (2, 0, 1, 1, 1, 0, 1, 2, 2, 4),
     False),
    ("enhc-all-88vT-4", _rules(max_split_hands=4, **ENHC), 8, 10,
     (0, 1, 0, 2, 1, 1, 2, 2, 0, 5), True),
    ("enhc-all-H17-33v2-3", _rules(max_split_hands=3, dealer_hits_soft_17=True, **ENHC), 3, 2,
     (0, 3, 2, 0, 1, 2, 0, 0, 0, 6), True),
    ("enhc-original-99vA-3", _rules(max_split_hands=3, **ORIGINAL), 9, 1,
     (1, 1, 2, 0, 1, 1, 0, 2, 1, 7), True),
    ("enhc-all-AAv5-RSA-hit-split-aces-3",
     _rules(max_split_hands=3, resplit_aces=True, split_aces_one_card=False, **ENHC), 1, 5,
     (2, 0, 0, 1, 1, 4, 0, 2, 0, 6), True),
    ("enhc-all-777-77vT-3", _rules(max_split_hands=3, bonus_777=3.0, **ENHC), 7, 10,
     (1, 0, 0, 1, 1, 0, 2, 2, 1, 7), True),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "pair", "up", "shoe", "strict"),
                         [pytest.param(*case[1:], id=case[0], marks=split_case_group(*case[1:5]))
                          for case in RESPLITS])
def test_optimal_at_least_frozen_resplit(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...], strict: bool
) -> None:
    # The frozen resplit (always resplit, each hand on its own cards) is one
    # of the optimum's policies. With one-card aces it may only choose whether
    # to resplit (here always resplitting is best); without resplit_aces it
    # has no choice at all.
    _check_shoe(1, pair, up, shoe)
    optimal = split_ev_optimal_bruteforce(pair, up, shoe, rules)
    frozen = split_ev_resplit_bruteforce(pair, up, shoe, rules)
    assert optimal is not None and frozen is not None
    assert optimal >= frozen
    assert (optimal > frozen) == strict


# ------------------------------------------------------------------ by hand


def test_peek_hand_1_stands_to_leave_hand_2_the_card() -> None:
    # 4,4 split against a T (peek, S17, no doubling), shoe {8, 9, 9, 9}. The
    # hole card is one of them (none completes a blackjack): the 8 (1/4,
    # dealer 18) or a 9 (3/4, dealer 19); the dealer stands. The player draws
    # from the other three, so after hand 1 hand 2 always has its card.
    # Hand 1 draws:
    # * the 8 (hole 9, 3/4 * 1/3 = 1/4): the hole is then known to be a 9.
    #   Hand 1 hits 12 and takes a 9: 21 wins (+1); hand 2 gets the last 9:
    #   13 loses (-1). Round 0. (Standing on 12 would lose both: -2.)
    # * a 9 (hole 8: 1/4 * 1; hole 9: 3/4 * 2/3 = 1/2; together 3/4): 13.
    #   - Hit: hole 8, the cards left are 9, 9: hand 1 busts, hand 2 has 13
    #     against 18: -2 (weight 1/4). Hole 9, left 8, 9: hand 1 takes the 8
    #     (21, +1) and hand 2 the 9 (13, -1): 0; or the 9 (bust) and hand 2
    #     the 8 (12, -1): -2 (weight 1/2 * 1/2). Sum: -1/2 - 1/2 = -1.
    #   - Stand (13 loses: -1): hand 2 draws. It gets the 8 (hole 9, weight
    #     1/4): the hole is a 9, the last card a 9: it hits 12 to 21 (+1),
    #     round 0. It gets a 9: hole 8 (weight 1/4, last card a 9) or hole 9
    #     (weight 1/4, last card the 8), alike to the player; hitting 13 is
    #     -1 or +1, i.e. 0, standing -1: it hits, round -2 or 0. Sum:
    #     0 + 1/4 * -2 + 1/4 * 0 = -1/2.
    #   Standing (-1/2) beats hitting (-1). For itself hand 1 would hit: 13
    #   loses for sure and hitting is -1/3 (hole 8: bust; hole 9: 21 or
    #   bust), but hitting takes the card hand 2 could have used knowing more.
    # Optimal: 0 + -1/2 = -1/2. Post-split play (hand 1 hits its 13): -1.
    rules = _rules(double_on="none")
    shoe = (0, 0, 0, 0, 0, 0, 0, 1, 3, 0)
    assert split_ev_optimal_bruteforce(4, 10, shoe, rules) == Fraction(-1, 2)
    assert split_ev_postsplit_bruteforce(4, 10, shoe, rules) == -1


@pytest.mark.parametrize(("loses", "value"), [("all", Fraction(-6, 5)),
                                               ("original", Fraction(-2, 5))])
def test_enhc_declines_a_resplit_against_a_blackjack(loses: str, value: Fraction) -> None:
    # T,T split against a T (ENHC, S17), shoe {A, A, A, A, T}, up to 3 hands.
    # The dealer's second card is the last card left when the hands are done;
    # an A gives him blackjack, which beats every hand (a 21 of two or three
    # cards too). Hands on 21 stand (hand_of_21_stands: no doubling T,A either).
    # * Hand 1 draws the T (1/5): the rest are four aces. Resplitting gives
    #   three hands of T,A and the dealer an A: -3 ("all") / -1 ("original":
    #   hand 1's bet only). Declining: T,T = 20 (standing or hitting to 21 is
    #   the same), hand 2 T,A, the dealer an A: -2 / -1. Declined ("all").
    # * Hand 1 draws an A (4/5): 21. From {A, A, A, T}, hand 2 draws
    #   - the T (1/4): the rest are three aces, so the dealer will have
    #     blackjack: resplit -3 / -1, decline (20 or T,T,A) -2 / -1;
    #   - an A (3/4): 21; the dealer gets an A (2/3, blackjack: -2 / -1) or
    #     the T (1/3, 20: +2): -2/3 / 0.
    # "all": 1/5 * -2 + 4/5 * (1/4 * -2 + 3/4 * -2/3) = -2/5 - 4/5 = -6/5;
    # the frozen resplit (always resplit) is 1/5 * -3 + 4/5 * (1/4 * -3 +
    # 3/4 * -2/3) = -8/5. "original": 1/5 * -1 + 4/5 * (1/4 * -1 + 0) = -2/5,
    # resplitting or not (only hand 1's bet is at stake against a blackjack).
    rules = _rules(max_split_hands=3, hole_card="enhc", enhc_loses=loses,
                   hand_of_21_stands=True)
    shoe = (4, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    assert split_ev_optimal_bruteforce(10, 10, shoe, rules) == value
    frozen = split_ev_resplit_bruteforce(10, 10, shoe, rules)
    assert frozen == (Fraction(-8, 5) if loses == "all" else value)


# ------------------------------------------- a plain enumeration of the round's histories


def _best(cards: tuple[int, ...]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def _less(shoe: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return tuple(n - (i == rank - 1) for i, n in enumerate(shoe))


def _dealer(cards: list[int], shoe: tuple[int, ...], h17: bool) -> dict[int | str, Fraction]:
    """The dealer's end (a total or "bust") holding ``cards``, drawing from ``shoe``."""
    total = _best(tuple(cards))
    if total > 21:
        return {"bust": Fraction(1)}
    if total >= 17 and not (total == 17 and total != sum(cards) and h17):
        return {total: Fraction(1)}
    if not sum(shoe):
        raise ShoeExhausted("dealer")
    out: dict[int | str, Fraction] = {}
    for r in range(1, 11):
        if shoe[r - 1]:
            for end, p in _dealer([*cards, r], _less(shoe, r), h17).items():
                out[end] = out.get(end, Fraction(0)) + Fraction(shoe[r - 1], sum(shoe)) * p
    return out


Scenarios = tuple[tuple[Fraction, tuple[int, ...], int | None], ...]
Hands = tuple[tuple[tuple[int, ...], int, str], ...]  # (cards, stake, "play"/"stand"/"bust"/...)


def _naive_optimal(pair: int, up: int, shoe: tuple[int, ...], rules: BlackjackRules) -> Fraction:
    """The fully optimal split by enumerating every history, straight from the rules.

    A scenario is (weight, cards the player can still draw, hole card): in a
    peek game one per hole card that does not complete a blackjack, weighted
    by its share, else one. A draw follows every scenario at once (weights
    times the chance of the card in each), so a decision, a max over the sum
    of the scenarios' values, is one for all hole cards the player cannot tell
    apart. No state is merged: a hand is its list of cards.
    """
    if rules.peek:
        holes = [h for h in range(1, 11) if shoe[h - 1] and {up, h} != {1, 10}]
        m = sum(shoe[h - 1] for h in holes)
        start: Scenarios = tuple((Fraction(shoe[h - 1], m), _less(shoe, h), h) for h in holes)
    else:
        start = ((Fraction(1), shoe, None),)
    aces = pair == 1
    most = rules.max_split_hands if not aces or rules.resplit_aces else 2
    bonus = Fraction(repr(rules.bonus_777)) if rules.bonus_on_split_hands else Fraction(0)

    def draw(sc: Scenarios, then):  # type: ignore[no-untyped-def]
        if not sum(sc[0][1]):
            raise ShoeExhausted("player")
        total = Fraction(0)
        for r in range(1, 11):
            new = tuple((w * Fraction(s[r - 1], sum(s)), _less(s, r), h) for w, s, h in sc
                        if s[r - 1])
            if new:
                total += then(r, new)
        return total

    def put(hands: Hands, i: int, hand: tuple[tuple[int, ...], int, str]) -> Hands:
        return (*hands[:i], hand, *hands[i + 1 :])

    def next_hand(sc: Scenarios, hands: Hands, i: int) -> Fraction:
        if i == len(hands):
            return settle(sc, hands)
        return draw(sc, lambda c, s2: second_card(s2, hands, i, c))

    def second_card(sc: Scenarios, hands: Hands, i: int, c: int) -> Fraction:
        best = after_card(sc, put(hands, i, ((pair, c), 1, "play")), i)
        if c == pair and len(hands) < most:  # resplit: c starts a hand at the queue's end
            best = max(best, next_hand(sc, (*hands, ((pair,), 1, "play")), i))
        return best

    def after_card(sc: Scenarios, hands: Hands, i: int) -> Fraction:
        cards, stake, _ = hands[i]
        if sum(cards) > 21:
            return next_hand(sc, put(hands, i, (cards, stake, "bust")), i + 1)
        if cards == (7, 7, 7) and bonus:
            return next_hand(sc, put(hands, i, (cards, stake, "bonus")), i + 1)
        stand = next_hand(sc, put(hands, i, (cards, stake, "stand")), i + 1)
        if rules.split_aces_take_one_card(aces) and len(cards) == 2:
            return stand
        best = stand
        if sum(sc[0][1]):
            if _best(cards) < 21:  # 21 is never hit (it may be doubled, as any total)
                best = max(best, draw(sc, lambda c, s2: after_card(
                    s2, put(hands, i, ((*cards, c), 1, "play")), i)))
            if (len(cards) == 2 and rules.split_hands_may_double(aces)
                    and rules.may_double(_best(cards))):
                def doubled(c: int, s2: Scenarios) -> Fraction:
                    new = (*cards, c)
                    return next_hand(s2, put(hands, i, (new, 2, "bust" if sum(new) > 21
                                                        else "stand")), i + 1)
                best = max(best, draw(sc, doubled))
        return best

    def settle(sc: Scenarios, hands: Hands) -> Fraction:
        value = Fraction(0)
        for w, s, hole in sc:
            if hole is not None:
                ends = _dealer([up, hole], s, rules.dealer_hits_soft_17)
            else:
                ends = {}
                for r in range(1, 11):
                    if s[r - 1]:
                        sub = ({"bj": Fraction(1)} if {up, r} == {1, 10}
                               else _dealer([up, r], _less(s, r), rules.dealer_hits_soft_17))
                        for end, q in sub.items():
                            ends[end] = ends.get(end, Fraction(0)) + Fraction(s[r - 1],
                                                                              sum(s)) * q
            for end, p in ends.items():
                for j, (cards, stake, status) in enumerate(hands):
                    if status == "bust":
                        result = Fraction(-stake)
                    elif status == "bonus":
                        result = bonus
                    elif end == "bj":
                        taken = rules.dealer_blackjack_takes(second_split_hand=j > 0)
                        result = -Fraction(repr(taken[stake - 1]))
                    elif end == "bust":
                        result = Fraction(stake)
                    else:
                        t = _best(cards)
                        result = Fraction(stake * ((t > end) - (t < end)))  # type: ignore[operator]
                    value += w * p * result
        return value

    return next_hand(start, (((pair,), 1, "play"), ((pair,), 1, "play")), 0)


# (rules, pair, up, shoe): 4 to 7 cards, every history plays through
NAIVE = [
    (_rules(double_on="none"), 4, 10, (0, 0, 0, 0, 0, 0, 0, 1, 3, 0)),
    (_rules(dealer_hits_soft_17=True, double_on="10-11", **ENHC), 7, 9,
     (0, 0, 0, 0, 2, 0, 0, 0, 1, 3)),
    (_rules(bonus_777=3.0), 7, 10, (1, 0, 0, 0, 0, 0, 2, 2, 0, 0)),
    (_rules(bonus_777=3.0, **ORIGINAL), 7, 10, (0, 0, 0, 0, 0, 0, 2, 3, 0, 0)),
    (_rules(split_aces_one_card=False), 1, 10, (1, 0, 0, 0, 0, 0, 2, 1, 0, 3)),
    (_rules(bonus_777=2.5), 8, 10, (0, 1, 0, 1, 0, 0, 1, 0, 2, 2)),
    (_rules(double_after_split=False, double_on="11", **ENHC), 10, 2,
     (0, 0, 1, 0, 0, 0, 1, 1, 2, 2)),
    (_rules(double_on="10-11", **ORIGINAL), 10, 10, (0, 1, 0, 1, 1, 0, 0, 1, 1, 2)),
    (_rules(max_split_hands=3, double_after_split=False), 7, 10, (0, 0, 0, 0, 0, 0, 1, 0, 1, 5)),
    (_rules(max_split_hands=4, double_on="11"), 6, 8, (0, 0, 0, 0, 0, 1, 0, 0, 0, 6)),
    (_rules(max_split_hands=3, resplit_aces=True, double_after_split=False, bonus_777=2.5),
     1, 6, (1, 1, 0, 1, 1, 1, 0, 1, 0, 1)),
    (_rules(max_split_hands=3, resplit_aces=True, dealer_hits_soft_17=True, **ORIGINAL),
     1, 8, (1, 1, 1, 1, 1, 1, 0, 1, 0, 0)),
    (_rules(max_split_hands=3, hand_of_21_stands=True, **ENHC), 10, 10,
     (4, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
]


@pytest.mark.oracle
@pytest.mark.parametrize(("rules", "pair", "up", "shoe"),
                         [pytest.param(*c, marks=split_case_group(*c)) for c in NAIVE])
def test_equals_the_plain_enumeration(
    rules: BlackjackRules, pair: int, up: int, shoe: tuple[int, ...]
) -> None:
    _check_shoe(1, pair, up, shoe)
    assert split_ev_optimal_bruteforce(pair, up, shoe, rules) == _naive_optimal(pair, up, shoe,
                                                                                rules)


@pytest.mark.oracle
def test_limits() -> None:
    shoe = (1, 0, 1, 1, 1, 1, 1, 1, 2, 5)
    assert split_ev_optimal_bruteforce(8, 6, shoe, _rules(max_split_hands=1)) is None
    with pytest.raises(ValueError, match="suits"):
        split_ev_optimal_bruteforce(8, 6, shoe, _rules(bonus_suited_678=3.0))
    # 8,8 against a 6 with two more 8s: the optimum gains from each extra hand allowed.
    eights = (1, 0, 0, 1, 1, 1, 0, 2, 3, 6)
    values = [split_ev_optimal_bruteforce(8, 6, eights, _rules(max_split_hands=n))
              for n in (2, 3, 4)]
    assert values[0] is not None and values[1] is not None and values[2] is not None
    assert values[0] < values[1] <= values[2]
