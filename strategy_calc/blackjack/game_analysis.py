"""Basic-strategy charts and the house edge of a blackjack ruleset, from a full shoe.

:func:`analyse_game` puts the pieces together: the whole-game pass
(:mod:`strategy_calc.game`), the chart and its deviations
(:mod:`strategy_calc.blackjack.chart`), the house edge (:mod:`strategy_calc.blackjack.edge`)
and, on request, the round distributions (:mod:`strategy_calc.blackjack.distributions`).
The EV under any :class:`~strategy_calc.actions.Strategy` (:func:`strategy_ev`), the
auto-play policy's included (:func:`autoplay_ev`), is here; what the bonuses are worth
is in :mod:`strategy_calc.blackjack.whatif`.

Definitions (all exact for the strategy named):

- *Total-dependent hit/stand play* (used after the first decision): for each
  hard or soft total and up card, hit when hitting beats standing summed over
  every composition of two or more cards with that total, each weighted by its
  probability as a draw (of that multiset) from the shoe less the up card;
  decided from the highest totals down, so later hits already follow it. In a
  peek game the sums are of E[payoff * 1{no dealer blackjack}]: each
  composition weighs its draw probability times P(no dealer blackjack | its
  cards), i.e. the play is best given the dealer has checked. Macau's
  bonuses count: 7-7-7, and a 6-7-8 with the chance its unknown suits match.
- *Chart* (two-card decisions): for each hard total (pairs excluded), soft
  total and pair, against each up card, the action with the highest EV summed
  over the two-card hands of that row, weighted by their deal probability.
  Split hands follow the chart rows of their totals (no resplit).
- *Optimal*: the best composition-dependent play of each initial hand; split
  hands each play their own cards (see :mod:`strategy_calc.blackjack`).
- *House edge*: minus the EV per unit initial bet of a whole round from a full
  shoe, averaged over every initial deal (player's two cards and the up card),
  dealer blackjacks included; insurance and even money taken where they are worth
  more (optimal: per start; the chart: an ``E`` cell for a natural, and insurance for
  every start or none, :func:`strategy_calc.blackjack.chart.chart_insures`). Macau's
  bonuses count: for two-card 6-7, 6-8, 7-8 starts the suits are enumerated
  exactly, and split 6s/7s/8s play knowing the suits of their own cards (one
  split; with resplits, the suit-averaged bonus chance).

>>> from strategy_calc.rules import blackjack_rules
>>> game = analyse_game(blackjack_rules("deluxe", ["decks=6"]))
>>> game.hard[16]["T"], game.soft[18]["2"], game.pairs["8"]["A"]
('H', 'S', 'P')
"""

from __future__ import annotations

import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from strategy_calc import engine
from strategy_calc.actions import Strategy
from strategy_calc.blackjack import chart as charts
from strategy_calc.blackjack.chart import Chart, Deviation
from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.distributions import (
    check_distribution_rules,
    round_distributions,
    round_moments,
)
from strategy_calc.blackjack.edge import optimal_ev, round_evs, round_evs_by_up
from strategy_calc.blackjack.game_pass import (
    DerivedPolicy,
    GamePass,
    OptimalOnly,
    PassRequest,
    UpCardDeals,
    add_optimal_split_values,
    add_split_values,
    apply_split_strategy,
    node_id,
    split_hand_codes,
    whole_game_pass,
)
from strategy_calc.blackjack.hand_rules import AUTOPLAY_POLICY
from strategy_calc.blackjack.split.strategies import check_split_strategy, computed_as
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.engine import Conditioning
from strategy_calc.rules import BlackjackRules, RulesError

__all__ = [
    "UP_ORDER",
    "Deviation",
    "GameAnalysis",
    "OptimalEdge",
    "analyse_game",
    "autoplay_ev",
    "optimal_edge",
    "strategy_ev",
]


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The basic-strategy chart of a ruleset and the EV of the game under it and optimally.

    The chart (:attr:`chart`: its cells map a row, a hard or soft total or a pair rank's
    symbol, to a code per up card symbol ``2``..``9``, ``T``, ``A``, the legend
    :data:`strategy_calc.render.chart.CODES`; and its play after the first decision).
    ``ev_basic`` and ``ev_optimal`` are EVs per unit initial bet of a round from the shoe.
    """

    rules: BlackjackRules
    chart: Chart
    """The basic strategy: what the counter, the boxes, the drill and the fixed-chart
    effects of removal play (no caller rebuilds it or runs the pass again)."""
    exceptions: tuple[Deviation, ...]
    ev_basic: float
    ev_optimal: float
    outcomes_basic: Mapping[float, float] | None = None
    """Exact distribution of a round's net result under the chart: {units of the
    initial bet: probability} (only with ``analyse_game(..., distribution=True)``)."""
    outcomes_optimal: Mapping[float, float] | None = None
    """The same under optimal composition-dependent play."""
    moments_basic: tuple[float, float] | None = None
    """``(E[X], E[X^2])`` of a round's net result X under the chart, exact, resplits
    included (only with ``analyse_game(..., moments=True)``)."""
    moments_optimal: tuple[float, float] | None = None
    """The same under optimal composition-dependent play."""
    split_strategy: str = "cdp1"
    """How split hands play under optimal play (``ev_optimal``)."""
    ev_by_up: Mapping[str, tuple[float, float]] | None = None
    """Per up card symbol, ``(ev_basic, ev_optimal)`` of a round given that up card
    (dealer blackjacks included); weighted by the up cards' probabilities they sum to
    ``ev_basic`` and ``ev_optimal``."""

    @property
    def hard(self) -> Mapping[int, Mapping[str, str]]:
        """The chart's hard-total rows (:attr:`Chart.hard`)."""
        return self.chart.hard

    @property
    def soft(self) -> Mapping[int, Mapping[str, str]]:
        """The chart's soft-total rows (:attr:`Chart.soft`)."""
        return self.chart.soft

    @property
    def pairs(self) -> Mapping[str, Mapping[str, str]]:
        """The chart's pair rows, by pair rank symbol (:attr:`Chart.pairs`)."""
        return self.chart.pairs

    @property
    def insure(self) -> bool:
        """The chart takes insurance with every start against an ace (never off the top
        of a full shoe) but a natural whose ``E`` cell takes even money."""
        return self.chart.insure

    @property
    def house_edge(self) -> float:
        """House edge under the chart (minus ``ev_basic``)."""
        return -self.ev_basic

    def by_up_card(self, strategy: str) -> dict[str, float] | None:
        """The EV of a round by up card symbol under ``strategy`` (``basic`` or ``optimal``;
        None for another or where :attr:`ev_by_up` was not made)."""
        if self.ev_by_up is None or strategy not in ("basic", "optimal"):
            return None
        column = 1 if strategy == "optimal" else 0
        return {up: values[column] for up, values in self.ev_by_up.items()}


@dataclass(frozen=True, slots=True)
class OptimalEdge:
    """The EV of a round off the top under optimal play alone: what ``edge --strategy
    optimal`` reports, without the chart (:func:`optimal_edge`). ``ev_optimal`` and
    ``ev_by_up`` (by up card symbol, dealer blackjacks included) are the same numbers as
    :class:`GameAnalysis`' optimal ones, to the bit."""

    rules: BlackjackRules
    ev_optimal: float
    ev_by_up: Mapping[str, float]
    split_strategy: str = "cdp1"

    def by_up_card(self, strategy: str) -> dict[str, float] | None:
        """:meth:`GameAnalysis.by_up_card`: for ``optimal`` alone."""
        return dict(self.ev_by_up) if strategy == "optimal" else None


def optimal_edge(
    rules: BlackjackRules,
    progress: Callable[[int, int], None] | None = None,
    shoe: Shoe | None = None,
    split_strategy: str = "cdp1",
) -> OptimalEdge:
    """The optimal-play EV of :func:`analyse_game` (same arguments), with none of the
    chart's work: the whole-game pass, each pair's split under optimal play only (the
    engine's optimal column), the split strategy, and each up card's best round
    (:func:`strategy_calc.blackjack.edge.optimal_ev`).

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=2"])
    >>> optimal_edge(rules).ev_optimal == analyse_game(rules).ev_optimal
    True
    """
    split_strategy = check_split_strategy(split_strategy)
    computed = computed_as(split_strategy, rules.infinite_deck, rules.max_split_hands)
    per_up = 11 if computed == "optimal" else 1  # the optimal split ticks per pair
    steps = len(UP_ORDER) * (1 + per_up)

    def tick(done: int, _total: int) -> None:
        if progress is not None:
            progress(done, steps)

    # cdp1 reads no chart (the other split strategies play the chart after a split)
    game = whole_game_pass(PassRequest(rules, shoe, OptimalOnly() if computed == "cdp1"
                                       else DerivedPolicy()), tick)
    for step, up in enumerate(UP_ORDER):
        ups = game.ups[up]
        add_optimal_split_values(game, ups)
        _apply_split_strategy(game, ups, computed, progress, step, per_up, steps)
        tick(len(UP_ORDER) + (step + 1) * per_up, steps)
    by_up = {up: optimal_ev(game.ups[up]) for up in UP_ORDER}
    return OptimalEdge(rules, sum(game.ups[up].p_up * by_up[up] for up in UP_ORDER),
                       {up.symbol: by_up[up] for up in UP_ORDER}, split_strategy)


def _apply_split_strategy(
    game: GamePass, ups: UpCardDeals, split_strategy: str,
    progress: Callable[[int, int], None] | None, step: int, per_up: int, steps: int,
) -> bytes | None:
    """:func:`strategy_calc.blackjack.game_pass.apply_split_strategy` for the ``step``-th up card of
    a whole-game analysis whose progress runs to ``steps``: the up cards' passes first, then
    ``per_up`` ticks an up card (one a pair when the split strategy ticks per pair)."""
    done = len(UP_ORDER) + step * per_up

    def pair_done(pairs: int, _total: int) -> None:
        if progress is not None:
            progress(done + pairs, steps)

    return apply_split_strategy(game, ups, split_strategy, pair_done if per_up > 1 else None)


def _check_enumeration(rules: BlackjackRules, split_strategy: str, distribution: bool,
                       moments: bool) -> None:
    """Refuse (one :class:`RulesError`) a distribution or moments :func:`analyse_game`
    cannot make exact for these rules and split strategy."""
    if (distribution or moments) and split_strategy in ("postsplit", "optimal"):
        raise RulesError("outcome distributions are computed for the cdp1, cdp, cdp-hands"
                         f" and cdz split strategies, not {split_strategy}")
    if moments and rules.max_split_hands > 2 and split_strategy in ("cdp", "cdp-hands"):
        why = ("no single process of play has its value" if split_strategy == "cdp"
               else "its plays follow the number of resplits")
        raise RulesError("exact moments with resplits are computed for the cdp1 and cdz split"
                         " strategies (each hand plays one fixed strategy), not"
                         f" {split_strategy}: {why}")
    if distribution:
        check_distribution_rules(rules)
    if moments:
        check_distribution_rules(rules, resplits=True)


def analyse_game(
    rules: BlackjackRules,
    progress: Callable[[int, int], None] | None = None,
    shoe: Shoe | None = None,
    distribution: bool = False,
    split_strategy: str = "cdp1",
    moments: bool = False,
) -> GameAnalysis:
    """Chart, deviations and the EV of a round (chart and optimal play) off the top of a shoe.

    ``shoe``: the cards the round is dealt from (default: a full shoe of
    ``rules.decks``); every rank must be present; suits of removed cards are
    taken as unknown. ``progress(done, total)`` is called after each up card.
    ``distribution``: also compute the exact distribution of a round's net
    result under both strategies (slower: split rounds are enumerated jointly).
    ``split_strategy``: how split hands play under optimal play
    (:data:`strategy_calc.blackjack.split.combine.SPLIT_STRATEGIES`; the chart's split hands play
    the chart whatever it is). ``moments``: the exact mean and second moment of a round's
    net result under both strategies (:func:`strategy_calc.blackjack.distributions.round_moments`:
    with resplits too, where the distribution is not enumerated).
    """
    split_strategy = check_split_strategy(split_strategy)
    computed = computed_as(split_strategy, rules.infinite_deck, rules.max_split_hands)
    _check_enumeration(rules, computed, distribution, moments)
    enumerated_steps = (1 if distribution else 0) + (1 if moments else 0)
    per_up = 11 if computed == "optimal" else 1  # the optimal split ticks per pair
    steps = len(UP_ORDER) * (1 + per_up + enumerated_steps)

    def first_half(done: int, _total: int) -> None:
        if progress is not None:
            progress(done, steps)

    game = whole_game_pass(PassRequest(rules, shoe), first_half)
    cells = charts.cell_sums(game)
    hard, soft = charts.totals_chart(game, cells)  # split hands follow these rows
    pairs: dict[str, dict[str, str]] = {}  # (filled up card by up card, below)
    policies = {up: ups.policy.tobytes() for up, ups in game.ups.items()}
    chart = charts.Chart(hard, soft, pairs, policies, insure=charts.chart_insures(cells))
    chart_codes: dict[Rank, array.array[int]] = {}
    split_codes: dict[Rank, bytes] = {}  # per up card, what cdz split hands play
    deviations: list[Deviation] = []
    for step, up in enumerate(UP_ORDER):
        ups = game.ups[up]
        chart_codes[up] = split_hand_codes(ups, chart.split_hand_bits(up))
        splits = add_split_values(game, ups, chart_codes[up])
        played = _apply_split_strategy(game, ups, computed, progress, step, per_up,
                                       steps)
        if played is not None:
            split_codes[up] = played
        charts.add_pair_cells(game, cells, ups, splits, pairs)
        deviations += charts.two_card_deviations(ups, chart, game.conditioning)
        deviations += charts.three_card_deviations(ups, game.conditioning,
                                                   game.rules.double_after_hit)
        if progress is not None:
            progress(len(UP_ORDER) + (step + 1) * per_up, steps)
    by_up = round_evs_by_up(game, chart)
    ev_basic, ev_optimal = round_evs(game, chart, by_up)
    outcomes_basic = outcomes_optimal = None
    if distribution:
        base = len(UP_ORDER) * (1 + per_up)

        def enumerated(done: int, _total: int) -> None:
            if progress is not None:
                progress(base + done, steps)

        outcomes_basic, outcomes_optimal = round_distributions(
            game, chart, chart_codes, split_codes or None, enumerated)
    moments_basic = moments_optimal = None
    if moments:
        base = len(UP_ORDER) * (1 + per_up + (1 if distribution else 0))

        def summed(done: int, _total: int) -> None:
            if progress is not None:
                progress(base + done, steps)

        moments_basic, moments_optimal = round_moments(
            game, chart, chart_codes, split_codes or None, summed)
    return GameAnalysis(
        rules=rules, chart=chart,
        exceptions=tuple(sorted(deviations, key=lambda d: (len(d.hand), d.hand, d.suited,
                                                          d.up))),
        ev_basic=ev_basic, ev_optimal=ev_optimal,
        outcomes_basic=outcomes_basic, outcomes_optimal=outcomes_optimal,
        moments_basic=moments_basic, moments_optimal=moments_optimal,
        ev_by_up={up.symbol: by_up[up] for up in UP_ORDER},
        split_strategy=split_strategy,
    )


def autoplay_ev(rules: BlackjackRules) -> float:
    """EV per unit initial bet of a round played by the auto-play policy, from a full shoe.

    Auto-play (Deluxe, on disconnection): hit while the best total is 11 or
    less, then stand; never double, split, surrender or insure. Blackjacks are
    paid; dealer blackjacks included, as in :func:`analyse_game`.
    """
    full = Shoe.full(rules.decks)
    conditioning = Conditioning.of(rules)
    params = engine.engine_params(rules)
    memo = engine.dealer_memo(full, engine.dealer_rule(rules),
                              reserve=engine.WHOLE_GAME_REMOVALS)
    ev = 0.0
    for up in UP_ORDER:
        base = full.remove([Card(up)])
        upass = engine.up_card_pass(base, up, params, AUTOPLAY_POLICY, memo)
        p_up = full.count(up) / full.total
        for a in range(1, 11):
            for b in range(a, 11):
                row = upass.row(node_id((a, b)))
                if not row.weight > 0:
                    continue
                nb = row.no_blackjack
                if (a, b) == (1, 10):
                    value = rules.blackjack_pays * nb
                else:
                    value = conditioning.round_value(row.policy, nb)
                ev += p_up * row.weight * value
    return ev


def strategy_ev(
    rules: BlackjackRules, strategy: Strategy, game: GameAnalysis | None = None
) -> float:
    """EV per unit initial bet of a round off the top under ``strategy``.

    ``game``: the ruleset's :func:`analyse_game` result, if already at hand.

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=2"])
    >>> strategy_ev(rules, Strategy.BASIC) <= strategy_ev(rules, Strategy.OPTIMAL)
    True
    """
    if strategy is Strategy.AUTOPLAY:
        return autoplay_ev(rules)
    game = game if game is not None else analyse_game(rules)
    return game.ev_basic if strategy is Strategy.BASIC else game.ev_optimal
