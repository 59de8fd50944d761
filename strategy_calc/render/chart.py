"""The basic-strategy chart: text, JSON, Markdown, CSV, HTML, the printed page and its PDF."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from strategy_calc.cards import decks_words
from strategy_calc.render.pages import PAPERS, one_page_pdf, require_pdf
from strategy_calc.render.text import render

if TYPE_CHECKING:
    from strategy_calc.blackjack.game_analysis import GameAnalysis


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
    sections: list[tuple[str, list[tuple[str, Mapping[str, str]]]]] = [
        ("Hard totals", hard), ("Soft totals", soft), ("Pairs", pairs)]
    late = game.chart.after_hit_rows()  # (double_after_hit: hands of three or more cards)
    if late:
        rows: list[tuple[str, Mapping[str, str]]] = [
            (f"{kind} {t}", cells) for kind in ("hard", "soft")
            for t, cells in late.get(kind, {}).items()]
        sections.append(("After a hit (three or more cards; double_after_hit)", rows))
    return sections


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
        **({"after_hit": {kind: {str(t): cells for t, cells in rows.items()}
                          for kind, rows in game.chart.after_hit_rows().items()}}
           if game.rules.double_after_hit else {}),
    }


def chart_markdown(game: GameAnalysis) -> str:
    """The chart as markdown tables with the legend, house edge and exceptions."""
    lines = [f"# Basic strategy: {game.rules.name}, {decks_words(game.rules.decks)}", "",
             f"Rules: `{game.rules}`", ""]
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
    the scale it gives is at or under the one measured (tests/render/test_html_print.py
    prints every built-in chart and an 80-exception one in Chromium):

    >>> html_print_scale(12), round(html_print_scale(34), 3), round(html_print_scale(90), 3)
    (1.0, 0.915, 0.652)
    """
    return min(1.0, 279.0 / (230.0 + 2.2 * exceptions))


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
    title = (f"{rules.name}, {decks_words(rules.decks)}: basic strategy"
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
    require_pdf(paper)
    return one_page_pdf(lambda scale: chart_print_html(game, paper, scale),
                        f"the chart of {game.rules.name}", paper)
