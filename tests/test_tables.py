"""The committed charts in tables/ are exactly what the code generates."""

from __future__ import annotations

from pathlib import Path

from strategy_calc.tables import generate

TABLES = Path(__file__).resolve().parent.parent / "tables"


def test_committed_tables_match_the_code() -> None:
    files = generate()
    stale = [name for name, text in files.items()
             if not (TABLES / name).is_file() or (TABLES / name).read_text("utf-8") != text]
    assert not stale, f"stale tables (run `strategy-calc tables`): {stale}"
    extra = sorted(p.name for p in TABLES.iterdir() if p.name not in files)
    assert not extra, f"files in tables/ the code does not generate: {extra}"
