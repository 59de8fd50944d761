"""The blackjack counter: seeded shoes dealt in casino order, each round's EV exact for
the cards unseen, bets by the count."""

from __future__ import annotations

import array
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Protocol

import numpy as np

from strategy_calc.blackjack.boxes import check_boxes, most_cards_dealt
from strategy_calc.blackjack.chart import Chart
from strategy_calc.blackjack.distributions import (
    SplitTables,
    check_distribution_rules,
)
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.playout import PlayErrors, RoundCards, RoundPlan, play_round
from strategy_calc.cards import Card, Rank, Shoe, parse_cards
from strategy_calc.counting.dealing import DealtShoe, SurveyedShoe
from strategy_calc.counting.effects import effects_of_removal
from strategy_calc.counting.indices import ILLUSTRIOUS_18, count_index
from strategy_calc.counting.planner import RoundPlanner, check_play_errors
from strategy_calc.counting.sampling import (
    shoe_rng,
)
from strategy_calc.counting.sidebets import (
    SideBetRound,
    Trigger,
    blackjack_cards,
    card_types,
    completes_dealer,
    placements,
    price_all,
    settle,
    shoe_of,
)
from strategy_calc.counting.systems import CountSystem, estimated_decks, find_system
from strategy_calc.counting.tally import SideCount, Tally
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules
from strategy_calc.rules.shoe import ShoeProcedure, shoe_procedure
from strategy_calc.sidebets.exact import TYPES
from strategy_calc.sidebets.paytables import SideBet


class CountPlay(StrEnum):
    """How the counter plays its hands (the value is ``count --strategy``'s word)."""

    BASIC = "basic"
    """The ruleset's chart off the top."""
    BASIC_INDICES = "basic+indices"
    """The chart, with the computed count indices applied at the true count."""
    OPTIMAL = "optimal"
    """Composition-dependent optimal play for the cards unseen before the round."""


BLACKJACK_STRATEGIES = tuple(CountPlay)
"""``basic``: the ruleset's chart off the top (two-card decisions by the chart, later ones
by its total-dependent play, split hands by the chart); ``basic+indices``: the same,
with the computed count indices of the Illustrious 18 (and insurance in peek games)
applied at the true count before the deal; ``optimal``: composition-dependent optimal
play for the cards unseen before the round."""


PENETRATION = 0.75
"""Default: a new shoe once this share of the cards has been dealt (the cut card)."""


MAX_SEATS = 7
"""The most boxes a blackjack table has (``count --seats``)."""


MIN_BEHIND_CUT = 20
"""A shoe deals a round only while more than this many cards are left, at least."""


MOMENT_EVERY = 25
"""Default: the exact second moment on one round in 25 (a systematic sample)."""


ROUND_SECONDS = {"basic": 0.025, "basic+indices": 0.025, "optimal": 0.1}
"""A round's exact EV, CPU seconds, by strategy: measured on the 2-core machine this was
written on (``count --rules deluxe --decks 6 --rounds 200 --jobs 1``: 4.7 s basic, 18.6 s
optimal, for 234 rounds), rounded up. A guide for :func:`estimated_seconds` only."""


MOMENT_SECONDS = 1.0
"""An exact second moment at 6 decks, CPU seconds (issue 29's measurement: about 1 s)."""


BOXES_MOMENT_SECONDS = 5.0
"""CPU seconds the covariance between boxes adds to a round with a second moment (six
decks, 2026-12-06: 39 such rounds cost 207 CPU-seconds more, docs/PERFORMANCE.md)."""


def estimated_seconds(strategy: str, rounds: int, moment_every: int, workers: int,
                      boxes: bool = False) -> float:
    """About how long a run of ``rounds`` rounds takes on ``workers`` cores of a machine like
    the one :data:`ROUND_SECONDS` was measured on (an estimate, to warn before a long run);
    ``boxes``: with several boxes (:data:`BOXES_MOMENT_SECONDS`).

    >>> estimated_seconds("basic", 10_000, 25, 2) / 60  # ten thousand rounds on two cores
    5.416666666666667
    >>> estimated_seconds("basic", 10_000, 25, 2, boxes=True) / 60  # + 400 x 5 s / 2 cores
    22.083333333333332
    """
    per_round = ROUND_SECONDS.get(strategy, max(ROUND_SECONDS.values()))
    moment = MOMENT_SECONDS + (BOXES_MOMENT_SECONDS if boxes else 0.0)
    return rounds * (per_round + moment / moment_every) / max(1, workers)


@dataclass(frozen=True, slots=True)
class Spread:
    """A bet ramp: ``steps`` of (true count, units), increasing in true count.

    The bet at a true count ``t`` is the units of the last step whose count is at
    most ``floor(t)``, or of the first step below them all.

    >>> ramp = parse_spread("1:1, 2:2, 4:8")
    >>> ramp.bet(-3.2), ramp.bet(2.9), ramp.bet(3.0), ramp.bet(11)
    (1.0, 2.0, 2.0, 8.0)
    """

    steps: tuple[tuple[int, float], ...]

    def bet(self, tc: float) -> float:
        """The bet in units at true count ``tc``."""
        key = math.floor(tc)
        units = self.steps[0][1]
        for count, bet in self.steps:
            if count <= key:
                units = bet
        return units

    def bets(self, tc: np.ndarray) -> np.ndarray:
        """:meth:`bet` at each of many true counts.

        >>> parse_spread("1:1, 2:2, 4:8").bets(np.array([-3.2, 2.9, 3.0, 11])).tolist()
        [1.0, 2.0, 2.0, 8.0]
        """
        key = np.floor(tc)
        units = np.full(len(tc), float(self.steps[0][1]))
        for count, bet in self.steps:
            units = np.where(count <= key, float(bet), units)
        return units

    def __str__(self) -> str:
        return ",".join(f"{t}:{u:g}" for t, u in self.steps)


@dataclass(frozen=True, slots=True)
class Wong:
    """Back-counting ("wonging"): watch the shoe, play from the first round whose true
    count is at least ``enter`` until one falls below ``exit``, then watch again.

    The shoe is dealt the same whether the counter plays or watches (his seat is played
    by another player with the same strategy, so the cards each round uses do not change);
    a round he watches is observed, not bet.

    >>> Wong(2, 0).playing([0.5, 2.0, 1.0, -0.5, 3.0])
    [False, True, True, False, True]
    >>> Wong(0, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --enter 0 is below --exit 1: enter at a count at least...
    """

    enter: float
    exit: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.enter) and math.isfinite(self.exit)):
            raise InputError("--enter and --exit are true counts (finite numbers)")
        if self.enter < self.exit:
            raise InputError(f"--enter {self.enter:g} is below --exit {self.exit:g}: enter at"
                             " a count at least as high as the exit")

    def playing(self, true_counts: Sequence[float]) -> list[bool]:
        """Whether each round of one shoe (its true counts before the deal) is played."""
        out, inside = [], False
        for tc in true_counts:
            if inside and tc < self.exit:
                inside = False
            if not inside and tc >= self.enter:
                inside = True
            out.append(inside)
        return out


def parse_box_ramp(text: str) -> tuple[tuple[int, int], ...]:
    """A box ramp from ``"TC:BOXES,..."``: from each (integer) count up, that many boxes
    (1 to 7); below the lowest step, ``count --boxes`` (default 1).

    >>> parse_box_ramp("4:3, 2:2")
    ((2, 2), (4, 3))
    >>> parse_box_ramp("2:9")
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --box-ramp: 2:9: boxes must be 1 to 7
    """
    steps: dict[int, int] = {}
    for part in (p.strip() for p in text.split(",")):
        tc, sep, n = part.partition(":")
        try:
            key, boxes = int(tc), int(n)
        except ValueError:
            raise InputError(f"--box-ramp: {part!r} is not TC:BOXES (whole numbers, e.g."
                             " 2:2)") from None
        if not sep or not 1 <= boxes <= MAX_SEATS:
            raise InputError(f"--box-ramp: {part}: boxes must be 1 to {MAX_SEATS}")
        if key in steps:
            raise InputError(f"--box-ramp: the count {key} is given twice")
        steps[key] = boxes
    return tuple(sorted(steps.items()))


def parse_spread(text: str) -> Spread:
    """A ramp from ``"TC:UNITS,..."`` (integer true counts, positive units).

    >>> parse_spread("2:4,1:1").steps
    ((1, 1.0), (2, 4.0))
    >>> parse_spread("1:0")
    Traceback (most recent call last):
    ...
    strategy_calc.errors.InputError: --spread: 1:0: a bet must be a positive number of units...
    """
    steps: dict[int, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        head, sep, tail = part.partition(":")
        try:
            count, units = int(head), float(tail)
        except ValueError:
            raise InputError(f"--spread: {part!r} is not TC:UNITS (e.g. 1:1,2:2,3:4)"
                             ) from None
        if not sep or not math.isfinite(units) or not 0 < units <= 1e6:
            raise InputError(f"--spread: {part}: a bet must be a positive number of units"
                             " (at most 1e6)")
        if count in steps:
            raise InputError(f"--spread: true count {count} given twice")
        steps[count] = units
    if not steps:
        raise InputError("--spread: give at least one TC:UNITS step")
    return Spread(tuple(sorted(steps.items())))


@dataclass(frozen=True, slots=True)
class IndexPlay:
    """A count index applied to two-card starts: at or above ``index`` play ``above``.

    ``pair``: the pair rank it applies to, or None: every two-card start of hard
    ``total`` that is not a pair; ``total`` None (insurance): every start.
    """

    up: int
    total: int | None
    pair: int | None
    actions: tuple[str, str]
    index: float
    above: str

    def applies(self, hand: tuple[int, int], up: int) -> bool:
        """Whether the start ``hand`` (low rank first) against ``up`` is this decision's."""
        if up != self.up:
            return False
        if self.pair is not None:
            return hand == (self.pair, self.pair)
        if self.total is None:
            return True
        return hand[0] != hand[1] and 1 not in hand and hand[0] + hand[1] == self.total

    def play(self, tc: float) -> str:
        """The play at true count ``tc``."""
        below = self.actions[1] if self.above == self.actions[0] else self.actions[0]
        return self.above if tc >= self.index else below


def index_plays(rules: BlackjackRules, system: CountSystem) -> tuple[IndexPlay, ...]:
    """The Illustrious 18 decisions' indices computed for ``rules`` (those that have one)."""
    plays = []
    for decision in ILLUSTRIOUS_18:
        row = count_index(rules, decision, system)
        if row.index is None or row.above is None:
            continue
        ranks = sorted(int(c.rank) for c in parse_cards(decision.hand))
        up = int(parse_cards(decision.up)[0].rank)
        if decision.actions[0] == "insurance":
            total, pair = None, None
        elif ranks[0] == ranks[1]:
            total, pair = None, ranks[0]
        else:
            total, pair = sum(ranks), None
        plays.append(IndexPlay(up, total, pair, decision.actions, row.index, row.above))
    return tuple(plays)


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One dealt round: the count before the deal (the true count, or an unbalanced
    system's running count: :attr:`BlackjackCounter.count_kind`) and its exact moments."""

    tc: float
    ev: float
    second_moment: float | None
    """None on rounds whose second moment was not computed (see ``moment_every``)."""
    covariance: float | None = None
    """With several boxes (:attr:`BlackjackCounter.boxes`), on the rounds with a second
    moment: Cov(X_1, X_2) of two of the player's boxes, per unit bet a box."""
    sidebets: SideBetRound | None = None
    """With side bets (:attr:`BlackjackCounter.sidebets`): their EVs and results."""
    exact_count: float | None = None
    """Under a deck estimation other than exact (:attr:`BlackjackCounter.deck_estimation`):
    the count the round would be keyed by with the decks unseen known exactly (the same
    cards seen); None: :attr:`tc` is that count."""
    perfect_ev: float | None = None
    perfect_second_moment: float | None = None
    """With play errors (:attr:`BlackjackCounter.play_errors`): the moments without them."""

    @property
    def exact(self) -> float:
        """The round's count with the decks unseen known exactly."""
        return self.tc if self.exact_count is None else self.exact_count


class RoundReport(Protocol):
    """Where a shoe's rounds are reported as they are valued (a queue: ``put(n)``)."""

    def put(self, item: int, /) -> None:
        """``item`` more rounds valued."""


REPORT_EVERY = 10
"""A shoe reports its rounds in tens (:meth:`BlackjackCounter.play_one`)."""


@dataclass(frozen=True, slots=True)
class BlackjackCounter:
    """A counted run as a picklable job: the rules, the strategy, the count and the cut
    card, values only. It owns its :attr:`planner` (the mutable part: what every round
    of the run shares, made once), which pickling leaves out: a worker's copy of the job
    makes its own."""

    rules: BlackjackRules
    strategy: str
    system: CountSystem
    cut_card: int
    """Rounds are dealt while more than this many cards are left."""
    seed: int
    chart: Chart
    """The chart the run plays (made for the shoe every deal starts from; its
    :attr:`Chart.policies` are the total-dependent play after the first decision)."""
    plays: tuple[IndexPlay, ...] = ()
    moment_every: int = 1
    """The second moment is computed on round ``j`` of shoe ``i`` when ``(i + j) %
    moment_every == 0``: a systematic sample over every depth of the shoe."""
    full: tuple[int, ...] = ()
    """Rank counts (ace first) of the shoe every deal starts from (default: full decks)."""
    one_round: bool = False
    """One round per shuffle (``single_deck_one_round`` at one deck): ``cut_card`` is
    then one less than the shoe, so each shoe deals exactly its first round."""
    seats: int = 1
    """Boxes at the table: the player's, dealt and played first, and ``seats - 1`` others
    playing the same plan, whose cards leave the shoe and are counted
    (:func:`strategy_calc.blackjack.playout.play_round`)."""
    boxes: int = 1
    """The player's boxes, each betting the round's bet and playing the same plan (the
    first ``boxes`` of the ``max(seats, boxes)`` dealt): a round's EV and second moment are
    those of the boxes' total, E[X_1 + ... + X_N] = N E[X_1] and E[(X_1 + ... + X_N)^2] =
    N E[X_1^2] + N (N - 1) E[X_1 X_2] (docs/MODEL.md, "Several boxes")."""
    box_ramp: tuple[tuple[int, int], ...] = ()
    """(count, boxes) steps (:func:`parse_box_ramp`): from each count up (floored, the
    count bets are keyed by), that many boxes; below them, :attr:`boxes`."""
    side: tuple[SideCount, ...] = ()
    """The side counts bets are keyed by besides the main count (index plays and insurance
    read the main count alone)."""
    procedure: ShoeProcedure | None = None
    """The shoe procedure dealt (:func:`strategy_calc.rules.shoe.shoe_procedure`): burns,
    the cut card's range, the last-round rule; None: a fixed cut card at :attr:`cut_card`
    and no burns. :attr:`cut_card` is then the fewest cards the range leaves behind it."""
    sidebets: tuple[SideBet, ...] = ()
    """Side bets priced before each round and bet when positive
    (:mod:`strategy_calc.counting.sidebets`), on the player's first box."""
    triggers: tuple[Trigger | None, ...] = ()
    """Per side bet, the count that places it instead of a positive EV
    (``--sidebet-trigger``; None: the EV; empty: every bet by its EV)."""
    tables: SplitTables | None = field(default=None, compare=False, repr=False)
    """The split rounds' moment tables of the run (made on first use; they hold for every
    shoe of the run: :class:`strategy_calc.blackjack.distributions.SplitTables`). A
    pickled copy travels without them, and the copies one process unpickles share one
    (a worker makes each table once for all its batches); None: the planner's own."""
    deck_estimation: str = "exact"
    """How the decks unseen that a balanced count's true count divides by are judged
    (:func:`strategy_calc.counting.systems.estimated_decks`): ``exact``, ``half`` or
    ``whole``. Every decision the count drives reads the estimated true count (the bet,
    wonging, index plays and insurance, the box ramp); each round's EV stays exact for
    the cards unseen. An unbalanced system reads its running count: no effect."""
    play_errors: float = 0.0
    """The play-error rate (``count --play-errors``; 0: none; the model:
    :func:`strategy_calc.counting.planner.check_play_errors`)."""
    planner: RoundPlanner = field(init=False, repr=False, compare=False)
    """The run's round planner (made with the job; see :class:`RoundPlanner`)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "planner", RoundPlanner(self))  # (the one owned mutable part)

    def __reduce__(self) -> tuple[type[BlackjackCounter], tuple[object, ...]]:
        """Pickled as its values: a copy makes its own planner."""
        return (BlackjackCounter, tuple(getattr(self, f.name) for f in fields(self)
                                        if f.init))

    def start(self) -> Shoe:
        """The shoe before the first card."""
        if not self.full:
            return Shoe.full(self.rules.finite_decks("count"))
        return Shoe.from_counts(self.full, self.rules.finite_decks("count"))

    def boxes_at(self, count: float) -> int:
        """The player's boxes at ``count`` (:attr:`box_ramp`, else :attr:`boxes`)."""
        n = self.boxes
        for key, boxes in self.box_ramp:
            if math.floor(count) >= key:
                n = boxes
        return n

    def plan(self, shoe: Shoe, tc: float = 0.0, moments: bool = True,
             play_error: float | None = None) -> RoundPlan:
        """:meth:`RoundPlanner.plan` of the run's planner."""
        return self.planner.plan(shoe, tc, moments, play_error)

    def play(self, indices: Sequence[int], report: RoundReport | None = None
             ) -> list[tuple[RoundRecord, ...]]:
        """Deal the shoes ``indices`` of the run (``report``: see :meth:`play_one`)."""
        return [self.play_one(i, report) for i in indices]

    def play_one(self, index: int, report: RoundReport | None = None
                 ) -> tuple[RoundRecord, ...]:
        """Deal shoe ``index`` by the run's :attr:`procedure`: each round's exact moments
        for the cards unseen (burnt cards among them), then its cards played out.
        ``report``: told (``put(n)``) of every :data:`REPORT_EVERY` rounds valued, for a
        progress bar within a shoe of many decks (thousands of rounds)."""
        rules = self.rules
        cards, order, draw = self._shuffled(index)
        tally = Tally(self)
        full, n = tuple(tally.counts), len(cards)
        bets = self.sidebets
        if bets:
            base = card_types(tally.counts)
            types = [base[i] for i in order]
            types_left = [0] * TYPES
            for t in base:
                types_left[t] += 1
            start_types = tuple(types_left)
            seen_types: list[int] = []
            top_evs = price_all(bets, shoe_of(types_left, rules.finite_decks("count")))
        counts = tally.counts
        shoe_deal = DealtShoe(self.shoe_procedure, cards, draw, lambda c: int(c.rank))
        errors = PlayErrors(self.play_errors, self.planner.mistakes, draw) if self.play_errors \
            else None
        shown = shoe_deal.open()
        tally.saw(shown)
        if bets and shown:
            seen_types.append(types[0])
            types_left[types[0]] -= 1
        rounds: list[RoundRecord] = []
        while shoe_deal.next_round():
            tc, bet_key, exact_key = tally.keys(n)
            moments = (len(rounds) + index) % self.moment_every == 0
            shoe = Shoe.from_counts(counts, rules.finite_decks("count"))
            top = tuple(counts) == full and tc == 0  # (nothing seen, at 0: an unbalanced
            # count starts at its IRC, which index plays and box ramps read)
            plan = self.planner.top_plan(moments) if top else self.planner.plan(shoe, tc,
                                                                                 moments)
            perfect = None if errors is None else (  # without errors, for their cost
                self.planner.top_plan(moments, 0.0) if top
                else self.planner.plan(shoe, tc, moments, 0.0))
            start, burnt = shoe_deal.pos, list[int]()
            where = RoundCards([], [])
            try:
                shoe_deal.pos = self.deal_round(cards, start, plan, shoe, burnt, where, errors)
            except IndexError:  # the shoe ran out mid-round: it is the last
                break
            dealt = [i for i in range(start, shoe_deal.pos) if i not in burnt]
            side = None
            if bets:
                evs = (top_evs if not seen_types and sum(types_left) == n
                       else price_all(bets, shoe_of(types_left, rules.finite_decks("count"))))
                on = placements(evs, self.triggers, types_left, start_types)
                won = tuple(settle(bet, None, blackjack_cards(bet.event, types, where.player,
                                                              where.dealer))
                            if placed else None for bet, placed in zip(bets, on, strict=True))
                side = SideBetRound(evs, won, tuple(seen_types), tuple(types[i] for i in dealt))
                seen_types = [types[i] for i in dealt]
                for i in dealt:
                    types_left[types[i]] -= 1
            ev0, m0 = (None, None) if perfect is None else (perfect.ev, perfect.second_moment)
            rounds.append(RoundRecord(bet_key, plan.ev, plan.second_moment, plan.covariance,
                                      side, exact_key, ev0, m0))
            if report is not None and len(rounds) % REPORT_EVERY == 0:
                report.put(REPORT_EVERY)
            tally.saw([cards[i] for i in dealt])
        return tuple(rounds)

    def survey(self, indices: Sequence[int],
               controls: Callable[[np.ndarray], tuple[float, ...]] | None = None
               ) -> list[SurveyedShoe]:
        """:meth:`survey_one` of each shoe of ``indices``."""
        return [self.survey_one(i, controls) for i in indices]

    def survey_one(self, index: int,
                   controls: Callable[[np.ndarray], tuple[float, ...]] | None = None
                   ) -> SurveyedShoe:
        """Deal shoe ``index`` as :meth:`play_one` deals it (the same shuffle, procedure and
        plays) without valuing its rounds: each round's bet count and the cards unseen
        before it; ``controls``: what it gives for the shuffled cards (kept with them).
        Only for a run whose rounds are dealt the same whatever their values
        (:meth:`check_surveyable`): the play is then the plan off the top's."""
        if self.plays:
            return self._survey_with_plays(index, controls)
        cards, order, draw = self._shuffled(index)
        tally = Tally(self)
        n = len(cards)
        deal, unshuffled = self.planner.chart_dealing()
        shuffled = unshuffled.shuffled(order)
        values = controls(shuffled.tag) if controls is not None else ()
        procedure = self.shoe_procedure
        shoe_deal = DealtShoe(procedure, cards, draw, lambda c: int(c.rank))
        tally.saw(shoe_deal.open())
        counts = np.array(tally.counts, dtype=np.int32)
        running = np.empty(n // 2 + 1)  # (a round takes at least the player's two cards)
        states = np.empty((n // 2 + 1, 10), dtype=np.uint16)
        m = deal.survey(shuffled.rank, shuffled.suit, shuffled.tag, shoe_deal.pos,
                        shoe_deal.cut, procedure.burn_per_round,
                        procedure.rounds_after_cut_card, float(tally.running), counts,
                        running, states)
        keys = tally.bet_keys(running[:m], states[:m], n)
        return SurveyedShoe(index, array.array("d", keys.tobytes()),
                            array.array("H", states[:m].tobytes()), values)

    def _survey_with_plays(self, index: int,
                           controls: Callable[[np.ndarray], tuple[float, ...]] | None
                           ) -> SurveyedShoe:
        """:meth:`survey_one` with index plays: each round dealt by the engine as the plan
        at its count plays it (:meth:`RoundPlanner.plan_at`: the chart and the plays that
        count makes, the same for every shoe), the procedure and the tally in Python."""
        cards, order, draw = self._shuffled(index)
        shuffled = self.planner.shoe_cards().shuffled(order)
        values = controls(shuffled.tag) if controls is not None else ()
        tally = Tally(self)
        counts, n = tally.counts, len(cards)
        rank, tags = shuffled.rank, shuffled.tag.tolist()
        shoe_deal = DealtShoe(self.shoe_procedure, cards, draw, lambda c: int(c.rank))
        tally.saw(shoe_deal.open())
        keys, play_keys = array.array("d"), array.array("d")
        states = array.array("H")
        while shoe_deal.next_round():
            tc, bet_key, _exact = tally.keys(n)
            start = shoe_deal.pos
            got = self.planner.chart_deal_at(tc).deal_round(rank, shuffled.suit, start)
            if got is None:  # the shoe ran out mid-round: it is the last
                break
            shoe_deal.pos, burnt = got
            keys.append(bet_key)
            play_keys.append(tc)
            states.extend(counts)
            for i in range(start, shoe_deal.pos):
                if i not in burnt:
                    counts[rank[i] - 1] -= 1
                    tally.running += tags[i]
        return SurveyedShoe(index, keys, states, values, play_keys)

    def check_surveyable(self) -> None:
        """InputError unless a round's cards do not depend on values computed for it: the
        chart and its index plays (``basic`` or ``basic+indices``, no box ramp), one box,
        no side bets, the decks unseen known exactly (``count --method stratified``'s
        conditions)."""
        why = ("--strategy optimal plays each round by its own values" if self.strategy
               == "optimal" else "a box ramp reads the count" if self.box_ramp else
               "several boxes" if self.boxes > 1 else "side bets" if self.sidebets else
               "a deck estimation" if self.deck_estimation != "exact" else
               "play errors (--play-errors)" if self.play_errors else None)
        if why is not None:
            raise InputError(f"--method stratified deals its rounds by the chart alone, one"
                             f" box, no side bets, exact decks: not with {why} (use --method"
                             " direct)")

    def exact_rounds(self, states: Sequence[tuple[tuple[int, ...], bool, float]]
                     ) -> list[tuple[float, float | None]]:
        """The exact EV (and, where asked, second moment) of a round from each shoe of
        ``states`` (rank counts, ace first; whether the moment is wanted; the count the
        index plays read): the values :meth:`play_one` gives a round from that shoe at
        that count under a surveyable run."""
        out: list[tuple[float, float | None]] = []
        full, decks = self.start().counts, self.rules.finite_decks("count")
        for counts, moments, tc in states:
            plan = (self.planner.top_plan(moments) if counts == full and tc == 0
                    else self.planner.plan(Shoe.from_counts(counts, decks), tc,
                                           moments))
            out.append((plan.ev, plan.second_moment))
        return out

    def _shuffled(self, index: int) -> tuple[list[Card], list[int], random.Random]:
        """Shoe ``index``'s cards in dealing order, the shuffle's permutation (position to
        card of the unshuffled shoe) and the shoe's random source (after the shuffle)."""
        cards = self.planner.unshuffled()
        draw = shoe_rng(self.seed, index)
        order = list(range(len(cards)))  # (the shuffle draws the same numbers whatever it shuffles)
        draw.shuffle(order)
        return [cards[i] for i in order], order, draw

    def check_dealable(self) -> None:
        """InputError unless every shoe deals a round: the most the procedure can burn
        before the first round (the shown card and its value, ``burn_start``) must leave
        more cards than the cut card's farthest place (else a run would deal on forever)."""
        procedure, full = self.shoe_procedure, self.start().counts
        shown = 1 + max(r for r in range(1, 11) if full[r - 1]) if procedure.burn_shown_card else 0
        left = sum(full) - shown - procedure.burn_start
        if left <= procedure.cut_card_from_end[1]:
            raise InputError(f"the burns before the first round (up to {sum(full) - left}"
                             f" cards) leave no round before the cut card"
                             f" {procedure.cut_card_from_end[1]} cards from the end: put it"
                             " nearer the end, or burn less")

    @property
    def shoe_procedure(self) -> ShoeProcedure:
        """The procedure the run deals (:attr:`procedure`; a fixed cut card at
        :attr:`cut_card` with no burns when none was given)."""
        if self.procedure is not None:
            return self.procedure
        return ShoeProcedure("cut_card", (self.cut_card, self.cut_card), "--cut-card")

    @property
    def count_kind(self) -> str:
        """What a round's count (:attr:`RoundRecord.tc`, the ramp's and the wonging's
        key) is: ``true count`` for a balanced system, ``running count`` for an
        unbalanced one (started at its IRC: KO, Red 7)."""
        return "true count" if self.system.balanced else "running count"

    @property
    def estimates(self) -> bool:
        """Whether the run's counts read estimated decks (:attr:`deck_estimation` other
        than exact, for a balanced system: an unbalanced one reads its running count)."""
        return self.deck_estimation != "exact" and self.system.balanced

    @property
    def plays_by_count(self) -> bool:
        """Whether the cards a round deals depend on the count before it: index plays
        (and insurance) or a box ramp. Otherwise a round is dealt the same whatever the
        count reads, and only its bet (and wonging) follows the count."""
        return bool(self.plays) or bool(self.box_ramp)

    def key_counts(self, running: np.ndarray, unseen: np.ndarray) -> np.ndarray:
        """:meth:`key_count` of many counts at once, the decks unseen known exactly (the
        same values)."""
        if not self.system.balanced:
            return running
        return self.system.true_counts(running, unseen)

    def key_count(self, running: float, unseen: int, estimation: str | None = None
                  ) -> float:
        """The count bets are keyed by (:attr:`count_kind`) before a round, with
        ``running`` the running count and ``unseen`` cards left; a true count divides by
        the decks unseen as ``estimation`` (default :attr:`deck_estimation`) judges them."""
        if not self.system.balanced:
            return running
        return self.system.true_count(running, unseen, estimation or self.deck_estimation)

    def deal_round(self, cards: Sequence[Card], pos: int, plan: RoundPlan,
                   shoe: Shoe | None = None, burnt: list[int] | None = None,
                   record: RoundCards | None = None, errors: PlayErrors | None = None) -> int:
        """Deal one round from ``cards[pos:]`` as ``plan`` plays it (``errors``: with the
        player's play errors); the position after it
        (:func:`strategy_calc.blackjack.playout.play_round`; ``shoe``: the cards unseen before the
        round, which an ``optimal`` counter's split hands play their own decisions for)."""
        return play_round(self.rules, cards, pos, plan, shoe, self.strategy == "optimal",
                          max(self.seats, plan.boxes), burnt, record,
                          completes_dealer(self.sidebets), errors)


def blackjack_counter(
    rules: BlackjackRules, strategy: str = "basic", system: str = "hilo",
    cut_card: int | None = None, seed: int = 1, penetration: float | None = None,
    moment_every: int = MOMENT_EVERY, shoe: Shoe | None = None, seats: int = 1,
    boxes: int = 1, box_ramp: tuple[tuple[int, int], ...] = (), side_counts: bool = True,
    sidebets: tuple[SideBet, ...] = (), triggers: tuple[Trigger | None, ...] = (),
    deck_estimation: str = "exact", play_errors: float = 0.0,
) -> BlackjackCounter:
    """The counter of a run: the chart and its play off the top, and the index plays.

    The shoes are dealt by the ruleset's shoe procedure (burns, the cut card's range,
    the last-round rule, a continuous shuffler:
    :func:`strategy_calc.rules.shoe.shoe_procedure`). ``cut_card``: instead of the
    ruleset's range, rounds are dealt while more than this many cards are left; or
    ``penetration``: the share of the shoe dealt before the cut card. Where the ruleset
    states no cut card, :data:`PENETRATION` (less when that would leave fewer than
    :data:`MIN_BEHIND_CUT` cards, e.g. 1 deck). Every place must leave at least
    :data:`MIN_BEHIND_CUT` cards behind the cut. ``shoe``: the shoe the chart
    is made for and every shoe is dealt from (default: ``rules.decks`` full decks).

    Under ``single_deck_one_round`` at one deck (Macau's metal box) each shuffle deals
    one round, so there is no cut card to place: giving one (other than ``n - 1``, which
    deals one round too) is an error. ``seats``: boxes at the table (1 to
    :data:`MAX_SEATS`; :attr:`BlackjackCounter.seats`). ``side_counts``: bets read the
    system's side counts (an ace side count's weight from the game's effects of removal
    under the chart, :meth:`~strategy_calc.counting.systems.CountSystem.side_weights`).
    ``sidebets``: side bets priced and bet each round (:mod:`strategy_calc.counting.sidebets`);
    ``triggers``: per side bet, the count that places it instead of a positive exact EV
    (:class:`strategy_calc.counting.sidebets.Trigger`; None: the EV). ``deck_estimation``:
    :attr:`BlackjackCounter.deck_estimation` (an unknown one is an error).
    ``play_errors``: :attr:`BlackjackCounter.play_errors` (:func:`check_play_errors`).
    """
    estimated_decks(52, deck_estimation)  # (one error line for an unknown estimation)
    check_play_errors(play_errors, rules, strategy, boxes, box_ramp)
    if triggers and len(triggers) != len(sidebets):
        raise InputError("a trigger (or None) per side bet")
    if not 1 <= seats <= MAX_SEATS:
        raise InputError(f"--seats must be between 1 and {MAX_SEATS} (boxes at the table),"
                         f" not {seats}")
    if strategy not in BLACKJACK_STRATEGIES:
        raise InputError(f"unknown strategy {strategy!r}: choose from "
                         f"{', '.join(BLACKJACK_STRATEGIES)}")
    check_distribution_rules(rules, resplits=True)
    count = find_system(system)
    if strategy == "basic+indices":  # (an unbalanced system bets by its running count)
        count.require_balanced("basic+indices (its index plays read a true count)")
    n = shoe.total if shoe is not None else 52 * rules.finite_decks("count")
    one_round = rules.single_deck_one_round and rules.decks == 1
    if one_round and (cut_card not in (None, n - 1) or penetration is not None):
        raise InputError(f"{rules.name} deals one round per shuffle at one deck"
                         " (single_deck_one_round): there is no cut card; --set"
                         " single_deck_one_round=false to deal on")
    if one_round:  # rounds are dealt while more than n - 1 cards are left: one
        procedure = ShoeProcedure("cut_card", (n - 1, n - 1), "single_deck_one_round")
    else:
        share = min(PENETRATION, 1 - MIN_BEHIND_CUT / n)
        procedure = shoe_procedure(rules, n, cut_card, penetration,
                                   default_cut=n - round(share * n))
    cut_card = procedure.cut_card_from_end[0]
    low = min(MIN_BEHIND_CUT, n - 1)
    for place in procedure.cut_card_from_end:
        if not low <= place < n:
            if procedure.shuffle == "continuous":
                raise InputError(f"continuous_buffer_cards {rules.continuous_buffer_cards}"
                                 f" leaves fewer than {low} of the {n} cards in the machine")
            raise InputError(f"the cut card must leave between {low} and {n - 1} cards of"
                             f" the {n}-card shoe behind it, not {place}")
    if moment_every < 1:
        raise InputError(f"--moment-every must be at least 1, not {moment_every}")
    if boxes != 1 or box_ramp:
        _check_boxes(rules, strategy, max([boxes, *(n for _tc, n in box_ramp)]), shoe,
                     cut_card)
    if procedure.shuffle == "continuous" and rules.burn_before_dealer_cards:
        rules = replace(rules, burn_before_dealer_cards=False)  # (a machine burns nothing)
    chart = analyse_game(rules, shoe=shoe).chart
    plays = index_plays(rules, count) if strategy == "basic+indices" else ()
    full = shoe.counts if shoe is not None else Shoe.full(rules.finite_decks("count")).counts
    side: tuple[SideCount, ...] = ()
    if side_counts and count.side_counts:
        effects = effects_of_removal(rules, definition="fixed-chart").game
        weights = count.side_weights([effects[r.symbol] for r in Rank])
        side = tuple(SideCount(name, frozenset(ranks), weights[name],
                               sum(full[r - 1] for r in ranks) / sum(full))
                     for name, ranks in count.side_counts.items())
    return BlackjackCounter(rules, strategy, count, cut_card, seed, chart, plays,
                            moment_every, full, one_round, seats, boxes, box_ramp, side,
                            procedure, sidebets, triggers, SplitTables(full),
                            deck_estimation, float(play_errors))


def _check_boxes(rules: BlackjackRules, strategy: str, boxes: int, shoe: Shoe | None,
                 cut_card: int) -> None:
    """InputError unless the player's ``boxes`` can be valued exactly in every round: no
    round of them can empty the shoe at the cut card (the shoe there is some of the full
    shoe's cards: :func:`strategy_calc.blackjack.boxes.most_cards_dealt` of the full shoe bounds
    them, with the two cards ``burn_before_dealer_cards`` burns), one play per start (not
    optimal play's suit cases) and no even money."""
    check_boxes(boxes)
    if rules.max_split_hands > 2:
        raise InputError("--boxes values one split per box (max_split_hands=2)")
    if strategy == "optimal" and rules.suited_678()[0] > 0:
        raise InputError("--boxes with --strategy optimal: not with the suited 6-7-8 bonus"
                         " (the play of a 6-7, 6-8 or 7-8 start depends on its suits)")
    if rules.even_money and rules.blackjack_pays < 1.5:
        raise InputError("--boxes: not with even money worth taking (blackjack pays"
                         f" {rules.blackjack_pays:g})")
    full = shoe.counts if shoe is not None else Shoe.full(rules.finite_decks("count")).counts
    need = most_cards_dealt(full, max(boxes, 2)) + 2 * rules.burn_before_dealer_cards
    if need > cut_card + 1:
        raise InputError(f"--boxes {boxes}: a round could take up to {need} cards, more than"
                         f" the {cut_card + 1} a round can start from at the cut card; deal"
                         " fewer boxes or less of the shoe")
