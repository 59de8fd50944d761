"""The house edge of a game pass: the EV of a round under the chart and under optimal play.

*House edge*: minus the EV per unit initial bet of a whole round from the
shoe, averaged over every initial deal (player's two cards and the up card),
dealer blackjacks included. Optimal play takes insurance and even money wherever they
are worth more (:meth:`~strategy_calc.blackjack.deals.DealValues.round_best`), the chart where it
says (an ``E`` cell, :attr:`~strategy_calc.blackjack.chart.Chart.insure`). Macau's
bonuses count: for two-card 6-7, 6-8, 7-8 starts the suits are enumerated
exactly (:func:`strategy_calc.blackjack.deals.suit_cases`).

>>> from strategy_calc.rules import blackjack_rules
>>> from strategy_calc.blackjack.game_analysis import analyse_game
>>> game = analyse_game(blackjack_rules("deluxe", ["decks=1", "max_split_hands=4",
...                                                "surrender=none"]))
>>> abs(game.ev_optimal - 0.001839) < 1e-5  # Wizard of Odds appendix 9, 1 deck S17 DAS
True
"""

from __future__ import annotations

from collections.abc import Mapping

from strategy_calc.blackjack.chart import Chart
from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.game_pass import GamePass, UpCardDeals
from strategy_calc.cards import Rank


def round_evs(game: GamePass, chart: Chart,
              by_up: Mapping[Rank, tuple[float, float]] | None = None) -> tuple[float, float]:
    """``(ev_chart, ev_optimal)``: EV per unit initial bet of a round off the top.

    Chart: each start takes its cell's action (a natural's ``E``: even money), then
    the total-dependent policy (split hands by the chart), insured where the chart
    insures; optimal: each start's best composition-dependent action, insured where
    that is worth it, or even money. The game pass must hold the split values.
    ``by_up``: :func:`round_evs_by_up` of the same game and chart, if already at hand.
    """
    by_up = by_up if by_up is not None else round_evs_by_up(game, chart)
    ev_basic = sum(game.ups[up].p_up * by_up[up][0] for up in UP_ORDER)
    ev_optimal = sum(game.ups[up].p_up * by_up[up][1] for up in UP_ORDER)
    return ev_basic, ev_optimal


def round_evs_by_up(game: GamePass, chart: Chart) -> dict[Rank, tuple[float, float]]:
    """Per up card, ``(ev_chart, ev_optimal)`` of a round given that up card.

    Unconditioned on the hole card (dealer blackjacks included); weighted by
    the up cards' probabilities they sum to :func:`round_evs`.
    """
    out: dict[Rank, tuple[float, float]] = {}
    for up in UP_ORDER:
        ups = game.ups[up]
        ev_basic = 0.0
        for hand, cases in ups.deals.items():
            action = chart.code(hand, up).action
            insured = chart.insures(action)
            for case in cases:
                weight = ups.weight(hand) * case.probability
                chosen = case.chart_value(action)
                assert chosen is not None
                if insured and case.insurance is not None:
                    chosen += case.insurance
                ev_basic += weight * chosen
        out[up] = (ev_basic, optimal_ev(ups))
    return out


def optimal_ev(ups: UpCardDeals) -> float:
    """EV of a round given the up card of ``ups`` under optimal play (each start's best
    action, insured or even money where worth more:
    :meth:`~strategy_calc.blackjack.deals.DealValues.round_best`); unconditioned on the hole card.
    The pass must hold the split values."""
    ev = 0.0
    for hand, cases in ups.deals.items():
        for case in cases:
            ev += ups.weight(hand) * case.probability * case.round_best()
    return ev
