"""The command-line contract: JSON keys, text output, and one-line errors with exit 2."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app

runner = CliRunner()
TABLES = Path(__file__).resolve().parents[2] / "tables"

EV_KEYS = {"stand", "hit", "double", "split", "surrender", "insurance", "even_money"}
DEALER_KEYS = {"17", "18", "19", "20", "21", "bust", "blackjack"}


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_output_refuses_a_figure_that_is_not_finite(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """JSON has no NaN or Infinity: a figure that came out so is one error line, exit 2."""
    import typer

    from strategy_calc.cli.respond import dump_json

    for bad in (float("nan"), float("inf")):
        with pytest.raises(typer.Exit) as exit_info:
            dump_json({"by_true_count": [{"ev": bad}]})
        assert exit_info.value.exit_code == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1


def test_hand_json_has_the_contract_keys() -> None:
    data = run_json("hand", "T,6", "--vs", "T")
    assert data["rules"] == "macau-1983"
    assert data["decks"] == 6
    assert data["hand"] == ["T", "6"]
    assert data["up"] == "T"
    assert data["conditioned_on_no_dealer_blackjack"] is False
    ev = data["ev"]
    assert isinstance(ev, dict) and set(ev) >= EV_KEYS
    dealer = data["dealer"]
    assert isinstance(dealer, dict) and set(dealer) == DEALER_KEYS
    assert data["best"] in EV_KEYS
    # Macau: double on 11 only; surrender (early) allowed against a ten.
    assert ev["double"] is None
    assert ev["surrender"] == -0.5


def test_deluxe_is_conditioned_on_no_blackjack_and_blackjack_probability_is_zero() -> None:
    data = run_json("hand", "9,7", "--vs", "A", "--rules", "deluxe")
    assert data["conditioned_on_no_dealer_blackjack"] is True
    dealer = data["dealer"]
    assert isinstance(dealer, dict) and dealer["blackjack"] == 0.0
    ev = data["ev"]
    assert isinstance(ev, dict) and ev["surrender"] is None  # deluxe: vs 2-9 only


def test_decks_and_set_override_the_ruleset() -> None:
    data = run_json("hand", "T,6", "--vs", "9", "--rules", "deluxe", "--decks", "2",
                    "--set", "surrender=none")
    assert data["decks"] == 2
    ev = data["ev"]
    assert isinstance(ev, dict) and ev["surrender"] is None


def test_text_output_marks_the_best_action() -> None:
    result = runner.invoke(app, ["hand", "T,6", "--vs", "T"])
    assert result.exit_code == 0
    assert "best" in result.stdout and "<-" in result.stdout
    assert "dealer outcomes" in result.stdout and "P(win)" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hand", "T,X", "--vs", "T"], "unknown card 'X'"),
        (["hand", "T,6", "--vs", "Z"], "unknown card 'Z'"),
        (["hand", "5s,5s", "--vs", "6", "--decks", "1"],
         "more 5 of spades than the 1-deck shoe holds"),
        (["hand", "T,6", "--vs", "T", "--removed", "5h 5h", "--decks", "1"],
         "more 5 of hearts than the 1-deck shoe holds"),
        (["hand", "T,8,5", "--vs", "T"], "bust"),
        (["hand", "5,5", "--vs", "5", "--decks", "1", "--removed", "5,5"], "more 5s"),
        (["hand", "T,6", "--vs", "T", "--rules", "nosuch"], "unknown ruleset 'nosuch'"),
        (["hand", "T,6", "--vs", "T", "--set", "colour=red"], "unknown field 'colour'"),
        (["hand", "T,6", "--vs", "T", "--set", "hole_card=maybe"], "invalid value 'maybe'"),
        (["hand", "T,6", "--vs", "T", "--decks", "6251"], "decks must be between 1 and 6250"),
        (["hand", "T", "--vs", "T"], "at least two cards"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


def test_bad_toml_file_is_an_error(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "broken.toml"
    path.write_text("decks = = 3\n")
    result = runner.invoke(app, ["hand", "T,6", "--vs", "T", "--rules", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: invalid ruleset file")


def test_user_ruleset_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "mine.toml"
    path.write_text('base = "deluxe"\ndecks = 2\nhole_card = "peek"\nsurrender = "late"\n')
    data = run_json("hand", "T,6", "--vs", "T", "--rules", str(path))
    assert data["rules"] == "mine" and data["decks"] == 2
    ev = data["ev"]
    assert isinstance(ev, dict) and ev["surrender"] == -0.5


def test_insurance_by_composition() -> None:
    """1 deck, T,9 vs A with 13 small cards gone: 15 tens among the 36 cards left
    (52 - 3 - 13); 15/36 > 1/3, so insurance is worth 0.5 * (2p - (1 - p))."""
    data = run_json("hand", "T,9", "--vs", "A", "--rules", "deluxe", "--decks", "1",
                    "--removed", "2,3,4,5,6,2,3,4,5,6,2,3,4")
    p = 15 / 36
    assert data["tens_proportion"] == pytest.approx(p, abs=1e-15)
    ev = data["ev"]
    assert isinstance(ev, dict)
    assert ev["insurance"] == pytest.approx(0.5 * (2 * p - (1 - p)), abs=1e-15)
    assert ev["insurance"] > 0


def test_a_shoe_the_dealer_could_run_out_of_is_an_error_not_a_wrong_number() -> None:
    """1 deck, T,6 vs 2 with every card gone but two 3s: the dealer's 2 + 3 + 3 = 8
    must draw again and nothing is left, so no exact answer exists."""
    counts = {"A": 4, "2": 3, "3": 2, "4": 4, "5": 4, "6": 3, "7": 4, "8": 4, "9": 4, "T": 15}
    gone = ",".join(rank for rank, n in counts.items() for _ in range(n))
    result = runner.invoke(app, ["hand", "T,6", "--vs", "2", "--decks", "1", "--removed", gone])
    assert result.exit_code == 2
    assert "too few cards left" in result.stderr


@pytest.mark.slow
def test_exact_mode_adds_fractions() -> None:
    """1 deck, T,6 vs A: 15 tens among the 49 cards left, so insurance is worth
    0.5 * (2 * 15/49 - 34/49) = -2/49 exactly."""
    data = run_json("hand", "T,6", "--vs", "A", "--rules", "deluxe", "--decks", "1", "--exact")
    exact = data["exact"]
    assert isinstance(exact, dict)
    assert exact["insurance"] == "-2/49"
    assert exact["dealer"]["blackjack"] == "0"  # peek: given no dealer blackjack


def test_bench_json_names_the_workloads_and_times_them() -> None:
    """bench --json: {"workloads": {NAME: {"median_ms", "min_ms", "max_ms"}}}, ordered."""
    data = run_json("bench", "--repeat", "2", "--only", "hand-8d", "--only", "baccarat-8d")
    workloads = data["workloads"]
    assert isinstance(workloads, dict) and set(workloads) == {"hand-8d", "baccarat-8d"}
    for timing in workloads.values():
        assert 0 < timing["min_ms"] <= timing["median_ms"] <= timing["max_ms"]
        assert timing["runs"] == 2
        # each ran in a process of its own that imported the engine: tens of MiB at least
        assert 20 < timing["peak_mib"] < 4096


def test_bench_workloads_of_the_speed_issue_are_named_and_the_longest_waits_to_be_asked(
) -> None:
    """The names tools key on (issue 29); resplit-optimal-6d and issue 49's
    resplit-optimal-6d-22 (minutes) are timed only when named with --only, and a default
    run's estimate leaves them out."""
    from strategy_calc.jobs import bench

    wanted = {"game-8d", "process-edge", "process-hand", "count-6d", "count-6d-moments",
              "resplit-optimal-1d", "resplit-optimal-6d", "resplit-optimal-6d-22"}
    assert wanted <= set(bench.names())
    assert "resplit-optimal-6d" not in bench.names(default=True)
    assert "resplit-optimal-6d-22" not in bench.names(default=True)
    assert "count-score-6d" in bench.names()  # (issue 48: minutes, on request)
    assert "count-score-6d" not in bench.names(default=True)
    assert bench.expected_seconds(1) < bench.expected_seconds(1, bench.names())


def test_the_two_two_workload_stops_at_its_memory_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """resplit-optimal-6d-22 runs under its --memory-limit (issue 49: past it, the solver's
    error, not swap): with the budget cut to 1 MiB its 2,2 vs T solve stops at once with
    that error, reported as the workload's one error line."""
    from strategy_calc.errors import InputError
    from strategy_calc.jobs import bench

    assert bench.RESPLIT_BUDGET_MIB == 4096  # the issue's bound
    monkeypatch.setattr(bench, "RESPLIT_BUDGET_MIB", 1)  # the forked child sees it
    (w,) = [w for w in bench.workloads() if w.name == "resplit-optimal-6d-22"]
    with pytest.raises(InputError, match="workload resplit-optimal-6d-22 stopped: the"
                       " optimal split needs more than its memory limit of 1 MiB"):
        bench.in_own_process(w, 1)
    # the command: one error line and exit 2, not a traceback
    result = CliRunner().invoke(app, ["bench", "--only", "resplit-optimal-6d-22"])
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: workload resplit-optimal-6d-22 stopped: the optimal split"
                           " needs more than its memory limit of 1 MiB")


def test_a_failing_workload_is_reported_not_hung(monkeypatch: pytest.MonkeyPatch) -> None:
    from strategy_calc.jobs import bench

    def broken() -> None:
        raise ValueError("no such shoe")

    with pytest.raises(RuntimeError, match="workload w failed: ValueError: no such shoe"):
        bench.in_own_process(bench.Workload("w", "", broken), 1)


@pytest.mark.slow
def test_bench_rates_count_what_the_workload_does() -> None:
    """A counted workload reports its rate at the median (``per_second``, ``unit``): the
    counts are the rounds the count's shoes hold, and a whole shoe for baccarat."""
    from strategy_calc.jobs import bench

    items = {w.name: w.items for w in bench.workloads()}
    assert items["count-6d"] == (len(bench._counter(6, 25).play_one(0)), "rounds")
    assert items["count-6d-ev"] == (len(bench._counter(6, 10**9).play_one(1)), "rounds")
    data = run_json("bench", "--repeat", "1", "--only", "baccarat-shoe-8d")
    timing = data["workloads"]["baccarat-shoe-8d"]
    assert timing["unit"] == "shoes"
    assert timing["per_second"] == pytest.approx(1000.0 / timing["median_ms"], rel=1e-12)


def test_bench_lists_the_contract_workloads() -> None:
    from strategy_calc.jobs import bench

    assert {"game-8d", "game-1d", "all-hands-8d", "splits-8d", "process-edge"} <= set(
        bench.names())


@pytest.mark.parametrize("args", [["--only", "game-9d"], ["--repeat", "0"]])
def test_bench_bad_flags_are_one_error_line(args: list[str]) -> None:
    result = runner.invoke(app, ["bench", *args])
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and result.stderr.count("\n") == 1


def test_library_api_names_are_exported_at_the_top_level() -> None:
    import strategy_calc as sc

    rules = sc.blackjack_rules("deluxe")
    assert sc.analyse_hand("T,6", "T", rules).ev == run_json(
        "hand", "T,6", "--vs", "T", "--rules", "deluxe")["ev"]
    assert set(sc.__all__) >= {"analyse_game", "analyse_hand", "blackjack_rules"}


def test_chart_json_carries_the_published_6_deck_late_surrender_cells() -> None:
    """docs/REFERENCE.md, 6-deck S17 DAS late-surrender chart: 16 vs T surrenders (else
    hits), 11 vs T doubles, A,7 vs 9 hits, 9,9 vs 7 stands, 8,8 vs A splits."""
    result = runner.invoke(app, ["chart", "--rules", "deluxe", "--set", "decks=6", "--set",
                                 "surrender=late", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= {"rules", "decks", "ruleset", "hard", "soft", "pairs", "exceptions",
                         "house_edge", "house_edge_optimal", "legend"}
    hard, soft, pairs = data["hard"], data["soft"], data["pairs"]
    assert isinstance(hard, dict) and isinstance(soft, dict) and isinstance(pairs, dict)
    assert hard["16"]["T"] == "Rh" and hard["11"]["T"] == "Dh"
    assert soft["18"]["9"] == "H" and pairs["9"]["7"] == "S" and pairs["8"]["A"] == "P"


@pytest.mark.slow
def test_tables_check_passes_on_the_committed_tables_and_fails_on_an_empty_folder(
    tmp_path: Path,
) -> None:
    ok = runner.invoke(app, ["tables", "--check", "--out", str(TABLES)])
    assert ok.exit_code == 0, ok.output
    # issue 50: it says what it compared (the text tables) and what it only found (PDFs)
    assert "tables up to date" in ok.stdout and "not compared" in ok.stdout
    stale = runner.invoke(app, ["tables", "--check", "--out", str(tmp_path)])
    assert stale.exit_code == 1


def test_files_a_command_writes_go_into_an_existing_folder(tmp_path: Path) -> None:
    """Issue 50: folders that did not exist were made for a user's --history and --cache."""
    missing = tmp_path / "no" / "such"
    history = runner.invoke(app, ["drill", "--history", str(missing / "h.json")], input="q\n")
    assert history.exit_code == 2
    assert history.stderr.strip() == f"error: --history {missing / 'h.json'}: not a file in an" \
        " existing folder"
    cache = runner.invoke(app, ["sweep", "--vary", "surrender=none,late", "--jobs", "1",
                                "--cache", str(missing / "c")])
    assert cache.exit_code == 2
    assert cache.stderr.strip() == (f"error: --cache {missing / 'c'}: its parent folder"
                                    f" {missing} does not exist")
    assert not (tmp_path / "no").exists()


@pytest.mark.slow
def test_eor_effects_sum_to_the_small_value_of_one_burned_card() -> None:
    """Burning an unseen card leaves a fixed strategy's EV unchanged on average, so the
    effects weighted by one suit's counts (A..9 once, T four times) sum to exactly 0 for a
    fixed strategy; re-optimised play can only gain: a small non-negative sum."""
    data = run_json("eor")
    game = data["game"]
    assert isinstance(game, dict) and set(game) == set("A23456789T")
    weighted = sum(v for r, v in game.items() if r != "T") + 4 * game["T"]
    size = sum(abs(v) for r, v in game.items() if r != "T") + 4 * abs(game["T"])
    assert -1e-12 <= weighted <= 0.025 * size
    assert max(game, key=lambda r: game[r]) == "5" and min(game, key=lambda r: game[r]) == "A"


@pytest.mark.slow
def test_indices_json_reproduces_the_illustrious_18_within_one_true_count() -> None:
    """docs/REFERENCE.md, the Hi-Lo Illustrious 18 (6 decks S17 DAS)."""
    result = runner.invoke(app, ["indices", "--rules", "deluxe", "--set", "decks=6",
                                 "--set", "surrender=none", "--format", "json", "--published"])
    assert result.exit_code == 0, result.output
    rows = [row for row in json.loads(result.stdout)["indices"]
            if row["group"] == "Illustrious 18"]
    assert len(rows) == 18
    for row in rows:
        assert abs(row["index"] - row["published"]) <= 1.0, row


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hand", "T,6"], "error: Missing option '--vs'."),
        (["hand", "T,6", "--vs", "T", "--decks", "abc"], "error: Invalid value for '--decks'"),
        (["chart", "--format", "docx"], "error: Invalid value for '--format'"),
        (["hand", "T,6", "--vs", "T", "--bogus"], "error: No such option: --bogus"),
        (["nope"], "error: No such command 'nope'."),
    ],
)
def test_usage_errors_are_one_error_line_with_status_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one-line contract holds for usage errors too (typer would draw a box)."""
    from strategy_calc.cli import run

    assert run(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_a_huge_card_list_gives_a_short_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli import run

    assert run(["hand", ",".join(["T"] * 20000), "--vs", "T"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and len(err) < 400


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hand", "T,6", "--vs", "T", "--set", "blackjack_pays=3:0"],
         "error: invalid value '3:0' for blackjack_pays"),
        (["edge", "--set", "blackjack_pays=nan"], "error: invalid value 'nan' for blackjack_pays"),
        (["edge", "--set", "blackjack_pays=inf"], "error: invalid value 'inf' for blackjack_pays"),
        (["baccarat", "--set", "tie_pays=9:0"], "error: invalid value '9:0' for tie_pays"),
        (["sidebet", "pair", "--rules", "deluxe", "--set", "pair_pays_perfect=inf"],
         "error: invalid value 'inf' for pair_pays_perfect"),
        (["risk", "--bankroll", "inf"], "error: --bankroll must be a positive finite number"),
        (["risk", "--bankroll", "nan"], "error: --bankroll must be a positive finite number"),
        (["hand", "T,6", "--vs", "T", "--rules", ""], "error: empty ruleset name"),
        (["tables", "--out", "/no/such/folder/tables"], "error: --out /no/such/folder/tables"),
    ],
)
def test_impossible_numbers_and_paths_are_one_error_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ratios over zero, NaN and infinite payouts or bankrolls, an empty ruleset name and a
    missing output folder are refused before any work, on one line (never a traceback)."""
    from strategy_calc.cli import run

    assert run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_an_empty_ruleset_file_is_an_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli import run

    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    assert run(["edge", "--rules", str(empty)]) == 2
    assert "sets no rules" in capsys.readouterr().err


def test_tables_out_to_a_file_is_an_error(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli import run

    target = tmp_path / "file.txt"
    target.write_text("x", encoding="utf-8")
    assert run(["tables", "--out", str(target)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_a_setting_that_changes_nothing_is_a_warning_line() -> None:
    """enhc_loses in a peek game: harmless, but said (the result is the plain game's)."""
    warned = runner.invoke(app, ["hand", "T,6", "--vs", "T", "--rules", "deluxe", "--set",
                                 "enhc_loses=all", "--json"])
    plain = run_json("hand", "T,6", "--vs", "T", "--rules", "deluxe")
    assert warned.exit_code == 0
    assert warned.stderr.startswith("warning: enhc_loses has no effect in a peek game")
    assert json.loads(warned.stdout)["ev"] == plain["ev"]


def test_repeated_removed_lists_are_combined() -> None:
    """--removed 5 --removed 5 is the same shoe as --removed 5,5 (not the last list only)."""
    twice = run_json("hand", "T,6", "--vs", "T", "--decks", "1", "--removed", "5",
                     "--removed", "5")
    once = run_json("hand", "T,6", "--vs", "T", "--decks", "1", "--removed", "5,5")
    only = run_json("hand", "T,6", "--vs", "T", "--decks", "1", "--removed", "5")
    assert twice["ev"] == once["ev"] != only["ev"]


def test_the_script_answers_version_before_loading_the_cli(tmp_path: Path) -> None:
    """``strategy-calc --version`` (the script's entry point, ``strategy_calc.__main__``)
    prints the installed version without importing typer or the CLI module."""
    import subprocess
    import sys
    from importlib.metadata import version

    probe = ("import runpy, sys; sys.argv = ['strategy-calc', '--version']\n"
             "try:\n    runpy.run_module('strategy_calc', run_name='__main__')\n"
             "except SystemExit as e:\n    assert e.code == 0\n"
             "print('typer' in sys.modules, 'strategy_calc.cli' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    assert out[0] == f"strategy-calc {version('strategy_calc')}"
    assert out[1] == "False False"


def test_the_top_level_help_is_the_whole_apps() -> None:
    """The top-level help is made from stand-ins without parameters (cheaper to build);
    it must read exactly as the whole app's, every command and summary included."""
    from strategy_calc.cli import root

    full = runner.invoke(app, ["-h"], prog_name="strategy-calc")
    index = runner.invoke(root._index_app(), ["-h"], prog_name="strategy-calc")
    assert full.exit_code == index.exit_code == 0
    assert index.stdout == full.stdout
    assert "Commands:" in full.stdout and "sidebet" in full.stdout


@pytest.mark.parametrize("args", [["hand", "-h"], ["edge", "--rules", "nosuch"],
                                  ["chart", "--decks", "x"]])
def test_a_command_parsed_alone_behaves_as_in_the_whole_app(args: list[str]) -> None:
    """``run`` parses a command with an app holding that command alone; its help, errors
    and exit status are the whole app's."""
    from strategy_calc.cli import root

    one = root._app_for(args)
    assert [root.command_name(c) for c in one.registered_commands] == [args[0]]
    alone = runner.invoke(one, args, prog_name="strategy-calc")
    whole = runner.invoke(app, args, prog_name="strategy-calc")
    assert (alone.exit_code, alone.stdout, alone.stderr) == (
        whole.exit_code, whole.stdout, whole.stderr)


def test_version_is_the_installed_packages() -> None:
    from importlib.metadata import version

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"strategy-calc {version('strategy_calc')}"


def test_dash_h_is_help_and_completion_is_offered() -> None:
    short, long = runner.invoke(app, ["-h"]), runner.invoke(app, ["--help"])
    assert short.exit_code == long.exit_code == 0 and short.stdout == long.stdout
    assert "--install-completion" in long.stdout
    assert runner.invoke(app, ["hand", "-h"]).stdout == runner.invoke(
        app, ["hand", "--help"]).stdout


@pytest.mark.parametrize("command", [["chart", "--rules", "deluxe", "--decks", "1"],
                                     ["indices", "--rules", "deluxe", "--decks", "1",
                                      "--published"]])
def test_json_is_an_alias_of_format_json(command: list[str]) -> None:
    alias = runner.invoke(app, [*command, "--json"])
    fmt = runner.invoke(app, [*command, "--format", "json"])
    assert alias.exit_code == fmt.exit_code == 0
    assert json.loads(alias.stdout) == json.loads(fmt.stdout)


@pytest.mark.slow
def test_bonus_json_names_its_ruleset() -> None:
    data = run_json("bonus")
    assert {"rules", "decks", "ruleset"} <= set(data)
    assert data["ruleset"].startswith("macau-1983: 6D")


COUNT_KEYS = {"rules", "decks", "ruleset", "strategy", "system", "penetration", "rounds", "seed",
              "ev_per_round", "ev_off_the_top", "cut_card_effect", "by_true_count",
              "win_rate_per_round", "sd_per_round", "n0", "score", "di", "risk_of_ruin"}


@pytest.mark.statistical
def test_count_json_has_the_contract_keys_and_no_ramp_figures_without_a_spread() -> None:
    data = run_json("count", "--rules", "deluxe", "--decks", "1", "--rounds", "12",
                    "--jobs", "1", "--moment-every", "6")
    assert set(data) >= COUNT_KEYS
    assert data["rules"] == "deluxe" and data["decks"] == 1
    assert isinstance(data["rounds"], int) and data["rounds"] >= 12  # whole shoes
    assert data["strategy"] == "basic" and data["system"] == "hilo"
    assert set(data["ev_per_round"]) == {"value", "se"}  # type: ignore[arg-type]
    rows = data["by_true_count"]
    assert isinstance(rows, list) and abs(sum(r["frequency"] for r in rows) - 1) < 1e-12
    assert {"tc", "frequency", "ev"} == set(rows[0])
    for key in ("win_rate_per_round", "n0", "score", "di", "risk_of_ruin"):
        assert data[key] is None
    assert data["sd_per_round"] is not None  # flat bets still have an SD


@pytest.mark.render
def test_count_with_a_ramp_and_a_plot(tmp_path: Path) -> None:
    png = tmp_path / "count.png"
    data = run_json("count", "--rules", "deluxe", "--decks", "1", "--rounds", "8", "--jobs",
                    "1", "--spread", "0:1,2:4", "--bankroll", "100", "--moment-every", "4",
                    "--set", "burn_shown_card=false",  # (the shoes whose ramp wins: a SCORE)
                    "--plot", str(png))
    for key in ("win_rate_per_round", "n0", "score", "di", "risk_of_ruin"):
        assert data[key] is not None
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_baccarat_count_json_has_the_contract_keys() -> None:
    data = run_json("baccarat", "count", "--rules", "macau-baccarat", "--decks", "1",
                    "--shoes", "2", "--jobs", "1")
    assert {"rules", "decks", "shoes", "seed", "bets"} <= set(data)
    bets = data["bets"]
    assert isinstance(bets, dict) and set(bets) == {"banker", "player", "tie", "player_pair",
                                                     "banker_pair"}
    for bet in bets.values():
        assert {"ev_off_the_top", "positive_share", "mean_edge_when_positive", "win_per_shoe",
                "linear_count_win_per_shoe"} == set(bet)
    text = runner.invoke(app, ["baccarat", "count", "--decks", "1", "--shoes", "2", "--jobs",
                               "1", "--bets", "tie"])
    assert text.exit_code == 0 and "Tie" in text.stdout and "Banker" not in text.stdout


@pytest.mark.parametrize("args", [
    ["--rules", "macau-baccarat", "--decks", "1", "--shoes", "2", "--jobs", "1", "--json"],
    ["--decks", "1", "--shoes", "2", "--seed", "3", "--jobs", "1", "--bets", "tie",
     "--rules=macau-baccarat"]])
def test_count_with_a_baccarat_ruleset_is_baccarat_count(args: list[str]) -> None:
    """``count --rules macau-baccarat ...`` is an alias: the same bytes as ``baccarat count
    ...``, wherever the --rules flag stands."""
    from strategy_calc.cli import run_captured

    alias = run_captured(["count", *args])
    assert alias[0] == 0 and alias == run_captured(["baccarat", "count", *args])


def test_a_baccarat_ruleset_file_makes_count_the_baccarat_count(tmp_path: Path) -> None:
    from strategy_calc.cli import run_captured

    table = tmp_path / "mine.toml"
    table.write_text('base = "macau-baccarat"\nname = "mine"\n', encoding="utf-8")
    args = ["--rules", str(table), "--decks", "1", "--shoes", "1", "--jobs", "1", "--json"]
    alias = run_captured(["count", *args])
    assert alias[0] == 0 and json.loads(alias[1])["rules"] == "mine"
    assert alias == run_captured(["baccarat", "count", *args])


@pytest.mark.parametrize("flag", [["--spread", "1:1"], ["--strategy", "basic"],
                                  ["--rounds", "10"], ["--plot", "x.png"], ["--shoe", "A=4"]])
def test_a_blackjack_flag_given_to_the_baccarat_alias_is_the_parsers_error(
        flag: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """No list of refused flags: baccarat count's parser does not know a blackjack flag,
    one error line and status 2 (and count's does not know a baccarat flag)."""
    from strategy_calc.cli import run

    assert run(["count", "--rules", "macau-baccarat", *flag]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: No such option: {flag[0]}") and err.count("\n") == 1
    assert run(["count", "--rules", "deluxe", "--bets", "tie"]) == 2
    assert capsys.readouterr().err.startswith("error: No such option: --bets")


def test_options_before_baccarat_count_are_refused(capsys: pytest.CaptureFixture[str]
                                                  ) -> None:
    from strategy_calc.cli import run

    assert run(["baccarat", "--decks", "8", "count"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the options before 'count' are the odds'")
    assert err.count("\n") == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["count", "--rules", "macau-baccarat", "--spread", "1:1"],
         "error: No such option: --spread"),
        (["count", "--rules", "deluxe", "--shoes", "3"], "error: No such option: --shoes"),
        (["count", "--rules", "deluxe", "--spread", "1:x"], "error: --spread: '1:x'"),
        (["count", "--rules", "deluxe", "--penetration", "1.5"],
         "error: --penetration must be between 0 and 1"),
        (["count", "--rules", "deluxe", "--rounds", "0"], "error: --rounds must be at least 1"),
        (["count", "--rules", "deluxe", "--system", "zen-lite"],
         "error: unknown count system 'zen-lite'"),
        (["count", "--rules", "macau-baccarat", "--bets", "dragon"], "error: unknown bet dragon"),
        (["count", "--rules", "deluxe", "--bankroll", "nan"], "error: --bankroll must be"),
        (["count", "--rules", "deluxe", "--plot", "/no/such/dir/x.png"],
         "error: --plot /no/such/dir/x.png: not a file"),
        (["count", "--rules", "deluxe", "--spread", "1:1e200"], "error: --spread: 1:1e200"),
        (["count", "--rules", "macau-baccarat", "--bets", ""], "error: unknown bet"),
    ],
)
def test_count_bad_input_is_one_error_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategy_calc.cli import run

    assert run([*args, "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


@pytest.mark.slow
def test_choice_values_are_case_insensitive() -> None:
    """--strategy Optimal, --format JSON and --set surrender=Late mean what the lower-case
    spellings mean."""
    upper = run_json("edge", "--rules", "deluxe", "--decks", "1", "--strategy", "Optimal",
                     "--set", "surrender=Late")
    lower = run_json("edge", "--rules", "deluxe", "--decks", "1", "--strategy", "optimal",
                     "--set", "surrender=late")
    assert upper == lower
    result = runner.invoke(app, ["indices", "--rules", "deluxe", "--format", "JSON",
                                 "--published"])
    assert result.exit_code == 0 and json.loads(result.stdout)


def test_hand_outcomes_of_standing_are_the_dealer_outcomes() -> None:
    """Standing on 20 against a 6 wins when the dealer ends on 17, 18, 19 or busts, pushes
    on his 20 and loses to 21 (a peek game: no dealer blackjack, as the EVs); win, push and
    lose add up to 1 for every action, and T,6 vs T hit once and stood (16 + any card is 17
    or more, or bust), so its hit and double outcomes are the same."""
    data = run_json("hand", "T,T", "--vs", "6", "--rules", "deluxe")
    dealer, outcomes = data["dealer"], data["outcomes"]
    assert isinstance(dealer, dict) and isinstance(outcomes, dict)
    stand = outcomes["stand"]
    assert abs(stand["win"] - sum(dealer[k] for k in ("17", "18", "19", "bust"))) < 1e-12
    assert abs(stand["push"] - dealer["20"]) < 1e-12
    assert abs(stand["lose"] - dealer["21"]) < 1e-12
    for o in outcomes.values():
        assert o is None or abs(sum(o.values()) - 1) < 1e-12
    sixteen = run_json("hand", "T,6", "--vs", "T", "--rules", "deluxe")["outcomes"]
    assert isinstance(sixteen, dict) and sixteen["hit"] == sixteen["double"]
    assert sixteen["split"] is None and sixteen["surrender"] is None


@pytest.mark.slow
def test_edge_by_up_card_weighted_by_the_up_cards_sums_to_the_ev() -> None:
    """A full shoe shows each of 2..9 and A with chance 4/52 and a ten with 16/52."""
    for strategy in ("basic", "optimal"):
        data = run_json("edge", "--rules", "deluxe", "--decks", "2", "--strategy", strategy)
        by_up = data["by_up_card"]
        assert isinstance(by_up, dict) and list(by_up) == [*"23456789", "T", "A"]
        total = sum(ev * (16 if up == "T" else 4) / 52 for up, ev in by_up.items())
        assert abs(total - data["ev"]) < 1e-15  # type: ignore[operator]
        assert by_up["6"] > 0 > by_up["A"]  # the dealer's weakest and strongest cards


COMMANDS = [["rules"], ["hand"], ["baccarat"], ["chart"], ["edge"], ["bonus"], ["behind"],
            ["tables"], ["risk"], ["eor"], ["indices"], ["bench"], ["sweep"], ["shell"], ["count"],
            ["sidebet", "pair"], ["sidebet", "bet"], ["sidebet"], ["baccarat", "count"]]


@pytest.mark.slow
@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_examples_and_no_type_placeholders_on_flags(command: list[str]
                                                                      ) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and "strategy-calc " + command[0] in result.stdout
    assert "<bool>" not in result.stdout
    assert "--rules" not in result.stdout or "the default" in result.stdout  # its default


@pytest.mark.slow
@pytest.mark.parametrize("command", [["hand", "T,6", "--vs", "T"], ["baccarat"], ["edge"],
                                     ["behind", "5,6", "--vs", "6"], ["eor", "--decks", "1"],
                                     ["sidebet", "pair", "--rules", "deluxe"],
                                     ["bench", "--only", "hand-8d",
                                                           "--repeat", "1"]],
                         ids=lambda c: c[0] if isinstance(c, list) else str(c))
def test_format_json_is_the_same_as_json(command: list[str]) -> None:
    """One output option everywhere: --format text|json, --json its alias."""
    by_format = runner.invoke(app, [*command, "--format", "json"])
    assert by_format.exit_code == 0, by_format.output
    data = json.loads(by_format.stdout)
    assert isinstance(data, dict)
    if command[0] != "bench":  # timings differ run to run
        assert data == run_json(*command)


def test_blackjack_commands_do_not_offer_baccarat_rules_and_baccarat_not_deluxe() -> None:
    assert "macau-baccarat" not in runner.invoke(app, ["edge", "--help"]).stdout
    text = runner.invoke(app, ["baccarat", "--help"]).stdout
    assert "deluxe" not in text and "macau-baccarat (the default)" in text


TEXT_COMMANDS = [["hand", "T,6", "--vs", "T", "--exact"], ["baccarat", "--eor"], ["edge"],
                 ["bonus", "--decks", "1"], ["behind", "T,T", "--vs", "6"], ["risk", "--decks",
                                                                         "1"],
                 ["eor", "--decks", "1"], ["indices", "--decks", "1"],
                 ["sidebet", "pair", "--rules", "deluxe"],
                 ["sidebet", "bet", "lucky-ladies", "--eor"], ["sidebet", "--list"],
                 ["chart", "--decks", "1"], ["count", "--decks", "1", "--rounds", "3",
                                             "--jobs", "1"],
                 ["baccarat", "count", "--decks", "1", "--shoes", "2",
                  "--jobs", "1"], ["bench", "--only", "hand-8d", "--repeat", "1"]]


@pytest.mark.slow
@pytest.mark.parametrize("command", TEXT_COMMANDS, ids=lambda c: "-".join(c[:2]))
def test_text_output_fits_an_80_column_terminal(command: list[str]) -> None:
    """Tables shrink to the terminal's width and prose wraps between words (an exact
    fraction is never split)."""
    result = CliRunner().invoke(app, command, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    long = [line for line in result.stdout.splitlines() if len(line) > 80]
    assert not long


def test_rules_lists_every_field_with_its_value_meaning_and_rule_text() -> None:
    """Each field of the ruleset class appears, with the ruleset's value (here the Macau
    TOML's), the allowed values and the comment next to it in the ruleset file."""
    from dataclasses import fields

    from strategy_calc.rules import BlackjackRules

    data = run_json("rules", "macau-1983")
    assert data["name"] == "macau-1983" and data["game"] == "blackjack"
    got = data["fields"]
    assert isinstance(got, dict)
    assert set(got) == {f.name for f in fields(BlackjackRules)} - {"name"}
    assert got["double_on"]["value"] == "11"
    assert got["double_on"]["allowed"] == "any, 9-11, 10-11, 11, none"
    assert got["hole_card"]["rule_text"].startswith("Art. 3")
    assert all(f["meaning"] for f in got.values())
    listed = run_json("rules")["rulesets"]
    assert isinstance(listed, list)
    assert {r["name"] for r in listed} == {"macau-1983", "deluxe", "macau-baccarat"}


FULL_DECK = "A=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4,T=16"


@pytest.mark.slow
def test_a_shoe_given_per_rank_is_the_same_as_decks_and_removed_cards() -> None:
    """--shoe lists the cards in the shoe: a full deck's counts are --decks 1, and a deck
    without two fives and a ten is --decks 1 --removed 5,5,T."""
    assert (run_json("edge", "--rules", "deluxe", "--shoe", FULL_DECK)
            == run_json("edge", "--rules", "deluxe", "--decks", "1"))
    short = FULL_DECK.replace("5=4", "5=2").replace("T=16", "T=15")
    by_shoe = run_json("hand", "T,6", "--vs", "9", "--rules", "deluxe", "--shoe", short)
    by_removed = run_json("hand", "T,6", "--vs", "9", "--rules", "deluxe", "--decks", "1",
                          "--removed", "5,5,T")
    assert by_shoe["ev"] == by_removed["ev"] and by_shoe["dealer"] == by_removed["dealer"]


@pytest.mark.parametrize(("shoe", "message"), [
    ("A=4,T=16", "error: --shoe: give every rank"),
    ("A=4,A=4", "error: --shoe: rank A given twice"),
    ("A=x", "error: --shoe: 'A=x' is not RANK=COUNT"),
    ("A=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1,T=1", "error: --shoe: 10 cards is too few"),
])
def test_a_bad_shoe_is_one_error_line(shoe: str, message: str,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli import run

    assert run(["edge", "--shoe", shoe]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_hand_names_its_split_strategy_and_takes_another() -> None:
    default = run_json("hand", "9,9", "--vs", "2", "--rules", "deluxe", "--decks", "1")
    cdz = run_json("hand", "9,9", "--vs", "2", "--rules", "deluxe", "--decks", "1",
                   "--split-strategy", "cdz")
    assert default["split_strategy"] == "cdp1" and cdz["split_strategy"] == "cdz"
    assert cdz["ev"]["split"] < default["ev"]["split"]  # type: ignore[index, operator]


@pytest.mark.slow
def test_the_optimal_and_cdp_split_strategies_are_offered_and_named() -> None:
    """9,9 vs 2 at one deck without DAS: the optimum is above postsplit (hand 1 plays for
    the round) and cdp and cdp-hands equal cdp1 with one split; ``edge`` names its strategy
    and is at least the postsplit figure (its splits are upper bounds pair by pair)."""
    args = ("hand", "9,9", "--vs", "2", "--decks", "1", "--set", "double_after_split=false",
            "--rules", "deluxe", "--split-strategy")
    split = {s: run_json(*args, s) for s in ("optimal", "postsplit", "cdp", "cdp-hands",
                                             "cdp1")}
    assert {s: v["split_strategy"] for s, v in split.items()} == {s: s for s in split}
    ev = {s: v["ev"]["split"] for s, v in split.items()}  # type: ignore[index]
    assert ev["optimal"] > ev["postsplit"] > ev["cdp1"] == ev["cdp"]  # type: ignore[operator]
    assert ev["cdp-hands"] == ev["cdp1"]
    shoe = "A=2,2=2,3=2,4=2,5=2,6=2,7=2,8=2,9=2,T=8"
    edge = {s: run_json("edge", "--rules", "deluxe", "--shoe", shoe, "--split-strategy", s)
            for s in ("optimal", "postsplit")}
    assert edge["optimal"]["split_strategy"] == "optimal"
    assert edge["optimal"]["ev_optimal"] >= edge["postsplit"]["ev_optimal"]  # type: ignore[operator]


def test_risk_refuses_the_optimal_split_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli import run

    assert run(["risk", "--decks", "1", "--split-strategy", "optimal"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: outcome distributions are computed for the cdp1, cdp,"
                          " cdp-hands and cdz")
    assert err.count("\n") == 1


@pytest.mark.render
@pytest.mark.parametrize("command", [["risk", "--decks", "1", "--rounds", "50"],
                                     ["eor", "--decks", "1"]], ids=lambda c: c[0])
def test_plot_writes_a_png(command: list[str], tmp_path: Path) -> None:
    png = tmp_path / "plot.png"
    result = runner.invoke(app, [*command, "--rules", "deluxe", "--plot", str(png)])
    assert result.exit_code == 0, result.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_path_quantiles_match_the_final_quantiles() -> None:
    """The last point of the bankroll path is the result after all the rounds, whose
    quantiles `risk` reports (both exact convolution powers)."""
    from strategy_calc.blackjack.risk import path_quantiles, summarise

    outcomes = {-1.0: 0.5, 1.0: 0.4, 2.0: 0.1}
    n, last = path_quantiles(outcomes, 40, points=4)[-1]
    assert n == 40 and last == summarise(outcomes, 100, 40).quantiles


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["hand", "T,6", "--vs", "T"], ["baccarat"], ["chart", "--decks", "1"], ["edge"],
    ["bonus", "--decks", "1"], ["behind", "5,6", "--vs", "6"], ["risk", "--decks", "1"],
    ["eor", "--decks", "1"], ["indices", "--decks", "1"], ["sidebet", "pair", "--rules",
                                                            "deluxe"],
    ["sweep", "--rules", "deluxe", "--vary", "decks=1,2", "--jobs", "1"],
    ["count", "--decks", "1", "--rounds", "2", "--jobs", "1"], ["rules", "deluxe"]],
    ids=lambda c: c[0])
def test_every_json_result_names_its_rules_decks_and_ruleset(command: list[str]) -> None:
    data = run_json(*command)
    if command[0] == "rules":
        assert data["name"] == "deluxe" and data["ruleset"]
        return
    assert {"rules", "decks", "ruleset"} <= set(data)
    assert isinstance(data["decks"], int) and isinstance(data["ruleset"], str)


@pytest.mark.slow
@pytest.mark.parametrize("command", [["behind", "5,6", "--vs", "6"], ["risk"], ["bonus"],
                                     ["chart"]], ids=lambda c: c[0])
def test_a_full_deck_given_per_rank_is_one_deck(command: list[str]) -> None:
    assert run_json(*command, "--shoe", FULL_DECK) == run_json(*command, "--decks", "1")


def test_an_optimal_split_with_resplits_on_several_decks_warns_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli import respond
    from strategy_calc.rules import blackjack_rules

    four = blackjack_rules("deluxe", ["max_split_hands=4"])
    respond.warn_slow_split(four, "optimal", "this pair")
    assert capsys.readouterr().err.startswith("warning: the fully optimal split with resplits")
    respond.warn_slow_split(blackjack_rules("deluxe", ["max_split_hands=4"], decks=1),
                            "optimal", "this pair")
    respond.warn_slow_split(four, "cdp1", "this pair")
    assert capsys.readouterr().err == ""


def test_input_error_is_an_error_line_but_an_internal_value_error_is_a_bug(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``guarded``: bad input (``InputError``) is one ``error:`` line with exit 2; any other
    ``ValueError`` is a broken invariant, so it keeps its traceback after a line asking
    for a report, instead of being passed off as the user's mistake."""
    import typer

    from strategy_calc.cli.respond import guarded
    from strategy_calc.errors import InputError

    def bad_input() -> None:
        raise InputError("--decks must be at least 1")

    with pytest.raises(typer.Exit) as exit_info:
        guarded(bad_input)
    assert exit_info.value.exit_code == 2
    assert capsys.readouterr().err == "error: --decks must be at least 1\n"

    def broken_invariant() -> None:
        raise ValueError("histogram index out of range")

    with pytest.raises(ValueError, match="histogram index out of range"):
        guarded(broken_invariant)
    err = capsys.readouterr().err
    assert not err.startswith("error:") and "internal error" in err and "report" in err


def test_library_input_errors_are_value_errors_for_callers() -> None:
    """Library callers that catch ``ValueError`` keep working: every input error is one."""
    from strategy_calc.cards import CardError
    from strategy_calc.errors import InputError
    from strategy_calc.rules import RulesError

    assert issubclass(InputError, ValueError)
    assert issubclass(CardError, InputError) and issubclass(RulesError, InputError)


@pytest.mark.slow
def test_count_on_macau_s_single_deck_says_it_deals_one_round_per_shuffle() -> None:
    """RULES.md, shuffle: one round per shuffle at one deck, so no cut card, no
    penetration and a cut-card effect of exactly 0; --penetration is refused."""
    data = run_json("count", "--rules", "macau-1983", "--decks", "1", "--rounds", "5")
    assert data["one_round_per_shuffle"] is True
    assert (data["penetration"], data["cut_card"], data["shoes"]) == (None, None, 5)
    assert data["cut_card_effect"] == {"value": 0.0, "se": 0.0}
    text = runner.invoke(app, ["count", "--rules", "macau-1983", "--decks", "1",
                               "--rounds", "5"])
    assert text.exit_code == 0 and "one round per shuffle" in " ".join(text.stdout.split())
    refused = runner.invoke(app, ["count", "--rules", "macau-1983", "--decks", "1",
                                  "--penetration", "0.5"])
    assert refused.exit_code == 2 and refused.stderr.startswith("error: ")
    assert refused.stderr.count("\n") == 1
    deluxe = run_json("count", "--rules", "deluxe", "--decks", "1", "--rounds", "5")
    assert deluxe["one_round_per_shuffle"] is False and deluxe["cut_card"] == 20


# ---------------------------------------------------------------- rules files and their base


def test_a_rules_file_without_a_base_must_set_every_field(tmp_path: Path) -> None:
    """A two-line file names no base: refused on one line that says to name one and
    which fields are unset, never filled in from a generic game."""
    path = tmp_path / "minimal.toml"
    path.write_text('decks = 4\nsurrender = "late"\n', encoding="utf-8")
    result = runner.invoke(app, ["edge", "--rules", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1
    import dataclasses

    from strategy_calc.rules import BlackjackRules

    unset = len(dataclasses.fields(BlackjackRules)) - 3  # (name and the two set)
    assert 'add base = "macau-1983"' in result.stderr
    assert f"leaves {unset} fields unset" in result.stderr
    assert "dealer_hits_soft_17" in result.stderr


def test_a_rules_file_inherits_only_from_the_base_it_names(tmp_path: Path) -> None:
    """base = "macau-1983": every field the file does not set is Macau's (not a
    default game's); a base may be another file, read relative to this one."""
    import strategy_calc as sc

    (tmp_path / "four.toml").write_text('base = "macau-1983"\ndecks = 4\nsurrender = "late"\n',
                                        encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "h17.toml").write_text(
        'base = "../four.toml"\ndealer_hits_soft_17 = true\n', encoding="utf-8")
    four = sc.blackjack_rules(str(tmp_path / "four.toml"))
    macau = sc.blackjack_rules("macau-1983", ["decks=4", "surrender=late"])
    assert four == replace(macau, name="four")
    h17 = sc.blackjack_rules(str(tmp_path / "sub" / "h17.toml"))
    assert h17 == replace(macau, name="h17", dealer_hits_soft_17=True)
    data = run_json("rules", str(tmp_path / "sub" / "h17.toml"))
    fields = data["fields"]
    assert isinstance(fields, dict)
    assert fields["dealer_hits_soft_17"]["set_by"] == "h17"
    assert fields["decks"]["set_by"] == "four" and fields["surrender"]["set_by"] == "four"
    assert fields["double_on"]["set_by"] == "macau-1983"
    assert fields["double_on"]["rule_text"].startswith("Art. 11")
    assert fields["decks"]["rule_text"] == ""  # Macau's text is not the file's rule
    text = runner.invoke(app, ["rules", str(tmp_path / "sub" / "h17.toml")]).stdout
    assert "from base macau-1983" in text and "from base four" in text


@pytest.mark.parametrize(("content", "message"), [
    ('base = "self.toml"\n', "its bases form a loop"),
    ('base = 3\n', "base must be a ruleset name or a file"),
    ('base = "nowhere.toml"\n', "unknown ruleset 'nowhere.toml'"),
    ('base = "deluxe"\n[sources]\nfoo = "x"\n', "[sources] names 'foo', which is not"),
])
def test_a_bad_base_is_one_error_line(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "self.toml"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["edge", "--rules", str(path)])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: ") and message in result.stderr


def test_a_folder_given_as_rules_is_called_a_folder(tmp_path: Path) -> None:
    result = runner.invoke(app, ["edge", "--rules", str(tmp_path)])
    assert result.exit_code == 2 and "is a folder, not a TOML file" in result.stderr


def test_every_built_in_ruleset_sets_every_field_itself() -> None:
    """No built-in leans on a default: each file sets every field of its game's record."""
    from dataclasses import fields

    from strategy_calc.rules import RULESETS, BaccaratRules, BlackjackRules, read_ruleset

    for ruleset in RULESETS:
        read = read_ruleset(ruleset.name)
        cls = BlackjackRules if ruleset.game == "blackjack" else BaccaratRules
        names = {f.name for f in fields(cls)} - {"name"}
        assert set(read.set_by) == names and set(read.set_by.values()) == {ruleset.name}


def test_a_pdf_chart_is_not_written_to_a_terminal(tmp_path: Path) -> None:
    """On a pseudo-terminal, --format pdf without --out is refused before any work (as curl
    does): one error line, exit 2, and no binary on the screen."""
    import os
    import pty
    import subprocess
    import sys

    main, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "strategy_calc", "chart", "--format",
                               "pdf", "--decks", "1"], stdout=follower,
                              stderr=subprocess.PIPE, text=True, timeout=60, check=False,
                              cwd=tmp_path)  # (not the source folder: no compiled engine)
        os.close(follower)
        follower = -1
        shown = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if follower != -1:
            os.close(follower)
        os.close(main)
    assert done.returncode == 2
    assert done.stderr.startswith("error: a PDF is binary") and done.stderr.count("\n") == 1
    assert b"%PDF" not in shown


@pytest.mark.parametrize("args", [["edge", "--json", "--format", "text"],
                                  ["chart", "--json", "--format", "csv"],
                                  ["indices", "--json", "--format", "text"],
                                  ["count", "--json", "--format", "text"],
                                  ["sweep", "--vary", "decks=1,2", "--json", "--format", "csv"]])
def test_json_and_a_different_format_are_refused(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: --json and --format ")
    assert result.stderr.count("\n") == 1


def test_the_source_folder_without_a_build_says_what_to_do(tmp_path: Path) -> None:
    """From a source tree (a pyproject.toml beside strategy_calc/) with no compiled engine,
    as after `pip install .` at the repository root: the import names the cause and the
    two ways out, and the command line prints it as one error line."""
    import os
    import shutil
    import site
    import subprocess
    import sys

    import strategy_calc

    tree = tmp_path / "src"
    shutil.copytree(Path(strategy_calc.__file__).parent, tree / "strategy_calc",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    (tree / "pyproject.toml").write_text("[project]\nname = 'strategy_calc'\n", encoding="utf-8")
    # -S: no site hooks (an editable install's finder would find the real package
    # first); the dependencies from site-packages, after the source folder, as in a
    # plain install run from the repository root
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), *site.getsitepackages()])}
    lib = subprocess.run([sys.executable, "-S", "-c", "import strategy_calc.engine"],
                         cwd=tree, env=env, capture_output=True, text=True, timeout=60,
                         check=False)
    assert lib.returncode != 0
    assert ("strategy_calc's compiled engine (strategy_calc._engine) cannot be imported"
            in lib.stderr)
    assert "run from another folder" in lib.stderr and "pip install -e ." in lib.stderr
    cli = subprocess.run([sys.executable, "-S", "-m", "strategy_calc", "hand", "T,6", "--vs",
                          "T"], cwd=tree, env=env, capture_output=True, text=True, timeout=60,
                         check=False)
    assert cli.returncode == 2 and cli.stderr.count("\n") == 1
    assert cli.stderr.startswith("error: strategy_calc's compiled engine")


def test_a_count_estimated_beyond_ten_minutes_needs_yes() -> None:
    """count estimates the run first: a billion rounds is refused off a terminal with the
    estimate (at 0.025 + 1/25 CPU-s a round on two cores, about 376 days), before any
    shoe is dealt (the run's chart is made first: its checks come before the estimate);
    a thousand rounds (about 33 s) runs without asking."""
    from strategy_calc.counting.counter import estimated_seconds

    result = runner.invoke(app, ["count", "--rounds", "1000000000", "--jobs", "2"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: 1,000,000,000 rounds would take about 376 days")
    assert "pass --yes" in result.stderr
    assert estimated_seconds("basic", 1000, 25, 2) == pytest.approx(32.5)
    assert estimated_seconds("optimal", 1000, 25, 1) > estimated_seconds("basic", 1000, 25, 1)


def test_bench_can_say_how_long_it_takes_for_every_workload() -> None:
    """Each workload has the typical time bench's estimate adds up (measured, in
    TYPICAL_MS); the estimate counts the warm-up run of the light ones."""
    from strategy_calc.jobs import bench

    assert set(bench.TYPICAL_MS) == set(bench.names())
    one = bench.expected_seconds(3, ["game-8d"])
    assert one == pytest.approx(4 * bench.TYPICAL_MS["game-8d"] / 1000)


def test_a_process_keeps_a_rulesets_analysis_for_its_next_command() -> None:
    """``serve``'s workers answer the chart and the edge of one ruleset from one analysis:
    the second command takes the kept analysis (the same object), and its answer equals a
    fresh process's; another split strategy or shoe is another analysis."""
    from strategy_calc.cli import game, run_captured

    game._games.clear()
    chart = run_captured(["chart", "--rules", "deluxe", "--decks", "2", "--json"])
    kept = dict(game._games)
    edge = run_captured(["edge", "--rules", "deluxe", "--decks", "2", "--json"])
    assert len(kept) == 1 and dict(game._games) == kept
    game._games.clear()
    assert run_captured(["edge", "--rules", "deluxe", "--decks", "2", "--json"]) == edge
    assert chart[0] == edge[0] == 0
    run_captured(["edge", "--rules", "deluxe", "--decks", "2", "--split-strategy", "cdz",
                  "--json"])
    assert len(game._games) == 2


def test_the_command_table_names_each_familys_commands_and_only_them() -> None:
    """A command line loads only its family (``cli.root.COMMANDS``): the table must list
    every command and group each family declares, under that family, and nothing else."""
    import pkgutil

    import strategy_calc.cli as package
    from strategy_calc.cli import root

    declared: dict[str, str] = {}
    for module in pkgutil.iter_modules(package.__path__):
        commands = getattr(root.importlib.import_module(f"strategy_calc.cli.{module.name}"),
                           "commands", None)
        if commands is None:
            continue
        for info in commands.registered_commands:
            declared[str(root.command_name(info))] = module.name
        for group in commands.registered_groups:
            declared[str(group.name)] = module.name
    assert declared == root.COMMANDS


@pytest.mark.parametrize(("args", "names"), [([], "hand, baccarat, chart")])
def test_a_command_group_without_its_command_is_one_error_line(
    args: list[str], names: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 50: the bare command line printed its usage without the ``error:`` contract.
    (The program's name is this process's, whatever runs the tests.)"""
    from strategy_calc.cli.root import run

    assert run(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    group = "".join(f" {a}" for a in args)
    assert f"{group} needs a command, one of: {names}" in lines[0]


def test_sidebet_without_a_bet_or_a_command_is_one_error_line_naming_both(
    capsys: pytest.CaptureFixture[str]) -> None:
    from strategy_calc.cli.root import run

    assert run(["sidebet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: sidebet needs a side bet's name") and "pair" in err


@pytest.mark.parametrize(("args", "warning"), [
    (["hand", "T,6", "--vs", "T", "--postsplit"],
     "warning: --postsplit has no effect: T,6 is not a pair"),
    (["count", "--rules", "deluxe", "--decks", "1", "--rounds", "10", "--jobs", "1",
      "--bankroll", "100"],
     "warning: --bankroll has no effect without a bet ramp (--spread, or --enter/--exit):"
     " flat bets have no risk-of-ruin figures here"),
])
def test_a_flag_without_effect_is_a_warning(args: list[str], warning: str) -> None:
    """Issue 50 item 4: flags that change nothing were taken without a word."""
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert warning in result.stderr.splitlines()


def test_postsplit_of_a_pair_is_no_warning() -> None:
    result = runner.invoke(app, ["hand", "8,8", "--vs", "T", "--postsplit"])
    assert result.exit_code == 0 and "warning" not in result.stderr


@pytest.mark.parametrize("args", [
    ["edge", "--rules", "deluxe", "--set", "max_split_hands=4", "--split-strategy", "optimal"],
    ["chart", "--rules", "deluxe", "--set", "max_split_hands=4", "--split-strategy",
     "optimal"],
    ["hand", "2,2", "--vs", "T", "--decks", "6", "--set", "max_split_hands=4",
     "--split-strategy", "optimal"],
])
def test_an_analysis_of_hours_asks_for_yes(args: list[str]) -> None:
    """Issue 50 item 2: long analyses warned ("can take hours") and started anyway. The
    fully optimal split with resplits at 6-8 decks is estimated (blackjack/cost.py, from
    the measured runs) at hours; off a terminal it is one error line until --yes."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the fully optimal split with"
                                                   " resplits for ")
    assert lines[0].endswith("here: pass --yes to run it") and "hours" in lines[0]


@pytest.mark.parametrize(("side", "hours"), [((), "3.5"), (("--sidebets", "lucky6"), "5.1")])
def test_a_baccarat_count_of_hours_asks_for_yes(side: tuple[str, ...], hours: str) -> None:
    """A baccarat count of a million shoes started at once, without a word (found in
    review): estimated from the measured cost of a shoe (25 ms of CPU, 12 ms more per side
    bet, strategy_calc/counting/baccarat.py) it is 1e6 x 0.025 s / 2 workers = 12,500 s =
    3.5 hours, 1e6 x 0.037 / 2 = 18,500 s = 5.1 hours with one side bet; off a terminal,
    one error line until --yes, before any shoe is dealt."""
    result = runner.invoke(app, ["baccarat", "count", "--shoes", "1000000",
                                 "--jobs", "2", *side, "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == (f"error: 1,000,000 shoes would take about {hours} hours here:"
                             " pass --yes to run it\n")


def test_hand_averages_a_removed_card_of_unknown_suit_over_its_suits() -> None:
    """Issue 47's hand: ``--removed`` cards were seen, suits too, so a removed 8 given
    without one is the average of the same hand with each suit given (docs/MODEL.md; the
    brute force over suited cards is tests/blackjack/split/test_split_suits.py). A
    consistency check of the command line against itself: each suit's value is the
    calculator's, proved against the suit-aware oracle there."""
    base = ["hand", "7s,7h", "--vs", "6d", "--rules", "macau-1983", "--set", "decks=1",
            "--set", "double_on=9-11", "--set", "double_after_split=true", "--set",
            "surrender=none", "--json", "--removed"]

    def split(removed: str) -> tuple[float, list[str]]:
        result = runner.invoke(app, [*base, removed], env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        return data["ev"]["split"], data["notes"]

    each = [split(f"9,T,8{s},T,9")[0] for s in "shdc"]
    value, notes = split("9,T,8,T,9")
    assert len(set(each)) > 1
    assert value == pytest.approx(sum(each) / 4, abs=1e-12)
    assert any("averaged over their possible suits" in n for n in notes)
