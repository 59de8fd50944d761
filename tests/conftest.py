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

import gc

import pytest
from hypothesis import settings

KINDS = ("oracle", "statistical", "render", "parallel", "fullsize", "deep")

settings.register_profile("deterministic", derandomize=True, database=None,
                          print_blob=True)
settings.load_profile("deterministic")

# The oracles' memos hold millions of small tuples and dicts, which CPython's cyclic
# collector (by default after every 700 net allocations) walks again and again: a
# tenth to a third of a brute force's time. Collecting the youngest generation every
# million allocations instead cut tests/blackjack/test_game_vs_oracle.py from 184 to
# 130 CPU-seconds (docs/TESTING.md); cyclic garbage still goes, a million objects later.
gc.set_threshold(1_000_000, 100, 100)


@pytest.hookimpl(trylast=True)  # after xdist has named each item's group
def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``--dist loadgroup`` (pyproject addopts) a worker's ``xdist_group`` tests
    carry their group in their id, which is how the scheduler keeps them on one worker
    (they share a per-process cache). Stop the run loudly if a pytest/xdist pair does
    not do that, rather than compute every shared analysis on both workers."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    # the scheduler takes the text after the last "@" as the group when no "]" follows
    lost = [item.nodeid for item in session.items if item.get_closest_marker("xdist_group")
            and item.nodeid.rfind("@") < item.nodeid.rfind("]")]
    if lost:
        raise pytest.UsageError(f"xdist_group is not applied (first: {lost[0]}); this "
                                "pytest-xdist does not group with this pytest")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Collect the garbage the raised threshold left, then stop collecting: an xdist
    worker is stopped by an interrupt of its main thread, which a late collection's
    finalizers (weasyprint's fonts, an asyncio loop) otherwise print as an ignored
    KeyboardInterrupt under a passing run."""
    gc.collect()
    gc.disable()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test of one of the costly kinds is in the slow tier too."""
    for item in items:
        if any(item.get_closest_marker(kind) for kind in KINDS) and not item.get_closest_marker(
                "slow"):
            item.add_marker(pytest.mark.slow)
