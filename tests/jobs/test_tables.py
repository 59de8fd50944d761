"""The committed charts in tables/ are exactly what the code generates."""

from __future__ import annotations

from pathlib import Path

import pytest

from strategy_calc.jobs.tables import generate, pdf_names

TABLES = Path(__file__).resolve().parents[2] / "tables"


@pytest.mark.slow
def test_committed_tables_match_the_code() -> None:
    files = generate()
    stale = [name for name, text in files.items()
             if not (TABLES / name).is_file() or (TABLES / name).read_text("utf-8") != text]
    assert not stale, f"stale tables (run `strategy-calc tables`): {stale}"
    missing = [name for name in pdf_names() if not (TABLES / name).is_file()]
    assert not missing, f"PDF charts missing from tables/ (run `strategy-calc tables`): {missing}"
    extra = sorted(p.name for p in TABLES.iterdir()
                   if p.name not in files and p.name not in pdf_names())
    assert not extra, f"files in tables/ the code does not generate: {extra}"
