"""Dump a few thousand figures from the command line, to show a refactor changes none.

Run it before and after a restructuring and compare the two files byte for byte:

    python tools/dump_figures.py > before.jsonl
    ... refactor, rebuild ...
    python tools/dump_figures.py > after.jsonl
    cmp before.jsonl after.jsonl

Each line is one command (its arguments, exit status and exact stdout).  The
commands cover hands (every split strategy), charts, edges under every
strategy, distributions, bonuses, bet behind, side bets, effects of removal,
indices, baccarat, seeded count runs and sweeps, on both blackjack rulesets at
several shoe sizes.  Output is the JSON the CLI prints, so floats are compared
to the last bit.  Runs in-process (one interpreter) in a few minutes.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys

from strategy_calc import cli

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]


def commands() -> list[list[str]]:
    """Every command line of the dump, in a fixed order."""
    return hand_commands() + game_commands()


def hand_commands() -> list[list[str]]:
    """``hand`` queries: every two-card start and up card, splits, known cards."""
    out: list[list[str]] = []
    two_card = [(a, b) for i, a in enumerate(RANKS) for b in RANKS[i:]]
    for rules, decks in (("deluxe", "8"), ("macau-1983", "1"), ("deluxe", "2"),
                         ("macau-1983", "6")):
        for a, b in two_card:
            for up in RANKS:
                out.append(["hand", f"{a},{b}", "--vs", up, "--rules", rules,
                            "--decks", decks, "--json"])
    for strategy in ("cdp1", "cdz", "cdp", "postsplit"):
        for rules in ("deluxe", "macau-1983"):
            for pair in RANKS:
                for up in ("A", "6", "T"):
                    out.append(["hand", f"{pair},{pair}", "--vs", up, "--rules", rules,
                                "--decks", "2", "--split-strategy", strategy, "--json"])
    for up in ("6", "T"):
        out.append(["hand", "8,8", "--vs", up, "--rules", "deluxe", "--decks", "1",
                    "--set", "max_split_hands=2", "--split-strategy", "optimal", "--json"])
    for cards, up in (("T,6", "T"), ("2,T", "4"), ("7,7,7", "A"), ("6,7", "8"),
                      ("6h,7h", "T"), ("A,5,2", "6")):
        for rules in ("deluxe", "macau-1983"):
            out.append(["hand", cards, "--vs", up, "--rules", rules, "--removed",
                        "5,5,K,T", "--decks", "1", "--json"])
            out.append(["hand", cards, "--vs", up, "--rules", rules, "--exact", "--json"])
    return out


def game_commands() -> list[list[str]]:
    """Whole-game commands: charts, edges, distributions, counts, sweeps, baccarat."""
    out: list[list[str]] = []
    for rules in ("deluxe", "macau-1983"):
        for decks in ("1", "2", "6", "8"):
            out.append(["chart", "--rules", rules, "--decks", decks, "--format", "json"])
            for strategy in ("basic", "optimal", "autoplay"):
                out.append(["edge", "--rules", rules, "--decks", decks,
                            "--strategy", strategy, "--json"])
        out.append(["edge", "--rules", rules, "--set", "blackjack_pays=6:5", "--json"])
        out.append(["edge", "--rules", rules, "--set", "surrender=none",
                    "--strategy", "optimal", "--json"])
        out.append(["bonus", "--rules", rules, "--decks", "8", "--json"])
        for strategy in ("optimal", "basic"):
            out.append(["risk", "--rules", rules, "--decks", "2", "--strategy", strategy,
                        "--bankroll", "100", "--rounds", "1000", "--json"])
        out.append(["eor", "--rules", rules, "--decks", "6", "--json"])
        out.append(["indices", "--rules", rules, "--decks", "6", "--format", "json"])
        out.append(["behind", "T,T", "--vs", "6", "--rules", rules, "--json"])
        out.append(["behind", "A,7", "--vs", "9", "--rules", rules, "--json"])
        out.append(["rules", rules, "--json"])
        out.append(["count", "--rules", rules, "--decks", "2", "--rounds", "60",
                    "--seed", "7", "--spread", "1:1,2:4,3:8", "--format", "json"])
        out.append(["sweep", "--rules", rules, "--vary",
                    "surrender=none,late", "--vary", "double_on=any,11", "--mode", "grid",
                    "--format", "json", "--yes"])
    out.append(["sidebet", "pair", "--rules", "deluxe", "--json"])
    out.append(["sidebet", "pair", "--rules", "deluxe", "--decks", "1", "--removed", "5,5",
                "--json"])
    for decks in ("1", "6", "8"):
        out.append(["baccarat", "--decks", decks, "--json"])
    out.append(["baccarat", "--decks", "8", "--removed", "5,5,K,Jh", "--eor", "--json"])
    out.append(["baccarat", "--decks", "1", "--exact", "--json"])
    out.append(["count", "--rules", "macau-baccarat", "--shoes", "3", "--seed", "5",
                "--format", "json"])
    out.append(["sweep", "--preset", "macau-rules", "--format", "json", "--yes"])
    return out


def main() -> int:
    for args in commands():
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                status = cli.run(args)
            except SystemExit as exc:  # typer may exit directly
                status = int(exc.code or 0)
        # stderr carries progress bars and timings: only its error lines are compared
        errors = [line for line in stderr.getvalue().splitlines() if line.startswith("error:")]
        print(json.dumps({"args": args, "status": status, "stdout": stdout.getvalue(),
                          "errors": errors}))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
