"""Printed pages: the paper sizes and one page laid out to PDF by weasyprint."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from strategy_calc.errors import InputError

if TYPE_CHECKING:
    pass


PAPERS = {"a4": ("A4", 210.0, 297.0), "letter": ("letter", 215.9, 279.4)}
"""Paper sizes of the printable chart: CSS name, width and height in mm."""


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


def require_pdf(paper: str) -> None:
    """Refuse a PDF without weasyprint or on an unknown paper (one input error)."""
    try:
        import weasyprint  # type: ignore[import-untyped, unused-ignore]  # noqa: F401
    except ImportError:
        raise InputError("PDF charts need weasyprint: pip install 'strategy_calc[pdf]'"
                         ) from None
    if paper not in PAPERS:
        raise InputError(f"unknown paper {paper!r}: choose from {', '.join(PAPERS)}")
