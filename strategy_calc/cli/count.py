"""Counted shoes: ``count``."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from strategy_calc.cli.options import (
    AnyRulesOpt,
    DecksOpt,
    JsonOpt,
    PlotOpt,
    SetOpt,
    ShoeOpt,
    examples,
)
from strategy_calc.cli.respond import (
    check_output,
    confirm_long_run,
    json_or_text,
    progress_bar,
    respond,
    wants_json,
    with_shoe,
)
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from strategy_calc.counting.counter import BlackjackCounter, Spread, Wong
    from strategy_calc.counting.ramps import RampLimits
    from strategy_calc.counting.runs import Comparison

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


class CountStrategy(StrEnum):
    """Strategies of ``count``."""

    basic = "basic"
    basic_indices = "basic+indices"
    optimal = "optimal"


class CountFormat(StrEnum):
    """Output formats of ``count``."""

    text = "text"
    json = "json"


@commands.command(
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
