"""Type stubs of the compiled engine ``strategy_calc._engine`` (private)."""

from collections.abc import Sequence
from typing import Any

def dealer_probs(
    shoe: memoryview, up: int, h17: bool
) -> tuple[float, float, float, float, float, float, float]: ...
def hand_values(
    base: memoryview,
    hand: memoryview,
    up: int,
    h17: bool,
    mode: int,
    bjl1: float = 1.0,
    bjl2: float = 2.0,
    b777: float = 0.0,
    b678: float = 0.0,
    q678: float = 0.0,
    policy: memoryview | None = None,
) -> tuple[float, float, float, float, float, float]: ...
def split_tables(
    base: memoryview,
    pair: int,
    up: int,
    h17: bool,
    mode: int,
    double_ok: memoryview,
    das: bool,
    aces_one_card: bool,
    bjl1: float,
    bjl2: float,
    b777: float,
    b678: float,
    q678: float,
    max_extra: int,
    chart_codes: memoryview | None = None,
    shared_dealer: Any = None,
) -> list[tuple[float, float, float, float, float, float]]: ...
def node_table() -> tuple[
    list[list[int]], list[int], list[int], list[int], list[list[int]]
]: ...
def up_card_pass(
    base: memoryview,
    up: int,
    h17: bool,
    mode: int,
    bjl1: float,
    bjl2: float,
    b777: float,
    b678: float,
    q678: float,
    out: Any,
    policy: Any,
    fixed_policy: bool = False,
    dealer_out: Any = None,
) -> None: ...
def baccarat_deal_counts(counts: Sequence[int]) -> tuple[int, int, tuple[int, ...]]: ...
def hand_distribution(
    base: memoryview,
    hand: memoryview,
    up: int,
    h17: bool,
    mode: int,
    bjl1: float,
    bjl2: float,
    b777: float,
    b678: float,
    q678: float,
    action: int,
    codes: memoryview | None,
    hist: Any,
    node_dealer: Any = None,
) -> None: ...
def split_distribution(
    base: memoryview,
    pair: int,
    up: int,
    h17: bool,
    mode: int,
    double_ok: memoryview,
    das: bool,
    aces_one_card: bool,
    bjl1_first: float,
    bjl2_first: float,
    bjl1_second: float,
    bjl2_second: float,
    b777: float,
    b678: float,
    q678: float,
    codes: memoryview | None,
    hist: Any,
) -> None: ...
def split_postsplit(
    base: memoryview,
    pair: int,
    up: int,
    h17: bool,
    mode: int,
    double_ok: memoryview,
    das: bool,
    aces_one_card: bool,
    bjl1_first: float,
    bjl2_first: float,
    bjl1_second: float,
    bjl2_second: float,
    b777: float,
    b678: float,
    q678: float,
) -> tuple[float, float]: ...
