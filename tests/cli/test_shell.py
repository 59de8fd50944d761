"""``strategy-calc shell``: the prompt loop, tried in a real pseudo-terminal."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from terminal import on_terminal, read_until

import strategy_calc as sc
from strategy_calc.cli.shell import PROMPT, Session, run


def test_a_query_answers_what_the_hand_command_computes() -> None:
    """`8,8 vs A split` in the shell is the `split` EV of analyse_hand for the same rules."""
    session = Session("deluxe", ["decks=6"])
    want = sc.analyse_hand("8,8", "A", sc.blackjack_rules("deluxe", ["decks=6"])).ev["split"]
    assert want is not None
    assert session.answer("8,8 vs A split").startswith(f"split: {want:+.4f} ")


def test_a_hand_query_shows_the_win_push_lose_chances_as_hand_does() -> None:
    """The shell's table is the hand command's: the same P(win), P(push), P(lose)."""
    from typer.testing import CliRunner

    from strategy_calc.cli import app

    text = Session("deluxe", ["decks=1"]).answer("T,6 vs T")
    printed = CliRunner().invoke(app, ["hand", "T,6", "--vs", "T", "--rules", "deluxe",
                                       "--decks", "1"]).stdout
    assert "P(win)" in text and "P(lose)" in text
    stand = next(line for line in printed.splitlines() if "stand" in line)
    assert stand.split()[1:5] == next(
        line for line in text.splitlines() if "stand" in line).split()[1:5]


def test_set_changes_the_rules_and_forgets_the_old_chart() -> None:
    session = Session("deluxe", ["decks=6"])
    six = session.answer(":edge")
    assert session.answer(":set decks=1").startswith("deluxe: 1D")
    assert session.answer(":edge") != six
    assert session.rules.decks == 1


def test_bad_lines_are_one_error_line_and_the_loop_goes_on() -> None:
    out, err = io.StringIO(), io.StringIO()
    lines = io.StringIO("T,6 vs\nZ,6 vs T\n:nope\n:set decks=0\nT,6 vs T stand\n:quit\n")
    assert run(Session("deluxe"), lines, out, err) == 0
    errors = err.getvalue().splitlines()
    assert len(errors) == 4 and all(e.startswith("error: ") for e in errors)
    assert "stand: " in out.getvalue()




@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_a_pseudo_terminal_session_with_prompt_line_editing_and_history(tmp_path: Path) -> None:
    """On a terminal: the prompt, an answer per query, the up arrow recalling the last
    query (readline), and the history kept in the home folder."""
    hit = sc.analyse_hand("T,6", "T", sc.blackjack_rules("deluxe", ["decks=6"])).ev["hit"]
    assert hit is not None
    answer = f"hit: {hit:+.4f}".encode()
    env = {**os.environ, "HOME": str(tmp_path), "TERM": "xterm", "NO_COLOR": "1"}
    with on_terminal(["shell", "--rules", "deluxe", "--decks", "6"], env,
                     tmp_path) as (proc, master):
        prompt = PROMPT.encode()
        read_until(master, prompt)
        os.write(master, b"T,6 vs T hit\r")
        first = read_until(master, prompt)
        assert answer in first
        os.write(master, b"\x1b[A\r")  # up arrow: the same query again
        again = read_until(master, prompt)
        assert answer in again
        os.write(master, b"9,9 vs 7 stand\r")
        assert b"stand: " in read_until(master, prompt)
        os.write(master, b":quit\r")
        assert proc.wait(timeout=30) == 0
    history = (tmp_path / ".strategy_calc_history").read_text()
    assert "T,6 vs T hit" in history and "9,9 vs 7 stand" in history


def test_set_decks_wins_over_the_decks_flag() -> None:
    session = Session("deluxe", [], decks=2)
    assert session.rules.decks == 2
    assert session.answer(":set decks=1").startswith("deluxe: 1D")
