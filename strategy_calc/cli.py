"""The ``strategy-calc`` command line: parse, call one library function, render.

Every command takes ``--rules NAME|FILE``, a repeatable ``--set FIELD=VALUE``
and ``--decks N`` the same way. Bad input prints one ``error:`` line and exits 2.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Annotated, TypeVar

import typer

app = typer.Typer(
    name="strategy-calc",
    help="Exact optimal strategy and odds for Macau / Deluxe blackjack and Macau baccarat.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

RulesOpt = Annotated[
    str | None,
    typer.Option("--rules", help="Built-in ruleset name (macau-1983, deluxe, macau-baccarat) "
                 "or a TOML ruleset file."),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", metavar="FIELD=VALUE", help="Override one rules field (repeatable)."),
]
DecksOpt = Annotated[
    int | None, typer.Option("--decks", help="Number of decks (short for --set decks=N).")
]
RemovedOpt = Annotated[
    str, typer.Option("--removed", help="Cards known to be out of the shoe, e.g. 5,5,T or 8c.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]

T = TypeVar("T")


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr; the caller raises the returned exit (code 2)."""
    print(f"error: {message}", file=sys.stderr)
    return typer.Exit(2)


def guarded(call: Callable[[], T]) -> T:
    """Run ``call``, turning any input error (a ``ValueError``) into one error line."""
    try:
        return call()
    except ValueError as exc:
        raise fail(str(exc)) from None


@app.command()
def hand(
    cards: Annotated[str, typer.Argument(help="The player's cards, e.g. T,6 or A,7 or 6s,7s.")],
    vs: Annotated[str, typer.Option("--vs", help="The dealer's up card, e.g. T or A.")],
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    removed: RemovedOpt = "",
    as_json: JsonOpt = False,
) -> None:
    """Every action's exact EV for one blackjack hand against an up card."""
    from strategy_calc import blackjack, report
    from strategy_calc.rules import DEFAULT_BLACKJACK, blackjack_rules

    def run() -> str:
        ruleset = blackjack_rules(rules or DEFAULT_BLACKJACK, set_ or [], decks)
        result = blackjack.analyse_hand(cards, vs, ruleset, removed)
        return report.hand_json(result) if as_json else report.hand_text(result)

    print(guarded(run))


@app.command()
def baccarat(
    rules: RulesOpt = None,
    set_: SetOpt = None,
    decks: DecksOpt = None,
    removed: RemovedOpt = "",
    exact: Annotated[bool, typer.Option("--exact", help="Print exact fractions.")] = False,
    eor: Annotated[
        bool, typer.Option("--eor", help="Add the effect of removing one card of each rank.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Exact probabilities and EV of every baccarat bet for a (partly dealt) shoe."""
    from strategy_calc import baccarat as bac

    print(guarded(lambda: bac.baccarat_report(
        rules or "macau-baccarat", set_ or [], decks, removed, exact, eor, as_json)))


@app.command()
def bench(
    repeat: Annotated[int, typer.Option("--repeat", help="Runs per timing (median).")] = 7,
) -> None:
    """Time the engine on the standard workloads (median of several runs)."""
    from strategy_calc import bench as bench_module

    print(bench_module.run(repeat))


def main() -> None:
    """Console-script entry point."""
    app()
