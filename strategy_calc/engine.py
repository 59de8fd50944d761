"""The engine's Python face: one parameter record, the conditioning, named results.

The compiled module :mod:`strategy_calc._engine` is private; the blackjack
code reaches it through this module (:mod:`strategy_calc.baccarat` calls its
baccarat entry point directly). The rules reach it as one
frozen :class:`EngineParams` built in one place (:func:`engine_params`), read
by the engine into one C struct; results come back as named tuples or named
columns. The engine is reentrant: its module-level tables (the player
nodes, the dealer trees) are built once at import, and the dealer trees of a
set of up cards are made on first use, with the GIL held, and kept unchanged
after; no other state outlives a call. A :class:`DealerMemo` (the one cache of
values) is owned by its caller and serves one call at a time.

Units: *raw* values are per unit bet on the engine's scale, which depends on
the :class:`Conditioning`: plain expectations (ENHC, peek shortcut) or
E[payoff * 1{no dealer blackjack}] (peek exact).

>>> from strategy_calc.rules import blackjack_rules
>>> p = engine_params(blackjack_rules("deluxe"))
>>> p.conditioning, p.blackjack_loss, p.second_hand_blackjack_loss
(<Conditioning.PEEK_EXACT: 1>, 1.0, 0.0)
>>> shoe = Shoe.full(1).remove([Card(Rank.SIX)])
>>> round(dealer_probs(shoe, Rank.SIX, False)[5], 6)  # P(bust | 6 up), one deck
0.420823
"""

from __future__ import annotations

import array
import contextlib
import os
import struct
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from enum import IntEnum
from functools import cache, lru_cache
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from strategy_calc.errors import InputError, missing_engine

try:
    from strategy_calc import _engine
except ImportError as _missing:  # the source tree without a build, most often
    raise missing_engine(_missing) from None
from strategy_calc._engine import ChartDeal, DealerMemo, SplitMomentGroup, SplitMomentTable
from strategy_calc.actions import Action, ChartCode
from strategy_calc.cards import Card, Rank, Shoe, rank_counts
from strategy_calc.rules import BlackjackRules, double_allowed_totals
from strategy_calc.rules.bonus_hands import BonusRows, engine_rows

if TYPE_CHECKING:
    import numpy as np  # the distribution histograms only

HIST_SIZE: int = int(_engine.Hist.HIST_SIZE)
HIST_OFFSET: int = int(_engine.Hist.HIST_OFFSET)
"""The engine's outcome histograms: bin ``round(100 x) + HIST_OFFSET`` holds net result
``x`` (read from the compiled module, which declares them in ``_engine.pxd``).

>>> HIST_SIZE, HIST_OFFSET
(2600, 500)
"""

CODE_DOUBLE: int = int(_engine.PlayCode.CODE_DOUBLE)
CODE_HIT: int = int(_engine.PlayCode.CODE_HIT)
CODE_STAND: int = int(_engine.PlayCode.CODE_STAND)
"""The bits of a split hand's per-node play code (``_engine.PlayCode``): double if the
rules allow it, else hit, else stand. :func:`split_hand_code` makes them from a chart cell.
"""
SPLIT_OPTIMAL: int = int(_engine.SplitColumn.SPLIT_OPTIMAL)
SPLIT_CHART: int = int(_engine.SplitColumn.SPLIT_CHART)
SPLIT_CHART_NODAS: int = int(_engine.SplitColumn.SPLIT_CHART_NODAS)
SPLIT_ALL: int = SPLIT_OPTIMAL | SPLIT_CHART | SPLIT_CHART_NODAS
""":func:`split_tables`' ``columns`` (``_engine.SplitColumn``): the split hands' own best
play, the chart's play, the chart's play without doubling after the split."""
TIE: float = int(_engine.Tie.TIE_ULPS) * 2.0 ** -52
"""Exact ties (``_engine.Tie``, the engine's ``beats``): one play is worth more than another
only by more than this (TIE_ULPS units in the last place of 1); within it they tie and the
calmer play is taken (:func:`strategy_calc.blackjack.hand_rules.beats`).

>>> TIE
1.4210854715202004e-14
"""
BACCARAT_CELLS: tuple[tuple[int, int, int, int], ...] = tuple(
    (2 + j, 2 + k, p, b) for j in (0, 1) for k in (0, 1) for p in range(10) for b in range(10))
"""The cells of ``_engine.baccarat_deal_counts``' grid, in order (cell ``200 j + 100 k + 10 p
+ b``): ``(Player's cards, Banker's cards, Player's point, Banker's point)`` of its deals."""

__all__ = [
    "BACCARAT_CELLS",
    "CODE_DOUBLE",
    "CODE_HIT",
    "CODE_STAND",
    "DEALER_22",
    "DEALER_H17",
    "HIST_OFFSET",
    "HIST_SIZE",
    "PASS_COLUMNS",
    "PASS_WIDTH",
    "ROW_ALL",
    "ROW_DOUBLE",
    "ROW_POLICY_HIT",
    "ROW_PRESENT",
    "ROW_STAND",
    "SPLIT_ALL",
    "SPLIT_CHART",
    "SPLIT_CHART_NODAS",
    "SPLIT_OPTIMAL",
    "TIE",
    "WHOLE_GAME_REMOVALS",
    "ChartDeal",
    "Conditioning",
    "DealerMemo",
    "EngineParams",
    "HandValues",
    "NodeTable",
    "OptimalSplitValue",
    "PassRow",
    "SplitMomentGroup",
    "SplitMomentTable",
    "SplitRow",
    "SplitSuits",
    "UpCardPass",
    "box_pair_moments",
    "dealer_memo",
    "dealer_probs",
    "dealer_rule",
    "engine_params",
    "hand_distribution",
    "hand_values",
    "int_array",
    "node_table",
    "resplit_moment_rows",
    "split_cross_sums",
    "split_distribution",
    "split_hand_code",
    "split_moment_group",
    "split_moment_table",
    "split_moments",
    "split_optimal",
    "split_play",
    "split_postsplit",
    "split_tables",
    "up_card_pass",
]


class Conditioning(IntEnum):
    """What the engine's raw values are conditioned on, and how to turn them into EVs."""

    ENHC = 0
    """No hole card checked: plain expectations, a dealer blackjack beats a standing hand."""
    PEEK_EXACT = 1
    """Peek, exact: raw values are E[payoff * 1{no dealer blackjack}] (hole card drawn
    last); divide by P(no blackjack) for the EV given no dealer blackjack."""
    PEEK_SHORTCUT = 2
    """Peek, the common shortcut: draws ignore the hole card, standing uses the dealer
    distribution renormalised to no blackjack; raw values are already conditioned."""

    @classmethod
    def of(cls, rules: BlackjackRules, peek_method: str = "exact") -> Conditioning:
        """The conditioning of a ruleset (``peek_method``: ``exact`` or ``shortcut``).

        >>> from strategy_calc.rules import blackjack_rules
        >>> Conditioning.of(blackjack_rules("macau-1983")).name
        'ENHC'
        """
        if not rules.peek:
            return cls.ENHC
        return cls.PEEK_EXACT if peek_method == "exact" else cls.PEEK_SHORTCUT

    def ev(self, raw: float, no_blackjack: float) -> float:
        """EV per unit initial bet of a raw value, on the public scale of its rules.

        Peek exact: given no dealer blackjack (``raw / no_blackjack``, with
        ``no_blackjack`` the P(no dealer blackjack) at the decision); otherwise
        ``raw`` as it is.

        >>> Conditioning.PEEK_EXACT.ev(-0.45, 0.9), Conditioning.ENHC.ev(-0.45, 0.9)
        (-0.5, -0.45)
        """
        return raw / no_blackjack if self is Conditioning.PEEK_EXACT else raw

    def round_value(self, raw: float, no_blackjack: float) -> float:
        """EV of the whole round (dealer blackjacks included, unconditioned) of a raw value.

        Peek exact: a dealer blackjack takes the initial bet, so the round is
        worth ``raw - P(blackjack)``; ENHC raw values already include it.

        >>> round(Conditioning.PEEK_EXACT.round_value(-0.45, 0.9), 12)
        -0.55
        """
        if self is Conditioning.PEEK_EXACT:
            return raw - (1.0 - no_blackjack)
        return raw

    def paid_at_once(self, amount: float, no_blackjack: float) -> float:
        """Raw value of a payment made at once (a Macau bonus) when the hand is reached.

        Peek exact weights it by P(no dealer blackjack) like every raw value
        (a dealer blackjack would have ended the round first); otherwise as is.

        >>> Conditioning.PEEK_EXACT.paid_at_once(3.0, 0.5), Conditioning.ENHC.paid_at_once(3.0, 0.5)
        (1.5, 3.0)
        """
        return amount * no_blackjack if self is Conditioning.PEEK_EXACT else amount

    def blackjack_adjustment(self, no_blackjack: float) -> float:
        """What :meth:`round_value` adds to a raw value: ``-P(blackjack)`` in peek exact, else 0."""
        return -(1.0 - no_blackjack) if self is Conditioning.PEEK_EXACT else 0.0

    @property
    def peek(self) -> bool:
        """Whether the dealer checks for blackjack (values exclude a dealer blackjack)."""
        return self is not Conditioning.ENHC


@dataclass(frozen=True, slots=True)
class EngineParams:
    """Everything the engine needs to know of the rules for one computation.

    Mirrored field by field by the engine's C ``Params`` struct. Build it with
    :func:`engine_params`; never by hand at a call site.
    """

    conditioning: Conditioning
    dealer_hits_soft_17: bool
    dealer_22_pushes: bool
    """The dealer's 22 is an outcome of its own that pushes every standing hand."""
    blackjack_loss: float
    """What an ENHC dealer blackjack takes from a standing hand on a bet of 1 (first hand)."""
    blackjack_loss_doubled: float
    """... from a doubled first hand."""
    second_hand_blackjack_loss: float
    """The same for every split hand after the first (``enhc_loses = "original"``: 0)."""
    second_hand_blackjack_loss_doubled: float
    bonus_fixed: BonusRows
    """The bonus rows of any suits that pay this hand (``blackjack.bonus.bonus_rows``)."""
    bonus_suited_678: float
    """Suited 6-7-8 bonus paid at once (0: none)."""
    suited_678_chance: float
    """Probability that a 6-7-8 this hand makes is of one suit (0 unless it can)."""
    bonus_settles_hand: bool
    """A suited 6-7-8 is settled once paid (else it also stands as a 21 against the dealer)."""
    double_after_split: bool
    """Split hands may double (already false for one-card split aces)."""
    split_aces_one_card: bool
    """The pair is aces and each split ace takes exactly one card."""
    double_totals: tuple[int, ...]
    """22 flags: a first-two-card best total ``t`` may double when entry ``t`` is 1."""
    charlie_cards: int = 0
    """A hand of this many cards that has not bust wins its bet at once (0: no Charlie)."""
    double_after_hit: bool = False
    """A hand of three or more cards may double, within ``double_totals`` (split hands:
    only where ``double_after_split`` is set)."""
    split_suits: tuple[tuple[float, float, float, float], ...] = ()
    """A split 6, 7 or 8 that plays knowing the suits of its cards: up to four cases of
    its pair card's suit, ``(probability, chance a 6 / 7 / 8 drawn has that suit)``.
    Empty: split hands decide with ``suited_678_chance`` alone."""
    play_error: float = 0.0
    """A play-error rate (``count --play-errors``): every hit-or-stand decision after a
    hand's first (a total below 21) takes the other play with this chance, in the
    hand-played values and distributions (not split hands': their records keep 0)."""
    with_replacement: bool = False  # an infinite deck: every card drawn with replacement

    def with_bonus(self, fixed: BonusRows, bonus_678: float, chance_678: float) -> EngineParams:
        """The same record with one hand's bonus rows of any suits and suited 6-7-8 terms."""
        if (fixed, bonus_678, chance_678) == (
                self.bonus_fixed, self.bonus_suited_678, self.suited_678_chance):
            return self  # (most games have no bonus: nothing to copy)
        return replace(self, bonus_fixed=fixed, bonus_suited_678=bonus_678,
                       suited_678_chance=chance_678)


@dataclass(frozen=True, slots=True)
class SplitSuits:
    """How the suits of a split 6, 7 or 8's two pair cards go together, for the engine's
    joint distribution of the round (:func:`split_distribution`).

    Build it with :func:`strategy_calc.blackjack.split.plan.split_suit_joint`.
    """

    pool: tuple[float, float, float]
    """Cards of known suit among the 6s, 7s and 8s left once both pair cards are gone
    (a card of unknown suit taken out leaves the suit mix as it was: these are the
    shoe's suit rows)."""
    pairs: tuple[tuple[float, int, int, bool], ...]
    """``(probability, hand 1's suit case, hand 2's suit case, one suit)``: the cases
    index each hand's :attr:`EngineParams.split_suits`; the probabilities add up to 1."""


@lru_cache(maxsize=256)
def engine_params(
    rules: BlackjackRules,
    conditioning: Conditioning | None = None,
    pair: Rank | None = None,
) -> EngineParams:
    """The engine's parameter record for ``rules`` (the one place rules become engine input).

    ``conditioning``: default :meth:`Conditioning.of` the rules; ``pair``:
    the rank being split (aces may lose double-after-split and take one card).
    The bonus chance starts at 0; see :meth:`EngineParams.with_bonus`.
    """
    first = rules.dealer_blackjack_takes()
    second = rules.dealer_blackjack_takes(second_split_hand=True)
    aces = pair is Rank.ACE
    return EngineParams(
        conditioning=Conditioning.of(rules) if conditioning is None else conditioning,
        dealer_hits_soft_17=rules.dealer_hits_soft_17,
        dealer_22_pushes=rules.dealer_22_pushes,
        blackjack_loss=first[0],
        blackjack_loss_doubled=first[1],
        second_hand_blackjack_loss=second[0],
        second_hand_blackjack_loss_doubled=second[1],
        bonus_fixed=engine_rows(rules.bonus_rows()),
        bonus_suited_678=rules.suited_678()[0], suited_678_chance=0.0,
        bonus_settles_hand=rules.suited_678()[1],
        double_after_split=rules.split_hands_may_double(aces),
        split_aces_one_card=rules.split_aces_take_one_card(aces),
        double_totals=double_allowed_totals(rules),
        charlie_cards=rules.charlie_cards, with_replacement=rules.infinite_deck,
        double_after_hit=rules.double_after_hit and (
            pair is None or rules.split_hands_may_double(aces)),
    )


def split_hand_code(cell: ChartCode) -> int:
    """The engine's play code (:data:`CODE_DOUBLE` | ...) for a split hand whose first
    two cards fall in a chart cell: the one place a chart code becomes engine bits.

    Double if allowed, then the cell's fallback (hit or stand); 0 in pair rows (a split
    hand is not split again; the hit/stand policy decides). Surrender is never offered
    to a split hand, so its fallback plays.

    >>> from strategy_calc.actions import ChartCode
    >>> [split_hand_code(ChartCode.parse(c)) for c in ("Dh", "Ds", "H", "S", "Rh", "Rs", "P")]
    [3, 5, 2, 4, 2, 4, 0]
    """
    if cell.action is Action.SPLIT:
        return 0
    if cell.action is Action.DOUBLE:
        return CODE_DOUBLE | (CODE_HIT if cell.otherwise is Action.HIT else CODE_STAND)
    if cell.action is Action.HIT or (cell.action is Action.SURRENDER
                                     and cell.otherwise is Action.HIT):
        return CODE_HIT
    return CODE_STAND


def int_array(values: Sequence[int]) -> memoryview:
    """A plain C ``int`` array for the engine."""
    return memoryview(array.array("i", values))


WHOLE_GAME_REMOVALS = 8192
"""Room a whole-game pass's memo makes at once (:func:`dealer_memo`'s ``reserve``): it
holds some 4,800 removals at 1 deck and 7,300 at 8 (the player's hands and the split
hands' with the other pair card)."""


DEALER_H17: int = int(_engine.DealerRule.DEALER_H17)
DEALER_22: int = int(_engine.DealerRule.DEALER_22)
"""The bits of the dealer's rules (``_engine.DealerRule``): he hits soft 17; his 22 is an
outcome of its own, pushing every standing hand."""


def dealer_rule(rules: BlackjackRules) -> int:
    """The dealer's rules as the engine reads them (:data:`DEALER_H17` | :data:`DEALER_22`):
    what :func:`dealer_memo` and :func:`dealer_probs` take.

    >>> dealer_rule(BlackjackRules(dealer_hits_soft_17=True, dealer_22_pushes=True))
    3
    """
    return ((DEALER_H17 if rules.dealer_hits_soft_17 else 0)
            | (DEALER_22 if rules.dealer_22_pushes else 0))


def dealer_memo(origin: Shoe, dealer: int, up: Rank | None = None,
                hints: array.array[int] | None = None, reserve: int = 0) -> DealerMemo:
    """A caller-owned memo of dealer distributions for shoes ``origin`` less some cards.

    ``dealer``: the dealer's rules, :func:`dealer_rule` (a bool: whether he hits soft 17).
    ``origin`` holds the up card (e.g. the full shoe of a whole-game pass);
    ``up``: keep only that up card's rows (default: all ten). ``hints``: per player
    node, the up cards its rows will be wanted against (:meth:`DealerMemo.hint`; a
    speed-up only, e.g. :func:`strategy_calc.blackjack.game_pass.memo_hints`). ``reserve``: removals
    to make room for at once (e.g. :data:`WHOLE_GAME_REMOVALS`; a speed-up only).
    """
    memo = DealerMemo(int_array(origin.counts), int(dealer), 0 if up is None else int(up),
                      reserve)
    if hints is not None:
        memo.hint(memoryview(hints))
    return memo


def dealer_probs(shoe: Shoe, up: Rank, dealer: int) -> tuple[float, ...]:
    """Dealer outcome probabilities ``(17, 18, 19, 20, 21, bust, blackjack, 22)`` (the keys of
    :data:`~strategy_calc.actions.OUTCOMES`), unconditioned, under the dealer's rules
    ``dealer`` (:func:`dealer_rule`; a bool: whether he hits soft 17). Without
    :data:`DEALER_22` a 22 is a bust and its entry 0.

    ``shoe``: the cards left once the up card is gone; they sum to less than 1
    when the dealer could run out (an infinite shoe, :attr:`Shoe.infinite`: with replacement).
    """
    return tuple(_engine.dealer_probs(int_array(shoe.counts), int(up), int(dealer), shoe.infinite))


class HandValues(NamedTuple):
    """Raw values of one hand (engine scale, see :class:`Conditioning`)."""

    stand: float
    hit: float
    """Hit then play on optimally; -inf for a hand of 21."""
    double: float
    no_blackjack: float
    """P(no dealer blackjack) with the hand's cards gone."""
    one_card: float
    """One card then stand on the original bet."""
    policy: float
    """Hit/stand by the given total-dependent policy (NaN without one)."""


def hand_values(
    base: Shoe, hand: Sequence[Card], up: Rank, params: EngineParams,
    policy: memoryview | None = None,
) -> HandValues:
    """Raw values of ``hand`` against ``up``; ``base`` still holds the hand (not the up card)."""
    return HandValues(*_engine.hand_values(int_array(base.counts), int_array(rank_counts(hand)),
                                           int(up), params, policy))


class SplitRow(NamedTuple):
    """One split hand's raw values with ``a`` extra pair cards gone: ``(X, P, X_chart,
    P_chart, X_chart_nodas, P_chart_nodas)`` (:mod:`strategy_calc.blackjack.split.combine`)."""

    optimal: float
    optimal_pair: float
    chart: float
    chart_pair: float
    chart_no_das: float
    chart_no_das_pair: float


def split_tables(
    base: Shoe, pair: Rank, up: Rank, params: EngineParams, max_extra: int,
    chart_codes: memoryview | None = None, memo: DealerMemo | None = None,
    columns: int = SPLIT_ALL, frozen_at: int = 0, lazy: bool = False,
) -> tuple[list[SplitRow], list[SplitRow]]:
    """Rows for the first split hand and for the others (``base``: both pair cards in).

    ``columns``: bit 1 optimal, 2 chart, 4 chart without DAS (the rest NaN);
    ``frozen_at``: the extra pair cards gone whose best decisions the optimal rows play
    (-1: every row its own removal's best decisions);
    ``lazy``: the memo fills rows one up card at a time first (a pair split against a few
    up cards only; a speed-up only)."""
    first, others = _engine.split_tables(int_array(base.counts), int(pair), int(up), params,
                                         max_extra, chart_codes, memo, columns, frozen_at,
                                         lazy)
    rows_first = [SplitRow(*row) for row in first]
    return rows_first, rows_first if others is first else [SplitRow(*row) for row in others]


PASS_WIDTH: int = int(_engine.PassColumn.PASS_WIDTH)
"""Doubles in one row of :class:`UpCardPass` (one row per player node)."""
_ROW = struct.Struct(f"{PASS_WIDTH}d")
"""One row of :class:`UpCardPass` (native order)."""

PASS_COLUMNS: tuple[str, ...] = tuple(
    column.name.removeprefix("COL_").lower()
    for column in sorted(_engine.PassColumn, key=int) if column.name.startswith("COL_"))
"""The columns :func:`up_card_pass` fills, per player node (raw values), in the order of
``_engine.PassColumn`` (``_engine.pxd``).

>>> PASS_COLUMNS
('stand', 'optimal', 'double', 'policy', 'weight', 'no_blackjack', 'hit', 'policy_hit')
"""
COL_STAND: int = int(_engine.PassColumn.COL_STAND)
COL_DOUBLE: int = int(_engine.PassColumn.COL_DOUBLE)
COL_HIT: int = int(_engine.PassColumn.COL_HIT)
COL_WEIGHT: int = int(_engine.PassColumn.COL_WEIGHT)
COL_NO_BLACKJACK: int = int(_engine.PassColumn.COL_NO_BLACKJACK)
COL_POLICY_HIT: int = int(_engine.PassColumn.COL_POLICY_HIT)
"""Offsets of some :data:`PASS_COLUMNS` in a node's row
(``UpCardPass.values[PASS_WIDTH * node + c]``)."""
ROW_ALL: int = int(_engine.RowFlag.ROW_ALL)
ROW_STAND: int = int(_engine.RowFlag.ROW_STAND)
ROW_POLICY_HIT: int = int(_engine.RowFlag.ROW_POLICY_HIT)
ROW_DOUBLE: int = int(_engine.RowFlag.ROW_DOUBLE)
ROW_PRESENT: int = int(_engine.RowFlag.ROW_PRESENT)
"""Flags of :func:`up_card_pass`'s ``rows``: the whole row, or (a fixed policy) only the
named columns; ``ROW_PRESENT`` alone: just ``weight`` and ``no_blackjack``."""


class PassRow(NamedTuple):
    """One player node's raw values against one up card (a row of :class:`UpCardPass`)."""

    stand: float
    optimal: float
    """Best of standing and hitting (composition-dependent)."""
    double: float
    policy: float
    """Hitting or standing by the total-dependent policy."""
    weight: float
    """The node's probability as a draw from the shoe less the up card (NaN: impossible)."""
    no_blackjack: float
    """P(no dealer blackjack) with the node's cards gone."""
    hit: float
    """Hit, then play on optimally (-1e300 at 21)."""
    policy_hit: float
    """Hit, then follow the policy (the stand value at 21)."""


@dataclass(frozen=True, slots=True)
class UpCardPass:
    """Every player node's raw values against one up card: rows of :class:`PassRow`.

    Rows of nodes the shoe cannot hold (or of fewer than two cards) are NaN;
    ``policy_classes[class]`` is 1 where the total-dependent policy hits.
    """

    values: array.array[float]
    """``n_nodes x PASS_WIDTH`` doubles, row by row, columns :data:`PASS_COLUMNS`."""
    policy_classes: array.array[int]

    def row(self, node: int) -> PassRow:
        """The named values of one node."""
        return PassRow._make(_ROW.unpack_from(self.values, _ROW.size * node))

    def rows(self, nodes: Iterable[int]) -> dict[int, PassRow]:
        """:meth:`row` of each of ``nodes``, by node."""
        values, unpack, make = self.values, _ROW.unpack_from, PassRow._make
        size = _ROW.size
        return {node: make(unpack(values, size * node)) for node in nodes}

    def column(self, name: str) -> list[float]:
        """One named column, every node."""
        return self.values[PASS_COLUMNS.index(name)::PASS_WIDTH].tolist()


def up_card_pass(
    base: Shoe, up: Rank, params: EngineParams, policy: memoryview | None = None,
    memo: DealerMemo | None = None, rows: bytes | None = None, optimal: bool = True,
    chart: bool = True,
) -> UpCardPass:
    """Every player hand against ``up`` (``base``: the shoe less the up card).

    ``policy``: a fixed hit/stand policy per node class (e.g. auto-play); by
    default the total-dependent policy is derived and returned. ``rows``: one
    flag per node (nonzero: fill its row; the others stay NaN), default every
    row; with a fixed ``policy`` only what those rows need is computed, and a flag
    without :data:`ROW_ALL` fills only the columns it names (:data:`ROW_STAND`,
    :data:`ROW_POLICY_HIT`, :data:`ROW_DOUBLE`; ``weight`` and ``no_blackjack`` always;
    ``policy``, ``optimal`` and ``hit`` only in whole rows).
    ``optimal`` False: the ``optimal`` and ``hit`` columns stay NaN (not computed).
    ``chart`` False (optimal play alone, no ``policy``): the ``policy`` and ``policy_hit``
    columns, and ``double`` but for two-card hands, stay NaN and no policy is derived
    (:attr:`UpCardPass.policy_classes` all 0: stand).
    """
    n = node_table().n_nodes
    values = array.array("d", bytes(_ROW.size * n))
    fixed = policy is not None
    classes = array.array("b", bytes(policy) if policy is not None else bytes(64))
    table = memoryview(values).cast("B").cast("d", [n, PASS_WIDTH])
    wanted = memoryview(rows).cast("b") if rows is not None else None
    _engine.up_card_pass(int_array(base.counts), int(up), params, table, classes, fixed, memo,
                         wanted, optimal, chart)
    return UpCardPass(values, classes)


Histogram: TypeAlias = "np.ndarray | array.array[float]"
"""A writable buffer of :data:`HIST_SIZE` doubles the engine adds a distribution to (a
numpy array, or an ``array('d')`` where numpy's import is not worth its time)."""


def hand_distribution(
    base: Shoe, hand: Sequence[Card], up: Rank, params: EngineParams, action: int,
    codes: memoryview | None, hist: Histogram, memo: DealerMemo | None = None,
    bj_hist: Histogram | None = None,
) -> None:
    """Add one unsplit hand's net-result distribution to ``hist`` (see the engine;
    ``bj_hist``, ENHC only: the outcomes with a dealer blackjack go there instead)."""
    _engine.hand_distribution(int_array(base.counts), int_array(rank_counts(hand)), int(up),
                              params, action, codes, hist, memo, bj_hist)


def split_distribution(
    base: Shoe, pair: Rank, up: Rank, params: EngineParams, codes: memoryview | None,
    hist: Histogram, memo: DealerMemo | None = None, second: EngineParams | None = None,
    suits: SplitSuits | None = None, bj_hist: Histogram | None = None,
) -> None:
    """Add a split round's net-result distribution to ``hist`` (see the engine;
    ``second``: the second hand's parameters, if they differ; ``suits``: the pair
    cards' joint suits, needed when the hands know their suits; ``bj_hist``: as in
    :func:`hand_distribution`)."""
    _engine.split_distribution(int_array(base.counts), int(pair), int(up), params, codes, hist,
                               memo, second, suits, bj_hist)


def split_moments(
    base: Shoe, pair: Rank, up: Rank, params: EngineParams, codes: memoryview | None,
    second: EngineParams | None = None, table: SplitMomentTable | None = None,
    cross: float | None = None, memo: DealerMemo | None = None,
) -> tuple[float, float, float] | None:
    """Raw ``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of a split round (the round of
    :func:`split_distribution`, hands that do not see their suits), or None for a shoe the
    dealer could run out of (see the engine). ``table``: the round's
    :func:`split_moment_table` (its cross sums from one dealer evaluation per union of the
    hands' cards); or ``cross``: those sums already made for this shoe
    (:func:`split_cross_sums`). ``memo``: a dealer memo whose origin is ``base`` plus the
    up card (the round's pass's: its rows serve every split round of the pass)."""
    got = _engine.split_moments(int_array(base.counts), int(pair), int(up), params, codes,
                                memo, second, table, cross)
    return None if got is None else (float(got[0]), float(got[1]), float(got[2]))


def resplit_moment_rows(
    base: Shoe, pair: Rank, up: Rank, params: EngineParams, codes: memoryview | None,
    rows: int, second: EngineParams | None = None,
) -> list[tuple[float, ...] | None]:
    """The raw sums of a resplit round's moments, one row per count of further pair cards
    gone (0 .. ``rows`` - 1; None where the shoe has too few): see the engine's
    ``resplit_moment_rows`` for the layout and
    :func:`strategy_calc.blackjack.split.combine.combine_moments` for their use. ``codes`` None:
    each hand's own best play, frozen (``cdp1``)."""
    got = _engine.resplit_moment_rows(int_array(base.counts), int(pair), int(up), params,
                                      codes, rows, second)
    return [None if row is None else tuple(float(x) for x in row) for row in got]


def box_pair_moments(
    base: Shoe, up: Rank, params: EngineParams, actions: memoryview, codes: memoryview,
    split_codes: Sequence[memoryview | None], split_params: Sequence[EngineParams | None],
    blackjack_pays: float, surrender_blackjack_loss: float,
) -> tuple[float, float, float, float]:
    """``(E[X1], E[X1^2] less the split starts' part, E[X1 X2], E[X1 1{dealer
    blackjack}])`` of two boxes dealt off
    ``base`` (up card ``up`` gone), per unit bet a box, given the up card, every dealer
    outcome included; each box plays ``actions`` (its two-card play per pair of rank
    indexes, ``10 a + b``, a <= b: 0 stand, 1 hit, 2 double, 3 split, 4 surrender) then
    ``codes`` (per node), a split of rank index p ``split_codes[p]`` and
    ``split_params[p]`` where not None. See the engine's docstring for how."""
    got = _engine.box_pair_moments(int_array(base.counts), int(up), params, actions, codes,
                                   list(split_codes), list(split_params), blackjack_pays,
                                   surrender_blackjack_loss)
    return float(got[0]), float(got[1]), float(got[2]), float(got[3])


def split_moment_group(tables: Sequence[SplitMomentTable]) -> SplitMomentGroup:
    """Split moment tables of one up card with their unions merged, so that
    :func:`split_cross_sums` evaluates the dealer once per distinct union."""
    return _engine.split_moment_group(tuple(tables))


def split_cross_sums(group: SplitMomentGroup, base: Shoe) -> tuple[float, ...] | None:
    """Each of ``group``'s tables' cross sums for ``base`` (up card gone), in its order:
    what :func:`split_moments` takes as ``cross``; None for a shoe the dealer could run
    out of."""
    got = _engine.split_cross_sums(group, int_array(base.counts))
    return None if got is None else tuple(float(x) for x in got)


def split_moment_table(
    reference: Shoe, pair: Rank, up: Rank, params: EngineParams, codes: memoryview,
    second: EngineParams | None = None,
) -> SplitMomentTable | None:
    """The shoe-free cross sums of a split round whose hands play ``codes``, for
    :func:`split_moments` on ``reference`` (both pair cards in it, up card gone) and on
    every shoe with no more cards of any rank; None for a shoe the dealer could run out of."""
    return _engine.split_moment_table(int_array(reference.counts), int(pair), int(up), params,
                                      codes, second)


def split_play(base: Shoe, pair: Rank, up: Rank, params: EngineParams,
               memo: DealerMemo | None = None, second_hand: bool = False
               ) -> tuple[bytes, bytes]:
    """The decisions one split hand plays for its own cards (cdp1; see the engine):
    per-node codes, and a split 6, 7 or 8's two-card codes by suit (``second_hand``: the
    hand after the first, with its own blackjack losses)."""
    codes, suited = _engine.split_play(int_array(base.counts), int(pair), int(up), params, memo,
                                       second_hand)
    return codes, suited


def split_postsplit(base: Shoe, pair: Rank, up: Rank, params: EngineParams,
                    second: EngineParams | None = None) -> tuple[float, float]:
    """Raw values of one split where the second hand sees the first hand's cards
    (``second``: the second hand's parameters, if they differ)."""
    one, two = _engine.split_postsplit(int_array(base.counts), int(pair), int(up), params,
                                       second)
    return float(one), float(two)


class OptimalSplitValue(NamedTuple):
    """The fully optimal split's raw value and what computing it took."""

    raw: float
    """Raw value of the split, all hands, per unit initial bet (the engine's scale)."""
    states: int
    """Between-hands states solved (the canonical memo's entries)."""
    dealer_evaluations: int
    """Distinct final shoes whose dealer distribution was computed."""
    memo_bytes: int
    """Memory the memos held at the end, in bytes."""


_MEMORY_LIMIT: ContextVar[int | None] = ContextVar("memory_limit", default=None)


def default_memory_limit() -> int:
    """Three quarters of this machine's physical memory, in bytes: the fully optimal
    split's memos stop there unless told otherwise, rather than make the machine swap."""
    try:
        physical = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: assume 4 GiB
        physical = 4 << 30
    return physical * 3 // 4


def memory_limit() -> int:
    """The memory limit in force, bytes (:func:`limited_memory`, else the default)."""
    given = _MEMORY_LIMIT.get()
    return default_memory_limit() if given is None else given


@contextlib.contextmanager
def limited_memory(mib: float | None) -> Iterator[None]:
    """Within the block, the fully optimal split's memos hold at most ``mib`` MiB
    (``--memory-limit``; None: the default, :func:`default_memory_limit`).

    >>> with limited_memory(64):
    ...     memory_limit() == 64 * 2**20
    True
    """
    if mib is not None and not (mib > 0 and mib < float("inf")):
        raise InputError(f"--memory-limit is a number of MiB above 0, not {mib:g}")
    token = _MEMORY_LIMIT.set(None if mib is None else int(mib * 2**20))
    try:
        yield
    finally:
        _MEMORY_LIMIT.reset(token)


def split_optimal(
    base: Shoe, pair: Rank, up: Rank, params: EngineParams, max_hands: int,
    progress: Callable[[int, int], None] | None = None,
    second: EngineParams | None = None, resplit: EngineParams | None = None,
    own_only: bool | None = None,
) -> OptimalSplitValue:
    """The fully optimal split (every decision uses every card seen; the whole round's EV).

    ``base``: the shoe with both pair cards in (up card gone); ``max_hands``:
    2 (one split) to 4. ``progress(done, 10)`` after each second card of hand 1.
    ``params``: hand 1's; ``second`` / ``resplit``: hand 2's and the resplit hands'
    where their suited 6-7-8 terms differ (default ``params``). ``own_only``: settle
    each hand at its end (:class:`~strategy_calc._engine.OptimalSplit`; default: with
    resplits, where it is exact). Its memos stay within :func:`memory_limit` (an
    ``InputError`` says when they would not).

    >>> from strategy_calc.rules import blackjack_rules
    >>> shoe = Shoe.full(1).remove([Card(Rank.ACE)])
    >>> v = split_optimal(shoe, Rank.ACE, Rank.ACE, engine_params(blackjack_rules("deluxe"),
    ...                   pair=Rank.ACE), 2)
    >>> v.states > 0 and v.raw > 0
    True
    """
    solver = _engine.OptimalSplit(int_array(base.counts), int(pair), int(up), params, max_hands,
                                  second, resplit, own_only, memory_limit())
    raw = 0.0
    for rank in range(1, 11):
        raw += float(solver.card(rank))
        if progress is not None:
            progress(rank, 10)
    return OptimalSplitValue(raw, int(solver.states), int(solver.dealer_evaluations),
                             int(solver.bytes))


@dataclass(frozen=True, slots=True)
class NodeTable:
    """The engine's static player-node table: every multiset of cards with hard total <= 21."""

    index: dict[tuple[int, ...], int]
    """Node id by rank counts (ace first)."""
    best_total: list[int]
    klass: list[int]
    """Best total, plus 32 when soft: the key of a total-dependent policy."""
    ncards: list[int]

    @property
    def n_nodes(self) -> int:
        return len(self.best_total)

    def node(self, ranks: Sequence[int]) -> int:
        """Node of a multiset of ranks (1..10)."""
        return self.index[rank_counts([Card(Rank(r)) for r in ranks])]


@cache
def node_table() -> NodeTable:
    """The node table (built once)."""
    counts, best, klass, ncards, _children = _engine.node_table()
    return NodeTable({tuple(c): i for i, c in enumerate(counts)}, best, klass, ncards)
