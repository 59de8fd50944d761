"""The ``strategy-calc`` command line: parse, call one library function, render.

Every command takes ``--rules NAME|FILE``, a repeatable ``--set FIELD=VALUE``
and ``--decks N`` the same way. Bad input prints one ``error:`` line and exits 2.
"""

from __future__ import annotations

import copy
import json
import math
import os
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from strategy_calc.actions import Strategy
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from rich.progress import Progress

    from strategy_calc.cards import Shoe
    from strategy_calc.counting.counter import BlackjackCounter, Spread, Wong
    from strategy_calc.counting.ramps import RampLimits
    from strategy_calc.counting.runs import Comparison
    from strategy_calc.rules import BlackjackRules

app = typer.Typer(
    name="strategy-calc",
    help="Exact optimal strategy and odds for Macau / Deluxe blackjack and Macau baccarat.",
    no_args_is_help=True,
    rich_markup_mode=None,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _show_version(value: bool) -> None:
    if value:
        from strategy_calc import __version__

        print(f"strategy-calc {__version__}")
        raise typer.Exit()


@app.callback()
def _main_options(
    version: Annotated[bool, typer.Option(
        "--version", help="Print the version and exit.", callback=_show_version,
        is_eager=True)] = False,
) -> None:
    """Exact optimal strategy and odds for Macau / Deluxe blackjack and Macau baccarat."""

RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", metavar="NAME|FILE", help="Blackjack ruleset: macau-1983 (the"
                 " default) or deluxe, or a TOML ruleset file (see docs/RULES.md)."),
]
BaccaratRulesOpt = Annotated[
    str | None,
    typer.Option("--rules", metavar="NAME|FILE", help="Baccarat ruleset: macau-baccarat (the"
                 " default) or a TOML ruleset file."),
]
AnyRulesOpt = Annotated[
    str | None,
    typer.Option("--rules", metavar="NAME|FILE", help="macau-1983 (the default) or deluxe for"
                 " blackjack, macau-baccarat for baccarat shoes, or a TOML ruleset file."),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="FIELD=VALUE", help="Override one rules field (repeatable;"
                 " strategy-calc rules NAME lists the fields and their values)."),
]
DecksOpt = Annotated[
    int | None, typer.Option("--decks", help="Number of decks (short for --set decks=N).")
]
PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE.png", help="Also draw the result as a PNG (pip install"
    " 'strategy_calc[plot]').")]
ShoeOpt = Annotated[
    str | None,
    typer.Option("--shoe", metavar="A=N,2=N,...,T=N", help="The shoe per rank, every rank"
                 " once (tens include J, Q, K), instead of --decks full decks."),
]
RemovedOpt = Annotated[
    list[str] | None,
    typer.Option("--removed", help="Cards known to be out of the shoe, e.g. 5,5,T or 8c "
                 "(repeatable: the lists are combined)."),
]


def removed_cards(removed: list[str] | None) -> str:
    """Every ``--removed`` list given, as one list.

    >>> removed_cards(["5,5", "T 8c"]), removed_cards(None)
    ('5,5,T 8c', '')
    """
    return ",".join(part for part in removed or [] if part.strip())
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
BoxesOpt = Annotated[int | None, typer.Option(
    "--boxes", metavar="N", help="Also give the EV and variance per box of playing N boxes"
    " (1-7) of one round off the top, the covariance between two boxes and the variance"
    " and SD of the round (each box its own optimal play).")]


class OutputFormat(StrEnum):
    """Output formats of the commands that print text or one JSON object."""

    text = "text"
    json = "json"


FormatOpt = Annotated[OutputFormat | None, typer.Option(
    "--format", case_sensitive=False, help="Output format: text (the default) or json"
    " (--json is short for --format json).")]


def examples(*lines: str) -> str:
    """A help epilog of example command lines (kept as written: click's ``\\b``)."""
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)

T = TypeVar("T")
R = TypeVar("R")


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; the caller raises the returned exit (code 2)."""
    print(f"error: {one_line(message)}", file=sys.stderr)
    return typer.Exit(2)


def load_rules(
    rules: str | None, set_: list[str] | None, decks: int | None, default: str = ""
) -> BlackjackRules:
    """The blackjack ruleset named by ``--rules`` (or ``default``), ``--set`` and ``--decks``."""
    from strategy_calc.rules import DEFAULT_BLACKJACK, blackjack_rules, inert_overrides

    spec = rules if rules is not None else (default or DEFAULT_BLACKJACK)
    ruleset = blackjack_rules(spec, set_ or [], decks)
    for warning in inert_overrides(ruleset, set_ or []):
        print(f"warning: {warning}", file=sys.stderr)
    return ruleset


def dump_json(data: object) -> str:
    """``data`` as JSON, refusing NaN and infinities: JSON has neither, and a figure that
    came out so is a bug, reported as one error line (exit 2) rather than written.

    >>> dump_json({"ev": -0.5, "n0": None})
    '{"ev": -0.5, "n0": null}'
    """
    try:
        return json.dumps(data, allow_nan=False)
    except ValueError:
        raise fail("a figure came out NaN or infinite, so no JSON was written (a bug:"
                   " please report the command)") from None


def guarded(call: Callable[[], T]) -> T:
    """Run ``call``, turning an input error (:class:`~strategy_calc.errors.InputError`)
    or a file that cannot be written (an ``OSError``) into one error line.

    Any other ``ValueError`` is a broken invariant inside the library or the engine: it
    keeps its traceback, after a line asking to report it.
    """
    try:
        return call()
    except (InputError, OSError) as exc:
        raise fail(str(exc)) from None
    except ValueError:
        typer.echo("strategy-calc hit an internal error (a bug, not your input): please"
                   " report the command and the traceback below.", err=True)
        raise


def respond(compute: Callable[[], R], render: Callable[[R], str]) -> None:
    """The one skeleton of a command: ``compute`` parses the rules and shoe and calls one
    library function (drawing a progress bar if it is long); ``render`` (built from
    :mod:`~strategy_calc.render`'s functions) turns the finished result into the text
    printed. An input error in either is one ``error:`` line and exit 2; any other
    ``ValueError`` is a bug and keeps its traceback (:func:`guarded`).
    """
    print(guarded(lambda: render(compute())))


def json_or_text(
    as_json: bool, to_dict: Callable[[R], object], to_text: Callable[[R], str]
) -> Callable[[R], str]:
    """A command's ``render``: one JSON object (``to_dict``; NaN refused, :func:`dump_json`)
    or the text for people (``to_text``).

    >>> json_or_text(True, lambda r: {"ev": r}, str)(-0.5)
    '{"ev": -0.5}'
    """
    return lambda result: dump_json(to_dict(result)) if as_json else to_text(result)


def wants_json(as_json: bool, format_: StrEnum | None) -> bool:
    """Whether a command prints JSON: ``--json`` or ``--format json``. Both flags given
    and disagreeing (``--json --format text``) is an error, not a silent choice."""
    if as_json and format_ is not None and format_.value != "json":
        raise fail(f"--json and --format {format_.value} disagree: give one of them")
    return as_json or (format_ is not None and format_.value == "json")


LONG_RUN_SECONDS = 600.0
"""Runs estimated longer than this ask first (``--yes`` to skip the question)."""


def confirm_long_run(seconds: float, what: str, yes: bool) -> None:
    """Before a run estimated at more than ten minutes: ask on a terminal, refuse with one
    error line elsewhere, unless ``--yes``."""
    if yes or seconds <= LONG_RUN_SECONDS:
        return
    span = (f"{seconds / 86400:,.0f} days" if seconds >= 2 * 86400
            else f"{seconds / 3600:.1f} hours" if seconds >= 3600
            else f"{seconds / 60:.0f} minutes")
    if sys.stdin.isatty() and sys.stderr.isatty():
        answer = input(f"{what} will take about {span} here. Run it? [y/N] ")
        if answer.strip().lower() in ("y", "yes"):
            return
        raise fail("not run")
    raise fail(f"{what} would take about {span} here: pass --yes to run it")


def refuse_binary_on_terminal(out: Path | None) -> None:
    """Refuse to print a PDF on a terminal (``--out`` not given, stdout a terminal)."""
    if out is None and sys.stdout.isatty():
        raise fail("a PDF is binary: not written to a terminal; give --out FILE.pdf or"
                   " redirect stdout to a file or a pipe")


def emit_bytes(data: bytes, out: Path | None) -> None:
    """Write a command's finished output to ``--out`` (one error line if it cannot be
    written) or to stdout."""
    if out is not None:
        guarded(lambda: out.write_bytes(data))
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


def check_output(path: Path | None, flag: str) -> None:
    """Refuse, before any work, an output file that cannot be written there."""
    if path is not None and (path.is_dir() or not path.parent.is_dir()):
        raise fail(f"{flag} {path}: not a file in an existing folder")


@app.command(
    short_help="Every action's exact EV for one hand",
    epilog=examples(
    'strategy-calc hand T,6 --vs T',
    'strategy-calc hand 8,8 --vs A --rules deluxe --json',
    'strategy-calc hand 6s,7s --vs 2 --rules macau-1983 --removed 8s'))
def hand(
    cards: Annotated[str, typer.Argument(help="The player's cards, e.g. T,6 or A,7 or 6s,7s.")],
    vs: Annotated[str, typer.Option("--vs", help="The dealer's up card, e.g. T or A.")],
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    removed: RemovedOpt = None,
    postsplit: Annotated[bool, typer.Option(
        "--postsplit", help="Also value a split where the second hand uses the first "
        "hand's cards (slower).")] = False,
    split_strategy: SplitStrategyOpt = "cdp1",
    exact: Annotated[bool, typer.Option(
        "--exact", help="Also give the dealer's outcomes, standing and insurance as exact "
        "fractions.")] = False,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
    boxes: BoxesOpt = None,
) -> None:
    """Every action's exact EV for one blackjack hand against an up card."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack import hand_analysis as blackjack
    from strategy_calc.render.game import boxes_dict, boxes_text
    from strategy_calc.render.hand import hand_json, hand_text

    def compute() -> tuple[blackjack.HandAnalysis, dict[str, Any] | None, Any]:
        ruleset, start = with_shoe(rules, set_, decks, shoe)
        if boxes is not None:
            from strategy_calc.blackjack.boxes import check_boxes

            check_boxes(boxes)
        warn_slow_split(ruleset, split_strategy, "this pair")
        with progress_bar("the optimal split") as tick:
            result = blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed),
                                            postsplit=postsplit, outcomes=True, shoe=start,
                                            split_strategy=split_strategy, progress=tick)
        fig = None
        if boxes is not None:
            fig = _box_figures(ruleset, start, boxes, removed_cards(removed))
        if not exact:
            return result, None, fig
        from strategy_calc.blackjack.exact import hand_exact

        return result, hand_exact(result), fig

    def render(done: tuple[blackjack.HandAnalysis, dict[str, Any] | None, Any]) -> str:
        result, fractions, fig = done
        if as_json:
            text = hand_json(result, fractions)
            if fig is None:
                return text
            return dump_json({**json.loads(text), **boxes_dict(fig)})
        text = hand_text(result, fractions)
        return text if fig is None else text + "\n" + boxes_text(fig)

    respond(compute, render)


def _box_figures(ruleset: BlackjackRules, start: Shoe | None, boxes: int,
                 removed: str = "", play: str = "optimal") -> Any:
    """``--boxes N``: :func:`strategy_calc.blackjack.boxes.box_figures` off the top of the shoe
    (``start``, else a full one) less the ``--removed`` cards, the boxes playing
    ``play``."""
    from strategy_calc.blackjack.boxes import box_figures
    from strategy_calc.cards import Shoe, parse_cards

    base = start if start is not None else Shoe.full(ruleset.decks)
    if removed:
        base = base.remove(parse_cards(removed))
    with progress_bar(f"{boxes} boxes") as tick:
        return box_figures(ruleset, base, boxes, tick, play)


@app.command(
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


class ChartFormat(StrEnum):
    """Output formats of ``chart``."""

    text = "text"
    markdown = "markdown"
    csv = "csv"
    json = "json"
    html = "html"
    pdf = "pdf"


class Paper(StrEnum):
    """Paper sizes of ``chart --format pdf``."""

    a4 = "a4"
    letter = "letter"


def with_shoe(
    rules: str | None, set_: list[str] | None, decks: int | None, shoe: str | None,
    default: str = "",
) -> tuple[BlackjackRules, Shoe | None]:
    """The ruleset and, with ``--shoe``, that shoe (the rules' decks: enough to hold it)."""
    from dataclasses import replace

    from strategy_calc.cards import parse_shoe

    if shoe is not None and decks is not None:
        raise InputError("give --shoe or --decks, not both")
    ruleset = load_rules(rules, set_, decks, default)
    if shoe is None:
        return ruleset, None
    cards = parse_shoe(shoe)
    return replace(ruleset, decks=cards.decks), cards


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


def warn_slow_split(ruleset: BlackjackRules, split_strategy: str, what: str) -> None:
    """Say so before an optimal split with resplits on more than one deck (the fully
    optimal solver's states grow with the shoe and the hands: minutes for a high pair,
    much longer for a low one, hours for every pair)."""
    if (split_strategy.strip().lower() == "optimal" and ruleset.max_split_hands > 2
            and ruleset.decks > 1):
        how_long = "hours" if what == "every pair" else "a long time"
        print(f"warning: the fully optimal split with resplits ({ruleset.max_split_hands}"
              f" hands) at {ruleset.decks} decks can take {how_long} for {what} (to 4"
              " hands at six decks: 8,8 vs T about 1.5 minutes and 1.7 GB, 6,6 vs T 6"
              " minutes and 3.3 GB, 2,2 vs T over 20 minutes and 4 GB)", file=sys.stderr)


SplitStrategyOpt = Annotated[str, typer.Option(
    "--split-strategy", help="How split hands play under optimal play: cdp1 (each hand"
    " optimal for its own cards), cdz (the pre-split decisions), cdp (the field's CDP,"
    " Farmer's: re-optimised for the pair cards removed in each term of the resplit sum),"
    " cdp-hands (second cards dealt first, then play by the number of resplits), postsplit"
    " (the second hand sees the first's cards; slower), optimal (every decision sees every"
    " card dealt and maximises the round; slowest, resplits included).")]


ProgressSink = Callable[[str, int, int], None]
"""``sink(label, done, total)``: where a command's progress also goes (see
:func:`run_captured`)."""

_progress_sink: ContextVar[ProgressSink | None] = ContextVar("progress_sink", default=None)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A ``tick(done, total)`` callback drawing a progress bar on stderr once ~1 s has passed.

    Only on a terminal: piped or captured stderr stays clean for other tools. Every tick
    also goes to the progress sink of :func:`run_captured`, if it was given one.
    """
    start = time.perf_counter()
    bar: Progress | None = None
    task = None
    sink = _progress_sink.get()

    def tick(done: int, total: int) -> None:
        nonlocal bar, task
        if sink is not None:
            sink(label, done, total)
        if bar is None and sys.stderr.isatty() and time.perf_counter() - start > 1.0:
            from rich.console import Console
            from rich.progress import Progress

            bar = Progress(console=Console(stderr=True), transient=True)
            bar.start()
            task = bar.add_task(label, total=total)
        if bar is not None and task is not None:
            bar.update(task, completed=done, total=total)

    try:
        yield tick
    finally:
        if bar is not None:
            bar.stop()


@app.command(
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


@app.command(
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


@app.command(
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


@app.command(
    short_help="Bet behind: the follower's choices",
    epilog=examples('strategy-calc behind T,T --vs 6 --rules deluxe'))
def behind(
    cards: Annotated[str, typer.Argument(help="The seat's cards, e.g. 5,6 or 8,8.")],
    vs: Annotated[str, typer.Option("--vs", help="The dealer's up card.")],
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    removed: RemovedOpt = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Bet behind: the follower's EV of each choice when the seat doubles or splits."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack import hand_analysis as blackjack
    from strategy_calc.render.hand import behind_dict, behind_text

    def compute() -> blackjack.HandAnalysis:
        ruleset, start = with_shoe(rules, set_, decks, shoe)
        return blackjack.analyse_hand(cards, vs, ruleset, removed_cards(removed), shoe=start)

    respond(compute, json_or_text(as_json, behind_dict,
                                  lambda result: behind_text(
                                      result, behind_dict(result))))


@app.command(
    short_help="Regenerate the charts in tables/",
    epilog=examples('strategy-calc tables', 'strategy-calc tables --check'))
def tables(
    out: Annotated[Path, typer.Option("--out", help="Directory to write.")] = Path("tables"),
    check: Annotated[
        bool, typer.Option("--check", help="Only compare with the files there; exit 1 if stale.")
    ] = False,
) -> None:
    """Regenerate the charts of every built-in blackjack ruleset (markdown, HTML, PDF)."""
    from strategy_calc.jobs.tables import generate, generate_pdfs, pdf_names

    if check and not out.is_dir():
        raise fail(f"no {out} folder to check: run from the repository root or pass --out DIR")
    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file, not a folder")
    if not check and not out.exists() and not out.parent.is_dir():
        raise fail(f"--out {out}: its parent folder {out.parent} does not exist")
    with progress_bar("generating tables") as tick:
        files = generate(tick)
    stale = [name for name, text in files.items()
             if not (out / name).is_file() or (out / name).read_text(encoding="utf-8") != text]
    stale += [name for name in pdf_names() if check and not (out / name).is_file()]
    if check:
        if stale:
            print(f"error: stale tables (run strategy-calc tables): {', '.join(stale)}",
                  file=sys.stderr)
            raise typer.Exit(1)
        print(f"{len(files)} table files up to date in {out}")
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    try:
        with progress_bar("typesetting PDFs") as tick:
            pdfs = generate_pdfs(tick)
    except ValueError as exc:  # no weasyprint: the text tables are still written
        print(f"warning: PDFs not written: {exc}", file=sys.stderr)
        pdfs = {}
    for name, data in pdfs.items():
        (out / name).write_bytes(data)
    print(f"wrote {len(files) + len(pdfs)} files to {out} ({len(stale)} text files changed)")


class RiskStrategy(StrEnum):
    """Strategies whose round distribution ``risk`` computes."""

    optimal = "optimal"
    basic = "basic"


@app.command(
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


@app.command(
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


@app.command(
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


sidebet_app = typer.Typer(
    help="Side bets: 'pair' gives the exact odds and EV of the Deluxe pair side bet (the"
    " first two cards a pair; mixed, coloured and perfect pairs) for any shoe.",
    no_args_is_help=True, rich_markup_mode=None)
app.add_typer(sidebet_app, name="sidebet", short_help="Side bets: the Deluxe pair bet's exact EV")


@sidebet_app.command("pair", epilog=examples(
    "strategy-calc sidebet pair --rules deluxe",
    "strategy-calc sidebet pair --rules deluxe --removed 8,8 --json"))
def sidebet_pair(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    removed: RemovedOpt = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact EV of the pair side bet on the first two cards, for any shoe."""
    as_json = wants_json(as_json, format_)
    from strategy_calc.blackjack.pair_bet import PairOdds, analyse_pair
    from strategy_calc.render.hand import pair_dict, pair_text

    def compute() -> PairOdds:
        return analyse_pair(load_rules(rules, set_, decks), removed_cards(removed))

    respond(compute, json_or_text(as_json, pair_dict, pair_text))


@app.command(
    short_help="Time the standard workloads",
    epilog=examples(
    'strategy-calc bench --only game-8d --repeat 9',
    'strategy-calc bench --json'))
def bench(
    repeat: Annotated[int, typer.Option("--repeat", help="Timed runs per workload.")] = 7,
    only: Annotated[list[str] | None, typer.Option(
        "--only", metavar="NAME", help="Time only this workload (repeatable), e.g. game-8d.")
    ] = None,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Time the standard workloads: median, min and max wall time of several runs.

    Workload names are stable (game-8d, game-1d, all-hands-8d, splits-8d,
    process-edge, ...); `--json` prints {"workloads": {NAME: {"median_ms": ...,
    "min_ms": ..., "max_ms": ..., "peak_mib": ...}}}. Each workload runs in a process of
    its own; resplit-optimal-6d runs only when named with --only.
    """
    as_json = wants_json(as_json, format_)
    from strategy_calc.jobs import bench as bench_module

    total = len(set(only)) if only else len(bench_module.names(default=True))
    if sys.stderr.isatty() and repeat >= 1:
        expected = bench_module.expected_seconds(repeat, only or ())
        print(f"timing {total} workloads, {repeat} runs each: about"
              f" {max(1, round(expected / 60))} minutes here", file=sys.stderr)
    done = 0
    with progress_bar("timing the workloads") as tick:
        def note(_name: str) -> None:
            nonlocal done
            tick(done, total)
            done += 1

        timings = guarded(lambda: bench_module.run(repeat, only or (), note))
    if as_json:
        print(dump_json(bench_module.as_json(timings)))
    else:
        print(bench_module.as_text(timings))


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


@app.command(
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
            base_rules, base_sets, sweep_mode = spec.rules, [*spec.base, *(set_ or [])], "effects"
        else:
            variants = sweeps.plan(sweeps.parse_vary(vary or []), mode.value, yes)
            base_rules = rules if rules is not None else "macau-1983"
            base_sets, sweep_mode = list(set_ or []), mode.value
        with progress_bar(f"{len(variants)} variants") as tick, \
                parallel.executor(jobs, scheduler) as pool:
            result = sweeps.sweep(base_rules, base_sets, variants, sweep_mode,  # type: ignore[arg-type]
                                  Strategy(strategy.value), pool, cache, tick, preset)
        return result

    as_text = {SweepFormat.csv: sweep_csv, SweepFormat.markdown: sweep_markdown}
    json_out = wants_json(as_json, format_)
    as_words = as_text.get(format_ or SweepFormat.text, sweep_text)  # text, or unused
    respond(compute, json_or_text(json_out, sweep_dict,
                                  lambda result: as_words(result).rstrip("\n")))


@app.command(
    short_help="An interactive prompt for many hands",
    epilog=examples('strategy-calc shell --rules deluxe --decks 6'))
def shell(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
) -> None:
    """An interactive prompt: load the rules once, then answer hands in milliseconds.

    Type a hand against an up card (T,6 vs T), one action (8,8 vs A split), or a
    command: :rules, :set decks=6, :chart, :edge, :help, :quit.
    """
    from strategy_calc import shell as prompt
    from strategy_calc.rules import DEFAULT_BLACKJACK

    session = guarded(lambda: prompt.Session(rules if rules is not None else DEFAULT_BLACKJACK,
                                             list(set_ or []), decks, shoe))
    raise typer.Exit(prompt.run(session))


class DrillKind(StrEnum):
    """The drills of ``drill``."""

    PLAY = "play"
    COUNT = "count"
    TRUE_COUNT = "true-count"


class DrillAgainst(StrEnum):
    """What ``drill`` checks the answers against."""

    chart = "chart"
    optimal = "optimal"


class DrillFocus(StrEnum):
    """The deals ``drill --focus`` keeps to."""

    hard = "hard"
    soft = "soft"
    pairs = "pairs"
    surrender = "surrender"
    exceptions = "exceptions"


@app.command(
    short_help="Study drill: the chart quizzed, each mistake's exact cost",
    epilog=examples(
    'strategy-calc drill --rules deluxe --decks 6',
    'strategy-calc drill --focus pairs --against optimal --count 20',
    'strategy-calc drill --answers "h,s,d,h" --seed 7 --json --no-history',
    'strategy-calc drill count --system hilo --cards 12 --pace 0.8',
    'strategy-calc drill true-count --count 5',
    'strategy-calc drill --stats'))
def drill(
    kind: Annotated[DrillKind, typer.Argument(
        case_sensitive=False, metavar="[play|count|true-count]",
        help="play (the default): starting hands against up cards; count: a dealt"
        " sequence's running count; true-count: a running count and a discard tray's true"
        " count.")] = DrillKind.PLAY,
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    against: Annotated[DrillAgainst, typer.Option(
        "--against", case_sensitive=False, help="chart (the default): the basic-strategy"
        " chart's cell is the answer; optimal: the best play of the cards dealt.")
    ] = DrillAgainst.chart,
    focus: Annotated[DrillFocus | None, typer.Option(
        "--focus", case_sensitive=False, help="Deal only hard totals, soft totals, pairs,"
        " surrender hands, or the exceptions (hands whose best play is not the chart's).")
    ] = None,
    count: Annotated[int | None, typer.Option(
        "--count", metavar="N", help="Questions to ask (default: play until q on a"
        " terminal, one per answer given otherwise; count drills 10).")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the deals (the same seed deals the same questions; default"
        " a fresh one, shown in the report).")] = None,
    answers: Annotated[str | None, typer.Option(
        "--answers", metavar="A,A,...", help="Answer non-interactively, e.g. h,s,d,p,r"
        " (i/n insurance, e/n even money; numbers for count drills). Without it, answers"
        " are read from stdin when it is not a terminal.")] = None,
    history: Annotated[Path | None, typer.Option(
        "--history", metavar="FILE", help="The history file (default"
        " $XDG_DATA_HOME/strategy_calc/drill-history.json).")] = None,
    no_history: Annotated[bool, typer.Option(
        "--no-history", help="Neither read nor write a history.")] = False,
    stats: Annotated[bool, typer.Option(
        "--stats", help="Show the progress kept in the history and exit.")] = False,
    system: Annotated[str, typer.Option(
        "--system", metavar="NAME|FILE", help="Count drills: the count system (strategy-calc"
        " counts lists them).")] = "hilo",
    cards: Annotated[int, typer.Option(
        "--cards", help="Count drill: cards dealt per question.")] = 10,
    pace: Annotated[float, typer.Option(
        "--pace", metavar="SECONDS", help="Count drill on a terminal: seconds each card is"
        " shown (0: all at once).")] = 1.0,
    format_: FormatOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A study drill: deal hands at their real frequencies, ask the play, and say at once
    what a wrong answer costs, exactly (EV per bet, and per 100 rounds).

    On a terminal it asks until q (or Ctrl-C / Ctrl-D), then prints the session report;
    with --answers (or answers on stdin) it is scriptable. Missed cells come back sooner
    next time (Leitner boxes in the history file).
    """
    as_json = wants_json(as_json, format_)
    from strategy_calc.drill import history as drill_history
    from strategy_calc.drill import play as drill_play
    from strategy_calc.render.drill import drill_stats_dict, drill_stats_text

    if history is not None and no_history:
        raise fail("give --history FILE or --no-history, not both")
    path = None if no_history else history or drill_history.default_history_path()
    if stats:
        if path is None:
            raise fail("--stats reads the history: not with --no-history")
        found = guarded(lambda: drill_history.History.load(path)).stats()
        print(dump_json(drill_stats_dict(found, str(path))) if as_json
              else drill_stats_text(found, str(path)))
        return
    if count is not None and count < 1:
        raise fail(f"--count must be 1 or more, not {count}")
    if not math.isfinite(pace) or pace < 0:
        raise fail(f"--pace must be 0 or more seconds, not {pace:g}")
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(2**31)
    interactive = answers is None and sys.stdin.isatty()
    given = None if interactive else drill_play.split_answers(
        answers if answers is not None else sys.stdin.read())
    past = guarded(lambda: drill_history.History.load(path)) if path is not None else None
    if kind is DrillKind.PLAY:
        _play_drill(rules, set_, decks, against.value, focus.value if focus else None,
                    count, seed, given, path, past, as_json)
    else:
        _count_drill(kind.value, rules, set_, decks, system, cards, pace, count, seed, given,
                     path, past, as_json)


def _play_drill(rules: str | None, set_: list[str] | None, decks: int | None, against: str,
                focus: str | None, count: int | None, seed: int, given: list[str] | None,
                path: Path | None, past: Any, as_json: bool) -> None:
    """``drill`` (play): deal, ask (or read the answers given), report, remember."""
    from strategy_calc.drill import history as drill_history
    from strategy_calc.drill import play as drill_play
    from strategy_calc.render.drill import drill_answer_text, drill_dict, drill_text

    def setup() -> drill_play.PlayDrill:
        ruleset = load_rules(rules, set_, decks)
        boxes = past.boxes(str(ruleset)) if past is not None else {}
        return drill_play.PlayDrill(ruleset, against, focus, boxes, seed)

    dealer = guarded(setup)
    if given is None:
        from strategy_calc import drill_loop

        graded = drill_loop.play_loop(dealer, count, drill_loop.Terminal())
    else:
        graded = guarded(lambda: drill_play.graded_answers(dealer, given, count))
    result = drill_play.SessionReport(dealer.rules, against, focus, seed, tuple(graded))
    if as_json:
        print(dump_json(drill_dict(result)))
    else:
        if given is not None:
            for g in graded:
                print(f"{g.question.prompt}  {g.answer}\n  {drill_answer_text(g)}")
        print(drill_text(result) + f"\nseed {seed}")
    if path is not None and graded:  # (after the report: a history that cannot be written
        # is an error line after it, not a lost report)
        sys.stdout.flush()  # (the file read again: another session may have written it)
        guarded(lambda: drill_play.record_session(drill_history.History.load(path),
        result).save(path))


def _count_drill(kind: str, rules: str | None, set_: list[str] | None, decks: int | None,
                 system: str, cards: int, pace: float, count: int | None, seed: int,
                 given: list[str] | None, path: Path | None, past: Any,
                 as_json: bool) -> None:
    """``drill count`` / ``drill true-count``."""
    from strategy_calc.counting.systems import find_system
    from strategy_calc.drill import count as drill_count
    from strategy_calc.drill import history as drill_history
    from strategy_calc.render.drill import (
        count_answer_text,
        count_drill_dict,
        count_drill_text,
        count_question_text,
    )

    def setup() -> tuple[Any, list[drill_count.CountQuestion]]:
        ruleset = load_rules(rules, set_, decks)
        counting = find_system(system)
        if kind == "true-count":
            counting = counting.require_balanced("the true-count drill")
        n = count if count is not None else (len(given) if given else 10)
        return counting, drill_count.count_questions(counting, ruleset.decks, kind, n, cards, seed)

    counting, questions = guarded(setup)
    if given is None:
        from strategy_calc import drill_loop

        answered = drill_loop.count_loop(questions, pace, drill_loop.Terminal())
    else:
        if count is not None and len(given) > count:
            raise fail(f"more answers ({len(given)}) than --count {count} questions")
        answered = []
        for number, (q, text) in enumerate(zip(questions, given, strict=False), 1):
            if text.strip().lower() in ("q", "quit"):
                break
            try:
                answered.append(drill_count.CountAnswer(q, drill_count.parse_count_answer(text)))
            except InputError as exc:
                raise fail(f"answer {number}: {exc}") from None
    result = drill_count.CountReport(counting, kind, tuple(answered))
    if as_json:
        print(dump_json(count_drill_dict(result)))
    else:
        if given is not None:
            for a in answered:
                print(f"{count_question_text(a.question)}\n  {a.answer:+g} -"
                      f" {count_answer_text(a)}")
        print(count_drill_text(result) + f"\nseed {seed}")
    if path is not None and past is not None and answered:
        import time as clock

        summary = {"date": clock.strftime("%Y-%m-%dT%H:%M:%SZ", clock.gmtime()),
                   "kind": kind, "questions": len(answered), "accuracy": result.accuracy,
                   "mean_seconds": result.mean_seconds}
        sys.stdout.flush()
        guarded(lambda: drill_history.History.load(path).record(
            f"{kind} drill: {counting.name}", [], summary).save(path))

@app.command(
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


@app.command(
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


@app.command(
    short_help="A local web page: chart, hand calculator, rules",
    epilog=examples("strategy-calc serve", "strategy-calc serve --port 8080 --open"))
def serve(
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on (loopback by default; 0.0.0.0 makes the page"
        " reachable from the network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port (0: any free one).")] = 8000,
    open_: Annotated[bool, typer.Option("--open", help="Open the page in a browser.")] = False,
) -> None:
    """Serve the chart you can click, the hand calculator, the rules and their effects and
    baccarat on this machine (pip install 'strategy_calc[web]'), and /api/COMMAND: the JSON
    of hand, chart, edge, sweep, baccarat and rules, as their --json prints it."""
    import importlib.util

    from strategy_calc.web import server as web

    if importlib.util.find_spec("starlette") is None or importlib.util.find_spec(
            "uvicorn") is None:
        raise fail("serve needs the web extra: pip install 'strategy_calc[web]'")
    guarded(lambda: web.check_port(port))
    warning = web.bind_warning(host)
    if warning:
        print(warning, file=sys.stderr)
    import uvicorn

    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"strategy-calc: serving on {url} (Ctrl-C to stop)", file=sys.stderr)
    if open_:
        import threading
        import webbrowser

        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    uvicorn.run(web.create_app(run_captured), host=host, port=port, log_level="warning")


class CountStrategy(StrEnum):
    """Strategies of ``count``."""

    basic = "basic"
    basic_indices = "basic+indices"
    optimal = "optimal"


class CountFormat(StrEnum):
    """Output formats of ``count``."""

    text = "text"
    json = "json"


@app.command(
    short_help="Card counting over seeded shoes, exact EVs",
    epilog=examples(
    'strategy-calc count --rules deluxe --decks 6 --spread "1:1,2:4,3:8" --rounds 10000',
    'strategy-calc count --rules deluxe --decks 6 --spread "0:1,1:2,2:4,3:8,4:12"'
    ' --optimize-ramp --bankroll 10000 --min-bet 1 --max-bet 12 --rounds 4000',
    'strategy-calc count --rules macau-baccarat --shoes 1000 --json'))
def count(
    rules: AnyRulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    shoe: ShoeOpt = None,
    system: Annotated[str | None, typer.Option(
        "--system", metavar="NAME|FILE", help="A count system (strategy-calc counts lists"
        " them) or a TOML count file (blackjack; default hilo); an unbalanced one (ko,"
        " red7) bets and wongs by its running count from its IRC.")] = None,
    compare: Annotated[str | None, typer.Option(
        "--compare", metavar="NAME,NAME,...", help="Several systems on the same seeded shoes"
        " (paired), a SCORE table (blackjack).")] = None,
    penetration: Annotated[float | None, typer.Option(
        "--penetration", help="Share of the shoe dealt before the cut card (blackjack;"
        " default 0.75, less for 1 deck so that 20 cards stay behind).")] = None,
    cut_card: Annotated[int | None, typer.Option(
        "--cut-card", metavar="CARDS_FROM_END", help="Cards behind the cut card (instead of"
        " --penetration; baccarat default 14).")] = None,
    spread: Annotated[str | None, typer.Option(
        "--spread", metavar="TC:UNITS,...", help='Bet ramp by floored true count, e.g.'
        ' "1:1,2:2,3:4,4:8" (blackjack).')] = None,
    seats: Annotated[int | None, typer.Option(
        "--seats", metavar="N", help="Boxes at the table, 1-7 (blackjack; default 1): the"
        " player's is dealt and plays first, the others play the same way and their cards"
        " are seen.")] = None,
    boxes: Annotated[int | None, typer.Option(
        "--boxes", metavar="N", help="The player's boxes, 1-7 (blackjack; default 1): each"
        " bets the round's bet; EV and variance per round are the boxes' total's, with the"
        " exact covariance between boxes.")] = None,
    box_ramp: Annotated[str | None, typer.Option(
        "--box-ramp", metavar="TC:BOXES,...", help='Boxes by floored count, e.g. "2:2" (two'
        " boxes from true count +2; below the lowest step, --boxes).")] = None,
    strategy: Annotated[CountStrategy, typer.Option(
        "--strategy", case_sensitive=False,
        help="basic: the chart; basic+indices: plus the computed Illustrious"
        " 18 and insurance; optimal: composition-dependent (blackjack).")
    ] = CountStrategy.basic,
    rounds: Annotated[int | None, typer.Option(
        "--rounds", help="Rounds to deal at least, in whole shoes (blackjack; default"
        " 1000).")] = None,
    shoes: Annotated[int | None, typer.Option(
        "--shoes", help="Shoes to deal (baccarat; default 100).")] = None,
    bets: Annotated[str | None, typer.Option(
        "--bets", help="Baccarat bets to report, e.g. tie,player_pair (default all).")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the shuffles.")] = 1,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", help="Local worker processes (default: the CPU count).")] = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="ADDRESS", help="Run on a Dask cluster, e.g. tcp://host:8786 "
        "(pip install 'strategy_calc[cluster]').")] = None,
    bankroll: Annotated[float | None, typer.Option(
        "--bankroll", help="Bankroll in units, for the risk of ruin and --optimize-ramp"
        " (blackjack).")] = None,
    moment_every: Annotated[int | None, typer.Option(
        "--moment-every", help="Exact second moment on one round in N (blackjack; default"
        " 25; 1 = every round, slow: split rounds are enumerated jointly).")] = None,
    enter: Annotated[float | None, typer.Option(
        "--enter", metavar="TC", help="Wonging: start playing at this true count or above"
        " (with --exit; blackjack).")] = None,
    exit_: Annotated[float | None, typer.Option(
        "--exit", metavar="TC", help="Wonging: stop playing when the true count falls below"
        " this (with --enter).")] = None,
    optimize_ramp: Annotated[bool, typer.Option(
        "--optimize-ramp", help="Also the bet ramp that maximises SCORE within --min-bet and"
        " --max-bet (needs --bankroll; blackjack).")] = False,
    min_bet: Annotated[float | None, typer.Option(
        "--min-bet", help="Smallest bet in units, for --optimize-ramp.")] = None,
    max_bet: Annotated[float | None, typer.Option(
        "--max-bet", help="Largest bet in units, for --optimize-ramp.")] = None,
    kelly_fraction: Annotated[float | None, typer.Option(
        "--kelly-fraction", help="--optimize-ramp: bet this fraction of the Kelly bet for"
        " --bankroll at each count, clipped to the limits (instead of the SCORE optimum).")
    ] = None,
    max_ror: Annotated[float | None, typer.Option(
        "--max-ror", help="--optimize-ramp: the highest win rate whose risk of ruin for"
        " --bankroll is at most this (at most --kelly-fraction's bets when given).")] = None,
    rounds_per_hour: Annotated[float | None, typer.Option(
        "--rounds-per-hour", help="--optimize-ramp: for the hours to double the bankroll"
        " (default 100).")] = None,
    plot: PlotOpt = None,
    yes: Annotated[bool, typer.Option(
        "--yes", help="Run even if it is estimated at more than ten minutes.")] = False,
    side_counts: Annotated[bool, typer.Option(
        "--side-counts/--no-side-counts", help="Bets read the system's side counts (Hi-Opt"
        " II's and Uston APC's aces), each card weighed by the game's effects of removal;"
        " plays read the main count.")] = True,
    format_: Annotated[CountFormat | None, typer.Option(
            "--format", case_sensitive=False, help="Output format: text (the default) or json.")
                       ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Card counting: deal seeded shoes, every round's EV exact; cut-card effect, win rate.

    Blackjack: the EV of each round for the cards unseen, under the strategy,
    averaged over the dealt shoes; by true count, and for a bet ramp (N0,
    SCORE, DI, risk of ruin); --optimize-ramp: the ramp that maximises SCORE
    (or the win rate under --max-ror) within --min-bet and --max-bet.
    Baccarat (--rules macau-baccarat): how often and by how much each bet
    turns positive during a shoe.
    """
    from strategy_calc import parallel
    from strategy_calc.counting import counter as counting
    from strategy_calc.counting import runs as count_runs
    from strategy_calc.counting.baccarat import BaccaratCount
    from strategy_calc.render.baccarat import baccarat_count_dict, baccarat_count_text
    from strategy_calc.render.counting import (
        comparison_dict,
        comparison_text,
        count_dict,
        count_text,
    )
    from strategy_calc.render.plots import count_plot
    from strategy_calc.rules import DEFAULT_BLACKJACK, load_ruleset

    def compute() -> count_runs.BlackjackCount | count_runs.Comparison | BaccaratCount:
        check_output(plot, "--plot")
        spec = rules if rules is not None else DEFAULT_BLACKJACK
        if load_ruleset(spec).get("game", "blackjack") == "baccarat":
            return run_baccarat(spec)
        for flag, value in (("--shoes", shoes), ("--bets", bets)):
            if value is not None:
                raise InputError(f"{flag} is a baccarat option; the blackjack run deals"
                                 " --rounds")
        ruleset, start = with_shoe(spec, set_, decks, shoe)
        ramp = counting.parse_spread(spread) if spread is not None else None
        box_steps = counting.parse_box_ramp(box_ramp) if box_ramp is not None else ()
        wong = _wong(enter, exit_)
        n = rounds if rounds is not None else 1000
        every = moment_every if moment_every is not None else counting.MOMENT_EVERY
        names = _compared(compare, system)
        limits = _ramp_limits(optimize_ramp, bankroll, min_bet, max_bet, kelly_fraction,
                              max_ror, rounds_per_hour, wong is not None)
        if n >= 1 and every >= 1:  # (else blackjack_counter and blackjack_count say why)
            runs = len(names) if names else 1  # (each compared system deals the rounds)
            confirm_long_run(runs * counting.estimated_seconds(
                strategy.value, n, every, jobs or os.cpu_count() or 1,
                (boxes or 1) > 1 or bool(box_steps)), f"{n:,} rounds", yes)
        if names:
            return _compare([counting.blackjack_counter(
                ruleset, strategy.value, name, cut_card, seed, penetration, every, start,
                seats or 1, boxes or 1, box_steps, side_counts) for name in names], n, ramp,
                bankroll, wong, jobs, scheduler, plot, limits)
        counter = counting.blackjack_counter(
            ruleset, strategy.value, system or "hilo", cut_card, seed, penetration, every,
            start, seats or 1, boxes or 1, box_steps, side_counts)
        with progress_bar(f"{n} rounds") as tick, parallel.executor(jobs, scheduler) as pool:
            result = count_runs.blackjack_count(counter, n, ramp, bankroll, pool, tick,
                                              wong=wong, optimize=limits)
        if plot is not None:
            count_plot(result, str(plot))
        return result

    def run_baccarat(spec: str) -> BaccaratCount:
        from strategy_calc.baccarat.odds import BETS as BACCARAT_BETS
        from strategy_calc.counting import baccarat as baccarat_count
        from strategy_calc.rules import baccarat_rules

        for flag, value in (("--shoe", shoe), ("--penetration", penetration),
                            ("--spread", spread),
                            ("--rounds", rounds), ("--bankroll", bankroll),
                            ("--moment-every", moment_every), ("--plot", plot),
                            ("--system", system), ("--compare", compare),
                            ("--enter", enter), ("--exit", exit_), ("--seats", seats),
                            ("--boxes", boxes), ("--box-ramp", box_ramp),
                            ("--optimize-ramp", optimize_ramp or None),
                            ("--min-bet", min_bet), ("--max-bet", max_bet),
                            ("--kelly-fraction", kelly_fraction), ("--max-ror", max_ror),
                            ("--rounds-per-hour", rounds_per_hour)):
            if value is not None:
                raise InputError(f"{flag} is a blackjack option; the baccarat run deals"
                                 " --shoes")
        if strategy is not CountStrategy.basic:
            raise InputError("--strategy is a blackjack option: a baccarat bet has no play")
        ruleset = baccarat_rules(spec, set_ or [], decks)
        chosen = ([b.strip().lower() for b in bets.split(",")] if bets is not None
                  else list(BACCARAT_BETS))
        n = shoes if shoes is not None else 100
        cut = cut_card if cut_card is not None else baccarat_count.BACCARAT_CUT_CARD
        with progress_bar(f"{n} shoes") as tick, parallel.executor(jobs, scheduler) as pool:
            return baccarat_count.baccarat_count(ruleset, n, seed, cut, chosen, pool, tick)

    json_out = wants_json(as_json, format_)

    def render(result: count_runs.BlackjackCount | count_runs.Comparison | BaccaratCount) -> str:
        if isinstance(result, BaccaratCount):
            return json_or_text(json_out, baccarat_count_dict,
                                baccarat_count_text)(result)
        if isinstance(result, count_runs.Comparison):
            return json_or_text(json_out, comparison_dict,
                                comparison_text)(result)
        return json_or_text(json_out, count_dict, count_text)(result)

    respond(compute, render)


def _compared(compare: str | None, system: str | None) -> list[str] | None:
    """The systems of ``--compare A,B,...``: two or more, each once (None without it)."""
    if compare is None:
        return None
    if system is not None:
        raise InputError("give --system or --compare, not both")
    names = [x.strip() for x in compare.split(",") if x.strip()]
    if len(names) < 2 or len({n.lower() for n in names}) != len(names):
        raise InputError("--compare takes two or more different systems, e.g. hilo,zen,halves")
    return names


def _ramp_limits(optimize: bool, bankroll: float | None, min_bet: float | None,
                 max_bet: float | None, kelly_fraction: float | None, max_ror: float | None,
                 rounds_per_hour: float | None, several: bool) -> RampLimits | None:
    """``--optimize-ramp``'s limits: it needs --bankroll, --min-bet and --max-bet, and its
    other flags need it (None without it); ``several``: systems compared or wonging,
    which it does not take."""
    from strategy_calc.counting.ramps import ROUNDS_PER_HOUR, RampLimits

    if not optimize:
        for flag, value in (("--min-bet", min_bet), ("--max-bet", max_bet),
                            ("--kelly-fraction", kelly_fraction), ("--max-ror", max_ror),
                            ("--rounds-per-hour", rounds_per_hour)):
            if value is not None:
                raise InputError(f"{flag} is an --optimize-ramp option: add --optimize-ramp")
        return None
    if several:
        raise InputError("--optimize-ramp is for a counter betting every round: not with"
                         " --enter or --exit")
    for flag, value in (("--bankroll", bankroll), ("--min-bet", min_bet),
                        ("--max-bet", max_bet)):
        if value is None:
            raise InputError(f"--optimize-ramp needs {flag} (units)")
    assert bankroll is not None and min_bet is not None and max_bet is not None
    return RampLimits(bankroll, min_bet, max_bet, kelly_fraction, max_ror,
                      rounds_per_hour if rounds_per_hour is not None else ROUNDS_PER_HOUR)


def _wong(enter: float | None, exit_: float | None) -> Wong | None:
    """``--enter TC --exit TC``: both or neither."""
    from strategy_calc.counting import counter as counting

    if (enter is None) != (exit_ is None):
        raise InputError("wonging needs both --enter TC and --exit TC")
    return counting.Wong(enter, exit_) if enter is not None and exit_ is not None else None


def _compare(counters: list[BlackjackCounter], rounds: int, ramp: Spread | None,
             bankroll: float | None, wong: Wong | None, jobs: int | None,
             scheduler: str | None, plot: Path | None,
             limits: RampLimits | None = None) -> Comparison:
    """``count --compare``: each counter's run on the same seeded shoes (one progress bar
    each), with ``limits`` each its own optimal ramp (the like-for-like comparison of
    counts on different scales), and the plot of their EVs by count."""
    from strategy_calc import parallel
    from strategy_calc.counting import runs as count_runs
    from strategy_calc.render.plots import comparison_plot

    results = []
    with parallel.executor(jobs, scheduler) as pool:
        for counter in counters:
            with progress_bar(f"{counter.system.name}: {rounds} rounds") as tick:
                results.append(count_runs.blackjack_count(counter, rounds, ramp, bankroll, pool,
                                                        tick, wong=wong, optimize=limits))
    comparison = count_runs.Comparison(tuple(results))
    if plot is not None:
        comparison_plot(comparison, str(plot))
    return comparison


def run(args: list[str] | None = None) -> int:
    """Run the command line on ``args`` (default ``sys.argv[1:]``); return the exit status.

    Every error, usage errors included (a missing option, a bad value, an
    unknown command), is one line ``error: ...`` on stderr and status 2.
    """
    try:
        result = _app_for(sys.argv[1:] if args is None else args)(args, standalone_mode=False)
    except typer.TyperException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a bare command: its help (status 2)
            print(exc.format_message() if hasattr(exc, "format_message") else exc)
            return 2
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        print(f"error: {one_line(message)}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2) or 2)
    except typer.Abort:
        print("error: aborted", file=sys.stderr)
        return 1
    return result if isinstance(result, int) else 0


def run_captured(args: list[str], progress: ProgressSink | None = None
                 ) -> tuple[int, bytes, str]:
    """Run the command line ``args`` in this process as :func:`run` does, its output
    captured: ``(exit status, stdout bytes, stderr text)``; ``progress(label, done,
    total)`` is called as its progress bars tick. For ``serve``'s worker processes, one
    command at a time each (the capture replaces ``sys.stdout``)."""
    import contextlib
    import io

    out, err = io.BytesIO(), io.StringIO()
    text = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    token = _progress_sink.set(progress)
    try:
        with contextlib.redirect_stdout(text), contextlib.redirect_stderr(err):
            code = run(list(args))
            text.flush()
    finally:
        _progress_sink.reset(token)
    return code, out.getvalue(), err.getvalue()


def _app_for(args: list[str]) -> typer.Typer:
    """The app to parse ``args`` with: when they start with a command's name, the app
    with that command alone (typer builds every registered command's parameters on each
    run, some 30 ms for the 16 commands, where one is used); else the whole app (the
    top-level help, completion, an unknown command's error)."""
    if not args or args[0] in ("-h", "--help"):
        return _index_app()
    for info in app.registered_commands:
        name = info.name or (info.callback.__name__.lower().replace("_", "-")
                             if info.callback is not None else None)
        if name == args[0]:
            one = copy.copy(app)
            one.registered_commands = [info]
            return one
    return app


def _index_app() -> typer.Typer:
    """The app for the top-level help: every command by its name and help, none with its
    parameters (only their summaries are shown, and building the parameters is most of
    the cost). tests/test_cli.py checks its help is the whole app's, line for line."""
    index = copy.copy(app)
    index.registered_commands = []
    for info in app.registered_commands:
        stub = copy.copy(info)

        def listed() -> None:
            """(listed in the top-level help only)"""

        if info.callback is not None:
            listed.__name__ = info.callback.__name__
            listed.__doc__ = info.callback.__doc__
        stub.callback = listed
        index.registered_commands.append(stub)
    return index


def one_line(message: str, limit: int = 300) -> str:
    """A message on one line of at most ``limit`` characters.

    >>> one_line("Invalid value for '--decks':" + chr(10) + "  'abc' is not an integer")
    "Invalid value for '--decks': 'abc' is not an integer"
    """
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def run_script() -> int:
    """:func:`run` on ``sys.argv[1:]`` for the script: the exit status, 2 with one error
    line if the compiled engine cannot be imported."""
    try:
        return run()
    except ImportError as exc:
        if "_engine" not in str(exc):
            raise
        print(f"error: {one_line(str(exc), 600)}", file=sys.stderr)
        return 2


def main() -> None:
    """Console-script entry point (the script itself goes through ``__main__``)."""
    raise SystemExit(run_script())
