"""The counting tables: ``eor``, ``indices`` and ``counts``."""

from __future__ import annotations

import math
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from strategy_calc.cli.options import (
    DecksOpt,
    FormatOpt,
    JsonOpt,
    Paper,
    PlotOpt,
    RulesOpt,
    SetOpt,
    examples,
)
from strategy_calc.cli.respond import (
    check_output,
    dump_json,
    emit_bytes,
    fail,
    guarded,
    json_or_text,
    load_rules,
    progress_bar,
    refuse_binary_on_terminal,
    respond,
    wants_json,
)
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    pass

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@commands.command(
    short_help="Effects of removal of each rank",
    epilog=examples('strategy-calc eor --rules deluxe --decks 6 --json',
                    'strategy-calc eor --rules deluxe --decks 6 --set surrender=late_vs_ten_ace',
                    'strategy-calc eor --rules deluxe --decks 6 --definition fixed-chart'))
def eor(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    definition: Annotated[str, typer.Option(
        "--definition", help="reoptimised (the default): the best play re-optimised for each"
        " reduced shoe, against the full shoe's optimal EV; fixed-chart: the full shoe's"
        " chart played unchanged on each reduced shoe, against its EV off the top (the"
        " effects then sum to exactly 0 over a deck). One card removed either way.")
    ] = "reoptimised",
    plot: PlotOpt = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Effects of removal: the change in EV when one card of each rank leaves a full shoe."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.counting.effects import (
        EffectsOfRemoval,
        check_eor_definition,
        effects_of_removal,
    )
    from strategy_calc.render.counting import eor_dict, eor_text
    from strategy_calc.render.plots import eor_plot

    def compute() -> EffectsOfRemoval:
        check_output(plot, "--plot")
        chosen = check_eor_definition(definition)
        ruleset = load_rules(rules, set_, decks)
        with progress_bar("effects of removal") as tick:
            result = effects_of_removal(ruleset, tick, chosen)
        if plot is not None:
            eor_plot(result, str(plot))
        return result

    respond(compute, json_or_text(as_json, eor_dict, eor_text))


def _bet_and_bankroll(spread: str | None, bankroll: float | None
                      ) -> tuple[Callable[[float], float], float] | None:
    """``indices --risk-averse``'s ramp (the bet at a true count) and bankroll, checked."""
    if spread is None or bankroll is None:
        return None
    from strategy_calc.counting.counter import parse_spread

    if not (bankroll > 0 and math.isfinite(bankroll)):
        raise InputError(f"--bankroll must be a positive number of units, not {bankroll:g}")
    return parse_spread(spread).bet, bankroll


class IndexFormat(StrEnum):
    """Output formats of ``indices``."""

    text = "text"
    json = "json"
    csv = "csv"
    pdf = "pdf"


@commands.command(
    short_help="Count indices: the Illustrious 18, the Fab 4, every play of every hand",
    epilog=examples('strategy-calc indices --rules deluxe --decks 6 --set surrender=none',
                    'strategy-calc indices --count zen --hand T,6 --vs T',
                    'strategy-calc indices --published --format csv'))
def indices(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    count: Annotated[str, typer.Option(
        "--count", metavar="NAME|FILE", help="A balanced card-counting system (strategy-calc"
        " counts lists them: hilo, hiopt1, hiopt2, omega2, zen, halves, uston-apc) or a TOML"
        " count file.")] = "hilo",
    hand: Annotated[str | None, typer.Option(
        "--hand", help="One cell: the player's cards (with --vs), every play's index.")] = None,
    vs: Annotated[str | None, typer.Option(
        "--vs", help="The dealer's up card of the cell (with --hand).")] = None,
    published: Annotated[bool, typer.Option(
        "--published", help="Only the published decisions (Illustrious 18, Fab 4), not the"
        " matrix of every play (seconds faster).")] = False,
    risk_averse: Annotated[bool, typer.Option(
        "--risk-averse", help="Also the risk-averse index of each published decision (or"
        " of the cell): where the deviation pays once its variance is weighed at the"
        " ramp's bet (needs --spread and --bankroll).")] = False,
    spread: Annotated[str | None, typer.Option(
        "--spread", metavar="TC:UNITS,...", help='The bet ramp of --risk-averse, e.g.'
        ' "0:1,1:2,2:4,3:8,4:12".')] = None,
    bankroll: Annotated[float | None, typer.Option(
        "--bankroll", help="Bankroll in units (bets of the ramp), for --risk-averse.")
    ] = None,
    format_: Annotated[
        IndexFormat | None, typer.Option(
            "--format", case_sensitive=False,
            help="Output format: text (the default), json, csv or pdf (the grids on one"
            " page, pip install 'strategy_calc[pdf]').")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Write to this file instead of stdout.")] = None,
    paper: Annotated[Paper, typer.Option(
        "--paper", case_sensitive=False, help="Paper of --format pdf (one page).")] = Paper.a4,
) -> None:
    """Count indices: the true count at which each play becomes worth taking, exact along
    a family of real shoe compositions, beside the removal-based linear estimate. By
    default the published decisions (the Hi-Lo Illustrious 18 and Fab 4) and then the
    matrix of every play of every starting hand against every up card."""
    from strategy_calc.render.indices import indices_csv, indices_dict, indices_pdf, indices_text

    format_ = IndexFormat.json if wants_json(as_json, format_) else format_ or IndexFormat.text
    if (hand is None) != (vs is None):
        raise fail("--hand and --vs go together: give both for one cell, or neither")
    if hand is not None and published:
        raise fail("--published and --hand disagree: give one of them")
    check_output(out, "--out")
    if format_ is IndexFormat.pdf:
        refuse_binary_on_terminal(out)
    ramp_given = (spread is not None, bankroll is not None)
    if ramp_given != (risk_averse, risk_averse):
        raise fail("--risk-averse weighs variance at a bet: give it with both --spread and"
                   " --bankroll" if risk_averse else
                   "--spread and --bankroll go with --risk-averse")

    from dataclasses import replace

    from strategy_calc.counting.indices import (
        PUBLISHED,
        IndexMatrix,
        IndexTable,
        count_indices,
        index_matrix,
        with_risk_averse,
    )

    def compute() -> tuple[IndexTable, IndexMatrix | None]:
        ruleset = load_rules(rules, set_, decks)
        ra = _bet_and_bankroll(spread, bankroll)
        how = "" if ra is None else f"--spread {spread} --bankroll {bankroll:g}"
        if hand is not None and vs is not None:
            with progress_bar("count indices") as tick:
                cell = index_matrix(ruleset, count, tick, hand=hand, up=vs)
            rows = cell.cells[0].rows
            if ra is not None:
                rows = tuple(with_risk_averse(ruleset, cell.family, r, *ra) for r in rows)
            return IndexTable(ruleset, cell.count, cell.family, rows, how), None
        with progress_bar("published indices") as tick:
            table = replace(count_indices(ruleset, count, tick, PUBLISHED, linear=True,
                                          risk_averse=ra), risk_averse=how)
        if published:
            return table, None
        with progress_bar("every play's index") as tick:
            return table, index_matrix(ruleset, count, tick)

    def render(got: tuple[IndexTable, IndexMatrix | None]) -> str:
        if format_ is IndexFormat.json:
            return dump_json(indices_dict(*got))
        if format_ is IndexFormat.csv:
            return indices_csv(*got)
        return indices_text(*got)

    if format_ is not IndexFormat.pdf and out is None:
        respond(compute, render)
        return
    got = guarded(compute)
    emit_bytes(guarded(lambda: indices_pdf(*got, paper.value))
               if format_ is IndexFormat.pdf
               else (guarded(lambda: render(got)) + "\n").encode(), out)


@commands.command(
    short_help="The card-counting systems and their tags",
    epilog=examples("strategy-calc counts", "strategy-calc counts --json",
                    "strategy-calc counts --system my-count.toml"))
def counts(
    system: Annotated[str | None, typer.Option(
        "--system", metavar="NAME|FILE", help="One built-in system, or a TOML count file"
        " (its format: docs/CLI.md, counts).")] = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The built-in count systems (or one, or a file's): the tag of each rank, balanced or
    not, side counts, the true count's divisor and rounding, and the source of the tags."""
    from strategy_calc.counting.systems import COUNT_SYSTEMS, find_system
    from strategy_calc.render.counting import counts_dict, counts_text

    as_json = wants_json(as_json, format_)
    respond(lambda: [find_system(system)] if system else list(COUNT_SYSTEMS.values()),
            json_or_text(as_json, counts_dict, counts_text))
