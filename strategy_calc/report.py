"""Rendering of results: JSON objects for other tools, text tables for people."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from strategy_calc.blackjack import ACTIONS, OUTCOMES, HandAnalysis
from strategy_calc.cards import Rank
from strategy_calc.rules import BlackjackRules

if TYPE_CHECKING:  # rich is imported where a table is drawn: JSON output never loads it
    from strategy_calc.strategy import BonusValue, GameAnalysis


def hand_dict(result: HandAnalysis) -> dict[str, Any]:
    """The ``hand --json`` object (the CLI contract's keys)."""
    return {
        "rules": result.rules.name,
        "decks": result.rules.decks,
        "hand": [str(c) for c in result.hand],
        "up": str(result.up),
        "conditioned_on_no_dealer_blackjack": result.conditioned_on_no_dealer_blackjack,
        "ev": {a: result.ev[a] for a in ACTIONS},
        "best": result.best,
        "dealer": {k: result.dealer[k] for k in OUTCOMES},
        "suits_known": result.suits_known,
        "ruleset": str(result.rules),
        "autoplay_ev": result.autoplay,
        "tens_proportion": result.shoe.count(Rank.TEN) / result.shoe.total,
        "insurance_break_even_tens": 1 / 3,
        "split_strategy": "each split hand plays its own cards (pair and up card removed),"
                          " ignoring the other hands' cards",
        "split_postsplit": result.split_postsplit,
    }


def behind_dict(result: HandAnalysis) -> dict[str, Any]:
    """The follower's choices in ``behind --json`` (only those that apply) and the best.

    EVs per unit of the follower's initial bet. When the seat doubles, the
    follower may double too (``follow_double``) or keep the bet, the third card
    then acting as a single hit (``no_follow_double``); when the seat splits,
    the follower may follow both hands (``follow_both_splits``, an extra bet)
    or only the first (``follow_first_split``).
    """
    choices: dict[str, float] = {}
    if result.ev["double"] is not None and result.one_card is not None:
        choices["follow_double"] = result.ev["double"]
        choices["no_follow_double"] = result.one_card
    if result.split_hands is not None:
        choices["follow_both_splits"] = result.split_hands[0] + result.split_hands[1]
        choices["follow_first_split"] = result.split_hands[0]
    if not choices:
        raise ValueError(f"the seat cannot double or split {','.join(map(str, result.hand))}"
                         f" under {result.rules.name}: the follower has no choice to make")
    out: dict[str, Any] = dict(choices)
    ranked = sorted(choices, key=lambda k: choices[k], reverse=True)
    out["best"] = ranked[0]
    out["margins"] = {k: choices[ranked[0]] - choices[k] for k in ranked[1:]}
    out["conditioned_on_no_dealer_blackjack"] = result.conditioned_on_no_dealer_blackjack
    out["hand"] = [str(c) for c in result.hand]
    out["up"] = str(result.up)
    out["rules"] = result.rules.name
    return out


def behind_text(result: HandAnalysis, choices: Mapping[str, Any]) -> str:
    """The follower's choices as a table, best marked."""
    from rich.table import Table

    hand = ",".join(str(c) for c in result.hand)
    header = (f"bet behind {hand} vs {result.up}: {result.rules}\n"
              "EV per unit of the follower's initial bet")
    table = Table()
    table.add_column("choice")
    table.add_column("EV", justify="right")
    table.add_column("")
    for key in ("follow_double", "no_follow_double", "follow_both_splits", "follow_first_split"):
        if key in choices:
            mark = "<- best" if key == choices["best"] else f"-{choices['margins'][key]:.6f}"
            table.add_row(key.replace("_", " "), f"{choices[key]:+.6f}", mark)
    return render(header, table)


def hand_json(result: HandAnalysis, exact: Mapping[str, Any] | None = None) -> str:
    """One JSON object, keys as in the CLI contract (plus ``exact`` fractions if given)."""
    data = hand_dict(result)
    if exact is not None:
        data["exact"] = dict(exact)
    return json.dumps(data)


def render(*items: Any) -> str:
    """Render rich renderables to a string (plain text, no colour codes)."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False)
    for item in items:
        console.print(item)
    return buffer.getvalue().rstrip("\n")


def hand_text(result: HandAnalysis, exact: Mapping[str, Any] | None = None) -> str:
    """A table of every action's EV (best marked) and the dealer's outcome probabilities."""
    from rich.table import Table

    cond = ("given the dealer has no blackjack" if result.conditioned_on_no_dealer_blackjack
            else "dealer blackjack risk included (no hole card)")
    hand = ",".join(str(c) for c in result.hand)
    header = f"{hand} vs {result.up}: {result.rules}\nEV per unit initial bet, {cond}"
    actions = Table()
    actions.add_column("action")
    actions.add_column("EV", justify="right")
    actions.add_column("")
    for action in ACTIONS:
        value = result.ev[action]
        shown = "-" if value is None else f"{value:+.6f}"
        actions.add_row(action.replace("_", " "), shown, "<- best" if action == result.best else "")
    dealer = Table(title=f"dealer outcomes with {result.up} up", title_justify="left")
    for key in OUTCOMES:
        dealer.add_column(key, justify="right")
    dealer.add_row(*(f"{result.dealer[k]:.6f}" for k in OUTCOMES))
    notes = [f"note: {n}" for n in result.notes]
    if result.split_postsplit is not None:
        notes.append(f"split, second hand also using the first hand's cards:"
                     f" {result.split_postsplit:+.6f}")
    if result.ev["insurance"] is not None:
        tens = result.shoe.count(Rank.TEN) / result.shoe.total
        notes.append(f"insurance: tens are {tens:.4f} of the cards left; it pays when more than"
                     f" 1/3 ({'take it' if tens > 1 / 3 else 'decline'})")
    if exact is not None:
        notes.append(f"exact: stand {exact['stand']}"
                     + (f", insurance {exact['insurance']}" if exact["insurance"] else ""))
        notes.append("exact dealer: " + ", ".join(f"{k} {v}" for k, v in exact["dealer"].items()))
    return render(header, actions, dealer, *notes)


# ---------------------------------------------------------------- charts
CODES = {
    "H": "hit", "S": "stand", "Dh": "double, else hit", "Ds": "double, else stand",
    "P": "split", "Ph": "split if double after split is allowed, else hit",
    "Ps": "split if double after split is allowed, else stand",
    "Rh": "surrender if allowed, else hit", "Rs": "surrender if allowed, else stand",
    "Rp": "surrender if allowed, else split",
}
"""Chart codes and their meaning (the legend)."""
CODE_STYLES = {
    "H": "white", "S": "bold yellow", "Dh": "bold green", "Ds": "green",
    "P": "bold cyan", "Ph": "cyan", "Ps": "cyan",
    "Rh": "bold red", "Rs": "red", "Rp": "red",
}
"""Terminal colour of each chart code."""
HTML_COLOURS = {
    "H": "#ffffff", "S": "#ffe066", "Dh": "#69db7c", "Ds": "#b2f2bb",
    "P": "#74c0fc", "Ph": "#a5d8ff", "Ps": "#a5d8ff",
    "Rh": "#ff8787", "Rs": "#ffc9c9", "Rp": "#ffc9c9",
}


def _sections(game: GameAnalysis) -> list[tuple[str, list[tuple[str, Mapping[str, str]]]]]:
    """(title, [(row label, {up: code})]) for hard, soft and pairs."""
    hard = [(f"{t}", game.hard[t]) for t in sorted(game.hard)]
    soft = [(f"A,{t - 11}" if t < 21 else "A,T", game.soft[t]) for t in sorted(game.soft)]
    pairs = [(f"{p},{p}", game.pairs[p]) for p in PAIR_LABELS if p in game.pairs]
    return [("Hard totals", hard), ("Soft totals", soft), ("Pairs", pairs)]


PAIR_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
UP_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")


def edge_lines(game: GameAnalysis) -> list[str]:
    """The house-edge lines printed under a chart."""
    return [
        f"House edge under this chart: {-game.ev_basic * 100:.4f}%"
        f" (return to player {100 + game.ev_basic * 100:.4f}%)",
        f"House edge with optimal composition-dependent play: {-game.ev_optimal * 100:.4f}%",
        "(exact, off the top of a full shoe, insurance declined; each split hand plays its own"
        " cards)",
    ]


def chart_renderables(game: GameAnalysis, colour: bool = True) -> list[Any]:
    """Rich tables (hard, soft, pairs), the legend and the house edge, for a terminal."""
    from rich.table import Table
    from rich.text import Text

    items: list[Any] = [f"Basic strategy: {game.rules}"]
    for title, rows in _sections(game):
        table = Table(title=title, title_justify="left", padding=(0, 1))
        table.add_column("")
        for up in UP_LABELS:
            table.add_column(up, justify="center")
        for label, cells in rows:
            table.add_row(label, *(
                Text(cells[u], style=CODE_STYLES.get(cells[u], "") if colour else "")
                for u in UP_LABELS))
        items.append(table)
    used = sorted({c for _t, rows in _sections(game) for _l, cells in rows for c in cells.values()},
                  key=list(CODES).index)
    items.append("Legend: " + "; ".join(f"{c} = {CODES[c]}" for c in used))
    items.extend(edge_lines(game))
    if game.exceptions:
        items.append(f"Composition-dependent exceptions ({len(game.exceptions)}):")
        items.extend(f"  {d}" for d in game.exceptions)
    return items


def chart_text(game: GameAnalysis) -> str:
    """The chart as plain text (no colour)."""
    return render(*chart_renderables(game, colour=False))


def chart_dict(game: GameAnalysis) -> dict[str, Any]:
    """The ``chart --format json`` object (the CLI contract's keys)."""
    return {
        "rules": game.rules.name,
        "decks": game.rules.decks,
        "ruleset": str(game.rules),
        "hard": {str(t): dict(game.hard[t]) for t in sorted(game.hard)},
        "soft": {str(t): dict(game.soft[t]) for t in sorted(game.soft)},
        "pairs": {p: dict(game.pairs[p]) for p in PAIR_LABELS if p in game.pairs},
        "exceptions": [
            {"hand": [r.symbol for r in d.hand], "up": d.up.symbol, "chart": d.chart,
             "best": d.best, "gain": d.gain} for d in game.exceptions
        ],
        "house_edge": -game.ev_basic,
        "house_edge_optimal": -game.ev_optimal,
        "legend": dict(CODES),
    }


def chart_markdown(game: GameAnalysis) -> str:
    """The chart as markdown tables with the legend, house edge and exceptions."""
    lines = [f"# Basic strategy: {game.rules.name}, {game.rules.decks} deck"
             f"{'s' if game.rules.decks > 1 else ''}", "", f"Rules: `{game.rules}`", ""]
    for title, rows in _sections(game):
        lines += [f"## {title}", "", "| | " + " | ".join(UP_LABELS) + " |",
                  "|---|" + "---|" * len(UP_LABELS)]
        lines += [f"| {label} | " + " | ".join(cells[u] for u in UP_LABELS) + " |"
                  for label, cells in rows]
        lines.append("")
    lines += ["Legend: " + "; ".join(f"`{c}` {m}" for c, m in CODES.items()), ""]
    lines += [line + "  " for line in edge_lines(game)] + [""]
    lines += [f"## Composition-dependent exceptions ({len(game.exceptions)})", ""]
    lines += [f"- {d}" for d in game.exceptions] or ["none"]
    return "\n".join(lines) + "\n"


def chart_csv(game: GameAnalysis) -> str:
    """The chart as CSV: section,row,2,...,A."""
    out = ["section,row," + ",".join(UP_LABELS)]
    for title, rows in _sections(game):
        section = title.split()[0].lower()
        out += [f"{section},{label.replace(',', '')}," + ",".join(cells[u] for u in UP_LABELS)
                for label, cells in rows]
    return "\n".join(out) + "\n"


def chart_html(game: GameAnalysis) -> str:
    """A self-contained page with the chart, printable on one sheet."""
    title = f"Basic strategy: {game.rules.name}, {game.rules.decks} deck" + (
        "s" if game.rules.decks > 1 else "")
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        "<style>@page{size:A4 portrait;margin:10mm}"
        "body{font-family:sans-serif;font-size:9pt;margin:0}"
        "h1{font-size:13pt;margin:0 0 2pt}h2{font-size:10pt;margin:6pt 0 2pt}"
        ".charts{display:flex;gap:10pt;flex-wrap:wrap}"
        "table{border-collapse:collapse}td,th{border:1px solid #888;padding:1pt 4pt;"
        "text-align:center;min-width:16pt}th{background:#eee}"
        "p{margin:3pt 0}ul{margin:2pt 0;padding-left:14pt;columns:2;font-size:7.5pt}"
        "</style></head><body>",
        f"<h1>{html.escape(title)}</h1>", f"<p><code>{html.escape(str(game.rules))}</code></p>",
        '<div class="charts">',
    ]
    for name, rows in _sections(game):
        parts.append(f"<div><h2>{name}</h2><table><tr><th></th>"
                     + "".join(f"<th>{u}</th>" for u in UP_LABELS) + "</tr>")
        for label, cells in rows:
            parts.append(f"<tr><th>{label}</th>" + "".join(
                f'<td style="background:{HTML_COLOURS.get(cells[u], "#fff")}">{cells[u]}</td>'
                for u in UP_LABELS) + "</tr>")
        parts.append("</table></div>")
    parts.append("</div>")
    parts.append("<p>" + "; ".join(f"<b>{c}</b> {html.escape(m)}" for c, m in CODES.items())
                 + "</p>")
    parts += [f"<p>{html.escape(line)}</p>" for line in edge_lines(game)]
    parts.append(f"<h2>Composition-dependent exceptions ({len(game.exceptions)})</h2><ul>")
    parts += [f"<li>{html.escape(str(d))}</li>" for d in game.exceptions]
    parts.append("</ul></body></html>")
    return "\n".join(parts) + "\n"


def edge_dict(rules: BlackjackRules, strategy: str, ev: float) -> dict[str, Any]:
    """The ``edge --json`` object."""
    return {"rules": rules.name, "decks": rules.decks, "strategy": strategy, "ev": ev,
            "house_edge": -ev, "rtp": 1.0 + ev, "ruleset": str(rules)}


def edge_text(rules: BlackjackRules, strategy: str, ev: float) -> str:
    """One line per figure."""
    return (f"{rules}\nstrategy: {strategy}\nEV per unit initial bet: {ev:+.6f}\n"
            f"house edge: {-ev * 100:.4f}%   return to player: {100 + ev * 100:.4f}%")


def bonus_dict(value: BonusValue) -> dict[str, Any]:
    """The ``bonus --json`` object: EVs (optimal play) and the plays the bonuses change."""
    return {
        "rules": value.rules.name, "decks": value.rules.decks,
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
    return "\n".join(lines)


def _outcome_key(x: float) -> str:
    """``-2.0`` -> ``"-2"``, ``1.5`` -> ``"1.5"``, ``-0.5`` -> ``"-0.5"``."""
    return f"{x:g}"


def risk_dict(rules: BlackjackRules, strategy: str, ev: float, summary: Any) -> dict[str, Any]:
    """The ``risk --json`` object."""
    return {
        "rules": rules.name, "decks": rules.decks, "ruleset": str(rules), "strategy": strategy,
        "ev": summary.mean, "ev_game": ev, "sd": summary.sd,
        "outcomes": {_outcome_key(x): p for x, p in sorted(summary.outcomes.items())},
        "bankroll": summary.bankroll, "rounds": summary.rounds,
        "risk_of_ruin": summary.risk_of_ruin,
        "risk_of_ruin_normal": summary.risk_of_ruin_normal,
        "loss_probability": summary.loss_probability,
        "loss_probability_normal": summary.loss_probability_normal,
        "quantiles": dict(summary.quantiles), "quantiles_normal": dict(summary.quantiles_normal),
    }


def risk_text(data: Mapping[str, Any]) -> str:
    """The round distribution and the bankroll figures, exact next to normal."""
    from rich.table import Table

    dist = Table(title=f"net result of a round, {data['strategy']} play", title_justify="left",
                 caption=f"{data['ruleset']}; units of the initial bet", caption_justify="left")
    dist.add_column("result", justify="right")
    dist.add_column("probability", justify="right")
    for key, p in data["outcomes"].items():
        dist.add_row(key, f"{p:.8f}")
    figures = Table(title=f"bankroll {data['bankroll']:g} units, {data['rounds']} rounds, flat"
                    " bets", title_justify="left")
    figures.add_column("")
    figures.add_column("exact", justify="right")
    figures.add_column("normal approx.", justify="right")
    figures.add_row("risk of ruin", f"{data['risk_of_ruin']:.6f}",
                    f"{data['risk_of_ruin_normal']:.6f}")
    figures.add_row("P(behind at the end)", f"{data['loss_probability']:.6f}",
                    f"{data['loss_probability_normal']:.6f}")
    for q, value in data["quantiles"].items():
        figures.add_row(f"result, {q} quantile", f"{value:+.1f}",
                        f"{data['quantiles_normal'][q]:+.1f}")
    head = f"EV per round {data['ev']:+.6f}, SD {data['sd']:.6f}"
    return render(dist, head, figures)
