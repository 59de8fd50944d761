"""The whole game under the fully optimal split as (pair, up card) tasks: the serial
figure to the bit whatever runs the cases, a resumable cache, and the orderings.

The games are one deck of Deluxe's rules with the splits cut down by ``no_split_ranks``
so the cases take milliseconds: the decomposition does not depend on which pairs split.
Each executor is a real one (threads, processes, a Dask ``LocalCluster`` on loopback).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cluster import local_cluster_pool
from typer.testing import CliRunner

from strategy_calc import parallel
from strategy_calc.blackjack import optimal_game as og
from strategy_calc.blackjack.game_analysis import optimal_edge
from strategy_calc.cli import app
from strategy_calc.rules import BlackjackRules, blackjack_rules

runner = CliRunner()

NINES_ONCE = ["no_split_ranks=a,2,3,4,5,6,7,8,t"]
"""Nines alone split, once (as Deluxe splits): 10 cases of some 30 ms each."""
ACES_RESPLIT = ["max_split_hands=4", "resplit_aces=true", "no_split_ranks=2,3,4,5,6,7,8,9,t"]
"""Aces split and resplit to four hands: 10 cases with resplits, milliseconds each."""


def _rules(sets: list[str]) -> BlackjackRules:
    return blackjack_rules("deluxe", sets, "1")


def _threads(sets: list[str], cache: Path | None = None) -> og.OptimalGame:
    with parallel.executor(1, kind="threads") as pool:
        return og.optimal_game(_rules(sets), pool, cache=cache)


@pytest.mark.parametrize("sets", [NINES_ONCE, ACES_RESPLIT])
def test_the_cases_combine_to_the_serial_fully_optimal_edge_bit_for_bit(sets: list[str]
                                                                         ) -> None:
    serial = optimal_edge(_rules(sets), split_strategy="optimal")
    run = _threads(sets)
    assert run.edge == serial  # the EV and every up card's, to the bit
    expected_pairs = {9} if sets is NINES_ONCE else {1}
    assert len(run.cases) == 10 * len(expected_pairs)
    assert {c.pair for c in run.cases} == expected_pairs
    assert all(c.peak_rss_bytes > 0 and c.seconds >= 0 and not c.cached for c in run.cases)


@pytest.mark.parallel
def test_two_worker_processes_give_the_serial_edge_bit_for_bit() -> None:
    with parallel.executor(2, kind="processes") as pool:
        run = og.optimal_game(_rules(ACES_RESPLIT), pool)
    assert run.edge == optimal_edge(_rules(ACES_RESPLIT), split_strategy="optimal")


@pytest.mark.slow
@pytest.mark.parallel
def test_a_dask_cluster_gives_the_serial_edge_bit_for_bit() -> None:
    with local_cluster_pool() as pool:
        run = og.optimal_game(_rules(NINES_ONCE), pool)
    assert run.edge == optimal_edge(_rules(NINES_ONCE), split_strategy="optimal")


def test_a_cached_run_resumes_and_recomputes_only_a_spoilt_case(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _threads(ACES_RESPLIT, tmp_path)
    files = sorted(tmp_path.glob("case-*.json"))
    assert len(files) == 10 and not list(tmp_path.glob("*.part"))
    solved: list[og.Case] = []
    solve = og.solve_case

    def counting(case: og.Case) -> og.CaseResult:
        solved.append(case)
        return solve(case)

    monkeypatch.setattr(og, "solve_case", counting)
    again = _threads(ACES_RESPLIT, tmp_path)
    assert solved == [] and again.edge == first.edge
    assert all(c.cached for c in again.cases)
    # a truncated file, and one holding another case's key, are computed again, not used
    files[0].write_text(files[0].read_text(encoding="utf-8")[:40], encoding="utf-8")
    other = json.loads(files[1].read_text(encoding="utf-8"))
    other["key"]["pair"] = 10
    files[1].write_text(json.dumps(other), encoding="utf-8")
    third = _threads(ACES_RESPLIT, tmp_path)
    assert len(solved) == 2 and third.edge == first.edge


def test_a_cache_is_kept_per_ruleset_not_shared_across_them(tmp_path: Path) -> None:
    """A case of other rules (here aces resplit to three hands) never reads this one's."""
    _threads(ACES_RESPLIT, tmp_path)
    run = _threads([*ACES_RESPLIT, "max_split_hands=3"], tmp_path)
    assert not any(c.cached for c in run.cases)


def test_fully_optimal_is_at_least_cdp_and_cdp1_at_one_deck() -> None:
    """Every decision seeing every card seen can only gain: optimal >= cdp, cdp1 (a
    cheap twin of the full game's test below; the split-once nines gain strictly)."""
    rules = _rules(NINES_ONCE)
    full = _threads(NINES_ONCE).edge.ev_optimal
    cdp1 = optimal_edge(rules, split_strategy="cdp1").ev_optimal
    cdp = optimal_edge(rules, split_strategy="cdp").ev_optimal
    assert full > cdp1 and full > cdp


@pytest.mark.fullsize
def test_the_whole_one_deck_game_with_resplits_is_at_least_cdp_and_cdp1() -> None:
    """The full 1-deck game, splits to four hands: some 30 CPU-minutes (every pair)."""
    rules = _rules(["max_split_hands=4"])
    with parallel.executor(2, kind="processes") as pool:
        full = og.optimal_game(rules, pool).edge.ev_optimal
    for strategy in ("cdp1", "cdp"):
        assert full >= optimal_edge(rules, split_strategy=strategy).ev_optimal


SMALL = ["--rules", "deluxe", "--decks", "1", "--strategy", "optimal", "--split-strategy",
         "optimal", *(x for s in ACES_RESPLIT for x in ("--set", s))]


def test_edge_with_jobs_reports_the_serial_edge_and_each_cases_memory() -> None:
    plain = runner.invoke(app, ["edge", *SMALL, "--json"])
    cases = runner.invoke(app, ["edge", *SMALL, "--jobs", "1", "--json"])
    assert plain.exit_code == 0 and cases.exit_code == 0, cases.output
    base, data = json.loads(plain.stdout), json.loads(cases.stdout)
    assert {k: data[k] for k in base} == base  # every existing key, the same figures
    assert [(c["pair"], c["up"]) for c in data["cases"]] == [
        ("A", up) for up in "23456789TA"]
    assert all(c["peak_rss_mib"] > 0 for c in data["cases"])
    assert data["cases_summary"]["cases"] == 10
    text = runner.invoke(app, ["edge", *SMALL, "--jobs", "1"])
    assert "peak MiB by pair" in text.stdout and "case 10/10: A,A vs A" in text.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cache", "{tmp}/a-file"], "is a file, not a folder"),
        (["--cache", "{tmp}/no/such"], "parent folder"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--jobs", "1", "--split-strategy", "cdp1"], "--strategy optimal --split-strategy"),
        # the limit reaches the worker (a thread: no context inherited, so the task's own)
        (["--jobs", "1", "--memory-limit", "0.05", "--set", "no_split_ranks=a,2,3,4,5,6,7,8,t"],
         "needs more than its memory limit"),
    ],
)
def test_bad_case_runs_are_one_error_line(tmp_path: Path, args: list[str], message: str
                                          ) -> None:
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    result = runner.invoke(app, ["edge", *SMALL, *args])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]


@pytest.mark.slow
@pytest.mark.parallel
def test_an_unreachable_scheduler_is_one_error_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """(The client waits its connection timeout first: 1 s here instead of 10.)"""
    distributed = pytest.importorskip("distributed", reason="needs the cluster extra")
    real = distributed.Client
    monkeypatch.setattr(distributed, "Client", lambda address, timeout: real(address, timeout=1))
    result = runner.invoke(app, ["edge", *SMALL, "--scheduler", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot reach the Dask scheduler")
