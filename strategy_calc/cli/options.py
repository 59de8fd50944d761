"""The options several commands share, each declared once: single options as ``Annotated``
aliases, options that go together as option groups (:class:`Ruleset`, :class:`Output`,
:class:`Workers`, ...: :mod:`~strategy_calc.cli.command`), and the output formats.

The vocabularies of decisions (``--split-strategy``, ``--strategy``, ``--mode``,
``--against``) are the library's enums, used as the options' types.

>>> ShoeRuleset(rules="deluxe", decks="1").with_shoe()[0].decks, Output(as_json=True).json
(1, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from strategy_calc.blackjack.split.strategies import SplitStrategy
from strategy_calc.cli.command import OptionGroup
from strategy_calc.cli.respond import json_or_text, load_rules, wants_json, with_shoe

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from strategy_calc.cards import Shoe
    from strategy_calc.rules import BaccaratRules, BlackjackRules

R = TypeVar("R")

OutputFormat = StrEnum("OutputFormat", "text json")
"""``--format`` of the commands that print text or one JSON object."""
Paper = StrEnum("Paper", "a4 letter")
"""Paper sizes of the one-page PDFs (``--paper``)."""


def format_option(choices: str) -> Any:
    """``--format``, case-insensitive, its help naming ``choices``."""
    return typer.Option("--format", case_sensitive=False, help=f"Output format: {choices}.")


FormatOpt = Annotated[OutputFormat | None, format_option(
    "text (the default) or json (--json is short for --format json)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]
JsonAliasOpt = Annotated[bool, typer.Option("--json", help="Same as --format json.")]
OutOpt = Annotated[Path | None, typer.Option(
    "--out", metavar="FILE", help="Write to this file instead of stdout.")]
PaperOpt = Annotated[Paper, typer.Option(
    "--paper", case_sensitive=False, help="Paper of --format pdf (one page).")]
PlotOpt = Annotated[Path | None, typer.Option(
    "--plot", metavar="FILE.png", help="Also draw the result as a PNG (pip install"
    " 'strategy_calc[plot]').")]
YesOpt = Annotated[bool, typer.Option(
    "--yes", help="Run without asking, even a long run (estimated at more than ten minutes,"
    " or a grid of more than 10,000 variants).")]


RulesOpt = Annotated[str | None, typer.Option(
    "--rules", metavar="NAME|FILE", help="Blackjack ruleset: macau-1983 (the default) or"
    " deluxe, or a TOML ruleset file (see docs/RULES.md).")]
BaccaratRulesOpt = Annotated[str | None, typer.Option(
    "--rules", metavar="NAME|FILE", help="Baccarat ruleset: macau-baccarat (the default) or"
    " a TOML ruleset file.")]
SetOpt = Annotated[list[str] | None, typer.Option(
    "--set", metavar="FIELD=VALUE", help="Override one rules field (repeatable;"
    " strategy-calc rules NAME lists the fields and their values).")]


def parse_decks(text: str) -> str:
    """``--decks``: a whole number, or ``inf`` (an infinite deck), as the text ``--set
    decks=`` takes (the rules check the range; a game without an infinite deck refuses it).

    >>> parse_decks(" 8 "), parse_decks("INF")
    ('8', 'inf')
    """
    word = text.strip().lower()
    if word == "inf":
        return word
    try:
        return str(int(word))
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a valid int.") from None


DecksOpt = Annotated[str | None, typer.Option(
    "--decks", metavar="N|inf", parser=parse_decks, help="Number of decks, or inf: an"
    " infinite deck, every card drawn with replacement (short for --set decks=N).")]
BaccaratDecksOpt = Annotated[int | None, typer.Option(
    "--decks", metavar="N", help="Number of decks (short for --set decks=N).")]
ShoeOpt = Annotated[str | None, typer.Option(
    "--shoe", metavar="A=N,2=N,...,T=N", help="The shoe per rank, every rank once (tens"
    " include J, Q, K), instead of --decks full decks.")]
RemovedOpt = Annotated[list[str] | None, typer.Option(
    "--removed", metavar="CARDS", help="Cards known to be out of the shoe, e.g. 5,5,T or 8c"
    " (repeatable: the lists are combined).")]
BoxesOpt = Annotated[int | None, typer.Option(
    "--boxes", metavar="N", help="Also give the EV and variance per box of playing N boxes"
    " (1-7) of one round off the top, the covariance between two boxes and the variance"
    " and SD of the round (each box its own optimal play).")]
SplitStrategyOpt = Annotated[SplitStrategy, typer.Option(
    "--split-strategy", case_sensitive=False, help="How split hands play under optimal"
    " play: cdp1 (each hand optimal for its own cards), cdz (the pre-split decisions), cdp"
    " (the field's CDP, Farmer's: re-optimised for the pair cards removed in each term of"
    " the resplit sum), cdp-hands (second cards dealt first, then play by the number of"
    " resplits), postsplit (the second hand sees the first's cards; slower), optimal"
    " (every decision sees every card dealt and maximises the round; slowest, resplits"
    " included).")]
MemoryLimitOpt = Annotated[float | None, typer.Option(
    "--memory-limit", metavar="MIB", help="The most memory, in MiB, the fully optimal"
    " split's tables may take (default: three quarters of this machine's); beyond it the"
    " command stops with an error instead of swapping.")]
SideBetFileOpt = Annotated[list[str] | None, typer.Option(
    "--sidebet", metavar="FILE", help="A side bet file (TOML: docs/MODEL.md 'Side bets'),"
    " its bet priced by its name (repeatable).")]
"""``--sidebet FILE``: a user's side bets (``sidebet``, ``count --sidebets``)."""
SideBetTriggerOpt = Annotated[list[str] | None, typer.Option(
    "--sidebet-trigger", metavar="BET:TAGS:AT[:KIND]", help="Bet a --sidebets bet when a"
    " count of the cards seen reaches AT instead of when its exact EV is positive: TAGS"
    " ten integers for A,2..9,T or a built-in count system (hilo); KIND true (the running"
    " count per deck unseen, the default) or running (repeatable, one per bet).")]
"""``--sidebet-trigger``: ``count``'s side bets placed by a count (both games)."""

SeedOpt = Annotated[int, typer.Option("--seed", metavar="S", help="Seed of the shuffles.")]


class Ruleset(OptionGroup):
    """``--rules``, ``--set``, ``--decks``: a blackjack ruleset."""

    rules: RulesOpt = None
    set_: SetOpt = None
    decks: DecksOpt = None

    def load(self) -> BlackjackRules:
        """The ruleset (a ``warning:`` line for each ``--set`` that changes nothing)."""
        return load_rules(self.rules, self.set_, self.decks)


class ShoeRuleset(Ruleset):
    """A blackjack ruleset and ``--shoe``, the cards per rank instead of ``--decks``."""

    shoe: ShoeOpt = None

    def with_shoe(self) -> tuple[BlackjackRules, Shoe | None]:
        """The ruleset (its decks enough to hold the shoe) and the ``--shoe`` given."""
        return with_shoe(self.rules, self.set_, self.decks, self.shoe)


class BaccaratRuleset(OptionGroup):
    """``--rules``, ``--set``, ``--decks``: a baccarat ruleset."""

    rules: BaccaratRulesOpt = None
    set_: SetOpt = None
    decks: BaccaratDecksOpt = None

    def load(self, *overrides: str) -> BaccaratRules:
        """The ruleset, ``overrides`` applied after ``--set``'s."""
        from strategy_calc.rules import DEFAULT_BACCARAT, baccarat_rules

        spec = self.rules if self.rules is not None else DEFAULT_BACCARAT
        return baccarat_rules(spec, [*(self.set_ or []), *overrides], self.decks)


class Output(OptionGroup):
    """``--format text|json`` and ``--json``, its alias."""

    format_: FormatOpt = None
    as_json: JsonOpt = False

    @property
    def json(self) -> bool:
        """Whether the command prints JSON (the two flags disagreeing is an error line)."""
        return wants_json(self.as_json, self.format_)

    def render(self, to_dict: Callable[[R], object], to_text: Callable[[R], str]
               ) -> Callable[[R], str]:
        """The command's ``render``: ``to_dict`` as JSON, or ``to_text``
        (:func:`~strategy_calc.cli.respond.json_or_text`)."""
        return json_or_text(self.json, to_dict, to_text)


class Workers(OptionGroup):
    """``--jobs``, ``--scheduler``: where a parallel run's tasks go."""

    jobs: Annotated[int | None, typer.Option(
        "--jobs", metavar="N", help="Local worker processes (default: the CPU count).")] = None
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", metavar="ADDRESS", help="Run on a Dask cluster, e.g. tcp://host:8786"
        " (pip install 'strategy_calc[cluster]').")] = None

    @contextmanager
    def executor(self) -> Iterator[Executor]:
        """The pool of :func:`strategy_calc.parallel.executor`, for the run."""
        from strategy_calc import parallel

        with parallel.executor(self.jobs, self.scheduler) as pool:
            yield pool
