"""The one render layer: JSON objects for other tools, text tables and pages for people.

Every command's output is built here from the results the compute modules
return; no compute module imports this one (or rich).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from strategy_calc.actions import ACTIONS, OUTCOMES
from strategy_calc.blackjack.split.combine import SPLIT_STRATEGIES
from strategy_calc.cards import RANKS, Rank
from strategy_calc.errors import InputError
from strategy_calc.rules import BET_NAMES, BETS, BlackjackRules

# Start-up (issue 29): the standard modules only some commands' renderers use (html,
# textwrap, fractions) are imported in those functions, and the project's only from the
# vocabulary and the rules, so that `edge --json` loads neither baccarat, the one-hand
# analysis nor sampling (tests/test_startup_imports.py); rich is imported where a table
# is drawn: JSON output never loads it.
if TYPE_CHECKING:
    from fractions import Fraction

    from strategy_calc.baccarat.odds import BaccaratOdds
    from strategy_calc.blackjack.boxes import BoxFigures
    from strategy_calc.blackjack.game_analysis import GameAnalysis, OptimalEdge
    from strategy_calc.blackjack.hand_analysis import HandAnalysis
    from strategy_calc.blackjack.pair_bet import PairOdds
    from strategy_calc.blackjack.sweep import Row as SweepRow
    from strategy_calc.blackjack.sweep import SweepResult
    from strategy_calc.blackjack.whatif import BonusValue
    from strategy_calc.counting.baccarat import BaccaratCount
    from strategy_calc.counting.effects import EffectsOfRemoval
    from strategy_calc.counting.indices import CountIndex, IndexMatrix, IndexTable
    from strategy_calc.counting.ramps import RampFigures
    from strategy_calc.counting.runs import BlackjackCount, Comparison, OptimisedRamp, RampResult
    from strategy_calc.counting.sampling import Estimate
    from strategy_calc.counting.systems import CountSystem
    from strategy_calc.drill.count import CountAnswer, CountQuestion, CountReport
    from strategy_calc.drill.play import SessionReport
    from strategy_calc.drill.questions import Graded
    from strategy_calc.rules import Ruleset, RulesetInfo



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
        "split_strategy": result.split_strategy,
        "split_strategy_description": SPLIT_STRATEGIES[result.split_strategy],
        "split_postsplit": result.split_postsplit,
        "outcomes": ({a: (dict(o) if o is not None else None)
                      for a, o in result.outcomes.items()}
                     if result.outcomes is not None else None),
        "second_moments": (dict(result.second_moments)
                           if result.second_moments is not None else None),
        "notes": list(result.notes),
    }


BEHIND_SITUATIONS = (
    ("double", "the seat doubles", ("follow_double", "no_follow_double")),
    ("split", "the seat splits", ("follow_both_splits", "follow_first_split")),
)
"""The situations a bet-behind follower decides in, each with its two choices."""


def behind_dict(result: HandAnalysis) -> dict[str, Any]:
    """The follower's choices in ``behind --json``: each situation with its own best.

    EVs per unit of the follower's initial bet. When the seat doubles, the
    follower may double too (``follow_double``) or keep the bet, the third card
    then acting as a single hit (``no_follow_double``); when the seat splits,
    the follower may follow both hands (``follow_both_splits``, an extra bet)
    or only the first (``follow_first_split``). The two situations exclude
    each other, so each has its ``best_after_*`` and ``margin_after_*`` (what
    the best choice adds over the other); ``null`` where the seat cannot act.
    """
    values: dict[str, float | None] = dict.fromkeys(
        key for _s, _l, keys in BEHIND_SITUATIONS for key in keys)
    if result.ev["double"] is not None and result.one_card is not None:
        values["follow_double"] = result.ev["double"]
        values["no_follow_double"] = result.one_card
    if result.split_hands is not None:
        values["follow_both_splits"] = result.split_hands[0] + result.split_hands[1]
        values["follow_first_split"] = result.split_hands[0]
    if all(v is None for v in values.values()):
        raise InputError(f"the seat cannot double or split {','.join(map(str, result.hand))}"
                         f" under {result.rules.name}: the follower has no choice to make")
    out: dict[str, Any] = dict(values)
    for situation, _label, (first, second) in BEHIND_SITUATIONS:
        a, b = values[first], values[second]
        if a is None or b is None:
            out[f"best_after_{situation}"] = out[f"margin_after_{situation}"] = None
            continue
        out[f"best_after_{situation}"] = first if a >= b else second
        out[f"margin_after_{situation}"] = abs(a - b)
    out["conditioned_on_no_dealer_blackjack"] = result.conditioned_on_no_dealer_blackjack
    out["hand"] = [str(c) for c in result.hand]
    out["up"] = str(result.up)
    out["rules"] = result.rules.name
    out["decks"] = result.rules.decks
    out["ruleset"] = str(result.rules)
    return out


def behind_text(result: HandAnalysis, choices: Mapping[str, Any]) -> str:
    """One table per situation the seat can be in, each choice's EV, its best marked."""
    from rich.table import Table

    hand = ",".join(str(c) for c in result.hand)
    header = (f"bet behind {hand} vs {result.up}: {result.rules}\n"
              "EV per unit of the follower's initial bet; the situations exclude each other")
    tables = []
    for situation, label, keys in BEHIND_SITUATIONS:
        if choices[f"best_after_{situation}"] is None:
            continue
        table = Table(title=f"if {label}", title_justify="left")
        table.add_column("follower's choice")
        table.add_column("EV", justify="right")
        table.add_column("vs the best", justify="right")
        best = choices[f"best_after_{situation}"]
        for key in keys:
            mark = "best" if key == best else f"-{choices[f'margin_after_{situation}']:.6f}"
            table.add_row(key.replace("_", " "), f"{choices[key]:+.6f}", mark)
        tables.append(table)
    return render(header, *tables)


def hand_json(result: HandAnalysis, exact: Mapping[str, Any] | None = None) -> str:
    """One JSON object, keys as in the CLI contract (plus ``exact`` fractions if given)."""
    data = hand_dict(result)
    if exact is not None:
        data["exact"] = dict(exact)
    return json.dumps(data)


def output_width() -> int:
    """Columns to lay text out in: the terminal's (``COLUMNS`` if set), at most 100.

    Piped output without ``COLUMNS`` gets 100. Tables shrink their columns to
    fit; prose is wrapped between words, never inside a word or a number.
    """
    import shutil

    return max(40, min(100, shutil.get_terminal_size((100, 24)).columns))


def render(*items: Any) -> str:
    """Render rich renderables to a string (plain text, no colour codes)."""
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(file=buffer, width=output_width(), color_system=None, highlight=False)
    for item in items:
        console.print(item)  # prose wraps between words
    return buffer.getvalue().rstrip("\n")


def hand_text(result: HandAnalysis, exact: Mapping[str, Any] | None = None) -> str:
    """A table of every action's EV (best marked) and the dealer's outcome probabilities."""
    from rich.table import Table

    peek = result.conditioned_on_no_dealer_blackjack
    cond = ("playing actions given the dealer has no blackjack (he checked); insurance and"
            " even money before the check" if peek
            else "dealer blackjack risk included (no hole card)")
    hand = ",".join(str(c) for c in result.hand)
    header = f"{hand} vs {result.up}: {result.rules}\nEV per unit initial bet, {cond}"
    actions = Table()
    actions.add_column("action")
    actions.add_column("EV", justify="right")
    outcomes = result.outcomes
    if outcomes is not None:
        for name in ("win", "push", "lose"):
            actions.add_column(f"P({name})", justify="right")
    actions.add_column("best")
    for action in ACTIONS:
        value = result.ev[action]
        shown = "-" if value is None else f"{value:+.6f}"
        row = [action.replace("_", " "), shown]
        if outcomes is not None:
            o = outcomes.get(action)
            row += [f"{o[k]:.4f}" for k in ("win", "push", "lose")] if o else ["", "", ""]
        actions.add_row(*row, "<-" if action == result.best else "")
    dealer = Table(title=f"dealer outcomes with {result.up} up", title_justify="left")
    for key in OUTCOMES:
        dealer.add_column(key, justify="right")
    dealer.add_row(*(f"{result.dealer[k]:.6f}" for k in OUTCOMES))
    notes = [f"note: {n}" for n in result.notes]
    if result.ev["split"] is not None:
        notes.append(f"split strategy {result.split_strategy}:"
                     f" {SPLIT_STRATEGIES[result.split_strategy]}")
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
        notes.append("exact dealer: " + ", ".join(f"{k}={v}" for k, v in exact["dealer"].items()))
    return render(header, actions, dealer, *notes)


# ---------------------------------------------------------------- charts
CODES = {
    "H": "hit", "S": "stand", "Dh": "double, else hit", "Ds": "double, else stand",
    "P": "split", "Ph": "split if double after split is allowed, else hit",
    "Ps": "split if double after split is allowed, else stand",
    "Rh": "surrender if allowed, else hit", "Rs": "surrender if allowed, else stand",
    "Rp": "surrender if allowed, else split",
    "E": "even money (take 1:1 for the blackjack)",
}
"""Chart codes and their meaning (the legend)."""
CODE_STYLES = {
    "H": "black on grey93", "S": "black on light_goldenrod2", "Dh": "black on pale_green3",
    "Ds": "black on dark_sea_green2", "P": "black on sky_blue2", "Ph": "black on light_sky_blue1",
    "Ps": "black on light_sky_blue1", "Rh": "black on light_coral", "Rs": "black on misty_rose1",
    "Rp": "black on misty_rose1", "E": "black on plum2",
}
"""Terminal style of each chart code: black on a light background, readable whatever the
terminal's own background (``NO_COLOR`` turns them off)."""
HTML_COLOURS = {
    "H": "#ffffff", "S": "#ffe066", "Dh": "#69db7c", "Ds": "#b2f2bb",
    "P": "#74c0fc", "Ph": "#a5d8ff", "Ps": "#a5d8ff",
    "Rh": "#ff8787", "Rs": "#ffc9c9", "Rp": "#ffc9c9", "E": "#e599f7",
}


def _sections(game: GameAnalysis) -> list[tuple[str, list[tuple[str, Mapping[str, str]]]]]:
    """(title, [(row label, {up: code})]) for hard, soft and pairs."""
    hard = [(f"{t}", game.hard[t]) for t in sorted(game.hard)]
    soft = [(f"A,{t - 11}" if t < 21 else "A,T", game.soft[t]) for t in sorted(game.soft)]
    pairs = [(f"{p},{p}", game.pairs[p]) for p in PAIR_LABELS if p in game.pairs]
    return [("Hard totals", hard), ("Soft totals", soft), ("Pairs", pairs)]


PAIR_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
UP_LABELS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")


def insurance_words(game: GameAnalysis) -> str:
    """How the chart plays insurance, for the notes under it."""
    if game.insure:
        return "insurance taken against an ace (the shoe is that rich in tens)"
    return "insurance declined"


def edge_lines(game: GameAnalysis) -> list[str]:
    """The house-edge lines printed under a chart."""
    return [
        f"House edge under this chart: {-game.ev_basic * 100:.4f}%"
        f" (return to player {100 + game.ev_basic * 100:.4f}%)",
        f"House edge, optimal composition-dependent play: {-game.ev_optimal * 100:.4f}%",
        f"(split strategy {game.split_strategy}; exact, off the top of a full shoe,",
        f"{insurance_words(game)}; split hands under the chart play the chart)",
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
             "best": d.best, "gain": d.gain, "suited": d.suited} for d in game.exceptions
        ],
        "house_edge": -game.ev_basic,
        "house_edge_optimal": -game.ev_optimal,
        "split_strategy": game.split_strategy,
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
    """A self-contained page with the chart: the wall chart's layout
    (:func:`chart_print_html`) with a margin on a screen, and on one A4 page when a
    browser prints it, its type scaled by :func:`html_print_scale`."""
    page = chart_print_html(game, "a4", html_print_scale(len(game.exceptions)))
    return page.replace("</style>", "@media screen{body{margin:8mm}}</style>", 1)


def html_print_scale(exceptions: int) -> float:
    """The type scale at which the HTML chart with ``exceptions`` listed prints on one
    A4 page in a browser, which gives no feedback to fit it as :func:`chart_pdf` does.

    The page is 297 - 2 x 9 = 279 mm tall. Printed by Chromium, the tables, legend and
    notes take about 218 mm at scale 1 and each exception adds about 2 mm (two to a
    line of the two-column list); every height scales with the type. Measured in
    Chromium 156, the first scale of 1, 0.94, 0.88, ... that fits one page was 1 for
    26 exceptions, 0.94 for 34, 0.88 for 44, 0.82 for 56, 0.76 for 70 and 0.70 for 90.
    The estimate below takes 230 mm and 2.2 mm, a little above those readings, so
    the scale it gives is at or under the one measured (tests/test_html_print.py
    prints every built-in chart and an 80-exception one in Chromium):

    >>> html_print_scale(12), round(html_print_scale(34), 3), round(html_print_scale(90), 3)
    (1.0, 0.915, 0.652)
    """
    return min(1.0, 279.0 / (230.0 + 2.2 * exceptions))


PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("letter", 215.9, 279.4)}
"""Paper sizes of the printable chart: CSS name, width and height in mm."""


def _used_codes(game: GameAnalysis) -> list[str]:
    """The chart codes the chart uses, in legend order."""
    used = {c for _t, rows in _sections(game) for _l, cells in rows for c in cells.values()}
    return [c for c in CODES if c in used]


def chart_print_html(game: GameAnalysis, paper: str = "a4", scale: float = 1.0) -> str:
    """The wall chart as a page for print: one sheet of ``paper`` (``a4`` or ``letter``).

    Hard totals on the left, soft totals and pairs on the right, cells large
    enough to read at arm's length, a colour-keyed legend of only the codes
    used, the ruleset and house edge in the title, the composition-dependent
    exceptions (Macau's suited-bonus plays included) underneath. ``scale``
    shrinks the type (:func:`chart_pdf` lowers it until the page fits).
    """
    import html

    css_paper, width, _height = PAPERS[paper]
    rules = game.rules
    title = (f"{rules.name}, {rules.decks} deck{'s' if rules.decks > 1 else ''}: basic strategy"
             f" - house edge {-game.ev_basic * 100:.3f}%")
    cell = 13.0 * scale
    column = (width - 18.0 - 6.0) / 22  # two tables of 11 columns side by side, mm
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>@page{{size:{css_paper} portrait;margin:9mm}}"
        f"body{{font-family:'DejaVu Sans',sans-serif;font-size:{9 * scale:.2f}pt;margin:0}}"
        f"h1{{font-size:{15 * scale:.2f}pt;margin:0 0 1mm}}"
        f"h2{{font-size:{11 * scale:.2f}pt;margin:2mm 0 1mm}}"
        ".rules{margin:0 0 2mm;color:#333}"
        ".cols{display:flex;gap:6mm;align-items:flex-start}"
        f"table{{border-collapse:collapse;table-layout:fixed;font-size:{cell:.2f}pt}}"
        f"td,th{{border:0.6pt solid #666;padding:{1.5 * scale:.2f}mm 0;width:{column:.2f}mm;"
        "text-align:center;font-weight:bold;overflow:hidden}"
        "th{background:#e9ecef}"
        ".legend{display:flex;flex-wrap:wrap;gap:1.5mm 4mm;margin:2mm 0}"
        ".sw{display:inline-block;border:0.6pt solid #666;padding:0 1.5mm;font-weight:bold}"
        f".exc{{columns:2;column-gap:6mm;font-size:{8 * scale:.2f}pt;margin:0;"
        "padding-left:4mm}p{margin:1mm 0}"
        "</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="rules">{html.escape(str(rules))}; return to player'
        f" {100 + game.ev_basic * 100:.3f}%, optimal play {100 + game.ev_optimal * 100:.3f}%</p>",
    ]
    sections = _sections(game)

    def table(name: str, rows: Sequence[tuple[str, Mapping[str, str]]]) -> str:
        out = [f"<h2>{name}</h2><table><tr><th></th>"
               + "".join(f"<th>{u}</th>" for u in UP_LABELS) + "</tr>"]
        for label, cells in rows:
            out.append(f"<tr><th>{label}</th>" + "".join(
                f'<td style="background:{HTML_COLOURS.get(cells[u], "#fff")}">{cells[u]}</td>'
                for u in UP_LABELS) + "</tr>")
        return "".join(out) + "</table>"

    parts.append('<div class="cols"><div>' + table(*sections[0]) + "</div><div>"
                 + table(*sections[1]) + table(*sections[2]) + "</div></div>")
    parts.append('<div class="legend">' + "".join(
        f'<span><span class="sw" style="background:{HTML_COLOURS[c]}">{c}</span>'
        f" {html.escape(CODES[c])}</span>" for c in _used_codes(game)) + "</div>")
    parts.append("<p>Columns: the dealer's up card. Exact, off the top of a full shoe,"
                 f" {html.escape(insurance_words(game))}.</p>")
    if game.exceptions:
        parts.append(f"<h2>Composition-dependent exceptions ({len(game.exceptions)})</h2>"
                     '<ul class="exc">')
        parts += [f"<li>{html.escape(str(d))}</li>" for d in game.exceptions]
        parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def chart_pdf(game: GameAnalysis, paper: str = "a4") -> bytes:
    """The wall chart as a one-page PDF, laid out by weasyprint (the ``pdf`` extra).

    The print page is rendered at full size and, while it takes more than one
    page, again with the type 6% smaller (at most 12 times); the PDF's
    metadata carries no date, so the same chart gives the same bytes.
    """
    _require_pdf(paper)
    return one_page_pdf(lambda scale: chart_print_html(game, paper, scale),
                        f"the chart of {game.rules.name}", paper)


def one_page_pdf(page: Callable[[float], str], what: str, paper: str) -> bytes:
    """``page(scale)`` (an HTML page for print) typeset by weasyprint on one page: at
    full size and, while it takes more than one page, again with the type 6% smaller (at
    most 12 times). The metadata carries no date, so the same page gives the same bytes."""
    import weasyprint  # type: ignore[import-untyped, unused-ignore]

    scale = 1.0
    for _ in range(12):
        document = weasyprint.HTML(string=page(scale)).render()
        if len(document.pages) == 1:
            break
        scale *= 0.94
    else:
        raise InputError(f"{what} does not fit on one {paper} page")
    document.metadata.created = document.metadata.modified = None
    pdf: bytes = document.write_pdf()
    return pdf


def _require_pdf(paper: str) -> None:
    """Refuse a PDF without weasyprint or on an unknown paper (one input error)."""
    try:
        import weasyprint  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
    except ImportError:
        raise InputError("PDF charts need weasyprint: pip install 'strategy_calc[pdf]'"
                         ) from None
    if paper not in PAPERS:
        raise InputError(f"unknown paper {paper!r}: choose from {', '.join(PAPERS)}")


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
        "log10_risk_of_ruin_normal": _finite(summary.log10_risk_of_ruin_normal),
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


# ---------------------------------------------------------------- counting


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


INDEX_DEFINITION = (
    "index: the true count at which EV(play) - EV(versus) changes sign, exact: every step of"
    " the count family is a real shoe composition analysed exactly, linearly interpolated"
    " between steps; linear_index: the removal-based linear estimate (the play's effects"
    " of removal off the top, Griffin's linear model along the same family); null where"
    " the play keeps one side over true counts -20 to +20 or is not allowed"
)
"""How ``indices`` defines its two figures (docs/MODEL.md says more)."""


def _index_row(row: CountIndex) -> dict[str, Any]:
    """One decision's index as ``indices --json`` lists it."""
    return {"decision": row.decision.name, "hand": row.decision.hand, "up": row.decision.up,
            "actions": list(row.decision.actions), "index": row.index, "above": row.above,
            "published": row.decision.published, "note": row.note,
            "linear_index": row.linear_index, "group": row.decision.group,
            "risk_averse_index": row.risk_averse_index}


def indices_dict(table: IndexTable, matrix: IndexMatrix | None = None) -> dict[str, Any]:
    """The ``indices --format json`` object: ``indices`` the published decisions (or the
    one cell asked for), ``matrix`` every play of every start when computed."""
    out: dict[str, Any] = {
        "rules": table.rules.name,
        "decks": table.rules.decks,
        "ruleset": str(table.rules),
        "count": table.count.name,
        "family": table.family.describe(),
        "published_for": "Hi-Lo Illustrious 18 (Schlesinger), 6 decks S17 DAS; compare under"
                         " blackjack_rules('deluxe', ['decks=6', 'surrender=none']); Fab 4"
                         " (late surrender) under blackjack_rules('deluxe', ['decks=6',"
                         " 'surrender=late'])",
        "definition": INDEX_DEFINITION,
        "risk_averse": table.risk_averse or None,
        "indices": [_index_row(row) for row in table.rows],
    }
    if matrix is not None:
        out["matrix"] = [
            {"kind": cell.kind, "label": cell.label, "hand": cell.hand, "up": cell.up,
             "plays": [{"play": row.decision.actions[0], "versus": row.decision.actions[1],
                        "index": row.index, "linear_index": row.linear_index,
                        "above": row.above, "note": row.note} for row in cell.rows]}
            for cell in matrix.cells
        ]
    return out


def indices_text(table: IndexTable, matrix: IndexMatrix | None = None) -> str:
    """The ``indices`` table: each decision's index beside its linear estimate and the
    published one; then, with ``matrix``, the grids a counter prints."""
    from rich.table import Table

    rules = table.rules
    out = Table(title=f"{table.count.name} count indices (true count), {rules}",
                title_justify="left")
    out.add_column("decision", no_wrap=True)
    for name in ("at or above", "below"):
        out.add_column(name)
    numbers = ("index", "linear", "RA", "pub.", "diff") if table.risk_averse else (
        "index", "linear", "pub.", "diff")
    for name in numbers:  # (numbers never wrap)
        out.add_column(name, justify="right", no_wrap=True, min_width=len(name))
    notes = any(row.note for row in table.rows)
    if notes:
        out.add_column("note")
    shown = {"hit_or_stand": "hit/stand", "no_split": "no split", "no_surrender": "play on"}
    footnotes: list[str] = []
    for row in table.rows:
        first, second = row.decision.actions
        if row.above is not None and row.above != first:
            first, second = second, first
        mark = ""
        if row.note:
            footnotes.append(f"[{len(footnotes) + 1}] {row.decision.name}: {row.note}")
            mark = f"[{len(footnotes)}]"
        published = row.decision.published
        figures = [row.index, row.linear_index]
        if table.risk_averse:
            figures.append(row.risk_averse_index)
        out.add_row(
            row.decision.name, shown.get(first, first), shown.get(second, second),
            *("-" if x is None else f"{x:+.2f}" for x in figures),
            "-" if published is None else f"{published:+d}",
            "-" if row.difference is None else f"{row.difference:+.2f}",
            *([mark] if notes else []),
        )
    lines = [f"family: {table.family.describe()}",
             "published: Hi-Lo Illustrious 18 (Schlesinger), 6 decks S17 DAS, the rules they"
             " match here: --rules deluxe --decks 6 --set surrender=none; (R): the Fab 4"
             " (late surrender), with --set surrender=late", INDEX_DEFINITION, *footnotes]
    if table.risk_averse:
        lines.insert(2, f"RA: the risk-averse index ({table.risk_averse}): where the play"
                     " gains more EV than half the bet's share of the bankroll times its"
                     " increase in E[X^2] (Schlesinger)")
    text = render(out, *lines)
    return text if matrix is None else text + "\n\n" + index_grids(matrix)


GRIDS = (("hard", "stand", "hard totals: stand (else hit)"),
         ("hard", "double", "hard totals: double (else hit or stand)"),
         ("hard", "surrender", "hard totals: surrender (else play on)"),
         ("soft", "stand", "soft totals: stand (else hit)"),
         ("soft", "double", "soft totals: double (else hit or stand)"),
         ("pair", "split", "pairs: split (else hit, stand or double)"))
"""The grids of :func:`index_grids`: (kind, play, title)."""


def _grid_cell(row: CountIndex | None) -> str:
    """A grid entry: the index (the play at or above it), ``<`` before it when the play is
    better below it, ``all`` / ``-`` when it is always / never taken, blank if not allowed."""
    if row is None:
        return ""
    play = row.decision.actions[0]
    if row.index is None:
        return "all" if row.note.startswith(f"{play} at every") else "-"
    return f"{'' if row.above == play else '<'}{row.index:+.1f}"


def _grid_rows(matrix: IndexMatrix) -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """(play, title, [(row label, one :func:`_grid_cell` per up card)]) of each grid of
    :data:`GRIDS` that has a row, rows without any entry left out."""
    cells = {(c.kind, c.label, c.up): c for c in matrix.cells}
    labels: dict[str, list[str]] = {}
    for c in matrix.cells:
        if c.label not in labels.setdefault(c.kind, []):
            labels[c.kind].append(c.label)
    grids = []
    for kind, play, title in GRIDS:
        rows = []
        for label in labels.get(kind, []):
            texts = []
            for u in matrix.up_cards:
                cell = cells.get((kind, label, u))
                found = None if cell is None else next(
                    (r for r in cell.rows if r.decision.actions[0] == play), None)
                texts.append(_grid_cell(found))
            if any(texts):
                rows.append((label, texts))
        if rows:
            grids.append((play, title, rows))
    return grids


def index_grids(matrix: IndexMatrix) -> str:
    """The matrix as plain fixed-width grids (80 columns): hands down, up cards across."""
    import textwrap

    blocks = []
    for play, title, rows in _grid_rows(matrix):
        lines = [f"{title}; true count at or above which to {play}",
                 f"{'':>6}" + "".join(f"{u:>7}" for u in matrix.up_cards)]
        lines += [f"{label:>6}" + "".join(f"{e:>7}" for e in texts) for label, texts in rows]
        blocks.append("\n".join(lines))
    insurance = [r for c in matrix.cells if c.kind == "insurance" for r in c.rows]
    if insurance:
        blocks.append(f"insurance: at or above {_grid_cell(insurance[0])}")
    blocks.append(textwrap.fill(
        "'<' before an index: the play is better at or below it; 'all': at every true count"
        " from -20 to +20; '-': at none; blank: not allowed", 80))
    return "\n\n".join(blocks)


def indices_csv(table: IndexTable, matrix: IndexMatrix | None = None) -> str:
    """One line per play: the published decisions (or the cell asked for), then the
    matrix; numbers unrounded, empty where there is none."""
    import csv

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["kind", "label", "hand", "up", "play", "versus", "index",
                     "linear_index", "above", "published", "note"])

    def number(x: float | None) -> str:
        return "" if x is None else repr(x)

    for row in table.rows:
        d = row.decision
        writer.writerow([d.group or "cell", d.name, d.hand, d.up, *d.actions,
                         number(row.index), number(row.linear_index), row.above or "",
                         "" if d.published is None else d.published, row.note])
    for cell in matrix.cells if matrix is not None else ():
        for row in cell.rows:
            writer.writerow([cell.kind, cell.label, cell.hand, cell.up,
                             *row.decision.actions, number(row.index),
                             number(row.linear_index), row.above or "", "", row.note])
    return buffer.getvalue()


INDEX_COLOURS = {"stand": HTML_COLOURS["S"], "double": HTML_COLOURS["Dh"],
                 "split": HTML_COLOURS["P"], "surrender": HTML_COLOURS["Rh"],
                 "insurance": HTML_COLOURS["E"]}
"""The colour of each play's grid on the printed index chart (as on the wall chart)."""


def indices_print_html(table: IndexTable, matrix: IndexMatrix | None, paper: str = "a4",
                       scale: float = 1.0) -> str:
    """The index chart as a page for print: the published decisions, then each play's
    grid (hands down, up cards across) with the true count in each cell, coloured by the
    play where it is taken at that count or above (``all``: at every count; ``-``:
    never; ``<``: at or below)."""
    import html

    css_paper, width, _height = PAPERS[paper]
    rules = table.rules
    title = f"{table.count.name} count indices: {rules.name}, {rules.decks} decks"
    column = (width - 18.0 - 6.0) / 22
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f"<style>@page{{size:{css_paper} portrait;margin:9mm}}"
        f"body{{font-family:'DejaVu Sans',sans-serif;font-size:{8 * scale:.2f}pt;margin:0}}"
        f"h1{{font-size:{14 * scale:.2f}pt;margin:0 0 1mm}}"
        f"h2{{font-size:{9.5 * scale:.2f}pt;margin:2mm 0 1mm}}"
        ".cols{display:flex;gap:6mm;align-items:flex-start}"
        f"table{{border-collapse:collapse;table-layout:fixed;font-size:{8.5 * scale:.2f}pt}}"
        f"td,th{{border:0.5pt solid #666;padding:{1.0 * scale:.2f}mm 0;width:{column:.2f}mm;"
        "text-align:center;overflow:hidden}th{background:#e9ecef}"
        "table.pub td,table.pub th{width:auto;padding:0.6mm 1.5mm}p{margin:1mm 0}"
        "</style></head><body>", f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(str(rules))}. True count at or above which to take each play"
        " (exact along the count family; docs/MODEL.md, \"Count indices\").</p>",
    ]
    pub = ['<table class="pub"><tr><th>decision</th><th>play</th><th>index</th>'
           "<th>linear</th><th>published</th></tr>"]
    for row in table.rows:
        d = row.decision
        pub.append("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in (
            d.name, d.actions[0],
            "-" if row.index is None else f"{row.index:+.1f}",
            "-" if row.linear_index is None else f"{row.linear_index:+.1f}",
            "" if d.published is None else f"{d.published:+d}")) + "</tr>")
    pub.append("</table>")
    ups = matrix.up_cards if matrix is not None else ()
    grids = [
        f"<h2>{html.escape(title)}</h2><table><tr><th></th>"
        + "".join(f"<th>{u}</th>" for u in ups) + "</tr>"
        + "".join(f"<tr><th>{label}</th>" + "".join(
            f'<td style="background:{INDEX_COLOURS[play] if t and t != "-" else "#fff"}">'
            f"{html.escape(t)}</td>" for t in texts) + "</tr>" for label, texts in rows)
        + "</table>"
        for play, title, rows in (_grid_rows(matrix) if matrix is not None else [])]
    half = (len(grids) + 1) // 2
    parts.append('<div class="cols"><div>' + "".join(grids[:half]) + "</div><div>"
                 + "".join(grids[half:]) + "</div></div>")
    parts.append("<h2>Published decisions</h2>" + "".join(pub))
    parts.append("<p>&lt; before an index: the play is better at or below it; all: at every"
                 " true count from -20 to +20; -: at none; blank: not allowed.</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def indices_pdf(table: IndexTable, matrix: IndexMatrix | None, paper: str = "a4") -> bytes:
    """The index chart (:func:`indices_print_html`) as a one-page PDF (weasyprint)."""
    _require_pdf(paper)
    return one_page_pdf(lambda scale: indices_print_html(table, matrix, paper, scale),
                        f"the index chart of {table.rules.name}", paper)


# ---------------------------------------------------------------- sidebets


def pair_dict(odds: PairOdds) -> dict[str, Any]:
    """The ``sidebet pair --json`` object: the CLI contract's ``ev``, ``probabilities``
    and ``pays`` (``no_pair``: -1), plus ``rules``, ``decks``, ``removed``, ``table``,
    ``ruleset`` (the slug), ``cards_left`` and ``exact`` (``"numerator/denominator"``
    strings of the probabilities and the EV).

    >>> from strategy_calc.rules import blackjack_rules
    >>> from strategy_calc.blackjack.pair_bet import analyse_pair
    >>> data = pair_dict(analyse_pair(blackjack_rules("deluxe", ["pair_bet=any"])))
    >>> data["pays"], data["exact"]["ev"]
    ({'pair': 11.0, 'no_pair': -1.0}, '-43/415')
    """
    probabilities = odds.exact_probabilities()
    ev = odds.exact_ev()
    return {
        "rules": odds.rules.name,
        "decks": odds.rules.decks,
        "removed": list(odds.removed),
        "table": odds.table,
        "ev": float(ev),
        "probabilities": {k: float(v) for k, v in probabilities.items()},
        "pays": {k: float(v) for k, v in odds.payouts().items()},
        "cards_left": odds.shoe.cards_left,
        "ruleset": str(odds.rules),
        "exact": {
            "ev": str(ev),
            "probabilities": {k: str(v) for k, v in probabilities.items()},
        },
    }


_OUTCOME_NAMES = {
    "perfect": "perfect pair (same suit)",
    "coloured": "coloured pair (same colour)",
    "mixed": "mixed pair (red and black)",
    "pair": "pair (same rank)",
    "no_pair": "no pair",
}


def pair_text(odds: PairOdds) -> str:
    """A readable report: one row per outcome (pays, probability, share of the EV), then the EV.

    >>> from strategy_calc.rules import blackjack_rules
    >>> from strategy_calc.blackjack.pair_bet import analyse_pair
    >>> print(pair_text(analyse_pair(blackjack_rules("deluxe"))).splitlines()[-1])
    EV -0.040964 per unit side bet (house edge 4.0964%; exact -17/415)
    """
    from rich import box
    from rich.table import Table


    name = "perfect pairs" if odds.table == "perfect" else "any pair"
    removed = ",".join(odds.removed) or "none"
    title = f"Pair side bet, {name} table  |  {odds.rules}"
    shoe = (f"{odds.shoe.cards_left} of {52 * odds.rules.decks} cards left"
            f" (removed: {removed}); EV per unit side bet")
    probabilities = odds.exact_probabilities()
    pays = odds.payouts()
    table = Table(box=box.SIMPLE_HEAD)
    for header in ("first two cards", "pays", "probability", "exact", "EV share"):
        table.add_column(header, justify="left" if header == "first two cards" else "right")
    for outcome in odds.outcomes:
        shown = "loses" if outcome == "no_pair" else f"{float(pays[outcome]):g}:1"
        p = probabilities[outcome]
        table.add_row(_OUTCOME_NAMES[outcome], shown, f"{float(p):.6f}", str(p),
                      f"{float(p * pays[outcome]):+.6f}")
    ev = odds.exact_ev()
    return render(title, shoe, table, f"EV {float(ev):+.6f} per unit side bet"
                  f" (house edge {-float(ev):.4%}; exact {ev})")


# ---------------------------------------------------------------- baccarat


def odds_dict(
    odds: BaccaratOdds,
    eor: Mapping[str, Mapping[str, Fraction] | None] | None = None,
    exact: bool = False,
) -> dict[str, Any]:
    """The ``baccarat --json`` object: the CLI contract's keys, plus ``ruleset`` (the
    slug), ``payouts`` (the rules' fields), ``counts`` (the exact integers) and, when
    ``exact``, ``exact`` (the same figures as ``"numerator/denominator"`` strings)."""
    from dataclasses import asdict

    ev = odds.exact_ev()
    out: dict[str, Any] = {
        "rules": odds.rules.name,
        "decks": odds.rules.decks,
        "removed": list(odds.removed),
        "probabilities": odds.probabilities,
        "ev": {bet: float(v) for bet, v in ev.items()},
        "best": odds.best,
        "best_is_positive": odds.best_is_positive,
        "ruleset": str(odds.rules),
        "payouts": asdict(odds.rules),
        "cards_left": odds.cards_left,
        "counts": {
            "deals": odds.deals, "banker": odds.banker_wins, "player": odds.player_wins,
            "tie": odds.ties, "banker_on_six": odds.banker_wins_on_six,
            "player_pair": odds.player_pairs, "banker_pair": odds.banker_pairs,
        },
    }
    if eor is not None:
        out["eor"] = {rank: None if d is None else {bet: float(v) for bet, v in d.items()}
                      for rank, d in eor.items()}
    if exact:
        probabilities = odds.exact_probabilities()
        out["exact"] = {
            "probabilities": {b: str(probabilities[b]) for b in ("banker", "player", "tie")},
            "ev": {bet: str(v) for bet, v in ev.items()},
        }
        if eor is not None:
            out["exact"]["eor"] = {
                rank: None if d is None else {bet: str(v) for bet, v in d.items()}
                for rank, d in eor.items()}
    return out


def _pays(value: Fraction) -> str:
    """A payout as odds: ``8:1``, ``1:2``, ``0.95:1``."""
    if value.denominator == 1:
        return f"{value.numerator}:1"
    if value.numerator == 1:
        return f"1:{value.denominator}"
    return f"{float(value):g}:1"


def odds_text(
    odds: BaccaratOdds,
    eor: Mapping[str, Mapping[str, Fraction] | None] | None = None,
    exact: bool = False,
) -> str:
    """A readable report: a table of every bet, the best bet, optional fractions and EOR."""
    from rich import box
    from rich.table import Table

    rules = odds.rules
    removed = ",".join(odds.removed) or "none"
    title = (f"{rules}  |  {odds.cards_left} of {52 * rules.decks} cards left"
             f" (removed: {removed})")
    pays = {
        "banker": _pays(rules.payout("banker_pays")) + (
            f" (6: {_pays(rules.payout('banker_six_pays'))})"
            if rules.banker_six_pays != rules.banker_pays else ""),
        "player": _pays(rules.payout("player_pays")),
        "tie": _pays(rules.payout("tie_pays")),
        "player_pair": _pays(rules.payout("player_pair_pays")),
        "banker_pair": _pays(rules.payout("banker_pair_pays")),
    }
    probabilities = odds.exact_probabilities()
    ev = odds.exact_ev()
    table = Table(box=box.SIMPLE_HEAD)
    for header in ("bet", "pays", "P(win)", "EV per unit bet", "house edge", ""):
        table.add_column(header, justify="left" if header in ("bet", "pays", "") else "right")
    for bet in BETS:
        table.add_row(BET_NAMES[bet], pays[bet], f"{float(probabilities[bet]):.6f}",
                      f"{float(ev[bet]):+.6f}", f"{-float(ev[bet]):.4%}",
                      "<- best" if bet == odds.best else "")
    best = odds.best
    verdict = ("positive expectation for this shoe" if odds.best_is_positive
               else "no bet has positive expectation for this shoe")
    lines: list[Any] = [
        title,
        table,
        f"Player and Banker bets push on a tie (P(tie) = {float(probabilities['tie']):.6f}).",
        f"Best bet: {BET_NAMES[best]}, EV {float(ev[best]):+.6f} per unit bet: {verdict}.",
    ]
    if exact:
        lines.append("Exact (ordered 6-card deals, unused cards counted as dealt):")
        lines.append(f"  deals = {odds.deals}; banker wins = {odds.banker_wins}, player wins = "
                     f"{odds.player_wins}, ties = {odds.ties}, pairs = {odds.player_pairs}")
        for bet in ("banker", "player", "tie"):
            lines.append(f"  P({bet}) = {probabilities[bet]}")
        for bet in BETS:
            lines.append(f"  EV({bet}) = {ev[bet]}")
    if eor is not None:
        lines.append("Effect of removing one card of each rank: change of EV, % of the bet")
        effects = Table(box=box.SIMPLE_HEAD)
        effects.add_column("rank")
        for bet in BETS:
            effects.add_column(BET_NAMES[bet], justify="right")
        for rank, delta in eor.items():
            cells = (["-"] * len(BETS) if delta is None
                     else [f"{100 * float(delta[bet]):+.5f}" for bet in BETS])
            effects.add_row(rank, *cells)
        lines.append(effects)
    return render(*lines)


# ---------------------------------------------------------------- sweeps


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


# ---------------------------------------------------------------- count (dealt shoes)


def _finite(x: float | None) -> float | None:
    """``x``, or None when it is missing or not finite (JSON has no NaN)."""
    return x if x is not None and math.isfinite(x) else None


def _estimate(e: Estimate | None) -> dict[str, float | None] | None:
    return None if e is None else _figure(e.value, e.se)


def _figure(value: float, se: float) -> dict[str, float | None]:
    """A figure and its standard error as JSON (non-finite ones null)."""
    return {"value": _finite(value), "se": _finite(se)}


def count_dict(result: BlackjackCount) -> dict[str, Any]:
    """The ``count --format json`` object of a blackjack run (the keys are a CLI contract)."""
    c = result.counter
    win = result.win_rate_per_round
    return {
        "rules": c.rules.name, "decks": c.rules.decks, "ruleset": str(c.rules),
        "strategy": c.strategy, "system": c.system.name,
        "penetration": None if result.one_round_per_shuffle else result.penetration,
        "cut_card": None if result.one_round_per_shuffle else c.cut_card,
        "one_round_per_shuffle": result.one_round_per_shuffle, "seats": c.seats,
        "count_kind": c.count_kind,
        "side_counts": {side.name: {"ranks": [Rank(r).symbol for r in sorted(side.ranks)],
                                    "weight": side.weight} for side in c.side} or None,
        "rounds": result.rounds, "shoes": result.shoes, "seed": c.seed,
        "ev_per_round": _estimate(result.ev_per_round),
        "ev_off_the_top": result.ev_off_the_top,
        "cut_card_effect": _estimate(result.cut_card_effect),
        "by_true_count": [{"tc": row.tc, "frequency": row.frequency, "ev": row.ev}
                          for row in result.by_true_count],
        "spread": str(result.spread) if result.spread is not None else None,
        "win_rate_per_round": _estimate(win),
        "win_rate_per_100": _figure(100 * win.value, 100 * win.se)
        if win is not None else None,
        "sd_per_round": _finite(result.sd_per_round),
        "sd_per_round_se": _finite(result.sd_per_round_se),
        "n0": _finite(result.n0), "score": _finite(result.score),
        "score_se": _finite(result.score_se), "di": _finite(result.di),
        "bankroll": result.bankroll, "risk_of_ruin": _finite(result.risk_of_ruin),
        "moment_every": c.moment_every, "moment_rounds": result.moment_rounds,
        "wong": None if result.wong is None else {
            "enter": result.wong.enter, "exit": result.wong.exit,
            "share_played": result.share_played},
        **({} if result.optimal is None else {
            "optimal_ramp": optimal_ramp_dict(result.optimal, c.count_kind)}),
        **({} if c.boxes == 1 and not c.box_ramp else {
            "boxes": c.boxes,
            "box_ramp": {str(tc): n for tc, n in c.box_ramp} or None,
            "covariance_between_boxes": _estimate(result.covariance_between_boxes)}),
    }


def _ramp_result_dict(r: RampResult) -> dict[str, Any]:
    """A ramp's figures over a run's rounds (``count --optimize-ramp``'s JSON)."""
    win, sd, sd_se = r.win_rate_per_round, r.sd_per_round, r.sd_per_round_se
    return {
        "win_rate_per_round": _estimate(win),
        "win_rate_per_100": _figure(100 * win.value, 100 * win.se),
        "sd_per_round": _finite(sd), "sd_per_round_se": _finite(sd_se),
        "sd_per_100": None if sd is None else _figure(
            10 * sd, 10 * sd_se if sd_se is not None else math.nan),
        "score": {"value": _finite(r.score), "se": _finite(r.score_se)},
        "n0": _finite(r.n0), "di": _finite(r.di), "risk_of_ruin": _finite(r.risk_of_ruin),
        "hours_to_double": _finite(r.hours_to_double),
    }


def _figures_dict(f: RampFigures) -> dict[str, float | None]:
    """A ramp's figures from per-count data: per 100 rounds, units."""
    return {"win_rate_per_100": 100 * f.win, "sd_per_100": 10 * f.sd,
            "score": _finite(f.score), "n0": _finite(f.n0), "di": _finite(f.di),
            "risk_of_ruin": _finite(f.risk_of_ruin),
            "hours_to_double": _finite(f.hours_to_double)}


def optimal_ramp_dict(o: OptimisedRamp, kind: str = "true count") -> dict[str, Any]:
    """``count --optimize-ramp``'s ``"optimal_ramp"`` object (a CLI contract: the keys of
    issue 30 and those documented in docs/CLI.md)."""
    ramp, limits = o.ramp, o.ramp.limits
    spread = None
    if o.spread_result is not None and o.spread_figures is not None:
        spread = {"spread": str(o.spread_result.spread),
                  "within_limits": o.spread_within_limits,
                  "score_difference": _estimate(o.score_difference),
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
    }


def _optimal_ramp_text(o: OptimisedRamp, kind: str = "true count") -> list[Any]:
    """The optimal ramp's tables: the bets by count, then its figures beside the hand
    ramp's (the same rounds)."""
    from rich.table import Table

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
        ("win per 100 rounds", lambda r: _pm(r.win_rate_per_round, 100.0, "")),
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
    return [by_count, figures, note]


def _pm(e: Estimate | None, scale: float = 100.0, unit: str = "%") -> str:
    if e is None:
        return "-"
    se = f" +- {scale * e.se:.4f}{unit}" if math.isfinite(e.se) else ""
    return f"{scale * e.value:+.4f}{unit}{se}"


def count_text(result: BlackjackCount) -> str:
    """The blackjack ``count`` report: the figures, then EV and frequency by true count."""
    from rich.table import Table

    c = result.counter
    dealt = ("one round per shuffle (single_deck_one_round), so every round is dealt off"
             " the top and the cut-card effect is exactly 0" if result.one_round_per_shuffle
             else f"cut card {c.cut_card} cards from the end (penetration"
             f" {result.penetration:.1%})")
    seats = (f"; {c.seats} boxes at the table, the player's first, the others playing the"
             " same plan and their cards counted" if c.seats > 1 else "")
    if c.boxes > 1 or c.box_ramp:
        ramp = "".join(f", {n} from {tc:+d}" for tc, n in c.box_ramp)
        seats += (f"; the player plays {c.boxes} box{'es' if c.boxes > 1 else ''}{ramp},"
                  " each at the round's bet: a round's EV and SD are their total's")
    kind = c.count_kind
    keyed = ("true count (running count per deck unseen)" if kind == "true count" else
             f"running count from its IRC ({c.system.initial_running_count(c.rules.decks):g};"
             " an unbalanced count: bets, table and wonging by the running count)")
    sides = "".join(
        f"; bets add {side.weight:+.3f} points per card of its {side.name} side count"
        f" ({','.join(Rank(r).symbol for r in sorted(side.ranks))}) seen beyond the shoe's"
        " share (plays read the main count)" for side in c.side)
    head = (f"{c.rules}; {c.strategy} play, {c.system.name} {keyed} before each deal"
            f"{sides}; {result.rounds} rounds from {result.shoes}"
            f" shoes (seed {c.seed}), {dealt}{seats}")
    figures = Table(title="per round, units of the initial bet (+- one standard error)",
                    title_justify="left")
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    figures.add_row("EV per round, flat bets, " + (
        "as dealt" if result.one_round_per_shuffle else "cut card"), _pm(result.ev_per_round))
    figures.add_row("EV off the top (exact)", f"{100 * result.ev_off_the_top:+.4f}%")
    figures.add_row("cut-card effect", _pm(result.cut_card_effect))
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
                        _pm(win, 1.0, ""))
        if win is not None:
            figures.add_row("win per 100 rounds" + (" observed" if result.wong else ""),
                            _pm(win, 100.0, ""))
    sd, sd_se = result.sd_per_round, result.sd_per_round_se
    figures.add_row("SD per round" + (" (ramp)" if result.spread is not None else ""),
                    "-" if sd is None else f"{sd:.4f}" + (
                        f" +- {sd_se:.4f}" if sd_se is not None else ""))
    for name, value in (("N0 (rounds)", result.n0), ("SCORE", result.score),
                        ("DI", result.di), (f"risk of ruin, bankroll {result.bankroll:g}"
                                            if result.bankroll else "risk of ruin",
                                            result.risk_of_ruin)):
        if result.spread is not None or result.wong is not None:
            figures.add_row(name, f"{value:.4g}" if value is not None else "-")
    by_tc = Table(title=f"by {kind} (floored)", title_justify="left")
    by_tc.add_column(kind, justify="right")
    by_tc.add_column("frequency", justify="right")
    by_tc.add_column("EV per round", justify="right")
    for row in result.by_true_count:
        by_tc.add_row(f"{row.tc:+d}", f"{row.frequency:.4f}", f"{100 * row.ev:+.3f}%")
    note = (f"second moments exact on {result.moment_rounds} rounds (one in"
            f" {c.moment_every}); every round's EV exact")
    extra = [] if result.optimal is None else _optimal_ramp_text(result.optimal, c.count_kind)
    return render(head, figures, note, by_tc, *extra)


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
            r.counter.system.name, _pm(r.win_rate_per_round, 100.0, ""),
            f"{r.sd_per_round:.4f}" if r.sd_per_round is not None else "-",
            (f"{r.score:.2f}" + (f" +- {r.score_se:.2f}" if r.score_se is not None else ""))
            if r.score is not None else "-",
            f"{r.n0:.4g}" if r.n0 is not None else "-",
            f"{r.di:.3f}" if r.di is not None else "-")
    note = ("SCORE's SE by the delta method from the win rate's and the SD's, their"
            " covariance taken as 0; the systems' differences are paired (same shoes)")
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
            r.counter.system.name, r.counter.count_kind, _pm(got.win_rate_per_round, 100.0, ""),
            (f"{got.score:.2f}" + (f" +- {got.score_se:.2f}" if got.score_se is not None
                                   else "")) if got.score is not None else "-",
            f"{got.n0:.4g}" if got.n0 is not None else "-",
            f"{got.di:.3f}" if got.di is not None else "-")
    return render(head, table, note, best,
                  "Each ramp is chosen on its own system's counts from the same rounds it is"
                  " scored on (an upper estimate; MODEL.md, \"Optimal bet ramps\").")


def comparison_plot(result: Comparison, path: str) -> None:
    """EV against the (floored) true count, one line per system, as a PNG."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for r in result.results:
        rows = [row for row in r.by_true_count if row.frequency * r.rounds >= 20]
        ax.plot([row.tc for row in rows], [100 * row.ev for row in rows], marker="o",
                label=r.counter.system.name)
    ax.axhline(0, color="#888", linewidth=0.8)
    kinds = sorted({r.counter.count_kind for r in result.results})
    ax.set_xlabel(f"{' / '.join(kinds)} (floored; bins of at least 20 rounds)")
    ax.set_ylabel("EV per round (%)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def count_plot(result: BlackjackCount, path: str) -> None:
    """EV and frequency by true count, as a PNG (needs the ``plot`` extra: matplotlib)."""
    plt = _pyplot()
    rows = result.by_true_count
    fig, ax = plt.subplots(figsize=(8, 4.5))
    tcs = [r.tc for r in rows]
    ax.bar(tcs, [100 * r.frequency for r in rows], color="#9ecae1", label="frequency (%)")
    ax.set_xlabel(f"{result.counter.count_kind} (floored)")
    ax.set_xticks(_integer_ticks(tcs))  # the counts are whole numbers: no -7.5 ticks
    ax.set_ylabel("frequency of rounds (%)")
    ev_ax = ax.twinx()
    ev_ax.plot(tcs, [100 * r.ev for r in rows], "o-", color="#d62728", label="EV (%)")
    ev_ax.axhline(0.0, color="grey", linewidth=0.8)
    ev_ax.set_ylabel("exact EV per round (%)")
    c = result.counter
    dealt = ("one round per shuffle" if result.one_round_per_shuffle
             else f"penetration {result.penetration:.0%}")
    ax.set_title(f"{c.rules.name}, {c.rules.decks} decks, {c.strategy}:"
                 f" {result.rounds} rounds, {dealt}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _integer_ticks(values: Sequence[int], most: int = 15) -> list[int]:
    """Whole-number ticks over ``values``' range, at most about ``most`` of them.

    >>> _integer_ticks([-9, -3, 0, 4]), _integer_ticks([0])
    ([-9, -8, -7, -6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4], [0])
    >>> _integer_ticks(list(range(-30, 31)))[:3]
    [-30, -25, -20]
    """
    low, high = min(values, default=0), max(values, default=0)
    step = max(1, math.ceil((high - low + 1) / most))
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 10**9) if s >= step)
    start = low - low % step if low % step else low
    return list(range(start, high + 1, step))


def _pyplot() -> Any:
    """matplotlib's pyplot on the non-interactive backend, or a clear error."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot needs matplotlib: pip install 'strategy_calc[plot]'"
                         ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def baccarat_count_dict(result: BaccaratCount) -> dict[str, Any]:
    """The baccarat ``count --format json`` object (the keys are a CLI contract)."""
    r = result.rules
    return {
        "rules": r.name, "decks": r.decks, "ruleset": str(r), "shoes": result.shoes,
        "seed": result.seed, "cut_card": result.cut_card, "hands": result.hands,
        "bets": {bet: {
            "ev_off_the_top": b.ev_off_the_top,
            "positive_share": b.positive_share,
            "mean_edge_when_positive": _finite(b.mean_edge_when_positive),
            "win_per_shoe": _estimate(b.win_per_shoe),
            "linear_count_win_per_shoe": _estimate(b.linear_count_win_per_shoe),
        } for bet, b in result.bets.items()},
    }


def _se(se: float) -> str:
    return f"{se:.4f}" if math.isfinite(se) else "-"


def baccarat_count_text(result: BaccaratCount) -> str:
    """The baccarat ``count`` report: one row per bet."""
    from rich.table import Table

    r = result.rules
    head = (f"{r}; {result.shoes} shoes (seed {result.seed}), {result.hands} hands, cut card"
            f" {result.cut_card} cards from the end; each hand's EV exact for the cards"
            " not yet seen")
    table = Table(title="per unit bet; win per shoe in units, +- one standard error",
                  title_justify="left")
    for name in ("bet", "EV off top", "EV > 0", "edge then", "win/shoe", "+-",
                 "linear count", "+-"):
        table.add_column(name, justify="left" if name == "bet" else "right")
    for bet, b in result.bets.items():
        edge = b.mean_edge_when_positive
        win, lin = b.win_per_shoe, b.linear_count_win_per_shoe
        table.add_row(BET_NAMES[bet], f"{100 * b.ev_off_the_top:+.3f}%",
                      f"{100 * b.positive_share:.2f}%",
                      f"{100 * edge:+.2f}%" if edge is not None else "-",
                      f"{win.value:+.4f}", _se(win.se), f"{lin.value:+.4f}", _se(lin.se))
    note = ("EV > 0: share of hands with a positive exact EV; win/shoe: units won per shoe by"
            " betting 1 unit on exactly those hands (perfect information); linear count: on"
            " the hands a linear count from the effects of removal calls positive")
    return render(head, table, note)


# ---------------------------------------------------------------- rulesets


def rules_dict(info: RulesetInfo) -> dict[str, Any]:
    """The ``rules NAME --json`` object: every field with its value, meaning, allowed values."""
    return {"name": info.name, "game": info.game, "description": info.description,
            "ruleset": info.summary,
            "fields": {f.name: {"value": f.value, "meaning": f.meaning, "allowed": f.allowed,
                                "rule_text": f.source, "set_by": f.set_by}
                       for f in info.fields}}


def rules_text(info: RulesetInfo) -> str:
    """Every field of a ruleset: ``field = value (allowed)``, its meaning and rule text,
    and for a field the file inherits, the base that set it."""
    from rich.padding import Padding

    lines: list[Any] = [f"{info.name} ({info.game}): {info.description}", info.summary, ""]
    for f in info.fields:
        value = str(f.value).lower() if isinstance(f.value, bool) else f.value
        by = "" if f.set_by in ("", info.name) else f"; from base {f.set_by}"
        lines.append(f"{f.name} = {value}    (allowed: {f.allowed}{by})")
        if f.meaning:
            lines.append(Padding(f.meaning.replace("``", ""), (0, 0, 0, 4)))
        if f.source:
            lines.append(Padding(f"rule text: {f.source}", (0, 0, 0, 4)))
    lines.append("")
    lines.append("Change any field with --set FIELD=VALUE, e.g. --set decks=2.")
    return render(*lines)


def rulesets_dict(rulesets: Sequence[Ruleset]) -> dict[str, Any]:
    """The ``rules --json`` object (no name): every built-in ruleset."""
    return {"rulesets": [{"name": r.name, "game": r.game, "description": r.description,
                          "aliases": list(r.aliases)} for r in rulesets]}


def rulesets_text(rulesets: Sequence[Ruleset]) -> str:
    """The built-in rulesets, one line each (``rules`` without a name)."""
    lines = [f"{r.name} ({r.game}{', alias ' + ', '.join(r.aliases) if r.aliases else ''}):"
             f" {r.description}" for r in rulesets]
    lines.append("strategy-calc rules NAME shows every field of one.")
    return render(*lines)


def eor_plot(result: EffectsOfRemoval, path: str) -> None:
    """The effects of removal as bars, in % of a unit bet (matplotlib)."""
    plt = _pyplot()
    ranks = [r.symbol for r in RANKS]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    values = [100 * result.game[r] for r in ranks]
    ax.bar(ranks, values, color=["#2b8a3e" if v > 0 else "#c92a2a" for v in values])
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xlabel("rank removed from a full shoe")
    ax.set_ylabel("change in the game's EV (% of a unit bet)")
    ax.set_title(f"effects of removal: {result.rules}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def risk_plot(data: Mapping[str, Any], paths: Sequence[tuple[int, Mapping[str, float]]],
              path: str) -> None:
    """The round's result distribution and the bankroll's path quantiles (matplotlib)."""
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    xs = [float(k) for k in data["outcomes"]]
    left.bar(xs, list(data["outcomes"].values()), width=0.2, color="#4263eb")
    left.set_yscale("log")
    left.set_xlabel("net result of a round (units)")
    left.set_ylabel("probability (log scale)")
    left.set_title(f"one round, {data['strategy']} play")
    rounds = [n for n, _q in paths]
    for q in paths[0][1]:
        right.plot(rounds, [data["bankroll"] + qs[q] for _n, qs in paths], label=q)
    right.axhline(0.0, color="#c92a2a", linewidth=1.0, label="ruin")
    right.set_xlabel("rounds")
    right.set_ylabel("bankroll (units), quantiles")
    right.set_title(f"bankroll {data['bankroll']:g}: risk of ruin"
                    f" {data['risk_of_ruin']:.2%} in {data['rounds']} rounds")
    right.legend(fontsize=8)
    fig.suptitle(str(data["ruleset"]), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ---------------------------------------------------------------- count systems
def counts_dict(systems: Sequence[CountSystem]) -> dict[str, Any]:
    """The ``counts --json`` object: ``{"systems": {NAME: {"tags": {"A": t, ..., "T": t},
    "balanced", "side_counts", "divisor", "source", ...}}}``."""
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
    lines += textwrap.wrap("count --system and indices --count take the balanced ones (they"
                           " read a true count); side counts are listed, not yet read by any"
                           " analysis.", 79)
    return "\n".join(lines)


# -- the study drill ----------------------------------------------------------------------


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
