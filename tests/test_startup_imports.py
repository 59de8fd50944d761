"""Start-up: a command imports only what it uses (issue 29: start-up must not dominate).

``hand`` needs the one-hand analysis and the renderer, not the whole-game analyses, the
count analyses or the counting systems; a top-level import of one of those in a module
every command loads (``report``) costs every command about 10 ms (measured 2026-12-06:
``hand T,6 --vs T`` 116.5 ms before such an import, 126.1 ms with it, medians of 15)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("strategy_calc.counting", "strategy_calc.strategy", "strategy_calc.count",
         "strategy_calc.distributions", "strategy_calc.drill", "strategy_calc.bet_ramp",
         "numpy", "scipy", "sympy")


def test_hand_imports_no_whole_game_or_count_analysis() -> None:
    code = ("import sys\n"
            "from strategy_calc.cli import run\n"
            "assert run(['hand', 'T,6', '--vs', 'T']) == 0\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd="/")
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout[-500:]
