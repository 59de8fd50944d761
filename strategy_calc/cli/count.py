"""Counted blackjack shoes: ``count`` (``count`` with a baccarat ruleset is ``baccarat
count``: :func:`strategy_calc.cli.root.routed`)."""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from strategy_calc.cli import options as opt
from strategy_calc.cli.command import command
from strategy_calc.cli.count_options import (
    CountRuleset,
    Deal,
    Method,
    Ramp,
    Systems,
    Table,
    Wonging,
)
from strategy_calc.cli.respond import (
    check_output,
    confirm_long_run,
    json_or_text,
    progress_bar,
    respond,
)
from strategy_calc.counting.counter import CountPlay
from strategy_calc.errors import InputError

if TYPE_CHECKING:
    from strategy_calc.counting.counter import BlackjackCounter, Spread, Wong
    from strategy_calc.counting.ramp_constraints import RampConstraints
    from strategy_calc.counting.ramps import RampLimits
    from strategy_calc.counting.results import BlackjackCount, Comparison
    from strategy_calc.counting.risks import RiskQuestions

commands = typer.Typer()
"""This family's commands (the root loads them on first use: :mod:`strategy_calc.cli.root`)."""


@command(commands, "count",
         'strategy-calc count --rules deluxe --decks 6 --spread "1:1,2:4,3:8" --rounds 10000',
         'strategy-calc count --rules deluxe --decks 6 --spread "0:1,1:2,2:4,3:8,4:12"'
         ' --optimize-ramp --bankroll 10000 --min-bet 1 --max-bet 12 --rounds 4000',
         'strategy-calc count --rules deluxe --decks 6 --sidebets 21+3,lucky-ladies,buster',
         'strategy-calc count --rules macau-baccarat --shoes 1000 --json')
def count_command(
    *,
    game: CountRuleset,
    systems: Systems,
    strategy: Annotated[CountPlay, typer.Option(
        "--strategy", case_sensitive=False,
        help="basic: the chart; basic+indices: plus the computed Illustrious"
        " 18 and insurance; optimal: composition-dependent.")] = CountPlay.BASIC,
    deal: Deal,
    method: Method,
    table: Table,
    ramp: Ramp,
    wonging: Wonging,
    side_counts: Annotated[bool, typer.Option(
        "--side-counts/--no-side-counts", help="Bets read the system's side counts (Hi-Opt"
        " II's and Uston APC's aces), each card weighed by the game's effects of removal;"
        " plays read the main count.")] = True,
    sidebets: Annotated[str | None, typer.Option(
        "--sidebets", metavar="NAME,...", help="Side bets (strategy-calc sidebet --list),"
        " each priced exactly for the cards unseen before every round and bet one unit when"
        " positive, settled on the round's cards: share bet, EV, win per 100 rounds.")
    ] = None,
    sidebet_files: opt.SideBetFileOpt = None,
    sidebet_triggers: opt.SideBetTriggerOpt = None,
    deck_estimation: Annotated[str, typer.Option(
        "--deck-estimation", metavar="exact|half|whole", help="The decks unseen a true count"
        " divides by: exact (cards/52, the default), or judged from the discard tray to the"
        " nearest half deck (never below 1/2) or deck (never below 1); bets, wonging, index"
        " plays and the box ramp read it, and the ramp's SCORE is also given with exact"
        " decks on the same shoes.")] = "exact",
    play_errors: Annotated[float, typer.Option(
        "--play-errors", metavar="E", help="A play-error rate, 0 <= E < 1 (basic play):"
        " each decision of an unsplit hand takes the wrong play with chance E (at two cards"
        " the chart's runner-up, later the other of hit and stand); every EV stays exact"
        " and the SCORE is also given without errors on the same rounds.")] = 0.0,
    workers: opt.Workers,
    plot: opt.PlotOpt = None,
    yes: opt.YesOpt = False,
    output: opt.Output,
) -> None:
    """Card counting: deal seeded shoes, every round's EV exact; cut-card effect, win rate.

    The EV of each round for the cards unseen, under the strategy, averaged over the
    dealt shoes; by true count, and for a bet ramp (N0, SCORE, DI, risk of ruin);
    --optimize-ramp: the ramp that maximises SCORE (or the win rate under --max-ror)
    within --min-bet and --max-bet. With a baccarat ruleset (--rules macau-baccarat) it
    is baccarat count: how often and by how much each bet turns positive during a shoe.
    """
    from strategy_calc.counting import counter as counting
    from strategy_calc.counting import runs
    from strategy_calc.counting.results import Comparison
    from strategy_calc.counting.sidebets import resolve as resolve_sidebets
    from strategy_calc.counting.sidebets import resolve_triggers
    from strategy_calc.render.counting import (
        comparison_dict,
        comparison_text,
        count_dict,
        count_text,
    )

    as_json = output.json

    def compute() -> BlackjackCount | Comparison:
        check_output(plot, "--plot")
        ruleset, start = game.with_shoe()
        ruleset.finite_decks("count")  # (an infinite deck has no cards to count: at once)
        spread, steps, wong = ramp.ramp(), table.steps(), wonging.wong()
        names = systems.compared()
        limits = ramp.limits(wong is not None)
        constraints = ramp.constraints(limits)
        questions = ramp.questions(spread is not None or wong is not None)
        if (ramp.bankroll is not None and math.isfinite(ramp.bankroll) and ramp.bankroll > 0
                and spread is None and wong is None and limits is None):
            print("warning: --bankroll has no effect without a bet ramp (--spread, or"
                  " --enter/--exit): flat bets have no risk-of-ruin figures here",
                  file=sys.stderr)
        seats, boxes = table.counts
        bets = () if sidebets is None else resolve_sidebets(
            sidebets, "blackjack", sidebet_files or (), ruleset.dealer_hits_soft_17)
        triggers = resolve_triggers(sidebet_triggers, bets) if sidebet_triggers else ()
        if method.stratified:
            return _plotted(_stratified(method, deal, [counting.blackjack_counter(
                ruleset, strategy.value, name, deal.cut_card, deal.seed,
                deal.penetration, deal.every, start, seats, boxes, steps, side_counts, bets,
                triggers, deck_estimation, play_errors)
                for name in names or [systems.system or "hilo"]],
                spread, ramp.bankroll, workers, questions, yes, limits, wong, plot,
                several=names is not None, optimize_wong=wonging.optimize_wong,
                constraints=constraints), plot)
        method.sizes(None)  # (refuses the stratified method's options)
        redeal = 2.0 if (deck_estimation != "exact" and (spread or wong) and (
            strategy is CountPlay.BASIC_INDICES or steps)) else 1.0  # (the exact counter too)
        first = counting.blackjack_counter(  # (its checks come before the estimate)
            ruleset, strategy.value, (names or [systems.system or "hilo"])[0], deal.cut_card,
            deal.seed, deal.penetration, deal.every, start, seats, boxes, steps,
            side_counts, bets, triggers, deck_estimation, play_errors)
        if play_errors > 0:  # (each round valued with and without errors: 195.5 against
            redeal *= 3.5    # 55.2 CPU-s for 2,032 rounds at 6 decks, measured 2026-12-07)
        if deal.rounds >= 1:  # (else the run says why)
            dealt = runs.rounds_dealt(first, deal.rounds)  # (whole shoes: many at many decks)
            what = (f"{deal.rounds:,} rounds" if dealt < 2 * deal.rounds else
                    f"{deal.rounds:,} rounds (whole shoes: about {dealt:,.0f} rounds dealt)")
            confirm_long_run(redeal * (len(names) if names else 1) * counting.estimated_seconds(
                strategy.value, math.ceil(dealt), deal.every,
                workers.jobs or os.cpu_count() or 1, boxes > 1 or bool(steps)), what, yes)
        counters = [first, *(counting.blackjack_counter(
            ruleset, strategy.value, name, deal.cut_card, deal.seed, deal.penetration,
            deal.every, start, seats, boxes, steps, side_counts, bets, triggers,
            deck_estimation, play_errors)
            for name in (names or [])[1:])]
        _warn_estimation(counters, spread is not None or wong is not None)
        results = _run(counters, deal.rounds, spread, ramp.bankroll, wong, workers, limits,
                       questions, several=names is not None, constraints=constraints,
                       optimize_wong=wonging.optimize_wong)
        return _plotted(results[0] if names is None else Comparison(tuple(results)), plot)

    def render(result: BlackjackCount | Comparison) -> str:
        if isinstance(result, Comparison):
            return json_or_text(as_json, comparison_dict, comparison_text)(result)
        return json_or_text(as_json, count_dict, count_text)(result)

    respond(compute, render)


def _stratified(method: Method, deal: Deal, counters: list[BlackjackCounter],
                spread: Spread | None, bankroll: float | None, workers: opt.Workers,
                questions: RiskQuestions | None, yes: bool, limits: RampLimits | None,
                wong: Wong | None, plot: Path | None, several: bool, optimize_wong: bool,
                constraints: RampConstraints | None = None) -> BlackjackCount | Comparison:
    """``count --method stratified`` (or ``--precision``): checked, costed, run; with
    ``several`` systems (``--compare``) each its own run on the same seeded shoes, a
    ``--precision`` run's ``--max-minutes`` shared between them."""
    from strategy_calc.counting import stratified, stratified_ramps
    from strategy_calc.counting.results import Comparison

    if deal.moment_every is not None:
        raise InputError("--method stratified does not take --moment-every (the direct"
                         " method's: its second moments are --moment-rounds)")
    for counter in counters:
        counter.check_surveyable()
    sizes = method.sizes(deal.rounds_)
    jobs = workers.jobs or os.cpu_count() or 1
    budget = method.budget
    seconds = (budget if budget is not None
               else len(counters) * stratified.estimated_seconds(sizes, jobs))
    confirm_long_run(seconds, f"a stratified count of {sizes.surveyed:,} rounds surveyed"
                     if budget is None else f"a --precision run of up to {budget / 60:g}"
                     " minutes", yes)
    results = []
    shared = stratified.SharedValues()  # (the systems' rounds are the same cards)
    began = time.monotonic()
    with workers.executor() as pool:
        for k, counter in enumerate(counters):
            label = f"{counter.system.name}: stratified count" if several else "stratified count"
            share = (None if budget is None else  # (what is left, over the systems left)
                     max(0.0, budget - (time.monotonic() - began)) / (len(counters) - k))
            with progress_bar(label) as tick:
                result = stratified_ramps.stratified_count(
                    counter, spread, bankroll, sizes, method.precision, share, pool,
                    _staged(tick), questions, limits, shared,
                    constraints if constraints is not None and constraints.given else None,
                    wong, optimize_wong)
            got = result.two_phase
            if (method.precision is not None and got is not None and got.score is not None
                    and got.score_se is not None
                    and got.score_se > method.precision * got.score):
                print(f"warning: {counter.system.name}: --max-minutes reached with SCORE's"
                      f" standard error {got.score_se / got.score:.2%} of SCORE, not"
                      f" {method.precision:.2%}", file=sys.stderr)
            results.append(result)
    return Comparison(tuple(results)) if several else results[0]


def _staged(tick: Callable[[int, int], None]) -> Callable[[str, int, int], None]:
    """A two-phase run's ``progress(stage, done, total)`` drawn on one bar."""
    return lambda _stage, done, total: tick(done, total)


def _warn_estimation(counters: list[BlackjackCounter], ramp: bool) -> None:
    """A ``warning:`` line where ``--deck-estimation`` (other than exact) has no effect: an
    unbalanced system (it reads its running count), or nothing reading the true count
    (no ramp, wonging, index plays or box ramp)."""
    for c in counters:
        if c.deck_estimation == "exact":
            continue
        if not c.system.balanced:
            print(f"warning: --deck-estimation {c.deck_estimation} has no effect on"
                  f" {c.system.name}: an unbalanced count bets by its running count, which"
                  " divides by no decks", file=sys.stderr)
        elif not ramp and not c.plays_by_count:
            print(f"warning: --deck-estimation {c.deck_estimation} has no effect without a"
                  " bet ramp (--spread), wonging, index plays or a box ramp: no decision"
                  " reads the true count", file=sys.stderr)


def _run(counters: list[BlackjackCounter], rounds: int, spread: Spread | None,
         bankroll: float | None, wong: Wong | None, workers: opt.Workers,
         limits: RampLimits | None, questions: RiskQuestions | None, several: bool,
         constraints: RampConstraints | None = None, optimize_wong: bool = False
         ) -> list[BlackjackCount]:
    """Each counter's run on the same seeded shoes (one progress bar each; the label names
    the system when ``several`` are compared), with ``limits`` each its own optimal ramp
    (the like-for-like comparison of counts on different scales), with ``questions``
    each its ramp's risk answers; ``constraints``: the optimal ramps'; ``optimize_wong``:
    each its best entry and exit counts."""
    from strategy_calc.counting import runs

    results = []
    with workers.executor() as pool:
        for counter in counters:
            label = f"{counter.system.name}: {rounds} rounds" if several else f"{rounds} rounds"
            with progress_bar(label) as tick:
                results.append(runs.blackjack_count(counter, rounds, spread, bankroll, pool,
                                                    tick, wong=wong, optimize=limits,
                                                    questions=questions,
                                                    constraints=constraints,
                                                    optimize_wong=optimize_wong))
    return results


def _plotted(result: BlackjackCount | Comparison, plot: Path | None
             ) -> BlackjackCount | Comparison:
    """``result``, drawn first with ``--plot`` (its EV by count)."""
    if plot is not None:
        from strategy_calc.counting.results import Comparison
        from strategy_calc.render.plots import comparison_plot, count_plot

        if isinstance(result, Comparison):
            comparison_plot(result, str(plot))
        else:
            count_plot(result, str(plot))
    return result
