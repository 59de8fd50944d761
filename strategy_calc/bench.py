"""``strategy-calc bench``: engine timings on the standard workloads (medians)."""

from __future__ import annotations

import functools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from strategy_calc.rules import BlackjackRules


def median_ms(func: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``func()`` over ``repeat`` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def _all_pairs_split(rules: BlackjackRules, up: str) -> list[float | None]:
    """Split EV of every pair A-A .. T-T against ``up`` (the split issue's workload)."""
    from strategy_calc.blackjack import analyse_hand

    return [analyse_hand(f"{p},{p}", up, rules).ev["split"] for p in "A23456789T"]


def _every_hand_every_up(rules: BlackjackRules) -> None:
    """One engine pass per up card: all 3,083 player compositions valued against it."""
    from strategy_calc import engine
    from strategy_calc.cards import RANKS, Card, Shoe

    full = Shoe.full(rules.decks)
    params = engine.engine_params(rules)
    memo = engine.dealer_memo(full, rules.dealer_hits_soft_17)
    for up in RANKS:
        engine.up_card_pass(full.remove([Card(up)]), up, params, memo=memo)


def _hand_process() -> None:
    """The whole ``strategy-calc hand T,6 --vs T`` process."""
    subprocess.run([sys.executable, "-m", "strategy_calc", "hand", "T,6", "--vs", "T"],
                   check=True, capture_output=True, cwd=tempfile.gettempdir())


def cases() -> list[tuple[str, Callable[[], object]]]:
    """The benchmark workloads: (name, zero-argument callable)."""
    from strategy_calc.blackjack import analyse_hand
    from strategy_calc.rules import blackjack_rules
    from strategy_calc.strategy import analyse_game

    deluxe = blackjack_rules("deluxe")
    macau8 = blackjack_rules("macau-1983", decks=8)
    out: list[tuple[str, Callable[[], object]]] = [
        ("hand T,6 vs T, 8 decks (deluxe), all actions",
         lambda: analyse_hand("T,6", "T", deluxe)),
        ("hand 6s,7s vs 2, 8 decks (macau-1983), bonus",
         lambda: analyse_hand("6s,7s", "2", macau8)),
        ("split EVs of all 10 pairs vs 6, 8 decks (deluxe)",
         lambda: _all_pairs_split(deluxe, "6")),
        ("every hand (3,083 compositions) vs every up card, 8 decks",
         lambda: _every_hand_every_up(deluxe)),
    ]
    for decks in (1, 2, 6, 8):
        rules = blackjack_rules("deluxe", decks=decks)
        out.append((f"chart + both house edges, deluxe rules, {decks} deck(s)",
                    functools.partial(analyse_game, rules)))
    out.append(("chart + both house edges, macau-1983, 6 decks (with bonuses)",
                lambda: analyse_game(blackjack_rules("macau-1983"))))
    out.append(("whole `strategy-calc hand T,6 --vs T` process", _hand_process))
    from strategy_calc.baccarat import bench_cases

    out.extend(bench_cases())
    return out


def run(repeat: int = 7) -> str:
    """Run every case (after one warm-up call) and return a report, one line per case."""
    lines = [f"median of {repeat} runs"]
    for name, func in cases():
        func()
        lines.append(f"{median_ms(func, repeat):10.3f} ms  {name}")
    return "\n".join(lines)
