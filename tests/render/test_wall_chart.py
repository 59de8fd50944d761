"""The printable wall chart (``chart --format pdf``): typeset by weasyprint, read back
with pypdf (an independent PDF reader) to count its pages and check what it says."""

from __future__ import annotations

import io

import pypdf
import pytest
from typer.testing import CliRunner
from wall_charts import same_chart, wall_chart_pdf

import strategy_calc as sc
from strategy_calc.cli import app
from strategy_calc.jobs.tables import table_specs

MM = 72 / 25.4  # PDF points per millimetre


def _pdf(name: str, decks: int, paper: str = "a4") -> pypdf.PdfReader:
    """The wall chart, typeset once per process (tests of one chart share it)."""
    return pypdf.PdfReader(io.BytesIO(wall_chart_pdf(name, decks, paper)))



@pytest.mark.render
@pytest.mark.parametrize(("name", "decks"), [
    pytest.param(name, decks, marks=same_chart(name, decks))
    for name, decks in table_specs()])
def test_every_built_in_chart_prints_on_one_a4_page(name: str, decks: int) -> None:
    """Every built-in ruleset at 1, 2, 6 and 8 decks: one A4 page (210 x 297 mm) whose
    title names the ruleset and the house edge, with the exceptions on the same page."""
    reader = _pdf(name, decks)
    assert len(reader.pages) == 1
    page = reader.pages[0]
    assert abs(float(page.mediabox.width) / MM - 210) < 1
    assert abs(float(page.mediabox.height) / MM - 297) < 1
    text = page.extract_text()
    game = sc.analyse_game(sc.blackjack_rules(name, decks=decks))
    assert f"{name}, {decks} deck" in text
    assert f"house edge {-game.ev_basic * 100:.3f}%" in text
    assert f"exceptions ({len(game.exceptions)})" in text or not game.exceptions


@pytest.mark.render
@pytest.mark.parametrize(("name", "decks"), [("deluxe", 1), ("macau-1983", 1)])
def test_the_fullest_charts_print_on_one_letter_page(name: str, decks: int) -> None:
    reader = _pdf(name, decks, "letter")
    assert len(reader.pages) == 1
    assert abs(float(reader.pages[0].mediabox.width) / MM - 215.9) < 1


@pytest.mark.render
@same_chart("macau-1983", 6)  # reads the A4 test's PDF
def test_the_legend_lists_only_the_codes_the_chart_uses() -> None:
    """Macau 1983 at 6 decks doubles on 11 only (never "double, else stand") and has
    no pair-split-if-DAS cells (no double after split)."""
    text = _pdf("macau-1983", 6).pages[0].extract_text()
    assert "double, else hit" in text and "surrender if allowed, else hit" in text
    assert "double, else stand" not in text
    assert "split if double after split is allowed" not in text


@pytest.mark.render
def test_chart_format_pdf_writes_one_page_to_a_file_or_stdout(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "chart.pdf"
    runner = CliRunner()
    result = runner.invoke(app, ["chart", "--rules", "deluxe", "--decks", "2", "--format",
                                 "pdf", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(pypdf.PdfReader(out).pages) == 1
    piped = runner.invoke(app, ["chart", "--rules", "deluxe", "--decks", "2", "--format",
                                "PDF", "--paper", "letter"])
    assert piped.exit_code == 0
    assert piped.stdout_bytes.startswith(b"%PDF-")
