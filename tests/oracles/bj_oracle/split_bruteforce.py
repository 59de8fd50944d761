"""One split played in casino order on tiny shoes. (see the package docstring)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import replace

from rational import Fraction

from bj_oracle.basics import (
    RANK_LAYOUT,
    SUITED_LAYOUT,
    Shoe,
    ShoeExhausted,
    SuitedCard,
    SuitedShoe,
    _take,
)
from bj_oracle.dealer import _dealer_from, _dealer_two_step
from bj_oracle.solver import _Hand, _hand_solver, _Setup, _suited_counts
from bj_oracle.splits import _split_setups
from strategy_calc.rules import BlackjackRules

# ------------------------------------------------- split brute force (tiny shoes)


Outcome = tuple[str, Fraction, int]  # ("bust" | "bonus" | "bonus+21" | "total", bonus or total,
                                     # bet); "bonus+21": paid, then standing as a 21


def _draws(left: tuple[int, ...]) -> Iterator[tuple[int, Fraction]]:
    """Each kind a split hand can draw from ``left``, with its probability."""
    n = sum(left)
    if n == 0:
        raise ShoeExhausted("a split hand must draw from an empty shoe")
    for c, count in enumerate(left):
        if count:
            yield c, Fraction(count, n)


def _walk_hand(
    solver: _Hand, d: tuple[int, ...], left: tuple[int, ...], p: Fraction
) -> Iterator[tuple[Outcome, tuple[int, ...], Fraction]]:
    """Play a hand on from its own cards ``d`` with ``solver``'s policy, really
    drawing from ``left``: (final outcome, shoe left, probability), with ``p``
    the probability of getting here; the same outcome may come several times."""
    if solver.hard(d) > 21:
        yield ("bust", Fraction(0), 1), left, p
        return
    bonus = solver.bonus(d)
    if bonus:
        yield ("bonus" if solver.s.bonus_settles else "bonus+21", bonus, 1), left, p
        return
    act = solver.action(d)
    if act == "stand":
        yield ("total", Fraction(solver.total(d)), 1), left, p
    elif act == "hit":
        for c, q in _draws(left):
            yield from _walk_hand(solver, solver.plus(d, c), _take(left, c), p * q)
    else:  # double: one card, stand with 2 units, no bonus
        for c, q in _draws(left):
            nd = solver.plus(d, c)
            if solver.hard(nd) > 21:
                final: Outcome = ("bust", Fraction(0), 2)
            else:
                final = ("total", Fraction(solver.total(nd)), 2)
            yield final, _take(left, c), p * q


def _play_in_shoe(
    solver: _Hand, shoe: tuple[int, ...]
) -> dict[tuple[Outcome, tuple[int, ...]], Fraction]:
    """Play one hand with ``solver``'s policy, really drawing from ``shoe``:
    the probability of each (final outcome, shoe left)."""
    out: dict[tuple[Outcome, tuple[int, ...]], Fraction] = {}
    for final, left, p in _walk_hand(solver, (0,) * solver.n_kinds, shoe, Fraction(1)):
        out[(final, left)] = out.get((final, left), Fraction(0)) + p
    return out


def _settle(outcome: Outcome, dealer: int, loss_vs_bj: tuple[Fraction, Fraction]) -> Fraction:
    """One split hand's result; ``dealer`` 0..4 = 17..21, 5 = bust, 6 = 22 (where the rules
    count it apart: it pushes), 7 = blackjack."""
    kind, value, bet = outcome
    if kind == "bust":
        return Fraction(-bet)
    if kind == "bonus":
        return value
    if kind == "bonus+21":  # paid at once, then the hand's bet stands as a 21
        return value + _settle(("total", Fraction(21), 1), dealer, loss_vs_bj)
    if dealer == 7:
        return loss_vs_bj[bet - 1]
    if dealer == 6:
        return Fraction(0)
    if dealer == 5:
        return Fraction(bet)
    return Fraction(bet * ((value > 17 + dealer) - (value < 17 + dealer)))


def _dealer_law(solver: _Hand, left: tuple[int, ...], hole: int | None) -> tuple[Fraction, ...]:
    """P(17), ..., P(21), P(bust), P(22), P(blackjack) for the dealer of ``solver``'s
    setup drawing from ``left`` (``hole``: his known hole card in a peek game,
    None in ENHC, where his second card comes from ``left`` now)."""
    up, h17, push22 = solver.s.up, solver.s.h17, solver.s.push22
    dealer_shoe = solver._rank_counts(left)
    if hole is None:
        dist, p_bj = _dealer_two_step(dealer_shoe, up, h17, push22)
        return (*dist, p_bj)
    rank = solver.ranks[hole]  # peek: up + hole, known not to be a blackjack
    return (*_dealer_from(dealer_shoe, up + rank, up == 1 or rank == 1, h17, push22),
            Fraction(0))


def _split_bruteforce(
    setups: tuple[_Setup, _Setup] | None, postsplit: bool = False,
    policies: tuple[_Hand, _Hand] | None = None,
) -> Fraction | None:
    """Hand 1, then hand 2, then the dealer, really drawing from one shoe.

    Plain enumeration, with the sums regrouped (linearity) so that hand 2 and
    the dealer are enumerated once per shoe that hand 1 can leave. Hand 2
    plays the frozen policy of ``setups[1]`` (its own cards only) or, with
    ``postsplit``, the best policy given hand 1's cards too
    (:class:`_HandAfter`). ``policies``: the solvers whose decisions hands 1
    and 2 follow instead (their values are not used; the play is valued here).
    """
    if setups is None:
        return None
    first, second = setups
    solver1, frozen2 = _hand_solver(first), _hand_solver(second)
    play1 = policies[0] if policies is not None else solver1
    if policies is not None:
        frozen2 = policies[1]
    informed: dict[tuple[int, ...], _Hand] = {}  # hand 2's solver per hand 1's cards

    def hand2(seen: tuple[int, ...]) -> _Hand:
        if not postsplit:
            return frozen2
        if seen not in informed:
            from bj_oracle.postsplit import _HandAfter  # defined with the post-split model

            rest = tuple(a - b for a, b in zip(second.shoe, seen, strict=True))
            informed[seen] = _HandAfter(replace(second, shoe=rest), seen)
        return informed[seen]

    ev = Fraction(0)
    for hole, p_hole in solver1.scenarios:  # exact: the hole card; enhc: none yet
        shoe = first.shoe if hole is None else _take(first.shoe, hole)
        hand1_by_left: dict[tuple[int, ...], list[tuple[Outcome, Fraction]]] = {}
        for (out1, left1), p1 in _play_in_shoe(play1, shoe).items():
            hand1_by_left.setdefault(left1, []).append((out1, p1))
        for left1, outcomes1 in hand1_by_left.items():
            # hand 1's cards: what it took from the shoe it drew from
            solver2 = hand2(tuple(a - b for a, b in zip(shoe, left1, strict=True)))
            dealer = [Fraction(0)] * 8  # the dealer's law after hand 2, given left1
            ev2 = Fraction(0)  # hand 2's expected result, given left1
            for (out2, left2), p2 in _play_in_shoe(solver2, left1).items():
                for k, p_dealer in enumerate(_dealer_law(solver1, left2, hole)):
                    if p_dealer:
                        dealer[k] += p2 * p_dealer
                        ev2 += p2 * p_dealer * _settle(out2, k, second.loss_vs_bj)
            for out1, p1 in outcomes1:
                ev1 = sum(
                    (p * _settle(out1, k, first.loss_vs_bj) for k, p in enumerate(dealer) if p),
                    Fraction(0),
                )
                ev += p_hole * p1 * (ev1 + ev2)
    return ev


@functools.cache  # a pure function of immutable arguments; several test files ask it
def split_ev_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """:func:`split_ev` by playing hand 1, then hand 2, then the dealer from one
    shoe (each hand's decisions on its own cards only). For tiny shoes."""
    pair = [(pair_rank, None), (pair_rank, None)]
    return _split_bruteforce(_split_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules))


def split_ev_bruteforce_suited(
    pair_cards: Sequence[SuitedCard], up: int, shoe_suited: SuitedShoe, rules: BlackjackRules
) -> Fraction | None:
    """:func:`split_ev_bruteforce` with suits (bonus on split hands)."""
    counts = _suited_counts(shoe_suited)
    return _split_bruteforce(_split_setups(SUITED_LAYOUT, list(pair_cards), up, counts, rules))


def split_ev_cdz_bruteforce(
    pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules
) -> Fraction | None:
    """The split played by the pre-split strategy (the field's CDZ-): each split hand
    takes, holding the cards it holds, the decision the same cards would get as an
    unsplit hand (whose shoe still holds the other pair card), and the round is played
    hand 1, hand 2, dealer from the real shoe. The decisions are a split-hand solver's
    for the shoe with one pair card put back (so a split hand still may not surrender
    or resplit, and doubles only where the rules let split hands double)."""
    pair = [(pair_rank, None), (pair_rank, None)]
    setups = _split_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules)
    if setups is None:
        return None
    back = tuple(n + (i == pair_rank - 1) for i, n in enumerate(shoe))
    policies = (_hand_solver(replace(setups[0], shoe=back)),
                _hand_solver(replace(setups[1], shoe=back)))
    return _split_bruteforce(setups, policies=policies)
