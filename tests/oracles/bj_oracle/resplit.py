"""Resplits played in casino order on tiny shoes. (see the package docstring)."""

from __future__ import annotations

import functools

from rational import Fraction

from bj_oracle.basics import RANK_LAYOUT, Shoe, _split_forbidden, _take
from bj_oracle.solver import _Hand, _hand_solver, _Setup
from bj_oracle.split_bruteforce import (
    Outcome,
    _dealer_law,
    _draws,
    _settle,
    _walk_hand,
)
from bj_oracle.splits import _split_hand_setups
from strategy_calc.rules import BlackjackRules

# --------------------------------------------- resplit brute force (tiny shoes)


HandEnd = tuple[Outcome, tuple[int, ...], int]  # (outcome, shoe left, hands so far)


def _play_split_hand(
    solver: _Hand, left: tuple[int, ...], hands: int, max_hands: int, resplit_kind: int | None
) -> dict[HandEnd, Fraction]:
    """Play the current split hand from ``left`` when ``hands`` hands exist:
    while its second card is of ``resplit_kind`` (None: never) and fewer than
    ``max_hands`` hands exist, that card starts a new hand and the hand draws
    again; then the hand plays on with ``solver``'s policy on its own cards.
    The probability of each (outcome, shoe left, number of hands then)."""
    out: dict[HandEnd, Fraction] = {}
    zero = (0,) * solver.n_kinds

    def second_card(left: tuple[int, ...], hands: int, p: Fraction) -> None:
        for c, q in _draws(left):
            rest = _take(left, c)
            if c == resplit_kind and hands < max_hands:
                second_card(rest, hands + 1, p * q)  # a new hand; draw again
                continue
            for final, left_end, p_end in _walk_hand(solver, solver.plus(zero, c), rest, p * q):
                key = (final, left_end, hands)
                out[key] = out.get(key, Fraction(0)) + p_end

    second_card(left, hands, Fraction(1))
    return out


def _tally_value(
    solver: _Hand, left: tuple[int, ...], hole: int | None,
    tally: dict[tuple[int, Outcome], Fraction], losses: dict[int, tuple[Fraction, Fraction]],
) -> Fraction:
    """The finished hands' results against the dealer drawing from ``left``: ``tally``
    holds, per (hand class, outcome), its weight; ``losses`` what a dealer blackjack takes
    from each class (1: the first hand, 2: the later ones)."""
    value = Fraction(0)
    for k, p_dealer in enumerate(_dealer_law(solver, left, hole)):
        if p_dealer:
            value += p_dealer * sum(
                (n * _settle(out, k, losses[cls]) for (cls, out), n in tally.items()),
                Fraction(0),
            )
    return value


def _resplit_setup(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> tuple[_Setup, _Setup, _Hand, _Hand, int | None]:
    """The split hands' setups (H1, the later ones), their policies, and the kind of card
    that resplits (None: none does, aces without ``resplit_aces``)."""
    pair = [(pair_rank, None), (pair_rank, None)]
    first, later = _split_hand_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules)
    resplit_kind = pair_rank - 1 if pair_rank != 1 or rules.resplit_aces else None
    return first, later, _hand_solver(first), _hand_solver(later), resplit_kind


@functools.cache  # a pure function of immutable arguments; several test files ask it
def split_ev_resplit_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """EV (per unit initial bet, all hands) of splitting a pair of ``pair_rank``
    with resplits up to ``rules.max_split_hands`` hands, by playing the real
    sequential process from one shoe. For tiny shoes; rank-only.

    ``shoe`` has both pair cards, the up card and the removed cards taken out.
    Hands H1, H2 start with one pair card each and are played one at a time in
    queue order. A hand's second card, if it is of the pair's rank (all tens
    alike) while fewer than ``max_split_hands`` hands exist (aces: only with
    ``resplit_aces``), starts a new hand at the end of the queue and the hand
    draws its second card again; otherwise the hand plays on. The dealer plays
    last. The policy is frozen: every hand plays the :func:`split_ev` policy
    of one split hand on its own cards (beyond its starting pair card) only,
    ignoring every other card seen, including the pair cards it passed on:
    H1 that of split hand 1, every later hand that of split hand 2 (they
    differ only in ENHC under ``"original"``, where a dealer blackjack takes
    H1's original bet and returns every other bet and double). Peek game: the
    hole card is enumerated first (not completing a blackjack), so the value
    is conditioned on no dealer blackjack. With ``max_split_hands == 2`` this
    is :func:`split_ev_bruteforce`.

    Plain enumeration with the sums regrouped (linearity): after each hand the
    paths are grouped by (shoe left, number of hands), keeping how often each
    hand outcome occurs on them, and the dealer is enumerated once per shoe
    the hands can leave.
    """
    if _split_forbidden(rules, pair_rank):
        return None
    first, later, solver1, solver2, resplit_kind = _resplit_setup(pair_rank, up, shoe, rules)
    max_hands = rules.max_split_hands

    plays: dict[tuple[int, tuple[int, ...], int], dict[HandEnd, Fraction]] = {}

    def play(index: int, left: tuple[int, ...], hands: int) -> dict[HandEnd, Fraction]:
        """The current hand (H1 when ``index`` is 0) from ``left``, memoised."""
        key = (min(index, 1), left, hands)
        if key not in plays:
            solver = solver1 if index == 0 else solver2
            plays[key] = _play_split_hand(solver, left, hands, max_hands, resplit_kind)
        return plays[key]

    # A state (shoe left, hands so far) carries P(state) and, for each (1 for H1
    # / 2 for a later hand, outcome), E[number of such hands; state]: enough to
    # settle every hand once the dealer's law (a function of the shoe left) is
    # known, since the total result is a sum over the hands.
    State = tuple[tuple[int, ...], int]
    Tally = dict[tuple[int, Outcome], Fraction]
    ev = Fraction(0)
    for hole, p_hole in solver1.scenarios:  # exact: the hole card; enhc: none yet
        start = tuple(shoe) if hole is None else _take(tuple(shoe), hole)
        states: dict[State, tuple[Fraction, Tally]] = {(start, 2): (Fraction(1), {})}
        finished: dict[State, tuple[Fraction, Tally]] = {}
        played = 0  # hands played in every state of ``states``
        while states:
            following: dict[State, tuple[Fraction, Tally]] = {}
            for (left, hands), (p, tally) in states.items():
                if played == hands:
                    finished[(left, hands)] = (p, tally)  # no other state has this key
                    continue
                for (final, left2, hands2), q in play(played, left, hands).items():
                    p_new, tally_new = following.get((left2, hands2), (Fraction(0), {}))
                    for key, n in tally.items():
                        tally_new[key] = tally_new.get(key, Fraction(0)) + n * q
                    key = (1 if played == 0 else 2, final)
                    tally_new[key] = tally_new.get(key, Fraction(0)) + p * q
                    following[(left2, hands2)] = (p_new + p * q, tally_new)
            states = following
            played += 1
        losses = {1: first.loss_vs_bj, 2: later.loss_vs_bj}
        for (left, _), (_, tally) in finished.items():
            ev += p_hole * _tally_value(solver1, left, hole, tally, losses)
    return ev


@functools.cache  # a pure function of immutable arguments; several test files ask it
def split_moments_resplit_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> tuple[Fraction, Fraction, Fraction] | None:
    """The moments ``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of a resplit round, X the
    net result of all the split hands (per unit initial bet), played as
    :func:`split_ev_resplit_bruteforce` plays them (the real sequential process, casino
    order, the frozen one-split-hand policies), but keeping the whole joint law: after
    each hand the paths are grouped by (shoe left, number of hands, the multiset of the
    finished hands' outcomes), and the dealer's law from each shoe left settles every hand
    of a path against the same dealer hand. Peek: conditioned on no dealer blackjack, like
    the EV. For tiny shoes.
    """
    if _split_forbidden(rules, pair_rank):
        return None
    first, later, solver1, solver2, resplit_kind = _resplit_setup(pair_rank, up, shoe, rules)
    max_hands = rules.max_split_hands
    losses = {1: first.loss_vs_bj, 2: later.loss_vs_bj}

    Ends = tuple[tuple[int, Outcome], ...]  # the finished hands' (1 first / 2 later, outcome)
    State = tuple[tuple[int, ...], int, Ends]
    m1 = m2 = with_bj = Fraction(0)
    for hole, p_hole in solver1.scenarios:
        start = tuple(shoe) if hole is None else _take(tuple(shoe), hole)
        states: dict[State, Fraction] = {(start, 2, ()): Fraction(1)}
        played = 0
        finished: dict[State, Fraction] = {}
        while states:
            following: dict[State, Fraction] = {}
            for (left, hands, ends), p in states.items():
                if played == hands:
                    finished[(left, hands, ends)] = p
                    continue
                solver = solver1 if played == 0 else solver2
                for (final, left2, hands2), q in _play_split_hand(
                        solver, left, hands, max_hands, resplit_kind).items():
                    end = (1 if played == 0 else 2, final)
                    key = (left2, hands2, tuple(sorted((*ends, end))))
                    following[key] = following.get(key, Fraction(0)) + p * q
            states = following
            played += 1
        for (left, _, ends), p in finished.items():
            for k, p_dealer in enumerate(_dealer_law(solver1, left, hole)):
                if not p_dealer:
                    continue
                x = sum((_settle(out, k, losses[cls]) for cls, out in ends), Fraction(0))
                w = p_hole * p * p_dealer
                m1 += w * x
                m2 += w * x * x
                if k == 7:  # (the blackjack: _dealer_law)
                    with_bj += w * x
    return m1, m2, with_bj
