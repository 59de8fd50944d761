"""What every rendering shares: the terminal's width, rich renderables made text, the figures
JSON may carry (no NaN) and the ``value +- se`` forms."""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from strategy_calc.counting.sampling import Estimate


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


def finite(x: float | None) -> float | None:
    """``x``, or None when it is missing or not finite (JSON has no NaN).

    >>> finite(0.5), finite(float("nan")), finite(None)
    (0.5, None, None)
    """
    return x if x is not None and math.isfinite(x) else None


def estimate_dict(e: Estimate | None) -> dict[str, float | None] | None:
    """An estimate as JSON (:func:`figure_dict`), or None."""
    return None if e is None else figure_dict(e.value, e.se)


def figure_dict(value: float, se: float) -> dict[str, float | None]:
    """A figure and its standard error as JSON (non-finite ones null)."""
    return {"value": finite(value), "se": finite(se)}


def plus_minus(e: Estimate | None, scale: float = 100.0, unit: str = "%") -> str:
    """An estimate as ``value +- se``, scaled (a percentage by default); ``-`` for none.

    >>> from strategy_calc.counting.sampling import Estimate
    >>> plus_minus(Estimate(-0.0051, 0.0012)), plus_minus(None)
    ('-0.5100% +- 0.1200%', '-')
    """
    if e is None:
        return "-"
    se = f" +- {scale * e.se:.4f}{unit}" if math.isfinite(e.se) else ""
    return f"{scale * e.value:+.4f}{unit}{se}"


def se_text(se: float) -> str:
    """A standard error to four places, ``-`` when it is not finite.

    >>> se_text(0.01234), se_text(float("inf"))
    ('0.0123', '-')
    """
    return f"{se:.4f}" if math.isfinite(se) else "-"
