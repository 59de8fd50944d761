"""Counting: effects of removal, counted runs and their ramps, compared systems, the count
systems."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from strategy_calc.cards import RANKS, Rank
from strategy_calc.counting import ramps
from strategy_calc.render.counted_sidebets import counted_sidebets_dict, counted_sidebets_table
from strategy_calc.render.text import estimate_dict, figure_dict, finite, plus_minus, render

if TYPE_CHECKING:
    from strategy_calc.counting.effects import EffectsOfRemoval
    from strategy_calc.counting.ramp_constraints import RampConstraints
    from strategy_calc.counting.ramps import OptimalRamp, RampFigures
    from strategy_calc.counting.results import (
        BlackjackCount,
        Comparison,
        ConstraintCost,
        OptimalWong,
        OptimisedRamp,
        RampResult,
    )
    from strategy_calc.counting.sampling import Estimate
    from strategy_calc.counting.stratified import TwoPhase
    from strategy_calc.counting.systems import CountSystem


def eor_dict(result: EffectsOfRemoval) -> dict[str, Any]:
    """The ``eor --json`` object (the ``game`` key is the CLI contract)."""
    decision = result.decision
    return {
        "game": dict(result.game),
        "decision": {
            "hand": ",".join(map(str, decision.hand)),
            "up": str(decision.up),
            "stand_minus_hit": dict(decision.effects),
            "full": decision.full,
            "deck_sum": decision.deck_sum,
        },
        "rules": result.rules.name,
        "decks": result.rules.decks,
        "ruleset": str(result.rules),
        "ev_full": result.ev_full,
        "deck_sum": result.deck_sum,
        "units": "EV per unit initial bet; one card of the rank removed from a full shoe",
        "conditioned_on_no_dealer_blackjack": {
            "game": False, "decision": result.rules.peek},
        "definition": result.definition,
        "definition_text": result.definition_text,
    }


def eor_text(result: EffectsOfRemoval) -> str:
    """The ``eor`` table: each rank's effect in percent of a unit bet, and the weighted sum."""
    from rich.table import Table

    rules = result.rules
    decision = result.decision
    label = f"{','.join(map(str, decision.hand))} vs {decision.up}"
    fixed = result.definition == "fixed-chart"
    kind = ", the full shoe's chart fixed" if fixed else ""
    table = Table(title=f"effects of removal{kind}, {rules} (EV per unit initial bet, in %)",
                  title_justify="left")
    table.add_column("rank removed")
    table.add_column("game EV", justify="right")
    table.add_column(f"{label}: stand - hit", justify="right")
    for rank in RANKS:
        table.add_row(rank.symbol, f"{100 * result.game[rank.symbol]:+.4f}",
                      f"{100 * decision.effects[rank.symbol]:+.4f}")
    table.add_row("weighted sum", f"{100 * result.deck_sum:+.4f}",
                  f"{100 * decision.deck_sum:+.4f}")
    cond = " (given no dealer blackjack)" if rules.peek else ""
    play = "chart" if fixed else "game"
    why = ("Exactly 0 up to rounding: the chart is fixed, and burning an unseen card does not"
           " change a fixed strategy's EV." if fixed else
           "Not exactly 0: it is 13 times the value of seeing one burned card, since the play"
           " is re-optimised for each shoe.")
    lines = [
        f"full shoe: {play} EV {100 * result.ev_full:+.4f}%; {label} stand - hit"
        f" {100 * decision.full:+.4f}%{cond}",
        f"weighted sum: A..9 once, T four times (one suit). {why}",
    ]
    return render(table, *lines)


def count_dict(result: BlackjackCount) -> dict[str, Any]:
    """The ``count --format json`` object of a blackjack run (the keys are a CLI contract)."""
    c = result.counter
    win = result.win_rate_per_round
    return {
        "rules": c.rules.name, "decks": c.rules.decks, "ruleset": str(c.rules),
        "strategy": c.strategy, "system": c.system.name,
        "penetration": None if result.one_round_per_shuffle else result.penetration,
        "cut_card": None if result.one_round_per_shuffle or not c.shoe_procedure.fixed_cut
        or c.shoe_procedure.shuffle == "continuous" else c.cut_card,
        "shoe_procedure": c.shoe_procedure.as_dict(),
        "one_round_per_shuffle": result.one_round_per_shuffle, "seats": c.seats,
        "count_kind": c.count_kind, "deck_estimation": c.deck_estimation,
        "deck_estimation_cost": _estimation_cost_dict(result),
        **({} if not c.play_errors else {"play_errors": c.play_errors,
                                         "play_errors_cost": _errors_cost_dict(result)}),
        "side_counts": {side.name: {"ranks": [Rank(r).symbol for r in sorted(side.ranks)],
                                    "weight": side.weight} for side in c.side} or None,
        "rounds": result.rounds, "shoes": result.shoes, "seed": c.seed,
        "method": result.method,
        "ev_per_round": estimate_dict(result.ev_per_round),
        "ev_off_the_top": result.ev_off_the_top,
        "cut_card_effect": estimate_dict(result.cut_card_effect),
        "by_true_count": [{"tc": row.tc, "frequency": row.frequency, "ev": row.ev}
                          for row in result.by_true_count],
        "spread": str(result.spread) if result.spread is not None else None,
        "win_rate_per_round": estimate_dict(win),
        "win_rate_per_100": figure_dict(100 * win.value, 100 * win.se)
        if win is not None else None,
        "sd_per_round": finite(result.sd_per_round),
        "sd_per_round_se": finite(result.sd_per_round_se),
        "n0": finite(result.n0),
        "score": finite(result.score) if result.two_phase is None else {
            "value": finite(result.score), "se": finite(result.score_se)},
        "score_se": finite(result.score_se), "di": finite(result.di),
        "bankroll": result.bankroll, "risk_of_ruin": finite(result.risk_of_ruin),
        **{f"{k}_se": finite(v) for k, v in _ramp_ses(result).items()},
        **_risks_dict(result),
        "distinguishable_from_zero": {
            "cut_card_effect": _told_apart(result.cut_card_effect),
            "win_rate_per_round": _told_apart(win)},
        "moment_every": c.moment_every if result.two_phase is None else None,
        "moment_rounds": result.moment_rounds,
        **({} if result.two_phase is None else {
            "stratified": two_phase_dict(result.two_phase)}),
        "wong": None if result.wong is None else {
            "enter": result.wong.enter, "exit": result.wong.exit,
            "share_played": result.share_played},
        **({} if result.optimal is None else {
            "optimal_ramp": optimal_ramp_dict(result.optimal, c.count_kind)}),
        **({} if result.optimal_wong is None else {
            "optimal_wong": _optimal_wong_dict(result.optimal_wong)}),
        **({} if c.boxes == 1 and not c.box_ramp else {
            "boxes": c.boxes,
            "box_ramp": {str(tc): n for tc, n in c.box_ramp} or None,
            "covariance_between_boxes": estimate_dict(result.covariance_between_boxes)}),
        **({} if result.sidebets is None else {
            "sidebets": counted_sidebets_dict(result.sidebets)}),
    }


def two_phase_dict(got: TwoPhase) -> dict[str, Any]:
    """``count --method stratified --json``'s ``"stratified"``: what the figures rest on."""
    return {
        "rounds_surveyed": got.sizes.surveyed, "exact_rounds": got.sizes.exact,
        "moment_rounds": got.sizes.moments, "pilot_rounds": got.pilot,
        "moment_pilot_rounds": got.moment_pilot,
        "residual_sd": finite(got.residual_sd),
        "moment_residual_sd": finite(got.moment_residual_sd),
        "score_se_survey": finite(got.score_se_survey),
        "score_se_exact": finite(got.score_se_exact),
        "score_se_moments": finite(got.score_se_moments),
        "precision": got.precision,
        "precision_reached": None if got.score is None or got.score_se is None
        else finite(got.score_se / got.score),
        "controls": got.controlled, "values_reused": got.values_reused,
        "seconds": got.seconds}


def _estimation_cost_dict(result: BlackjackCount) -> dict[str, Any] | None:
    """``deck_estimation_cost``: the ramp's SCORE with the decks estimated and known exactly
    on the same shoes, and the paired difference (None: exact, or no ramp)."""
    cost = result.deck_estimation_cost
    if cost is None:
        return None
    return {"score_exact": finite(cost.score_exact), "score": finite(cost.score),
            "difference": estimate_dict(cost.difference), "redealt": cost.redealt,
            "win_rate_difference": estimate_dict(cost.win_rate_difference)}


def _errors_cost_dict(result: BlackjackCount) -> dict[str, Any] | None:
    """``play_errors_cost``: the run's rounds valued with the play errors and without, and
    the paired differences (with errors less without)."""
    cost = result.play_errors_cost
    if cost is None:
        return None
    return {"ev_difference": estimate_dict(cost.ev_difference),
            "score_perfect": finite(cost.score_perfect), "score": finite(cost.score),
            "difference": estimate_dict(cost.difference),
            "win_rate_difference": estimate_dict(cost.win_rate_difference)}


def _errors_phrase(rate: float) -> str:
    """The text's first line on ``count --play-errors`` (nothing without errors)."""
    return (f" with play errors {rate:g} (each decision of an unsplit hand wrong with that"
            " chance)" if rate else "")


def _errors_rows(result: BlackjackCount, undetermined: str | None
                 ) -> list[tuple[str, str]]:
    """The text's rows of ``count --play-errors``' cost (none without errors); the SCOREs
    withheld as the run's is while its win rate is not told apart from 0."""
    errs = result.play_errors_cost
    if errs is None:
        return []
    rows = [(f"EV per round, play errors {errs.rate:g} less none (paired)",
             plus_minus(errs.ev_difference))]
    if errs.score_perfect is not None or errs.difference is not None:
        diff = errs.difference
        rows.append(("SCORE without play errors (same rounds)",
                     "-" if errs.score_perfect is None else undetermined
                     or f"{errs.score_perfect:.4g}"))
        rows.append((f"SCORE cost of play errors {errs.rate:g} (paired)",
                     "-" if diff is None else undetermined or f"{-diff.value:+.4g}"
                     + (f" +- {diff.se:.2g}" if math.isfinite(diff.se) else "")))
    if errs.win_rate_difference is not None:
        rows.append(("win per 100 rounds, with play errors less without (paired)",
                     plus_minus(errs.win_rate_difference, 100.0, "")))
    return rows


def _ramp_result_dict(r: RampResult) -> dict[str, Any]:
    """A ramp's figures over a run's rounds (``count --optimize-ramp``'s JSON)."""
    win, sd, sd_se = r.win_rate_per_round, r.sd_per_round, r.sd_per_round_se
    return {
        "win_rate_per_round": estimate_dict(win),
        "win_rate_per_100": figure_dict(100 * win.value, 100 * win.se),
        "sd_per_round": finite(sd), "sd_per_round_se": finite(sd_se),
        "sd_per_100": None if sd is None else figure_dict(
            10 * sd, 10 * sd_se if sd_se is not None else math.nan),
        "score": {"value": finite(r.score), "se": finite(r.score_se)},
        "n0": finite(r.n0), "di": finite(r.di), "risk_of_ruin": finite(r.risk_of_ruin),
        "hours_to_double": finite(r.hours_to_double),
    }


def _figures_dict(f: RampFigures) -> dict[str, float | None]:
    """A ramp's figures from per-count data: per 100 rounds, units."""
    return {"win_rate_per_100": 100 * f.win, "sd_per_100": 10 * f.sd,
            "score": finite(f.score), "n0": finite(f.n0), "di": finite(f.di),
            "risk_of_ruin": finite(f.risk_of_ruin),
            "hours_to_double": finite(f.hours_to_double)}


def optimal_ramp_dict(o: OptimisedRamp, kind: str = "true count") -> dict[str, Any]:
    """``count --optimize-ramp``'s ``"optimal_ramp"`` object (a CLI contract: the keys of
    issue 30 and those documented in docs/CLI.md)."""
    ramp, limits = o.ramp, o.ramp.limits
    spread = None
    if o.spread_result is not None and o.spread_figures is not None:
        spread = {"spread": str(o.spread_result.spread),
                  "within_limits": o.spread_within_limits,
                  "score_difference": estimate_dict(o.score_difference),
                  **_ramp_result_dict(o.spread_result),
                  "model": _figures_dict(o.spread_figures)}
    return {
        "criterion": ramp.criterion, "scale": ramp.scale,
        "bankroll": limits.bankroll, "min_bet": limits.min_bet, "max_bet": limits.max_bet,
        "kelly_fraction": limits.kelly_fraction, "max_ror": limits.max_ror,
        "rounds_per_hour": limits.rounds_per_hour,
        "count": "true" if kind == "true count" else "running",
        "bets": {str(tc): units for tc, units in ramp.bets},
        "by_count": [{"tc": b.tc, "frequency": b.frequency, "ev": b.ev,
                      "variance": b.variance, "second_moment": b.second_moment,
                      "sampled": b.sampled, "bet": units}
                     for b, (_tc, units) in zip(o.buckets, ramp.bets, strict=True)],
        **_ramp_result_dict(o.result),
        "model": _figures_dict(ramp.figures),
        "compared_with_spread": spread,
        **({} if o.constraints is None else _constraints_dict(o.constraints, ramp)),
    }


def _constraints_dict(c: ConstraintCost, ramp: OptimalRamp) -> dict[str, Any]:
    """``"optimal_ramp"``'s keys under constraints (docs/CLI.md): the constraints, the
    unconstrained optimum (same limits) and its SCORE over the same rounds and from the
    per-count data, the cost (unconstrained less constrained: over the rounds paired, and
    from the per-count data), and with several constraints each one's alone."""
    def cost(score: float | None) -> float | None:
        free = c.unconstrained.figures.score
        return None if free is None or score is None else finite(free - score)

    free = c.unconstrained_result
    k = c.constraints
    return {
        "constraints": {"bet_unit": k.bet_unit, "max_spread": k.max_spread,
                        "max_bet_levels": k.max_bet_levels},
        "unconstrained_bets": {str(tc): units for tc, units in c.unconstrained.bets},
        "unconstrained_score": {"value": finite(free.score), "se": finite(free.score_se)},
        "unconstrained_model_score": finite(c.unconstrained.figures.score),
        "constraint_cost_score": estimate_dict(c.cost),
        "constraint_cost_model_score": cost(ramp.figures.score),
        "each_constraint": {
            name: {"bets": {str(tc): units for tc, units in one.ramp.bets},
                   "score": {"value": finite(one.result.score),
                             "se": finite(one.result.score_se)},
                   "model_score": finite(one.ramp.figures.score),
                   "constraint_cost_score": estimate_dict(one.cost),
                   "constraint_cost_model_score": cost(one.ramp.figures.score)}
            for name, one in c.each},
    }


def _ramp_purpose(o: OptimisedRamp) -> str:
    """What the optimal ramp maximises, in words (its criterion, its constraints)."""
    ramp, limits = o.ramp, o.ramp.limits
    kelly = (f"{limits.kelly_fraction:g} x the Kelly bet for the bankroll"
             if limits.kelly_fraction is not None else "")
    if ramp.criterion == "score":
        why = "the ramp that maximises SCORE"
    elif ramp.criterion == "kelly":
        why = kelly
    else:
        why = (f"the highest win rate with a risk of ruin at most {limits.max_ror:g}"
               + (f", at most {kelly}" if kelly else ""))
    if o.constraints is not None:
        why += f" under {_constraint_words(o.constraints.constraints)}"
    return why


def _optimal_ramp_text(o: OptimisedRamp, kind: str = "true count") -> list[Any]:
    """The optimal ramp's tables: the bets by count, then its figures beside the hand
    ramp's (the same rounds)."""
    from rich.table import Table

    ramp, limits = o.ramp, o.ramp.limits
    why = _ramp_purpose(o)
    by_count = Table(title=f"optimal ramp ({why}; bets from {limits.min_bet:g} to"
                     f" {limits.max_bet:g} units, bankroll {limits.bankroll:g}): per"
                     f" {kind}, per unit bet", title_justify="left")
    for name in (kind, "frequency", "EV", "variance", "E[X^2] rounds", "bet"):
        by_count.add_column(name, justify="right")
    for b, (_tc, units) in zip(o.buckets, ramp.bets, strict=True):
        by_count.add_row(f"{b.tc:+d}", f"{b.frequency:.4f}", f"{100 * b.ev:+.3f}%",
                         f"{b.variance:.4f}", f"{b.sampled}" if b.sampled else "0 (pooled)",
                         f"{units:.2f}")
    figures = Table(title="the ramps over the same rounds, units (+- one standard error)",
                    title_justify="left")
    figures.add_column("figure")
    figures.add_column("optimal", justify="right")
    hand = o.spread_result
    if hand is not None:
        figures.add_column(f"--spread {hand.spread}", justify="right")

    def sd100(r: RampResult) -> str:
        if r.sd_per_round is None:
            return "-"
        se = r.sd_per_round_se
        return f"{10 * r.sd_per_round:.3f}" + (f" +- {10 * se:.3f}" if se is not None else "")

    def score_text(r: RampResult) -> str:
        if r.score is None:
            return "-"
        return f"{r.score:.3f}" + (f" +- {r.score_se:.3f}" if r.score_se is not None else "")

    def num(x: float | None, fmt: str = ".4g") -> str:
        return "-" if x is None else format(x, fmt)

    rows: list[tuple[str, Any]] = [
        ("win per 100 rounds", lambda r: plus_minus(r.win_rate_per_round, 100.0, "")),
        ("SD per 100 rounds", sd100),
        ("SCORE", score_text),
        ("N0 (rounds)", lambda r: num(r.n0)),
        ("DI", lambda r: num(r.di, ".3f")),
        (f"risk of ruin, bankroll {limits.bankroll:g}", lambda r: num(r.risk_of_ruin)),
        (f"hours to double at {limits.rounds_per_hour:g} rounds an hour",
         lambda r: num(r.hours_to_double, ",.0f")),
    ]
    for name, get in rows:
        figures.add_row(name, get(o.result), *([get(hand)] if hand is not None else []))
    model = [f"{ramp.figures.score:.3f}" if ramp.figures.score is not None else "-"]
    if o.spread_figures is not None:
        model.append(f"{o.spread_figures.score:.3f}" if o.spread_figures.score is not None
                     else "-")
    figures.add_row("SCORE from the per-count data" + (
        " (maximised)" if ramp.criterion == "score" else ""), *model)
    if o.score_difference is not None:
        d = o.score_difference
        figures.add_row("SCORE, optimal less --spread (paired SE)",
                        f"{d.value:+.3f}" + (f" +- {d.se:.3f}" if math.isfinite(d.se) else ""),
                        "")
    note = (f"Bets clip(scale x EV / E[X^2], min, max) per floored {kind} (scale"
            f" {ramp.scale:.4g}); E[X^2] the mean of a count's rounds with an exact second"
            " moment (pooled over all of them where it has none). The figures over the"
            " rounds use the same estimators as the hand ramp's; the ramp is chosen on the"
            " per-count data's figures (" + (
                "its SCORE" if ramp.criterion == "score" else
                "its risk of ruin" if ramp.criterion == "max-ror" else "the Kelly bets")
            + "), bet by bet, with no smoothing across counts.")
    if o.spread_within_limits is False:
        note += " The --spread ramp bets outside --min-bet..--max-bet."
    if o.constraints is None:
        return [by_count, figures, note]
    note = note.replace("Bets clip(scale x EV / E[X^2], min, max)", "Bets chosen under the"
                        " constraints (the exact optimum of the per-count data)")
    return [by_count, figures, note, _constraints_text(o.constraints, ramp)]


def _optimal_wong_dict(o: OptimalWong) -> dict[str, Any]:
    """``count --optimize-wong``'s ``"optimal_wong"`` object (docs/CLI.md)."""
    return {"enter": o.wong.enter, "exit": o.wong.exit, "share_played": o.share_played,
            "pairs_tried": o.tried, **_ramp_result_dict(o.result),
            "every_round": _ramp_result_dict(o.every_round),
            "score_gain": estimate_dict(o.gain),
            "score_gain_over_given": estimate_dict(o.given_gain)}


def _optimal_wong_text(o: OptimalWong, kind: str) -> str:
    """``--optimize-wong`` in a line or two."""
    def est(e: Estimate | None) -> str:
        if e is None:
            return "-"
        return f"{e.value:+.3f}" + (f" +- {e.se:.3f}" if math.isfinite(e.se) else "")

    r = o.result
    score = "-" if r.score is None else f"{r.score:.3f}" + (
        f" +- {r.score_se:.3f}" if r.score_se is not None else "")
    text = (f"Best wonging of {o.tried} pairs of whole counts: in at {kind} >="
            f" {o.wong.enter:g}, out below {o.wong.exit:g} ({o.share_played:.1%} of rounds"
            f" played): SCORE {score} per round observed; " + (
                f"against playing every round {est(o.gain)} (paired SE)" if o.gain is not None
                else "playing every round has no SCORE (it does not win)"
                if o.every_round.score is None else "playing every round SCORE"
                f" {o.every_round.score:.3f} (no paired SE of the gain under this method)"))
    if o.given_gain is not None:
        text += f", against --enter/--exit {est(o.given_gain)}"
    return text + " (chosen on these rounds: an upper estimate)."


def _constraint_words(k: RampConstraints) -> str:
    """The constraints in words.

    >>> from strategy_calc.counting.ramp_constraints import RampConstraints
    >>> _constraint_words(RampConstraints(bet_unit=1, max_bet_levels=3))
    'bets in multiples of 1 unit, at most 3 bet sizes'
    """
    words = []
    if k.bet_unit is not None:
        words.append(f"bets in multiples of {k.bet_unit:g} unit"
                     + ("" if k.bet_unit == 1 else "s"))
    if k.max_spread is not None:
        words.append(f"a spread of at most {k.max_spread:g} to 1")
    if k.max_bet_levels is not None:
        words.append(f"at most {k.max_bet_levels} bet size"
                     + ("" if k.max_bet_levels == 1 else "s"))
    return ", ".join(words)


def _constraints_text(c: ConstraintCost, ramp: OptimalRamp) -> str:
    """What the constraints cost: a line or two."""
    def est(e: Estimate | None) -> str:
        if e is None:
            return "-"
        return f"{e.value:.3f}" + (f" +- {e.se:.3f}" if math.isfinite(e.se) else "")

    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:.3f}"

    def score(r: RampResult) -> str:
        return ("-" if r.score is None else f"{r.score:.3f}"
                + (f" +- {r.score_se:.3f}" if r.score_se is not None else ""))

    paired = c.cost is not None or any(one.cost is not None for _name, one in c.each)
    if paired:
        text = (f"Constraints ({_constraint_words(c.constraints)}): they cost {est(c.cost)}"
                f" SCORE over these rounds (the unconstrained optimum's SCORE"
                f" {score(c.unconstrained_result)} less the constrained one's, paired SE);")
    else:  # (the two-phase method: each SCORE over the same survey and samples)
        text = (f"Constraints ({_constraint_words(c.constraints)}): over the same survey and"
                f" samples the unconstrained optimum's SCORE is"
                f" {score(c.unconstrained_result)} (no paired SE of the difference under this"
                " method);")
    text += (f" from the per-count data {num(c.unconstrained.figures.score)} unconstrained,"
             f" {num(ramp.figures.score)} constrained.")
    if c.each:
        text += (" Each alone: " if paired else " Each alone, its SCORE: ") + "; ".join(
            f"{_constraint_words(one.constraints)}"
            f" {est(one.cost) if paired else score(one.result)}" for _name, one in c.each
        ) + "."
    return text


def count_text(result: BlackjackCount) -> str:
    """The blackjack ``count`` report: the figures, then EV and frequency by true count."""
    from rich.table import Table

    c = result.counter
    dealt = ("one round per shuffle (single_deck_one_round), so every round is dealt off"
             " the top and the cut-card effect is exactly 0" if result.one_round_per_shuffle
             else c.shoe_procedure.describe() if c.shoe_procedure.shuffle == "continuous"
             else f"{c.shoe_procedure.describe()} (penetration {result.penetration:.1%})")
    seats = (f"; {c.seats} boxes at the table, the player's first, the others playing the"
             " same plan and their cards counted" if c.seats > 1 else "")
    if c.boxes > 1 or c.box_ramp:
        ramp = "".join(f", {n} from {tc:+d}" for tc, n in c.box_ramp)
        seats += (f"; the player plays {c.boxes} box{'es' if c.boxes > 1 else ''}{ramp},"
                  " each at the round's bet: a round's EV and SD are their total's")
    kind = c.count_kind
    irc_decks = c.rules.finite_decks("count")
    judged = {"exact": "per deck unseen",
              "half": "per deck unseen judged to the nearest half deck",
              "whole": "per deck unseen judged to the nearest deck"}[c.deck_estimation]
    keyed = (f"true count (running count {judged})" if kind == "true count" else
             f"running count from its IRC ({c.system.initial_running_count(irc_decks):g};"
             " an unbalanced count: bets, table and wonging by the running count)")
    sides = "".join(
        f"; bets add {side.weight:+.3f} points per card of its {side.name} side count"
        f" ({','.join(Rank(r).symbol for r in sorted(side.ranks))}) seen beyond the shoe's"
        " share (plays read the main count)" for side in c.side)
    head = (f"{c.rules}; {c.strategy} play{_errors_phrase(c.play_errors)}, {c.system.name}"
            f" {keyed} before each deal"
            f"{sides}; {result.rounds} rounds from {result.shoes}"
            f" shoes (seed {c.seed}), {dealt}{seats}")
    figures = Table(title="per round, units of the initial bet (+- one standard error)",
                    title_justify="left")
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    figures.add_row("EV per round, flat bets, " + (
        "as dealt" if result.one_round_per_shuffle else "cut card"),
        plus_minus(result.ev_per_round))
    figures.add_row("EV off the top (exact)", f"{100 * result.ev_off_the_top:+.4f}%")
    figures.add_row("cut-card effect", plus_minus(result.cut_card_effect)
                    + _zero_note(result.cut_card_effect))
    if result.covariance_between_boxes is not None:
        cov = result.covariance_between_boxes
        figures.add_row("covariance between two boxes (exact per round, mean)",
                        f"{cov.value:.4f} +- {cov.se:.4f}")
    if result.wong is not None and result.share_played is not None:
        figures.add_row(f"wonging: in at {kind} >= {result.wong.enter:g}, out below"
                        f" {result.wong.exit:g}", f"{result.share_played:.1%} of rounds played")
    if result.spread is not None or result.wong is not None:
        win = result.win_rate_per_round
        figures.add_row(f"ramp {result.spread or 'flat 1 unit'}: win per round observed"
                        if result.wong is not None else f"ramp {result.spread}: win per round",
                        plus_minus(win, 1.0, "") + _zero_note(win))
        if win is not None:
            figures.add_row("win per 100 rounds" + (" observed" if result.wong else ""),
                            plus_minus(win, 100.0, ""))
    sd, sd_se = result.sd_per_round, result.sd_per_round_se
    figures.add_row("SD per round" + (" (ramp)" if result.spread is not None else ""),
                    "-" if sd is None else f"{sd:.4f}" + (
                        f" +- {sd_se:.4f}" if sd_se is not None else ""))
    ses = _ramp_ses(result)
    undetermined = ("not given: the win rate is not told apart from 0"
                    if not _told_apart(result.win_rate_per_round) else None)
    for key, name, value in (
            ("n0", "N0 (rounds)", result.n0), ("score", "SCORE", result.score),
            ("di", "DI", result.di),
            ("risk_of_ruin", f"risk of ruin, bankroll {result.bankroll:g}"
             if result.bankroll else "risk of ruin", result.risk_of_ruin)):
        if result.spread is None and result.wong is None:
            continue
        se = ses.get(key)
        shown = ("-" if value is None else f"{value:.4g}"
                 + (f" +- {se:.2g}" if se is not None and math.isfinite(se) else ""))
        figures.add_row(name, undetermined if undetermined and value is not None else shown)
    for name, shown in [*_risk_rows(result, undetermined),
                        *_errors_rows(result, undetermined)]:
        figures.add_row(name, shown)
    cost = result.deck_estimation_cost
    if cost is not None:  # (withheld as the run's SCORE is, while it is not told apart)
        diff = cost.difference
        figures.add_row("SCORE, decks known exactly (same shoes)",
                        "-" if cost.score_exact is None else undetermined
                        or f"{cost.score_exact:.4g}")
        figures.add_row(f"SCORE cost of {c.deck_estimation}-deck estimation (paired)",
                        "-" if diff is None else undetermined or f"{-diff.value:+.4g}" + (
                            f" +- {diff.se:.2g}" if math.isfinite(diff.se) else ""))
        dw = cost.win_rate_difference
        if dw is not None:
            figures.add_row("win per 100 rounds, estimated less exact decks (paired)",
                            plus_minus(dw, 100.0, ""))
    by_tc = Table(title=f"by {kind} (floored)", title_justify="left")
    by_tc.add_column(kind, justify="right")
    by_tc.add_column("frequency", justify="right")
    by_tc.add_column("EV per round", justify="right")
    for row in result.by_true_count:
        by_tc.add_row(f"{row.tc:+d}", f"{row.frequency:.4f}", f"{100 * row.ev:+.3f}%")
    note = (f"second moments exact on {result.moment_rounds} rounds (one in"
            f" {c.moment_every}); every round's EV exact")
    got = result.two_phase
    if got is not None:
        aim = "" if got.precision is None else f", aim {got.precision:.2%} of SCORE"
        reached = ("" if got.score is None or got.score_se is None
                   else f"; SCORE's SE {got.score_se / got.score:.2%} of it{aim}")
        note = (f"method stratified: {got.sizes.surveyed:,} rounds surveyed (dealt by the"
                f" chart), {got.sizes.exact:,} exact EVs and {got.sizes.moments:,} exact second"
                f" moments among them{reached}; {got.seconds:.0f} s")
    extra = [] if result.optimal is None else _optimal_ramp_text(result.optimal, c.count_kind)
    if result.optimal_wong is not None:
        extra.append(_optimal_wong_text(result.optimal_wong, kind))
    if result.sidebets is not None:
        extra.append(counted_sidebets_table(result.sidebets))
    return render(head, figures, note, by_tc, *extra)


RISK_NAMES = ("trip_risk_of_ruin", "goal_probability", "bankroll_for_target_ror",
              "rounds_to_confidence", "hours_to_confidence")
"""The risk answers' JSON keys (each with its ``_se``), in the order printed."""


def _risks_dict(result: BlackjackCount) -> dict[str, Any]:
    """The risk answers' keys, each asked one and its standard error (null: no value, or
    no standard error), plus ``trip_rounds`` with a trip; none without questions."""
    risks = result.risks
    if risks is None:
        return {}
    out: dict[str, Any] = {} if risks.trip_rounds is None else {
        "trip_rounds": risks.trip_rounds}
    for key in RISK_NAMES:
        answer = getattr(risks, key)
        if answer is not None:
            out[key] = finite(answer.value)
            out[f"{key}_se"] = finite(answer.se)
    return out


def _risk_rows(result: BlackjackCount, undetermined: str | None) -> list[tuple[str, str]]:
    """The text rows of the risk answers (a reason where there is no value)."""
    risks = result.risks
    if risks is None:
        return []
    q = risks.questions
    bank = f"{result.bankroll:g}" if result.bankroll is not None else "-"
    names = {
        "trip_risk_of_ruin": f"risk of ruin within {q.trip or 0:,.0f} rounds, bankroll {bank}",
        "goal_probability": f"chance to win {q.goal or 0:g} before losing {bank}",
        "bankroll_for_target_ror": f"bankroll for a risk of ruin of {q.target_ror or 0:g}",
        "rounds_to_confidence": f"rounds to be ahead with chance {q.confidence or 0:g}",
        "hours_to_confidence": f"hours to be ahead with chance {q.confidence or 0:g}"
                               + (f" ({q.rounds_per_hour:g} rounds/hour)"
                                  if q.rounds_per_hour else ""),
    }
    divides_by_win = ("bankroll_for_target_ror", "rounds_to_confidence", "hours_to_confidence")
    rows = []
    for key in RISK_NAMES:
        answer = getattr(risks, key)
        if answer is None:
            continue
        if answer.value is None:
            shown = f"none: {answer.reason}"
        elif undetermined and key in divides_by_win:
            shown = undetermined
        else:
            shown = f"{answer.value:.4g}" + (
                f" +- {answer.se:.2g}" if answer.se is not None and math.isfinite(answer.se)
                else "")
        rows.append((names[key], shown))
    return rows


def _told_apart(e: Estimate | None) -> bool | None:
    """Whether an estimate lies two standard errors or more from 0 (None: no estimate)."""
    return None if e is None else ramps.distinguishable_from_zero(e.value, e.se)


def _zero_note(e: Estimate | None) -> str:
    return " (not told apart from 0)" if _told_apart(e) is False else ""


def _ramp_ses(result: BlackjackCount) -> dict[str, float]:
    """The standard errors of N0, SCORE, DI and the risk of ruin (delta method, from the
    win rate's and the SD's: :mod:`strategy_calc.counting.ramps`), where they exist."""
    win, sd, sd_se = result.win_rate_per_round, result.sd_per_round, result.sd_per_round_se
    if win is None or sd is None or sd_se is None or not sd > 0 or not win.value > 0:
        return {}
    out = {"n0": ramps.n0_se(win.value, win.se, sd, sd_se),
           "di": ramps.di_se(win.value, win.se, sd, sd_se)}
    if result.score_se is not None:
        out["score"] = result.score_se
    if result.bankroll:
        out["risk_of_ruin"] = ramps.risk_of_ruin_se(win.value, win.se, sd, sd_se,
                                                    result.bankroll)
    return out


def comparison_dict(result: Comparison) -> dict[str, Any]:
    """``count --compare --format json``: ``{"systems": {NAME: {...count's keys...}},
    "paired": true}`` (the same seeded shoes for every system)."""
    return {"systems": {r.counter.system.name: count_dict(r) for r in result.results},
            "paired": True}


def comparison_text(result: Comparison) -> str:
    """One row per system: win rate, SD, SCORE (+- its SE), N0, DI, from the same shoes."""
    from rich.table import Table

    first = result.results[0]
    c = first.counter
    head = (f"{c.rules}; {c.strategy} play; {first.rounds} rounds from {first.shoes} shoes"
            f" (seed {c.seed}), the same shoes for every system; ramp {first.spread or 'flat'}")
    table = Table(title="per 100 rounds, units (+- one standard error)", title_justify="left")
    for name, justify in (("system", "left"), ("win / 100", "right"), ("SD / round", "right"),
                          ("SCORE", "right"), ("N0", "right"), ("DI", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in result.results:
        table.add_row(
            r.counter.system.name, plus_minus(r.win_rate_per_round, 100.0, ""),
            f"{r.sd_per_round:.4f}" if r.sd_per_round is not None else "-",
            (f"{r.score:.2f}" + (f" +- {r.score_se:.2f}" if r.score_se is not None else ""))
            if r.score is not None else "-",
            f"{r.n0:.4g}" if r.n0 is not None else "-",
            f"{r.di:.3f}" if r.di is not None else "-")
    note = ("SCORE's SE by the delta method from the win rate's and the SD's, their"
            " covariance taken as 0; the systems' differences are paired (same shoes)")
    if any(r.two_phase is not None for r in result.results):
        note = ("method stratified: each system's own survey of the same seeded shoes and"
                " its own sample of exact rounds; SCORE's SE by the delta method, jointly"
                " in the win rate and E[X^2] (MODEL.md, 'Two-phase estimation')")
    optimal = [r for r in result.results if r.optimal is not None]
    if not optimal:
        return render(head, table, note)
    best = Table(title="each system's own optimal ramp (--optimize-ramp), per 100 rounds,"
                 " units", title_justify="left")
    for name, justify in (("system", "left"), ("count", "left"), ("win / 100", "right"),
                          ("SCORE", "right"), ("N0", "right"), ("DI", "right")):
        best.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in optimal:
        o = r.optimal
        assert o is not None
        got = o.result
        best.add_row(
            r.counter.system.name, r.counter.count_kind,
            plus_minus(got.win_rate_per_round, 100.0, ""),
            (f"{got.score:.2f}" + (f" +- {got.score_se:.2f}" if got.score_se is not None
                                   else "")) if got.score is not None else "-",
            f"{got.n0:.4g}" if got.n0 is not None else "-",
            f"{got.di:.3f}" if got.di is not None else "-")
    return render(head, table, note, best,
                  "Each ramp is chosen on its own system's counts from the same rounds it is"
                  " scored on (an upper estimate; MODEL.md, \"Optimal bet ramps\").")


# ---------------------------------------------------------------- count systems
def counts_dict(systems: Sequence[CountSystem]) -> dict[str, Any]:
    """The ``counts --json`` object: ``{"systems": {NAME: {"tags": {"A": t, ..., "T": t},
    "balanced", "side_counts", "divisor", "source", ...}}}``.

    >>> from strategy_calc.counting.systems import HILO
    >>> counts_dict([HILO])["systems"]["hilo"]["balanced"]
    True
    """
    return {"systems": {s.name: s.as_dict() for s in systems}}


def counts_text(systems: Sequence[CountSystem]) -> str:
    """One line of tags per system, then what each is and where its tags come from."""
    import textwrap

    head = f"{'system':<10} " + " ".join(f"{r.symbol:>4}" for r in RANKS) + "  deck  divisor"
    lines = [head, "-" * len(head)]
    for s in systems:
        tags = s.as_dict()["tags"]
        cells = []
        for r in RANKS:
            t = tags[r.symbol]
            text = f"{t:+g}" if t else "0"
            if r is Rank.SEVEN and s.red_seven is not None:
                text = f"{s.red_seven:+g}r/{text}"
            cells.append(f"{text:>4}")
        lines.append(f"{s.name:<10} " + " ".join(cells)
                     + f"  {s.deck_sum:+4g}  {s.divisor}, {s.rounding}")
    lines.append("")
    for s in systems:
        extra = []
        if not s.balanced:
            extra.append("unbalanced" + (f": IRC {s.irc[0]:+g} x decks {s.irc[1]:+g}"
                                         if s.irc else "")
                         + (f", pivot {s.pivot:+g}" if s.pivot is not None else ""))
        if s.side_counts:
            extra.append("side counts: " + ", ".join(
                f"{k} ({' '.join(Rank(r).symbol for r in v)})" for k, v in s.side_counts.items()))
        lines += textwrap.wrap(f"{s.name}: {s.source}"
                               + (f" [{'; '.join(extra)}]" if extra else ""),
                               79, subsequent_indent="    ")
    lines.append("")
    lines += textwrap.wrap("count --system takes every system: a balanced one bets and plays"
                           " by its true count, an unbalanced one bets and wongs by its"
                           " running count from its IRC; a system's side counts weigh its"
                           " bets (--no-side-counts: not). indices --count takes the"
                           " balanced ones (an index is a true count).", 79)
    return "\n".join(lines)
