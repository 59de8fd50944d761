"""The skeleton of every command: parse, compute (with a progress bar), render; one ``error:``
line and status 2 for bad input."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from rich.progress import Progress

    from strategy_calc.blackjack.cost import Cost
    from strategy_calc.cards import Shoe
    from strategy_calc.rules import BlackjackRules


def removed_cards(removed: list[str] | None) -> str:
    """Every ``--removed`` list given, as one list.

    >>> removed_cards(["5,5", "T 8c"]), removed_cards(None)
    ('5,5,T 8c', '')
    """
    return ",".join(part for part in removed or [] if part.strip())


T = TypeVar("T")


R = TypeVar("R")


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; the caller raises the returned exit (code 2)."""
    print(f"error: {one_line(message)}", file=sys.stderr)
    return typer.Exit(2)


def load_rules(
    rules: str | None, set_: list[str] | None, decks: int | str | None, default: str = ""
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


E = TypeVar("E", bound=StrEnum)


def chosen_format(as_json: bool, format_: E | None, formats: type[E]) -> E:
    """The format of a command of several (``--format``; ``--json`` its alias for
    ``json``), ``text`` by default."""
    return formats("json") if wants_json(as_json, format_) else format_ or formats("text")


def file_format(as_json: bool, format_: E | None, formats: type[E], out: Path | None) -> E:
    """The format of a command that may write a file (``--out``) or a PDF
    (:func:`chosen_format`), its ``--out`` checked before any work and a PDF refused on a
    terminal."""
    chosen = chosen_format(as_json, format_, formats)
    check_output(out, "--out")
    if chosen.value == "pdf":
        refuse_binary_on_terminal(out)
    return chosen


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


@contextmanager
def guarded_memory(mib: float | None) -> Iterator[None]:
    """``--memory-limit``: within the block the fully optimal split's tables stay within
    ``mib`` MiB (:func:`strategy_calc.engine.limited_memory`); a bad value is one
    ``error:`` line."""
    import math

    from strategy_calc import engine

    if mib is not None and not (math.isfinite(mib) and mib > 0):
        raise fail(f"--memory-limit is a number of MiB above 0, not {mib:g}")
    with engine.limited_memory(mib):
        yield


def check_output(path: Path | None, flag: str) -> None:
    """Refuse, before any work, an output file that cannot be written there."""
    if path is not None and (path.is_dir() or not path.parent.is_dir()):
        raise fail(f"{flag} {path}: not a file in an existing folder")


def boxes_off_the_top(ruleset: BlackjackRules, start: Shoe | None, boxes: int,
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


def with_shoe(
    rules: str | None, set_: list[str] | None, decks: int | str | None, shoe: str | None,
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


def warn_slow_split(ruleset: BlackjackRules, split_strategy: str, what: str,
                    cost: Cost | None = None, yes: bool = False) -> None:
    """Say so before an optimal split with resplits on more than one deck (the fully
    optimal solver's states grow with the shoe and the hands: minutes for a high pair,
    much longer for a low one, hours for every pair), with ``cost``, the estimate of
    :mod:`strategy_calc.blackjack.cost` (the one ``serve`` refuses requests by); past
    :data:`LONG_RUN_SECONDS` it runs only with ``--yes`` (:func:`confirm_long_run`)."""
    if (split_strategy.strip().lower() == "optimal" and ruleset.max_split_hands > 2
            and isinstance(ruleset.decks, int) and ruleset.decks > 1):
        if cost is not None and not yes and cost.seconds > LONG_RUN_SECONDS:
            # (the question, or the one error line, says what it would take)
            confirm_long_run(cost.seconds, "the fully optimal split with resplits for"
                             f" {what} at {ruleset.decks} decks", yes)
            return
        how_long = ("hours" if what == "every pair" else "a long time") if cost is None \
            else f"{cost} here"
        verb = "can take" if cost is None else "would take"
        print(f"warning: the fully optimal split with resplits ({ruleset.max_split_hands}"
              f" hands) at {ruleset.decks} decks {verb} {how_long} for {what} (to 4"
              " hands at six decks: 8,8 vs T about 1.5 minutes and 1.7 GB, 6,6 vs T 6"
              " minutes and 3.3 GB, 2,2 vs T over 20 minutes and 4 GB)", file=sys.stderr)


ProgressSink = Callable[[str, int, int], None]
"""``sink(label, done, total)``: where a command's progress also goes (see
:func:`run_captured`)."""


progress_sink: ContextVar[ProgressSink | None] = ContextVar("progress_sink", default=None)


@contextmanager
def progress_bar(label: str) -> Iterator[Callable[[int, int], None]]:
    """A ``tick(done, total)`` callback drawing a progress bar on stderr once ~1 s has passed.

    Only on a terminal: piped or captured stderr stays clean for other tools. Every tick
    also goes to the progress sink of :func:`run_captured`, if it was given one.
    """
    start = time.perf_counter()
    bar: Progress | None = None
    task = None
    sink = progress_sink.get()

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


def one_line(message: str, limit: int = 300) -> str:
    """A message on one line of at most ``limit`` characters.

    >>> one_line("Invalid value for '--decks':" + chr(10) + "  'abc' is not an integer")
    "Invalid value for '--decks': 'abc' is not an integer"
    """
    text = " ".join(message.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
