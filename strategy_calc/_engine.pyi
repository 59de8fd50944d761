"""Type stubs of the compiled engine ``strategy_calc._engine`` (private: use ``engine``)."""

import array
from collections.abc import Sequence
from enum import IntEnum
from typing import Any

Row = tuple[float, float, float, float, float, float]

class Hist(IntEnum):
    HIST_OFFSET = 500
    HIST_SIZE = 2600

class PassColumn(IntEnum):
    COL_STAND = 0
    COL_OPTIMAL = 1
    COL_DOUBLE = 2
    COL_POLICY = 3
    COL_WEIGHT = 4
    COL_NO_BLACKJACK = 5
    COL_HIT = 6
    COL_POLICY_HIT = 7
    PASS_WIDTH = 8

class RowFlag(IntEnum):
    ROW_ALL = 1
    ROW_STAND = 2
    ROW_POLICY_HIT = 4
    ROW_DOUBLE = 8
    ROW_PRESENT = 16

class PlayCode(IntEnum):
    CODE_DOUBLE = 1
    CODE_HIT = 2
    CODE_STAND = 4

class SplitColumn(IntEnum):
    SPLIT_OPTIMAL = 1
    SPLIT_CHART = 2
    SPLIT_CHART_NODAS = 4

class DealerRule(IntEnum):
    DEALER_H17 = 1
    DEALER_22 = 2

class Tie(IntEnum):
    TIE_ULPS = 64

class DealerMemo:
    def __init__(self, origin: memoryview, drule: int, up: int = 0, reserve: int = 0) -> None: ...
    @property
    def entries(self) -> int: ...
    @property
    def walks(self) -> tuple[int, int, int]: ...
    def defer(self) -> None: ...
    def node_wants(self) -> array.array[int]: ...
    def hint(self, wants: memoryview) -> None: ...
    def entry_wants(self) -> tuple[array.array[int], array.array[int], array.array[int]]: ...
    def walk_ahead(self, removed: memoryview, nodes: memoryview, wants: memoryview) -> None: ...
    @property
    def origin(self) -> tuple[int, ...]: ...

class ChartDeal:
    def __init__(
        self,
        actions: Any,
        even_money: Sequence[bool],
        insure: Sequence[bool],
        codes: Sequence[bytes],
        split_hands: Sequence[int],
        split_one_card: Sequence[bool],
        split_double: Sequence[bool],
        double_two: Sequence[bool],
        double_more: Sequence[Sequence[bool]],
        peek: bool,
        hole_at_once: bool,
        burn_dealer: bool,
        h17: bool,
        charlie: int,
        bonus_any: Sequence[bytes],
        bonus_678: int,
        bonus_settles: bool,
        seats: int,
    ) -> None: ...
    def deal_round(
        self, rank: Any, suit: Any, pos: int
    ) -> tuple[int, list[int]] | None: ...
    def survey(
        self,
        rank: Any,
        suit: Any,
        tag: Any,
        pos: int,
        cut: int,
        burn_per_round: int,
        rounds_after_cut: int,
        running: float,
        counts: Any,
        out_running: Any,
        out_counts: Any,
    ) -> int: ...

class SplitMomentTable:
    @property
    def unions(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    def unions_cards(self) -> list[tuple[int, ...]]: ...
    def fits(
        self,
        base: memoryview,
        pair: int,
        up: int,
        params: Any,
        codes: memoryview | None,
        second_params: Any = None,
    ) -> bool: ...

class SplitMomentGroup:
    @property
    def unions(self) -> int: ...
    @property
    def pairs(self) -> tuple[int, ...]: ...
    @property
    def nbytes(self) -> int: ...

class OptimalSplit:
    def __init__(
        self,
        base: memoryview,
        pair: int,
        up: int,
        params: Any,
        max_hands: int,
        second: Any = None,
        resplit: Any = None,
        own_only: bool | None = None,
        memory_limit: int | None = None,
    ) -> None: ...
    def card(self, rank: int) -> float: ...
    def value(self) -> float: ...
    @property
    def own_only(self) -> bool: ...
    @property
    def states(self) -> int: ...
    @property
    def settlements(self) -> int: ...
    @property
    def dealer_evaluations(self) -> int: ...
    @property
    def bytes(self) -> int: ...

def dealer_probs(
    shoe: memoryview, up: int, drule: int, replace: bool = False
) -> tuple[float, float, float, float, float, float, float, float]: ...
def dealer_table_sizes() -> dict[tuple[int, int, int], tuple[int, int]]: ...
def hand_values(
    base: memoryview,
    hand: memoryview,
    up: int,
    params: Any,
    policy: memoryview | None = None,
) -> tuple[float, float, float, float, float, float]: ...
def split_tables(
    base: memoryview,
    pair: int,
    up: int,
    params: Any,
    max_extra: int,
    chart_codes: memoryview | None = None,
    memo: DealerMemo | None = None,
    columns: int = 7,
    frozen_at: int = 0,
    lazy: bool = False,
) -> tuple[list[Row], list[Row]]: ...
def node_table() -> tuple[
    list[list[int]], list[int], list[int], list[int], list[list[int]]
]: ...
def up_card_pass(
    base: memoryview,
    up: int,
    params: Any,
    out: Any,
    policy: Any,
    fixed_policy: bool = False,
    memo: DealerMemo | None = None,
    wanted: memoryview | None = None,
    optimal: bool = True,
    chart: bool = True,
) -> None: ...
def chart_round_sum(
    ev: float,
    values: Any,
    at: Any,
    kind: Any,
    splits: Any,
    p_up: float,
    peek_exact: bool,
    surrendered: Any,
    natural: Any,
    dealt: Any,
) -> tuple[float, int]: ...
def baccarat_deal_counts(counts: Sequence[int]) -> tuple[int, int, tuple[int, ...]]: ...
def hand_distribution(
    base: memoryview,
    hand: memoryview,
    up: int,
    params: Any,
    action: int,
    codes: memoryview | None,
    hist: Any,
    memo: DealerMemo | None = None,
    bj_hist: Any = None,
) -> None: ...
def split_distribution(
    base: memoryview,
    pair: int,
    up: int,
    params: Any,
    codes: memoryview | None,
    hist: Any,
    memo: DealerMemo | None = None,
    second_params: Any = None,
    suits: Any = None,
    bj_hist: Any = None,
) -> None: ...
def split_moments(
    base: memoryview,
    pair: int,
    up: int,
    params: Any,
    codes: memoryview | None,
    memo: DealerMemo | None = None,
    second_params: Any = None,
    table: SplitMomentTable | None = None,
    cross: float | None = None,
) -> tuple[float, float, float] | None: ...
RESPLIT_ROW_WIDTH: int
START_CODES: tuple[int, int, int, int, int, int, int, int]

def resplit_moment_rows(
    base: memoryview,
    pair: int,
    up: int,
    params: Any,
    codes: memoryview | None,
    rows: int,
    second_params: Any = None,
) -> list[tuple[float, ...] | None]: ...
def box_pair_moments(
    base: memoryview,
    up: int,
    params: Any,
    actions: memoryview,
    codes: memoryview,
    split_codes: list[memoryview | None],
    split_params: list[Any],
    blackjack_pays: float,
    surrender_blackjack_loss: float,
) -> tuple[float, float, float, float]: ...
def split_moment_group(tables: tuple[SplitMomentTable, ...]) -> SplitMomentGroup: ...
def split_cross_sums(group: SplitMomentGroup, base: memoryview) -> tuple[float, ...] | None: ...
def split_moment_table(
    base: memoryview,
    pair: int,
    up: int,
    params: Any,
    codes: memoryview,
    second_params: Any = None,
) -> SplitMomentTable | None: ...
def split_play(
    base: memoryview,
    pair: int,
    up: int,
    params: Any,
    memo: DealerMemo | None = None,
    second_hand: bool = False,
) -> tuple[bytes, bytes]: ...
def split_postsplit(
    base: memoryview, pair: int, up: int, params: Any, second_params: Any = None
) -> tuple[float, float]: ...
