"""The options every family shares, declared once, and the help's examples."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    pass


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
    """A help epilog of example command lines (kept as written: click's ``\\b``).

    >>> examples("strategy-calc edge").splitlines()[1:]
    ['Examples:', '  strategy-calc edge']
    """
    return "\b\nExamples:\n" + "\n".join(f"  {line}" for line in lines)


class Paper(StrEnum):
    """Paper sizes of ``chart --format pdf``."""

    a4 = "a4"
    letter = "letter"


SplitStrategyOpt = Annotated[str, typer.Option(
    "--split-strategy", help="How split hands play under optimal play: cdp1 (each hand"
    " optimal for its own cards), cdz (the pre-split decisions), cdp (the field's CDP,"
    " Farmer's: re-optimised for the pair cards removed in each term of the resplit sum),"
    " cdp-hands (second cards dealt first, then play by the number of resplits), postsplit"
    " (the second hand sees the first's cards; slower), optimal (every decision sees every"
    " card dealt and maximises the round; slowest, resplits included).")]
