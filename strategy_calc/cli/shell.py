"""``strategy-calc shell``: one process, one ruleset, many queries (the classic prompt loop).

A query is a hand against an up card, ``T,6 vs T``, optionally one action,
``8,8 vs A split``; a colon starts a command: ``:rules``, ``:set FIELD=VALUE``
(e.g. ``:set decks=6``), ``:chart``, ``:edge``, ``:help``, ``:quit``. The
ruleset is loaded once, the chart and house edge computed on first use and
kept until ``:set`` changes the rules, so each hand is answered in
milliseconds instead of a new process's half second. Line editing and
history come from ``readline`` (history in ``~/.strategy_calc_history``) when
the input is a terminal. A bad query prints one ``error:`` line and the loop
goes on.

>>> session = Session("deluxe", ["decks=6"])
>>> print(session.answer("T,6 vs T hit"))  # regression pin of the engine's value
hit: -0.5347 (T,6 vs T, deluxe 6D, given no dealer blackjack)
>>> print(session.answer(":set decks=8"))
deluxe: 8D S17 peek 3:2 DA DAS split-2 LS-2-9
>>> session.answer("T,6 vs")
Traceback (most recent call last):
...
strategy_calc.errors.InputError: a query is CARDS vs UP [ACTION], e.g. T,6 vs T or 8,8 vs A split
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TextIO

import typer

from strategy_calc.cards import Shoe, parse_shoe
from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.respond import guarded
from strategy_calc.cli.signals import keep_ctrl_c
from strategy_calc.errors import InputError
from strategy_calc.rules import BlackjackRules, blackjack_rules

if TYPE_CHECKING:
    from strategy_calc.blackjack.game_analysis import GameAnalysis

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""

HELP = """queries:
  T,6 vs T          every action's EV (cards A 2..9 T J Q K, suits s h d c)
  8,8 vs A split    one action: stand, hit, double, split, surrender,
                    insurance, even_money
commands:
  :rules            the ruleset in use
  :set FIELD=VALUE  change a rule (e.g. :set decks=6, :set surrender=none)
  :chart            the basic-strategy chart
  :edge             the house edge
  :help             this text
  :quit             leave (also Ctrl-D)"""

PROMPT = "strategy-calc> "
HISTORY = os.path.join(os.path.expanduser("~"), ".strategy_calc_history")


@dataclass
class Session:
    """The state of a shell: the ruleset (name and overrides) and what was computed for it."""

    spec: str
    overrides: list[str] = field(default_factory=list)
    decks: int | str | None = None
    """``--decks``: a whole number or ``inf``, as ``--set decks=`` takes it."""
    shoe_text: str | None = None
    """``--shoe``: the shoe per rank (then ``:set decks=N`` is refused)."""
    rules: BlackjackRules = field(init=False)
    shoe: Shoe | None = field(default=None, init=False, repr=False)
    _game: GameAnalysis | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.decks is not None and self.shoe_text is not None:
            raise InputError("give --shoe or --decks, not both")
        if self.decks is not None:  # --decks is one more override, so :set decks=N wins
            self.overrides = [*self.overrides, f"decks={self.decks}"]
            self.decks = None
        if self.shoe_text is not None:
            self.shoe = parse_shoe(self.shoe_text)
            self.overrides = [*self.overrides, f"decks={self.shoe.decks}"]
        self.rules = blackjack_rules(self.spec, self.overrides)

    def game(self) -> GameAnalysis:
        """The chart and house edge of the rules (computed once per ruleset)."""
        from strategy_calc.blackjack.game_analysis import analyse_game

        if self._game is None:
            self._game = analyse_game(self.rules, shoe=self.shoe)
        return self._game

    def answer(self, line: str) -> str:
        """The reply to one input line; ``ValueError`` for a bad query."""
        from strategy_calc.render.hand import hand_text

        text = line.strip()
        if not text:
            return ""
        if text.startswith(":"):
            return self._command(text[1:].strip())
        words = [w.lower() if w.lower() == "vs" else w for w in text.split()]
        at = words.index("vs") if "vs" in words else -1
        if at < 1 or not at + 2 <= len(words) <= at + 3:
            raise InputError("a query is CARDS vs UP [ACTION], e.g. T,6 vs T or 8,8 vs A split")
        cards, up = " ".join(words[:at]), words[at + 1]
        action = words[at + 2].lower() if at + 2 < len(words) else None
        from strategy_calc.blackjack.hand_analysis import analyse_hand

        result = analyse_hand(cards, up, self.rules, shoe=self.shoe, outcomes=True)
        if action is None:
            return hand_text(result)
        if action not in result.ev:
            raise InputError(f"unknown action {action!r}: one of {', '.join(result.ev)}")
        value = result.ev[action]
        if value is None:
            return f"{action}: not allowed here under {self.rules.name}"
        given = (", given no dealer blackjack" if result.conditioned_on_no_dealer_blackjack
                 and action not in ("insurance", "even_money") else "")
        hand = ",".join(str(c) for c in result.hand)
        return (f"{action}: {value:+.4f} ({hand} vs {result.up}, {self.rules.name}"
                f" {self.rules.decks}D{given})")

    def _command(self, text: str) -> str:
        from strategy_calc.render.chart import chart_text, edge_lines
        from strategy_calc.render.text import render

        name, _, arg = text.partition(" ")
        name = name.lower()
        if name in ("q", "quit", "exit"):
            raise EOFError
        if name in ("h", "help", "?"):
            return HELP
        if name == "rules":
            return str(self.rules)
        if name == "set":
            if "=" not in arg:
                raise InputError(":set needs FIELD=VALUE, e.g. :set decks=6")
            if self.shoe is not None and arg.split("=")[0].strip() == "decks":
                raise InputError("the shoe was given with --shoe: its decks cannot be set")
            overrides = [*self.overrides, arg.strip()]
            self.rules = blackjack_rules(self.spec, overrides)
            self.overrides, self._game = overrides, None
            return str(self.rules)
        if name == "chart":
            return chart_text(self.game())
        if name == "edge":
            return render(*edge_lines(self.game()))
        raise InputError(f"unknown command :{name} (try :help)")


def _readline(interactive: bool) -> Callable[[], None]:
    """Turn on line editing and history on a terminal; returns the saver to call at exit."""
    if not interactive:
        return lambda: None
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input()
        return lambda: None
    with contextlib.suppress(OSError):
        readline.read_history_file(HISTORY)

    def save() -> None:
        with contextlib.suppress(OSError):
            readline.set_history_length(1000)
            readline.write_history_file(HISTORY)

    return save


def run(session: Session, stdin: TextIO | None = None, out: TextIO | None = None,
        err: TextIO | None = None) -> int:
    """The prompt loop over ``stdin`` (default: the terminal); returns the exit status."""
    stdin = stdin or sys.stdin
    out, err = out or sys.stdout, err or sys.stderr
    interactive = stdin.isatty()
    save = _readline(interactive and stdin is sys.stdin)
    if interactive and stdin is sys.stdin:
        keep_ctrl_c()  # (Ctrl-C clears the line, whatever the parent left blocked)
    print(f"{session.rules}\n:help for help, :quit to leave", file=out)
    try:
        while True:
            try:
                if stdin is sys.stdin:
                    line = input(PROMPT if interactive else "")
                else:
                    line = stdin.readline()
                    if not line:
                        raise EOFError
            except KeyboardInterrupt:
                print(file=out)
                continue
            try:
                reply = session.answer(line)
            except EOFError:
                break
            except InputError as exc:
                print(f"error: {' '.join(str(exc).split())}", file=err)
                err.flush()
                continue
            if reply:
                print(reply, file=out)
            out.flush()
    except EOFError:
        if interactive:
            print(file=out)
    finally:
        save()
    return 0


def main(spec: str, overrides: Sequence[str], decks: int | None) -> int:
    """Start a shell on a ruleset (``ValueError`` if it cannot be loaded)."""
    return run(Session(spec, list(overrides), decks))


@command(commands, "shell", "strategy-calc shell --rules deluxe --decks 6")
def shell_command(*, game: opt.ShoeRuleset) -> None:
    """An interactive prompt: load the rules once, then answer hands in milliseconds.

    Type a hand against an up card (T,6 vs T), one action (8,8 vs A split), or a
    command: :rules, :set decks=6, :chart, :edge, :help, :quit.
    """
    from strategy_calc.rules import DEFAULT_BLACKJACK

    session = guarded(lambda: Session(game.rules if game.rules is not None
                                      else DEFAULT_BLACKJACK, list(game.set_ or []),
                                      game.decks, game.shoe))
    raise typer.Exit(run(session))
