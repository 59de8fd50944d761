"""Plots drawn by matplotlib (``.[plot]``): counts, compared systems, effects of removal,
risk."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from strategy_calc.cards import RANKS
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from strategy_calc.counting.effects import EffectsOfRemoval
    from strategy_calc.counting.results import BlackjackCount, Comparison


def comparison_plot(result: Comparison, path: str) -> None:
    """EV against the (floored) true count, one line per system, as a PNG."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for r in result.results:
        rows = [row for row in r.by_true_count if row.frequency * r.rounds >= 20]
        ax.plot([row.tc for row in rows], [100 * row.ev for row in rows], marker="o",
                label=r.counter.system.name)
    ax.axhline(0, color="#888", linewidth=0.8)
    kinds = sorted({r.counter.count_kind for r in result.results})
    ax.set_xlabel(f"{' / '.join(kinds)} (floored; bins of at least 20 rounds)")
    ax.set_ylabel("EV per round (%)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def count_plot(result: BlackjackCount, path: str) -> None:
    """EV and frequency by true count, as a PNG (needs the ``plot`` extra: matplotlib)."""
    plt = _pyplot()
    rows = result.by_true_count
    fig, ax = plt.subplots(figsize=(8, 4.5))
    tcs = [r.tc for r in rows]
    ax.bar(tcs, [100 * r.frequency for r in rows], color="#9ecae1", label="frequency (%)")
    ax.set_xlabel(f"{result.counter.count_kind} (floored)")
    ax.set_xticks(_integer_ticks(tcs))  # the counts are whole numbers: no -7.5 ticks
    ax.set_ylabel("frequency of rounds (%)")
    ev_ax = ax.twinx()
    ev_ax.plot(tcs, [100 * r.ev for r in rows], "o-", color="#d62728", label="EV (%)")
    ev_ax.axhline(0.0, color="grey", linewidth=0.8)
    ev_ax.set_ylabel("exact EV per round (%)")
    c = result.counter
    dealt = ("one round per shuffle" if result.one_round_per_shuffle
             else f"penetration {result.penetration:.0%}")
    ax.set_title(f"{c.rules.name}, {c.rules.decks} decks, {c.strategy}:"
                 f" {result.rounds} rounds, {dealt}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _integer_ticks(values: Sequence[int], most: int = 15) -> list[int]:
    """Whole-number ticks over ``values``' range, at most about ``most`` of them.

    >>> _integer_ticks([-9, -3, 0, 4]), _integer_ticks([0])
    ([-9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4], [0])
    >>> _integer_ticks(list(range(-30, 31)))[:3]
    [-30, -25, -20]
    """
    low, high = min(values, default=0), max(values, default=0)
    step = max(1, math.ceil((high - low + 1) / most))
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 10**9) if s >= step)
    start = low - low % step if low % step else low
    return list(range(start, high + 1, step))


def _pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive backend, or a clear error."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'strategy_calc[plot]'"
                         ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def eor_plot(result: EffectsOfRemoval, path: str) -> None:
    """The effects of removal as bars, in % of a unit bet (matplotlib)."""
    plt = _pyplot()
    ranks = [r.symbol for r in RANKS]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    values = [100 * result.game[r] for r in ranks]
    ax.bar(ranks, values, color=["#2b8a3e" if v > 0 else "#c92a2a" for v in values])
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("rank removed from a full shoe")
    ax.set_ylabel("change in the game's EV (% of a unit bet)")
    ax.set_title(f"effects of removal: {result.rules}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def risk_plot(data: Mapping[str, Any], paths: Sequence[tuple[int, Mapping[str, float]]],
              path: str) -> None:
    """The round's result distribution and the bankroll's path quantiles (matplotlib)."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    xs = [float(k) for k in data["outcomes"]]
    left.bar(xs, list(data["outcomes"].values()), width=0.2, color="#4263eb")
    left.set_yscale("log")
    left.set_xlabel("net result of a round (units)")
    left.set_ylabel("probability (log scale)")
    left.set_title(f"one round, {data['strategy']} play")
    rounds = [n for n, _q in paths]
    for q in paths[0][1]:
        right.plot(rounds, [data["bankroll"] + qs[q] for _n, qs in paths], label=q)
    right.axhline(0.0, color="#c92a2a", linewidth=1.0, label="ruin")
    right.set_xlabel("rounds")
    right.set_ylabel("bankroll (units), quantiles")
    right.set_title(f"bankroll {data['bankroll']:g}: risk of ruin"
                    f" {data['risk_of_ruin']:.2%} in {data['rounds']} rounds")
    right.legend(fontsize=8)
    fig.suptitle(str(data["ruleset"]), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
