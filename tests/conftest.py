"""Test tiers and determinism for the whole suite.

Tiers (markers in pyproject.toml): ``oracle`` (brute forces and the exact oracle on
whole games), ``statistical`` (seeded runs checked against exact figures), ``render``
(PDF and plot rendering), ``parallel`` (process pools, threads, a Dask cluster) and
``slow`` (anything else that costs more than a few tenths of a second). Every one of
the four kinds is also ``slow``, so ``pytest -m "not slow"`` is the developer's tier
and ``pytest -m render`` (say) selects one kind.

Hypothesis runs derandomised with no example database, so every run (and every
xdist worker) tries the same examples.
"""

from __future__ import annotations

import pytest
from hypothesis import settings

KINDS = ("oracle", "statistical", "render", "parallel")

settings.register_profile("deterministic", derandomize=True, database=None,
                          print_blob=True)
settings.load_profile("deterministic")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test of one of the costly kinds is in the slow tier too."""
    for item in items:
        if any(item.get_closest_marker(kind) for kind in KINDS) and not item.get_closest_marker(
                "slow"):
            item.add_marker(pytest.mark.slow)
