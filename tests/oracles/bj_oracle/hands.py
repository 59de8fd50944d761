"""Every action's EV of one hand (exact, shortcut, suited). (see the package docstring)."""

from __future__ import annotations

from collections.abc import Sequence

from rational import Fraction

from bj_oracle.basics import (
    ACTIONS,
    RANK_LAYOUT,
    SUITED_LAYOUT,
    Shoe,
    SuitedCard,
    SuitedShoe,
    _exact,
)
from bj_oracle.solver import (
    _bj_probability,
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

# ------------------------------------------------------------- hand_evs


def _hand_evs(
    layout: tuple[SuitedCard, ...],
    cards: Sequence[SuitedCard],
    up: int,
    shoe: tuple[int, ...],
    rules: BlackjackRules,
    initial: bool,
    model: str,
) -> dict[str, Fraction | None]:
    ranks = [rank for rank, _ in cards]
    if sum(ranks) > 21:
        raise ValueError("the hand is bust")
    natural = initial and sorted(ranks) == [1, 10]
    b777, b678 = _bonuses(rules, layout)
    setup = _Setup(
        layout=layout,
        shoe=tuple(shoe),
        up=up,
        model=model,
        h17=rules.dealer_hits_soft_17,
        start=tuple(sorted(_kind_of(layout, c) for c in cards)),
        natural=natural,
        bj_pays=_exact(rules.blackjack_pays),
        loss_vs_bj=_enhc_losses(rules, 1),
        split_hand=False,
        split_double_totals=frozenset(),
        one_card=False,
        bonus_777=b777,
        bonus_678=b678,
        push22=rules.dealer_22_pushes,
        bonus_settles=rules.bonus_settles_hand,
        charlie=rules.charlie_cards,
        rows=_bonus_rows(rules, layout, False),
        late_double_totals=_double_totals(rules) if rules.double_after_hit else frozenset(),
    )
    solver = _hand_solver(setup)
    root = (0,) * len(layout)
    norm = solver.weight(root)  # 1: the scenarios' probabilities add up to 1
    evs: dict[str, Fraction | None] = dict.fromkeys(ACTIONS)

    bonus, settles = solver.paid(root)
    if bonus:  # paid at once; settled, or also standing against the dealer
        evs["stand"] = bonus + (0 if settles else solver.stand(root, 1) / norm)
        return evs
    evs["stand"] = solver.stand(root, 1) / norm
    if solver.cards_left(root) > 0:
        evs["hit"] = solver.hit(root) / norm
        if (len(cards) == 2 and solver.total(root) in _double_totals(rules)) or (
                len(cards) > 2 and solver.may_double(root)):  # (double_after_hit)
            evs["double"] = solver.double(root) / norm

    rank_shoe = solver._rank_counts(tuple(shoe))
    p_bj = _bj_probability(rank_shoe, up)
    if len(cards) == 2 and initial:
        evs["surrender"] = _surrender(rules, up, p_bj, natural)
        if rules.insurance and up == 1:
            p = Fraction(rank_shoe[9], sum(rank_shoe))
            evs["insurance"] = Fraction(1, 2) * (2 * p - (1 - p))
    if (
        rules.even_money
        and natural
        and (up == 1 or (up == 10 and rules.even_money_vs_ten))
    ):
        evs["even_money"] = Fraction(1)
    return evs


def _surrender(rules: BlackjackRules, up: int, p_bj: Fraction, natural: bool) -> Fraction | None:
    """The surrender value on the scale of the other EVs (module docstring of B)."""
    kind = rules.surrender
    if kind == "none" or (kind == "not_vs_ace" and up == 1):
        return None
    if natural and rules.hand_of_21_stands:  # a blackjack stands at once: no decision
        return None
    if kind == "2-9":
        return Fraction(-1, 2) if 2 <= up <= 9 else None
    if kind == "late_vs_ten_ace" and up not in (1, 10):  # late, only against a ten or an ace
        return None
    if kind in ("late", "late_vs_ten_ace"):
        if rules.peek:  # conditioned on no dealer blackjack
            return Fraction(-1, 2)
        return -p_bj - (1 - p_bj) / 2
    # early (and not_vs_ace): half back even against a dealer blackjack
    if not rules.peek:
        return Fraction(-1, 2)
    loss_vs_bj = 0 if natural else -1
    return (Fraction(-1, 2) - p_bj * loss_vs_bj) / (1 - p_bj)


def hand_evs(
    hand: Sequence[int], up: int, shoe: Shoe, rules: BlackjackRules, initial: bool = True
) -> dict[str, Fraction | None]:
    """EV of each action (stand, hit, double, surrender, insurance, even_money;
    ``None`` = not allowed) for ``hand`` (ranks) against ``up``, drawing from
    ``shoe``. Peek games: conditioned exactly on no dealer blackjack."""
    model = "exact" if rules.peek else "enhc"
    return _hand_evs(RANK_LAYOUT, [(r, None) for r in hand], up, tuple(shoe), rules, initial, model)


def hand_evs_shortcut(
    hand: Sequence[int], up: int, shoe: Shoe, rules: BlackjackRules, initial: bool = True
) -> dict[str, Fraction | None]:
    """As :func:`hand_evs`, but a peek game uses the common shortcut: the player
    draws from ``shoe`` as if no hole card were dealt, and standing uses the
    no-blackjack dealer distribution of the shoe at that moment. (ENHC: the same
    as :func:`hand_evs`.)"""
    model = "shortcut" if rules.peek else "enhc"
    return _hand_evs(RANK_LAYOUT, [(r, None) for r in hand], up, tuple(shoe), rules, initial, model)


def hand_evs_suited(
    hand_cards: Sequence[SuitedCard],
    up: int,
    shoe_suited: SuitedShoe,
    rules: BlackjackRules,
    initial: bool = True,
) -> dict[str, Fraction | None]:
    """:func:`hand_evs` with suits on the 6s, 7s and 8s, so the suited 6-7-8
    bonus is paid on the hand's cards as drawn."""
    model = "exact" if rules.peek else "enhc"
    counts = _suited_counts(shoe_suited)
    return _hand_evs(SUITED_LAYOUT, list(hand_cards), up, counts, rules, initial, model)
