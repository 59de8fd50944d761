"""``strategy-calc bench``: engine timings on the standard workloads (medians)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_ms(func: Callable[[], object], repeat: int) -> float:
    """Median wall time of ``func()`` over ``repeat`` runs, in milliseconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def cases() -> list[tuple[str, Callable[[], object]]]:
    """The benchmark workloads: (name, zero-argument callable)."""
    from strategy_calc.blackjack import analyse_hand
    from strategy_calc.rules import blackjack_rules

    deluxe = blackjack_rules("deluxe")
    macau8 = blackjack_rules("macau-1983", decks=8)
    out: list[tuple[str, Callable[[], object]]] = [
        ("hand T,6 vs T, 8 decks (deluxe), all actions",
         lambda: analyse_hand("T,6", "T", deluxe)),
        ("hand 2,2 vs 6, 8 decks (deluxe), with split",
         lambda: analyse_hand("2,2", "6", deluxe)),
        ("hand 6s,7s vs 2, 8 decks (macau-1983), bonus",
         lambda: analyse_hand("6s,7s", "2", macau8)),
    ]
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
