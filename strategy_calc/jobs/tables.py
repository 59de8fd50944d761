"""The generated chart files in ``tables/``: every built-in blackjack ruleset at its
default deck count and at 1, 2, 6 and 8 decks, in markdown, HTML and a one-page PDF.

The PDFs (:func:`generate_pdfs`, needing the ``pdf`` extra) are not compared by
``tables --check``: their embedded font subsets carry random tags, so the same chart
gives different bytes; ``--check`` only asks that each exists."""

from __future__ import annotations

from collections.abc import Callable

from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.render.chart import chart_html, chart_markdown, chart_pdf
from strategy_calc.rules import RULESETS, blackjack_rules

TABLE_DECKS = (1, 2, 6, 8)


def table_specs() -> list[tuple[str, int]]:
    """(ruleset, decks) pairs that ``tables/`` holds.

    >>> table_specs()[:2]
    [('macau-1983', 1), ('macau-1983', 2)]
    """
    specs = []
    for ruleset in RULESETS:
        if ruleset.game == "blackjack":
            default = blackjack_rules(ruleset.name).finite_decks("tables/")
            specs += [(ruleset.name, decks) for decks in sorted({*TABLE_DECKS, default})]
    return specs


def generate(progress: Callable[[int, int], None] | None = None) -> dict[str, str]:
    """File name -> content of every generated table, plus an index ``README.md``."""
    files: dict[str, str] = {}
    index = ["# Generated strategy charts", "",
             "Regenerate with `strategy-calc tables` (CI checks they match the code).", "",
             "| ruleset | decks | house edge (chart) | house edge (optimal) | files |",
             "|---|---|---|---|---|"]
    specs = table_specs()
    for i, (name, decks) in enumerate(specs):
        game = analyse_game(blackjack_rules(name, decks=decks))
        stem = f"{name}-{decks}deck"
        files[f"{stem}.md"] = chart_markdown(game)
        files[f"{stem}.html"] = chart_html(game)
        index.append(f"| {name} | {decks} | {-game.ev_basic * 100:.4f}% |"
                     f" {-game.ev_optimal * 100:.4f}% | [md]({stem}.md), [html]({stem}.html),"
                     f" [pdf]({stem}.pdf) |")
        if progress is not None:
            progress(i + 1, len(specs))
    files["README.md"] = "\n".join(index) + "\n"
    return files


def pdf_names() -> list[str]:
    """The PDF file names ``tables/`` holds, one per :func:`table_specs` entry."""
    return [f"{name}-{decks}deck.pdf" for name, decks in table_specs()]


def generate_pdfs(progress: Callable[[int, int], None] | None = None) -> dict[str, bytes]:
    """File name -> one-page A4 PDF of every chart
    (:func:`strategy_calc.render.chart.chart_pdf`)."""
    files: dict[str, bytes] = {}
    specs = table_specs()
    for i, (name, decks) in enumerate(specs):
        files[f"{name}-{decks}deck.pdf"] = chart_pdf(
            analyse_game(blackjack_rules(name, decks=decks)))
        if progress is not None:
            progress(i + 1, len(specs))
    return files
