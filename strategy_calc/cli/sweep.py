"""Rule variants: ``sweep``."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from strategy_calc.actions import Strategy
from strategy_calc.blackjack.risk import RiskStrategy
from strategy_calc.blackjack.sweep import SweepMode
from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import chosen_format, json_or_text, progress_bar, respond
from strategy_calc.errors import InputError

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

SweepFormat = StrEnum("SweepFormat", "text json csv markdown")
"""``sweep --format``."""
SweepFormatOpt = Annotated[SweepFormat | None, opt.format_option(
    "text (the default), csv, markdown or json")]


@command(commands, "sweep", "strategy-calc sweep --preset macau-rules",
         "strategy-calc sweep --rules deluxe --vary decks=1,2,6,8 --format csv")
def sweep_command(
    *,
    rules: opt.RulesOpt = None,
    set_: opt.SetOpt = None,
    vary: Annotated[list[str] | None, typer.Option(
        "--vary", metavar="FIELD=V1,V2,...", help="A field and the values to try (repeatable)."
    )] = None,
    preset: Annotated[str | None, typer.Option(
        "--preset", metavar="NAME",
        help="A built-in sweep instead of --vary: macau-rules.")] = None,
    mode: Annotated[SweepMode, typer.Option(
        "--mode", case_sensitive=False,
        help="effects: the base, then each single change; grid: every combination."
    )] = SweepMode.EFFECTS,
    strategy: Annotated[RiskStrategy, typer.Option(
        "--strategy", case_sensitive=False, help="basic: the chart; optimal: best play per hand.")
    ] = RiskStrategy.BASIC,
    format_: SweepFormatOpt = None,
    workers: opt.Workers,
    cache: Annotated[Path | None, typer.Option(
        "--cache", metavar="DIR", help="Keep each variant's result here; a rerun resumes.")] = None,
    yes: opt.YesOpt = False,
    as_json: opt.JsonAliasOpt = False,
) -> None:
    """The exact EV of rule variants of a ruleset: what each rule is worth."""
    from strategy_calc.blackjack import sweep as sweeps
    from strategy_calc.render.game import sweep_csv, sweep_dict, sweep_markdown, sweep_text

    def compute() -> sweeps.SweepResult:
        if preset is not None and vary:
            raise InputError("give --preset or --vary, not both")
        if preset is None and not vary:
            raise InputError("give what to vary: --vary FIELD=V1,V2,... or --preset NAME")
        if preset is not None:
            spec, variants = sweeps.preset_plan(preset)
            base_rules, base_sets, sweep_mode = spec.rules, [*spec.base, *(set_ or [])], \
                SweepMode.EFFECTS
        else:
            variants = sweeps.plan(sweeps.parse_vary(vary or []), mode, yes)
            base_rules = rules if rules is not None else "macau-1983"
            base_sets, sweep_mode = list(set_ or []), mode
        with progress_bar(f"{len(variants)} variants") as tick, workers.executor() as pool:
            return sweeps.sweep(base_rules, base_sets, variants, sweep_mode,
                                Strategy(strategy.value), pool, cache, tick, preset)

    chosen = chosen_format(as_json, format_, SweepFormat)
    as_words = {SweepFormat.csv: sweep_csv, SweepFormat.markdown: sweep_markdown
                }.get(chosen, sweep_text)  # text, or unused
    respond(compute, json_or_text(chosen is SweepFormat.json, sweep_dict,
                                  lambda result: as_words(result).rstrip("\n")))
