"""Baccarat: ``baccarat``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.cli.options import (
    BaccaratRulesOpt,
    DecksOpt,
    FormatOpt,
    JsonOpt,
    RemovedOpt,
    SetOpt,
    examples,
)
from strategy_calc.cli.respond import dump_json, removed_cards, respond, wants_json
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    pass

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@commands.command(
    short_help="Every baccarat bet's exact EV for a shoe",
    epilog=examples(
    'strategy-calc baccarat',
    'strategy-calc baccarat --decks 8 --removed 5,5,K,Jh --eor'))
def baccarat(
    rules: BaccaratRulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: Annotated[str | None, typer.Option(
        "--shoe", metavar="A=N,...,K=N", help="The shoe per face, every face A, 2..9, T, J,"
        " Q, K once (pairs tell them apart), instead of --decks.")] = None,
    removed: RemovedOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="Print exact fractions.")] = False,
    eor: Annotated[
        bool, typer.Option("--eor", help="Add the effect of removing one card of each rank.")
    ] = False,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact probabilities and EV of every baccarat bet for a (partly dealt) shoe."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.baccarat import odds as bac
    from strategy_calc.cards import decks_holding
    from strategy_calc.render.baccarat import odds_dict, odds_text
    from strategy_calc.rules import baccarat_rules

    spec = rules if rules is not None else "macau-baccarat"

    def compute() -> tuple[bac.BaccaratOdds, dict[str, Any] | None]:
        if shoe is None:
            odds = bac.analyse(baccarat_rules(spec, set_ or [], decks), removed_cards(removed))
        else:
            if decks is not None:
                raise InputError("give --shoe or --decks, not both")
            counts = bac.parse_shoe(shoe)
            ruleset = baccarat_rules(spec, [*(set_ or []), f"decks={decks_holding(sum(counts))}"])
            odds = bac.analyse_shoe(ruleset, counts, removed_cards(removed))
        return odds, bac.effects_of_removal(odds) if eor else None

    respond(compute, lambda done: (
        dump_json(odds_dict(*done, exact)) if as_json else odds_text(*done, exact)))
