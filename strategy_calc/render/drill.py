"""The drill: answers, the session's report, the history's figures, the count drills."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from strategy_calc.cards import RANKS

if TYPE_CHECKING:
    from strategy_calc.drill.count import CountAnswer, CountQuestion, CountReport
    from strategy_calc.drill.play import SessionReport
    from strategy_calc.drill.questions import Graded


def drill_answer_text(graded: Graded) -> str:
    """The line shown after an answer: right, or wrong with the reference answer and the
    exact cost (per unit bet to 12 decimals, and per 100 rounds at the deal's frequency).

    >>> from strategy_calc.cards import Rank
    >>> from strategy_calc.drill.questions import Deal, Graded, Question
    >>> q = Question(Deal((Rank.SIX, Rank.TEN), Rank.TEN, 0.01), "play",
    ...              {"s": -0.54, "h": -0.5}, "h", "h", "h", 0.01)
    >>> print(drill_answer_text(Graded(q, "s", 0.04, False)))
    wrong: best h (hit); s costs 0.040000000000 a bet, 0.040000/100 rounds
    """
    q = graded.question
    words = q.words
    if graded.correct:
        extra = (f" (the chart: {q.chart}, {words[q.chart]})"
                 if q.reference == q.optimal and q.chart != q.optimal else "")
        if graded.answer != q.reference:
            extra = f" (as good as {q.reference}, {words[q.reference]}, here)"
        return f"right: {graded.answer} ({words[graded.answer]}){extra}"
    return (f"wrong: best {q.reference} ({words[q.reference]}); {graded.answer} costs"
            f" {graded.ev_cost:.12f} a bet, {graded.ev_cost_per_100_rounds:.6f}/100 rounds")


def _graded_dict(g: Graded) -> dict[str, Any]:
    q = g.question
    return {"hand": q.hand, "up": q.deal.up.symbol, "answer": g.answer,
            "best": q.reference, "correct": g.correct, "ev_cost": g.ev_cost,
            "kind": q.kind, "cell": q.cell, "answer_word": q.words[g.answer],
            "best_word": q.words[q.reference], "optimal": q.optimal, "chart": q.chart,
            "ev": dict(q.values), "frequency": q.deal.frequency,
            "ev_cost_per_100_rounds": g.ev_cost_per_100_rounds, "seconds": g.seconds,
            "split_from": q.deal.cards if q.split is not None else None,
            "removed": q.split.removed if q.split is not None else None}


def drill_dict(result: SessionReport) -> dict[str, Any]:
    """The ``drill --json`` object: the contract's ``questions`` (``hand``, ``up``,
    ``answer``, ``best``, ``correct``, ``ev_cost``), ``accuracy``, ``ev_cost_per_round``,
    and more keys."""
    return {
        "questions": [_graded_dict(g) for g in result.answers],
        "accuracy": result.accuracy,
        "ev_cost_per_round": result.ev_cost_per_round,
        "ev_cost_per_100_rounds": 100.0 * result.ev_cost_per_round,
        "answered": len(result.answers),
        "correct": sum(g.correct for g in result.answers),
        "costliest": [_graded_dict(g) for g in result.costliest],
        "missed_cells": result.missed_cells(),
        "rules": result.rules.name, "decks": result.rules.decks,
        "ruleset": str(result.rules), "against": result.against, "focus": result.focus,
        "seed": result.seed,
        "units": "EV per unit initial bet; a play in a peek game given no dealer blackjack",
    }


def drill_text(result: SessionReport) -> str:
    """The session report for people (at most 80 columns): accuracy, EV given away per
    round, the five costliest mistakes, and the grid of cells missed."""
    n = len(result.answers)
    right = sum(g.correct for g in result.answers)
    lines = [str(result.rules)]
    against = f"against the {result.against}" + (f", focus {result.focus}" if result.focus
                                                 else "")
    if not n:
        return "\n".join([*lines, f"{against}: no questions answered"])
    accuracy = result.accuracy or 0.0
    lines.append(f"accuracy {100 * accuracy:.1f}% ({right} of {n}), {against}")
    lines.append(f"EV given away: {result.ev_cost_per_round:.6f} per round"
                 f" ({100 * result.ev_cost_per_round:.4f} per 100 rounds)")
    if result.costliest:
        lines.append("costliest mistakes:        answer best   per bet   per 100 rounds")
        for g in result.costliest:
            q = g.question
            name = q.short if len(q.short) <= 24 else q.short[:23] + "~"
            lines.append(f"  {name:<24}{g.answer:>6} {q.reference:>4} {g.ev_cost:>9.5f}"
                         f" {g.ev_cost_per_100_rounds:>16.6f}")
    grid = result.missed_cells()
    missed = {row: cells for row, cells in grid.items() if "x" in cells.values()}
    if missed:
        ups = [r.symbol for r in (*RANKS[1:], RANKS[0])]
        lines.append("cells missed (x missed, . right, blank not asked):")
        lines.append("           " + " ".join(ups))
        for row in sorted(missed, key=_row_order):
            lines.append((f"  {row:<9}" + " ".join(missed[row].get(u, " ") for u in ups))
                         .rstrip())
    return "\n".join(lines)


def _row_order(row: str) -> tuple[int, int]:
    kind, _, key = row.partition(" ")
    value = 1 if key == "A" else 10 if key == "T" else int(key) if key.isdigit() else 0
    return ({"hard": 0, "soft": 1, "pair": 2}.get(kind, 3), value)


def drill_stats_dict(stats: Mapping[str, Any], path: str) -> dict[str, Any]:
    """The ``drill --stats --json`` object: the history file and, per ruleset, its sessions,
    cells per Leitner box and the cells in box 1."""
    return {"history": path, "rulesets": dict(stats)}


def drill_stats_text(stats: Mapping[str, Any], path: str) -> str:
    """Progress over time per ruleset: one line per session (the last ten), the cells in
    each Leitner box, and the weakest cells."""
    import textwrap

    lines = [f"history: {path}"]
    if not stats:
        return "\n".join([*lines, "no sessions yet"])
    for name, entry in stats.items():
        sessions = entry["sessions"]
        lines.append(name)
        lines.append(f"  {len(sessions)} sessions" + (", the last 10:" if len(sessions) > 10
                                                      else ":"))
        for s in sessions[-10:]:
            acc = "-" if s.get("accuracy") is None else f"{100 * s['accuracy']:.0f}%"
            lines.append(f"  {s.get('date', '?'):<21}{s.get('kind', 'play'):<11}"
                         f"{s.get('questions', 0):>4} asked {acc:>5}"
                         + (f"  {s['ev_cost_per_round']:.6f}/round"
                            if s.get("ev_cost_per_round") is not None else ""))
        boxes = "  ".join(f"{b}: {n}" for b, n in entry["boxes"].items())
        lines.append(f"  Leitner boxes (1 = missed lately): {boxes}")
        weak = entry["weak_cells"]
        if weak:
            lines.extend(textwrap.wrap("  box 1: " + ", ".join(weak), 78,
                                       subsequent_indent="    "))
    return "\n".join(lines)


def count_drill_dict(result: CountReport) -> dict[str, Any]:
    """The ``drill count --json`` / ``drill true-count --json`` object."""
    return {
        "kind": result.kind, "system": result.system.name,
        "questions": [{"cards": [str(c) for c in a.question.cards]
                       if a.question.kind == "count" else None,
                       "cards_dealt": len(a.question.cards),
                       "decks": a.question.decks, "decks_dealt": a.question.decks_dealt,
                       "running_count": a.question.running,
                       "start": a.question.start,
                       "exact": a.question.answer, "answer": a.answer,
                       "error": a.error, "correct": a.correct, "seconds": a.seconds}
                      for a in result.answers],
        "accuracy": result.accuracy, "mean_seconds": result.mean_seconds,
    }


def count_question_text(q: CountQuestion) -> str:
    """What a count question shows (the cards, or the running count and the tray)."""
    if q.kind == "count":
        start = f" (start at {q.start:+g})" if q.start else ""
        return "cards: " + " ".join(str(c) for c in q.cards) + start
    return (f"running count {q.running:+g}; discard tray: {q.decks_dealt:g} of {q.decks}"
            f" decks dealt ({q.decks - q.decks_dealt:g} left)")


def count_answer_text(a: CountAnswer) -> str:
    """The line after a count answer."""
    q = a.question
    exact = f"{q.answer:+.2f}" if q.kind == "true-count" else f"{q.answer:+g}"
    timing = f" in {a.seconds:.1f} s" if a.seconds is not None else ""
    return f"{'right' if a.correct else 'wrong'}: {exact}{timing}"


def count_drill_text(result: CountReport) -> str:
    """The count drill's report: accuracy and mean time."""
    n = len(result.answers)
    if not n:
        return f"{result.kind} drill ({result.system.name}): no questions answered"
    right = sum(a.correct for a in result.answers)
    timing = (f", {result.mean_seconds:.1f} s an answer" if result.mean_seconds is not None
              else "")
    return (f"{result.kind} drill ({result.system.name}): {right} of {n} right"
            f" ({100 * right / n:.0f}%){timing}")
