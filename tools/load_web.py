"""Load test of ``strategy-calc serve`` on loopback (issue 32): concurrent hand queries and
chart analyses against a real uvicorn server, every answer compared with the serial one,
latencies reported (median, p95, max). A measurement, not a test: run it by hand.

    python tools/load_web.py [--hands 200] [--charts 4]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from strategy_calc.cli import run_captured
from strategy_calc.cli.serve import declared
from strategy_calc.web import server as web

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]


def hand_queries(n: int) -> list[str]:
    """``n`` distinct hand queries (two cards and an up card, deluxe at 6 decks)."""
    out = []
    for a in RANKS:
        for b in RANKS:
            for up in RANKS:
                out.append(f"/api/hand?cards={a},{b}&vs={up}&rules=deluxe&decks=6")
    return out[:n]


def fetch(base: str, path: str) -> tuple[float, str]:
    start = time.perf_counter()
    with urllib.request.urlopen(base + path, timeout=600) as response:
        body = response.read().decode()
    return time.perf_counter() - start, body


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--charts", type=int, default=4)
    args = parser.parse_args()
    charts = [f"/api/chart?rules=deluxe&decks={d}" for d in (1, 2, 6, 8)][:args.charts]
    hands = hand_queries(args.hands)

    def serial(base: str) -> dict[str, str]:
        return {p: fetch(base, p)[1] for p in hands + charts}

    def at_once(base: str) -> tuple[dict[str, list[float]], dict[str, str], float]:
        start = time.perf_counter()
        paths = hands + charts
        with ThreadPoolExecutor(len(paths)) as pool:
            got = list(pool.map(lambda p: fetch(base, p), paths))
        wall = time.perf_counter() - start
        pairs = list(zip(got, paths, strict=True))
        lat = {kind: [t for (t, _b), p in pairs if p.startswith(f"/api/{kind}")]
               for kind in ("hand", "chart")}
        return lat, dict(zip(paths, (b for _t, b in got), strict=True)), wall

    with web.serving(run_captured, declared) as base:  # a fresh server each: nothing cached
        want = serial(base)
    with web.serving(run_captured, declared) as base:
        lat, got, wall = at_once(base)
    same = sum(json.loads(got[p]) == json.loads(want[p]) for p in want)
    print(f"{len(hands)} hand and {len(charts)} chart queries at once, {web.PROCESSES} commands"
          f" at a time: {wall:.1f} s wall; {same} of {len(want)} answers equal to the serial"
          " ones")
    for kind, times in lat.items():
        times = sorted(times)
        p95 = times[max(0, round(0.95 * len(times)) - 1)]
        print(f"  {kind}: median {statistics.median(times):.2f} s, p95 {p95:.2f} s,"
              f" max {times[-1]:.2f} s")


if __name__ == "__main__":
    main()
