"""The execution layer: every long job runs on one ``concurrent.futures.Executor``.

- Default: the cores of this machine. The engine is reentrant and releases the
  GIL, but a whole-game pass spends a fifth of its time in Python, so whole
  games run in worker processes (each builds the engine's tables once, at
  import); ``kind="threads"`` uses threads instead.
- ``scheduler="tcp://HOST:PORT"``: an existing Dask distributed cluster
  (``distributed.Client(address).get_executor()`` is such an executor), from
  the optional extra ``pip install 'strategy_calc[cluster]'``.

Results come back in the order the work was given, whatever finishes first,
so a job's output does not depend on the executor.

>>> with executor(jobs=1, kind="threads") as pool:
...     run_all(pool, abs, [-2, 3, -4])
[2, 3, 4]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, Literal, TypeVar

from strategy_calc import engine
from strategy_calc.errors import InputError

T = TypeVar("T")
R = TypeVar("R")
Kind = Literal["processes", "threads"]


class ExecutionError(InputError):
    """The executor asked for cannot be had (a missing extra, an unreachable scheduler)."""


JOBS_PER_CORE = 4
"""The most local workers :func:`executor` starts per core of this machine: more only
share the cores (each process holds its own engine tables, tens of MB), so ``--jobs``
above it is an error rather than thousands of processes."""


def max_jobs() -> int:
    """The most local workers :func:`executor` allows: :data:`JOBS_PER_CORE` per core."""
    return JOBS_PER_CORE * (os.cpu_count() or 1)


def _warm_up() -> None:
    """Worker initializer: build the engine's node table now, not in the first task.

    A spawned worker unpickles this function, so it imports this module and with
    it the game layer (the engine's tables are built at import).
    """
    engine.node_table()


@contextmanager
def executor(
    jobs: int | None = None, scheduler: str | None = None, kind: Kind = "processes"
) -> Iterator[Executor]:
    """An executor for ``jobs`` local workers (default: the CPU count) or a Dask cluster.

    ``scheduler``: the address of a running Dask scheduler (the cluster has its own
    workers, so ``jobs`` with it is an error; ``kind`` is ignored). ``jobs`` above
    :func:`max_jobs` is an error.

    >>> try:
    ...     with executor(jobs=10**5) as pool:
    ...         pass
    ... except ExecutionError as exc:
    ...     print(str(exc)[:46])
    --jobs 100000 is more than this machine runs u
    """
    if scheduler is not None and jobs is not None:
        raise ExecutionError("--jobs and --scheduler exclude each other: a Dask cluster runs"
                             " its own workers")
    if scheduler is not None:
        try:
            import distributed
        except ImportError:
            raise ExecutionError("--scheduler needs Dask: pip install 'strategy_calc[cluster]'"
                                 ) from None
        client_type: Any = distributed.Client  # untyped library
        try:
            client = client_type(scheduler, timeout=10)
        except (OSError, TimeoutError) as exc:
            raise ExecutionError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
        return
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    if workers < 1:
        raise ExecutionError(f"--jobs must be at least 1, not {workers}")
    if workers > max_jobs():
        raise ExecutionError(
            f"--jobs {workers} is more than this machine runs usefully: at most {max_jobs()}"
            f" ({JOBS_PER_CORE} per core, {os.cpu_count() or 1} cores); for more workers use"
            " a Dask cluster (--scheduler)")
    if kind == "threads" or workers == 1:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            yield pool
    else:
        with ProcessPoolExecutor(max_workers=workers, initializer=_warm_up) as pool:
            yield pool


def run_all(
    pool: Executor, func: Callable[[T], R], items: Sequence[T],
    progress: Callable[[int, int], None] | None = None,
    *, each: Callable[[int, R, int], None] | None = None,
) -> list[R]:
    """``[func(item) for item in items]`` on ``pool``, in that order; ``progress(done, n)``
    and ``each(index, result, done)`` as each result comes (in the order they finish:
    e.g. to keep it before the rest are done).

    >>> seen = []
    >>> with executor(jobs=1, kind="threads") as pool:
    ...     run_all(pool, abs, [-2, 3], each=lambda i, r, done: seen.append((i, r, done)))
    [2, 3]
    >>> sorted(seen)
    [(0, 2, 1), (1, 3, 2)]
    """
    futures: dict[Any, int] = {pool.submit(func, item): i for i, item in enumerate(items)}
    results: list[Any] = [None] * len(items)
    for done, future in enumerate(as_completed(futures), start=1):
        index = futures[future]
        results[index] = future.result()
        if each is not None:
            each(index, results[index], done)
        if progress is not None:
            progress(done, len(items))
    return results
