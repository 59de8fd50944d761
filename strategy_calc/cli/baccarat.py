"""Baccarat: ``baccarat`` (every bet's odds for a shoe) and ``baccarat count`` (counted
shoes; ``count --rules macau-baccarat`` is its alias: :func:`strategy_calc.cli.root.routed`)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command, examples, spread
from strategy_calc.cli.respond import (
    confirm_long_run,
    dump_json,
    fail,
    progress_bar,
    removed_cards,
    respond,
)
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from strategy_calc.baccarat.odds import BaccaratOdds
    from strategy_calc.counting.baccarat import BaccaratCount

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

baccarat_app = typer.Typer(rich_markup_mode=None)
"""``baccarat``: its own options give the odds; ``baccarat count`` the counted shoes."""

commands.add_typer(baccarat_app, name="baccarat", invoke_without_command=True,
                   no_args_is_help=False)


@baccarat_app.callback(epilog=examples(
    "strategy-calc baccarat",
    "strategy-calc baccarat --decks 8 --removed 5,5,K,Jh --eor",
    "strategy-calc baccarat count --shoes 1000 --json"))
@spread
def baccarat_command(
    ctx: typer.Context,
    *,
    game: opt.BaccaratRuleset,
    shoe: Annotated[str | None, typer.Option(
        "--shoe", metavar="A=N,...,K=N", help="The shoe per face, every face A, 2..9, T, J,"
        " Q, K once (pairs tell them apart), instead of --decks.")] = None,
    removed: opt.RemovedOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="Print exact fractions.")] = False,
    eor: Annotated[bool, typer.Option(
        "--eor", help="Add the effect of removing one card of each rank.")] = False,
    output: opt.Output,
) -> None:
    """Exact probabilities and EV of every baccarat bet for a (partly dealt) shoe.

    baccarat count: deal seeded shoes and say how often each bet turns positive.
    """
    if ctx.invoked_subcommand is not None:
        if (game, shoe, removed, exact, eor, output) != (
                opt.BaccaratRuleset(), None, None, False, False, opt.Output()):
            raise fail(f"the options before '{ctx.invoked_subcommand}' are the odds' (strategy-"
                       f"calc baccarat [OPTIONS]): give baccarat {ctx.invoked_subcommand}'s"
                       " after it")
        return
    as_json = output.json
    from strategy_calc.baccarat import odds as bac
    from strategy_calc.cards import MAX_BACCARAT_DECKS, decks_holding
    from strategy_calc.render.baccarat import odds_dict, odds_text

    def compute() -> tuple[BaccaratOdds, dict[str, Any] | None]:
        if shoe is None:
            odds = bac.analyse(game.load(), removed_cards(removed))
        else:
            if game.decks is not None:
                raise InputError("give --shoe or --decks, not both")
            counts = bac.parse_shoe(shoe)
            odds = bac.analyse_shoe(game.load(
                f"decks={decks_holding(sum(counts), MAX_BACCARAT_DECKS)}"), counts,
                                    removed_cards(removed))
        return odds, bac.effects_of_removal(odds) if eor else None

    respond(compute, lambda done: (
        dump_json(odds_dict(*done, exact)) if as_json else odds_text(*done, exact)))


@command(baccarat_app, "count", "strategy-calc baccarat count --shoes 1000 --json",
         "strategy-calc baccarat count --decks 8 --bets tie,player_pair")
def baccarat_count_command(
    *,
    game: opt.BaccaratRuleset,
    cut_card: Annotated[int | None, typer.Option(
        "--cut-card", metavar="CARDS_FROM_END", help="Cards behind the cut card (default: the"
        " ruleset's cut_card_from_end, 14 for macau-baccarat).")] = None,
    shoes: Annotated[int, typer.Option("--shoes", metavar="N", help="Shoes to deal.")] = 100,
    bets: Annotated[str | None, typer.Option(
        "--bets", metavar="BET,...", help="The bets to report, e.g. tie,player_pair"
        " (default all).")] = None,
    sidebets: Annotated[str | None, typer.Option(
        "--sidebets", metavar="NAME,...", help="Side bets on baccarat's cards (strategy-calc"
        " sidebet --list), each priced exactly for the cards unseen before every hand and"
        " bet one unit when positive: share bet, EV, win per 100 hands.")] = None,
    sidebet_files: opt.SideBetFileOpt = None,
    sidebet_triggers: opt.SideBetTriggerOpt = None,
    seed: opt.SeedOpt = 1,
    yes: opt.YesOpt = False,
    workers: opt.Workers,
    output: opt.Output,
) -> None:
    """Card counting at baccarat: deal seeded shoes; how often and by how much each bet
    turns positive during a shoe, its EV off the top, and what a player betting only then
    wins per shoe (by the exact count, and by a linear count of the effects of removal).

    The same as count --rules macau-baccarat (any baccarat ruleset).
    """
    from strategy_calc.baccarat.odds import BETS
    from strategy_calc.counting import baccarat as counted
    from strategy_calc.counting.sidebets import resolve as resolve_sidebets
    from strategy_calc.counting.sidebets import resolve_triggers
    from strategy_calc.render.baccarat import baccarat_count_dict, baccarat_count_text

    def compute() -> BaccaratCount:
        ruleset = game.load()
        chosen = ([b.strip().lower() for b in bets.split(",")] if bets is not None
                  else list(BETS))
        side = () if sidebets is None else resolve_sidebets(sidebets, "baccarat",
                                                                 sidebet_files or ())
        triggers = resolve_triggers(sidebet_triggers, side) if sidebet_triggers else ()
        if shoes >= 1:  # (else the run says why)
            confirm_long_run(counted.estimated_seconds(
                shoes, ruleset.decks, len(side), workers.jobs or os.cpu_count() or 1),
                f"{shoes:,} shoes", yes)
        with progress_bar(f"{shoes} shoes") as tick, workers.executor() as pool:
            return counted.baccarat_count(ruleset, shoes, seed, cut_card, chosen, pool, tick,
                                          sidebets=side, triggers=triggers)

    respond(compute, output.render(baccarat_count_dict, baccarat_count_text))
