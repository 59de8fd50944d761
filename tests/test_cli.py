"""The command-line contract: JSON keys, text output, and one-line errors with exit 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from strategy_calc.cli import app

runner = CliRunner()

EV_KEYS = {"stand", "hit", "double", "split", "surrender", "insurance", "even_money"}
DEALER_KEYS = {"17", "18", "19", "20", "21", "bust", "blackjack"}


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


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
    assert "<- best" in result.stdout and "dealer outcomes" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hand", "T,X", "--vs", "T"], "unknown card rank 'X'"),
        (["hand", "T,6", "--vs", "Z"], "unknown card rank 'Z'"),
        (["hand", "T,8,5", "--vs", "T"], "bust"),
        (["hand", "5,5", "--vs", "5", "--decks", "1", "--removed", "5,5"], "more 5s"),
        (["hand", "T,6", "--vs", "T", "--rules", "nosuch"], "unknown ruleset 'nosuch'"),
        (["hand", "T,6", "--vs", "T", "--set", "colour=red"], "unknown field 'colour'"),
        (["hand", "T,6", "--vs", "T", "--set", "hole_card=maybe"], "invalid value 'maybe'"),
        (["hand", "T,6", "--vs", "T", "--decks", "13"], "decks must be between 1 and 12"),
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
    path.write_text('game = "blackjack"\ndecks = 2\nhole_card = "peek"\nsurrender = "late"\n')
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


def test_bench_lists_the_contract_workloads() -> None:
    from strategy_calc import bench

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
