"""The study drill: ``drill``."""

from __future__ import annotations

import math
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from strategy_calc.cli.options import DecksOpt, FormatOpt, JsonOpt, RulesOpt, SetOpt, examples
from strategy_calc.cli.respond import dump_json, fail, guarded, load_rules, wants_json
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    pass

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


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


@commands.command(
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
        from strategy_calc.cli import drill_loop

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
        from strategy_calc.cli import drill_loop

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
