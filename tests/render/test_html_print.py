"""The HTML chart (``chart --format html`` and ``tables/*.html``) prints on one A4 page in
a real browser: Debian's Chromium prints it to PDF (``--print-to-pdf``) and pypdf, an
independent reader, counts the pages.

Chromium comes from the system (``apt-get install chromium``), not from pip. Without
it these tests skip, unless ``STRATEGY_CALC_REQUIRE_BROWSER=1`` (set by ``.ci/run``,
which installs it) turns the skip into a failure.
"""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import pypdf
import pytest
from browser import chromium

import strategy_calc as sc
from strategy_calc.jobs.tables import table_specs
from strategy_calc.render.chart import chart_html

MM = 72 / 25.4  # PDF points per millimetre


def print_in_chromium(page: str, tmp_path: Path) -> pypdf.PdfReader:
    """``page`` printed to PDF by headless Chromium, with no header or footer."""
    source, pdf = tmp_path / "chart.html", tmp_path / "chart.pdf"
    source.write_text(page, encoding="utf-8")
    subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
         f"--user-data-dir={tmp_path / 'profile'}", f"--print-to-pdf={pdf}",
         source.as_uri()],
        check=True, capture_output=True, timeout=120)
    return pypdf.PdfReader(pdf)


def assert_one_a4_page(reader: pypdf.PdfReader) -> None:
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert abs(float(box.width) / MM - 210) < 1 and abs(float(box.height) / MM - 297) < 1


@pytest.mark.render
@pytest.mark.parametrize(("name", "decks"), table_specs())
def test_every_shipped_html_chart_prints_on_one_a4_page_in_chromium(
        name: str, decks: int, tmp_path: Path) -> None:
    """The shipped ``tables/NAME-Ndeck.html`` (``tables --check`` keeps them equal to
    ``chart --format html``), exceptions included on the same page."""
    page = (Path(__file__).resolve().parents[2] / "tables" / f"{name}-{decks}deck.html").read_text(
        encoding="utf-8")
    reader = print_in_chromium(page, tmp_path)
    assert_one_a4_page(reader)
    text = reader.pages[0].extract_text()
    assert f"{name}, {decks} deck" in text
    assert "Composition-dependent exceptions" in text


@pytest.mark.render
def test_a_chart_with_eighty_exceptions_still_prints_on_one_page(tmp_path: Path) -> None:
    """The scale estimate holds beyond the built-in charts (34 exceptions at most): the
    one-deck Deluxe chart with its exception list repeated to 80 entries."""
    game = sc.analyse_game(sc.blackjack_rules("deluxe", decks=1))
    many = (list(game.exceptions) * 3)[:80]
    page = chart_html(dataclasses.replace(game, exceptions=tuple(many)))
    reader = print_in_chromium(page, tmp_path)
    assert_one_a4_page(reader)
    assert "exceptions (80)" in reader.pages[0].extract_text()
