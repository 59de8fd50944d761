"""A counted shoe dealt by a chart in the engine's language: the survey of ``count --method
stratified`` (millions of rounds, no values).

A surveyable run (:meth:`strategy_calc.counting.counter.BlackjackCounter.check_surveyable`)
plays every round by one plan, the chart's off the top, so its rounds can be dealt without
Python touching a card: :func:`chart_deal` turns the plan and the rules into the engine's
:class:`strategy_calc.engine.ChartDeal` (each first decision, the node codes, the split
plans and the doubling rules looked up once, in Python, from the homes of those rules),
and :class:`ShoeCards` holds a run's unshuffled cards as arrays (rank, suit index, count
tag), which one shuffle's order permutes. The engine then deals the rounds as
:func:`strategy_calc.blackjack.playout.play_round` does, card by card in casino order, and
tallies the running count as the counter's tally does (the same tags added in the same
order, so the same floating-point sums). tests/counting/test_chart_deal.py checks it round
by round against the Python dealing.

>>> from strategy_calc.counting.counter import blackjack_counter
>>> from strategy_calc.rules import blackjack_rules
>>> counter = blackjack_counter(blackjack_rules("deluxe", ["decks=1"]))
>>> deal = chart_deal(counter)
>>> import numpy as np
>>> rank = np.array([10, 6, 10, 7, 5], dtype=np.int8)  # T,7 stands v 6; 6,T,5: 21
>>> deal.deal_round(rank, np.zeros(5, dtype=np.int8), 0)
(5, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.blackjack.playout import RoundPlan
from strategy_calc.blackjack.split.plan import split_plans
from strategy_calc.cards import SUITS, Card, Rank
from strategy_calc.rules import BlackjackRules

if TYPE_CHECKING:
    from strategy_calc.counting.counter import BlackjackCounter

_FIRST = {Action.HIT: 0, Action.STAND: 1, Action.DOUBLE: 2, Action.SPLIT: 3,
          Action.SURRENDER: 4}
"""The engine's codes of a first decision (``_chart_deal.pxi``'s ACT_*; no decision: hit)."""


def chart_deal(counter: BlackjackCounter, plan: RoundPlan | None = None) -> engine.ChartDeal:
    """The engine's dealer of ``counter``'s rounds by ``plan`` (default: the plan off the
    top, which every round of a surveyable run plays)."""
    rules = counter.rules
    if plan is None:
        plan = counter.planner.top_plan(False)
    actions = np.zeros((10, 10, 10, 2), dtype=np.int8)
    for suited in (False, True):  # (a suited start's own decision overrides the unsuited)
        for (up, low, high, is_suited), action in plan.actions.items():
            if is_suited != suited or (low, high) == (1, 10):
                continue
            if action not in _FIRST:
                raise ValueError(f"a first decision the chart deal has no code for: {action}")
            actions[up - 1, low - 1, high - 1, 1] = _FIRST[action]
            if not suited:
                actions[up - 1, low - 1, high - 1, 0] = _FIRST[action]
    splits = split_plans(rules)
    ups = range(1, 11)
    blank = bytes(engine.node_table().n_nodes)
    return engine.ChartDeal(
        actions,
        [plan.actions.get((u, 1, 10, False)) is Action.EVEN_MONEY for u in ups],
        [u in plan.insure for u in ups],
        [plan.codes.get(u, blank).ljust(4096, b"\0") for u in ups],
        [splits[Rank(p)].max_hands for p in ups],
        [splits[Rank(p)].one_card for p in ups],
        [splits[Rank(p)].may_double for p in ups],
        [rules.may_double(t) for t in range(22)],
        [[rules.may_double_hand(3, t, split) for t in range(22)] for split in (False, True)],
        rules.peek, rules.peek or rules.decks == 1, rules.burn_before_dealer_cards,
        rules.dealer_hits_soft_17, rules.charlie_cards,
        [bonus_node_flags(rules, split).ljust(4096, b"\0") for split in (False, True)],
        (1 if rules.suited_678()[0] > 0 else 0) | (2 if rules.suited_678(True)[0] > 0 else 0),
        rules.suited_678()[1], max(counter.seats, plan.boxes))


def bonus_node_flags(rules: BlackjackRules, split: bool = False) -> bytes:
    """Per player node: 1 when a bonus row of any suits pays the hand and settles it, 2
    when it pays it and the hand stands, else 0 (the chart deal's form of
    :func:`strategy_calc.blackjack.bonus.bonus_rows`).

    >>> flags = bonus_node_flags(BlackjackRules(bonus_777=3.0))
    >>> flags[engine.node_table().node([7, 7, 7])], flags[engine.node_table().node([7, 7])]
    (1, 0)
    """
    table = engine.node_table()
    flags = bytearray(table.n_nodes)
    for row in rules.bonus_rows(split=split):
        flags[table.node(list(row.ranks))] = 1 if row.settles else 2
    return bytes(flags)


@dataclass(frozen=True)
class ShoeCards:
    """A run's unshuffled cards as the engine reads them: per card its rank (1..10), suit
    index (:data:`strategy_calc.cards.SUITS`) and count tag."""

    rank: np.ndarray
    suit: np.ndarray
    tag: np.ndarray

    @classmethod
    def of(cls, cards: Sequence[Card], counter: BlackjackCounter) -> ShoeCards:
        """The arrays of ``cards`` (tags by ``counter``'s system)."""
        return cls(np.array([int(c.rank) for c in cards], dtype=np.int8),
                   np.array([SUITS.index(c.suit) if c.suit else 0 for c in cards],
                            dtype=np.int8),
                   np.array([float(counter.system.tag_card(c)) for c in cards]))

    def shuffled(self, order: Sequence[int]) -> ShoeCards:
        """These cards in dealing order (``order``: position to unshuffled card)."""
        at = np.asarray(order, dtype=np.intp)
        return ShoeCards(np.ascontiguousarray(self.rank[at]),
                         np.ascontiguousarray(self.suit[at]),
                         np.ascontiguousarray(self.tag[at]))
