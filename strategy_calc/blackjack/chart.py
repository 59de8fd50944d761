"""The basic-strategy chart of a game pass, and the hands where the best play differs from it.

- *Chart* (two-card decisions): for each hard total (pairs excluded), soft
  total and pair, against each up card, the action with the highest EV summed
  over the two-card hands of that row, weighted by their deal probability
  (:func:`cell_code`). Split hands follow the chart rows of their totals (no
  resplit).
- After the first decision the chart hits or stands by the total-dependent
  policy the engine derives (hit when hitting beats standing summed over every
  composition of that total, from the highest totals down).
- *Deviations*: the two- and three-card hands whose best composition-dependent
  play differs from the chart, with what it gains.

>>> row_of((1, 7)), row_of((8, 8)), row_of((10, 6))
(('soft', 18), ('pair', 8), ('hard', 16))
>>> sums = DealValues(1.0, 0.0, stand=-0.2, hit=-0.1, hit_chart=-0.1, double=-0.05)
>>> str(cell_code(sums, das_split=False))  # doubling is best, else hit
'Dh'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from strategy_calc import engine
from strategy_calc.actions import Action, ChartCode
from strategy_calc.blackjack.deals import HARD_ROWS, SOFT_ROWS, UP_ORDER, DealValues, accumulate
from strategy_calc.blackjack.game_pass import GamePass, UpCardDeals, three_card_nodes
from strategy_calc.blackjack.hand_rules import beats, best_play, hand_total
from strategy_calc.cards import Rank
from strategy_calc.engine import Conditioning, node_table

ChartRow = tuple[str, int]
"""A chart row: ("hard", total), ("soft", total) or ("pair", rank)."""
Cells = dict[ChartRow, dict[Rank, DealValues]]
"""Per row and up card: the deal-weighted sum of each action's EV."""


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
    suited: bool = False
    """The two cards are of one suit (a Macau 6-7 / 6-8 / 7-8 start that can make a suited
    6-7-8): the play the bonus changes."""

    def __str__(self) -> str:
        cards = ",".join(r.symbol for r in self.hand) + (" suited" if self.suited else "")
        return f"{cards} vs {self.up.symbol}: {self.best} (chart: {self.chart}, +{self.gain:.5f})"


@dataclass(frozen=True, slots=True)
class Chart:
    """A basic strategy as one value: the chart's two-card cells, and the total-dependent
    hit/stand play it follows after the first decision.

    Cells are codes (:class:`~strategy_calc.actions.ChartCode`, read by :meth:`code`),
    by row and up-card symbol (``2``..``9``, ``T``, ``A``).
    """

    hard: dict[int, dict[str, str]]
    soft: dict[int, dict[str, str]]
    pairs: dict[str, dict[str, str]]
    policies: Mapping[Rank, bytes]
    """Per up card, the total-dependent hit/stand play after the first decision (1 hits),
    by node class: best total, plus 32 when soft (:attr:`UpCardDeals.policy` of the pass
    the chart was read from)."""
    insure: bool = False
    """The chart insures every start against an ace (:func:`chart_insures`), a natural
    too unless its cell takes even money (``E``): :meth:`insures`."""

    def insures(self, action: Action) -> bool:
        """Whether a start the chart plays with ``action`` (its cell's) is insured, where
        insurance is offered: the chart insures, and the start does not take even money."""
        return self.insure and action is not Action.EVEN_MONEY

    def code(self, hand: tuple[int, int], up: Rank) -> ChartCode:
        """The cell of a two-card start."""
        kind, key = row_of(hand)
        if kind == "pair":
            return ChartCode.parse(self.pairs[Rank(key).symbol][up.symbol])
        return ChartCode.parse((self.soft if kind == "soft" else self.hard)[key][up.symbol])

    def total_code(self, total: int, soft: bool, up: Rank) -> ChartCode:
        """The cell of a hard or soft total's row (a split hand's two-card play)."""
        return ChartCode.parse((self.soft if soft else self.hard)[total][up.symbol])

    def after_hit_rows(self) -> dict[str, dict[int, dict[str, str]]]:
        """The play of hands of three or more cards (double_after_hit), as chart rows:
        ``{"hard": {total: {up: code}}, "soft": ...}`` for each total the chart doubles
        against some up card (``Dh``: double, else hit; ``Ds``: double, else stand; ``H``,
        ``S`` against the others); empty when it never doubles after a hit.

        >>> plays = {up: bytes(64) for up in Rank}
        >>> plays[Rank.SIX] = bytes(10) + bytes([3]) + bytes(53)  # hard 10: double vs 6
        >>> Chart({}, {}, {}, plays).after_hit_rows()["hard"][10]["6"]
        'Dh'
        """
        rows: dict[str, dict[int, dict[str, str]]] = {}
        for kind, offset in (("hard", 0), ("soft", 32)):
            totals = sorted({t for play in self.policies.values()
                             for t in range(4, 22) if play[offset + t] & 2})
            if totals:
                rows[kind] = {t: {up.symbol: _policy_letter(self.policies[up][offset + t])
                                  for up in UP_ORDER if up in self.policies} for t in totals}
        return rows

    def split_hand_bits(self, up: Rank) -> dict[tuple[int, bool], int]:
        """Per (two-card total, soft): the engine code a split hand takes there
        (:func:`~strategy_calc.engine.split_hand_code` of the cell)."""
        bits = {}
        for total, row in self.hard.items():
            bits[(total, False)] = engine.split_hand_code(ChartCode.parse(row[up.symbol]))
        for total, row in self.soft.items():
            bits[(total, True)] = engine.split_hand_code(ChartCode.parse(row[up.symbol]))
        return bits


def row_of(ranks: tuple[int, int]) -> ChartRow:
    """The chart row of a two-card hand: ("pair", rank), ("soft", total) or ("hard", total)."""
    a, b = ranks
    if a == b:
        return "pair", a
    total, soft = hand_total(ranks)
    return ("soft" if soft else "hard"), total


def cell_code(values: DealValues, das_split: bool) -> ChartCode:
    """The chart code of a cell from the summed EV of each allowed action.

    For a pair row ``values.split`` must hold the chart-played split and
    ``split_no_das`` the same without doubling after the split (``Ph`` when
    only doubling after the split makes splitting best).
    """
    play = values.allowed()
    best = best_play(play)
    if values.even_money is not None and beats(values.even_money, play[best]):
        return ChartCode(Action.EVEN_MONEY)  # (a natural's cell: one hand, A,T)
    fallback = Action.HIT if beats(values.hit, values.stand) else Action.STAND
    if best is Action.DOUBLE:
        return ChartCode(Action.DOUBLE, fallback)
    if best is Action.SURRENDER:
        rest: dict[Action, float] = {a: v for a, v in play.items()
                                     if a in (Action.STAND, Action.HIT, Action.SPLIT)}
        return ChartCode(Action.SURRENDER, best_play(rest))
    if best is Action.SPLIT:
        no_das = values.split_no_das
        if das_split and no_das is not None and beats(max(values.hit, values.stand), no_das):
            return ChartCode(Action.SPLIT, fallback)
        return ChartCode(Action.SPLIT)
    return ChartCode(best)


def chart_insures(cells: Cells) -> bool:
    """Whether the chart takes insurance: a player without a count takes it with every
    start or none, so with all when their insurance bets, weighted by how often each
    start comes, sum to more than nothing. Never off the top of a full shoe (a third of
    the cards would have to be tens); a shoe given by its counts may be that rich.

    A natural whose cell takes even money (``E``) has no insurance to take; it is in the
    sum all the same (its insurance is worth less than any other start's: it holds a ten).
    """
    total = 0.0
    for by_up in cells.values():
        summed = by_up.get(Rank.ACE)
        if summed is not None and summed.insurance is not None:
            total += summed.insurance
    return total > 0.0


def cell_sums(game: GamePass) -> Cells:
    """Each row's deal-weighted sums per up card (pair rows without their splits yet)."""
    cells: Cells = {}
    for up, ups in game.ups.items():
        for hand, cases in ups.deals.items():
            weight = ups.weight(hand)
            row = cells.setdefault(row_of(hand), {})
            for case in cases:
                row[up] = accumulate(row.get(up), case, weight * case.probability)
    return cells


def _policy_letter(play: int | bool) -> str:
    """The chart letter of a total-dependent policy entry: hit (bit 1) or stand, doubling
    first where bit 2 says so (double_after_hit: ``Dh``, ``Ds``)."""
    fallback = Action.HIT if play & 1 else Action.STAND
    return str(ChartCode(Action.DOUBLE, fallback)) if play & 2 else fallback.letter


def totals_chart(game: GamePass, cells: Cells) -> tuple[dict[int, dict[str, str]],
                                                         dict[int, dict[str, str]]]:
    """The hard and soft rows (pairs excluded); rows no two-card hand reaches use the policy."""
    hard: dict[int, dict[str, str]] = {}
    soft: dict[int, dict[str, str]] = {}
    for up in UP_ORDER:
        policy = game.ups[up].policy
        for t in HARD_ROWS:
            summed = cells.get(("hard", t), {}).get(up)
            code = str(cell_code(summed, False)) if summed else _policy_letter(policy[t])
            hard.setdefault(t, {})[up.symbol] = code
        for t in SOFT_ROWS:
            summed = cells.get(("soft", t), {}).get(up)
            code = str(cell_code(summed, False)) if summed else _policy_letter(policy[32 + t])
            soft.setdefault(t, {})[up.symbol] = code
    return hard, soft


def add_pair_cells(
    game: GamePass, cells: Cells, ups: UpCardDeals, splits: Mapping[int, tuple[float, ...]],
    pairs: dict[str, dict[str, str]],
) -> None:
    """Add the split sums to the pair cells against ``ups.up`` and decide their codes.

    ``splits``: per pair rank, its (optimal, chart, chart without DAS) split
    values; a pair the rules do not let split is coded from the other actions.
    """
    for hand in ups.deals:
        pair_rank = hand[0]
        if hand[1] != pair_rank:
            continue
        row = cells.setdefault(("pair", pair_rank), {})
        cell = row[ups.up]
        if pair_rank in splits:
            split, chart, no_das = splits[pair_rank]
            weight = ups.weight(hand)
            cell = cell._replace(
                split=(cell.split or 0.0) + weight * split,
                split_chart=(cell.split_chart or 0.0) + weight * chart,
                split_no_das=(cell.split_no_das or 0.0) + weight * no_das,
            )
            row[ups.up] = cell
        code = cell_code(cell._replace(split=cell.split_chart),
                         game.plans[Rank(pair_rank)].may_double)
        pairs.setdefault(Rank(pair_rank).symbol, {})[ups.up.symbol] = str(code)


def two_card_deviations(
    ups: UpCardDeals, chart: Chart, conditioning: Conditioning
) -> list[Deviation]:
    """Two-card starts whose best play beats the chart's.

    A start with suit cases (Macau's 6-7, 6-8, 7-8) is judged on its first
    case (any unsuited cards) and, separately, on its likeliest suited case,
    where the suited 6-7-8 bonus can change the best play.
    """
    found = []
    for hand, cases in ups.deals.items():
        code = chart.code(hand, ups.up)
        judged = [(case, False) for case in cases if case.probability == cases[0].probability]
        suited = [case for case in cases if case.q678 > 0]
        if suited and cases[0].q678 == 0:
            judged.append((max(suited, key=lambda c: c.probability), True))
        for case, is_suited in judged:
            best = case.best()
            chosen, best_value = case.value(code.action), case.value(best)
            assert chosen is not None and best_value is not None
            gain = best_value - chosen
            if best is not code.action and gain > 1e-12:
                found.append(Deviation(tuple(Rank(r) for r in hand), ups.up, str(code),
                                       best.value, conditioning.ev(gain, ups.no_blackjack(hand)),
                                       is_suited))
    return found


def three_card_deviations(ups: UpCardDeals, conditioning: Conditioning,
                          late_double: bool = False) -> list[Deviation]:
    """Three-card hands where the best play differs from the total-dependent play: hit or
    stand, and with ``late_double`` (double_after_hit; the hand may double, its ``double``
    value is there) doubling too."""
    table = node_table()
    found = []
    for counts, node in three_card_nodes():
        row = ups.rows[node]
        if not row.weight > 0 or table.best_total[node] >= 21:
            continue
        play = ups.policy[table.klass[node]] if late_double else ups.policy[
            table.klass[node]] & 1
        values = {Action.STAND: row.stand, Action.HIT: row.hit}
        best = Action.HIT if beats(row.hit, row.stand) else Action.STAND
        if late_double and row.double == row.double:
            values[Action.DOUBLE] = row.double
            if beats(row.double, values[best]):
                best = Action.DOUBLE
        chart = (Action.DOUBLE if play & 2 and Action.DOUBLE in values
                 else Action.HIT if play & 1 else Action.STAND)
        if best is not chart:
            ranks = tuple(Rank(r + 1) for r in range(10) for _ in range(counts[r]))
            found.append(Deviation(ranks, ups.up, _policy_letter(play), best.value,
                                   conditioning.ev(values[best] - values[chart],
                                                   row.no_blackjack)))
    return found


__all__ = ["Chart", "Deviation", "add_pair_cells", "cell_code", "cell_sums", "chart_insures",
           "row_of",
           "three_card_deviations", "totals_chart", "two_card_deviations"]
