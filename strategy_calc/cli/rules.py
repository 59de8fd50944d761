"""The rulesets: ``rules``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from strategy_calc.cli.options import FormatOpt, JsonOpt, examples
from strategy_calc.cli.respond import json_or_text, respond, wants_json

if TYPE_CHECKING:
    pass

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@commands.command(
    short_help="The rulesets and their fields",
    epilog=examples("strategy-calc rules", "strategy-calc rules macau-1983",
                             "strategy-calc rules deluxe --json"))
def rules(
    name: Annotated[str | None, typer.Argument(
        metavar="[NAME|FILE]", help="A built-in ruleset or a TOML ruleset file.")] = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The built-in rulesets; for one, every field: value, meaning, allowed values, rule text."""
    from strategy_calc.render.rules import rules_dict, rules_text, rulesets_dict, rulesets_text
    from strategy_calc.rules import RULESETS, describe_ruleset

    as_json = wants_json(as_json, format_)
    if name is None:
        respond(lambda: RULESETS, json_or_text(as_json, rulesets_dict,
                                               rulesets_text))
        return
    respond(lambda: describe_ruleset(name),
            json_or_text(as_json, rules_dict, rules_text))
