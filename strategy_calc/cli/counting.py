"""The counting tables: ``eor``, ``indices`` and ``counts``."""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import OptionGroup, command
from strategy_calc.cli.respond import (
    check_output,
    confirm_long_run,
    dump_json,
    emit_bytes,
    fail,
    file_format,
    guarded,
    progress_bar,
    respond,
)
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from strategy_calc.counting.indices import IndexMatrix, IndexTable
    from strategy_calc.rules import BlackjackRules

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

IndexFormat = StrEnum("IndexFormat", "text json csv pdf")
"""``indices --format``."""
IndexFormatOpt = Annotated[IndexFormat | None, opt.format_option(
    "text (the default), json, csv or pdf (the grids on one page, pip install"
    " 'strategy_calc[pdf]')")]


@command(commands, "eor", "strategy-calc eor --rules deluxe --decks 6 --json",
         "strategy-calc eor --rules deluxe --decks 6 --set surrender=late_vs_ten_ace",
         "strategy-calc eor --rules deluxe --decks 6 --definition fixed-chart")
def eor_command(
    *,
    game: opt.Ruleset,
    definition: Annotated[str, typer.Option(
        "--definition", metavar="reoptimised|fixed-chart",
        help="reoptimised (the default): the best play re-optimised for each"
        " reduced shoe, against the full shoe's optimal EV; fixed-chart: the full shoe's"
        " chart played unchanged on each reduced shoe, against its EV off the top (the"
        " effects then sum to exactly 0 over a deck). One card removed either way.")
    ] = "reoptimised",
    plot: opt.PlotOpt = None,
    output: opt.Output,
) -> None:
    """Effects of removal: the change in EV when one card of each rank leaves a full shoe."""
    from strategy_calc.counting import effects
    from strategy_calc.render.counting import eor_dict, eor_text
    from strategy_calc.render.plots import eor_plot

    def compute() -> effects.EffectsOfRemoval:
        check_output(plot, "--plot")
        chosen = effects.check_eor_definition(definition)
        ruleset = game.load()
        ruleset.finite_decks("effects of removal")  # (nothing to remove: at once)
        with progress_bar("effects of removal") as tick:
            result = effects.effects_of_removal(ruleset, tick, chosen)
        if plot is not None:
            eor_plot(result, str(plot))
        return result

    respond(compute, output.render(eor_dict, eor_text))


class RiskAverse(OptionGroup):
    """``indices --risk-averse`` and the ramp and bankroll it weighs variance at."""

    risk_averse: Annotated[bool, typer.Option(
        "--risk-averse", help="Also the risk-averse index of each published decision (or"
        " of the cell): where the deviation pays once its variance is weighed at the"
        " ramp's bet (needs --spread and --bankroll).")] = False
    spread: Annotated[str | None, typer.Option(
        "--spread", metavar="TC:UNITS,...", help='The bet ramp of --risk-averse, e.g.'
        ' "0:1,1:2,2:4,3:8,4:12".')] = None
    bankroll: Annotated[float | None, typer.Option(
        "--bankroll", metavar="B", help="Bankroll in units (bets of the ramp), for --risk-averse.")
    ] = None

    def check(self) -> None:
        """Refuse the flags without each other (before any work)."""
        given = (self.spread is not None, self.bankroll is not None)
        if given != (self.risk_averse, self.risk_averse):
            raise fail("--risk-averse weighs variance at a bet: give it with both --spread"
                       " and --bankroll" if self.risk_averse else
                       "--spread and --bankroll go with --risk-averse")

    def bet_and_bankroll(self) -> tuple[Callable[[float], float], float] | None:
        """The ramp (the bet at a true count) and the bankroll, checked; None without."""
        if self.spread is None or self.bankroll is None:
            return None
        from strategy_calc.counting.counter import parse_spread

        if not (self.bankroll > 0 and math.isfinite(self.bankroll)):
            raise InputError("--bankroll must be a positive number of units, not"
                             f" {self.bankroll:g}")
        return parse_spread(self.spread).bet, self.bankroll

    def how(self) -> str:
        """The flags, as the table names them."""
        return "" if self.spread is None or self.bankroll is None else (
            f"--spread {self.spread} --bankroll {self.bankroll:g}")


@command(commands, "indices", "strategy-calc indices --rules deluxe --decks 6 --set surrender=none",
         "strategy-calc indices --count zen --hand T,6 --vs T",
         "strategy-calc indices --published --format csv")
def indices_command(
    *,
    game: opt.Ruleset,
    count: Annotated[str, typer.Option(
        "--count", metavar="NAME|FILE", help="A card-counting system (strategy-calc counts"
        " lists them) or a TOML count file: a balanced one's indices are true counts; KO's"
        " and Red 7's are running counts from their IRC at half the shoe dealt (the"
        " --spread of --risk-averse is then read at the running count).")] = "hilo",
    hand: Annotated[str | None, typer.Option(
        "--hand", metavar="CARDS", help="One cell: the player's cards (with --vs), every"
        " play's index.")] = None,
    vs: Annotated[str | None, typer.Option(
        "--vs", metavar="UP", help="The dealer's up card of the cell (with --hand).")] = None,
    published: Annotated[bool, typer.Option(
        "--published", help="Only the published decisions (Illustrious 18, Fab 4), not the"
        " matrix of every play (seconds faster).")] = False,
    risk_averse: RiskAverse,
    format_: IndexFormatOpt = None,
    as_json: opt.JsonAliasOpt = False,
    out: opt.OutOpt = None,
    paper: opt.PaperOpt = opt.Paper.a4,
    yes: opt.YesOpt = False,
) -> None:
    """Count indices: the true count (for KO and Red 7 the running count) at which each play
    becomes worth taking, exact along a family of real shoe compositions, beside the
    removal-based linear estimate. By
    default the published decisions (the Hi-Lo Illustrious 18 and Fab 4) and then the
    matrix of every play of every starting hand against every up card."""
    from strategy_calc.render.indices import indices_csv, indices_dict, indices_pdf, indices_text

    if (hand is None) != (vs is None):
        raise fail("--hand and --vs go together: give both for one cell, or neither")
    if hand is not None and published:
        raise fail("--published and --hand disagree: give one of them")
    chosen = file_format(as_json, format_, IndexFormat, out)
    risk_averse.check()

    def compute() -> tuple[IndexTable, IndexMatrix | None]:
        ruleset = game.load()
        ruleset.finite_decks("indices")  # (no count to index: at once)
        if hand is None:  # (one cell is quick: 0.6 s at 1,000 decks)
            from strategy_calc.counting.indices import estimated_seconds

            confirm_long_run(estimated_seconds(ruleset, count, not published),
                             f"the indices at {ruleset.decks:,} decks", yes)
        return _indices(ruleset, count, hand, vs, published, risk_averse)

    def render(got: tuple[IndexTable, IndexMatrix | None]) -> str:
        if chosen is IndexFormat.json:
            return dump_json(indices_dict(*got))
        return indices_csv(*got) if chosen is IndexFormat.csv else indices_text(*got)

    if chosen is not IndexFormat.pdf and out is None:
        respond(compute, render)
        return
    got = guarded(compute)
    emit_bytes(guarded(lambda: indices_pdf(*got, paper.value))
               if chosen is IndexFormat.pdf
               else (guarded(lambda: render(got)) + "\n").encode(), out)


def _indices(ruleset: BlackjackRules, count: str, hand: str | None, up: str | None,
             published: bool, risk_averse: RiskAverse
             ) -> tuple[IndexTable, IndexMatrix | None]:
    """``indices``' tables: one cell's, or the published decisions' and (unless
    ``published``) every play's."""
    from dataclasses import replace

    from strategy_calc.counting import indices

    ra = risk_averse.bet_and_bankroll()
    if hand is not None and up is not None:
        with progress_bar("count indices") as tick:
            cell = indices.index_matrix(ruleset, count, tick, hand=hand, up=up)
        rows = cell.cells[0].rows
        if ra is not None:
            rows = tuple(indices.with_risk_averse(ruleset, cell.family, r, *ra) for r in rows)
        return indices.IndexTable(ruleset, cell.count, cell.family, rows,
                                  risk_averse.how()), None
    with progress_bar("published indices") as tick:
        table = replace(indices.count_indices(ruleset, count, tick, indices.PUBLISHED,
                                              linear=True, risk_averse=ra),
                        risk_averse=risk_averse.how())
    if published:
        return table, None
    with progress_bar("every play's index") as tick:
        return table, indices.index_matrix(ruleset, count, tick)


@command(commands, "counts", "strategy-calc counts", "strategy-calc counts --json",
         "strategy-calc counts --system my-count.toml")
def counts_command(
    *,
    system: Annotated[str | None, typer.Option(
        "--system", metavar="NAME|FILE", help="One built-in system, or a TOML count file"
        " (its format: docs/CLI.md, counts).")] = None,
    output: opt.Output,
) -> None:
    """The built-in count systems (or one, or a file's): the tag of each rank, balanced or
    not, side counts, the true count's divisor and rounding, and the source of the tags."""
    from strategy_calc.counting.systems import COUNT_SYSTEMS, find_system
    from strategy_calc.render.counting import counts_dict, counts_text

    respond(lambda: [find_system(system)] if system else list(COUNT_SYSTEMS.values()),
            output.render(counts_dict, counts_text))
