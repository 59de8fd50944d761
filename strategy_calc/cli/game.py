"""The whole game: ``chart``, ``edge`` and ``bonus`` (one analysis of a ruleset serves the
chart and the edge: :func:`game_of`)."""

from __future__ import annotations

import sys
from collections import OrderedDict
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.actions import Strategy
from strategy_calc.blackjack.split.strategies import SplitStrategy
from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import (
    boxes_off_the_top,
    dump_json,
    emit_bytes,
    fail,
    file_format,
    guarded,
    guarded_memory,
    progress_bar,
    respond,
    warn_slow_split,
)

if TYPE_CHECKING:
    from strategy_calc.blackjack.game_analysis import GameAnalysis, OptimalEdge
    from strategy_calc.blackjack.optimal_game import OptimalGame

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

ChartFormat = StrEnum("ChartFormat", "text markdown csv json html pdf")
"""``chart --format``."""
ChartFormatOpt = Annotated[ChartFormat | None, opt.format_option(
    "text (the default), markdown, csv, json, html or pdf")]


GAMES_KEPT = 8
"""Whole-game analyses a process keeps (:func:`game_of`): one for a command line; in
``serve``'s warm workers, the chart and the edge of a ruleset share one."""


_games: OrderedDict[tuple[Any, ...], Any] = OrderedDict()


def game_of(game: opt.ShoeRuleset, split_strategy: SplitStrategy, yes: bool = False
            ) -> GameAnalysis:
    """Load a blackjack ruleset and analyse the whole game (progress bar after ~1 s),
    or take the analysis this process made of the same ruleset, shoe and split strategy
    (the last :data:`GAMES_KEPT`; an analysis is an immutable value)."""
    from strategy_calc.blackjack.game_analysis import analyse_game

    ruleset, cards, key = _game_key(game, split_strategy, yes)
    if key in _games:
        _games.move_to_end(key)
        kept: GameAnalysis = _games[key]
        return kept
    with progress_bar("analysing every hand") as tick:
        analysis = guarded(lambda: analyse_game(ruleset, tick, shoe=cards,
                                                split_strategy=split_strategy))
    _games[key] = analysis
    while len(_games) > GAMES_KEPT:
        _games.popitem(last=False)
    return analysis


def _game_key(game: opt.ShoeRuleset, split_strategy: SplitStrategy, yes: bool = False
              ) -> tuple[Any, Any, tuple[Any, ...]]:
    """The ruleset and shoe of a whole-game command (a warning first where its split
    strategy is slow), and the key its analysis is kept under in :data:`_games`."""
    ruleset, cards = guarded(game.with_shoe)
    from strategy_calc.blackjack.cost import game_cost

    warn_slow_split(ruleset, split_strategy, "every pair", game_cost(ruleset, split_strategy),
                    yes)
    return ruleset, cards, (ruleset, cards, split_strategy.strip().lower())


def optimal_edge_of(game: opt.ShoeRuleset, split_strategy: SplitStrategy, yes: bool = False
                    ) -> OptimalEdge:
    """The optimal-play EV of a ruleset
    (:func:`strategy_calc.blackjack.game_analysis.optimal_edge`), or the one in this
    process's analysis of the same ruleset, shoe and split strategy (the same numbers)."""
    from strategy_calc.blackjack.game_analysis import OptimalEdge, optimal_edge

    ruleset, cards, key = _game_key(game, split_strategy, yes)
    kept = _games.get(key)
    if kept is not None:
        return OptimalEdge(kept.rules, kept.ev_optimal,
                           {up: v[1] for up, v in kept.ev_by_up.items()}, kept.split_strategy)
    with progress_bar("analysing every hand") as tick:
        return guarded(lambda: optimal_edge(ruleset, tick, shoe=cards,
                                            split_strategy=split_strategy))


def optimal_game_of(game: opt.ShoeRuleset, split_strategy: SplitStrategy, yes: bool,
                    workers: opt.Workers, cache: Path | None, memory_limit: float | None,
                    ) -> OptimalGame:
    """The whole game under the fully optimal split, each (pair, up card) a task on
    ``workers``' executor (:func:`strategy_calc.blackjack.optimal_game.optimal_game`): the
    cost warning or question first, a line on stderr per case, ``cache`` resumed."""
    from strategy_calc.blackjack import optimal_game as cases
    from strategy_calc.blackjack.cost import game_cost

    ruleset, cards = guarded(game.with_shoe)
    guarded(lambda: cases.check_game(ruleset))
    if cache is not None:
        guarded(lambda: cases.check_cache(cache, make=False))
    warn_slow_split(ruleset, split_strategy, "every pair (one core's work, shared among the"
                    " workers)", game_cost(ruleset, split_strategy), yes)
    limit = None if memory_limit is None else int(memory_limit * 2**20)

    def said(case: cases.Case, result: cases.CaseResult, done: int, total: int) -> None:
        how = "cached" if result.cached else f"{result.seconds:.1f} s"
        print(f"case {done}/{total}: {case.label}, {how}, peak"
              f" {result.peak_rss_bytes / 2**20:.0f} MiB", file=sys.stderr, flush=True)

    def run() -> OptimalGame:
        with workers.executor() as pool, progress_bar("fully optimal splits") as tick:
            return cases.optimal_game(ruleset, pool, cards, cache, tick, said, limit)

    return guarded(run)


@command(commands, "chart", "strategy-calc chart --rules deluxe --decks 6",
         "strategy-calc chart --rules macau-1983 --format pdf --out macau.pdf")
def chart_command(
    *,
    game: opt.ShoeRuleset,
    split_strategy: opt.SplitStrategyOpt = SplitStrategy.CDP1,
    memory_limit: opt.MemoryLimitOpt = None,
    yes: opt.YesOpt = False,
    format_: ChartFormatOpt = None,
    as_json: opt.JsonAliasOpt = False,
    out: opt.OutOpt = None,
    paper: opt.PaperOpt = opt.Paper.a4,
) -> None:
    """The basic-strategy chart of a ruleset, its exceptions and the house edge.

    --format pdf: a one-page wall chart typeset by weasyprint (pip install
    'strategy_calc[pdf]').
    """
    from strategy_calc.render import chart as charts

    chosen = file_format(as_json, format_, ChartFormat, out)
    with guarded_memory(memory_limit):
        analysis = game_of(game, split_strategy, yes)
    if chosen is ChartFormat.pdf:
        emit_bytes(guarded(lambda: charts.chart_pdf(analysis, paper.value)), out)
        return
    if chosen is ChartFormat.text and out is None:
        from rich.console import Console

        Console(highlight=False).print(*charts.chart_renderables(analysis), sep="\n")
        return
    render: dict[ChartFormat, Callable[[GameAnalysis], str]] = {
        ChartFormat.text: lambda g: charts.chart_text(g) + "\n",
        ChartFormat.json: lambda g: dump_json(charts.chart_dict(g)) + "\n",
        ChartFormat.markdown: charts.chart_markdown, ChartFormat.csv: charts.chart_csv,
        ChartFormat.html: charts.chart_html}
    text = render[chosen](analysis)
    if out is not None:
        guarded(lambda: out.write_text(text, encoding="utf-8"))
    else:
        sys.stdout.write(text)


@command(commands, "edge", "strategy-calc edge --rules deluxe",
         "strategy-calc edge --rules macau-1983 --strategy optimal --json")
def edge_command(
    *,
    game: opt.ShoeRuleset,
    split_strategy: opt.SplitStrategyOpt = SplitStrategy.CDP1,
    strategy: Annotated[Strategy, typer.Option(
        "--strategy", case_sensitive=False, help="basic: the chart; optimal: best play per"
        " hand; autoplay: hit to 12+, then stand (Deluxe disconnection).")
    ] = Strategy.BASIC,
    boxes: opt.BoxesOpt = None,
    memory_limit: opt.MemoryLimitOpt = None,
    yes: opt.YesOpt = False,
    workers: opt.Workers,
    cache: Annotated[Path | None, typer.Option(
        "--cache", metavar="DIR", help="With --split-strategy optimal: keep each (pair, up"
        " card) case's result here; a rerun resumes.")] = None,
    output: opt.Output,
) -> None:
    """The exact house edge / return to player of a ruleset from a full shoe.

    With --strategy optimal --split-strategy optimal, --jobs, --scheduler or --cache run
    each pair against each up card as its own task (locally or on a Dask cluster) and
    report each case's time and peak memory.
    """
    as_json = output.json
    from strategy_calc.blackjack.game_analysis import strategy_ev
    from strategy_calc.render.game import (
        boxes_dict,
        boxes_text,
        cases_dict,
        cases_text,
        edge_dict,
        edge_text,
    )

    as_cases = workers.jobs is not None or workers.scheduler is not None or cache is not None
    if as_cases and (strategy is not Strategy.OPTIMAL
                     or split_strategy.strip().lower() != SplitStrategy.OPTIMAL):
        raise fail("--jobs, --scheduler and --cache run the fully optimal split's cases: give"
                   " them with --strategy optimal --split-strategy optimal")

    def compute() -> tuple[Any, float, Any]:
        fig = None
        if boxes is not None:
            from strategy_calc.blackjack.boxes import check_boxes

            guarded(lambda: check_boxes(boxes))
            if strategy is Strategy.AUTOPLAY:
                raise fail("--boxes takes --strategy basic or optimal, not autoplay")
            ruleset, start = game.with_shoe()
            fig = boxes_off_the_top(ruleset, start, boxes, play=strategy.value)
        if as_cases:
            cases = optimal_game_of(game, split_strategy, yes, workers, cache, memory_limit)
            return cases, cases.edge.ev_optimal, fig
        if strategy is Strategy.OPTIMAL:  # (optimal play alone: the chart is not needed)
            optimal = optimal_edge_of(game, split_strategy, yes)
            return optimal, optimal.ev_optimal, fig
        analysis = game_of(game, split_strategy, yes)
        return analysis, strategy_ev(analysis.rules, strategy, analysis), fig

    def render(done: tuple[Any, float, Any]) -> str:
        analysis, ev, fig = done
        from strategy_calc.blackjack.optimal_game import OptimalGame

        run = analysis if isinstance(analysis, OptimalGame) else None
        if run is not None:
            analysis = run.edge
        if as_json:
            data = edge_dict(analysis, strategy.value, ev)
            if run is not None:
                data.update(cases_dict(run))
            return dump_json(data if fig is None else {**data, **boxes_dict(fig)})
        text = edge_text(analysis, strategy.value, ev)
        if run is not None:
            text += "\n" + cases_text(run)
        return text if fig is None else text + "\n" + boxes_text(fig)

    with guarded_memory(memory_limit):
        respond(compute, render)


@command(commands, "bonus", "strategy-calc bonus --rules macau-1983 --decks 8")
def bonus_command(*, game: opt.ShoeRuleset, output: opt.Output) -> None:
    """What the Macau suited 6-7-8 / 7-7-7 bonuses add to the return, and the plays they change."""
    from strategy_calc.blackjack.whatif import BonusValue, bonus_value
    from strategy_calc.render.game import bonus_dict, bonus_text

    def compute() -> BonusValue:
        ruleset, start = game.with_shoe()
        with progress_bar("with and without each bonus") as tick:
            return bonus_value(ruleset, tick, start)

    respond(compute, output.render(bonus_dict, bonus_text))
