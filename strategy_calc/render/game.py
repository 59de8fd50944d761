"""Whole-game figures: the house edge, boxes, the bonuses' value, risk, sweeps."""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from strategy_calc.cards import Rank
from strategy_calc.render.text import finite, render
from strategy_calc.rules import BlackjackRules
from strategy_calc.rules.shoe import continuous_note

if TYPE_CHECKING:
    from strategy_calc.blackjack.boxes import BoxFigures
    from strategy_calc.blackjack.game_analysis import GameAnalysis, OptimalEdge
    from strategy_calc.blackjack.optimal_game import OptimalGame
    from strategy_calc.blackjack.sweep import SweepResult, SweepRow
    from strategy_calc.blackjack.whatif import BonusValue


def edge_dict(game: GameAnalysis | OptimalEdge, strategy: str, ev: float) -> dict[str, Any]:
    """The ``edge --json`` object: ``ev`` of ``strategy`` (per unit initial bet, dealer
    blackjacks included), the optimal-play EV, and by up card where the pass has them
    (``game``: the whole analysis, or for ``optimal`` the optimal play's alone)."""
    rules = game.rules
    data: dict[str, Any] = {
        "rules": rules.name, "decks": rules.decks, "strategy": strategy, "ev": ev,
        "house_edge": -ev, "rtp": 1.0 + ev, "ruleset": str(rules),
        "ev_optimal": game.ev_optimal, "split_strategy": game.split_strategy}
    by_up = game.by_up_card(strategy)
    if by_up is not None:
        data["by_up_card"] = by_up
    note = continuous_note(rules)
    if note is not None:
        data["shoe_note"] = note
    return data


def edge_text(game: GameAnalysis | OptimalEdge, strategy: str, ev: float) -> str:
    """One line per figure, the EV by up card, and what the strategy costs against
    optimal play."""
    data = edge_dict(game, strategy, ev)
    lines = [f"{game.rules}\nstrategy: {strategy}\nEV per unit initial bet: {ev:+.6f}\n"
             f"house edge: {-ev * 100:.4f}%   return to player: {100 + ev * 100:.4f}%"]
    if "by_up_card" in data:
        cells = [f"{up} {value * 100:+.2f}%" for up, value in data["by_up_card"].items()]
        lines.append("EV by up card (dealer blackjacks included):")
        lines.append("  " + "   ".join(cells[:5]) + "\n  " + "   ".join(cells[5:]))
    if strategy != "optimal":
        lines.append(f"(optimal play: house edge {-game.ev_optimal * 100:.4f}%, so this"
                     f" strategy costs {(game.ev_optimal - ev) * 100:.4f} points)")
    if "shoe_note" in data:
        lines.append(f"note: {data['shoe_note']}")
    return "\n".join(lines)


def cases_dict(run: OptimalGame) -> dict[str, Any]:
    """The keys the fully optimal split's cases add to ``edge --json`` (``--jobs``,
    ``--scheduler``, ``--cache``): ``cases``, one object per (pair, up card) in the order
    they were combined (``pair``, ``up`` symbols; ``split_raw``: the split's raw EV, all
    hands; ``seconds`` on its worker; ``peak_rss_mib``: the worker process's peak resident
    memory during the task; ``memo_mib``: the solver's memos; ``states``; ``cached``), and
    ``cases_summary`` (their count, how many came from the cache, the seconds summed, the
    largest peak).

    >>> from strategy_calc.blackjack.game_analysis import OptimalEdge
    >>> from strategy_calc.blackjack.optimal_game import CaseResult, OptimalGame
    >>> from strategy_calc.rules import blackjack_rules
    >>> one = CaseResult(8, 10, -0.5, 3, 4, 2**20, 1.5, 3 * 2**20)
    >>> d = cases_dict(OptimalGame(OptimalEdge(blackjack_rules(), 0.0, {}), (one,)))
    >>> d["cases"][0]["pair"], d["cases"][0]["up"], d["cases_summary"]["peak_rss_mib_max"]
    ('8', 'T', 3.0)
    """
    cases = [{"pair": Rank(c.pair).symbol, "up": Rank(c.up).symbol, "split_raw": c.raw,
              "seconds": c.seconds, "peak_rss_mib": c.peak_rss_bytes / 2**20,
              "memo_mib": c.memo_bytes / 2**20, "states": c.states,
              "dealer_evaluations": c.dealer_evaluations, "cached": c.cached}
             for c in run.cases]
    peaks = [c.peak_rss_bytes / 2**20 for c in run.cases]
    return {"cases": cases, "cases_summary": {
        "cases": len(cases), "cached": sum(1 for c in run.cases if c.cached),
        "seconds": sum(c.seconds for c in run.cases),
        "peak_rss_mib_min": min(peaks, default=0.0),
        "peak_rss_mib_max": max(peaks, default=0.0)}}


def cases_text(run: OptimalGame) -> str:
    """The cases of :func:`cases_dict` as a table: seconds and peak MiB per pair (rows)
    and up card (columns), ``*`` marking a case read from the cache."""
    data = cases_dict(run)
    summary = data["cases_summary"]
    ups = list(dict.fromkeys(c["up"] for c in data["cases"]))
    pairs = list(dict.fromkeys(Rank(c.pair).symbol for c in sorted(run.cases,
                                                                   key=lambda c: c.pair)))
    cell = {(c["pair"], c["up"]): c for c in data["cases"]}
    lines = [f"fully optimal split cases: {summary['cases']} ({summary['cached']} from the"
             f" cache), {summary['seconds']:.1f} s of work, peak memory"
             f" {summary['peak_rss_mib_min']:.0f} to {summary['peak_rss_mib_max']:.0f} MiB"]
    shows: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
        ("seconds", lambda c: f"{c['seconds']:.1f}"),
        ("peak MiB", lambda c: f"{c['peak_rss_mib']:.0f}"))
    for title, show in shows:
        lines.append(f"{title} by pair (rows) and up card (columns):")
        lines.append("      " + "".join(f"{up:>8}" for up in ups))
        for pair in pairs:
            row = [(show(cell[(pair, up)]) + ("*" if cell[(pair, up)]["cached"] else ""))
                   if (pair, up) in cell else "-" for up in ups]
            lines.append(f"  {pair},{pair} " + "".join(f"{v:>8}" for v in row))
    if summary["cached"]:
        lines.append("(* read from the cache: the time and memory of the run that made it)")
    return "\n".join(lines)


def boxes_dict(fig: BoxFigures) -> dict[str, Any]:
    """The keys ``--boxes N`` adds to ``hand`` and ``edge`` JSON: ``boxes``,
    ``covariance_between_boxes`` (``{"value", "se"}`` as ``count`` gives it; exact here, so
    ``se`` 0) and ``box_figures``: per unit bet a box, each box its own optimum off the top.

    >>> from strategy_calc.blackjack.boxes import BoxFigures
    >>> d = boxes_dict(BoxFigures(2, 0.0, 1.3, 0.5))
    >>> d["boxes"], d["covariance_between_boxes"], d["box_figures"]["variance_per_round"]
    (2, {'value': 0.5, 'se': 0.0}, 3.6)
    """
    return {
        "boxes": fig.boxes,
        "covariance_between_boxes": {"value": fig.covariance, "se": 0.0},
        "box_figures": {
            "boxes": fig.boxes, "play": fig.play, "ev_per_box": fig.ev_per_box,
            "variance_per_box": fig.variance_per_box,
            "sd_per_box": math.sqrt(fig.variance_per_box),
            "second_moment_per_box": fig.second_moment_per_box,
            "covariance_between_boxes": fig.covariance,
            "correlation_between_boxes": fig.correlation,
            "ev_per_round": fig.ev_per_round, "variance_per_round": fig.variance_per_round,
            "sd_per_round": fig.sd_per_round},
    }


def boxes_text(fig: BoxFigures) -> str:
    """The lines ``--boxes N`` adds to ``hand`` and ``edge`` text.

    >>> from strategy_calc.blackjack.boxes import BoxFigures
    >>> # variance 1.3 - 0.005^2 = 1.299975; covariance 0.5 - 0.005^2 = 0.499975;
    >>> # a round: 2 x 1.299975 + 2 x 0.499975 = 3.5999
    >>> print(boxes_text(BoxFigures(2, -0.005, 1.3, 0.5)))  # doctest: +NORMALIZE_WHITESPACE
    2 boxes off the top, each box its own optimal play (insurance declined), per unit a box:
      EV per box -0.5000%   variance per box 1.3000 (SD 1.1402)
      covariance between two boxes 0.5000 (correlation 0.385)
      a round of 2 boxes: EV -0.0100 units, variance 3.5999, SD 1.8973
    """
    n = fig.boxes
    how = "its own optimal play" if fig.play == "optimal" else "playing the chart"
    return (f"{n} box{'es' if n > 1 else ''} off the top, each box {how}"
            " (insurance declined), per unit a box:\n"
            f"  EV per box {fig.ev_per_box * 100:+.4f}%   variance per box"
            f" {fig.variance_per_box:.4f} (SD {math.sqrt(fig.variance_per_box):.4f})\n"
            f"  covariance between two boxes {fig.covariance:.4f}"
            f" (correlation {fig.correlation:.3f})\n"
            f"  a round of {n} box{'es' if n > 1 else ''}: EV {fig.ev_per_round:+.4f} units,"
            f" variance {fig.variance_per_round:.4f}, SD {fig.sd_per_round:.4f}")


def bonus_dict(value: BonusValue) -> dict[str, Any]:
    """The ``bonus --json`` object: EVs (optimal play) and the plays the bonuses change."""
    return {
        "rules": value.rules.name, "decks": value.rules.decks, "ruleset": str(value.rules),
        "ev_with_bonuses": value.ev_with, "ev_without_bonuses": value.ev_without,
        "bonus_value": value.ev_with - value.ev_without,
        "value_777": value.ev_777_only - value.ev_without,
        "value_suited_678": value.ev_678_only - value.ev_without,
        "chart_changes": [dict(zip(("row", "up", "without", "with"), c, strict=True))
                          for c in value.chart_changes],
        "changed_plays": [dict(zip(("hand", "up", "without", "with"), c, strict=True))
                          for c in value.changed],
    }


def bonus_text(value: BonusValue) -> str:
    """The bonus value in points of return, then the changed plays."""
    d = bonus_dict(value)
    lines = [
        f"{value.rules}",
        f"return with the bonuses:    {100 + value.ev_with * 100:.4f}% (optimal play)",
        f"return without the bonuses: {100 + value.ev_without * 100:.4f}%",
        f"the bonuses add {d['bonus_value'] * 100:.4f} points: 7-7-7 alone"
        f" {d['value_777'] * 100:.4f}, suited 6-7-8 alone {d['value_suited_678'] * 100:.4f}",
        "chart cells changed: " + (", ".join(f"{r} vs {u}: {a} -> {b}"
                                              for r, u, a, b in value.chart_changes) or "none"),
        "best plays changed: " + (", ".join(f"{h} vs {u}: {a} -> {b}"
                                             for h, u, a, b in value.changed) or "none"),
    ]
    return render(*lines)


def _outcome_key(x: float) -> str:
    """``-2.0`` -> ``"-2"``, ``1.5`` -> ``"1.5"``, ``-0.5`` -> ``"-0.5"``."""
    return f"{x:g}"


def risk_dict(rules: BlackjackRules, strategy: str, ev: float, summary: Any) -> dict[str, Any]:
    """The ``risk --json`` object. With resplits the distribution is not enumerated:
    ``outcomes``, ``risk_of_ruin``, ``loss_probability`` and ``quantiles`` are null and
    ``distribution`` says why (``ev`` and ``sd`` are exact either way)."""
    outcomes = summary.outcomes
    return {
        "rules": rules.name, "decks": rules.decks, "ruleset": str(rules), "strategy": strategy,
        "ev": summary.mean, "ev_game": ev, "sd": summary.sd,
        "distribution": "exact" if outcomes is not None else RESPLIT_NOTE,
        "outcomes": None if outcomes is None
        else {_outcome_key(x): p for x, p in sorted(outcomes.items())},
        "bankroll": summary.bankroll, "rounds": summary.rounds,
        "risk_of_ruin": summary.risk_of_ruin,
        "risk_of_ruin_normal": summary.risk_of_ruin_normal,
        "log10_risk_of_ruin_normal": finite(summary.log10_risk_of_ruin_normal),
        "loss_probability": summary.loss_probability,
        "loss_probability_normal": summary.loss_probability_normal,
        "quantiles": None if summary.quantiles is None else dict(summary.quantiles),
        "quantiles_normal": dict(summary.quantiles_normal),
    }


RESPLIT_NOTE = ("not enumerated with resplits (max_split_hands > 2): the round's exact mean"
                " and SD (every split hand's moments and every pair of hands' joint moments),"
                " and the normal approximation from them")
"""Why ``risk`` gives no exact distribution (and no exact risk of ruin) with resplits."""


def _risk_cell(data: Mapping[str, Any]) -> str:
    """The normal approximation's risk; below 1e-6, its power of ten as well (a risk
    below the smallest double prints as 0 with its log)."""
    risk, log10 = data["risk_of_ruin_normal"], data["log10_risk_of_ruin_normal"]
    if risk >= 1e-6 or log10 is None:
        return f"{risk:.6f}"
    return f"{risk:.6f} (10^{log10:.1f})"


def risk_text(data: Mapping[str, Any]) -> str:
    """The round distribution and the bankroll figures, exact next to normal."""
    from rich.table import Table

    enumerated = data["outcomes"] is not None
    dist: Table | str = f"a round's distribution: {data['distribution']}"
    if enumerated:
        dist = Table(title="a round's net result", title_justify="left")
        dist.add_column("result", justify="right")
        dist.add_column("probability", justify="right")
        for key, p in data["outcomes"].items():
            dist.add_row(key, f"{p:.8f}")
    figures = Table(title=f"bankroll {data['bankroll']:g} units, {data['rounds']} rounds, flat"
                    " bets", title_justify="left")
    figures.add_column("")
    figures.add_column("exact", justify="right")
    figures.add_column("normal approx.", justify="right")

    def exact(key: str, form: str) -> str:
        return format(data[key], form) if enumerated else "-"

    figures.add_row("risk of ruin", exact("risk_of_ruin", ".6f"), _risk_cell(data))
    figures.add_row("P(behind at the end)", exact("loss_probability", ".6f"),
                    f"{data['loss_probability_normal']:.6f}")
    for q, value in data["quantiles_normal"].items():
        figures.add_row(f"result, {q} quantile",
                        f"{data['quantiles'][q]:+.1f}" if enumerated else "-", f"{value:+.1f}")
    head = f"EV per round {data['ev']:+.6f}, SD {data['sd']:.6f}"
    return render(f"{data['ruleset']}; {data['strategy']} play, results in units of the"
                  " initial bet", dist, head, figures)


def sweep_dict(result: SweepResult) -> dict[str, Any]:
    """The ``sweep --format json`` object (the CLI contract's keys)."""

    def row(r: SweepRow) -> dict[str, Any]:
        return {"ruleset": r.ruleset, "overrides": dict(r.overrides), "ev": r.ev,
                "house_edge": r.house_edge, "rtp": r.rtp, "effect": r.effect,
                **({"label": r.label} if r.label else {})}

    data: dict[str, Any] = {"rules": result.name, "decks": result.decks, "ruleset": result.base,
                            "base": result.base, "mode": result.mode,
                            "strategy": result.strategy.value,
                            "rows": [row(r) for r in result.rows],
                            "units": {"ev": "per unit initial bet", "effect": "house edge,"
                                      " percentage points, against the base (first row)"}}
    if result.preset is not None and result.combined is not None and result.target is not None:
        data["preset"] = result.preset
        data["sum_of_effects"] = sum(r.effect or 0.0 for r in result.rows[1:])
        data["combined"] = row(result.combined)
        data["target"] = row(result.target)
    return data


def _sweep_table(result: SweepResult) -> tuple[list[str], list[list[str]]]:
    head = ["change" if result.mode == "effects" else "variant", "ruleset", "EV",
            "house edge", "RTP"]
    if result.mode == "effects":
        head.append("effect (points)")
    rows = []
    extra = [r for r in (result.combined, result.target) if r is not None]
    for r in [*result.rows, *extra]:
        change = r.label or (", ".join(f"{k}={v}" for k, v in r.overrides.items()) or "base")
        cells = [change, r.ruleset, f"{r.ev:+.6f}", f"{r.house_edge * 100:.4f}%",
                 f"{r.rtp * 100:.4f}%"]
        if result.mode == "effects":
            cells.append("-" if r.effect is None else f"{r.effect:+.4f}")
        rows.append(cells)
    return head, rows


def sweep_text(result: SweepResult) -> str:
    """A table (rich), with the base and each variant; a preset adds its total and check."""
    from rich.table import Table

    head, rows = _sweep_table(result)
    head, rows = head[:1] + head[2:], [r[:1] + r[2:] for r in rows]  # slugs: in JSON/CSV
    table = Table(title=f"{result.mode}: {result.base}, {result.strategy.value} strategy",
                  title_justify="left")
    for i, name in enumerate(head):
        table.add_column(name, justify="left" if i < 2 else "right")
    for cells in rows:
        table.add_row(*cells)
    notes = []
    if result.combined is not None and result.target is not None:
        total = sum(r.effect or 0.0 for r in result.rows[1:])
        notes.append(f"sum of the single effects {total:+.4f} points; every change at once"
                     f" {result.combined.effect or 0.0:+.4f}; {result.target.label} exactly"
                     f" {result.target.effect or 0.0:+.4f}")
    return render(table, *notes)


def sweep_csv(result: SweepResult) -> str:
    """The table as CSV (one header line)."""
    import csv

    head, rows = _sweep_table(result)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(rows)
    return buffer.getvalue()


def sweep_markdown(result: SweepResult) -> str:
    """The table as markdown."""
    head, rows = _sweep_table(result)
    lines = [f"**{result.mode}**: {result.base}, {result.strategy.value} strategy", "",
             "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows]
    return "\n".join(lines) + "\n"
