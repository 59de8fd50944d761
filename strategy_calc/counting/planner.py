"""The round planner of a counted blackjack run: what every round of the run shares, made
once, and each round's exact EV, second moment and play (its :class:`RoundPlan`)."""

from __future__ import annotations

import array
import contextlib
import math
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import TYPE_CHECKING

from strategy_calc import engine
from strategy_calc._engine import START_CODES, chart_round_sum
from strategy_calc.actions import PLAY_ACTIONS, Action
from strategy_calc.blackjack.boxes import up_card_cross
from strategy_calc.blackjack.chart import Chart
from strategy_calc.blackjack.deals import (
    HANDS,
    UP_ORDER,
    DealValues,
    insurance_value,
    natural_results,
    start_value,
    surrender_value,
)
from strategy_calc.blackjack.distributions import (
    SplitTables,
    deal_histogram,
    deal_moments,
    optimal_codes,
    split_cross_sums,
    split_moments,
)
from strategy_calc.blackjack.game_pass import (
    ChartOnly,
    DerivedPolicy,
    GamePass,
    PassPlay,
    PassRequest,
    RoundWants,
    UpCardDeals,
    add_split_values,
    chart_codes,
    chart_play_rows,
    hand_nodes,
    node_id,
    round_wants,
    split_round_values,
    whole_game_pass,
)
from strategy_calc.blackjack.hand_rules import best_play, hand_total
from strategy_calc.blackjack.playout import RoundPlan
from strategy_calc.cards import SUITS, Card, Rank, Shoe
from strategy_calc.counting.chart_deal import ShoeCards, chart_deal
from strategy_calc.engine import (
    COL_DOUBLE,
    COL_NO_BLACKJACK,
    COL_POLICY_HIT,
    COL_STAND,
    COL_WEIGHT,
    HIST_OFFSET,
    HIST_SIZE,
    PASS_WIDTH,
    SPLIT_CHART,
)
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules, RulesError

if TYPE_CHECKING:
    from strategy_calc.counting.counter import BlackjackCounter

    _SumCases = tuple[array.array[int], array.array[int],
                      list[tuple[tuple[int, int, int, bool], Action] | None], bool, int,
                      tuple[int, ...]]
    """What :meth:`RoundPlanner._sum_cases` keeps of one up card's starts: rows, kinds,
    actions, even money, the natural's index (-1: none) and the surrendered starts'."""


class RoundPlanner:
    """The mutable part of a counted run: what every round shares, made once (the chart's
    first plays and the codes its split hands play, the rows a chart's round values, the
    dealer memo's hints, the split rounds' moment tables, the plan of a shoe's first
    round), and each round's exact :meth:`plan`."""

    def __init__(self, counter: BlackjackCounter) -> None:
        self.counter = counter
        self.rules, self.strategy, self.chart = counter.rules, counter.strategy, counter.chart
        self.plays = counter.plays
        chart = self.chart
        actions: dict[tuple[int, tuple[int, int]], Action] = {}
        codes: dict[Rank, array.array[int]] = {}
        if self.strategy != "optimal":
            for up in UP_ORDER:
                for hand in HANDS:
                    with contextlib.suppress(KeyError):  # no cell: its shoe cannot deal it
                        actions[(int(up), hand)] = chart.code(hand, up).action
            codes = {up: chart_codes(chart.policies[up], chart.split_hand_bits(up))
                     for up in UP_ORDER if up in chart.policies}
        self._chart_actions = actions
        """The chart's action per (up card, two-card start): fixed for the run."""
        self._split_codes = codes
        """Per up card, the engine codes split hands play under the chart (the policies
        are fixed, so they are the same every round:
        :func:`strategy_calc.blackjack.game_pass.chart_codes`)."""
        wants = None
        if self.strategy != "optimal" and not self.plays:  # each first play is the chart's
            wants = {up: chart_play_rows({hand: a for (u, hand), a in actions.items()
                                          if u == int(up)}) for up in UP_ORDER}
        self._chart_wants = wants
        """With the chart alone (no index plays), per up card the engine rows that value
        its first plays only (:func:`strategy_calc.blackjack.game_pass.chart_play_rows`);
        else None."""
        self._chart_cases = {} if wants is None else {
            up: tuple((hand, PASS_WIDTH * node, hand_total(hand)[0],
                       actions.get((int(up), hand)), (int(up), *hand, False))
                      for hand, node in hand_nodes()) for up in UP_ORDER}
        """With the chart alone, per up card every start's (cards, where its engine node's
        row starts in an :class:`~strategy_calc.engine.UpCardPass`' values, total, the
        chart's play or None where it has no cell, its key in a plan's actions), in the
        order of the pass's deals."""
        self._chart_sums = {up: self._sum_cases(up) for up in UP_ORDER} if wants else {}
        """With the chart alone, per up card what :func:`strategy_calc._engine.chart_round_sum`
        takes of its starts (:meth:`_sum_cases`), or None: that up card is summed in
        Python (:meth:`_chart_round_py`)."""
        self._chart_splits = {} if wants is None else {
            up: tuple(p for p in range(1, 11)
                      if actions.get((int(up), (p, p))) is Action.SPLIT)
            for up in UP_ORDER}
        """With the chart alone, per up card the pair ranks it splits (ascending)."""
        self._round_wants: RoundWants | None = None
        """What a round wants of its dealer memo (per player node, the up cards it wants
        its dealer distributions against, and every removal to walk ahead): made on first
        use from the start of the shoe (:func:`strategy_calc.blackjack.game_pass.round_wants`)."""
        self._split_tables = (counter.tables if counter.tables is not None
                              else SplitTables(counter.start().counts))
        """The run's split moment tables (:attr:`BlackjackCounter.tables`)."""
        self.play_error = counter.play_errors
        """The run's play-error rate (:attr:`BlackjackCounter.play_errors`)."""
        self._mistakes: dict[tuple[int, int, int], Action] = (
            runner_up_plays(self.rules, counter.start(), self.chart, actions, codes)
            if self.play_error > 0 else {})
        """With play errors: per (up card, low card, high card) the wrong first play
        (:func:`runner_up_plays`); empty without."""
        self._mistake_wants: dict[Rank, bytes] = {}
        """With play errors, :attr:`_chart_wants` with the mistakes' rows (made on first
        use)."""
        self._mistake_splits: dict[Rank, tuple[int, ...]] = {} if wants is None else {
            up: tuple(p for p in range(1, 11) if p in self._chart_splits[up]
                      or self._mistakes.get((int(up), p, p)) is Action.SPLIT)
            for up in UP_ORDER}
        """With play errors and the chart alone, per up card the pairs the chart or its
        mistake splits (ascending)."""
        self._cards: list[Card] | None = None
        self._chart_dealing: tuple[engine.ChartDeal, ShoeCards] | None = None
        self._deals_at: dict[tuple[bool, ...], engine.ChartDeal] = {}
        self._shoe_cards: ShoeCards | None = None
        self._top_plans: dict[tuple[bool, float], RoundPlan] = {}
        """The plan of a shoe's first round (the same shoe, true count 0, for every shoe of
        the run), keyed by whether it has the second moment and the play-error rate; filled
        on first use."""

    @property
    def mistakes(self) -> dict[tuple[int, int, int], Action]:
        """With play errors, per (up card, low card, high card) the wrong first play."""
        return self._mistakes

    def top_plan(self, moments: bool, play_error: float | None = None) -> RoundPlan:
        """The plan of a shoe's first round (every shoe starts from one composition, the
        count at 0): made once per run. Off the top of a full shoe, the chart's round is the
        game's EV under the chart.

        >>> from strategy_calc.blackjack.game_analysis import analyse_game
        >>> from strategy_calc.counting.counter import blackjack_counter
        >>> from strategy_calc.rules import blackjack_rules
        >>> rules = blackjack_rules("deluxe", ["decks=1"])
        >>> planner = blackjack_counter(rules).planner
        >>> top = planner.top_plan(moments=False)
        >>> top is planner.top_plan(moments=False)
        True
        >>> abs(top.ev - analyse_game(rules).ev_basic) < 1e-15
        True
        """
        err = self._rate(play_error)
        plan = self._top_plans.get((moments, err))
        if plan is None:
            plan = self._top_plans[(moments, err)] = self.plan(self.counter.start(), 0.0,
                                                               moments, err)
        return plan

    def unshuffled(self) -> list[Card]:
        """The run's cards before the shuffle: each rank's cards in turn, suits in the
        order of :data:`strategy_calc.cards.SUITS` (made once)."""
        if self._cards is None:
            counts = self.counter.start().counts
            self._cards = [Card(rank, SUITS[k % 4]) for rank in Rank
                           for k in range(counts[rank - 1])]
        return self._cards

    def chart_deal_at(self, tc: float) -> engine.ChartDeal:
        """The engine's dealer of a round at count ``tc`` under the run's index plays: the
        plan of the shoe every deal starts from at that count (its first decisions and
        insurance are the chart's and the plays' at ``tc``, the same from any shoe), one
        per set of plays taken (made on first use)."""
        taken = tuple(tc >= p.index for p in self.plays)
        deal = self._deals_at.get(taken)
        if deal is None:
            plan = self.plan(self.counter.start(), tc, moments=False)
            deal = self._deals_at[taken] = chart_deal(self.counter, plan)
        return deal

    def shoe_cards(self) -> ShoeCards:
        """The run's cards as the engine reads them (:class:`ShoeCards`; made once)."""
        if self._shoe_cards is None:
            self._shoe_cards = ShoeCards.of(self.unshuffled(), self.counter)
        return self._shoe_cards

    def chart_dealing(self) -> tuple[engine.ChartDeal, ShoeCards]:
        """The engine's dealer of the run's rounds by the plan off the top, and the run's
        cards as it reads them (:mod:`strategy_calc.counting.chart_deal`; made once)."""
        if self._chart_dealing is None:
            self._chart_dealing = (chart_deal(self.counter), self.shoe_cards())
        return self._chart_dealing

    def _first_action(self, hand: tuple[int, int], up: Rank, case: DealValues,
                      tc: float, splits: bool = False) -> Action:
        """The initial play; ``splits``: take a split as allowed before it is valued."""
        if self.strategy == "optimal":
            return case.best()
        action = self._chart_action(hand, up)
        for play in self.plays:
            insurance = play.total is None and play.pair is None
            if not insurance and play.applies(hand, int(up)) and action.value in play.actions:
                chosen = Action(play.play(tc))
                if case.chart_value(chosen) is not None or (splits and chosen is Action.SPLIT):
                    action = chosen
        return action

    def play_codes(self, up: Rank) -> array.array[int]:
        """The engine's node codes of the chart's play against ``up``: every hit or stand
        after the first decision, and a split hand's two-card play."""
        return self._split_codes[up]

    def _chart_action(self, hand: tuple[int, int], up: Rank) -> Action:
        """The chart's initial play."""
        return self._chart_actions.get((int(up), hand)) or self.chart.code(hand, up).action

    def _hints(self) -> array.array[int]:
        """Per player node, the up cards a round wants its dealer distributions against
        (:attr:`_round_wants`' hints)."""
        return self._wants_of_round().hints

    def _wants_of_round(self) -> RoundWants:
        """:attr:`_round_wants`, made on first use (a dry run of a round off the top, its
        splits the chart's and those an index play may take)."""
        if self._round_wants is None:
            splits = {up: (codes, {p for p in range(1, 11)
                                   if self._chart_actions.get((int(up), (p, p))) is Action.SPLIT
                                   or any(play.applies((p, p), int(up))
                                          and Action.SPLIT.value in play.actions
                                          for play in self.plays)})
                      for up, codes in self._split_codes.items()}
            self._round_wants = round_wants(self.rules, self.counter.start(),
                                            self.chart.policies, splits, self._chart_wants)
        return self._round_wants

    def _round_memo(self, shoe: Shoe) -> engine.DealerMemo:
        """A round's dealer memo for ``shoe``: hinted, and with every row the round will
        want walked ahead, four removals a dealer walk (:class:`RoundWants`)."""
        wants = self._wants_of_round()
        # room for every removal walked ahead and a quarter more (a split's moments add
        # some), so that the rows are not copied as the memo grows
        memo = engine.dealer_memo(shoe, engine.dealer_rule(self.rules), hints=wants.hints,
                                  reserve=len(wants.nodes) * 5 // 4)
        wants.walk_ahead(memo)
        return memo

    def _insures(self, up: Rank, tc: float) -> bool:
        """Insurance against ``up`` at true count ``tc``: where the chart insures (a shoe
        rich in tens off the top) or an insurance index says so."""
        if not (self.rules.insurance and up is Rank.ACE):
            return False
        if self.chart.insure and self.strategy != "optimal":
            return True
        return any(p.total is None and p.pair is None and p.up == 1 and
                   p.play(tc) == "insurance" for p in self.plays)

    def _natural(self, up: Rank, case: DealValues, nb: float, insured: bool, optimal: bool,
                 actions: dict[tuple[int, int, int, bool], Action],
                 ) -> tuple[tuple[float, float], ...]:
        """A natural's results against ``up``: paid at once unless the dealer has one too,
        or 1:1 where the play takes even money (optimal: where worth more; the chart: its
        ``E`` cell), which ``actions`` then records for the playout."""
        even = (case.takes_even_money() if optimal
                else self._chart_action((1, 10), up) is Action.EVEN_MONEY)
        if even:
            actions[(int(up), 1, 10, False)] = Action.EVEN_MONEY
        return natural_results(self.rules.blackjack_pays, nb, even, insured and not even)

    def plan(self, shoe: Shoe, tc: float = 0.0, moments: bool = True,
             play_error: float | None = None) -> RoundPlan:
        """The exact EV of a round from ``shoe``, and its second moment if ``moments``.

        See :class:`RoundPlan`; ``tc``: the true count the index plays and the
        insurance decision look at. Without ``moments`` the second moment is
        None and the (slow) joint enumeration of split rounds is skipped.
        ``play_error``: the play-error rate the round is played with (default the run's,
        :attr:`play_error`; 0: as planned): each first play is the chart's with chance
        ``1 - play_error``, else its mistake (:attr:`mistakes`), and every later
        hit-or-stand decision of an unsplit hand is the other play with chance
        ``play_error`` (in the engine's recursion), so the EV and the second moment are
        the erring player's, exactly.
        """
        import numpy as np

        rules = self.rules
        err = self._rate(play_error)
        optimal = self.strategy == "optimal"
        fixed = not optimal and not self.plays
        memo = None if optimal else self._round_memo(shoe)
        quick = (fixed and not moments and rules.suited_678(split=True)[0] <= 0
                 and not self.chart.insure)
        play: PassPlay = (DerivedPolicy() if optimal else
                          ChartOnly(self.chart.policies, self._wants(err), deals=not quick))
        game = whole_game_pass(PassRequest(rules, shoe, play, partial=True, play_error=err),
                               memo=memo)
        boxes = self.counter.boxes_at(tc)
        if quick:
            return self._boxes_round(self._chart_round(game, err), None, boxes)
        hist = np.zeros(HIST_SIZE) if moments else None
        box_cross = 0.0 if hist is not None and boxes > 1 else None  # E[X_1 X_2]
        extra = 0.0  # second moments of split rounds taken without their distribution
        exact: dict[float, float] = {}  # naturals' results, keyed exactly
        ev = 0.0
        actions: dict[tuple[int, int, int, bool], Action] = {}
        codes_by_up: dict[int, bytes] = {}
        insure: set[int] = set()
        for up, ups in game.ups.items():
            codes = (optimal_codes(ups.table, self.rules.double_after_hit) if optimal
                     else self._split_codes[up])
            codes_by_up[int(up)] = codes.tobytes()
            # the splits the play can take (the chart's, and an index's at this count)
            # are valued first: the first action needs a split's value to choose it
            pairs = self._split_pairs(ups, up, tc, fixed, optimal, err)
            if pairs is None or pairs:  # the chart plays its splits: its column only
                add_split_values(game, ups, codes, pairs, 7 if optimal else 2,
                                 lazy=not optimal)
            chosen: dict[tuple[tuple[int, int], int], Action] = {}
            if not fixed:  # (fixed: the chart's action, read below)
                chosen = {(hand, i): self._first_action(hand, up, case, tc)
                          for hand, cases in ups.deals.items() for i, case in enumerate(cases)}
            insured = self._insures(up, tc)
            if insured:
                insure.add(int(up))
            cross = {} if hist is None or optimal else split_cross_sums(
                game.plans, up, ups.base,
                {Rank(hand[0]) for (hand, _i), a in chosen.items() if a is Action.SPLIT}
                if not fixed else {Rank(p) for p in pairs or ()},
                memoryview(codes), self._split_tables)  # the split rounds' sums, made together
            for hand, cases in ups.deals.items():
                row = ups.rows[node_id(hand)]
                nb = row.no_blackjack
                w_hand = ups.p_up * row.weight
                by_chart = self._chart_action(hand, up) if fixed else None
                if hand == (1, 10):
                    ev = _add_results(exact, w_hand, self._natural(up, cases[0], nb, insured,
                                                                   optimal, actions), ev)
                    continue
                for i, case in enumerate(cases):
                    planned = by_chart or chosen[(hand, i)]
                    actions.setdefault((int(up), *hand, case.q678 > 0), planned)
                    for action, w in self._taken(planned, up, hand,
                                                 w_hand * case.probability, err):
                        value = case.value(action) if optimal else case.chart_value(action)
                        value = _checked(value, hand, up) + (insurance_value(nb) if insured
                                                             else 0.0)
                        ev += w * value
                        if hist is None:
                            continue
                        if action is Action.SPLIT:  # its moments without its distribution
                            try:
                                got = split_moments(game.plans[Rank(hand[0])], up, ups.base,
                                                    None if optimal else memoryview(codes),
                                                    self._split_tables,
                                                    cross.get(Rank(hand[0])), memo)
                            except RulesError:  # resplits from a shoe too short to be exact:
                                hist = None     # this round has no second moment
                                continue
                            if got is not None:
                                extra += w * deal_moments(got, rules.peek, insured, nb)[1]
                                continue
                        hist += w * deal_histogram(game, ups, hand, case.q678, action.value,
                                                   codes, optimal, insured, play_error=err)
            box_cross = self._box_cross(box_cross, game, ups, chosen, fixed, codes, insured)
        second = None
        if hist is not None:
            xs = (np.arange(HIST_SIZE) - HIST_OFFSET) / 100.0
            second = (float(np.dot(hist, xs * xs)) + extra
                      + math.fsum(x * x * p for x, p in exact.items()))
        return self._boxes_round(RoundPlan(ev, second, actions, codes_by_up,
                                           frozenset(insure)), box_cross, boxes)

    def _box_cross(self, cross: float | None, game: GamePass, ups: UpCardDeals,
                   chosen: dict[tuple[tuple[int, int], int], Action], fixed: bool,
                   codes: array.array[int], insured: bool) -> float | None:
        """``cross`` plus ``ups``' part of E[X_1 X_2] between two of the player's boxes
        (:func:`strategy_calc.blackjack.boxes.up_card_cross`, each start played as in :meth:`plan`);
        None stays None (not wanted)."""
        if cross is None:
            return None
        plays = {(min(hand), max(hand)): (self._chart_action(hand, ups.up) if fixed
                                          else chosen[(hand, 0)])
                 for hand in ups.deals if hand != (1, 10)}
        return cross + ups.p_up * up_card_cross(game, ups, plays,
                                                codes, self.strategy == "optimal", insured)

    def _boxes_round(self, plan: RoundPlan, cross: float | None, n: int) -> RoundPlan:
        """``plan`` (one box's round) for the player's ``n`` boxes: the EV and second
        moment of their total, and Cov(X_1, X_2) from ``cross`` = E[X_1 X_2] (None: not
        computed)."""
        if n == 1:
            return plan
        second = plan.second_moment
        covariance = None
        if second is not None and cross is not None:
            second = n * second + n * (n - 1) * cross
            covariance = cross - plan.ev * plan.ev
        return RoundPlan(n * plan.ev, second, plan.actions, plan.codes, plan.insure,
                         covariance, n)

    def _rate(self, play_error: float | None) -> float:
        """``play_error``, or the run's (:attr:`play_error`) where None."""
        return self.play_error if play_error is None else play_error

    def _taken(self, planned: Action, up: Rank, hand: tuple[int, int], weight: float,
               err: float) -> tuple[tuple[Action, float], ...]:
        """The first plays a start of probability ``weight`` takes, each with its
        probability: ``planned``, and with play errors (``err`` > 0) its mistake."""
        if err == 0:
            return ((planned, weight),)
        mistake = self._mistakes.get((int(up), *hand))
        if mistake is None:
            raise ValueError(f"no mistake for {hand} against {up.symbol}: play errors are"
                             " planned for the chart alone (a bug)")
        return ((planned, weight * (1.0 - err)), (mistake, weight * err))

    def _split_pairs(self, ups: UpCardDeals, up: Rank, tc: float, fixed: bool,
                     optimal: bool, err: float = 0.0) -> set[int] | None:
        """The pairs against ``up`` whose splits the play can take (the chart's, and an
        index's at true count ``tc``; with play errors, ``err`` > 0, the mistakes' too);
        None: every pair (``optimal``)."""
        if fixed:  # the chart alone: each first play is the chart's, whatever the values
            return {p for p in range(1, 11) if (p, p) in ups.deals
                    and (self._chart_action((p, p), up) is Action.SPLIT or (err > 0
                         and self._mistakes.get((int(up), p, p)) is Action.SPLIT))}
        return None if optimal else {
            p for p in range(1, 11) if (p, p) in ups.deals
            and Action.SPLIT in {self._first_action((p, p), up, case, tc, splits=True)
                                 for case in ups.deals[(p, p)]}}

    def _wants(self, err: float) -> Mapping[Rank, bytes] | None:
        """The pass's rows of a chart's round (:attr:`_chart_wants`), with play errors
        (``err`` > 0) those of each start's mistake too."""
        if err == 0 or self._chart_wants is None:
            return self._chart_wants
        if not self._mistake_wants:
            for up, flags in self._chart_wants.items():
                wrong = chart_play_rows({(low, high): a for (u, low, high), a
                                         in self._mistakes.items() if u == int(up)})
                self._mistake_wants[up] = bytes(a | b for a, b in zip(flags, wrong,
                                                                      strict=True))
        return self._mistake_wants

    def _sum_cases(self, up: Rank) -> _SumCases | None:
        """Against ``up``, each start's row offset and the kind of value its chart play
        takes (:data:`strategy_calc._engine.START_CODES`), what a dealt start records in a
        plan's actions (None: nothing), whether the natural takes even money, the natural's
        index and the surrendered starts': for
        :func:`~strategy_calc._engine.chart_round_sum`. None where a start has no chart cell
        (the Python sum raises when it is dealt, as :meth:`plan` does)."""
        (none, natural, stand, hit, hit_21, double, surrender, split) = START_CODES
        rules, u = self.rules, int(up)
        may_surrender = rules.may_surrender(u)
        at, kinds = array.array("i"), array.array("b")
        items: list[tuple[tuple[int, int, int, bool], Action] | None] = []
        even = False
        natural, surrendered = -1, []
        for hand, offset, total, action, key in self._chart_cases[up]:
            at.append(offset)
            if hand == (1, 10):
                natural = len(at) - 1
                try:
                    even = self._chart_action(hand, up) is Action.EVEN_MONEY
                except KeyError:
                    return None
                kinds.append(natural)
                items.append(((u, 1, 10, False), Action.EVEN_MONEY) if even else None)
                continue
            if action is None:
                return None
            if action is Action.SURRENDER and may_surrender:
                surrendered.append(len(at) - 1)
            kinds.append(stand if action is Action.STAND
                         else (hit if total < 21 else hit_21) if action is Action.HIT
                         else (double if rules.may_double(total) else none)
                         if action is Action.DOUBLE
                         else (surrender if may_surrender else none)
                         if action is Action.SURRENDER
                         else split + hand[0] - 1 if action is Action.SPLIT else none)
            items.append((key, action))
        return at, kinds, items, even, natural, tuple(surrendered)

    def _chart_round(self, game: GamePass, err: float = 0.0) -> RoundPlan:
        """:meth:`_chart_round_py`'s plan, each up card's sum made in the engine
        (:func:`strategy_calc._engine.chart_round_sum`: the same operations in the same
        order on the same doubles, so the same EV) where the play makes no errors; else,
        or where a start's value is missing (to raise as it does), by
        :meth:`_chart_round_py`."""
        if err != 0 or not self._chart_sums:
            return self._chart_round_py(game, err)
        rules = self.rules
        peek_exact = game.conditioning is engine.Conditioning.PEEK_EXACT
        ev = 0.0
        actions: dict[tuple[int, int, int, bool], Action] = {}
        codes_by_up: dict[int, bytes] = {}
        for up, ups in game.ups.items():
            cases = self._chart_sums[up]
            if cases is None:
                return self._chart_round_py(game, err)
            codes = self._split_codes[up]
            codes_by_up[int(up)] = codes.tobytes()
            splits = self._chart_split_values(game, ups, codes, err)
            at, kinds, items, even, natural, surrender_at = cases
            values = ups.table.values
            # the rules' own functions value a surrender and the natural (their one home)
            surrendered = array.array("d", bytes(8 * len(at)))
            for i in surrender_at:
                surrendered[i] = surrender_value(rules, values[at[i] + COL_NO_BLACKJACK])
            nat = array.array("d", [] if natural < 0 else [
                x for pair in natural_results(rules.blackjack_pays,
                                              values[at[natural] + COL_NO_BLACKJACK], even,
                                              False) for x in pair])
            dealt = bytearray(len(at))
            ev, bad = chart_round_sum(
                ev, values, at, kinds,
                array.array("d", [splits.get(p, math.nan) for p in range(1, 11)]), ups.p_up,
                peek_exact, surrendered, nat, dealt)
            if bad >= 0:
                return self._chart_round_py(game, err)
            actions.update(filter(None, compress(items, dealt)))
        return RoundPlan(ev, None, actions, codes_by_up, frozenset())

    def _chart_round_py(self, game: GamePass, err: float = 0.0) -> RoundPlan:
        """:meth:`plan` of a round without its second moment, every first play the chart's
        (no index plays) and no suit case (no suited 6-7-8 bonus): the EV read straight off
        the pass's table (``game``: made with ``deals=False``).

        The same sums in the same order as :meth:`plan` over
        :func:`~strategy_calc.blackjack.game_pass.deal_values`' records, each value made by the same
        expressions (:func:`~strategy_calc.blackjack.deals.start_value`, the one value of
        :func:`~strategy_calc.blackjack.deals.start_values` the play reads) from the same
        doubles of the table, read in place (a start has one case, of probability 1.0, and
        ``w * 1.0`` is ``w``), so the same EV; but no record is made (a round of the
        general path makes some 550) and no row object either. (The
        natural is settled without reading its chart cell, which the general path looks up
        first; a chart of :func:`blackjack_counter` has every cell.)
        """
        rules = self.rules
        bj, conditioning = rules.blackjack_pays, game.conditioning
        ev = 0.0
        actions: dict[tuple[int, int, int, bool], Action] = {}
        codes_by_up: dict[int, bytes] = {}
        split = Action.SPLIT
        for up, ups in game.ups.items():
            codes = self._split_codes[up]
            codes_by_up[int(up)] = codes.tobytes()
            p_up = ups.p_up
            splits = self._chart_split_values(game, ups, codes, err)
            may_surrender = rules.may_surrender(int(up))
            values = ups.table.values  # each start's row read in place (PassRow's columns)
            for hand, at, total, action, key in self._chart_cases[up]:
                weight = values[at + COL_WEIGHT]
                if not weight > 0:  # (NaN: the shoe cannot deal it)
                    continue
                nb = values[at + COL_NO_BLACKJACK]
                w_hand = p_up * weight
                if hand == (1, 10):  # paid at once unless the dealer has one too, or 1:1
                    even = self._chart_action(hand, up) is Action.EVEN_MONEY
                    if even:
                        actions[(int(up), 1, 10, False)] = Action.EVEN_MONEY
                    for x, p_x in natural_results(bj, nb, even, False):
                        ev += w_hand * p_x * x
                    continue
                if action is None:  # no cell (a chart of blackjack_counter has them all)
                    action = self._chart_action(hand, up)  # raises, as plan does
                actions[key] = action
                for play, w in (((action, w_hand),) if err == 0
                                else self._taken(action, up, hand, w_hand, err)):
                    value = splits.get(hand[0]) if play is split else start_value(
                        rules, conditioning, total, may_surrender, play,
                        values[at + COL_STAND], values[at + COL_POLICY_HIT],
                        values[at + COL_DOUBLE], nb)
                    if value is None or value != value:  # (NaN)
                        value = _checked(value, hand, up)  # raises
                    ev += w * value
        return RoundPlan(ev, None, actions, codes_by_up, frozenset())

    def _chart_split_values(self, game: GamePass, ups: UpCardDeals,
                            codes: array.array[int], err: float = 0.0) -> dict[int, float]:
        """The chart-played value of each pair the chart splits against ``ups.up`` that the
        shoe can deal (raw, by pair rank), for :meth:`_chart_round`; with play errors
        (``err`` > 0) also of the pairs whose mistake splits."""
        splits: dict[int, float] = {}
        for p in (self._chart_splits if err == 0 else self._mistake_splits)[ups.up]:
            if ups.rows[node_id((p, p))].weight > 0:
                got = split_round_values(game, ups, codes, p, SPLIT_CHART, lazy=True)
                if got is not None:
                    splits[p] = got[1]
        return splits


def _checked(value: float | None, hand: tuple[int, int], up: Rank) -> float:
    """A start's value in a round's EV: an error (not an ``assert``: ``python -O`` keeps it)
    where the pass has none or it is NaN, which would make the round's EV NaN."""
    if value is None or math.isnan(value):
        raise ValueError(f"the round's value of {hand} against {up.symbol} is {value}: the"
                         " pass did not value the play taken (a bug)")
    return value


def _add_results(exact: dict[float, float], weight: float,
                 results: Sequence[tuple[float, float]], ev: float) -> float:
    """Add ``weight`` times ``results`` ((result, probability) pairs) to ``exact``; ``ev``
    with their contribution added (in their order)."""
    for x, p in results:
        exact[x] = exact.get(x, 0.0) + weight * p
        ev += weight * p * x
    return ev


def runner_up_plays(rules: BlackjackRules, start: Shoe, chart: Chart,
                    actions: Mapping[tuple[int, tuple[int, int]], Action],
                    codes: Mapping[Rank, array.array[int]]
                    ) -> dict[tuple[int, int, int], Action]:
    """The mistake of each two-card start (``count --play-errors``): per (up card, low
    card, high card), the legal play other than the chart's (``actions``) worth the most
    off the top (the shoe ``start``), the hand then played by the chart (its hit
    followed by the chart's hit-or-stand play, a split by the chart's split-hand codes:
    :meth:`~strategy_calc.blackjack.deals.DealValues.chart_value`); an exact tie takes
    the calmer play (:func:`~strategy_calc.blackjack.hand_rules.best_play`). It is the
    chart's own runner-up in that cell: the close call a player gets wrong. A natural
    (even money, insurance) is no play and has none.

    >>> from strategy_calc.counting.counter import blackjack_counter
    >>> from strategy_calc.rules import blackjack_rules
    >>> mistakes = blackjack_counter(blackjack_rules("deluxe", ["decks=1"]),
    ...                              play_errors=0.01).planner.mistakes
    >>> mistakes[(10, 6, 10)].value, mistakes[(6, 2, 9)].value  # 16 v T, 11 v 6
    ('stand', 'hit')
    """
    game = whole_game_pass(PassRequest(rules, start, ChartOnly(chart.policies),
                                       partial=True))
    out: dict[tuple[int, int, int], Action] = {}
    for up, ups in game.ups.items():
        add_split_values(game, ups, codes[up], None, SPLIT_CHART)
        for hand, cases in ups.deals.items():
            chosen = actions.get((int(up), hand))
            if hand == (1, 10) or chosen is None:
                continue
            values = {a: v for a in PLAY_ACTIONS if a is not chosen
                      for v in [cases[0].chart_value(a)]
                      if v is not None and math.isfinite(v)}
            out[(int(up), *hand)] = best_play(values)
    return out


def check_play_errors(rate: float, rules: BlackjackRules, strategy: str = "basic",
                      boxes: int = 1, box_ramp: tuple[tuple[int, int], ...] = ()) -> None:
    """InputError unless ``rate`` is a play-error rate the counter models: a number with
    0 <= rate < 1, and if positive, ``basic`` play (the mistakes are the chart's
    runner-ups), one box, and rules without a decision the model leaves out (doubling
    after a hit, the 6-7-8 / 7-7-7 bonuses, whose suit cases play apart).

    The model: at each decision of an unsplit hand of the player's box (the two-card
    one, and every later hit or stand below 21) he takes the chart's play with chance
    ``1 - rate``, else a mistake: at two cards the chart's runner-up off the top
    (:func:`runner_up_plays`), later the other of hit and stand. Each round's EV and
    second moment are the erring player's, exactly (:meth:`RoundPlanner.plan`). Split
    hands play without errors.

    >>> from strategy_calc.rules import blackjack_rules
    >>> check_play_errors(0.05, blackjack_rules("deluxe"))
    >>> check_play_errors(1.0, blackjack_rules("deluxe"))
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --play-errors must be a chance with 0 <= E < 1, not 1
    """
    if not (isinstance(rate, int | float) and math.isfinite(rate) and 0 <= rate < 1):
        raise InputError(f"--play-errors must be a chance with 0 <= E < 1, not {rate:g}")
    if rate == 0:
        return
    why = (f"--strategy {strategy} (the mistakes are the chart's runner-ups: basic play"
           " only)" if strategy != "basic" else
           "several boxes (--boxes, --box-ramp)" if boxes != 1 or box_ramp else
           "double_after_hit (a third play after a hit)" if rules.double_after_hit else
           "the 6-7-8 or 7-7-7 bonus (its suited starts play apart)"
           if rules.has_bonus else None)
    if why is not None:
        raise InputError(f"--play-errors is modelled for basic play, one box: not with {why}")
