"""``count --compare`` (issue 30 item 6): several systems on the same seeded shoes, each
system's figures those of its own run, SCORE with its delta-method standard error."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app

runner = CliRunner()
BASE = ["count", "--rules", "deluxe", "--decks", "1", "--rounds", "20", "--spread", "1:1,2:4",
        "--jobs", "1"]  # one worker: a thread, so the runs share this process's tables
SAME_RUNS = pytest.mark.xdist_group("count-compare-hilo")  # share the run of hilo alone


def _stdout(*args: str) -> str:
    result = runner.invoke(app, [*BASE, *args, "--json"])
    assert result.exit_code == 0, result.output
    return result.stdout


_seeded = functools.cache(_stdout)
"""What a seeded count prints, the same every time: a run without a file to write is made
once per process (the run of hilo alone is asked by two tests)."""


def run_json(*args: str) -> dict:
    return json.loads(_stdout(*args) if "--plot" in args else _seeded(*args))


@pytest.mark.slow
@SAME_RUNS
def test_each_compared_system_is_its_own_run_on_the_same_shoes(tmp_path: Path) -> None:
    """Paired: under basic play the cards dealt do not depend on the count, so every
    system sees the same rounds (the same EVs, the same EV per round); its ramp's figures
    are those of ``count --system NAME`` alone."""
    plot = tmp_path / "compare.png"
    data = run_json("--compare", "hilo,halves,ko", "--plot", str(plot))
    assert data["paired"] is True and list(data["systems"]) == ["hilo", "halves", "ko"]
    assert data["systems"]["ko"]["count_kind"] == "running count"  # (KO: unbalanced)
    evs = {name: s["ev_per_round"]["value"] for name, s in data["systems"].items()}
    assert len(set(evs.values())) == 1
    for name in ("hilo", "halves", "ko"):  # (level 1, fractional tags, unbalanced)
        alone = run_json("--system", name)
        assert data["systems"][name] == alone
    assert plot.stat().st_size > 1000 and plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
@SAME_RUNS
def test_score_se_is_the_delta_method_of_the_win_rate_and_sd_errors() -> None:
    """SCORE = 10^6 (w/s)^2: se = SCORE x sqrt((2 se_w/w)^2 + (2 se_s/s)^2), by hand from
    the run's own win rate and SD with their standard errors."""
    data = run_json("--system", "hilo")
    w, se_w = data["win_rate_per_round"]["value"], data["win_rate_per_round"]["se"]
    s, se_s = data["sd_per_round"], data["sd_per_round_se"]
    assert data["score"] == pytest.approx(1e6 * (w / s) ** 2, rel=1e-12)
    want = data["score"] * math.sqrt((2 * se_w / w) ** 2 + (2 * se_s / s) ** 2)
    assert data["score_se"] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(("args", "message"), [
    (["--compare", "hilo"], "two or more different systems"),
    (["--compare", "hilo,hilo"], "two or more different systems"),
    (["--compare", "hilo,zen", "--system", "zen"], "give --system or --compare, not both"),
    (["--compare", "hilo,ko", "--strategy", "basic+indices"], "'ko' is unbalanced"),
    (["--compare", "hilo,zen-lite"], "unknown count system 'zen-lite'"),
])
def test_bad_comparisons_are_one_error_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*BASE, *args])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert message in result.stderr


@pytest.mark.statistical
def test_compared_systems_each_get_their_own_optimal_ramp() -> None:
    """With --optimize-ramp each compared system's ramp is chosen on its own counts (KO
    by its running count): each system's optimal_ramp is that of its own run alone."""
    args = ["--optimize-ramp", "--bankroll", "10000", "--min-bet", "1", "--max-bet", "8"]
    data = run_json("--compare", "hilo,ko", *args)
    for name in ("hilo", "ko"):
        alone = run_json("--system", name, *args)
        assert data["systems"][name]["optimal_ramp"] == alone["optimal_ramp"]
    assert data["systems"]["ko"]["optimal_ramp"]["count"] == "running"
    assert data["systems"]["hilo"]["optimal_ramp"]["count"] == "true"
