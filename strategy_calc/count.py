"""Card counting over dealt shoes, every round's expectation exact.

A plain simulator plays each round out and averages the results: its error
is the play-out variance of a round (SD about 1.15 units in blackjack), so a
win rate to +-0.01% takes about 1e9 rounds. Here the shoes are dealt at
random (seeded), but before each round the *exact* EV of every bet for the
cards still unseen is computed by the engine and averaged instead. The only
sampling error left is that of the compositions the shoe passes through,
which is far smaller, so 1e3 - 1e5 rounds give the same precision.

*Seeded*: shoe ``i`` of a run with seed ``s`` is shuffled by
``random.Random(f"{s}/{i}")`` whatever worker deals it, so a run's figures do
not depend on ``--jobs`` or the executor.

*Standard errors* are of means over shoes (the rounds of one shoe are
correlated, the shoes are independent): a ratio over shoes uses the delta
method, ``se(sum x / sum n) = sd(x_i - r n_i) / (mean n sqrt(shoes))``.

Baccarat (:func:`baccarat_count`): a whole shoe is dealt per the house
procedure (the first card is shown and as many cards as its value are burnt,
unseen; tens and faces count 10), and hands are dealt while more than
``cut_card`` cards are left. Before each hand the bettor knows every card
shown so far; the burnt cards count as unseen. The EV of each bet for the
unseen cards is exact (:func:`strategy_calc.baccarat.analyse_counts`), and
equals the EV for the physical shoe averaged over what the burnt cards were.

>>> from strategy_calc.rules import baccarat_rules
>>> result = baccarat_count(baccarat_rules("macau-baccarat", decks=1), shoes=2, seed=1)
>>> result.shoes, result.hands > 10
(2, True)
"""

from __future__ import annotations

import array
import contextlib
import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.baccarat import BETS, POINTS, RANKS, analyse, analyse_counts
from strategy_calc.baccarat import effects_of_removal as baccarat_eor
from strategy_calc.cards import SUITS, Card, FaceShoe, Rank, Shoe, parse_cards
from strategy_calc.chart import Chart
from strategy_calc.counting import ILLUSTRIOUS_18, CountSystem, count_index, find_count
from strategy_calc.distributions import (
    SplitTables,
    add_deal_distribution,
    check_distribution_rules,
    optimal_codes,
    split_cross_sums,
    split_moments,
)
from strategy_calc.engine import (
    COL_DOUBLE,
    COL_NO_BLACKJACK,
    COL_POLICY_HIT,
    COL_STAND,
    COL_WEIGHT,
    HIST_OFFSET,
    HIST_SIZE,
    node_table,
)
from strategy_calc.game import (
    HANDS,
    UP_ORDER,
    DealValues,
    GamePass,
    add_split_values,
    chart_codes,
    chart_play_rows,
    hand_nodes,
    memo_hints,
    node_id,
    row_total,
    split_round_values,
    surrender_value,
    whole_game_pass,
)
from strategy_calc.hands import split_hand_params
from strategy_calc.parallel import run_all
from strategy_calc.rules import BaccaratRules, BlackjackRules
from strategy_calc.strategy import analyse_game

Progress = Callable[[int, int], None] | None


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure estimated from the dealt shoes and its standard error (same units)."""

    value: float
    se: float


def mean_estimate(values: Sequence[float]) -> Estimate:
    """The mean of independent values and its standard error (``sd / sqrt(n)``, ``n - 1``).

    >>> mean_estimate([1.0, 2.0, 3.0])
    Estimate(value=2.0, se=0.5773502691896257)
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, math.nan)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, math.sqrt(var / n))


def ratio_estimate(sums: Sequence[float], counts: Sequence[float]) -> Estimate:
    """``sum(sums) / sum(counts)`` over independent shoes and its delta-method standard error.

    >>> ratio_estimate([2.0, 4.0], [1.0, 2.0])  # both shoes have ratio 2: no spread
    Estimate(value=2.0, se=0.0)
    """
    total = math.fsum(counts)
    if total <= 0:
        raise ValueError("nothing to average")
    ratio = math.fsum(sums) / total
    n = len(sums)
    if n == 1:
        return Estimate(ratio, math.nan)
    mean_n = total / n
    resid = [s - ratio * c for s, c in zip(sums, counts, strict=True)]
    var = math.fsum(r * r for r in resid) / (n - 1)
    return Estimate(ratio, math.sqrt(var / n) / mean_n)


def sd_estimate(second: Sequence[float], sampled: Sequence[float], first: Sequence[float],
                counts: Sequence[float]) -> Estimate:
    """SD = sqrt(m2 - m1^2) of a round's result and its delta-method standard error over
    independent shoes: per shoe ``i``, ``second[i]`` sums E[X^2] over its ``sampled[i]``
    rounds with a second moment, ``first[i]`` sums E[X] over all its ``counts[i]``.

    m2 = sum(second) / sum(sampled) and m1 = sum(first) / sum(counts), ratio estimates;
    SD^2 = m2 - m1^2 moves, to first order, by the mean over shoes of psi_i =
    (second_i - m2 sampled_i) / mean(sampled) - 2 m1 (first_i - m1 counts_i) / mean(counts),
    so Var(SD^2) = sum psi_i^2 / (n (n - 1)) and se(SD) = se(SD^2) / (2 SD).

    >>> sd_estimate([4.0, 4.0], [1.0, 1.0], [0.0, 0.0], [1.0, 1.0])  # every shoe alike
    Estimate(value=2.0, se=0.0)
    """
    n = len(second)
    m2 = math.fsum(second) / math.fsum(sampled)
    m1 = math.fsum(first) / math.fsum(counts)
    var = m2 - m1 * m1
    sd = math.sqrt(max(var, 0.0))
    if n < 2 or sd == 0.0:
        return Estimate(sd, math.nan)
    k_bar, c_bar = math.fsum(sampled) / n, math.fsum(counts) / n
    psi = [(a - m2 * k) / k_bar - 2.0 * m1 * (b - m1 * c) / c_bar
           for a, k, b, c in zip(second, sampled, first, counts, strict=True)]
    return Estimate(sd, math.sqrt(math.fsum(x * x for x in psi) / (n * (n - 1))) / (2.0 * sd))


def shoe_rng(seed: int, index: int) -> random.Random:
    """The random source of shoe ``index`` of a run seeded with ``seed``."""
    return random.Random(f"{seed}/{index}")


def batches(n: int, size: int) -> list[range]:
    """Shoe indices ``0 .. n-1`` in consecutive batches of at most ``size``.

    >>> batches(5, 2)
    [range(0, 2), range(2, 4), range(4, 5)]
    """
    return [range(i, min(i + size, n)) for i in range(0, n, size)]


# -- baccarat ---------------------------------------------------------------------------------

BACCARAT_CUT_CARD = 14
"""Default: hands are dealt while more than this many cards are left (the cut card)."""


def baccarat_deal(cards: Sequence[int], pos: int) -> tuple[int, int, int]:
    """Deal one baccarat hand from ``cards`` (indices of :data:`RANKS`) starting at ``pos``.

    Returns ``(next position, player point, banker point)``. Player and Banker
    take two cards each, alternately, Player first; the third-card tableau of
    the rules follows (naturals 8/9 stand both; Player draws on 0-5; Banker
    by its point and the Player's third card).

    >>> A, FIVE, NINE, TEN = 0, 4, 8, 9
    >>> baccarat_deal([NINE, TEN, TEN, TEN], 0)  # a natural 9: nobody draws
    (4, 9, 0)
    >>> baccarat_deal([TEN, TEN, TEN, FIVE, A, A], 0)  # Player 0 draws an A; Banker 5 stands on a 1
    (5, 1, 5)
    """
    p = POINTS[cards[pos]] + POINTS[cards[pos + 2]]
    b = POINTS[cards[pos + 1]] + POINTS[cards[pos + 3]]
    p, b, pos = p % 10, b % 10, pos + 4
    if p >= 8 or b >= 8:
        return pos, p, b
    third = -1
    if p <= 5:
        third = POINTS[cards[pos]]
        p, pos = (p + third) % 10, pos + 1
    if third < 0:
        draws = b <= 5
    else:
        draws = (b <= 2 or (b == 3 and third != 8) or (b == 4 and 2 <= third <= 7)
                 or (b == 5 and 4 <= third <= 7) or (b == 6 and 6 <= third <= 7))
    if draws:
        b, pos = (b + POINTS[cards[pos]]) % 10, pos + 1
    return pos, p, b


@dataclass(frozen=True, slots=True)
class BaccaratShoe:
    """What one dealt baccarat shoe contributed, per bet of :data:`BETS` (same order).

    ``win`` and ``linear_win`` are sums of exact EVs (units of one bet) over the
    hands bet on: every hand with positive EV, and every hand the linear count
    estimates positive.
    """

    hands: int
    positive: tuple[int, ...]
    positive_ev: tuple[float, ...]
    win: tuple[float, ...]
    linear_win: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class BaccaratCounter:
    """A picklable job: the rules, the cut card and the linear count of every bet."""

    rules: BaccaratRules
    cut_card: int
    seed: int
    ev_top: tuple[float, ...]
    """Each bet's EV off the top of a full shoe."""
    slopes: tuple[tuple[float, ...], ...]
    """Per bet, per rank: the change in EV per unit change of the rank's share of the
    unseen cards (``-(N - 1)`` times its effect of removal; see :func:`linear_counter`)."""

    def estimate(self, counts: Sequence[int]) -> list[float]:
        """Each bet's EV for the unseen ``counts`` by the linear count."""
        full = FaceShoe.full(self.rules.decks).face_counts
        n, n0 = sum(counts), sum(full)
        shift = [c / n - f / n0 for c, f in zip(counts, full, strict=True)]
        return [top + math.fsum(s * d for s, d in zip(slope, shift, strict=True))
                for top, slope in zip(self.ev_top, self.slopes, strict=True)]

    def play(self, indices: Sequence[int]) -> list[BaccaratShoe]:
        """Deal the shoes ``indices`` of the run."""
        return [self.play_one(i) for i in indices]

    def play_one(self, index: int) -> BaccaratShoe:
        """Deal shoe ``index``: every hand until the cut card, each bet's exact EV first."""
        decks = self.rules.decks
        cards = [r for r in range(len(RANKS)) for _ in range(4 * decks)]
        shoe_rng(self.seed, index).shuffle(cards)
        known = list(FaceShoe.full(decks).face_counts)
        first = cards[0]
        known[first] -= 1
        pos = 1 + (POINTS[first] or 10)  # the burn: unseen cards
        k = len(BETS)
        hands, positive = 0, [0] * k
        positive_ev, win, linear_win = [0.0] * k, [0.0] * k, [0.0] * k
        while len(cards) - pos > max(self.cut_card, 5):
            ev = analyse_counts(self.rules, known).ev
            guess = self.estimate(known)
            for j, bet in enumerate(BETS):
                if ev[bet] > 0:
                    positive[j] += 1
                    positive_ev[j] += ev[bet]
                    win[j] += ev[bet]
                if guess[j] > 0:
                    linear_win[j] += ev[bet]
            start = pos
            pos, _p, _b = baccarat_deal(cards, pos)
            for card in cards[start:pos]:
                known[card] -= 1
            hands += 1
        return BaccaratShoe(hands, tuple(positive), tuple(positive_ev), tuple(win),
                            tuple(linear_win))


def linear_counter(rules: BaccaratRules, cut_card: int, seed: int) -> BaccaratCounter:
    """The counter of a run: the exact EVs off the top and the linear count of each bet.

    *Linear count*: write the EV as linear in the unseen shares ``p_i`` of
    the ranks, ``EV ~ EV_0 + sum_i b_i (p_i - p0_i)``. Removing one card of
    rank ``i`` from the full shoe (``N`` cards) moves ``p_i`` by
    ``(p0_i - 1)/(N - 1)`` and every other ``p_j`` by ``p0_j/(N - 1)``, so its
    effect of removal is ``E_i = (sum_j b_j p0_j - b_i)/(N - 1)``; fixing the
    free constant by ``sum_j b_j p0_j = 0`` gives ``b_i = -(N - 1) E_i``.
    """
    top = analyse(rules)
    eor = baccarat_eor(top)
    n = top.cards_left
    slopes = []
    for bet in BETS:
        row = []
        for rank in RANKS:
            effect = eor[rank]
            row.append(-(n - 1) * float(effect[bet]) if effect is not None else 0.0)
        slopes.append(tuple(row))
    ev = top.ev
    return BaccaratCounter(rules, cut_card, seed, tuple(ev[b] for b in BETS), tuple(slopes))


@dataclass(frozen=True, slots=True)
class BetCount:
    """One bet over the dealt shoes: per unit bet, per hand or per shoe as named."""

    ev_off_the_top: float
    positive_share: float
    """Share of the hands dealt on which the bet's exact EV is positive."""
    mean_edge_when_positive: float | None
    """Mean exact EV of the bet over those hands (None if there were none)."""
    win_per_shoe: Estimate
    """Mean per shoe of the exact EVs of the hands with positive EV: the win of a
    player who bets one unit exactly then (the perfect-information ceiling)."""
    linear_count_win_per_shoe: Estimate
    """The same for a player who bets when the linear count says the EV is positive."""


@dataclass(frozen=True, slots=True)
class BaccaratCount:
    """The result of :func:`baccarat_count`."""

    rules: BaccaratRules
    shoes: int
    seed: int
    cut_card: int
    hands: int
    bets: dict[str, BetCount]


def baccarat_count(
    rules: BaccaratRules, shoes: int = 100, seed: int = 1, cut_card: int = BACCARAT_CUT_CARD,
    bets: Sequence[str] = BETS, pool: Executor | None = None, progress: Progress = None,
    batch: int = 10,
) -> BaccaratCount:
    """Deal ``shoes`` shoes and report each of ``bets`` (see the module docstring).

    ``pool``: the executor the batches of shoes run on (default: this thread).
    The player may change bets before every hand; for the main bets this is
    the Macau rule that a bet may be changed after a tie, which otherwise
    stands.
    """
    if shoes < 1:
        raise ValueError(f"--shoes must be at least 1, not {shoes}")
    if cut_card < 0:
        raise ValueError(f"--cut-card must be 0 or more, not {cut_card}")
    unknown = [b for b in bets if b not in BETS]
    if unknown or not bets or any(not b for b in bets):
        raise ValueError(f"unknown bet {', '.join(unknown) or '(none)'}: choose from "
                         f"{', '.join(BETS)}")
    if 52 * rules.decks - 11 <= max(cut_card, 5):
        raise ValueError(f"--cut-card {cut_card} leaves no hand to deal from "
                         f"{rules.decks} deck(s)")
    counter = linear_counter(rules, cut_card, seed)
    parts = batches(shoes, batch)
    if pool is None:
        done: list[list[BaccaratShoe]] = []
        for part in parts:
            done.append(counter.play(part))
            if progress is not None:
                progress(len(done), len(parts))
    else:
        done = run_all(pool, counter.play, parts, progress)
    played = [s for part in done for s in part]
    hands = sum(s.hands for s in played)
    out: dict[str, BetCount] = {}
    for j, bet in enumerate(BETS):
        if bet not in bets:
            continue
        positive = sum(s.positive[j] for s in played)
        out[bet] = BetCount(
            ev_off_the_top=counter.ev_top[j],
            positive_share=positive / hands,
            mean_edge_when_positive=(math.fsum(s.positive_ev[j] for s in played) / positive
                                     if positive else None),
            win_per_shoe=mean_estimate([s.win[j] for s in played]),
            linear_count_win_per_shoe=mean_estimate([s.linear_win[j] for s in played]),
        )
    return BaccaratCount(rules, shoes, seed, cut_card, hands, out)


# -- blackjack --------------------------------------------------------------------------------

BLACKJACK_STRATEGIES = ("basic", "basic+indices", "optimal")
"""``basic``: the ruleset's chart off the top (two-card decisions by the chart, later ones
by its total-dependent play, split hands by the chart); ``basic+indices``: the same,
with the computed count indices of the Illustrious 18 (and insurance in peek games)
applied at the true count before the deal; ``optimal``: composition-dependent optimal
play for the cards unseen before the round."""

PENETRATION = 0.75
"""Default: a new shoe once this share of the cards has been dealt (the cut card)."""

MIN_BEHIND_CUT = 20
"""A shoe deals a round only while more than this many cards are left, at least."""

MOMENT_EVERY = 25
"""Default: the exact second moment on one round in 25 (a systematic sample)."""


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

    def __str__(self) -> str:
        return ",".join(f"{t}:{u:g}" for t, u in self.steps)


def parse_spread(text: str) -> Spread:
    """A ramp from ``"TC:UNITS,..."`` (integer true counts, positive units).

    >>> parse_spread("2:4,1:1").steps
    ((1, 1.0), (2, 4.0))
    >>> parse_spread("1:0")
    Traceback (most recent call last):
    ...
    ValueError: --spread: 1:0: a bet must be a positive number of units (at most 1e6)
    """
    steps: dict[int, float] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        head, sep, tail = part.partition(":")
        try:
            count, units = int(head), float(tail)
        except ValueError:
            raise ValueError(f"--spread: {part!r} is not TC:UNITS (e.g. 1:1,2:2,3:4)"
                             ) from None
        if not sep or not math.isfinite(units) or not 0 < units <= 1e6:
            raise ValueError(f"--spread: {part}: a bet must be a positive number of units"
                             " (at most 1e6)")
        if count in steps:
            raise ValueError(f"--spread: true count {count} given twice")
        steps[count] = units
    if not steps:
        raise ValueError("--spread: give at least one TC:UNITS step")
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
class RoundPlan:
    """One round's exact figures for the cards unseen before it, and how it is played.

    ``ev``: EV per unit initial bet of the round (dealer blackjacks included);
    ``second_moment``: E[net result^2], units^2. ``actions``: the first decision
    per (up, low card, high card); ``codes``: per up card, the engine's node
    codes for later decisions (2 hit, 4 stand; split hands' two-card nodes
    may add 1, double); the action key's last item: a 6-7, 6-8 or 7-8 start whose
    two cards share a suit (its suited 6-7-8 chance is positive); ``insure``: the
    up cards against which insurance is taken.
    """

    ev: float
    second_moment: float | None
    actions: dict[tuple[int, int, int, bool], Action]
    codes: dict[int, bytes]
    insure: frozenset[int]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One dealt round: the true count before the deal and its exact moments."""

    tc: float
    ev: float
    second_moment: float | None
    """None on rounds whose second moment was not computed (see ``moment_every``)."""


@dataclass(frozen=True, slots=True)
class BlackjackCounter:
    """A picklable job: the rules, the strategy, the count and the cut card of a run."""

    rules: BlackjackRules
    strategy: str
    system: CountSystem
    cut_card: int
    """Rounds are dealt while more than this many cards are left."""
    seed: int
    chart: Chart
    policies: dict[Rank, bytes]
    """The chart's total-dependent hit/stand play off the top, per up card."""
    plays: tuple[IndexPlay, ...] = ()
    moment_every: int = 1
    """The second moment is computed on round ``j`` of shoe ``i`` when ``(i + j) %
    moment_every == 0``: a systematic sample over every depth of the shoe."""
    full: tuple[int, ...] = ()
    """Rank counts (ace first) of the shoe every deal starts from (default: full decks)."""
    _chart_actions: dict[tuple[int, tuple[int, int]], Action] = field(
        init=False, repr=False, compare=False)
    """The chart's action per (up card, two-card start): fixed for the run."""
    _split_codes: dict[Rank, array.array[int]] = field(init=False, repr=False, compare=False)
    """Per up card, the engine codes split hands play under the chart (the policies are
    fixed, so they are the same every round: :func:`strategy_calc.game.chart_codes`)."""
    _memo_hints: array.array[int] | None = field(default=None, init=False, repr=False,
                                                 compare=False)
    """Per player node, the up cards a round wants its dealer distributions against: made
    on first use from the start of the shoe (:func:`strategy_calc.game.memo_hints`)."""
    _split_tables: SplitTables = field(init=False, repr=False, compare=False)
    """The split rounds' moment tables, made on first use (they hold for every shoe of the
    run: :class:`strategy_calc.distributions.SplitTables`)."""
    _chart_wants: dict[Rank, bytes] | None = field(init=False, repr=False, compare=False)
    """With the chart alone (no index plays), per up card the engine rows that value its
    first plays only (:func:`strategy_calc.game.chart_play_rows`); else None."""
    _chart_cases: dict[Rank, tuple[tuple[tuple[int, int], int, int, Action | None], ...]] \
        = field(init=False, repr=False, compare=False)
    """With the chart alone, per up card every start's (cards, engine node, total, the
    chart's play or None where it has no cell), in the order of the pass's deals."""
    _chart_splits: dict[Rank, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    """With the chart alone, per up card the pair ranks it splits (ascending)."""
    _split_params: dict[int, engine.EngineParams] = field(init=False, repr=False,
                                                          compare=False)
    """Per pair rank, its split hands' engine parameters, made on first use by a round
    without the suited bonus (then they do not depend on the shoe)."""
    _top_plans: dict[bool, RoundPlan] = field(init=False, repr=False, compare=False)
    """The plan of a shoe's first round (the same shoe, true count 0, for every shoe of
    the run), keyed by whether it has the second moment; filled on first use."""

    def __post_init__(self) -> None:
        actions, codes = {}, {}
        if self.strategy != "optimal":
            for up in UP_ORDER:
                for hand in HANDS:
                    with contextlib.suppress(KeyError):  # no cell: its shoe cannot deal it
                        actions[(int(up), hand)] = self.chart.code(hand, up).action
            codes = {up: chart_codes(self.policies[up], self.chart.split_hand_bits(up))
                     for up in UP_ORDER if up in self.policies}
        object.__setattr__(self, "_chart_actions", actions)
        object.__setattr__(self, "_split_codes", codes)
        wants = None
        if self.strategy != "optimal" and not self.plays:  # each first play is the chart's
            wants = {up: chart_play_rows({hand: a for (u, hand), a in actions.items()
                                          if u == int(up)}) for up in UP_ORDER}
        object.__setattr__(self, "_chart_wants", wants)
        object.__setattr__(self, "_chart_cases", {} if wants is None else {
            up: tuple((hand, node, row_total(hand), actions.get((int(up), hand)))
                      for hand, node in hand_nodes()) for up in UP_ORDER})
        object.__setattr__(self, "_split_params", {})
        object.__setattr__(self, "_top_plans", {})
        object.__setattr__(self, "_chart_splits", {} if wants is None else {
            up: tuple(p for p in range(1, 11) if actions.get((int(up), (p, p))) is Action.SPLIT)
            for up in UP_ORDER})
        object.__setattr__(self, "_split_tables", SplitTables(self.start().counts))

    def start(self) -> Shoe:
        """The shoe before the first card."""
        if not self.full:
            return Shoe.full(self.rules.decks)
        return Shoe.from_counts(self.full, self.rules.decks)

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

    def _chart_action(self, hand: tuple[int, int], up: Rank) -> Action:
        """The chart's initial play."""
        return self._chart_actions.get((int(up), hand)) or self.chart.code(hand, up).action

    def _hints(self) -> array.array[int]:
        """:attr:`_memo_hints`, made on first use (a dry run of a round off the top, its
        splits the chart's and those an index play may take)."""
        if self._memo_hints is None:
            splits = {up: (codes, {p for p in range(1, 11)
                                   if self._chart_actions.get((int(up), (p, p))) is Action.SPLIT
                                   or any(play.applies((p, p), int(up))
                                          and Action.SPLIT.value in play.actions
                                          for play in self.plays)})
                      for up, codes in self._split_codes.items()}
            object.__setattr__(self, "_memo_hints",
                               memo_hints(self.rules, self.start(), self.policies, splits,
                                          self._chart_wants))
        assert self._memo_hints is not None
        return self._memo_hints

    def _insures(self, up: Rank, tc: float) -> bool:
        if not (self.rules.insurance and up is Rank.ACE):
            return False
        return any(p.total is None and p.pair is None and p.up == 1 and
                   p.play(tc) == "insurance" for p in self.plays)

    def plan(self, shoe: Shoe, tc: float = 0.0, moments: bool = True) -> RoundPlan:
        """The exact EV of a round from ``shoe``, and its second moment if ``moments``.

        See :class:`RoundPlan`; ``tc``: the true count the index plays and the
        insurance decision look at. Without ``moments`` the second moment is
        None and the (slow) joint enumeration of split rounds is skipped.
        """
        import numpy as np

        rules = self.rules
        optimal = self.strategy == "optimal"
        fixed = not optimal and not self.plays
        memo = None if optimal else engine.dealer_memo(shoe, rules.dealer_hits_soft_17,
                                                       hints=self._hints())
        quick = fixed and not moments and rules.bonus_suited_678 <= 0
        game = whole_game_pass(rules, shoe, policies=None if optimal else self.policies,
                               partial=True, chart_only=not optimal, memo=memo,
                               wants=self._chart_wants, deals=not quick)
        if quick:
            return self._chart_round(game)
        hist = np.zeros(HIST_SIZE) if moments else None
        extra = 0.0  # second moments of split rounds taken without their distribution
        exact: dict[float, float] = {}  # naturals' results, keyed exactly
        ev = 0.0
        actions: dict[tuple[int, int, int, bool], Action] = {}
        codes_by_up: dict[int, bytes] = {}
        insure: set[int] = set()
        bj = rules.blackjack_pays
        for up, ups in game.ups.items():
            codes = optimal_codes(ups.table) if optimal else self._split_codes[up]
            codes_by_up[int(up)] = codes.tobytes()
            # the splits the play can take (the chart's, and an index's at this count)
            # are valued first: the first action needs a split's value to choose it
            pairs: set[int] | None
            if fixed:  # the chart alone: each first play is the chart's, whatever the values
                pairs = {p for p in range(1, 11) if (p, p) in ups.deals
                         and self._chart_action((p, p), up) is Action.SPLIT}
            else:
                pairs = None if optimal else {
                    p for p in range(1, 11) if (p, p) in ups.deals
                    and Action.SPLIT in {self._first_action((p, p), up, case, tc, splits=True)
                                         for case in ups.deals[(p, p)]}}
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
                rules, up, ups.base, game.conditioning,
                {Rank(hand[0]) for (hand, _i), a in chosen.items() if a is Action.SPLIT}
                if not fixed else {Rank(p) for p in pairs or ()},
                memoryview(codes), self._split_tables)  # the split rounds' sums, made together
            for hand, cases in ups.deals.items():
                row = ups.rows[node_id(hand)]
                nb = row.no_blackjack
                p_bj = 1.0 - nb
                w_hand = ups.p_up * row.weight
                by_chart = self._chart_action(hand, up) if fixed else None
                if hand == (1, 10):  # always stood: paid unless the dealer has one too
                    results = ((bj - 0.5, nb), (1.0, p_bj)) if insured else ((bj, nb), (0.0, p_bj))
                    for x, p in results:
                        exact[x] = exact.get(x, 0.0) + w_hand * p
                        ev += w_hand * p * x
                    continue
                for i, case in enumerate(cases):
                    w = w_hand * case.probability
                    action = by_chart or chosen[(hand, i)]
                    actions.setdefault((int(up), *hand, case.q678 > 0), action)
                    value = case.value(action) if optimal else case.chart_value(action)
                    assert value is not None and not math.isnan(value)
                    if insured:
                        value += 0.5 * (3.0 * p_bj - 1.0)
                    ev += w * value
                    if hist is None:
                        continue
                    if action is Action.SPLIT:  # its moments without its distribution
                        got = split_moments(rules, Rank(hand[0]), up, ups.base,
                                            game.conditioning,
                                            None if optimal else memoryview(codes),
                                            self._split_tables, cross.get(Rank(hand[0])))
                        if got is not None:
                            extra += w * _split_second_moment(got, rules.peek, insured, nb)
                            continue
                    part = np.zeros(HIST_SIZE)
                    # no hole card: the insurance settles on the outcomes with a blackjack
                    with_bj = np.zeros(HIST_SIZE) if insured and not rules.peek else None
                    add_deal_distribution(part, 1.0, rules, hand, up, ups.base,
                                          game.conditioning, action.value, case.q678, nb,
                                          codes, game.memo, optimal, bj_hist=with_bj)
                    if with_bj is not None:  # the insurance: +1 on a blackjack, else -0.5
                        part = np.roll(part, -50) + np.roll(with_bj, 100)
                    elif insured:  # peek: a dealer blackjack ends the round, the insurance wins 1
                        lost = (-0.5 if action is Action.SURRENDER
                                and not rules.surrender_loses_to_blackjack else -1.0)
                        at = HIST_OFFSET + round(100 * lost)
                        part[at] -= p_bj
                        part = np.roll(part, -50)
                        part[at + 100] += p_bj
                    hist += w * part
        second = None
        if hist is not None:
            xs = (np.arange(HIST_SIZE) - HIST_OFFSET) / 100.0
            second = (float(np.dot(hist, xs * xs)) + extra
                      + math.fsum(x * x * p for x, p in exact.items()))
        return RoundPlan(ev, second, actions, codes_by_up, frozenset(insure))

    def _chart_round(self, game: GamePass) -> RoundPlan:
        """:meth:`plan` of a round without its second moment, every first play the chart's
        (no index plays) and no suit case (no suited 6-7-8 bonus): the EV read straight off
        the pass's table (``game``: made with ``deals=False``).

        The same sums in the same order as :meth:`plan` over
        :func:`~strategy_calc.game.deal_values`' records, each value the same expression of
        the same doubles of the table (a start has one case, of probability 1.0, and
        ``w * 1.0`` is ``w``; the blackjack adjustment is
        :meth:`~strategy_calc.engine.Conditioning.blackjack_adjustment`'s), so the same
        EV; but no record is made (a round of the general path makes some 550). (The
        natural is settled without reading its chart cell, which the general path looks up
        first; a chart of :func:`blackjack_counter` has every cell.)
        """
        rules = self.rules
        bj, conditioning = rules.blackjack_pays, game.conditioning
        ev = 0.0
        actions: dict[tuple[int, int, int, bool], Action] = {}
        codes_by_up: dict[int, bytes] = {}
        for up, ups in game.ups.items():
            codes = self._split_codes[up]
            codes_by_up[int(up)] = codes.tobytes()
            values, p_up = ups.table.values, ups.p_up  # 8 doubles a node: PASS_COLUMNS
            splits: dict[int, float] = {}
            for p in self._chart_splits[up]:
                if ups.rows[node_id((p, p))].weight > 0:
                    params = self._split_params.get(p)
                    if params is None:
                        params = self._split_params[p] = split_hand_params(
                            rules, ups.base, [Card(Rank(p))] * 2, game.conditioning)
                    got = split_round_values(game, ups, codes, p, 2, lazy=True, params=params)
                    if got is not None:
                        splits[p] = got[1]
            may_surrender = rules.may_surrender(int(up))
            for hand, node, total, action in self._chart_cases[up]:
                at = 8 * node
                weight = values[at + COL_WEIGHT]
                if not weight > 0:  # (NaN: the shoe cannot deal it)
                    continue
                nb = values[at + COL_NO_BLACKJACK]
                w_hand = p_up * weight
                if hand == (1, 10):  # always stood: paid unless the dealer has one too
                    for x, p_x in ((bj, nb), (0.0, 1.0 - nb)):
                        ev += w_hand * p_x * x
                    continue
                if action is None:  # no cell (a chart of blackjack_counter has them all)
                    action = self._chart_action(hand, up)  # raises, as plan does
                actions[(int(up), *hand, False)] = action
                adj = conditioning.blackjack_adjustment(nb)
                value: float | None = None
                if action is Action.STAND:
                    value = values[at + COL_STAND] + adj
                elif action is Action.HIT:
                    value = values[at + COL_POLICY_HIT] + adj if total < 21 else -math.inf
                elif action is Action.DOUBLE:
                    value = values[at + COL_DOUBLE] + adj if rules.may_double(total) else None
                elif action is Action.SPLIT:
                    value = splits.get(hand[0])
                elif action is Action.SURRENDER and may_surrender:
                    value = surrender_value(rules, nb)
                assert value is not None and not math.isnan(value)
                ev += w_hand * value
        return RoundPlan(ev, None, actions, codes_by_up, frozenset())

    def play(self, indices: Sequence[int]) -> list[tuple[RoundRecord, ...]]:
        """Deal the shoes ``indices`` of the run."""
        return [self.play_one(i) for i in indices]

    def play_one(self, index: int) -> tuple[RoundRecord, ...]:
        """Deal shoe ``index``: each round's exact moments, then its cards played out."""
        rules = self.rules
        counts = list(self.start().counts)
        cards = [Card(rank, SUITS[k % 4]) for rank in Rank for k in range(counts[rank - 1])]
        shoe_rng(self.seed, index).shuffle(cards)
        running, pos = 0, 0
        rounds: list[RoundRecord] = []
        while len(cards) - pos > self.cut_card:
            unseen = len(cards) - pos
            tc = running * 52 / unseen
            moments = (len(rounds) + index) % self.moment_every == 0
            shoe = Shoe.from_counts(counts, rules.decks)
            plan = self._top_plans.get(moments) if pos == 0 else None
            if plan is None:
                plan = self.plan(shoe, tc, moments)
                if pos == 0:  # every shoe starts from one composition: plan it once
                    self._top_plans[moments] = plan
            rounds.append(RoundRecord(tc, plan.ev, plan.second_moment))
            start = pos
            try:
                pos = self._deal(cards, pos, plan, shoe)
            except IndexError:  # the shoe ran out mid-round: it is the last
                break
            for card in cards[start:pos]:
                counts[card.rank - 1] -= 1
                running += self.system.tag(card.rank)
        return tuple(rounds)

    def _deal(self, cards: Sequence[Card], pos: int, plan: RoundPlan,
              shoe: Shoe | None = None) -> int:
        """Play one round from ``cards[pos:]`` as the plan says; the next position.

        Casino order: player, up card, player; the dealer's second card now in
        a peek game (checked) and in a single-deck no-hole-card game (not
        checked), else after the player has finished, and only if a hand is
        left to settle (or the player's blackjack faces an ace or a ten). A
        bust, surrendered or bonus-paid hand (7-7-7, suited 6-7-8) is settled.
        ``shoe``: the cards unseen before the round (``optimal``: split hands play
        their own best decisions for it, :func:`strategy_calc.engine.split_play`).
        """
        rules = self.rules
        p1, up, p2 = (int(cards[pos + i].rank) for i in range(3))
        first_suited = cards[pos].suit == cards[pos + 2].suit
        pos += 3
        hole = -1
        if rules.peek or rules.decks == 1:
            hole = int(cards[pos].rank)
            pos += 1
        hand = (min(p1, p2), max(p1, p2))
        if rules.peek and {up, hole} == {1, 10}:
            return pos
        if hand == (1, 10):
            if hole < 0 and up in (1, 10):  # does the dealer's blackjack push it?
                pos += 1
            return pos
        action = plan.actions.get((up, *hand, first_suited)) or plan.actions.get(
            (up, *hand, False))
        codes = plan.codes[up]
        table = node_table()
        live = False

        def bonus_paid(held: list[Card], split: bool) -> bool:
            if len(held) != 3 or (split and not rules.bonus_on_split_hands):
                return False
            ranks = sorted(int(c.rank) for c in held)
            if ranks == [7, 7, 7]:
                return rules.bonus_777 > 0
            return (ranks == [6, 7, 8] and rules.bonus_suited_678 > 0
                    and len({c.suit for c in held}) == 1)

        def play_out(held: list[Card], split: bool,
                     own: tuple[bytes, bytes] | None = None) -> bool:
            """Play a hand on by the codes (``own``: a split hand's, see split_play); whether
            it is left for the dealer to settle."""
            nonlocal pos
            while True:
                ranks = [int(c.rank) for c in held]
                total = _best_total(ranks)
                if total > 21 or bonus_paid(held, split):
                    return False
                if total == 21:
                    return True
                code = codes[table.node(ranks)] if own is None else own[0][table.node(ranks)]
                if own is not None and len(held) == 2 and 6 <= ranks[1] <= 8:
                    # a split 6, 7 or 8 that drew another of them decides by its suits
                    # (its own pair card's suit: suit case 0)
                    by_suit = own[1][8 * (ranks[1] - 6) + (held[1].suit != held[0].suit)]
                    code = by_suit or code
                if (split and len(ranks) == 2 and code & 1
                        and rules.split_hands_may_double(p1 == 1) and rules.may_double(total)):
                    held.append(cards[pos])
                    pos += 1
                    return _best_total([int(c.rank) for c in held]) <= 21
                if not code & 2:
                    return True
                held.append(cards[pos])
                pos += 1

        start = [cards[pos - 3 - (hole >= 0)], cards[pos - 1 - (hole >= 0)]]
        if action is Action.SURRENDER:  # (an insurance bet still needs the dealer's card)
            return pos + (hole < 0 and up in plan.insure)
        if action is Action.DOUBLE:
            ranks = [p1, p2, int(cards[pos].rank)]
            pos += 1
            live = _best_total(ranks) <= 21
        elif action is Action.SPLIT:
            up_card = cards[pos - 2 - (hole >= 0)]
            for k in range(2):
                own = None
                if self.strategy == "optimal" and shoe is not None:
                    own = _split_play_of(rules, shoe, up_card, start[k], start[1 - k], k == 1)
                held = [start[k], cards[pos]]
                pos += 1
                if rules.split_aces_take_one_card(p1 == 1):
                    live = True
                    continue
                live = play_out(held, True, own) or live
        elif action is Action.STAND:
            live = True
        else:  # hit, then play on by the codes
            held = [*start, cards[pos]]
            pos += 1
            live = play_out(held, False)
        if not live and not (hole < 0 and up in plan.insure):
            return pos
        if hole < 0:  # (an insurance bet is settled on it even when no hand is left)
            hole = int(cards[pos].rank)
            pos += 1
        if not live:
            return pos
        if {up, hole} != {1, 10}:
            dealer = [up, hole]
            while _dealer_draws(dealer, rules.dealer_hits_soft_17):
                dealer.append(int(cards[pos].rank))
                pos += 1
        return pos


def _split_second_moment(moments: tuple[float, float, float], peek: bool, insured: bool,
                         no_bj: float) -> float:
    """E[X^2] of a split deal, from the raw moments of its split round
    (:func:`strategy_calc.distributions.split_moments`), insurance included.

    Peek: the raw moments hold the outcomes with no dealer blackjack, which takes the
    original bet (-1) with chance 1 - ``no_bj``; insured, that blackjack pays the
    insurance 1 (the round is 0) and every other outcome is 0.5 lower:
    E[(X - 1/2)^2 1{no blackjack}] = E[X^2 ...] - E[X ...] + no_bj / 4. No hole card:
    X + I with I = 1 on a blackjack, else -1/2: E[(X + I)^2] = E[X^2] + 2 E[X I] + E[I^2],
    E[X I] = 3/2 E[X 1{blackjack}] - 1/2 E[X], E[I^2] = 1/4 + 3/4 P(blackjack).
    """
    m1, m2, with_bj = moments
    p_bj = 1.0 - no_bj
    if peek:
        return m2 - m1 + 0.25 * no_bj if insured else m2 + p_bj
    return m2 + (3.0 * with_bj - m1 + 0.25 + 0.75 * p_bj if insured else 0.0)


def _split_play_of(rules: BlackjackRules, shoe: Shoe, up: Card, own: Card, other: Card,
                   second: bool = False) -> tuple[bytes, bytes]:
    """The decisions of the split hand started by ``own`` (``other``: the other pair card;
    ``second``: it plays after the first) against ``up``, for the cards unseen before the
    round: as the round's EV plays it."""
    base = shoe.remove([up])
    params = split_hand_params(rules, base, [own, other], engine.Conditioning.of(rules))
    return engine.split_play(base, own.rank, up.rank, params, None, second)


def _best_total(ranks: Sequence[int]) -> int:
    """Best total of a hand (an ace counts 11 when that does not pass 21)."""
    hard = sum(ranks)
    return hard + 10 if 1 in ranks and hard <= 11 else hard


def _dealer_draws(ranks: Sequence[int], h17: bool) -> bool:
    """Whether the dealer draws on ``ranks``: below 17, or on a soft 17 under H17."""
    hard = sum(ranks)
    soft = 1 in ranks and hard <= 11
    total = hard + 10 if soft else hard
    return total < 17 or (h17 and soft and total == 17)


def blackjack_counter(
    rules: BlackjackRules, strategy: str = "basic", system: str = "hilo",
    cut_card: int | None = None, seed: int = 1, penetration: float | None = None,
    moment_every: int = MOMENT_EVERY, shoe: Shoe | None = None,
) -> BlackjackCounter:
    """The counter of a run: the chart and its play off the top, and the index plays.

    ``cut_card``: rounds are dealt while more than this many cards are left;
    or ``penetration``: the share of the shoe dealt before the cut card
    (default :data:`PENETRATION`, less when that would leave fewer than
    :data:`MIN_BEHIND_CUT` cards, e.g. 1 deck). Either must leave at least
    :data:`MIN_BEHIND_CUT` cards behind the cut. ``shoe``: the shoe the chart
    is made for and every shoe is dealt from (default: ``rules.decks`` full decks).
    """
    if strategy not in BLACKJACK_STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}: choose from "
                         f"{', '.join(BLACKJACK_STRATEGIES)}")
    check_distribution_rules(rules)
    count = find_count(system)
    n = shoe.total if shoe is not None else 52 * rules.decks
    if cut_card is not None and penetration is not None:
        raise ValueError("give --penetration or --cut-card, not both")
    if cut_card is None:
        share = min(PENETRATION, 1 - MIN_BEHIND_CUT / n) if penetration is None else penetration
        if not 0 < share < 1:
            raise ValueError(f"--penetration must be between 0 and 1, not {share:g}")
        cut_card = n - round(share * n)
    low = min(MIN_BEHIND_CUT, n - 1)
    if not low <= cut_card < n:
        raise ValueError(f"the cut card must leave between {low} and {n - 1} cards of the"
                         f" {n}-card shoe behind it, not {cut_card}")
    if moment_every < 1:
        raise ValueError(f"--moment-every must be at least 1, not {moment_every}")
    game = analyse_game(rules, shoe=shoe)
    chart = Chart(dict(game.hard), dict(game.soft), dict(game.pairs))  # type: ignore[arg-type]
    top = whole_game_pass(rules, shoe)
    policies = {up: ups.policy.tobytes() for up, ups in top.ups.items()}
    plays = index_plays(rules, count) if strategy == "basic+indices" else ()
    full = shoe.counts if shoe is not None else Shoe.full(rules.decks).counts
    return BlackjackCounter(rules, strategy, count, cut_card, seed, chart, policies, plays,
                            moment_every, full)


@dataclass(frozen=True, slots=True)
class TrueCountRow:
    """Rounds dealt at one true count (floored): their share and mean exact EV."""

    tc: int
    frequency: float
    ev: float


@dataclass(frozen=True, slots=True)
class BlackjackCount:
    """The result of :func:`blackjack_count`; EVs per round in units of the initial bet.

    Definitions (Don Schlesinger, *Blackjack Attack*, 3rd ed., ch. 10; the bet
    ramp's win rate ``w`` and SD ``s`` per round, in units): ``n0 = (s/w)^2``,
    the rounds needed for the expected win to equal one SD; ``di = 1000 w/s``,
    the desirability index; ``score = di^2 = 10^6 (w/s)^2``, the win per 100
    rounds of a player with a bankroll of 10,000 units betting the ramp scaled
    to his optimal (Kelly) size; ``risk_of_ruin = exp(-2 w B / s^2)`` for a
    bankroll of ``B`` units (the diffusion approximation). Ramp figures are
    None without a spread.
    """

    counter: BlackjackCounter
    penetration: float
    rounds: int
    shoes: int
    spread: Spread | None
    bankroll: float | None
    ev_per_round: Estimate
    ev_off_the_top: float
    cut_card_effect: Estimate
    by_true_count: tuple[TrueCountRow, ...]
    sd_per_round: float | None
    """SD of a round's result under the ramp (flat bets without one), in units."""
    win_rate_per_round: Estimate | None
    n0: float | None
    score: float | None
    di: float | None
    risk_of_ruin: float | None
    moment_rounds: int
    """Rounds whose exact second moment was computed (the SD comes from them)."""
    sd_per_round_se: float | None = None
    """Standard error of :attr:`sd_per_round` over the shoes (:func:`sd_estimate`): the
    rounds are random, and their second moments a sample of them."""


def blackjack_count(
    counter: BlackjackCounter, rounds: int = 1000, spread: Spread | None = None,
    bankroll: float | None = None, pool: Executor | None = None, progress: Progress = None,
    batch: int = 4,
) -> BlackjackCount:
    """Deal shoes until ``rounds`` rounds; each round's EV (and sampled moments) exact.

    Shoes are dealt in index order, in batches of ``batch`` on ``pool``
    (default: this thread); the run keeps the fewest first whole shoes that hold
    ``rounds`` rounds (its ``rounds``: how many they hold), so its figures do not
    depend on the executor.
    """
    if rounds < 1:
        raise ValueError(f"--rounds must be at least 1, not {rounds}")
    if bankroll is not None and not (math.isfinite(bankroll) and bankroll > 0):
        raise ValueError(f"--bankroll must be a positive number of units, not {bankroll:g}")
    n = counter.start().total
    per_shoe = max(1.0, (n - counter.cut_card) / 5.5)  # a first guess: ~5.5 cards a round
    played: list[tuple[RoundRecord, ...]] = []
    have = 0
    while have < rounds:
        need = math.ceil((rounds - have) / per_shoe) + 1
        start = len(played)
        parts = batches(need, batch)
        parts = [range(start + p.start, start + p.stop) for p in parts]

        def tick(done: int, total: int, have: int = have, parts: list[range] = parts,
                 per_shoe: float = per_shoe) -> None:
            if progress is not None:
                got = min(rounds, have + round(done / total * sum(map(len, parts)) * per_shoe))
                progress(got, rounds)

        if pool is None:
            results = []
            for k, part in enumerate(parts):
                results.append(counter.play(part))
                tick(k + 1, len(parts))
        else:
            results = run_all(pool, counter.play, parts, tick)
        for result in results:
            played.extend(result)
        have = sum(len(s) for s in played)
        per_shoe = max(1.0, have / len(played))
    if progress is not None:
        progress(rounds, rounds)
    return summarise(counter, played, rounds, spread, bankroll)


def summarise(
    counter: BlackjackCounter, played: Sequence[tuple[RoundRecord, ...]], rounds: int,
    spread: Spread | None, bankroll: float | None,
) -> BlackjackCount:
    """The figures of the fewest first whole shoes of ``played`` holding ``rounds`` rounds.

    Whole shoes only: cutting the last one short would over-weight the top of a shoe
    (and so pull the cut-card effect towards 0).
    """
    shoes: list[tuple[RoundRecord, ...]] = []
    dealt = 0
    for shoe in played:
        if dealt >= rounds:
            break
        if shoe:
            shoes.append(shoe)
            dealt += len(shoe)
    if dealt < rounds:
        raise ValueError(f"only {dealt} rounds were dealt")
    rounds = dealt
    top = counter.plan(counter.start(), 0.0, moments=False).ev
    counts = [float(len(s)) for s in shoes]
    ev = ratio_estimate([math.fsum(r.ev for r in s) for s in shoes], counts)
    bins: dict[int, list[float]] = {}
    for shoe in shoes:
        for r in shoe:
            bins.setdefault(math.floor(r.tc), []).append(r.ev)
    table = tuple(TrueCountRow(tc, len(v) / rounds, math.fsum(v) / len(v))
                  for tc, v in sorted(bins.items()))

    def bet(r: RoundRecord) -> float:
        return spread.bet(r.tc) if spread is not None else 1.0

    sampled = [r for s in shoes for r in s if r.second_moment is not None]
    win = ratio_estimate([math.fsum(bet(r) * r.ev for r in s) for s in shoes], counts)
    sd = sd_se = None
    if sampled:
        sd_got = sd_estimate(
            [math.fsum(bet(r) ** 2 * r.second_moment for r in s
                       if r.second_moment is not None) for s in shoes],
            [float(sum(1 for r in s if r.second_moment is not None)) for s in shoes],
            [math.fsum(bet(r) * r.ev for r in s) for s in shoes], counts)
        sd, sd_se = sd_got.value, sd_got.se
    n0 = score = di = ror = None
    win_rate = None
    if spread is not None:
        win_rate = win
        if sd is not None and sd > 0:
            di = 1000 * win.value / sd
            if win.value > 0:  # a losing ramp has no SCORE and never reaches N0
                score = di * di
                n0 = (sd / win.value) ** 2
            if bankroll is not None:
                ror = (math.exp(-2 * win.value * bankroll / sd ** 2) if win.value > 0
                       else 1.0)
    n = counter.start().total
    return BlackjackCount(
        counter=counter, penetration=(n - counter.cut_card) / n, rounds=rounds,
        shoes=len(shoes), spread=spread, bankroll=bankroll, ev_per_round=ev,
        ev_off_the_top=top, cut_card_effect=Estimate(ev.value - top, ev.se),
        by_true_count=table, sd_per_round=sd, win_rate_per_round=win_rate, n0=n0,
        score=score, di=di, risk_of_ruin=ror, moment_rounds=len(sampled),
        sd_per_round_se=sd_se if sd_se is not None and math.isfinite(sd_se) else None)
