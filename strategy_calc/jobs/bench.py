"""``strategy-calc bench``: wall-clock timings of the standard workloads (median, min, max).

Each workload has a stable name that tools key on (``bench --json``); the
descriptions say exactly what is timed. Every workload runs in a process of its own
(forked from this one, so no workload inherits another's caches or memory), once to
warm up (imports, first-use tables), then ``repeat`` times; its peak resident memory is
that process's (or, for a whole-command workload, its command's) high-water mark.
"""

from __future__ import annotations

import functools
import importlib.util
import multiprocessing
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from strategy_calc import engine, parallel
from strategy_calc.actions import Strategy
from strategy_calc.baccarat.odds import analyse, effects_of_removal
from strategy_calc.blackjack import sweep
from strategy_calc.blackjack.boxes import box_figures
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.blackjack.split.values import optimal_split_ev
from strategy_calc.cards import RANKS, Card, Rank, Shoe
from strategy_calc.counting.baccarat import linear_counter
from strategy_calc.counting.controls import shoe_controls
from strategy_calc.counting.counter import blackjack_counter, parse_spread
from strategy_calc.counting.stratified import Sizes, two_phase_count
from strategy_calc.errors import InputError
from strategy_calc.rules import BaccaratRules, blackjack_rules

if TYPE_CHECKING:
    from strategy_calc.rules import BlackjackRules


@dataclass(frozen=True, slots=True)
class Workload:
    """One timed job: a stable ``name``, what it does, and the zero-argument call."""

    name: str
    description: str
    run: Callable[[], object]
    max_runs: int | None = None
    """Heavy workloads: at most this many timed runs, and no warm-up run."""
    items: tuple[int, str] | None = None
    """What one run does, counted (e.g. ``(42, "rounds")``): the report adds the rate."""
    on_request: bool = False
    """Too long for the default run (minutes): timed only when named with ``--only``."""


@dataclass(frozen=True, slots=True)
class Timing:
    """Wall-clock times of one workload, milliseconds."""

    name: str
    description: str
    median_ms: float
    min_ms: float
    max_ms: float
    runs: int
    items: tuple[int, str] | None = None
    """As :attr:`Workload.items`."""
    peak_mib: float | None = None
    """Peak resident memory of the process that ran the workload (a whole-command
    workload: of the command's process), MiB (2**20 bytes)."""

    @property
    def per_second(self) -> float | None:
        """Items a second at the median time (None without :attr:`items`).

        >>> Timing("count-6d", "", 840.0, 800.0, 900.0, 7, (42, "rounds")).per_second
        50.0
        """
        return None if self.items is None else self.items[0] * 1000.0 / self.median_ms


def time_ms(func: Callable[[], object], repeat: int) -> list[float]:
    """Wall times of ``repeat`` calls of ``func()``, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append((time.perf_counter() - start) * 1000.0)
    return times


def _all_pairs_split(rules: BlackjackRules, up: str) -> list[float | None]:
    """Split EV of every pair A-A .. T-T against ``up``."""
    return [analyse_hand(f"{p},{p}", up, rules).ev["split"] for p in "A23456789T"]


def _every_hand_every_up(rules: BlackjackRules) -> None:
    """One engine pass per up card: all 3,083 player compositions valued against it."""
    full = Shoe.full(rules.decks)
    params = engine.engine_params(rules)
    memo = engine.dealer_memo(full, engine.dealer_rule(rules),
                              reserve=engine.WHOLE_GAME_REMOVALS)
    for up in RANKS:
        engine.up_card_pass(full.remove([Card(up)]), up, params, memo=memo)


SWEEP_16 = ["dealer_hits_soft_17=false,true", "surrender=none,late",
            "double_after_split=true,false", "hole_card=peek,enhc"]
"""The sweep workload: a 2x2x2x2 grid of deluxe at 6 decks (16 variants)."""
_CLUSTER: list[Any] = []


def _sweep_16(jobs: int | None = None, dask: bool = False) -> None:
    """The 16-variant sweep on ``jobs`` local processes, or on a local Dask cluster."""
    variants = sweep.plan(sweep.parse_vary(SWEEP_16), sweep.SweepMode.GRID)
    address = None
    if dask:
        if not _CLUSTER:  # started once for the whole bench, closed at exit
            import atexit

            import distributed

            local_cluster: Any = distributed.LocalCluster  # untyped library
            cluster = local_cluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                    dashboard_address=None)
            atexit.register(cluster.close)
            _CLUSTER.append(cluster)
        address = _CLUSTER[0].scheduler_address
    with parallel.executor(jobs, address) as pool:
        sweep.sweep("deluxe", ["decks=6"], variants, sweep.SweepMode.GRID, Strategy.BASIC, pool)


@functools.cache
def _counter(decks: int, moment_every: int) -> Any:
    """The basic-strategy counter of deluxe at ``decks`` (built once, outside the timing),
    its shoes dealt without Deluxe's shown-card burn, as when the workloads were defined
    (so that their timings stay comparable: the same rounds)."""
    return blackjack_counter(blackjack_rules("deluxe", ["burn_shown_card=false"], decks=decks),
                             moment_every=moment_every)


def _count_score() -> None:
    """Issue 48's case: SCORE of Hi-Lo with a 1-12 ramp, 6 decks S17 DAS LS (deluxe with
    late surrender), 75% penetration, to a standard error of 1% of SCORE by the two-phase
    method on two local worker processes (at most 10 minutes; an error if the aim is not
    reached)."""
    counter = blackjack_counter(blackjack_rules("deluxe", ["surrender=late"], decks=6))
    with parallel.executor(2) as pool:
        got = two_phase_count(counter, parse_spread("0:1,1:2,2:4,3:8,4:12"),
                              Sizes(20_000, 600, 120), precision=0.01, budget=600.0,
                              pool=pool)
    if got.score is None or got.score_se is None or got.score_se > 0.01 * got.score:
        raise RuntimeError(f"count-score-6d: SCORE {got.score} +- {got.score_se}: the 1%"
                           " aim was not reached within 10 minutes")


@functools.cache
def _survey_run() -> tuple[Any, Any]:
    """``count-score-6d``'s counter with its chart and plan off the top made (once per
    process: the workload times the survey, not the run's set-up), and its controls."""
    counter = blackjack_counter(blackjack_rules("deluxe", ["surrender=late"], decks=6))
    counter.survey_one(0)
    return counter, shoe_controls(counter, parse_spread("0:1,1:2,2:4,3:8,4:12"))


def _count_survey() -> None:
    """The two-phase survey of ``count-score-6d``'s run: 100 six-deck shoes dealt by the
    chart in the engine (4,211 rounds), each shoe's control variates too."""
    counter, controls = _survey_run()
    counter.survey(range(100), controls=controls)


def _baccarat_shoe(decks: int) -> None:
    """One whole baccarat shoe: every hand's five exact EVs, cut card 14 from the end."""
    linear_counter(BaccaratRules(name="macau-baccarat", decks=decks), 14, 1).play_one(0)


RESPLIT_BUDGET_MIB = 4096
"""``resplit-optimal-6d-22``'s ``--memory-limit`` (issue 49: 2,2 vs T at six decks within
4,096 MiB): past it the solver stops with its memory-limit error, not the machine's swap."""


def _optimal_split(decks: int, max_hands: int, pair: Rank = Rank.EIGHT,
                   memory_mib: float | None = None) -> None:
    """The fully optimal split of ``pair`` (default 8,8) vs T, deluxe at ``decks``, up to
    ``max_hands`` hands, its memos within ``memory_mib`` MiB (None: the default limit)."""
    rules = blackjack_rules("deluxe", [f"max_split_hands={max_hands}"], decks=decks)
    base = Shoe.full(decks).remove([Card(Rank.TEN)])
    with engine.limited_memory(memory_mib):
        optimal_split_ev(SplitPlan.of(rules, pair), base, Rank.TEN)


def _process(*args: str) -> None:
    """A whole ``strategy-calc ARGS`` process (interpreter start, imports, work, output)."""
    subprocess.run([sys.executable, "-m", "strategy_calc", *args], check=True,
                   capture_output=True, cwd=tempfile.gettempdir())


def workloads() -> list[Workload]:
    """The standard workloads, in report order."""
    deluxe = blackjack_rules("deluxe")
    macau8 = blackjack_rules("macau-1983", decks=8)
    out = [
        Workload("hand-8d", "every action of T,6 vs T, deluxe, 8 decks",
                 lambda: analyse_hand("T,6", "T", deluxe)),
        Workload("hand-bonus-8d", "every action of 6s,7s vs 2 with the suited bonus, "
                 "macau-1983, 8 decks", lambda: analyse_hand("6s,7s", "2", macau8)),
        Workload("splits-8d", "split EVs of all 10 pairs vs 6, deluxe, 8 decks",
                 lambda: _all_pairs_split(deluxe, "6")),
        Workload("all-hands-8d", "every hand (3,083 compositions) vs every up card, "
                 "8 decks (10 passes, one dealer memo)", lambda: _every_hand_every_up(deluxe)),
    ]
    for decks in (1, 2, 6, 8):
        out.append(Workload(f"game-{decks}d", f"chart, deviations and both house edges, "
                            f"deluxe, {decks} deck(s)",
                            functools.partial(analyse_game, blackjack_rules("deluxe",
                                                                            decks=decks))))
    out.append(Workload("game-macau-6d", "chart and both house edges, macau-1983, 6 decks "
                        "(suited bonuses)", lambda: analyse_game(blackjack_rules("macau-1983"))))
    out.append(Workload("process-edge", "the whole `strategy-calc edge --rules deluxe "
                        "--strategy optimal` process",
                        lambda: _process("edge", "--rules", "deluxe", "--strategy", "optimal")))
    out.append(Workload("process-hand", "the whole `strategy-calc hand T,6 --vs T` process",
                        lambda: _process("hand", "T,6", "--vs", "T")))
    out += [
        Workload("sweep-16", "a 16-variant grid at 6 decks on 2 local processes (pool included)",
                 lambda: _sweep_16(2)),
        Workload("sweep-16-jobs1", "the same 16 variants on one process", lambda: _sweep_16(1)),
    ]
    if importlib.util.find_spec("distributed") is not None:
        out.append(Workload("sweep-16-dask", "the same 16 variants on a local Dask cluster of"
                            " 2 workers (started once, outside the timing)",
                            lambda: _sweep_16(dask=True)))
    out += [
        Workload("split-optimal-1d", "the fully optimal split of 8,8 vs T (one split; every"
                 " decision sees every card and maximises the round), deluxe, 1 deck",
                 lambda: _optimal_split(1, 2)),
        Workload("split-optimal-8d", "the same at 8 decks", lambda: _optimal_split(8, 2)),
        Workload("resplit-optimal-1d", "the fully optimal split of 8,8 vs T with resplits to 4"
                 " hands, deluxe, 1 deck (one run, no warm-up)",
                 lambda: _optimal_split(1, 4), max_runs=1),
        Workload("resplit-optimal-6d", "the same at 6 decks (on request: --only"
                 " resplit-optimal-6d; about 1.5 minutes and 1.7 GB here)",
                 lambda: _optimal_split(6, 4), max_runs=1, on_request=True),
        Workload("resplit-optimal-6d-22", "the same for 2,2 vs T, the slowest pair (issue 49;"
                 f" on request; memos within {RESPLIT_BUDGET_MIB:,} MiB, past which the"
                 " solver's memory-limit error ends it)",
                 lambda: _optimal_split(6, 4, Rank.TWO, RESPLIT_BUDGET_MIB), max_runs=1,
                 on_request=True),
        Workload("game-optimal-8d", "edge --split-strategy optimal: the whole game with every"
                 " pair's fully optimal split, deluxe, 8 decks (one run, no warm-up)",
                 functools.partial(analyse_game, blackjack_rules("deluxe", decks=8),
                                   split_strategy="optimal"), max_runs=1),
        Workload("count-6d", "count: one whole 6-deck shoe (seed 1, shoe 0: 42 rounds), deluxe,"
                 " basic, every round's EV exact, the second moment of 2 of them (the default"
                 " one in 25)", lambda: _counter(6, 25).play_one(0), items=(42, "rounds")),
        Workload("count-6d-ev", "count: shoe 1 of the same run (43 rounds), EVs only",
                 lambda: _counter(6, 10**9).play_one(1), items=(43, "rounds")),
        Workload("count-6d-moments", "count: the same shoe as count-6d (42 rounds) with"
                 " every round's exact second moment (--moment-every 1)",
                 lambda: _counter(6, 1).play_one(0), items=(42, "rounds"), max_runs=3),
        Workload("count-score-6d", "count --precision 0.01: Hi-Lo's SCORE with a 1-12 ramp,"
                 " 6 decks S17 DAS LS (deluxe, late surrender), 75%, to a standard error of"
                 " 1% of SCORE by the two-phase method on 2 worker processes (on request:"
                 " --only count-score-6d; several minutes)", _count_score, max_runs=1,
                 on_request=True),
        Workload("count-survey-6d", "count --method stratified's survey: 100 shoes of"
                 " count-score-6d's run dealt by the chart in the engine, no values, with"
                 " each shoe's control variates (4,211 rounds)", _count_survey,
                 items=(4211, "rounds")),
        Workload("boxes-6d", "edge --boxes 2: two boxes off the top playing the chart, EV,"
                 " variance and the exact covariance per box, deluxe, 6 decks",
                 functools.partial(box_figures, blackjack_rules("deluxe", decks=6), boxes=2,
                                   play="basic"), max_runs=3),
        Workload("baccarat-shoe-8d", "count: one whole 8-deck baccarat shoe, cut card 14, five"
                 " exact EVs and the linear count before every hand",
                 lambda: _baccarat_shoe(8), items=(1, "shoes")),
    ]
    six = BaccaratRules(name="macau-baccarat", decks=6)
    eight = BaccaratRules(name="macau-baccarat", decks=8)
    out += [
        Workload("baccarat-6d", "baccarat, every bet exact, 6 decks",
                 lambda: analyse(six).exact_ev()),
        Workload("baccarat-8d", "baccarat, every bet exact, 8 decks",
                 lambda: analyse(eight).exact_ev()),
        Workload("baccarat-eor-8d", "baccarat effects of removal (13 ranks), 8 decks",
                 lambda: effects_of_removal(analyse(eight))),
    ]
    return out


def names(default: bool = False) -> list[str]:
    """The workload names (stable); ``default``: only those a run without ``--only``
    times (not the :attr:`Workload.on_request` ones)."""
    return [w.name for w in workloads() if not (default and w.on_request)]


TYPICAL_MS: dict[str, float] = {
    "hand-8d": 0.1, "hand-bonus-8d": 0.1, "splits-8d": 9.3, "all-hands-8d": 15.2,
    "game-1d": 40.5, "game-2d": 47.0, "game-6d": 50.0, "game-8d": 48.6, "game-macau-6d": 53.2,
    "process-edge": 274.8, "process-hand": 335.8, "sweep-16": 700.7, "sweep-16-jobs1": 967.4,
    "sweep-16-dask": 738.0, "split-optimal-1d": 23.5, "split-optimal-8d": 45.7,
    "resplit-optimal-1d": 4700.0, "game-optimal-8d": 35762.3, "count-6d": 255.0,
    "count-6d-ev": 220.0, "baccarat-shoe-8d": 15.5, "baccarat-6d": 0.2, "baccarat-8d": 0.2,
    "baccarat-eor-8d": 2.2, "count-6d-moments": 4977.7, "resplit-optimal-6d": 76900.0,
    "boxes-6d": 4975.4, "count-score-6d": 224673.1, "count-survey-6d": 40.0,
    "resplit-optimal-6d-22": 1380000.0,
}
"""Each workload's median, milliseconds, measured here (2-core machine, 2026-12-04,
``strategy-calc bench --json``; the two resplit-optimal workloads 2026-12-06, after the
hands were settled at their end; count-score-6d 2026-12-07, one run on a quiet
machine; resplit-optimal-6d-22 until it stops at its memory budget (23 min, 1,371
CPU-seconds, 2026-12-08: it has not finished within it); count-6d and
count-6d-ev 2026-12-08, after the rounds' EVs were summed in the engine): what
:func:`expected_seconds` adds up."""


def expected_seconds(repeat: int, only: Sequence[str] = ()) -> float:
    """About how long :func:`run` takes here: each workload's typical time, times its
    timed runs plus the warm-up run (heavy workloads have none).

    >>> 60 < expected_seconds(7) < 1800
    True
    """
    total = 0.0
    for w in workloads():
        if (only and w.name not in only) or (not only and w.on_request):
            continue
        runs = repeat + 1 if w.max_runs is None else min(repeat, w.max_runs)
        total += runs * TYPICAL_MS.get(w.name, 1000.0) / 1000.0
    return total


def run(
    repeat: int = 7, only: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
) -> list[Timing]:
    """Time every workload (or those in ``only``) after one warm-up call each.

    Raises ``ValueError`` for an unknown name or ``repeat`` below 1.
    """
    if repeat < 1:
        raise InputError(f"--repeat must be at least 1, not {repeat}")
    chosen = workloads()
    unknown = sorted(set(only) - {w.name for w in chosen})
    if unknown:
        raise InputError(f"unknown workload {', '.join(unknown)}; one of: "
                         f"{', '.join(w.name for w in chosen)}")
    chosen = [w for w in chosen if w.name in set(only)] if only else [
        w for w in chosen if not w.on_request]
    timings = []
    for w in chosen:
        if progress is not None:
            progress(w.name)
        runs = repeat if w.max_runs is None else min(repeat, w.max_runs)
        times, peak_kib = in_own_process(w, runs)
        timings.append(Timing(w.name, w.description, statistics.median(times), min(times),
                              max(times), runs, w.items, peak_kib / 1024.0))
    return timings


def in_own_process(w: Workload, runs: int) -> tuple[list[float], int]:
    """``(times in ms, peak RSS in KiB)`` of ``w``'s warm-up and ``runs`` timed runs in a
    forked process; the peak is the larger of that process's and its children's
    (``getrusage``: a whole-command workload's work is in its child). A workload stopped
    by a bound it has (an ``InputError``: the fully optimal split's memory budget) is an
    ``InputError`` here; any other failure a ``RuntimeError``."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)

    def child() -> None:
        try:
            if w.max_runs is None:
                w.run()
            times = time_ms(w.run, runs)
            peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                       resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            send.send((times, peak, None, False))
        except InputError as exc:  # a bound the workload has (its memory budget)
            send.send(([], 0, str(exc), True))
        except BaseException as exc:  # reported by the parent, as if run here
            send.send(([], 0, f"{type(exc).__name__}: {exc}", False))

    process = context.Process(target=child, name=f"bench {w.name}")
    process.start()
    send.close()
    try:
        times, peak, error, bounded = receive.recv()
    except EOFError:
        error, bounded = f"its process ended with status {process.exitcode}", False
        times, peak = [], 0
    process.join()
    if bounded:  # one error line (exit 2), as the command's own would be: not a bug
        raise InputError(f"workload {w.name} stopped: {error}")
    if error is not None:
        raise RuntimeError(f"workload {w.name} failed: {error}")
    return times, peak


def as_json(timings: Sequence[Timing]) -> dict[str, Any]:
    """The ``bench --json`` object: ``{"workloads": {NAME: {"median_ms", "min_ms", ...}}}``;
    a workload that counts what it does adds ``"per_second"`` (at the median) and
    ``"unit"`` (e.g. ``rounds``)."""
    out: dict[str, Any] = {}
    for t in timings:
        out[t.name] = {"median_ms": t.median_ms, "min_ms": t.min_ms, "max_ms": t.max_ms,
                       "runs": t.runs, "peak_mib": t.peak_mib, "description": t.description}
        if t.items is not None:
            out[t.name].update(per_second=t.per_second, unit=t.items[1])
    return {"workloads": out}


def as_text(timings: Sequence[Timing]) -> str:
    """One line per workload: median (min-max), name, description."""
    import shutil
    import textwrap

    width = max(60, min(100, shutil.get_terminal_size((100, 24)).columns))
    lines = [f"wall clock, ms: median (min - max) of {timings[0].runs if timings else 0} runs;"
             " peak resident memory"]
    for t in timings:
        head = f"{t.median_ms:10.3f} ({t.min_ms:.3f} - {t.max_ms:.3f})  {t.name}"
        if t.peak_mib is not None:
            head += f"  {t.peak_mib:.0f} MiB"
        if timings and t.runs != timings[0].runs:
            head += f"  ({t.runs} run{'s' if t.runs != 1 else ''})"
        if t.per_second is not None and t.items is not None:
            head += f"  = {t.per_second:.1f} {t.items[1]}/s"
        lines.append(head)
        lines += textwrap.wrap(t.description, width - 6, initial_indent="      ",
                               subsequent_indent="      ")
    return "\n".join(lines)
