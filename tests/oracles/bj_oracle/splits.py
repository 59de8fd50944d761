"""Split EVs: each split hand for its own cards. (see the package docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from rational import Fraction

from bj_oracle.basics import (
    RANK_LAYOUT,
    SUITED_LAYOUT,
    Shoe,
    SuitedCard,
    SuitedShoe,
    _exact,
    _split_forbidden,
)
from bj_oracle.solver import (
    _bonus_rows,
    _bonuses,
    _double_totals,
    _enhc_losses,
    _hand_solver,
    _kind_of,
    _Setup,
    _suited_counts,
)
from strategy_calc.rules import BlackjackRules

# ---------------------------------------------------------------- splits


def _split_setups(
    layout: tuple[SuitedCard, ...],
    pair: Sequence[SuitedCard],
    up: int,
    shoe: tuple[int, ...],
    rules: BlackjackRules,
) -> tuple[_Setup, _Setup] | None:
    """The setups of split hand 1 and split hand 2 (None: no split allowed)."""
    if _split_forbidden(rules, pair[0][0]):
        return None
    if rules.max_split_hands > 2:
        raise NotImplementedError("the oracle handles one split (two hands) only")
    return _split_hand_setups(layout, pair, up, shoe, rules)


def _split_hand_setups(
    layout: tuple[SuitedCard, ...],
    pair: Sequence[SuitedCard],
    up: int,
    shoe: tuple[int, ...],
    rules: BlackjackRules,
) -> tuple[_Setup, _Setup]:
    """The setups of split hand 1 and of split hand 2 (and of every later hand
    of a resplit), whatever ``max_split_hands`` says."""
    rank = pair[0][0]
    if pair[1][0] != rank:
        raise ValueError("not a pair")
    aces = rank == 1
    one_card = aces and rules.split_aces_one_card
    may_double = rules.double_after_split and not one_card
    b777, b678 = _bonuses(rules, layout)
    if not rules.bonus_on_split_hands:
        b777 = b678 = Fraction(0)
    setups = []
    for index, card in enumerate(pair, start=1):
        setups.append(
            _Setup(
                layout=layout,
                shoe=tuple(shoe),
                up=up,
                model="exact" if rules.peek else "enhc",
                h17=rules.dealer_hits_soft_17,
                start=(_kind_of(layout, card),),
                natural=False,
                bj_pays=_exact(rules.blackjack_pays),
                loss_vs_bj=_enhc_losses(rules, index),
                split_hand=True,
                split_double_totals=_double_totals(rules) if may_double else frozenset(),
                one_card=one_card,
                bonus_777=b777,
                bonus_678=b678,
                push22=rules.dealer_22_pushes,
                bonus_settles=rules.bonus_settles_hand,
                charlie=rules.charlie_cards,
                rows=_bonus_rows(rules, layout, True),
                late_double_totals=(_double_totals(rules)
                                    if rules.double_after_hit and may_double else frozenset()),
            )
        )
    return setups[0], setups[1]


def _split_value(setups: tuple[_Setup, _Setup] | None) -> Fraction | None:
    if setups is None:
        return None
    total = Fraction(0)
    for setup in setups:
        solver = _hand_solver(setup)
        root = (0,) * len(setup.layout)
        total += solver.value(root) / solver.weight(root)
    return total


def split_ev(pair_rank: int, up: int, shoe: Shoe, rules: BlackjackRules) -> Fraction | None:
    """EV (per unit initial bet, both hands) of splitting a pair of ``pair_rank``;
    ``shoe`` has both pair cards, the up card and the removed cards taken out."""
    pair = [(pair_rank, None), (pair_rank, None)]
    return _split_value(_split_setups(RANK_LAYOUT, pair, up, tuple(shoe), rules))


def split_ev_suited(
    pair_cards: Sequence[SuitedCard], up: int, shoe_suited: SuitedShoe, rules: BlackjackRules
) -> Fraction | None:
    """:func:`split_ev` with suits: hand 1 starts with ``pair_cards[0]``, hand 2
    with ``pair_cards[1]``."""
    counts = _suited_counts(shoe_suited)
    return _split_value(_split_setups(SUITED_LAYOUT, list(pair_cards), up, counts, rules))
