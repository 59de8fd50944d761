"""The root of the command line: the app, the lazy table of command families, and running
a command line (one ``error:`` line and status 2 for any usage error)."""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Iterable
from functools import cache
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from strategy_calc.cli.respond import ProgressSink, one_line, progress_sink


class _InTableOrder(TyperGroup):
    """The commands listed in :data:`COMMANDS`' order (typer lists groups after commands)."""

    def list_commands(self, ctx: Any) -> list[str]:
        return sorted(self.commands, key=lambda name: (
            list(COMMANDS).index(name) if name in COMMANDS else len(COMMANDS), name))


app = typer.Typer(
    name="strategy-calc",
    cls=_InTableOrder,
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


def run(args: list[str] | None = None) -> int:
    """Run the command line on ``args`` (default ``sys.argv[1:]``); return the exit status.

    Every error, usage errors included (a missing option, a bad value, an
    unknown command), is one line ``error: ...`` on stderr and status 2.
    """
    line = routed(sys.argv[1:] if args is None else list(args))
    try:
        result = _parser_for(line[0] if line and line[0] in COMMANDS else None)(
            line, standalone_mode=False)
    except typer.TyperException as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # a group without its command
            print(f"error: {_missing_command(exc)}", file=sys.stderr)
            return 2
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        print(f"error: {one_line(message)}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2) or 2)
    except typer.Abort:
        print("error: aborted", file=sys.stderr)
        return 1
    return result if isinstance(result, int) else 0


def _missing_command(exc: Exception) -> str:
    """The one-line error for a command group given without its command: the group's
    commands and where its help is."""
    ctx: Any = getattr(exc, "ctx", None)
    if ctx is None:
        return "a command is missing (strategy-calc -h lists them)"
    path = ctx.command_path
    names = ", ".join(ctx.command.list_commands(ctx))
    return f"{path} needs a command, one of: {names} ({path} -h for help)"


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
    token = progress_sink.set(progress)
    try:
        with contextlib.redirect_stdout(text), contextlib.redirect_stderr(err):
            code = run(list(args))
            text.flush()
    finally:
        progress_sink.reset(token)
    return code, out.getvalue(), err.getvalue()


COMMANDS: dict[str, str] = {
    "hand": "hand", "baccarat": "baccarat", "chart": "game", "edge": "game", "bonus": "game",
    "behind": "hand", "tables": "jobs", "risk": "risk", "eor": "counting",
    "indices": "counting", "bench": "jobs", "sweep": "sweep", "shell": "shell",
    "drill": "drill", "rules": "rules", "counts": "counting", "serve": "serve",
    "count": "count", "sidebet": "hand",
}
"""Every command, in the help's order, and its family: the module
``strategy_calc.cli.FAMILY`` whose ``commands`` declare it. A command line loads only its
own family (tests/cli/test_cli.py checks the table against the families)."""


SUMMARIES: dict[str, str] = {
    "hand": "Every action's exact EV for one hand",
    "baccarat": "Every baccarat bet's exact EV for a shoe; counted shoes",
    "baccarat count": "Counted shoes: when each bet turns positive",
    "chart": "The basic-strategy chart and house edge",
    "edge": "The exact house edge of a ruleset",
    "bonus": "What Macau's 6-7-8 / 7-7-7 bonuses are worth",
    "behind": "Bet behind: the follower's choices",
    "tables": "Regenerate the charts in tables/",
    "risk": "A round's distribution and risk of ruin",
    "eor": "Effects of removal of each rank",
    "indices": "Count indices: the Illustrious 18, the Fab 4, every play of every hand",
    "bench": "Time the standard workloads",
    "sweep": "What each rule is worth (rule variants)",
    "shell": "An interactive prompt for many hands",
    "drill": "Study drill: the chart quizzed, each mistake's exact cost",
    "rules": "The rulesets and their fields",
    "counts": "The card-counting systems and their tags",
    "serve": "A local web page: chart, hand calculator, rules",
    "count": "Card counting over seeded shoes, exact EVs",
    "sidebet": "Side bets (21+3, Lucky Ladies, pairs), exact for any shoe",
    "sidebet pair": "The Deluxe pair bet's exact EV",
    "sidebet bet": "One side bet's exact odds for a shoe (sidebet NAME)",
}
"""Each command's one-line summary, by its path (``sidebet pair``): the top-level help
lists them without loading a family, and :func:`family` gives each command its own."""


def routed(args: list[str]) -> list[str]:
    """The command line to parse: ``count`` with a baccarat ruleset (``--rules
    macau-baccarat``, or a ruleset file whose game is baccarat) is an alias of ``baccarat
    count``, whose parser then answers for every flag (a blackjack-only one is its "no such
    option" error); ``sidebet NAME`` is short for ``sidebet bet NAME``.

    >>> routed(["count", "--rules", "macau-baccarat", "--shoes", "3"])
    ['baccarat', 'count', '--rules', 'macau-baccarat', '--shoes', '3']
    >>> routed(["count", "--rules=deluxe"]), routed(["hand", "--rules", "macau-baccarat"])
    (['count', '--rules=deluxe'], ['hand', '--rules', 'macau-baccarat'])
    >>> routed(["sidebet", "21+3", "--json"]), routed(["sidebet", "pair"])
    (['sidebet', 'bet', '21+3', '--json'], ['sidebet', 'pair'])
    """
    if args[:1] == ["sidebet"] and len(args) > 1 and not args[1].startswith("-") and (
            args[1] not in SIDEBET_COMMANDS):
        return ["sidebet", "bet", *args[1:]]
    if args[:1] != ["count"]:
        return args
    spec = None
    for at, arg in enumerate(args[:args.index("--")] if "--" in args else args):
        if arg == "--rules" and at + 1 < len(args):
            spec = args[at + 1]
        elif arg.startswith("--rules="):
            spec = arg.partition("=")[2]
    return ["baccarat", *args] if spec is not None and _is_baccarat(spec) else args


SIDEBET_COMMANDS = ("pair", "bet")
"""``sidebet``'s commands; any other word after it is a side bet's name."""


def _is_baccarat(spec: str) -> bool:
    """Whether ``spec`` names a baccarat ruleset (False for one that cannot be read: the
    command reports it)."""
    from strategy_calc.errors import InputError
    from strategy_calc.rules import load_ruleset

    try:
        return bool(load_ruleset(spec).get("game", "blackjack") == "baccarat")
    except (InputError, OSError):
        return False


def family(name: str) -> typer.Typer:
    """The commands of one family (its module imported on first use), each given its
    summary from :data:`SUMMARIES` (a group's and its commands' too)."""
    commands: typer.Typer = importlib.import_module(f"strategy_calc.cli.{name}").commands
    for info in commands.registered_commands:
        info.short_help = SUMMARIES[str(command_name(info))]
    for group in commands.registered_groups:
        group.short_help = SUMMARIES[str(group.name)]
        for info in group.typer_instance.registered_commands if group.typer_instance else ():
            info.short_help = SUMMARIES[f"{group.name} {command_name(info)}"]
    return commands


def command_name(info: typer.models.CommandInfo) -> str | None:
    """The name a command is called by (its function's, ``_`` as ``-``, unless named)."""
    if info.name:
        return info.name
    return info.callback.__name__.lower().replace("_", "-") if info.callback else None


def _with(names: Iterable[str]) -> typer.Typer:
    """A copy of the root :data:`app` holding the commands ``names`` (and command groups
    such as ``sidebet``), from their families."""
    one = copy.copy(app)
    one.registered_commands = []
    one.registered_groups = []
    for name in names:
        commands = family(COMMANDS[name])
        one.registered_commands += [info for info in commands.registered_commands
                                    if command_name(info) == name]
        one.registered_groups += [info for info in commands.registered_groups
                                  if info.name == name]
    return one


def click_command(path: str) -> Any:
    """The click command that click builds from the declaration of the command ``path``
    (``hand``, or a group's ``sidebet pair``, ``baccarat count``), its family alone loaded:
    its parameters as the parser, the help and the synopsis see them."""
    words = path.split()
    command = typer.main.get_command(_with(words[:1]))
    for word in words:
        command = command.commands[word]  # type: ignore[attr-defined]
    return command


@cache
def full_app() -> typer.Typer:
    """The app with every command (every family loaded), for tests and tools that drive
    the whole app (``strategy_calc.cli.app``; the top-level help and a line naming no
    command use the index instead, :func:`_index_app`, which loads no family)."""
    return _with(COMMANDS)


@cache
def _parser_for(name: str | None) -> Any:
    """The click command that parses a command line naming the command ``name`` (None: no
    command, :func:`_app_for`), built once per process: a process that runs many command
    lines (``serve``'s workers, ``shell``) builds each command's parser once, not per line
    (half of a warm ``hand``'s 16 ms)."""
    return typer.main.get_command(_app_for([name] if name is not None else []))


def _app_for(args: list[str]) -> typer.Typer:
    """The app to parse ``args`` with: when they start with a command's name, the app
    with that command alone, its family's module the only one loaded (typer also builds
    every registered command's parameters on each run); else the index of the commands
    (the help, the version, an unknown command's error), no family loaded."""
    if args and args[0] in COMMANDS:
        return _with([args[0]])
    return _index_app()


def _index_app() -> typer.Typer:
    """The app for the top-level help and for a command line that names no command: every
    command by its name and summary (:data:`SUMMARIES`), none loaded (their parameters and
    their families' imports are most of the cost). tests/cli/test_cli.py checks its help is
    the whole app's, line for line."""

    def listed() -> None:
        """(listed in the top-level help only)"""

    index = copy.copy(app)
    index.registered_commands = [typer.models.CommandInfo(
        name=name, callback=listed, short_help=SUMMARIES[name]) for name in COMMANDS]
    index.registered_groups = []
    return index


def run_script() -> int:
    """:func:`run` on ``sys.argv[1:]`` for the script: the exit status, 2 with one error
    line if the compiled engine cannot be imported."""
    from strategy_calc.cli.signals import hold_if_stopping, stop_on_signals

    words = [a for a in sys.argv[1:] if not a.startswith("-")]
    stop_on_signals(" ".join(words[:2]) if words[:1] == ["baccarat"] else
                    (words[0] if words else "strategy-calc"))
    try:
        return run()
    except ImportError as exc:
        if "_engine" not in str(exc):
            raise
        print(f"error: {one_line(str(exc), 600)}", file=sys.stderr)
        return 2
    finally:  # a stop signal's thread ends the process, with 128 + the signal
        hold_if_stopping()


def main() -> None:
    """Console-script entry point (the script itself goes through ``__main__``)."""
    raise SystemExit(run_script())
