"""The study drill: ``drill`` (the play drill, the count drills, the history's stats)."""

from __future__ import annotations

import math
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import OptionGroup, command
from strategy_calc.cli.respond import check_output, dump_json, fail, guarded
from strategy_calc.drill.questions import DrillReference
from strategy_calc.errors import InputError

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

DrillKind = StrEnum("DrillKind", [("PLAY", "play"), ("COUNT", "count"),
                                  ("TRUE_COUNT", "true-count")])
"""The drills of ``drill``."""
DrillFocus = StrEnum("DrillFocus", "hard soft pairs surrender exceptions")
"""The deals ``drill --focus`` keeps to (:data:`strategy_calc.drill.questions.FOCUS`)."""


class History(OptionGroup):
    """Where the drill's history is kept (``--history FILE``, ``--no-history``)."""

    history: Annotated[Path | None, typer.Option(
        "--history", metavar="FILE", help="The history file (default"
        " $XDG_DATA_HOME/strategy_calc/drill-history.json).")] = None
    no_history: Annotated[bool, typer.Option(
        "--no-history", help="Neither read nor write a history.")] = False

    def path(self) -> Path | None:
        """The history file (None: ``--no-history``)."""
        from strategy_calc.drill.history import default_history_path

        if self.history is not None and self.no_history:
            raise fail("give --history FILE or --no-history, not both")
        if self.history is not None:  # the default's folder is ours to make, not a user's
            check_output(self.history, "--history")
        return None if self.no_history else self.history or default_history_path()


class CountDrill(OptionGroup):
    """The count drills' options."""

    system: Annotated[str, typer.Option(
        "--system", metavar="NAME|FILE", help="Count drills: the count system (strategy-calc"
        " counts lists them).")] = "hilo"
    cards: Annotated[int, typer.Option(
        "--cards", metavar="N", help="Count drill: cards dealt per question.")] = 10
    pace: Annotated[float, typer.Option(
        "--pace", metavar="SECONDS", help="Count drill on a terminal: seconds each card is"
        " shown (0: all at once).")] = 1.0


FORMS = {"drill": (
    ("[play]", ("rules", "set_", "decks", "against", "focus", "count", "seed", "answers",
                "history", "no_history", "format_", "as_json")),
    ("count|true-count", ("decks", "system", "cards", "pace", "count", "seed", "answers",
                          "history", "no_history", "format_", "as_json")),
    ("--stats", ("history", "format_", "as_json")))}
"""The forms of ``drill`` and the options each takes, for the synopsis
(:mod:`strategy_calc.cli.synopsis`)."""


@command(commands, "drill", 'strategy-calc drill --rules deluxe --decks 6',
         'strategy-calc drill --focus pairs --against optimal --count 20',
         'strategy-calc drill --answers "h,s,d,h" --seed 7 --json --no-history',
         'strategy-calc drill count --system hilo --cards 12 --pace 0.8',
         'strategy-calc drill true-count --count 5',
         'strategy-calc drill --stats')
def drill_command(
    kind: Annotated[DrillKind, typer.Argument(
        case_sensitive=False, metavar="[play|count|true-count]",
        help="play (the default): starting hands against up cards; count: a dealt"
        " sequence's running count; true-count: a running count and a discard tray's true"
        " count.")] = DrillKind.PLAY,
    *,
    game: opt.Ruleset,
    against: Annotated[DrillReference, typer.Option(
        "--against", case_sensitive=False, help="chart (the default): the basic-strategy"
        " chart's cell is the answer; optimal: the best play of the cards dealt.")
    ] = DrillReference.CHART,
    focus: Annotated[DrillFocus | None, typer.Option(
        "--focus", case_sensitive=False, help="Deal only hard totals, soft totals, pairs,"
        " surrender hands, or the exceptions (hands whose best play is not the chart's).")
    ] = None,
    count: Annotated[int | None, typer.Option(
        "--count", metavar="N", help="Questions to ask (default: play until q on a"
        " terminal, one per answer given otherwise; count drills 10).")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="S",
        help="Seed of the deals (the same seed deals the same questions; default"
        " a fresh one, shown in the report).")] = None,
    answers: Annotated[str | None, typer.Option(
        "--answers", metavar="A,A,...", help="Answer non-interactively, e.g. h,s,d,p,r"
        " (i/n insurance, e/n even money; numbers for count drills). Without it, answers"
        " are read from stdin when it is not a terminal.")] = None,
    history: History,
    stats: Annotated[bool, typer.Option(
        "--stats", help="Show the progress kept in the history and exit.")] = False,
    count_drill: CountDrill,
    output: opt.Output,
) -> None:
    """A study drill: deal hands at their real frequencies, ask the play, and say at once
    what a wrong answer costs, exactly (EV per bet, and per 100 rounds).

    On a terminal it asks until q (or Ctrl-C / Ctrl-D), then prints the session report;
    with --answers (or answers on stdin) it is scriptable. Missed cells come back sooner
    next time (Leitner boxes in the history file).
    """
    as_json = output.json
    from strategy_calc.drill import history as drill_history
    from strategy_calc.drill import play as drill_play

    path = history.path()
    if stats:
        _stats(path, as_json)
        return
    if count is not None and count < 1:
        raise fail(f"--count must be 1 or more, not {count}")
    if not math.isfinite(count_drill.pace) or count_drill.pace < 0:
        raise fail(f"--pace must be 0 or more seconds, not {count_drill.pace:g}")
    if seed is None:
        import random

        seed = random.SystemRandom().randrange(2**31)
    interactive = answers is None and sys.stdin.isatty()
    given = None if interactive else drill_play.split_answers(
        answers if answers is not None else sys.stdin.read())
    past = guarded(lambda: drill_history.History.load(path)) if path is not None else None
    if kind is DrillKind.PLAY:
        _play_drill(game, against.value, focus.value if focus else None, count, seed, given, path,
                    past, as_json)
    else:
        _count_drill(kind.value, game, count_drill, count, seed, given, path, past, as_json)


def _stats(path: Path | None, as_json: bool) -> None:
    """``drill --stats``: the progress kept in the history."""
    from strategy_calc.drill import history as drill_history
    from strategy_calc.render.drill import drill_stats_dict, drill_stats_text

    if path is None:
        raise fail("--stats reads the history: not with --no-history")
    found = guarded(lambda: drill_history.History.load(path)).stats()
    print(dump_json(drill_stats_dict(found, str(path))) if as_json
          else drill_stats_text(found, str(path)))


def _play_drill(game: opt.Ruleset, against: str, focus: str | None, count: int | None,
                seed: int, given: list[str] | None, path: Path | None, past: Any,
                as_json: bool) -> None:
    """``drill`` (play): deal, ask (or read the answers given), report, remember."""
    from strategy_calc.drill import history as drill_history
    from strategy_calc.drill import play as drill_play
    from strategy_calc.render.drill import drill_answer_text, drill_dict, drill_text

    def setup() -> drill_play.PlayDrill:
        ruleset = game.load()
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


def _count_drill(kind: str, game: opt.Ruleset, options: CountDrill, count: int | None,
                 seed: int, given: list[str] | None, path: Path | None, past: Any,
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
        ruleset = game.load()
        counting = find_system(options.system)
        if kind == "true-count":
            counting = counting.require_balanced("the true-count drill")
        n = count if count is not None else (len(given) if given else 10)
        decks = ruleset.finite_decks("drill")
        return counting, drill_count.count_questions(counting, decks, kind, n,
                                                     options.cards, seed)

    counting, questions = guarded(setup)
    if given is None:
        from strategy_calc.cli import drill_loop

        answered = drill_loop.count_loop(questions, options.pace, drill_loop.Terminal())
    else:
        answered = _given_counts(questions, given, count)
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


def _given_counts(questions: list[Any], given: list[str], count: int | None) -> list[Any]:
    """The count drill's answers given (``--answers`` or stdin), to ``q``."""
    from strategy_calc.drill import count as drill_count

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
    return answered
