"""Rule-effects sweeps: each row is the edge command's figure, whatever runs it.

Real executors: local threads and processes, and a Dask ``LocalCluster`` on
loopback started and torn down by the test.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cluster import local_cluster_pool
from typer.testing import CliRunner

from strategy_calc import parallel
from strategy_calc.actions import Strategy
from strategy_calc.blackjack import sweep
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.cli import app
from strategy_calc.rules import RulesError, blackjack_rules

runner = CliRunner()
VARY = ["decks=1,2", "surrender=none,late"]


def _serial(mode: sweep.Mode = "effects") -> sweep.SweepResult:
    with parallel.executor(1, kind="threads") as pool:
        return sweep.sweep("deluxe", [], sweep.plan(sweep.parse_vary(VARY), mode), mode,
                           Strategy.BASIC, pool)


@pytest.mark.slow
def test_each_effects_row_is_the_games_own_edge() -> None:
    """Row EVs equal separate whole-game runs bit for bit; effects are edge differences."""
    result = _serial()
    assert [r.overrides for r in result.rows] == [
        {}, {"decks": "1"}, {"decks": "2"}, {"surrender": "none"}, {"surrender": "late"}]
    base_edge = -analyse_game(blackjack_rules("deluxe")).ev_basic
    for row in result.rows:
        sets = [f"{k}={v}" for k, v in row.overrides.items()]
        ev = analyse_game(blackjack_rules("deluxe", sets)).ev_basic
        assert row.ev == ev
        if row.overrides:
            assert row.effect == pytest.approx((-ev - base_edge) * 100, abs=1e-12)


def test_a_grid_is_the_product_of_the_varied_values() -> None:
    result = _serial("grid")
    assert [r.overrides for r in result.rows] == [
        {"decks": d, "surrender": s} for d in ("1", "2") for s in ("none", "late")]
    assert all(r.effect is None for r in result.rows)


@pytest.mark.parallel
def test_processes_give_the_threads_results_exactly() -> None:
    with parallel.executor(2, kind="processes") as pool:
        result = sweep.sweep("deluxe", [], sweep.plan(sweep.parse_vary(VARY), "effects"),
                             "effects", Strategy.BASIC, pool)
    assert result.rows == _serial().rows


@pytest.mark.slow
def test_a_dask_cluster_gives_the_serial_results_exactly() -> None:
    with local_cluster_pool() as pool:
        result = sweep.sweep("deluxe", [], sweep.plan(sweep.parse_vary(VARY), "effects"),
                             "effects", Strategy.BASIC, pool)
    assert result.rows == _serial().rows


def test_a_cached_sweep_resumes_without_recomputing(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    variants = sweep.plan(sweep.parse_vary(["decks=1,2"]), "effects")
    with parallel.executor(1, kind="threads") as pool:
        first = sweep.sweep("deluxe", [], variants, "effects", Strategy.BASIC, pool, tmp_path)
        assert len(list(tmp_path.glob("*.json"))) == 3

        def refuse(task: sweep.Task) -> dict[str, object]:
            raise AssertionError("recomputed a cached variant")

        monkeypatch.setattr(sweep, "evaluate", refuse)
        again = sweep.sweep("deluxe", [], variants, "effects", Strategy.BASIC, pool, tmp_path)
        # the patch is live: without the cache the sweep does call the refusing evaluate
        with pytest.raises(AssertionError, match="recomputed"):
            sweep.sweep("deluxe", [], variants, "effects", Strategy.BASIC, pool,
                        tmp_path / "empty")
    assert again.rows == first.rows


@pytest.mark.slow
def test_the_macau_preset_reproduces_the_macau_ruleset() -> None:
    """Every Macau rule applied to the common game at once is exactly macau-1983."""
    result = runner.invoke(app, ["sweep", "--preset", "macau-rules", "--format", "json",
                                 "--jobs", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["combined"]["ev"] == data["target"]["ev"]
    assert data["target"]["ev"] == analyse_game(blackjack_rules("macau-1983")).ev_basic
    assert [r.get("label") for r in data["rows"]][1:] == [
        v.label for v in sweep.PRESETS["macau-rules"].changes]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "nosuch=1"], "unknown field 'nosuch'"),
        (["--vary", "decks=1,6251"], "decks must be between 1 and 6250"),
        (["--vary", "decks"], "--vary needs FIELD=V1,V2"),
        (["--vary", "blackjack_pays=" + ",".join(str(1 + i / 100) for i in range(101)),
          "--vary", "bonus_777=" + ",".join(str(i) for i in range(101)), "--mode", "grid"],
         "10,201 variants"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        ([], "give what to vary"),
    ],
)
def test_bad_sweeps_are_one_error_line_before_any_work(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["sweep", "--jobs", "1", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_parse_vary_refuses_a_field_given_twice() -> None:
    with pytest.raises(RulesError, match="given twice"):
        sweep.parse_vary(["decks=1", "decks=2"])
