"""The whole game: ``chart``, ``edge``, ``bonus``, ``risk`` and ``sweep``."""

from __future__ import annotations

import math
import sys
from collections import OrderedDict
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.actions import Strategy
from strategy_calc.cli.options import (
    BoxesOpt,
    DecksOpt,
    FormatOpt,
    JsonOpt,
    Paper,
    PlotOpt,
    RulesOpt,
    SetOpt,
    ShoeOpt,
    SplitStrategyOpt,
    examples,
)
from strategy_calc.cli.respond import (
    _box_figures,
    check_output,
    dump_json,
    emit_bytes,
    fail,
    guarded,
    json_or_text,
    progress_bar,
    refuse_binary_on_terminal,
    respond,
    wants_json,
    warn_slow_split,
    with_shoe,
)
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    pass

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


class ChartFormat(StrEnum):
    """Output formats of ``chart``."""

    text = "text"
    markdown = "markdown"
    csv = "csv"
    json = "json"
    html = "html"
    pdf = "pdf"


GAMES_KEPT = 8
"""Whole-game analyses a process keeps (:func:`_game`): one for a command line; in
``serve``'s warm workers, the chart and the edge of a ruleset share one."""


_games: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def _game(rules: str | None, set_: list[str] | None, decks: int | None,
          shoe: str | None = None, split_strategy: str = "cdp1") -> Any:
    """Load a blackjack ruleset and analyse the whole game (progress bar after ~1 s),
    or take the analysis this process made of the same ruleset, shoe and split strategy
    (the last :data:`GAMES_KEPT`; an analysis is an immutable value)."""
    from strategy_calc.blackjack.game_analysis import analyse_game

    ruleset, cards, key = _game_key(rules, set_, decks, shoe, split_strategy)
    if key in _games:
        _games.move_to_end(key)
        return _games[key]
    with progress_bar("analysing every hand") as tick:
        game = guarded(lambda: analyse_game(ruleset, tick, shoe=cards,
                                            split_strategy=split_strategy))
    _games[key] = game
    while len(_games) > GAMES_KEPT:
        _games.popitem(last=False)
    return game


def _game_key(rules: str | None, set_: list[str] | None, decks: int | None,
              shoe: str | None, split_strategy: str) -> tuple[Any, Any, tuple[Any, ...]]:
    """The ruleset and shoe of a whole-game command (a warning first where its split
    strategy is slow), and the key its analysis is kept under in :data:`_games`."""
    ruleset, cards = guarded(lambda: with_shoe(rules, set_, decks, shoe))
    warn_slow_split(ruleset, split_strategy, "every pair")
    return ruleset, cards, (ruleset, cards, split_strategy.strip().lower())


def _optimal_edge(rules: str | None, set_: list[str] | None, decks: int | None,
                  shoe: str | None, split_strategy: str) -> Any:
    """The optimal-play EV of a ruleset
    (:func:`strategy_calc.blackjack.game_analysis.optimal_edge`), or the one in this process's
    analysis of the same ruleset, shoe and split strategy (the same numbers)."""
    from strategy_calc.blackjack.game_analysis import OptimalEdge, optimal_edge

    ruleset, cards, key = _game_key(rules, set_, decks, shoe, split_strategy)
    kept = _games.get(key)
    if kept is not None:
        return OptimalEdge(kept.rules, kept.ev_optimal,
                           {up: v[1] for up, v in kept.ev_by_up.items()}, kept.split_strategy)
    with progress_bar("analysing every hand") as tick:
        return guarded(lambda: optimal_edge(ruleset, tick, shoe=cards,
                                            split_strategy=split_strategy))


@commands.command(
    short_help="The basic-strategy chart and house edge",
    epilog=examples(
    'strategy-calc chart --rules deluxe --decks 6',
    'strategy-calc chart --rules macau-1983 --format pdf --out macau.pdf'))
def chart(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    split_strategy: SplitStrategyOpt = "cdp1",
    format_: Annotated[
        ChartFormat | None, typer.Option(
            "--format", case_sensitive=False,
            help="Output format: text (the default), markdown, csv, json, html or pdf.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Write the chart to this file instead of stdout.")] = None,
    paper: Annotated[Paper, typer.Option(
        "--paper", case_sensitive=False, help="Paper of --format pdf (one page).")] = Paper.a4,
) -> None:
    """The basic-strategy chart of a ruleset, its exceptions and the house edge.

    --format pdf: a one-page wall chart typeset by weasyprint (pip install
    'strategy_calc[pdf]').
    """
    from strategy_calc.render.chart import (
        chart_csv,
        chart_dict,
        chart_html,
        chart_markdown,
        chart_pdf,
        chart_renderables,
        chart_text,
    )

    format_ = ChartFormat.json if wants_json(as_json, format_) else format_ or ChartFormat.text
    check_output(out, "--out")
    if format_ is ChartFormat.pdf:
        refuse_binary_on_terminal(out)
    game = _game(rules, set_, decks, shoe, split_strategy)
    if format_ is ChartFormat.pdf:
        emit_bytes(guarded(lambda: chart_pdf(game, paper.value)), out)
        return
    if out is not None:
        if format_ is ChartFormat.text:
            text = chart_text(game) + "\n"
        elif format_ is ChartFormat.json:
            text = dump_json(chart_dict(game)) + "\n"
        else:
            render_to = {ChartFormat.markdown: chart_markdown,
                         ChartFormat.csv: chart_csv, ChartFormat.html: chart_html}
            text = render_to[format_](game)
        guarded(lambda: out.write_text(text, encoding="utf-8"))
        return
    if format_ is ChartFormat.text:
        from rich.console import Console

        Console(highlight=False).print(*chart_renderables(game), sep="\n")
        return
    if format_ is ChartFormat.json:
        print(dump_json(chart_dict(game)))
        return
    render = {ChartFormat.markdown: chart_markdown, ChartFormat.csv: chart_csv,
              ChartFormat.html: chart_html}[format_]
    sys.stdout.write(render(game))


@commands.command(
    short_help="The exact house edge of a ruleset",
    epilog=examples(
    'strategy-calc edge --rules deluxe',
    'strategy-calc edge --rules macau-1983 --strategy optimal --json'))
def edge(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    split_strategy: SplitStrategyOpt = "cdp1",
    strategy: Annotated[
        Strategy, typer.Option(
            "--strategy", case_sensitive=False, help="basic: the chart; optimal: best play per "
                               "hand; autoplay: hit to 12+, then stand (Deluxe disconnection).")
    ] = Strategy.BASIC,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
    boxes: BoxesOpt = None,
) -> None:
    """The exact house edge / return to player of a ruleset from a full shoe."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack.game_analysis import strategy_ev
    from strategy_calc.render.game import boxes_dict, boxes_text, edge_dict, edge_text

    def compute() -> tuple[Any, float, Any]:
        if boxes is not None:
            from strategy_calc.blackjack.boxes import check_boxes

            guarded(lambda: check_boxes(boxes))
            if strategy is Strategy.AUTOPLAY:
                raise fail("--boxes takes --strategy basic or optimal, not autoplay")
        fig = None
        if boxes is not None:
            ruleset, start = with_shoe(rules, set_, decks, shoe)
            fig = _box_figures(ruleset, start, boxes, play=strategy.value)
        if strategy is Strategy.OPTIMAL:  # (optimal play alone: the chart is not needed)
            optimal = _optimal_edge(rules, set_, decks, shoe, split_strategy)
            return optimal, optimal.ev_optimal, fig
        game = _game(rules, set_, decks, shoe, split_strategy)
        return game, strategy_ev(game.rules, strategy, game), fig

    def render(done: tuple[Any, float, Any]) -> str:
        game, ev, fig = done
        if as_json:
            data = edge_dict(game, strategy.value, ev)
            return dump_json(data if fig is None else {**data, **boxes_dict(fig)})
        text = edge_text(game, strategy.value, ev)
        return text if fig is None else text + "\n" + boxes_text(fig)

    respond(compute, render)


@commands.command(
    short_help="What Macau's 6-7-8 / 7-7-7 bonuses are worth",
    epilog=examples('strategy-calc bonus --rules macau-1983 --decks 8'))
def bonus(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What the Macau suited 6-7-8 / 7-7-7 bonuses add to the return, and the plays they change."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack.whatif import BonusValue, bonus_value
    from strategy_calc.render.game import bonus_dict, bonus_text

    def compute() -> BonusValue:
        ruleset, start = with_shoe(rules, set_, decks, shoe)
        with progress_bar("with and without each bonus") as tick:
            return bonus_value(ruleset, tick, start)

    respond(compute, json_or_text(as_json, bonus_dict, bonus_text))


class RiskStrategy(StrEnum):
    """Strategies whose round distribution ``risk`` computes."""

    optimal = "optimal"
    basic = "basic"


@commands.command(
    short_help="A round's distribution and risk of ruin",
    epilog=examples('strategy-calc risk --rules deluxe --bankroll 100 --rounds 1000'))
def risk(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    strategy: Annotated[
        RiskStrategy, typer.Option(
            "--strategy", case_sensitive=False, help="optimal: best play per hand; basic: chart.")
    ] = RiskStrategy.optimal,
    bankroll: Annotated[float, typer.Option("--bankroll", help="Bankroll in initial bets.")] = 100,
    rounds: Annotated[
        int, typer.Option("--rounds", help="Rounds played flat (1 to 10000).")
    ] = 1000,
    plot: PlotOpt = None,
    split_strategy: SplitStrategyOpt = "cdp1",
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact distribution of a round's result, its SD, and the bankroll's risk of ruin.

    With resplits (max_split_hands 3 or 4) the round's exact mean and SD, and the normal
    approximation's figures from them (the distribution itself is not enumerated)."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack.risk import (
        round_moments,
        round_outcomes,
        summarise,
        summarise_moments,
    )
    from strategy_calc.render.game import risk_dict, risk_text
    from strategy_calc.render.plots import risk_plot

    def compute() -> dict[str, Any]:
        check_output(plot, "--plot")
        if not 1 <= rounds <= 10000:
            raise InputError(f"--rounds must be between 1 and 10000, not {rounds}")
        if not math.isfinite(bankroll) or bankroll <= 0:
            raise InputError(f"--bankroll must be a positive finite number, not {bankroll:g}")
        ruleset, start = with_shoe(rules, set_, decks, shoe)
        resplits = ruleset.max_split_hands > 2
        if resplits and plot is not None:
            raise InputError("--plot draws the round's distribution, which is not enumerated"
                             " with resplits (max_split_hands > 2); the exact mean and SD are")
        outcomes = None
        with progress_bar("enumerating every round") as tick:
            if resplits:
                mean, second, ev = round_moments(ruleset, strategy.value, tick, split_strategy,
                                                 start)
            else:
                outcomes, ev = round_outcomes(ruleset, strategy.value, tick, split_strategy,
                                              start)
        summary = (summarise(outcomes, bankroll, rounds) if outcomes is not None
                   else summarise_moments(mean, second, bankroll, rounds))
        data = risk_dict(ruleset, strategy.value, ev, summary)
        data["split_strategy"] = split_strategy.strip().lower()
        if plot is not None and outcomes is not None:
            from strategy_calc.blackjack.risk import path_quantiles

            risk_plot(data, path_quantiles(outcomes, rounds), str(plot))
        return data

    respond(compute, json_or_text(as_json, lambda data: data, risk_text))


class SweepMode(StrEnum):
    """How ``sweep`` combines the varied fields."""

    effects = "effects"
    grid = "grid"


class SweepFormat(StrEnum):
    """Output formats of ``sweep``."""

    text = "text"
    json = "json"
    csv = "csv"
    markdown = "markdown"


@commands.command(
    short_help="What each rule is worth (rule variants)",
    epilog=examples(
    'strategy-calc sweep --preset macau-rules',
    'strategy-calc sweep --rules deluxe --vary decks=1,2,6,8 --format csv'))
def sweep(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    vary: Annotated[list[str] | None, typer.Option(
        "--vary", metavar="FIELD=V1,V2,...", help="A field and the values to try (repeatable)."
    )] = None,
    preset: Annotated[str | None, typer.Option(
        "--preset", help="A built-in sweep instead of --vary: macau-rules.")] = None,
    mode: Annotated[SweepMode, typer.Option(
        "--mode", case_sensitive=False,
        help="effects: the base, then each single change; grid: every combination."
    )] = SweepMode.effects,
    strategy: Annotated[RiskStrategy, typer.Option(
        "--strategy", case_sensitive=False, help="basic: the chart; optimal: best play per hand.")
    ] = RiskStrategy.basic,
    format_: Annotated[SweepFormat | None, typer.Option(
            "--format", case_sensitive=False,
            help="Output format: text (the default), csv, markdown or json.")
                       ] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", help="Local worker processes (default: the CPU count).")] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="ADDRESS", help="Run on a Dask cluster, e.g. tcp://host:8786 "
        "(pip install 'strategy_calc[cluster]').")] = None,
    cache: Annotated[Path | None, typer.Option(
        "--cache", help="Keep each variant's result here; a rerun resumes.")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Run a grid of more than 10,000.")
                   ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Same as --format json.")] = False,
) -> None:
    """The exact EV of rule variants of a ruleset: what each rule is worth."""
    from strategy_calc import parallel
    from strategy_calc.blackjack import sweep as sweeps
    from strategy_calc.render.game import sweep_csv, sweep_dict, sweep_markdown, sweep_text
    def compute() -> sweeps.SweepResult:
        if preset is not None and vary:
            raise InputError("give --preset or --vary, not both")
        if preset is None and not vary:
            raise InputError("give what to vary: --vary FIELD=V1,V2,... or --preset NAME")
        if preset is not None:
            spec, variants = sweeps.preset_plan(preset)
            base_rules, base_sets = spec.rules, [*spec.base, *(set_ or [])]
            sweep_mode = sweeps.SweepMode.EFFECTS
        else:
            sweep_mode = sweeps.SweepMode(mode.value)
            variants = sweeps.plan(sweeps.parse_vary(vary or []), sweep_mode, yes)
            base_rules = rules if rules is not None else "macau-1983"
            base_sets = list(set_ or [])
        with progress_bar(f"{len(variants)} variants") as tick, \
                parallel.executor(jobs, scheduler) as pool:
            result = sweeps.sweep(base_rules, base_sets, variants, sweep_mode,
                                  Strategy(strategy.value), pool, cache, tick, preset)
        return result

    as_text = {SweepFormat.csv: sweep_csv, SweepFormat.markdown: sweep_markdown}
    json_out = wants_json(as_json, format_)
    as_words = as_text.get(format_ or SweepFormat.text, sweep_text)  # text, or unused
    respond(compute, json_or_text(json_out, sweep_dict,
                                  lambda result: as_words(result).rstrip("\n")))
