"""A real Dask cluster on loopback for the tests that check a run equals its serial twin
bit for bit on one (the brief: tests start a real ``distributed.LocalCluster``)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from concurrent.futures import Executor

import pytest

from strategy_calc import parallel


@contextlib.contextmanager
def local_cluster_pool() -> Iterator[Executor]:
    """The executor of a two-worker, one-thread-each ``LocalCluster`` on 127.0.0.1 (worker
    processes, no dashboard), reached through ``--scheduler``'s path
    (:func:`strategy_calc.parallel.executor`); both torn down on exit. Skips the test
    without the cluster extra."""
    distributed = pytest.importorskip("distributed", reason="needs the cluster extra")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster, \
            parallel.executor(scheduler=cluster.scheduler_address) as pool:
        yield pool
