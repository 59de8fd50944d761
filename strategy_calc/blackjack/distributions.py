"""The exact distribution of a round's net result, under the chart and under optimal play.

Every initial deal's outcomes are enumerated by the engine (split rounds
jointly: every end of the first hand, then every end of the second from what
is left, the dealer against both), weighted by the deal's probability. Net
results are in units of the initial bet, binned at 0.01.

>>> from strategy_calc.rules import blackjack_rules
>>> from strategy_calc.blackjack.game_analysis import analyse_game
>>> game = analyse_game(blackjack_rules("deluxe", ["decks=1"]), distribution=True)
>>> abs(sum(game.outcomes_optimal.values()) - 1) < 1e-12  # a distribution
True
>>> mean = sum(x * p for x, p in game.outcomes_optimal.items())
>>> abs(mean - game.ev_optimal) < 1e-12  # its mean is the round's EV
True
"""

from __future__ import annotations

import array
import math
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.blackjack.bonus import bonus_rows
from strategy_calc.blackjack.chart import Chart
from strategy_calc.blackjack.deals import UP_ORDER, natural_results
from strategy_calc.blackjack.game_pass import GamePass, UpCardDeals
from strategy_calc.blackjack.hand_rules import beats
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.blackjack.split.values import resplit_moments
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.engine import (
    COL_DOUBLE,
    COL_HIT,
    COL_STAND,
    HIST_OFFSET,
    HIST_SIZE,
    PASS_WIDTH,
    Conditioning,
    UpCardPass,
    node_table,
)
from strategy_calc.rules import BlackjackRules, RulesError

if TYPE_CHECKING:
    import numpy as np

def round_distributions(
    game: GamePass, chart: Chart, chart_codes: dict[Rank, array.array[int]],
    split_codes: dict[Rank, bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[float, float], dict[float, float]]:
    """``(under the chart, optimal)``: {net result in units: probability} of a round.

    ``progress(done, 10)`` after each up card (the enumeration takes seconds).

    ``chart_codes``: per up card, the engine codes split hands play under the
    chart (:func:`strategy_calc.blackjack.game_pass.split_hand_codes`). ``split_codes``: per up
    card, the codes split hands play under optimal play (default: each hand's
    own optimum, the ``cdp1`` split strategy; the ``cdz`` codes for ``cdz``).
    """
    check_distribution_rules(game.rules)
    hist_basic, hist_optimal, natural_basic, natural_optimal = _round_parts(
        game, chart, chart_codes, split_codes, progress, None)
    return (_merge(_histogram_dict(hist_basic), natural_basic),
            _merge(_histogram_dict(hist_optimal), natural_optimal))


def round_moments(
    game: GamePass, chart: Chart, chart_codes: dict[Rank, array.array[int]],
    split_codes: dict[Rank, bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[tuple[float, float], tuple[float, float]]:
    """``((E[X], E[X^2]) under the chart, (E[X], E[X^2]) optimal)`` of a round's net result
    X (units of the initial bet), exactly, resplits included: the deals of
    :func:`round_distributions`, but a split round that may resplit gives its moments
    (:func:`resplit_moments`) instead of its distribution, which is not enumerated.
    Arguments as :func:`round_distributions`.
    """
    import numpy as np

    check_distribution_rules(game.rules, resplits=True)
    extra = [[0.0, 0.0], [0.0, 0.0]]  # (basic, optimal) resplit rounds' E[X], E[X^2]
    hist_basic, hist_optimal, natural_basic, natural_optimal = _round_parts(
        game, chart, chart_codes, split_codes, progress, extra)
    xs = (np.arange(HIST_SIZE) - HIST_OFFSET) / 100.0
    out = []
    for hist, natural, (m1, m2) in ((hist_basic, natural_basic, extra[0]),
                                    (hist_optimal, natural_optimal, extra[1])):
        out.append((float(np.dot(hist, xs)) + m1 + math.fsum(x * p for x, p in natural.items()),
                    float(np.dot(hist, xs * xs)) + m2
                    + math.fsum(x * x * p for x, p in natural.items())))
    return out[0], out[1]


def _round_parts(
    game: GamePass, chart: Chart, chart_codes: dict[Rank, array.array[int]],
    split_codes: dict[Rank, bytes] | None, progress: Callable[[int, int], None] | None,
    resplit: list[list[float]] | None,
) -> tuple[np.ndarray, np.ndarray, dict[float, float], dict[float, float]]:
    """The histograms (chart, optimal) and the naturals' exact results of every deal (see
    :func:`round_distributions`); with ``resplit``, a split round that may resplit adds
    its ``weight * (E[X], E[X^2])`` to ``resplit[0]`` (chart) or ``resplit[1]`` instead."""
    import numpy as np

    rules = game.rules
    hist_optimal, hist_basic = np.zeros(HIST_SIZE), np.zeros(HIST_SIZE)
    # a natural's results, keyed exactly (any payout)
    natural_basic: dict[float, float] = {}
    natural_optimal: dict[float, float] = {}
    for step, up in enumerate(UP_ORDER):
        if progress is not None and step:
            progress(step, len(UP_ORDER))
        ups = game.ups[up]
        best_codes = optimal_codes(ups.table, rules.double_after_hit)
        for hand, cases in ups.deals.items():
            action = chart.code(hand, up).action
            nb = ups.no_blackjack(hand)
            resplits = (resplit is not None and hand[0] == hand[1]
                        and game.plans[Rank(hand[0])].resplits)
            for case in cases:
                weight = ups.p_up * ups.weight(hand) * case.probability
                if hand == (1, 10):  # paid at once, unless the dealer has one too
                    for results, even, insured in (
                            (natural_basic, action is Action.EVEN_MONEY,
                             chart.insures(action) and case.insurance is not None),
                            (natural_optimal, case.takes_even_money(), case.insures())):
                        for x, p in natural_results(rules.blackjack_pays, nb, even, insured):
                            results[x] = results.get(x, 0.0) + weight * p
                    continue
                for k, hist, play, codes, optimal, insured in (
                        (1, hist_optimal, case.best().value, best_codes, True, case.insures()),
                        (0, hist_basic, action.value, chart_codes[up], False,
                         chart.insures(action) and case.insurance is not None)):
                    chosen = split_codes[up] if optimal and split_codes is not None else None
                    if resplit is not None and resplits and play == Action.SPLIT.value:
                        m1, m2 = resplit_deal_moments(
                            game.plans[Rank(hand[0])], up, ups.base,
                            memoryview(chosen).cast("b") if chosen is not None
                            else None if optimal else memoryview(codes), insured, nb)
                        resplit[k][0] += weight * m1
                        resplit[k][1] += weight * m2
                    elif insured:
                        hist += weight * deal_histogram(
                            game, ups, hand, case.q678, play, codes, optimal, True, chosen)
                    else:
                        add_deal_distribution(
                            hist, weight, game, hand, up, ups.base, play, case.q678, nb, codes,
                            optimal, chosen)
    if progress is not None:
        progress(len(UP_ORDER), len(UP_ORDER))
    return hist_basic, hist_optimal, natural_basic, natural_optimal


def resplit_deal_moments(
    plan: SplitPlan, up: Rank, base: Shoe, codes: memoryview | None, insured: bool,
    no_bj: float,
) -> tuple[float, float]:
    """``(E[X], E[X^2])`` of splitting ``plan.pair`` against ``up`` with resplits, the dealer's
    blackjack and an insurance bet included, per unit probability of the deal (its shoe
    ``base``: up card gone, the pair in; ``codes`` as :func:`resplit_moments`), by the up
    card's suits where they matter (:meth:`SplitPlan.up_card_shoes`)."""
    m1 = m2 = 0.0
    for p, shoe in plan.up_card_shoes(base, up):
        raw = resplit_moments(plan, up, shoe, codes)
        first, second = deal_moments(raw, plan.conditioning.peek, insured, no_bj)
        m1 += p * first
        m2 += p * second
    return m1, m2


def deal_moments(moments: tuple[float, float, float], peek: bool, insured: bool,
                 no_bj: float) -> tuple[float, float]:
    """``(E[X], E[X^2])`` of a split deal from the raw moments of its split round
    (:func:`split_moments`, :func:`resplit_moments`), the dealer's blackjack and an
    insurance bet included.

    Peek: the raw moments hold the outcomes with no dealer blackjack, which takes the
    original bet (-1) with chance 1 - ``no_bj``; insured, that blackjack pays the
    insurance 1 (the round is 0) and every other outcome is 0.5 lower:
    E[(X - 1/2)^2 1{no blackjack}] = E[X^2 ...] - E[X ...] + no_bj / 4. No hole card:
    X + I with I = 1 on a blackjack, else -1/2: E[(X + I)^2] = E[X^2] + 2 E[X I] + E[I^2],
    E[X I] = 3/2 E[X 1{blackjack}] - 1/2 E[X], E[I^2] = 1/4 + 3/4 P(blackjack).

    >>> [round(x, 12) for x in deal_moments((-0.1, 1.2, 0.0), True, False, 0.9)]
    [-0.2, 1.3]

    (Peek, not insured: a dealer blackjack, chance 0.1, takes the bet: -0.1 - 0.1 and
    1.2 + 0.1.)
    """
    m1, m2, with_bj = moments
    p_bj = 1.0 - no_bj
    if peek:
        if insured:
            return m1 - 0.5 * no_bj, m2 - m1 + 0.25 * no_bj
        return m1 - p_bj, m2 + p_bj
    if insured:
        return (m1 + p_bj - 0.5 * no_bj, m2 + 3.0 * with_bj - m1 + 0.25 + 0.75 * p_bj)
    return m1, m2


def check_distribution_rules(rules: BlackjackRules, resplits: bool = False) -> None:
    """Refuse rules whose round results the exact distribution cannot key exactly.

    Results other than a natural's are sums of +-1, +-2, 1/2 and the Macau
    bonuses, kept in hundredths of the bet from -5 to +21: a bonus must be a
    whole number of hundredths, at most 10 (two split hands: 20). With resplits
    (``max_split_hands`` above 2) a round's distribution is not enumerated (its
    moments are, :func:`round_moments`): refused unless ``resplits``.

    >>> check_distribution_rules(BlackjackRules(bonus_777=3.0))
    >>> check_distribution_rules(BlackjackRules(bonus_777=2.125))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    strategy_calc.rules.RulesError: outcome distributions need bonus payouts in whole ...
    """
    if rules.max_split_hands > 2 and not resplits:
        raise RulesError("outcome distributions with resplits (max_split_hands > 2) are not"
                         " enumerated (their exact mean and SD are); use max_split_hands=2"
                         " for the whole distribution")
    for bonus in (row.pays for row in rules.bonus_table):
        if bonus > 10 or abs(bonus * 100 - round(bonus * 100)) > 1e-9:
            raise RulesError("outcome distributions need bonus payouts in whole hundredths"
                             f" of the bet up to 10, not {bonus:g}")


def _merge(binned: dict[float, float], exact: dict[float, float]) -> dict[float, float]:
    """Both distributions' masses by result, in increasing order of result."""
    merged = dict(binned)
    for result, mass in exact.items():
        merged[result] = merged.get(result, 0.0) + mass
    return {k: merged[k] for k in sorted(merged) if merged[k] > 0.0}


def optimal_codes(table: UpCardPass, late: bool = False) -> array.array[int]:
    """Per node: 2 where hitting beats standing (optimal play), else 4; with ``late``
    (double_after_hit) also 1 on a hand of three or more cards where doubling beats both
    (the engine doubles there where the rules let that hand double)."""
    v = table.values
    codes = array.array("b", [2 if beats(v[i + COL_HIT], v[i + COL_STAND]) else 4
                              for i in range(0, len(v), PASS_WIDTH)])
    if late:
        for node, n in enumerate(node_table().ncards):
            i = node * PASS_WIDTH
            if n > 2 and beats(v[i + COL_DOUBLE], max(v[i + COL_HIT], v[i + COL_STAND])):
                codes[node] |= 1
    return codes


def _histogram_dict(hist: np.ndarray) -> dict[float, float]:
    """{net result: probability} from an engine histogram (bins of 0.01 units)."""
    return {round((i - HIST_OFFSET) / 100.0, 2): float(hist[i])
            for i in range(len(hist)) if hist[i] > 0.0}


class SplitTables:
    """The split moment tables of a run (:func:`strategy_calc.engine.split_moment_table`)
    and their groups per up card, each made the first time it is asked for;
    caller-owned and safe to share between threads (two threads asking at once may both
    make one, with the same values). ``reference``: the rank counts every deal of the
    run starts from (every later shoe has no more of any rank). A pickled copy travels
    without its tables: unpickled in another process, every copy of one run's tables
    there is one object, so a worker makes each table once for all the batches it is
    given. At most ``limit_bytes`` are kept (the least recently used go first).
    """

    def __init__(self, reference: tuple[int, ...], limit_bytes: int = 256 << 20,
                 token: str | None = None) -> None:
        self.reference = tuple(reference)
        self.limit_bytes = limit_bytes
        self.token = token if token is not None else uuid.uuid4().hex
        self._kept: OrderedDict[tuple[object, ...],
                                engine.SplitMomentTable | engine.SplitMomentGroup | None] = (
            OrderedDict())
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Callable[..., SplitTables], tuple[object, ...]]:
        return _shared_tables, (self.reference, self.limit_bytes, self.token)

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def nbytes(self) -> int:
        """Bytes the tables and groups kept hold."""
        with self._lock:
            return sum(x.nbytes for x in self._kept.values() if x is not None)

    def table(self, pair: Rank, up: Rank, first: engine.EngineParams,
              second: engine.EngineParams, codes: memoryview,
              ) -> engine.SplitMomentTable | None:
        """The table of this split round (None if the reference shoe is too small)."""
        key = (pair, up, first, second, bytes(codes))
        found, kept = self._get(key)
        if found:
            return kept if isinstance(kept, engine.SplitMomentTable) else None
        counts = list(self.reference)
        counts[int(up) - 1] -= 1
        got = engine.split_moment_table(Shoe.from_counts(counts), pair, up, first, codes,
                                        second)
        self._keep(key, got)
        return got

    def cross_sums(self, up: Rank, base: Shoe,
                   rounds: Sequence[tuple[Rank, engine.EngineParams, engine.EngineParams]],
                   codes: memoryview) -> dict[Rank, float]:
        """The cross sums of the split rounds ``rounds`` (pair, both hands' parameters)
        against ``up`` for ``base`` (up card gone), by pair: their tables merged into one
        group, so each distinct union takes one dealer evaluation for all of them. Rounds
        without a table are left out, and all of them where a table does not hold for
        ``base`` (a shoe with more of some rank than the reference)."""
        code = bytes(codes)
        key = ("group", up, tuple((pair, up, first, second, code)
                                  for pair, first, second in rounds))
        found, group = self._get(key)
        if not found:
            tables, pairs = [], []
            for pair, first, second in rounds:
                table = self.table(pair, up, first, second, codes)
                if table is not None:
                    tables.append(table)
                    pairs.append(pair)
            group = engine.split_moment_group(tables) if tables else None
            self._keep(key, group)
        if not isinstance(group, engine.SplitMomentGroup):
            return {}
        sums = engine.split_cross_sums(group, base)
        return {} if sums is None else {Rank(p): x for p, x in zip(group.pairs, sums, strict=True)}

    def _get(self, key: tuple[object, ...]
             ) -> tuple[bool, engine.SplitMomentTable | engine.SplitMomentGroup | None]:
        with self._lock:
            if key not in self._kept:
                return False, None
            self._kept.move_to_end(key)
            return True, self._kept[key]

    def _keep(self, key: tuple[object, ...],
              value: engine.SplitMomentTable | engine.SplitMomentGroup | None) -> None:
        with self._lock:
            self._kept[key] = value
            held = sum(x.nbytes for x in self._kept.values() if x is not None)
            while held > self.limit_bytes and len(self._kept) > 1:
                _old_key, old = self._kept.popitem(last=False)
                held -= old.nbytes if old is not None else 0


_SHARED: dict[str, SplitTables] = {}
_SHARED_LOCK = threading.Lock()
_SHARED_RUNS = 4
"""Runs whose tables an unpickling process keeps (the oldest go first)."""


def _shared_tables(reference: tuple[int, ...], limit_bytes: int, token: str) -> SplitTables:
    """This process's one :class:`SplitTables` of the run ``token`` (made when first seen)."""
    with _SHARED_LOCK:
        got = _SHARED.get(token)
        if got is None:
            got = _SHARED[token] = SplitTables(reference, limit_bytes, token)
            while len(_SHARED) > _SHARED_RUNS:
                del _SHARED[next(iter(_SHARED))]
        return got


def tabled(first: engine.EngineParams, second: engine.EngineParams) -> bool:
    """Whether a split round with fixed codes can have a moment table: its bonuses do not
    depend on the shoe (a suited 6-7-8 chance does)."""
    return first.suited_678_chance == 0 and second.suited_678_chance == 0


def split_cross_sums(
    plans: Mapping[Rank, SplitPlan], up: Rank, base: Shoe, pairs: Collection[Rank],
    codes: memoryview, tables: SplitTables,
) -> dict[Rank, float]:
    """The cross sums :func:`split_moments` takes as ``cross`` for the split rounds of
    ``pairs`` against ``up`` whose hands play ``codes``, made together (one dealer
    evaluation per distinct union of every round's tables); by pair, for those rounds
    that have a table."""
    rounds = []
    for pair in sorted(pairs):
        plan = plans[pair]
        if plan.conditioning is Conditioning.PEEK_SHORTCUT:
            return {}
        if plan.resplits:
            continue
        first, second, suits = plan.round_params(base)
        if suits is None and tabled(first, second):
            rounds.append((pair, first, second))
    return tables.cross_sums(up, base, rounds, codes) if rounds else {}


def split_moments(
    plan: SplitPlan, up: Rank, base: Shoe,
    codes: memoryview | None, tables: SplitTables | None = None,
    cross: float | None = None, memo: engine.DealerMemo | None = None,
) -> tuple[float, float, float] | None:
    """Raw ``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of one split round, as
    :func:`add_deal_distribution`'s split plays it (``codes``: its split hands' codes, None
    for their own optimum), without the round's distribution: far fewer dealer look-ups
    (:func:`strategy_calc.engine.split_moments`). With resplits, the round's exact moments
    (:func:`strategy_calc.blackjack.split.values.resplit_moments`, which raises ``RulesError`` where
    they are not exact). None where this does not apply: the peek shortcut, split hands that see
    their suits, a shoe the dealer could run out of; the distribution then gives the
    moments. ``tables``: the run's split moment
    tables, used (and made) for fixed codes whose bonuses do not depend on the shoe;
    ``cross``: this round's cross sum from them, if already made
    (:meth:`SplitTables.cross_sums`); ``memo``: the round's dealer memo (origin ``base``
    plus the up card), whose rows then serve the hands' own moments of every split round
    of the pass (the same rows: each is the same tree evaluation of the same shoe)."""
    if plan.conditioning is Conditioning.PEEK_SHORTCUT:
        return None
    if plan.resplits:
        return resplit_moments(plan, up, base, codes)
    pair = plan.pair
    first, second, suits = plan.round_params(base)
    if suits is not None:  # (the hands know their suits)
        return None
    if cross is not None:
        return engine.split_moments(base, pair, up, first, codes, second, cross=cross,
                                    memo=memo)
    table = None
    if tables is not None and codes is not None and tabled(first, second):
        table = tables.table(pair, up, first, second, codes)
        if table is not None and not table.fits(engine.int_array(base.counts), int(pair),
                                                int(up), first, codes, second):
            table = None  # (a shoe with more of some rank than the run's reference)
    return engine.split_moments(base, pair, up, first, codes, second, table, memo=memo)


def deal_histogram(
    game: GamePass, ups: UpCardDeals, hand: tuple[int, int], q678: float, action: str,
    codes: array.array[int], optimal: bool, insured: bool, split_codes: bytes | None = None,
    play_error: float = 0.0,
) -> np.ndarray:
    """The distribution of one start's result (histogram bins, see
    :data:`strategy_calc.engine.HIST_OFFSET`), played by ``action`` then the ``codes``,
    an insurance bet included (``insured``); per unit probability of the start.

    The insurance (half the bet, 2:1) adds +1 to every outcome with a dealer blackjack
    and -1/2 to every other. Peek: a dealer blackjack ends the round at once (the bet
    lost, or half of it surrendered early), so that one outcome moves; no hole card:
    the engine keeps the outcomes with a blackjack apart (``bj_hist``) and each part
    moves by its own amount. ``play_error``: an unsplit hand's later hit-or-stand
    decisions take the other play with this chance
    (:attr:`strategy_calc.engine.EngineParams.play_error`).
    """
    import numpy as np

    rules = game.rules
    nb = ups.no_blackjack(hand)
    p_bj = 1.0 - nb
    part = np.zeros(HIST_SIZE)
    with_bj = np.zeros(HIST_SIZE) if insured and not rules.peek else None
    add_deal_distribution(part, 1.0, game, hand, ups.up, ups.base, action, q678, nb, codes,
                          optimal, split_codes, bj_hist=with_bj, play_error=play_error)
    if with_bj is not None:
        part = np.roll(part, -50) + np.roll(with_bj, 100)
    elif insured:
        lost = (-0.5 if action == Action.SURRENDER.value
                and not rules.surrender_loses_to_blackjack else -1.0)
        at = HIST_OFFSET + round(100 * lost)
        part[at] -= p_bj
        part = np.roll(part, -50)
        part[at + 100] += p_bj
    return part


def add_deal_distribution(
    hist: np.ndarray, weight: float, game: GamePass, hand: tuple[int, int], up: Rank,
    base: Shoe, action: str, q678: float, no_bj: float, codes: array.array[int],
    optimal: bool, split_codes: bytes | None = None, bj_hist: np.ndarray | None = None,
    play_error: float = 0.0,
) -> None:
    """Add ``weight`` times the distribution of one deal's net result under ``action``.

    ``bj_hist`` (no hole-card check only): the outcomes in which the dealer has
    blackjack go there instead of ``hist`` (an insurance bet settles on them).

    Later decisions follow ``codes`` (per engine node: 2 hit, 4 stand; the
    chart's also carry its two-card codes); split hands play the chart's codes
    or, when ``optimal``, their own optimal strategy (``split_codes``, if given, instead:
    another split strategy's codes). The pass ``game`` gives the rules, the split plans
    and its dealer distributions. In a peek game the engine gives the no-blackjack
    outcomes and the dealer's blackjack (``1 - no_bj``) is added here.
    """
    rules, conditioning = game.rules, game.conditioning
    p_bj = 1.0 - no_bj
    if bj_hist is not None and conditioning is not Conditioning.ENHC:
        raise ValueError("bj_hist is for a game without a hole-card check")
    if action == "surrender":
        with_bj = hist if bj_hist is None else bj_hist
        if rules.surrender_loses_to_blackjack:
            with_bj[HIST_OFFSET - 100] += weight * p_bj
        else:
            with_bj[HIST_OFFSET - 50] += weight * p_bj
        hist[HIST_OFFSET - 50] += weight * no_bj
        return
    import numpy as np

    part = np.zeros(HIST_SIZE)
    part_bj = None if bj_hist is None else np.zeros(HIST_SIZE)
    if action == "split":
        plan = game.plans[Rank(hand[0])]
        pair = plan.pair
        chosen = (memoryview(split_codes).cast("b") if split_codes is not None
                  else None if optimal else memoryview(codes))
        for p, shoe in plan.up_card_shoes(base, up):
            params, second, suits = plan.round_params(shoe)
            one = np.zeros(HIST_SIZE)
            one_bj = None if part_bj is None else np.zeros(HIST_SIZE)
            engine.split_distribution(shoe, pair, up, params, chosen, one, None, second, suits,
                                      one_bj)
            part += p * one
            if part_bj is not None and one_bj is not None:
                part_bj += p * one_bj
    else:
        params = engine.engine_params(rules, conditioning).with_bonus(
            bonus_rows(rules), rules.suited_678()[0], q678)
        if play_error:  # (the unsplit hand's later decisions; split hands play without)
            params = replace(params, play_error=play_error)
        act = {"stand": 0, "hit": 1, "hit_chart": 1, "double": 2}[action]
        engine.hand_distribution(base, [Card(Rank(r)) for r in hand], up, params, act,
                                 memoryview(codes), part, game.memo, part_bj)
    if conditioning is Conditioning.PEEK_EXACT:
        part[HIST_OFFSET - 100] += p_bj
    hist += weight * part
    if bj_hist is not None and part_bj is not None:
        bj_hist += weight * part_bj
