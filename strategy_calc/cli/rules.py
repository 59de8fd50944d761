"""The rulesets: ``rules``."""

from __future__ import annotations

from typing import Annotated

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import respond

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@command(commands, "rules", "strategy-calc rules", "strategy-calc rules macau-1983",
         "strategy-calc rules deluxe --json")
def rules_command(
    name: Annotated[str | None, typer.Argument(
        metavar="[NAME|FILE]", help="A built-in ruleset or a TOML ruleset file.")] = None,
    *,
    output: opt.Output,
) -> None:
    """The built-in rulesets; for one, every field: value, meaning, allowed values, rule text."""
    from strategy_calc.render.rules import rules_dict, rules_text, rulesets_dict, rulesets_text
    from strategy_calc.rules import RULESETS, describe_ruleset

    if name is None:
        respond(lambda: RULESETS, output.render(rulesets_dict, rulesets_text))
        return
    respond(lambda: describe_ruleset(name), output.render(rules_dict, rules_text))
