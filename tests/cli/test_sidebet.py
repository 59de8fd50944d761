"""``sidebet NAME`` and ``sidebet --list``: the JSON contract, the pair bet unchanged, bad
input as one ``error:`` line with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from strategy_calc.blackjack.pair_bet import analyse_pair
from strategy_calc.cli.root import run
from strategy_calc.render.hand import pair_dict
from strategy_calc.rules import blackjack_rules
from strategy_calc.sidebets.paytables import BUILTIN_FILES, builtin_sidebet

CONTRACT = {"bet", "rules", "decks", "ev", "house_edge", "sd", "lines"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert run([*args, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    data: dict[str, object] = json.loads(out)
    return data


@pytest.mark.parametrize("name", ["21+3", "lucky-ladies", "deluxe-pair", "buster"])
def test_every_builtin_gives_the_contract_keys_and_lines_that_sum_to_one(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "sidebet", name, "--decks", "2")
    assert set(data) >= CONTRACT
    assert data["bet"] == name and data["decks"] == 2 and data["rules"] == "macau-1983"
    lines = data["lines"]
    assert isinstance(lines, dict)
    assert sum(line["probability"] for line in lines.values()) == pytest.approx(1, abs=1e-14)
    ev = sum(line["probability"] * line["pays"] for line in lines.values())
    assert data["ev"] == pytest.approx(ev, abs=1e-14) and data["house_edge"] == -data["ev"]


def test_sidebet_pair_is_unchanged_and_equals_the_deluxe_pair_bet(
        capsys: pytest.CaptureFixture[str]) -> None:
    pair = run_json(capsys, "sidebet", "pair", "--rules", "deluxe", "--removed", "8,8")
    expected = analyse_pair(blackjack_rules("deluxe"), "8,8")
    assert pair == json.loads(json.dumps(pair_dict(expected)))
    bet = run_json(capsys, "sidebet", "deluxe-pair", "--rules", "deluxe", "--removed", "8,8")
    assert bet["ev"] == pytest.approx(pair["ev"], abs=1e-15)


def test_list_names_every_builtin_and_a_file(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('name = "my-pair"\nevent = "pair"\ndefault = "t"\n[paytables.t]\n'
                    'perfect = 30\ncoloured = 10\nmixed = 5\n', encoding="utf-8")
    listed = run_json(capsys, "sidebet", "--list", "--sidebet", str(path))
    assert list(listed) == [*BUILTIN_FILES, "my-pair"]
    assert {"21+3", "lucky-ladies", "deluxe-pair", "buster", "lucky6",
            "lucky6-vegas"} <= set(listed)
    assert (listed["buster"]["game"], listed["lucky6"]["game"],  # type: ignore[index]
            listed["my-pair"]["game"]) == ("blackjack", "baccarat", "blackjack")  # type: ignore[index]
    mine = run_json(capsys, "sidebet", "my-pair", "--sidebet", str(path), "--decks", "8")
    # 8 decks: perfect 7/415, coloured 8/415, mixed 16/415 (the pair bet's hand count)
    assert mine["ev"] == pytest.approx((30 * 7 + 10 * 8 + 5 * 16 - 384) / 415, abs=1e-15)


def test_effects_of_removal_weighted_by_the_shoe_sum_to_zero(
        capsys: pytest.CaptureFixture[str]) -> None:
    # burning one unseen card leaves a fixed bet's EV unchanged: sum_f (n_f / N) E_f = 0
    data = run_json(capsys, "sidebet", "lucky-ladies", "--decks", "2", "--eor")
    faces = data["eor"]["faces"]  # type: ignore[index]
    assert sum(8 / 104 * e for e in faces.values()) == pytest.approx(0, abs=1e-15)
    cards = data["eor"]["cards"]  # type: ignore[index]
    assert len(cards) == 52 and cards["Qh"] < 0 < cards["5s"]


BAD = [
    (["sidebet", "no-such-bet"], "unknown side bet 'no-such-bet'"),
    (["sidebet", "buster", "--shoe", "A=1,2=1,3=1,4=0,5=0,6=0,7=0,8=0,9=0,T=0,J=0,Q=0,K=0"],
     "the dealer could run out of cards"),
    (["sidebet", "21+3", "--paytable", "x"], "21+3 has no pay table 'x'"),
    (["sidebet", "21+3", "--decks", "6251"], "decks must be between 1 and 6250"),
    (["sidebet", "21+3", "--decks", "1", "--removed", "As,As"], "more A of spades"),
    (["sidebet", "21+3", "--shoe", "A=1,2=0,3=0,4=0,5=0,6=0,7=0,8=0,9=0,T=0,J=0,Q=1,K=0"],
     "only 2 cards left"),
    (["sidebet", "21+3", "--shoe", "A=1", "--decks", "2"], "give --shoe or --decks"),
    (["sidebet", "21+3", "--sidebet", "/nonexistent.toml"], "no such file"),
    (["sidebet", "--json", "pair"], "the options before 'pair'"),
    (["sidebet"], "sidebet needs a side bet's name"),
    (["sidebet", "lucky6", "--rules", "deluxe"],
     "lucky6 is a baccarat side bet: ruleset 'deluxe' is for blackjack, not baccarat"),
    (["sidebet", "21+3", "--rules", "macau-baccarat"],
     "21+3 is a blackjack side bet: ruleset 'macau-baccarat' is for baccarat, not blackjack"),
    (["sidebet", "lucky6", "--paytable", "reno"], "lucky6 has no pay table 'reno'"),
    (["sidebet", "lucky6", "--shoe", "A=1,2=0,3=0,4=0,5=0,6=2,7=0,8=0,9=0,T=0,J=0,Q=0,K=1"],
     "only 4 cards left: a baccarat round needs 6"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=lambda a: " ".join(a)
                         if isinstance(a, list) else "")
def test_bad_input_is_one_error_line_and_exit_2(args: list[str], message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert run(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: ") and message in err


def test_a_bad_toml_file_is_one_error_line(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nevent = "pair"\ndefault = "t"\n[paytables.t]\nperfect = 1\n',
                    encoding="utf-8")
    assert run(["sidebet", "x", "--sidebet", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "does not price coloured" in err


def test_a_shoe_given_per_face_is_that_shoe_with_suits_unknown(
        capsys: pytest.CaptureFixture[str]) -> None:
    # a full deck given per face (every suit equally likely) is the full deck
    full = ",".join(f"{face}=4" for face in "A23456789TJQK")
    by_face = run_json(capsys, "sidebet", "21+3", "--shoe", full)
    by_decks = run_json(capsys, "sidebet", "21+3", "--decks", "1")
    assert by_face["ev"] == by_decks["ev"] and by_face["decks"] == 1
    # one deck: 9 x (48 + 52 + 720 + 1,096) / 22,100 - 20,184 / 22,100 (tests/sidebets)
    assert by_face["ev"] == pytest.approx((9 * 1916 - 20184) / 22100, abs=1e-15)


BACCARAT_BETS = [name for name in BUILTIN_FILES
                 if builtin_sidebet(name).event.game == "baccarat"]


@pytest.mark.parametrize("name", BACCARAT_BETS)
def test_every_baccarat_builtin_is_priced_under_the_default_baccarat_ruleset(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "sidebet", name)
    assert set(data) >= CONTRACT
    assert data["bet"] == name and data["decks"] == 8 and data["rules"] == "macau-baccarat"
    lines = data["lines"]
    assert isinstance(lines, dict)
    assert sum(line["probability"] for line in lines.values()) == pytest.approx(1, abs=1e-14)


def test_a_baccarat_bet_takes_a_baccarat_ruleset_decks_and_removed_cards(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "sidebet", "lucky6", "--rules", "macau-baccarat", "--decks", "6",
                    "--removed", "6,6,7")
    assert (data["rules"], data["decks"], data["cards_left"]) == ("macau-baccarat", 6, 309)


def test_a_baccarat_pay_table_missing_a_line_is_one_error_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "six.toml"
    path.write_text('name = "six"\nevent = "banker_six"\ndefault = "t"\n[paytables.t]\n'
                    'two_card_six = 12\n', encoding="utf-8")
    assert run(["sidebet", "six", "--sidebet", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "does not price three_card_six" in err
