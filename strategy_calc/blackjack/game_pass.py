"""The whole-game pass: every initial deal's action values, off the top of a shoe.

One engine pass per up card values every player hand (3,083 card
compositions) against it, with one dealer memo for the whole game; from it
each initial deal (two player cards and the up card) gets a :class:`DealValues`
record. The chart (:mod:`strategy_calc.blackjack.chart`), the house edge
(:mod:`strategy_calc.blackjack.edge`) and the round distributions
(:mod:`strategy_calc.blackjack.distributions`) are sums over this table.

Scale: every value here is the EV per unit initial bet of the *whole round*
(dealer blackjacks included, insurance declined), whatever the conditioning
of the rules: peek games' engine values are turned into that by
:meth:`~strategy_calc.engine.Conditioning.round_value`.

Macau's suited 6-7-8 bonus: a two-card 6-7, 6-8 or 7-8 start is split into
exact suit cases (its suits and the up card's enumerated), each with its own
chance ``q678`` that the missing card completes a suited 6-7-8.
"""

from __future__ import annotations

import array
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.blackjack.bonus import bonus_rows, suited_bonus_chance
from strategy_calc.blackjack.deals import (
    HANDS,
    ID_678,
    ID_777,
    UP_ORDER,
    DealValues,
    insurance_value,
    start_values,
    suit_cases,
)
from strategy_calc.blackjack.hand_rules import hand_total
from strategy_calc.blackjack.split.plan import SplitPlan, split_plans
from strategy_calc.blackjack.split.values import (
    optimal_split_ev,
    postsplit_ev,
    pre_split_codes,
    split_values,
)
from strategy_calc.cards import SUITED_RANKS, Card, CardError, Rank, Shoe
from strategy_calc.engine import Conditioning, PassRow, UpCardPass
from strategy_calc.rules import BlackjackRules


@dataclass(slots=True)
class UpCardDeals:
    """Everything the game pass knows against one up card."""

    up: Rank
    p_up: float
    """Probability of this up card off the top."""
    base: Shoe
    """The shoe less the up card."""
    table: UpCardPass
    rows: dict[int, PassRow]
    """The rows read one by one (two- and three-card hands, the 6-7-8 node; only the
    pairs' from a pass made with ``deals=False``)."""
    suited_chance: float = 0.0
    """The chance a 6-7-8 made from this shoe is suited, suits unknown: the engine values
    (and so the total-dependent play) count the suited bonus with it."""
    deals: dict[tuple[int, int], list[DealValues]] = field(default_factory=dict)
    """Per two-card start the shoe can deal: its suit cases."""

    @property
    def policy(self) -> array.array[int]:
        """The total-dependent hit/stand policy (1 = hit), per node class."""
        return self.table.policy_classes

    def weight(self, hand: tuple[int, int]) -> float:
        """The probability of the two-card start ``hand`` as a draw from :attr:`base`."""
        return self.rows[node_id(hand)].weight

    def no_blackjack(self, hand: tuple[int, int]) -> float:
        """P(no dealer blackjack) with the start's cards gone."""
        return self.rows[node_id(hand)].no_blackjack


@dataclass(slots=True)
class GamePass:
    """The whole-game table: per up card, every initial deal's :class:`DealValues`."""

    rules: BlackjackRules
    shoe: Shoe
    conditioning: Conditioning
    memo: engine.DealerMemo
    """The dealer distributions of the whole pass (split tables and distributions reuse it)."""
    ups: dict[Rank, UpCardDeals]
    plans: Mapping[Rank, SplitPlan]
    """Every pair's split facts under the rules
    (:func:`~strategy_calc.blackjack.split.plan.split_plans`)."""


@lru_cache(maxsize=256)
def node_id(ranks: tuple[int, ...]) -> int:
    """Engine node of a multiset of ranks (1..10)."""
    return engine.node_table().node(ranks)


@lru_cache(maxsize=1)
def hand_nodes() -> tuple[tuple[tuple[int, int], int], ...]:
    """(start, node) of every two-card start, in :data:`HANDS` order."""
    return tuple((hand, node_id(hand)) for hand in HANDS)


@lru_cache(maxsize=1)
def three_card_nodes() -> tuple[tuple[tuple[int, ...], int], ...]:
    """(rank counts, node) of every three-card hand but the bonus hands 7-7-7 and 6-7-8."""
    return tuple((counts, node) for counts, node in engine.node_table().index.items()
                 if sum(counts) == 3 and counts not in (ID_777, ID_678))


@lru_cache(maxsize=1)
def _read_nodes() -> tuple[int, ...]:
    table = engine.node_table()
    two = [node for node, n in enumerate(table.ncards) if n == 2]
    return tuple(sorted({*two, table.index[ID_678], *(n for _c, n in three_card_nodes())}))


@lru_cache(maxsize=1)
def _chart_nodes() -> tuple[int, ...]:
    """The nodes a chart's play reads: every two-card start and the 6-7-8 node."""
    return tuple(sorted({*_two_card_nodes(), engine.node_table().index[ID_678]}))


@lru_cache(maxsize=1)
def _pair_nodes() -> tuple[int, ...]:
    """The nodes of the ten pairs."""
    return tuple(node_id((p, p)) for p in range(1, 11))


@lru_cache(maxsize=1)
def _chart_rows() -> bytes:
    """:func:`_chart_nodes` as the engine's per-node flags."""
    flags = bytearray(engine.node_table().n_nodes)
    for node in _chart_nodes():
        flags[node] = 1
    return bytes(flags)


def chart_play_rows(actions: Mapping[tuple[int, int], Action]) -> bytes:
    """:func:`whole_game_pass`'s ``wants`` against one up card for a chart's round: per
    two-card start, the value of ``actions[start]`` (its first play; a start left out
    is valued whole), and the 6-7-8 node whole (its suit cases read it).

    A play the chart does not take there costs nothing: standing needs the start's
    dealer distribution, hitting the ones of the totals the policy stands on, doubling
    those of the three-card hands; a split is valued on its own (:func:`add_split_values`)
    and a surrender needs none.

    >>> from strategy_calc.engine import ROW_PRESENT, ROW_STAND
    >>> flags = chart_play_rows({(10, 10): Action.STAND, (8, 8): Action.SPLIT})
    >>> flags[node_id((10, 10))] == ROW_STAND, flags[node_id((8, 8))] == ROW_PRESENT
    (True, True)
    >>> flags[node_id((2, 3))] == engine.ROW_ALL
    True
    """
    play = {Action.STAND: engine.ROW_STAND, Action.HIT: engine.ROW_POLICY_HIT,
            Action.DOUBLE: engine.ROW_DOUBLE, Action.SPLIT: engine.ROW_PRESENT,
            Action.SURRENDER: engine.ROW_PRESENT}
    flags = bytearray(_chart_rows())
    for hand, node in hand_nodes():
        action = actions.get(hand)
        if hand == (1, 10):  # a natural stands, paid at once
            flags[node] = engine.ROW_PRESENT
        elif action is not None:
            flags[node] = play[action]
    return bytes(flags)


@dataclass(frozen=True, slots=True)
class DerivedPolicy:
    """The pass values optimal play and derives the chart's total-dependent hit/stand
    policy from its own shoe (:attr:`UpCardDeals.policy`), which the ``*_chart`` values
    follow: what the chart, the house edge and the distributions read."""


@dataclass(frozen=True, slots=True)
class OptimalOnly:
    """Optimal play alone (:func:`strategy_calc.blackjack.game_analysis.optimal_edge`): no
    total-dependent policy is derived, :attr:`DealValues.hit_chart` is NaN,
    :attr:`UpCardDeals.policy` all stand and only the starts' rows are read (not the
    three-card ones of the chart's deviations); no chart can be read from such a pass."""


@dataclass(frozen=True, slots=True)
class GivenPolicy:
    """The pass values optimal play, and the ``*_chart`` values follow a fixed
    total-dependent policy per up card (:attr:`UpCardDeals.policy` of another pass, e.g.
    off the top) instead of the one its shoe would give."""

    policies: Mapping[Rank, bytes]


@dataclass(frozen=True, slots=True)
class ChartOnly:
    """Only what playing a chart needs, its policy fixed per up card (``policies``, as
    :class:`GivenPolicy`'s): the two-card rows (and the 6-7-8 node's) without the
    composition-dependent play; :attr:`DealValues.hit` is NaN, and the three-card rows are
    not read."""

    policies: Mapping[Rank, bytes]
    wants: Mapping[Rank, bytes] | None = None
    """Per up card, the engine's flags of the rows and columns to value
    (:func:`chart_play_rows`: the chart's play of each start); the actions it leaves out
    are NaN in :attr:`UpCardDeals.deals`. Default: every start's two-card row whole."""
    deals: bool = True
    """False leaves :attr:`UpCardDeals.deals` empty and reads only the pairs' rows into
    :attr:`UpCardDeals.rows` (what :func:`split_round_values` needs), for a caller that
    reads the pass's table itself (a chart's EV round:
    :meth:`strategy_calc.counting.counter.RoundPlanner.plan`)."""


PassPlay = DerivedPolicy | OptimalOnly | GivenPolicy | ChartOnly
"""What a whole-game pass values: each kind carries only the settings that apply to it, so
no invalid combination of them can be asked for."""


@dataclass(frozen=True, slots=True)
class PassRequest:
    """One whole-game pass: the rules, the shoe the round is dealt from and what to value.

    ``shoe``: default a full shoe of ``rules.decks``; every rank must be present, unless
    ``partial`` or the play follows given policies (then up cards the shoe no longer
    holds are left out of :attr:`GamePass.ups`).
    """

    rules: BlackjackRules
    shoe: Shoe | None = None
    play: PassPlay = DerivedPolicy()
    partial: bool = False
    play_error: float = 0.0
    """A play-error rate (:attr:`strategy_calc.engine.EngineParams.play_error`): the
    hit-or-stand decisions after each start's first take the other play with this chance
    (the ``policy_hit`` and ``policy`` columns); split hands play without errors."""


def whole_game_pass(
    request: PassRequest, progress: Callable[[int, int], None] | None = None,
    memo: engine.DealerMemo | None = None,
) -> GamePass:
    """Every initial deal's action values against every up card (splits not yet valued:
    :func:`add_split_values`), as ``request`` asks. ``progress(done, 10)`` after each up
    card. ``memo``: the dealer memo to fill (its origin the request's shoe; default a new
    one), e.g. one with :func:`memo_hints`.
    """
    rules, play = request.rules, request.play
    full = request.shoe if request.shoe is not None else Shoe.full(rules.decks)
    given = play.policies if isinstance(play, GivenPolicy | ChartOnly) else None
    if min(full.counts) < 1 and given is None and not request.partial:
        raise CardError("every rank must be left in the shoe to analyse a whole round")
    if rules.suited_678(split=True)[0] > 0 and any(len(set(full.suits[r - 1])) > 1
                                                  for r in SUITED_RANKS):
        # the two-card 6-7 / 6-8 / 7-8 starts take each rank spread evenly (suit_cases)
        raise CardError("a whole round takes the suits of removed cards as unknown: give"
                        " the shoe by rank (its 6s, 7s and 8s spread evenly over the suits)")
    chart_only = isinstance(play, ChartOnly)
    wanted = _chart_rows() if chart_only else None
    wants = play.wants if isinstance(play, ChartOnly) else None
    deals = play.deals if isinstance(play, ChartOnly) else True
    read = _chart_nodes() if chart_only or isinstance(play, OptimalOnly) else _read_nodes()
    if not deals:
        read = _pair_nodes()
    conditioning = Conditioning.of(rules)
    params = engine.engine_params(rules)
    if request.play_error:
        params = replace(params, play_error=request.play_error)
    if memo is None:
        memo = engine.dealer_memo(full, engine.dealer_rule(rules),
                                  reserve=engine.WHOLE_GAME_REMOVALS)
    game = GamePass(rules, full, conditioning, memo, {}, split_plans(rules, conditioning))
    for step, up in enumerate(UP_ORDER):
        if full.count(up) == 0:
            continue
        base = full.remove([Card(up)])
        q_avg = _suited_chance(rules, base)
        policy = memoryview(given[up]) if given is not None else None
        table = engine.up_card_pass(base, up, params.with_bonus(
            bonus_rows(rules), rules.suited_678()[0], q_avg), policy, memo=memo,
            rows=wants[up] if wants is not None else wanted, optimal=not chart_only,
            chart=not isinstance(play, OptimalOnly))
        rows = table.rows(read)
        ups = UpCardDeals(up, full.count(up) / full.total, base, table, rows, q_avg)
        may_surrender = rules.may_surrender(int(up))
        for hand, node in hand_nodes() if deals else ():
            if rows[node].weight > 0:
                ups.deals[hand] = deal_values(rules, hand, ups, conditioning, may_surrender)
        game.ups[up] = ups
        if progress is not None:
            progress(step + 1, len(UP_ORDER))
    return game


def deal_values(
    rules: BlackjackRules, hand: tuple[int, int], ups: UpCardDeals, conditioning: Conditioning,
    may_surrender: bool,
) -> list[DealValues]:
    """The suit cases of one initial deal with the EV of each action (splits not included).

    The values of a start without its suit cases are :func:`start_values`'.
    """
    raw_stand, _optimal, raw_double, _policy, _weight, nb, raw_hit, raw_chart = ups.rows[
        node_id(hand)]
    total = hand_total(hand)[0]
    natural = hand in ((1, 10), (10, 1))
    stand, hit, hit_chart, double, surrender = start_values(
        rules, conditioning, total, natural, may_surrender,
        raw_stand, raw_hit, raw_chart, raw_double, nb)
    up = int(ups.up)
    plain = DealValues(1.0, 0.0, stand, hit, hit_chart, double, surrender,
                       insurance=insurance_value(nb) if rules.offers_insurance(up) else None,
                       even_money=1.0 if natural and rules.offers_even_money(up) else None)
    b678, settles = rules.suited_678()
    if b678 <= 0:
        return [plain]
    ranks = set(hand)
    if not (ranks <= set(SUITED_RANKS) and len(ranks) == 2):
        return [plain]
    # hitting this hand reaches 6-7-8 with the missing card. The engine counted the
    # bonus there with the suit-averaged chance; each suit case has its own chance q:
    # the hit value moves by P(missing card) * (q - average) * (bonus - plain 21)
    # (none of the missing rank left: no 6-7-8 to reach, and its row is NaN; no shift)
    missing = int((set(SUITED_RANKS) - ranks).pop())
    base = ups.base
    left = base.counts[missing - 1]
    p_missing = left / (base.total - (0 if base.infinite else 2))  # (the start's cards gone)
    gain = 0.0
    if left > 0:
        r678 = ups.rows[engine.node_table().index[ID_678]]
        row = rules.any_suit_row(SUITED_RANKS)
        fixed = row.pays if row is not None else 0.0
        paid = conditioning.paid_at_once(b678 - fixed, r678.no_blackjack)
        # a suited 6-7-8 against the plain 21 it would stand on (which it still is when
        # the paid hand plays on), or against the 6-7-8 of any suits a row pays
        gain = paid if fixed > 0 or not settles else paid - r678.stand
    cases = []
    for prob, q in suit_cases((hand[0], hand[1]), int(ups.up), base.suits, base.infinite):
        shift = p_missing * (q - ups.suited_chance) * gain
        cases.append(plain._replace(probability=prob, q678=q, hit=hit + shift,
                                    hit_chart=hit_chart + shift))
    return cases


def _suited_chance(rules: BlackjackRules, base: Shoe) -> float:
    """The chance three cards 6, 7, 8 of unknown suits drawn from ``base`` share a suit.

    >>> from strategy_calc.rules import blackjack_rules
    >>> _suited_chance(blackjack_rules("macau-1983"), Shoe.full(6).remove([Card(Rank.TWO)]))
    0.0625
    """
    if rules.suited_678()[0] <= 0:
        return 0.0
    return suited_bonus_chance(base, [], [Rank.SIX, Rank.SEVEN, Rank.EIGHT])


def split_hand_codes(
    ups: UpCardDeals, bits: Mapping[tuple[int, bool], int]
) -> array.array[int]:
    """The engine's per-node codes for split hands playing a chart against ``ups.up``.

    Every node hits or stands by the total-dependent policy (:data:`~strategy_calc.engine.CODE_HIT`,
    :data:`~strategy_calc.engine.CODE_STAND`; under double_after_hit a hand of three or more
    cards doubles where the policy's bit 2 says so, :data:`~strategy_calc.engine.CODE_DOUBLE`);
    two-card nodes the shoe can deal take ``bits[(total, soft)]`` when it is there
    and not 0 (the chart's cell for that two-card total: see
    :func:`~strategy_calc.engine.split_hand_code`).
    """
    return chart_codes(ups.policy, bits,
                       [n for n in _two_card_nodes() if ups.rows[n].weight > 0])


def chart_codes(
    policy: Sequence[int], bits: Mapping[tuple[int, bool], int],
    starts: Sequence[int] | None = None,
) -> array.array[int]:
    """:func:`split_hand_codes` from a policy per node class, for the two-card nodes
    ``starts`` (default every one).

    A split hand reaches a two-card node only when the shoe can deal it, so codes
    made for every two-card node play every split exactly as
    :func:`split_hand_codes` of any shoe with the same policy does.
    """
    table = engine.node_table()
    by_class = bytes((engine.CODE_HIT if play & 1 else engine.CODE_STAND)
                     | (engine.CODE_DOUBLE if play & 2 else 0) for play in policy)
    codes = array.array("b", _klass_bytes().translate(by_class + bytes(256 - len(policy))))
    if any(play & 2 for play in policy):  # (double_after_hit: three or more cards only)
        for node in _two_card_nodes():
            codes[node] &= ~engine.CODE_DOUBLE
    for node in _two_card_nodes() if starts is None else starts:
        code = bits.get((table.best_total[node], table.klass[node] >= 32), 0)
        if code:
            codes[node] = code
    return codes


@lru_cache(maxsize=1)
def _klass_bytes() -> bytes:
    """Node classes (< 64) as bytes: codes by class in one ``bytes.translate``."""
    return bytes(engine.node_table().klass)


@lru_cache(maxsize=1)
def _two_card_nodes() -> tuple[int, ...]:
    return tuple(node for node, n in enumerate(engine.node_table().ncards) if n == 2)


def add_split_values(
    game: GamePass, ups: UpCardDeals, chart_codes: array.array[int],
    pairs: Collection[int] | None = None, columns: int = engine.SPLIT_ALL, lazy: bool = False,
) -> dict[int, tuple[float, float, float]]:
    """Value every pair's split against ``ups.up`` (optimal, by the chart, chart without DAS).

    Fills the split fields of the pairs' :class:`DealValues` and returns, per
    pair rank, the three round values (the chart's pair cells sum them).
    ``pairs``: only these pair ranks (1..10); default all. ``columns``: which of the
    three the engine computes (bit 1 optimal, 2 chart, 4 chart without DAS; NaN else).
    ``lazy``: the pairs are split against a few up cards only (a chart's round: the
    dealer memo fills their rows one up card at a time first; a speed-up only).
    """
    found: dict[int, tuple[float, float, float]] = {}
    for pair_rank in range(1, 11):
        hand = (pair_rank, pair_rank)
        if hand not in ups.deals or (pairs is not None and pair_rank not in pairs):
            continue
        values = split_round_values(game, ups, chart_codes, pair_rank, columns, lazy)
        if values is not None:
            ups.deals[hand] = [d.with_splits(*values) for d in ups.deals[hand]]
            found[pair_rank] = values
    return found


def add_optimal_split_values(game: GamePass, ups: UpCardDeals) -> None:
    """Value every pair's split against ``ups.up`` under optimal play alone (``cdp1``; no
    chart: the chart's split values stay None), as :func:`add_split_values` fills its
    ``split`` field: what the optimal-play EV needs and no more."""
    for pair_rank in range(1, 11):
        hand = (pair_rank, pair_rank)
        if hand not in ups.deals:
            continue
        values = split_round_values(game, ups, None, pair_rank, engine.SPLIT_OPTIMAL)
        if values is not None:
            ups.deals[hand] = [d.with_splits(values[0], None, None) for d in ups.deals[hand]]


def split_round_values(
    game: GamePass, ups: UpCardDeals, chart_codes: array.array[int] | None, pair_rank: int,
    columns: int = engine.SPLIT_ALL, lazy: bool = False,
) -> tuple[float, float, float] | None:
    """The round values of splitting the pair ``pair_rank`` against ``ups.up`` (optimal, by
    the chart, chart without DAS: EV per unit initial bet of the whole round, dealer
    blackjacks included), or None if the rules allow no split. The shoe must hold the pair
    (``ups.rows`` gives it a positive weight). Arguments as :func:`add_split_values`'.
    Without ``chart_codes``
    only the optimal value is made (``columns`` :data:`~strategy_calc.engine.SPLIT_OPTIMAL`) and
    the other two are NaN: read the first alone."""
    raw = [0.0, 0.0, 0.0]
    plan = game.plans[Rank(pair_rank)]
    for p, base in plan.up_card_shoes(ups.base, ups.up):
        values = split_values(plan, base, ups.up,
                              None if chart_codes is None else memoryview(chart_codes),
                              game.memo, columns=columns, lazy=lazy)
        if values is None:
            return None
        nothing = (math.nan, math.nan)
        by_chart = values.chart if chart_codes is not None else nothing
        by_chart_nodas = values.chart_no_das if chart_codes is not None else nothing
        if by_chart is None or by_chart_nodas is None:
            return None
        for i, v in enumerate((values.optimal, by_chart, by_chart_nodas)):
            raw[i] += p * sum(v)
    adj = game.conditioning.blackjack_adjustment(ups.no_blackjack((pair_rank, pair_rank)))
    split, chart, no_das = (x + adj for x in raw)
    return split, chart, no_das


def memo_hints(
    rules: BlackjackRules, shoe: Shoe, policies: Mapping[Rank, bytes],
    splits: Mapping[Rank, tuple[array.array[int], Collection[int]]],
    wants: Mapping[Rank, bytes] | None = None,
) -> array.array[int]:
    """Per player node, the up cards a chart's round wants its dealer distributions
    against (:meth:`strategy_calc.engine.DealerMemo.node_wants`), from a dry run on
    ``shoe``: :func:`whole_game_pass` playing the chart only (:class:`ChartOnly`) and the chart
    column of :func:`add_split_values` for ``splits`` (per up card: the split hands'
    codes, the pair ranks), and ``wants`` as the rounds take it. Rounds from shoes like
    ``shoe`` want about the same, so a memo hinted with them
    (:func:`strategy_calc.engine.dealer_memo`) walks each removal's dealer tree once, for
    those up cards only. A speed-up only: the values do not depend on the hints.
    """
    return round_wants(rules, shoe, policies, splits, wants).hints


@dataclass(frozen=True, slots=True)
class RoundWants:
    """What a chart's round wants of its dealer memo, noted in a dry run
    (:func:`round_wants`): the hints, and every removal with its up cards to walk ahead."""

    hints: array.array[int]
    """Per player node, the up cards (:func:`memo_hints`)."""
    removed: array.array[int]
    """Ten rank counts per removal asked for, grouped by the up cards it was asked
    against (:meth:`strategy_calc.engine.DealerMemo.entry_wants`)."""
    nodes: array.array[int]
    """The player node of each removal, or -1 (a split hand's cards with the other pair
    card's)."""
    wants: array.array[int]
    """The up cards of each removal (bit ``u``: up card ``u``), in groups."""

    def walk_ahead(self, memo: engine.DealerMemo) -> None:
        """Compute every row of ``memo`` (a memo of a shoe like the dry run's) a round
        will want, four removals a dealer walk
        (:meth:`strategy_calc.engine.DealerMemo.walk_ahead`): the same doubles, sooner."""
        memo.walk_ahead(memoryview(self.removed), memoryview(self.nodes),
                        memoryview(self.wants))


def round_wants(
    rules: BlackjackRules, shoe: Shoe, policies: Mapping[Rank, bytes],
    splits: Mapping[Rank, tuple[array.array[int], Collection[int]]],
    wants: Mapping[Rank, bytes] | None = None,
) -> RoundWants:
    """:func:`memo_hints`, with every removal the dry run asked for (a player node's, or a
    split hand's cards with the other pair card's) and its up cards, grouped by those up
    cards so that a memo walks them four at a time (:meth:`RoundWants.walk_ahead`)."""
    memo = engine.dealer_memo(shoe, engine.dealer_rule(rules))
    memo.defer()
    try:
        game = whole_game_pass(PassRequest(rules, shoe, ChartOnly(policies, wants),
                                           partial=True), memo=memo)
        for up, ups in game.ups.items():
            if up in splits:
                codes, pairs = splits[up]
                add_split_values(game, ups, codes, pairs, engine.SPLIT_CHART, lazy=True)
        removed, nodes, bits = memo.entry_wants()
    finally:
        hints = memo.node_wants()
    order = sorted((k for k in range(len(bits)) if bits[k]), key=lambda k: bits[k])
    return RoundWants(
        hints, array.array("i", [c for k in order for c in removed[10 * k:10 * (k + 1)]]),
        array.array("i", [nodes[k] for k in order]), array.array("H", [bits[k] for k in order]))


def apply_split_strategy(
    game: GamePass, ups: UpCardDeals, strategy: str,
    progress: Callable[[int, int], None] | None = None,
) -> bytes | None:
    """Re-value every pair's ``split`` field (the optimal-play split) under ``strategy``.

    ``cdp1`` leaves :func:`add_split_values`' figures; ``cdz`` plays the pre-split
    decisions (:func:`strategy_calc.blackjack.split.values.pre_split_codes` of this pass);
    ``postsplit`` lets the second hand see the first hand's cards (one split only);
    ``cdp`` and ``cdp-hands`` re-optimise for the extra pair cards split off (the field's
    CDP; the decisions by the number of resplits); ``optimal`` is the
    fully optimal split. ``progress(done, total)`` after each pair.
    Returns the codes split hands played, for ``cdz`` (else None: their own optimum).
    """
    if strategy == "cdp1":
        return None
    codes = (pre_split_codes(ups.table, game.rules.double_after_hit) if strategy == "cdz"
             else None)
    for pair_rank in range(1, 11):
        hand = (pair_rank, pair_rank)
        if hand not in ups.deals or ups.deals[hand][0].split is None:
            continue
        if (strategy in ("cdp", "cdp-hands")
                and not game.plans[Rank(pair_rank)].resplits):
            continue  # one split: they are cdp1, already valued by add_split_values
        raw = 0.0
        for p, base in game.plans[Rank(pair_rank)].up_card_shoes(ups.base, ups.up):
            part = _split_raw(game, base, ups.up, Rank(pair_rank), strategy, codes)
            if part is None:
                break
            raw += p * part
        else:
            set_split_raw(game, ups, pair_rank, raw)
        if progress is not None:
            progress(pair_rank, 10)
    return codes


def split_cases(game: GamePass, ups: UpCardDeals) -> list[int]:
    """The pair ranks whose split :func:`apply_split_strategy` re-values against ``ups.up``
    under ``optimal`` (a pair the shoe deals and the rules let split), in its order: the
    cases of a whole game under the fully optimal split (after
    :func:`add_optimal_split_values`)."""
    return [pair_rank for pair_rank in range(1, 11)
            if (pair_rank, pair_rank) in ups.deals
            and ups.deals[(pair_rank, pair_rank)][0].split is not None]


def set_split_raw(game: GamePass, ups: UpCardDeals, pair_rank: int, raw: float) -> None:
    """Set the pair's ``split`` field from ``raw``, the split's raw EV against ``ups.up``
    (the split strategy's, summed over :meth:`SplitPlan.up_card_shoes`), adding the
    dealer-blackjack adjustment of the game's conditioning."""
    hand = (pair_rank, pair_rank)
    adj = game.conditioning.blackjack_adjustment(ups.no_blackjack(hand))
    ups.deals[hand] = [d._replace(split=raw + adj) for d in ups.deals[hand]]


def _split_raw(game: GamePass, base: Shoe, up: Rank, pair: Rank, strategy: str,
               codes: bytes | None) -> float | None:
    """One split's raw EV from ``base`` under ``strategy`` (not ``cdp1``) for
    :func:`apply_split_strategy` (``codes``: the pre-split decisions of ``cdz``), or None."""
    if codes is not None:
        values = split_values(game.plans[pair], base, up,
                              memoryview(codes).cast("b"), game.memo)
        return None if values is None or values.chart is None else sum(values.chart)
    if strategy in ("cdp", "cdp-hands"):
        values = split_values(game.plans[pair], base, up, None, game.memo,
                              columns=engine.SPLIT_OPTIMAL, play=strategy)
        return None if values is None else sum(values.optimal)
    if strategy == "optimal":
        return optimal_split_ev(game.plans[pair], base, up).raw
    return postsplit_ev(game.plans[pair], base, up)
