"""The rulesets: ``rules``."""

from __future__ import annotations

from typing import Annotated

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import respond
from strategy_calc.errors import InputError

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@command(commands, "rules", "strategy-calc rules", "strategy-calc rules macau-1983",
         "strategy-calc rules deluxe --json")
def rules_command(
    name: Annotated[str | None, typer.Argument(
        metavar="[NAME|FILE]", help="A built-in ruleset or a TOML ruleset file.")] = None,
    *,
    set_: opt.SetOpt = None,
    decks: opt.DecksOpt = None,
    output: opt.Output,
) -> None:
    """The built-in rulesets; for one, every field: value, meaning, allowed values, rule
    text (after any --set and --decks: the ruleset a command given them would play)."""
    from strategy_calc.render.rules import rules_dict, rules_text, rulesets_dict, rulesets_text
    from strategy_calc.rules import RULESETS, Ruleset, describe_ruleset

    if name is None:
        def listed() -> tuple[Ruleset, ...]:
            if set_ or decks is not None:
                raise InputError("--set and --decks describe one ruleset: give its NAME")
            return RULESETS

        respond(listed, output.render(rulesets_dict, rulesets_text))
        return
    respond(lambda: describe_ruleset(name, set_ or (), decks),
            output.render(rules_dict, rules_text))
