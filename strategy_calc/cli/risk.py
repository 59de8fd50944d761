"""A round's distribution and the bankroll's risk: ``risk``."""

from __future__ import annotations

import math
from typing import Annotated, Any

import typer

from strategy_calc.blackjack.risk import RiskStrategy
from strategy_calc.blackjack.split.strategies import SplitStrategy
from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import check_output, guarded_memory, progress_bar, respond
from strategy_calc.errors import InputError

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@command(commands, "risk", "strategy-calc risk --rules deluxe --bankroll 100 --rounds 1000")
def risk_command(
    *,
    game: opt.ShoeRuleset,
    strategy: Annotated[RiskStrategy, typer.Option(
        "--strategy", case_sensitive=False, help="optimal: best play per hand; basic: chart.")
    ] = RiskStrategy.OPTIMAL,
    bankroll: Annotated[float, typer.Option(
        "--bankroll", metavar="B", help="Bankroll in initial bets.")
                        ] = 100,
    rounds: Annotated[int, typer.Option(
        "--rounds", metavar="N", help="Rounds played flat (1 to 10000).")
                      ] = 1000,
    plot: opt.PlotOpt = None,
    split_strategy: opt.SplitStrategyOpt = SplitStrategy.CDP1,
    memory_limit: opt.MemoryLimitOpt = None,
    output: opt.Output,
) -> None:
    """Exact distribution of a round's result, its SD, and the bankroll's risk of ruin.

    With resplits (max_split_hands 3 or 4) the round's exact mean and SD, and the normal
    approximation's figures from them (the distribution itself is not enumerated)."""
    from strategy_calc.blackjack import risk
    from strategy_calc.render.game import risk_dict, risk_text
    from strategy_calc.render.plots import risk_plot

    def compute() -> dict[str, Any]:
        check_output(plot, "--plot")
        if not 1 <= rounds <= 10000:
            raise InputError(f"--rounds must be between 1 and 10000, not {rounds}")
        if not math.isfinite(bankroll) or bankroll <= 0:
            raise InputError(f"--bankroll must be a positive finite number, not {bankroll:g}")
        ruleset, start = game.with_shoe()
        resplits = ruleset.max_split_hands > 2
        if resplits and plot is not None:
            raise InputError("--plot draws the round's distribution, which is not enumerated"
                             " with resplits (max_split_hands > 2); the exact mean and SD are")
        outcomes = None
        with progress_bar("enumerating every round") as tick:
            if resplits:
                mean, second, ev = risk.round_moments(ruleset, strategy.value, tick,
                                                      split_strategy, start)
            else:
                outcomes, ev = risk.round_outcomes(ruleset, strategy.value, tick,
                                                   split_strategy, start)
        summary = (risk.summarise(outcomes, bankroll, rounds) if outcomes is not None
                   else risk.summarise_moments(mean, second, bankroll, rounds))
        data = risk_dict(ruleset, strategy.value, ev, summary)
        data["split_strategy"] = split_strategy.strip().lower()
        if plot is not None and outcomes is not None:
            risk_plot(data, risk.path_quantiles(outcomes, rounds), str(plot))
        return data

    with guarded_memory(memory_limit):
        respond(compute, output.render(lambda data: data, risk_text))
