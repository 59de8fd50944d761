"""The whole game under the fully optimal split, as independent tasks: one a (pair, up card).

``edge --strategy optimal --split-strategy optimal`` spends nearly all its time in the
fully optimal splits with resplits (:func:`strategy_calc.engine.split_optimal`), one per
pair the shoe deals against each up card: up to 100 *cases*, each needing only the rules,
the shoe, the pair and the up card. :func:`optimal_game` runs them as tasks on an executor
of :mod:`strategy_calc.parallel` (local processes, or a Dask cluster), keeps each finished
case in a cache folder (a rerun resumes), and combines them in one fixed order, with the
same arithmetic as :func:`strategy_calc.blackjack.game_analysis.optimal_edge`: the EV is
the serial one to the bit, whatever ran the cases and in whatever order they finished.

Each case also reports what it took: seconds, the solver's states and memo bytes, and
the peak resident memory of the process that ran it during the task (on Linux the peak is
reset at the task's start, so it is the task's own, plus what the process held before;
elsewhere the process's peak so far).

>>> from strategy_calc.rules import blackjack_rules
>>> cases = case_list(blackjack_rules("deluxe", ["max_split_hands=4"], "1"))
>>> len(cases), cases[0].label, cases[-1].label
(100, 'A,A vs 2', 'T,T vs A')
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import resource
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from strategy_calc import __version__, engine
from strategy_calc.blackjack.cost import pair_cost
from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.edge import optimal_ev
from strategy_calc.blackjack.game_analysis import OptimalEdge
from strategy_calc.blackjack.game_pass import (
    DerivedPolicy,
    GamePass,
    PassRequest,
    add_optimal_split_values,
    set_split_raw,
    split_cases,
    whole_game_pass,
)
from strategy_calc.blackjack.split.plan import split_plans
from strategy_calc.blackjack.split.strategies import SplitStrategy, computed_as
from strategy_calc.blackjack.split.values import optimal_split_ev
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.errors import InputError
from strategy_calc.parallel import run_all
from strategy_calc.rules import BlackjackRules

CACHE_FORMAT = 1
"""The cache files' layout; a file of another is recomputed."""


@dataclass(frozen=True, slots=True)
class Case:
    """One fully optimal split to solve: self-contained (picklable, runs on any worker)."""

    rules: BlackjackRules
    shoe: Shoe
    """The full shoe of the round (the up card and the pair still in it)."""
    pair: int
    """The pair's rank, 1 (aces) to 10."""
    up: int
    """The dealer's up card, 1 (ace) to 10."""
    memory_limit: int | None = None
    """The solver's memo budget in bytes (``--memory-limit``; None: the worker's default)."""

    @property
    def label(self) -> str:
        """``8,8 vs T``."""
        pair, up = Rank(self.pair).symbol, Rank(self.up).symbol
        return f"{pair},{pair} vs {up}"

    def key(self) -> dict[str, Any]:
        """Everything the case's value depends on (its cache entry's key)."""
        return {"format": CACHE_FORMAT, "version": __version__,
                "rules": json.loads(json.dumps(asdict(self.rules), default=str)),
                "shoe": {"decks": str(self.shoe.decks), "counts": list(self.shoe.counts),
                         "suits": [list(row) for row in self.shoe.suits]},
                "pair": self.pair, "up": self.up}


@dataclass(frozen=True, slots=True)
class CaseResult:
    """A solved case: the split's raw EV and what it took."""

    pair: int
    up: int
    raw: float
    """The split's raw EV, all hands (before the game's dealer-blackjack adjustment)."""
    states: int
    """Between-hands states the solver held (summed over the up card's suit shoes)."""
    dealer_evaluations: int
    memo_bytes: int
    """The solver's memos at their largest over the case's shoes, bytes."""
    seconds: float
    """Wall time of the task on its worker."""
    peak_rss_bytes: int
    """Peak resident memory of the worker process during the task, bytes."""
    cached: bool = False
    """Read from the cache folder, not computed in this run."""

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data (:meth:`from_dict` reads it back to the bit)."""
        return {"pair": self.pair, "up": self.up, "raw": self.raw, "states": self.states,
                "dealer_evaluations": self.dealer_evaluations, "memo_bytes": self.memo_bytes,
                "seconds": self.seconds, "peak_rss_bytes": self.peak_rss_bytes}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], cached: bool = False) -> CaseResult:
        """Inverse of :meth:`to_dict`; a ``ValueError`` for anything malformed."""
        ints = {k: data[k] for k in ("pair", "up", "states", "dealer_evaluations",
                                     "memo_bytes", "peak_rss_bytes")}
        floats = {k: data[k] for k in ("raw", "seconds")}
        if not all(type(v) is int for v in ints.values()) or not all(
                type(v) is float and math.isfinite(v) for v in floats.values()):
            raise ValueError("a case result with a malformed field")
        return cls(ints["pair"], ints["up"], floats["raw"], ints["states"],
                   ints["dealer_evaluations"], ints["memo_bytes"], floats["seconds"],
                   ints["peak_rss_bytes"], cached)


@dataclass(frozen=True, slots=True)
class OptimalGame:
    """The whole game's optimal EV (:class:`OptimalEdge`, the serial figures to the bit)
    and its cases in the order they were combined (up card by up card, pairs ace to ten)."""

    edge: OptimalEdge
    cases: tuple[CaseResult, ...]


def _reset_peak() -> bool:
    """Reset this process's peak resident memory (Linux: ``/proc/self/clear_refs``)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")
    except OSError:
        return False
    return True


def _peak_rss(reset: bool) -> int:
    """This process's peak resident memory in bytes: since :func:`_reset_peak` when it
    succeeded (``VmHWM``), else over the process's life (``ru_maxrss``)."""
    if reset:
        try:
            with open("/proc/self/status", encoding="ascii") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) * (1 if sys.platform == "darwin" else 1024)


def solve_case(case: Case) -> CaseResult:
    """One case's split (a worker's job): its raw EV summed over the shoes an up card of
    unknown suit leaves, as :func:`strategy_calc.blackjack.game_pass.apply_split_strategy`
    sums it (the same operations in the same order, so the same bits)."""
    reset = _reset_peak()
    start = time.perf_counter()
    plan = split_plans(case.rules)[Rank(case.pair)]
    up = Rank(case.up)
    limit = None if case.memory_limit is None else case.memory_limit / 2**20
    raw, states, evaluations, memo = 0.0, 0, 0, 0
    with engine.limited_memory(limit):
        for p, base in plan.up_card_shoes(case.shoe.remove([Card(up)]), up):
            value = optimal_split_ev(plan, base, up)
            raw += p * value.raw
            states += value.states
            evaluations += value.dealer_evaluations
            memo = max(memo, value.memo_bytes)
    return CaseResult(case.pair, case.up, raw, states, evaluations, memo,
                      time.perf_counter() - start, _peak_rss(reset))


def _game_pass(rules: BlackjackRules, shoe: Shoe) -> GamePass:
    """The whole-game pass of :func:`optimal_edge` for the fully optimal split, each pair's
    split first valued as cdp1 (:func:`add_optimal_split_values`)."""
    game = whole_game_pass(PassRequest(rules, shoe, DerivedPolicy()))
    for up in UP_ORDER:
        add_optimal_split_values(game, game.ups[up])
    return game


def check_game(rules: BlackjackRules) -> None:
    """Refuse rules this runs no fully optimal split for (an infinite deck with resplits:
    :func:`computed_as`; one computed otherwise is not a case list)."""
    if computed_as(SplitStrategy.OPTIMAL, rules.infinite_deck, rules.max_split_hands
                   ) is not SplitStrategy.OPTIMAL:
        raise InputError("the whole game as cases (--jobs, --scheduler, --cache) runs the"
                         " fully optimal split of a finite shoe; an infinite deck computes it"
                         " as cdp1: run it without those options")


def case_list(rules: BlackjackRules, shoe: Shoe | None = None,
              memory_limit: int | None = None) -> list[Case]:
    """The cases of the whole game from ``shoe`` (default a full one), in the order they
    are combined: up cards as the game pass takes them, pairs ace to ten."""
    check_game(rules)
    full = shoe if shoe is not None else Shoe.full(rules.decks)
    game = _game_pass(rules, full)
    return [Case(rules, full, pair, int(up), memory_limit)
            for up in UP_ORDER for pair in split_cases(game, game.ups[up])]


def optimal_game(
    rules: BlackjackRules, pool: Executor, shoe: Shoe | None = None,
    cache: Path | None = None, progress: Callable[[int, int], None] | None = None,
    on_case: Callable[[Case, CaseResult, int, int], None] | None = None,
    memory_limit: int | None = None,
) -> OptimalGame:
    """The optimal-play EV of the whole game under the fully optimal split, its cases run
    on ``pool``: :func:`strategy_calc.blackjack.game_analysis.optimal_edge`'s figures with
    ``split_strategy="optimal"``, to the bit.

    ``cache``: a folder keeping one file per case (keyed by everything its value depends
    on), so that an interrupted run resumes; a file that does not read back as its case
    is computed again. ``progress(done, total)`` and ``on_case(case, result, done,
    total)`` after each case (the cached ones first). ``memory_limit``: each solver's
    memo budget in bytes (default: the limit in force here, :func:`engine.memory_limit`).
    """
    check_game(rules)
    full = shoe if shoe is not None else Shoe.full(rules.decks)
    game = _game_pass(rules, full)
    limit = engine.memory_limit() if memory_limit is None else memory_limit
    cases = [Case(rules, full, pair, int(up), limit)
             for up in UP_ORDER for pair in split_cases(game, game.ups[up])]
    results = _cached_run(cases, pool, cache, progress, on_case)
    by_case = {(r.up, r.pair): r for r in results}
    for up in UP_ORDER:
        ups = game.ups[up]
        for pair in split_cases(game, ups):
            set_split_raw(game, ups, pair, by_case[(int(up), pair)].raw)
    by_up = {up: optimal_ev(game.ups[up]) for up in UP_ORDER}
    edge = OptimalEdge(rules, sum(game.ups[up].p_up * by_up[up] for up in UP_ORDER),
                       {up.symbol: by_up[up] for up in UP_ORDER}, SplitStrategy.OPTIMAL)
    return OptimalGame(edge, tuple(results))


def _cache_file(cache: Path, case: Case) -> Path:
    digest = hashlib.sha256(json.dumps(case.key(), sort_keys=True).encode()).hexdigest()
    return cache / f"case-{Rank(case.pair).symbol}{Rank(case.pair).symbol}-vs-" \
                   f"{Rank(case.up).symbol}-{digest[:20]}.json"


def _read_cached(path: Path, case: Case) -> CaseResult | None:
    """The case's result kept in ``path``, or None: no file, or one that is not this
    case's (another key, a malformed or truncated file), which is then computed again."""
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != case.key():
            return None
        result = CaseResult.from_dict(data["result"], cached=True)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return result if (result.pair, result.up) == (case.pair, case.up) else None


def _write_cached(path: Path, case: Case, result: CaseResult) -> None:
    """Keep ``result`` in ``path`` whole or not at all (written aside, then renamed)."""
    part = path.with_name(path.name + f".{os.getpid()}.part")
    part.write_text(json.dumps({"key": case.key(), "result": result.to_dict()},
                               allow_nan=False), encoding="utf-8")
    part.replace(path)


def check_cache(cache: Path, make: bool = True) -> None:
    """Refuse, before any work, a cache folder that cannot be used; make it (``make``)
    if its parent exists."""
    if cache.exists() and not cache.is_dir():
        raise InputError(f"--cache {cache} is a file, not a folder")
    if not cache.is_dir() and not cache.parent.is_dir():
        raise InputError(f"--cache {cache}: its parent folder {cache.parent} does not exist")
    where = cache if cache.is_dir() else cache.parent
    if not os.access(where, os.W_OK):
        raise InputError(f"--cache {cache}: the folder {where} cannot be written")
    if make:
        cache.mkdir(exist_ok=True)


def _cached_run(
    cases: Sequence[Case], pool: Executor, cache: Path | None,
    progress: Callable[[int, int], None] | None,
    on_case: Callable[[Case, CaseResult, int, int], None] | None,
) -> list[CaseResult]:
    """Every case's result, in ``cases``' order, reading and filling ``cache``."""
    found: dict[int, CaseResult] = {}
    total = len(cases)
    if cache is not None:
        check_cache(cache)
        for i, case in enumerate(cases):
            kept = _read_cached(_cache_file(cache, case), case)
            if kept is not None:
                found[i] = kept
                if on_case is not None:
                    on_case(case, kept, len(found), total)
        if progress is not None and found:
            progress(len(found), total)
    # the longest first (the low pairs' resplits), so no long case starts last and runs
    # alone: the order the cases are given in does not change what they combine to
    todo = sorted((i for i in range(total) if i not in found),
                  key=lambda i: -pair_cost(cases[i].rules, "optimal", cases[i].pair).seconds)
    done_before = len(found)

    def finished(index: int, result: CaseResult, done: int) -> None:
        case = cases[todo[index]]
        if cache is not None:
            _write_cached(_cache_file(cache, case), case, result)
        if on_case is not None:
            on_case(case, result, done_before + done, total)
        if progress is not None:
            progress(done_before + done, total)

    fresh = run_all(pool, solve_case, [cases[i] for i in todo], each=finished)
    for i, result in zip(todo, fresh, strict=True):
        found[i] = result
    return [found[i] for i in range(total)]
