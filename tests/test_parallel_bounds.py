"""Bounded work: ``--jobs`` within the machine, and no flag that another silently overrides
(issue 50: ``count --jobs 100000`` for a 10-round job started over 3,000 processes)."""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from strategy_calc import parallel
from strategy_calc.cli import app

runner = CliRunner()


def test_jobs_above_four_per_core_are_refused_before_any_process_starts() -> None:
    too_many = 4 * (os.cpu_count() or 1) + 1
    with (pytest.raises(parallel.ExecutionError, match=f"--jobs {too_many} is more"),
          parallel.executor(too_many)):
        raise AssertionError("no pool may be made")  # pragma: no cover


def test_four_jobs_per_core_are_allowed() -> None:
    with parallel.executor(parallel.max_jobs(), kind="threads") as pool:
        assert pool.submit(abs, -3).result() == 3


@pytest.mark.parametrize("command", [
    ["count", "--rounds", "10"],
    ["sweep", "--vary", "surrender=none,late", "--yes"],
    ["baccarat", "count", "--shoes", "1"],
])
def test_jobs_beyond_the_machine_is_one_error_line(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--jobs", "100000"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --jobs 100000 is more")


def test_jobs_with_a_scheduler_is_a_contradiction_not_a_silent_choice() -> None:
    result = runner.invoke(app, ["count", "--rounds", "10", "--jobs", "2",
                                 "--scheduler", "tcp://127.0.0.1:1"])
    assert result.exit_code == 2, result.output
    assert result.stderr.strip() == ("error: --jobs and --scheduler exclude each other: a Dask"
                                     " cluster runs its own workers")
