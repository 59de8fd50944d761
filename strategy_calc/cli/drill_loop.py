"""``strategy-calc drill`` on a terminal: the question loop (readline line editing).

One question at a time; the answer is graded at once (right, or the reference answer and
the exact cost). A bad answer (an unknown key, an action not allowed for the hand) gets one
line saying why and the same question again. ``q`` ends the session; so do Ctrl-D and
Ctrl-C, quietly: the caller then prints the report and saves the history. Colour (green
right, red wrong) only on a terminal and without ``NO_COLOR``; every line fits 80 columns.

>>> import io
>>> from strategy_calc.rules import blackjack_rules
>>> drill = PlayDrill(blackjack_rules("deluxe", ["decks=1"]), focus="pairs", seed=1)
>>> out = io.StringIO()
>>> graded = play_loop(drill, 5, Terminal(io.StringIO(chr(10).join("xzq")), out))
>>> graded, out.getvalue().count("unknown answer")  # two bad keys, the same question
([], 2)
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from strategy_calc.cli.signals import keep_ctrl_c
from strategy_calc.drill.count import CountAnswer, CountQuestion, parse_count_answer
from strategy_calc.drill.play import PlayDrill
from strategy_calc.drill.questions import Graded, Question
from strategy_calc.errors import InputError
from strategy_calc.render.drill import count_answer_text, count_question_text, drill_answer_text

QUIT = ("q", "quit", ":q", ":quit", "exit")


class _Quit(Exception):
    """The player ended the session (q, Ctrl-D or Ctrl-C)."""


def use_colour(out: TextIO) -> bool:
    """Colour only on a terminal, without ``NO_COLOR`` (https://no-color.org) and not on
    a dumb terminal."""
    return (out.isatty() and not os.environ.get("NO_COLOR")
            and os.environ.get("TERM", "") != "dumb")


def _paint(text: str, right: bool, colour: bool) -> str:
    return f"\x1b[{32 if right else 31}m{text}\x1b[0m" if colour else text


def line_editing(stdin: TextIO) -> bool:
    """Turn on readline's line editing when reading the terminal; whether it is on."""
    if stdin is not sys.stdin or not stdin.isatty():
        return False
    try:
        import readline  # noqa: F401  (importing it is what turns editing on for input())
    except ImportError:
        return False
    return True


class Terminal:
    """Where the loop reads answers and writes lines: the terminal (``input()`` with
    readline) or any pair of text streams."""

    def __init__(self, stdin: TextIO | None = None, out: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stdout
        self.editing = line_editing(self.stdin)
        self.colour = use_colour(self.out)
        if self.stdin is sys.stdin and self.stdin.isatty():
            keep_ctrl_c()  # (the report on Ctrl-C, whatever the parent left blocked)

    def ask(self, prompt: str) -> str:
        """One answer; :class:`_Quit` on q, end of input or Ctrl-C."""
        try:
            if self.stdin is sys.stdin:
                self.out.flush()
                line = input(prompt)
            else:
                self.out.write(prompt)
                self.out.flush()
                line = self.stdin.readline()
                if not line:
                    raise EOFError
        except (EOFError, KeyboardInterrupt):
            self.out.write("\n")
            raise _Quit from None
        if line.strip().lower() in QUIT:
            raise _Quit
        return line

    def say(self, text: str) -> None:
        """Print a line."""
        self.out.write(text + "\n")
        self.out.flush()


def _ask_until_valid(term: Terminal, prompt: str, parse: Callable[[str], object]) -> str:
    """Ask until ``parse`` accepts the answer (each refusal: one line, the same question)."""
    while True:
        line = term.ask(prompt)
        try:
            parse(line)
        except InputError as exc:
            term.say(" ".join(str(exc).split()))
            continue
        return line


def play_loop(drill: PlayDrill, limit: int | None, term: Terminal) -> list[Graded]:
    """Ask ``limit`` questions (None: until q); the graded answers so far when it ends."""
    graded: list[Graded] = []
    pending: list[Question] = []
    term.say(str(drill.rules))
    term.say(f"against the {drill.against}" + (f", focus {drill.focus}" if drill.focus else ""))
    term.say("answers: h hit, s stand, d double, p split, r surrender; i/n insurance;")
    term.say("e/n even money; q (or Ctrl-D) quits with the report")
    try:
        while limit is None or len(graded) < limit:
            while not pending:
                pending = drill.questions(drill.deal())
            question = pending.pop(0)
            prompt = f"{question.prompt}  [{' '.join(question.choices)}] > "
            start = time.monotonic()

            def check(text: str, q: Question = question) -> object:
                return drill.grade(q, text)

            line = _ask_until_valid(term, prompt, check)
            result = drill.grade(question, line, round(time.monotonic() - start, 3))
            graded.append(result)
            term.say(_paint(drill_answer_text(result), result.correct, term.colour))
            follow = drill.follow_up(result)
            if follow is not None:
                pending.insert(0, follow)
    except (_Quit, KeyboardInterrupt):  # (Ctrl-C while a card shows or a hand is analysed)
        term.out.write("\n")
    return graded


def count_loop(questions: list[CountQuestion], pace: float, term: Terminal,
               sleep: Callable[[float], None] = time.sleep) -> list[CountAnswer]:
    """Show each count question (a running count: its cards one at a time, ``pace``
    seconds each, on one line) and grade the answer; the answers so far when it ends."""
    answers: list[CountAnswer] = []
    try:
        for number, q in enumerate(questions, 1):
            if q.kind == "count" and pace > 0 and term.out.isatty():
                if q.start:
                    term.say(f"start at {q.start:+g}")
                for card in q.cards:
                    term.out.write(f"\r  {card!s:<4}")
                    term.out.flush()
                    sleep(pace)
                term.out.write("\r      \r")
                term.out.flush()
            else:
                term.say(count_question_text(q))
            what = "running count" if q.kind == "count" else "true count"
            start = time.monotonic()
            line = _ask_until_valid(term, f"{number}/{len(questions)} {what}? > ",
                                    parse_count_answer)
            answer = CountAnswer(q, parse_count_answer(line),
                                 round(time.monotonic() - start, 3))
            answers.append(answer)
            term.say(_paint(count_answer_text(answer), answer.correct, term.colour))
    except (_Quit, KeyboardInterrupt):  # (Ctrl-C while a card shows or a hand is analysed)
        term.out.write("\n")
    return answers
