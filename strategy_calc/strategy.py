"""Basic-strategy charts and the house edge of a blackjack ruleset, from a full shoe.

One engine pass per up card values every player hand (3,083 card
compositions); the chart and both house-edge figures are sums over it.

Definitions (all exact for the strategy named):

- *Total-dependent hit/stand play* (used after the first decision): for each
  hard or soft total and up card, hit when hitting beats standing summed over
  every composition of two or more cards with that total, each weighted by its
  probability as a draw from the shoe less the up card; decided from the
  highest totals down, so later hits already follow it.
- *Chart* (two-card decisions): for each hard total (pairs excluded), soft
  total and pair, against each up card, the action with the highest EV summed
  over the two-card hands of that row, weighted by their deal probability.
  Split hands follow the chart rows of their totals (no resplit).
- *Optimal*: the best composition-dependent play of each initial hand; split
  hands each play their own cards (see :mod:`strategy_calc.blackjack`).
- *House edge*: minus the EV per unit initial bet of a whole round from a full
  shoe, averaged over every initial deal (player's two cards and the up card),
  dealer blackjacks included, insurance and even money declined. Macau's
  bonuses count: for two-card 6-7, 6-8, 7-8 starts the suits are enumerated
  exactly; split 6s/7s/8s decide with the suit-averaged bonus chance.

>>> from strategy_calc.rules import blackjack_rules
>>> game = analyse_game(blackjack_rules("deluxe", ["decks=6"]))
>>> game.hard[16]["T"], game.soft[18]["2"], game.pairs["8"]["A"]
('H', 'S', 'P')
"""

from __future__ import annotations

import array
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from strategy_calc import engine
from strategy_calc.blackjack import bonus_terms, split_values
from strategy_calc.cards import RANKS, Card, CardError, Rank, Shoe
from strategy_calc.engine import Conditioning, PassRow, UpCardPass
from strategy_calc.rules import BlackjackRules, double_allowed_totals

if TYPE_CHECKING:
    import numpy as np  # only for outcome distributions (kept out of start-up)

UP_ORDER: tuple[Rank, ...] = (*RANKS[1:], Rank.ACE)
"""Chart columns: 2..9, T, A."""
HARD_ROWS = tuple(range(4, 22))
SOFT_ROWS = tuple(range(13, 22))
PAIR_ROWS: tuple[Rank, ...] = UP_ORDER

ID_678 = (0, 0, 0, 0, 0, 1, 1, 1, 0, 0)
HIST_SIZE = 2600
HIST_OFFSET = 500
"""The engine's outcome histograms: bin ``round(100 x) + 500`` holds net result ``x``."""


@dataclass(frozen=True, slots=True)
class Deviation:
    """A two- or three-card hand whose best composition-dependent play differs from the chart.

    ``gain``: what the best play adds over the chart's play, EV per unit
    initial bet given this hand (and, in a peek game, no dealer blackjack).
    """

    hand: tuple[Rank, ...]
    up: Rank
    chart: str
    best: str
    gain: float

    def __str__(self) -> str:
        cards = ",".join(r.symbol for r in self.hand)
        return f"{cards} vs {self.up.symbol}: {self.best} (chart: {self.chart}, +{self.gain:.5f})"


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """The basic-strategy chart of a ruleset and the EV of the game under it and optimally.

    Chart cells map a row (hard/soft total, pair rank symbol) to a code per up
    card symbol (``2``..``9``, ``T``, ``A``); the legend is
    :data:`strategy_calc.report.CODES`. ``ev_basic`` and ``ev_optimal`` are EVs
    per unit initial bet of a round from a full shoe.
    """

    rules: BlackjackRules
    hard: Mapping[int, Mapping[str, str]]
    soft: Mapping[int, Mapping[str, str]]
    pairs: Mapping[str, Mapping[str, str]]
    exceptions: tuple[Deviation, ...]
    ev_basic: float
    ev_optimal: float
    outcomes_basic: Mapping[float, float] | None = None
    """Exact distribution of a round's net result under the chart: {units of the
    initial bet: probability} (only with ``analyse_game(..., distribution=True)``)."""
    outcomes_optimal: Mapping[float, float] | None = None
    """The same under optimal composition-dependent play."""

    @property
    def house_edge(self) -> float:
        """House edge under the chart (minus ``ev_basic``)."""
        return -self.ev_basic


def _nodes() -> tuple[dict[tuple[int, ...], int], list[int], list[int], list[int]]:
    """Node id by rank counts, and each node's best total, class and card count."""
    table = engine.node_table()
    return table.index, table.best_total, table.klass, table.ncards


@lru_cache(maxsize=256)
def node_id(ranks: tuple[int, ...]) -> int:
    """Engine node of a multiset of ranks (1..10)."""
    return engine.node_table().node(ranks)


Values = dict[str, float]
"""EV of each action for one deal (unconditioned, whole round), by action key."""


@dataclass(slots=True)
class _UpPass:
    """What one engine pass against one up card gives the chart and the edge."""

    table: UpCardPass
    rows: dict[int, PassRow]
    """The rows read one by one (two- and three-card hands)."""
    policy: array.array[int]
    values: dict[tuple[int, int], list[tuple[float, float, Values]]]
    p_up: float
    base: Shoe


def _row_of(ranks: tuple[int, int]) -> tuple[str, int]:
    """The chart row of a two-card hand: ("pair", rank), ("soft", total) or ("hard", total)."""
    a, b = ranks
    if a == b:
        return "pair", a
    if 1 in ranks:
        return "soft", a + b + 10
    return "hard", a + b


def _code(values: Mapping[str, float], das_split: bool) -> str:
    """The chart code of a cell from the summed EV of each allowed action."""
    play = {a: v for a, v in values.items() if a in ("stand", "hit", "double", "split",
                                                       "surrender")}
    best = max(play, key=lambda a: play[a])
    fallback = "h" if values["hit"] >= values["stand"] else "s"
    if best == "double":
        return "D" + fallback
    if best == "surrender":
        rest = {a: v for a, v in play.items() if a in ("stand", "hit", "split")}
        return "R" + {"stand": "s", "hit": "h", "split": "p"}[max(rest, key=lambda a: rest[a])]
    if best == "split":
        if das_split and values["split_nodas"] < max(values["hit"], values["stand"]):
            return "P" + fallback
        return "P"
    return "H" if best == "hit" else "S"


def _action(code: str) -> str:
    """The action a chart code takes on an initial two-card hand (its options are legal there)."""
    return {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}[code[0]]


def _two_card_bits(code: str | None) -> int:
    """A chart code as the engine's split-hand code: 1 double, 2 else hit, 4 else stand."""
    if code is None or code[0] == "P":
        return 0
    if code[0] == "D":
        return 1 | (2 if code[1] == "h" else 4)
    if code in ("H", "Rh"):
        return 2
    return 4


def _suit_cases(
    pair: tuple[int, int], up: int, counts: Sequence[int]
) -> list[tuple[float, float]]:
    """(probability, q) over the suits of a two-card start from {6,7,8} of two ranks.

    q is the chance that a card of the third rank drawn next completes a
    suited 6-7-8. ``counts``: the shoe's rank counts before the deal, each
    rank's cards spread evenly over the four suits (a full shoe, or one whose
    removed cards' suits are unknown). Suits are enumerated exactly, the up
    card's included.

    >>> _suit_cases((6, 7), 2, [24] * 9 + [96])  # suited with chance 1/4, then q = 1/4
    [(0.75, 0.0), (0.25, 0.25)]
    """
    missing = ({6, 7, 8} - set(pair)).pop()
    cases: dict[float, float] = {}
    up_suits = range(4) if up in (6, 7, 8) else [None]

    def share(rank: int, suit: int, up_suit: int | None) -> float:
        taken = rank == up
        n = counts[rank - 1]
        return (n / 4 - (taken and up_suit == suit)) / (n - taken)

    for su in up_suits:
        p_up = 0.25 if su is not None else 1.0
        for sa, sb in itertools.product(range(4), repeat=2):
            prob = p_up * share(pair[0], sa, su) * share(pair[1], sb, su)
            q = share(missing, sa, su) if sa == sb else 0.0
            cases[q] = cases.get(q, 0.0) + prob
    return [(prob, q) for q, prob in sorted(cases.items())]


def analyse_game(
    rules: BlackjackRules,
    progress: Callable[[int, int], None] | None = None,
    shoe: Shoe | None = None,
    distribution: bool = False,
) -> GameAnalysis:
    """Chart, deviations and the EV of a round (chart and optimal play) off the top of a shoe.

    ``shoe``: the cards the round is dealt from (default: a full shoe of
    ``rules.decks``); every rank must be present; suits of removed cards are
    taken as unknown. ``progress(done, total)`` is called after each up card.
    ``distribution``: also compute the exact distribution of a round's net
    result under both strategies (slower: split rounds are enumerated jointly).
    """
    if distribution and rules.max_split_hands > 2:
        from strategy_calc.rules import RulesError

        raise RulesError("outcome distributions with resplits (max_split_hands > 2)"
                         " are not computed; use 2")
    hist_optimal = hist_basic = None
    if distribution:
        import numpy as np

        hist_optimal, hist_basic = np.zeros(HIST_SIZE), np.zeros(HIST_SIZE)
    index, best_total, klass, ncards = _nodes()
    two_card_nodes = [node for node, n in enumerate(ncards) if n == 2]
    klass_bytes = bytes(klass)  # node classes < 64: chart codes by one bytes.translate
    read_nodes = sorted({*two_card_nodes, index[ID_678],
                         *(node for _counts, node in _three_card_nodes())})
    full = shoe if shoe is not None else Shoe.full(rules.decks)
    if min(full.counts) < 1:
        raise CardError("every rank must be left in the shoe to analyse a whole round")
    total_cards = full.total
    conditioning = Conditioning.of(rules)
    params = engine.engine_params(rules)
    memo = engine.dealer_memo(full, rules.dealer_hits_soft_17)
    double_ok = double_allowed_totals(rules)
    id678 = index[ID_678]
    hands = [(a, b) for a in range(1, 11) for b in range(a, 11)]

    cells: dict[tuple[str, int], dict[Rank, Values]] = {}
    per_up: dict[Rank, _UpPass] = {}
    ev_optimal = 0.0
    for step, up in enumerate(UP_ORDER):
        base = full.remove([Card(up)])
        upass = engine.up_card_pass(base, up, params, memo=memo)
        policy = upass.policy_classes
        rows = {node: upass.row(node) for node in read_nodes}
        may_surrender = rules.may_surrender(int(up))
        p_up = full.count(up) / total_cards
        values: dict[tuple[int, int], list[tuple[float, float, Values]]] = {}
        for hand in hands:
            node = node_id(hand)
            weight = rows[node].weight
            if not weight > 0:
                continue
            values[hand] = _deal_values(rules, hand, up, node, rows, id678, base, conditioning,
                                        double_ok, best_total[node], may_surrender)
        per_up[up] = _UpPass(upass, rows, policy, values, p_up, base)
        for hand, cases in values.items():
            node = node_id(hand)
            row = _row_of(hand)
            for prob, _q, vals in cases:
                cell = cells.setdefault(row, {}).setdefault(up, {})
                for action, value in vals.items():
                    cell[action] = cell.get(action, 0.0) + rows[node].weight * prob * value
        if progress is not None:
            progress(step + 1, 2 * len(UP_ORDER))

    # chart rows without pairs first: split hands follow them
    hard: dict[int, dict[str, str]] = {}
    soft: dict[int, dict[str, str]] = {}
    pairs: dict[str, dict[str, str]] = {}
    for up in UP_ORDER:
        policy = per_up[up].policy
        for t in HARD_ROWS:
            summed = cells.get(("hard", t), {}).get(up)
            code = _code(summed, False) if summed else ("H" if policy[t] else "S")
            hard.setdefault(t, {})[up.symbol] = code
        for t in SOFT_ROWS:
            summed = cells.get(("soft", t), {}).get(up)
            code = _code(summed, False) if summed else ("H" if policy[32 + t] else "S")
            soft.setdefault(t, {})[up.symbol] = code

    ev_basic = 0.0
    deviations: list[Deviation] = []
    for step, up in enumerate(UP_ORDER):
        data = per_up[up]
        policy, values, base, p_up = data.policy, data.values, data.base, data.p_up
        rows = data.rows
        chart_codes = array.array("b", klass_bytes.translate(
            bytes(2 if hits else 4 for hits in policy) + bytes(256 - len(policy))))
        for node in two_card_nodes:
            if rows[node].weight > 0:
                t, is_soft = best_total[node], klass[node] >= 32
                codes = (soft if is_soft else hard).get(t)
                bits = _two_card_bits(codes[up.symbol] if codes else None)
                if bits:
                    chart_codes[node] = bits
        for pair_rank in range(1, 11):
            hand = (pair_rank, pair_rank)
            if hand not in values:
                continue
            split = _split_values(rules, base, pair_rank, up, conditioning, chart_codes, memo)
            node = node_id((pair_rank, pair_rank))
            adj = conditioning.blackjack_adjustment(rows[node].no_blackjack)
            for _prob, _q, vals in values[hand]:
                for key, raw in split.items():
                    vals[key] = raw + adj
            cell = cells.setdefault(("pair", pair_rank), {}).setdefault(up, {})
            for key, raw in split.items():
                cell[key] = cell.get(key, 0.0) + rows[node].weight * (raw + adj)
            das_split = rules.split_hands_may_double(pair_rank == 1)
            pairs.setdefault(Rank(pair_rank).symbol, {})[up.symbol] = _code(
                {k: v for k, v in cell.items() if k != "split"} | {"split": cell["split_chart"]},
                das_split)
        optimal_codes = _optimal_codes(data.table) if distribution else chart_codes
        for hand, cases in values.items():
            node = node_id(hand)
            kind, row_key = _row_of(hand)
            if kind == "pair":
                code = pairs[Rank(row_key).symbol][up.symbol]
            else:
                code = (soft if kind == "soft" else hard)[row_key][up.symbol]
            action = _action(code)
            chart_key = {"hit": "hit_chart", "split": "split_chart"}.get(action, action)
            no_bj = rows[node].no_blackjack
            for prob, q, vals in cases:
                best_key = max((a for a in ("stand", "hit", "double", "split", "surrender")
                                if a in vals), key=lambda a: vals[a])
                weight = p_up * rows[node].weight * prob
                ev_optimal += weight * vals[best_key]
                ev_basic += weight * vals[chart_key]
                if hist_optimal is not None and hist_basic is not None:
                    nb = rows[node].no_blackjack
                    _add_deal_distribution(hist_optimal, weight, rules, hand, up, base,
                                           conditioning, best_key, q, nb, optimal_codes, memo,
                                           True)
                    _add_deal_distribution(hist_basic, weight, rules, hand, up, base,
                                           conditioning, action, q, nb, chart_codes, memo,
                                           False)
                opt_ref = {"hit": "hit", "split": "split"}.get(action, action)
                gain = vals[best_key] - vals[opt_ref]
                if prob == cases[0][0] and best_key != opt_ref and gain > 1e-12:
                    deviations.append(Deviation(tuple(Rank(r) for r in hand), up, code,
                                                best_key, conditioning.ev(gain, no_bj)))
        deviations.extend(_three_card_deviations(up, rows, policy, best_total, klass,
                                                 conditioning))
        if progress is not None:
            progress(len(UP_ORDER) + step + 1, 2 * len(UP_ORDER))
    return GameAnalysis(
        rules=rules, hard=hard, soft=soft, pairs=pairs,
        exceptions=tuple(sorted(deviations, key=lambda d: (len(d.hand), d.hand, d.up))),
        ev_basic=ev_basic, ev_optimal=ev_optimal,
        outcomes_basic=_histogram_dict(hist_basic), outcomes_optimal=_histogram_dict(hist_optimal),
    )


def _deal_values(
    rules: BlackjackRules, hand: tuple[int, int], up: Rank, node: int,
    rows: Mapping[int, PassRow], id678: int, base: Shoe, conditioning: Conditioning,
    double_ok: tuple[int, ...], total: int, may_surrender: bool,
) -> list[tuple[float, float, dict[str, float]]]:
    """EV of each action for one initial deal, unconditioned (the whole round).

    Returns (probability, q678, values) per suit case (one case unless the hand
    can make a suited 6-7-8; q678 the chance such a 6-7-8 would be suited).
    Keys: stand, hit (optimal), hit_chart (then the total-dependent play),
    double, surrender where allowed.
    """
    nb = rows[node].no_blackjack
    p_bj = 1.0 - nb
    natural = sorted(hand) == [1, 10]
    adj = conditioning.blackjack_adjustment(nb)
    vals: dict[str, float] = {}
    if natural:
        vals["stand"] = rules.blackjack_pays * nb
    else:
        vals["stand"] = rows[node].stand + adj
    if total < 21:
        vals["hit"] = rows[node].hit + adj
        vals["hit_chart"] = rows[node].policy_hit + adj
    else:
        vals["hit"] = vals["hit_chart"] = -math.inf
    if double_ok[total]:
        vals["double"] = rows[node].double + adj
    if may_surrender:
        vals["surrender"] = -p_bj - 0.5 * nb if rules.surrender_loses_to_blackjack else -0.5
    ranks = set(hand)
    if not (rules.bonus_suited_678 > 0 and ranks <= {6, 7, 8} and len(ranks) == 2):
        return [(1.0, 0.0, vals)]
    # hitting this hand reaches 6-7-8 with the missing card; add the bonus per suit case
    missing = ({6, 7, 8} - ranks).pop()
    left = base.counts[missing - 1] - sum(1 for r in hand if r == missing)
    p_missing = left / (base.total - 2)
    paid = conditioning.paid_at_once(rules.bonus_suited_678, rows[id678].no_blackjack)
    cases = []
    shoe_counts = [n + (i + 1 == up) for i, n in enumerate(base.counts)]
    for prob, q in _suit_cases((hand[0], hand[1]), int(up), shoe_counts):
        case = dict(vals)
        if q > 0:
            case["hit"] += p_missing * q * (paid - rows[id678].optimal)
            case["hit_chart"] += p_missing * q * (paid - rows[id678].policy)
        cases.append((prob, q, case))
    return cases


def _split_values(
    rules: BlackjackRules, base: Shoe, pair: int, up: Rank, conditioning: Conditioning,
    codes: array.array[int], memo: engine.DealerMemo,
) -> dict[str, float]:
    """Raw split values: optimal, by the chart, and by the chart without DAS."""
    values = split_values(rules, base, up, Rank(pair), conditioning, memoryview(codes), memo)
    if values is None or values.chart is None or values.chart_no_das is None:
        return {}
    return {"split": sum(values.optimal), "split_chart": sum(values.chart),
            "split_nodas": sum(values.chart_no_das)}


@lru_cache(maxsize=1)
def _three_card_nodes() -> tuple[tuple[tuple[int, ...], int], ...]:
    """(rank counts, node) of every three-card hand but the bonus hands 7-7-7 and 6-7-8."""
    return tuple((counts, node) for counts, node in engine.node_table().index.items()
                 if sum(counts) == 3 and counts not in ((0, 0, 0, 0, 0, 0, 3, 0, 0, 0), ID_678))


def _three_card_deviations(
    up: Rank, rows: Mapping[int, PassRow], policy: array.array[int], best_total: list[int],
    klass: list[int], conditioning: Conditioning,
) -> list[Deviation]:
    """Three-card hands where the best hit/stand differs from the total-dependent play."""
    found = []
    for counts, node in _three_card_nodes():
        row = rows[node]
        if not row.weight > 0 or best_total[node] >= 21:
            continue
        stand, hit = row.stand, row.hit
        chart_hits = bool(policy[klass[node]])
        best_hits = hit > stand
        if best_hits != chart_hits:
            ranks = tuple(Rank(r + 1) for r in range(10) for _ in range(counts[r]))
            found.append(Deviation(ranks, up, "H" if chart_hits else "S",
                                   "hit" if best_hits else "stand",
                                   conditioning.ev(abs(hit - stand), row.no_blackjack)))
    return found


def autoplay_ev(rules: BlackjackRules) -> float:
    """EV per unit initial bet of a round played by the auto-play policy, from a full shoe.

    Auto-play (Deluxe, on disconnection): hit while the best total is 11 or
    less, then stand; never double, split, surrender or insure. Blackjacks are
    paid; dealer blackjacks included, as in :func:`analyse_game`.
    """
    from strategy_calc.blackjack import AUTOPLAY_POLICY

    full = Shoe.full(rules.decks)
    conditioning = Conditioning.of(rules)
    params = engine.engine_params(rules)
    memo = engine.dealer_memo(full, rules.dealer_hits_soft_17)
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


@dataclass(frozen=True, slots=True)
class BonusValue:
    """What Macau's suited 6-7-8 / 7-7-7 bonuses are worth, and the plays they change.

    EVs per unit initial bet of a round from a full shoe, optimal play; the
    ``changed`` rows are (hand, up card, best play without the bonuses, with).
    """

    rules: BlackjackRules
    ev_with: float
    ev_without: float
    ev_777_only: float
    ev_678_only: float
    chart_changes: tuple[tuple[str, str, str, str], ...]
    changed: tuple[tuple[str, str, str, str], ...]


BONUS_HANDS = ("7,7", "6s,7s", "6s,8s", "7s,8s")


def _cells_side_by_side(
    a: GameAnalysis, b: GameAnalysis
) -> list[tuple[str, str, Mapping[str, str], Mapping[str, str]]]:
    """(section, row label, a's cells, b's cells) for every chart row of two games."""
    rows: list[tuple[str, str, Mapping[str, str], Mapping[str, str]]] = []
    rows += [("hard", str(t), a.hard[t], b.hard[t]) for t in a.hard]
    rows += [("soft", str(t), a.soft[t], b.soft[t]) for t in a.soft]
    rows += [("pair", p, a.pairs[p], b.pairs[p]) for p in a.pairs]
    return rows
"""The two-card starts a bonus can complete (with one more card)."""


def bonus_value(rules: BlackjackRules) -> BonusValue:
    """Compare the game with and without each bonus (optimal play) and list changed plays."""
    from strategy_calc.blackjack import analyse_hand

    if not rules.has_bonus:
        from strategy_calc.rules import RulesError

        raise RulesError(f"ruleset {rules.name!r} pays no 6-7-8 / 7-7-7 bonus")
    plain = replace(rules, bonus_777=0.0, bonus_suited_678=0.0)
    with_game, plain_game = analyse_game(rules), analyse_game(plain)
    only_777 = analyse_game(replace(rules, bonus_suited_678=0.0)).ev_optimal
    only_678 = analyse_game(replace(rules, bonus_777=0.0)).ev_optimal
    chart_changes = [
        (f"{name} {row}", up, before[up], after[up])
        for name, row, after, before in _cells_side_by_side(with_game, plain_game)
        for up in after if after[up] != before[up]
    ]
    changed = []
    for hand in BONUS_HANDS:
        for up_rank in UP_ORDER:
            best_with = analyse_hand(hand, up_rank.symbol, rules).best
            best_without = analyse_hand(hand, up_rank.symbol, plain).best
            if best_with != best_without:
                changed.append((hand, up_rank.symbol, best_without, best_with))
    return BonusValue(rules, with_game.ev_optimal, plain_game.ev_optimal, only_777, only_678,
                      tuple(chart_changes), tuple(changed))


def _optimal_codes(table: UpCardPass) -> array.array[int]:
    """Per node: 2 where hitting beats standing (optimal play), else 4."""
    v = table.values
    return array.array("b", [2 if v[i + 6] > v[i] else 4 for i in range(0, len(v), 8)])


def _histogram_dict(hist: np.ndarray | None) -> dict[float, float] | None:
    """{net result: probability} from an engine histogram (bins of 0.01 units)."""
    if hist is None:
        return None
    return {round((i - HIST_OFFSET) / 100.0, 2): float(hist[i])
            for i in range(len(hist)) if hist[i] > 0.0}


def _add_deal_distribution(
    hist: np.ndarray, weight: float, rules: BlackjackRules, hand: tuple[int, int], up: Rank,
    base: Shoe, conditioning: Conditioning, action: str, q678: float, no_bj: float,
    codes: array.array[int], memo: engine.DealerMemo, optimal: bool,
) -> None:
    """Add ``weight`` times the distribution of one deal's net result under ``action``.

    Later decisions follow ``codes`` (per engine node: 2 hit, 4 stand; the
    chart's also carry its two-card codes); split hands play the chart's codes
    or, when ``optimal``, their own optimal strategy. ``memo``: the pass's
    dealer distributions. In a peek game the engine gives the no-blackjack
    outcomes and the dealer's blackjack (``1 - no_bj``) is added here.
    """
    p_bj = 1.0 - no_bj
    natural = sorted(hand) == [1, 10]
    if natural:  # always stood: paid unless the dealer has blackjack too
        hist[HIST_OFFSET + round(100 * rules.blackjack_pays)] += weight * no_bj
        hist[HIST_OFFSET] += weight * p_bj
        return
    if action == "surrender":
        if rules.surrender_loses_to_blackjack:
            hist[HIST_OFFSET - 100] += weight * p_bj
            hist[HIST_OFFSET - 50] += weight * no_bj
        else:
            hist[HIST_OFFSET - 50] += weight
        return
    import numpy as np

    part = np.zeros(HIST_SIZE)
    if action == "split":
        pair = Rank(hand[0])
        pair_cards = [Card(pair), Card(pair)]
        b777, b678, q_split, _known = bonus_terms(rules, base.remove(pair_cards),
                                                  pair_cards[:1], split_hand=True)
        params = engine.engine_params(rules, conditioning, pair=pair).with_bonus(
            b777, b678, q_split)
        engine.split_distribution(base, pair, up, params,
                                  None if optimal else memoryview(codes), part)
    else:
        params = engine.engine_params(rules, conditioning).with_bonus(
            rules.bonus_777, rules.bonus_suited_678, q678)
        act = {"stand": 0, "hit": 1, "hit_chart": 1, "double": 2}[action]
        engine.hand_distribution(base, [Card(Rank(r)) for r in hand], up, params, act,
                                 memoryview(codes), part, memo)
    if conditioning is Conditioning.PEEK_EXACT:
        part[HIST_OFFSET - 100] += p_bj
    hist += weight * part
