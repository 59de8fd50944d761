"""Resplits played by the ``cdp-hands`` process on tiny shoes (see
:func:`split_ev_cdp_hands_bruteforce`; the field's CDP is :mod:`bj_oracle.cdp_field`)."""

from __future__ import annotations

import functools
from dataclasses import replace

from rational import Fraction

from bj_oracle.basics import RANK_LAYOUT, Shoe, _split_forbidden, _take
from bj_oracle.resplit import _tally_value
from bj_oracle.solver import _Hand, _hand_solver, _Setup
from bj_oracle.split_bruteforce import Outcome, _draws, _walk_hand
from bj_oracle.splits import _split_hand_setups
from strategy_calc.rules import BlackjackRules

# ------------------------------------------ cdp-hands resplit brute force (tiny shoes)

Seconds = tuple[int, ...]  # the second card (kind) of each hand, in queue order
Tally = dict[tuple[int, Outcome], Fraction]  # (1: H1 / 2: later hand, outcome) -> E[count]
Walk = dict[tuple[Outcome, tuple[int, ...]], Fraction]  # (final outcome, shoe left) -> P


def _deal_second_cards(
    start: tuple[int, ...], max_hands: int, resplit_kind: int | None
) -> dict[tuple[Seconds, tuple[int, ...]], Fraction]:
    """Give every hand its second card, in queue order, before any hand plays.

    Two hands exist at first. A second card of ``resplit_kind`` (None: never)
    while fewer than ``max_hands`` hands exist starts a new hand at the end of
    the queue and the hand draws again. The probability of each (second cards
    of the hands in queue order, shoe left)."""
    out: dict[tuple[Seconds, tuple[int, ...]], Fraction] = {}

    def deal(index: int, hands: int, seconds: Seconds, left: tuple[int, ...], p: Fraction) -> None:
        if index == hands:
            key = (seconds, left)
            out[key] = out.get(key, Fraction(0)) + p
            return
        for c, q in _draws(left):
            rest = _take(left, c)
            if c == resplit_kind and hands < max_hands:
                deal(index, hands + 1, seconds, rest, p * q)  # a new hand; draw again
            else:
                deal(index + 1, hands, (*seconds, c), rest, p * q)

    deal(0, 2, (), start, Fraction(1))
    return out


def _cdp_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules, frozen: bool = False
) -> Fraction | None:
    """:func:`split_ev_cdp_hands_bruteforce`; with ``frozen`` every hand plays the
    ``a = 0`` policy whatever the number of hands (the policy of
    :func:`split_ev_resplit_bruteforce`, dealt in the cdp-hands order)."""
    if _split_forbidden(rules, pair_rank):
        return None
    pair = [(pair_rank, None), (pair_rank, None)]
    shoe = tuple(shoe)
    first, later = _split_hand_setups(RANK_LAYOUT, pair, up, shoe, rules)
    resplit_kind = pair_rank - 1 if pair_rank != 1 or rules.resplit_aces else None
    max_hands = rules.max_split_hands

    def solver(cls: int, a: int) -> _Hand:
        """The policy of a hand of class ``cls`` (1: H1, 2: later) that knows
        ``a`` more pair cards are gone (``_hand_solver`` is memoised)."""
        setup: _Setup = first if cls == 1 else later
        if a and not frozen:
            fewer = tuple(n - a * (k == pair_rank - 1) for k, n in enumerate(shoe))
            setup = replace(setup, shoe=fewer)
        return _hand_solver(setup)

    walks: dict[tuple[int, int, int, tuple[int, ...]], Walk] = {}

    def walk(cls: int, a: int, second: int, left: tuple[int, ...]) -> Walk:
        """A hand holding its pair card and ``second`` played on from ``left``
        with the (cls, a) policy: P(final outcome, shoe left), memoised."""
        key = (cls, a, second, left)
        if key not in walks:
            policy = solver(cls, a)
            d = policy.plus((0,) * policy.n_kinds, second)
            got: Walk = {}
            for final, left_end, p in _walk_hand(policy, d, left, Fraction(1)):
                got[(final, left_end)] = got.get((final, left_end), Fraction(0)) + p
            walks[key] = got
        return walks[key]

    losses = {1: first.loss_vs_bj, 2: later.loss_vs_bj}
    root = _hand_solver(first)  # the real hole card (peek) comes from the real shoe
    ev = Fraction(0)
    for hole, p_hole in root.scenarios:  # exact: the hole card; enhc: none yet
        start = shoe if hole is None else _take(shoe, hole)
        # A state (a, second cards of the hands still to play, shoe left) carries
        # P(state) and the tally of the hands played so far (linearity, as in
        # split_ev_resplit_bruteforce); every state of a round has played as many hands.
        states: dict[tuple[int, Seconds, tuple[int, ...]], tuple[Fraction, Tally]] = {}
        for (seconds, left), p in _deal_second_cards(start, max_hands, resplit_kind).items():
            states[(len(seconds) - 2, seconds, left)] = (p, {})
        finished: dict[tuple[int, ...], Tally] = {}  # by shoe left: the dealer needs only that
        cls = 1
        while states:
            following: dict[tuple[int, Seconds, tuple[int, ...]], tuple[Fraction, Tally]] = {}
            for (a, seconds, left), (p, tally) in states.items():
                if not seconds:
                    done = finished.setdefault(left, {})
                    for key, n in tally.items():
                        done[key] = done.get(key, Fraction(0)) + n
                    continue
                for (final, left2), q in walk(cls, a, seconds[0], left).items():
                    key2 = (a, seconds[1:], left2)
                    p_new, tally_new = following.get(key2, (Fraction(0), {}))
                    for key, n in tally.items():
                        tally_new[key] = tally_new.get(key, Fraction(0)) + n * q
                    tally_new[(cls, final)] = tally_new.get((cls, final), Fraction(0)) + p * q
                    following[key2] = (p_new + p * q, tally_new)
            states = following
            cls = 2
        for left, tally in finished.items():
            ev += p_hole * _tally_value(root, left, hole, tally, losses)
    return ev


@functools.cache  # a pure function of immutable arguments; several test files ask it
def split_ev_cdp_hands_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """EV (per unit initial bet, all hands) of splitting a pair of ``pair_rank``
    with resplits up to ``rules.max_split_hands`` hands played by the ``cdp-hands``
    process (the calculator's ``cdp`` before issue 28; not the field's CDP, which is
    :func:`bj_oracle.cdp_field.split_ev_cdp_field`), by playing the process from one
    shoe. For tiny shoes;
    rank-only. Same conventions as :func:`split_ev_resplit_bruteforce`
    (``shoe`` has both pair cards, the up card and the removed cards taken out;
    peek: conditioned on no dealer blackjack; None where no split is allowed).

    The dealing (this order is part of the definition): hands H1, H2 start
    with one pair card each; FIRST every hand gets its second card, in queue
    order: a second card of the pair's rank (all tens alike) while fewer than
    ``max_split_hands`` hands exist (aces: only with ``resplit_aces``) starts
    a new hand at the end of the queue and the hand draws again (always
    resplit). Let ``a`` = number of hands - 2. THEN the hands play one after
    another from the real shoe, each with the policy of one split hand (H1
    that of split hand 1, later hands that of split hand 2, as in
    :func:`split_ev_resplit_bruteforce`) computed for the starting shoe less
    ``a`` more pair cards: it knows its own cards, the up card and the 2 + a
    pair cards that started hands, and ignores every other hand's cards. With
    ``a = 0`` that is the frozen policy of the resplit brute force. The
    dealer plays last (peek: the hole card, a real card not completing a
    blackjack, is dealt first)."""
    return _cdp_bruteforce(pair_rank, up, shoe, rules)
