"""Count indices: the table, the grids of every play, CSV, the printed page."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from strategy_calc.counting.families import RunningCountFamily
from strategy_calc.render.chart import HTML_COLOURS
from strategy_calc.render.pages import PAPERS, one_page_pdf, require_pdf
from strategy_calc.render.text import render

if TYPE_CHECKING:
    from strategy_calc.counting.families import Family
    from strategy_calc.counting.indices import CountIndex, IndexMatrix, IndexTable


INDEX_DEFINITION = (
    "index: the true count at which EV(play) - EV(versus) changes sign, exact: every step of"
    " the count family is a real shoe composition analysed exactly, linearly interpolated"
    " between steps; linear_index: the removal-based linear estimate (the play's effects"
    " of removal off the top, Griffin's linear model along the same family); null where"
    " the play keeps one side over true counts -20 to +20 or is not allowed"
)
"""How ``indices`` defines its two figures (docs/MODEL.md says more)."""

RUNNING_INDEX_DEFINITION = (
    "index: the running count (from the system's IRC, the player's two cards and the up"
    " card counted) at which EV(play) - EV(versus) changes sign, at half the shoe dealt:"
    " every step of the running-count family is the average unseen half shoe at that count,"
    " rounded to whole cards and analysed exactly, linearly interpolated between steps;"
    " true_count_equivalent: the same index as the excess over the average running count"
    " at that depth per deck remaining, plus the deck's tag sum (at the pivot it is the"
    " same at every depth); linear_index: the removal-based linear estimate on the"
    " family's line; null where the play keeps one side over equivalent true counts -20"
    " to +20 or is not allowed"
)
"""How ``indices`` defines its figures for an unbalanced system (KO, Red 7)."""


def count_kind(family: Family) -> str:
    """``true count`` or ``running count``: the unit of the family's indices."""
    return f"{family.index_kind} count"


def _family_head(family: Family) -> str:
    """What the indices are: a true count, or a running count from its IRC and pivot at
    the family's depth."""
    if not isinstance(family, RunningCountFamily):
        return "true count"
    pivot = "none" if family.pivot is None else f"{family.pivot:+g}"
    return (f"running count from the IRC {family.irc:+g}, pivot {pivot}, at"
            f" {family.decks_remaining:g} decks remaining")


def _equivalent(family: Family, index: float | None) -> float | None:
    """An index as a true count (itself for a balanced system)."""
    return None if index is None else family.true_count_of(index)


def _index_row(row: CountIndex, family: Family) -> dict[str, Any]:
    """One decision's index as ``indices --json`` lists it."""
    return {"decision": row.decision.name, "hand": row.decision.hand, "up": row.decision.up,
            "actions": list(row.decision.actions), "index": row.index, "above": row.above,
            "published": row.decision.published, "note": row.note,
            "linear_index": row.linear_index, "group": row.decision.group,
            "risk_averse_index": row.risk_averse_index,
            "true_count_equivalent": _equivalent(family, row.index)}


def indices_dict(table: IndexTable, matrix: IndexMatrix | None = None) -> dict[str, Any]:
    """The ``indices --format json`` object: ``indices`` the published decisions (or the
    one cell asked for), ``matrix`` every play of every start when computed;
    ``index_kind`` ``true`` or ``running`` (an unbalanced system: running counts from
    ``irc``, with its ``pivot``, at ``decks_remaining``)."""
    family = table.family
    running = isinstance(family, RunningCountFamily)
    out: dict[str, Any] = {
        "rules": table.rules.name,
        "decks": table.rules.decks,
        "ruleset": str(table.rules),
        "count": table.count.name,
        "family": family.describe(),
        "published_for": RUNNING_PUBLISHED if running else
                         "Hi-Lo Illustrious 18 (Schlesinger), 6 decks S17 DAS; compare under"
                         " blackjack_rules('deluxe', ['decks=6', 'surrender=none']); Fab 4"
                         " (late surrender) under blackjack_rules('deluxe', ['decks=6',"
                         " 'surrender=late'])",
        "definition": RUNNING_INDEX_DEFINITION if running else INDEX_DEFINITION,
        "risk_averse": table.risk_averse or None,
        "index_kind": family.index_kind,
        "irc": family.irc if isinstance(family, RunningCountFamily) else None,
        "pivot": family.pivot if isinstance(family, RunningCountFamily) else None,
        "decks_remaining": family.decks_remaining,
        "indices": [_index_row(row, family) for row in table.rows],
    }
    if matrix is not None:
        out["matrix"] = [
            {"kind": cell.kind, "label": cell.label, "hand": cell.hand, "up": cell.up,
             "plays": [{"play": row.decision.actions[0], "versus": row.decision.actions[1],
                        "index": row.index, "linear_index": row.linear_index,
                        "above": row.above, "note": row.note,
                        "true_count_equivalent": _equivalent(family, row.index)}
                       for row in cell.rows]}
            for cell in matrix.cells
        ]
    return out


def indices_text(table: IndexTable, matrix: IndexMatrix | None = None) -> str:
    """The ``indices`` table: each decision's index beside its linear estimate and the
    published one; then, with ``matrix``, the grids a counter prints."""
    from rich.table import Table

    rules = table.rules
    out = Table(title=f"{table.count.name} count indices ({_family_head(table.family)}),"
                f" {rules}", title_justify="left")
    out.add_column("decision", no_wrap=True)
    for name in ("at or above", "below"):
        out.add_column(name)
    running = table.family.index_kind == "running"
    compared = ("TC eq.",) if running else ("pub.", "diff")
    numbers = ("index", "linear", *(("RA",) if table.risk_averse else ()), *compared)
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
        equivalent = _equivalent(table.family, row.index)
        out.add_row(
            row.decision.name, shown.get(first, first), shown.get(second, second),
            *("-" if x is None else f"{x:+.2f}" for x in figures),
            *(["-" if equivalent is None else f"{equivalent:+.2f}"] if running else [
                "-" if published is None else f"{published:+d}",
                "-" if row.difference is None else f"{row.difference:+.2f}"]),
            *([mark] if notes else []),
        )
    lines = [f"family: {table.family.describe()}",
             f"published: {RUNNING_PUBLISHED}" if running else
             "published: Hi-Lo Illustrious 18 (Schlesinger), 6 decks S17 DAS, the rules they"
             " match here: --rules deluxe --decks 6 --set surrender=none; (R): the Fab 4"
             " (late surrender), with --set surrender=late",
             RUNNING_INDEX_DEFINITION if running else INDEX_DEFINITION, *footnotes]
    if table.risk_averse:
        lines.insert(2, f"RA: the risk-averse index ({table.risk_averse}): where the play"
                     " gains more EV than half the bet's share of the bankroll times its"
                     " increase in E[X^2] (Schlesinger)")
    text = render(out, *lines)
    return text if matrix is None else text + "\n\n" + index_grids(matrix)


RUNNING_PUBLISHED = (
    "none beside a running count (the decisions' published figures are Hi-Lo"
    " true counts); KO's published running-count indices (Vancura and Fuchs, Knock-Out"
    " Blackjack) are in docs/REFERENCE.md"
)
"""The ``published`` line and ``published_for`` of an unbalanced system's indices."""


GRIDS = (("hard", "stand", "hard totals: stand (else hit)"),
         ("hard", "double", "hard totals: double (else hit or stand)"),
         ("hard", "surrender", "hard totals: surrender (else play on)"),
         ("soft", "stand", "soft totals: stand (else hit)"),
         ("soft", "double", "soft totals: double (else hit or stand)"),
         ("pair", "split", "pairs: split (else hit, stand or double)"))
"""The grids of :func:`index_grids`: (kind, play, title)."""


def _grid_cell(row: CountIndex | None) -> str:
    """A grid entry: the index (the play at or above it), ``<`` before it when the play is
    better below it, ``all`` / ``-`` when it is always / never taken, blank if not allowed.

    >>> _grid_cell(None)
    ''
    """
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
    kind = count_kind(matrix.family)
    for play, title, rows in _grid_rows(matrix):
        lines = [f"{title}; {kind} at or above which to {play}",
                 f"{'':>6}" + "".join(f"{u:>7}" for u in matrix.up_cards)]
        lines += [f"{label:>6}" + "".join(f"{e:>7}" for e in texts) for label, texts in rows]
        blocks.append("\n".join(lines))
    insurance = [r for c in matrix.cells if c.kind == "insurance" for r in c.rows]
    if insurance:
        blocks.append(f"insurance: at or above {_grid_cell(insurance[0])}")
    span = ("equivalent true count" if matrix.family.index_kind == "running"
            else "true count")
    blocks.append(textwrap.fill(
        f"'<' before an index: the play is better at or below it; 'all': at every {span}"
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
    head = _family_head(table.family)
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
        f"<p>{html.escape(str(rules))}. {html.escape(head[:1].upper() + head[1:])}"
        " at or above which to take each play"
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
    require_pdf(paper)
    return one_page_pdf(lambda scale: indices_print_html(table, matrix, paper, scale),
                        f"the index chart of {table.rules.name}", paper)
