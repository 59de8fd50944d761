"""docs/CLI.md's synopsis is made from the commands' declarations (issue 46, item 5): the
document's block is what :func:`strategy_calc.cli.synopsis.synopsis` makes, and a line
names each option as the command declares it."""

from __future__ import annotations

from pathlib import Path

from strategy_calc.cli import synopsis
from strategy_calc.cli.root import COMMANDS, SUMMARIES, click_command

CLI_MD = Path(__file__).resolve().parents[2] / "docs" / "CLI.md"


def test_the_documents_synopsis_is_the_one_the_declarations_make() -> None:
    """If this fails after a change to an option: python -m strategy_calc.cli.synopsis
    docs/CLI.md writes the block anew (the prose around it is kept)."""
    text = CLI_MD.read_text(encoding="utf-8")
    assert synopsis.in_document(text) == synopsis.synopsis()
    assert synopsis.with_synopsis(text) == text


# Written by hand from the commands' help: the options in their declared order, a repeated
# one with "...", a required one without brackets, a choice's values, a flag alone.
EXPECTED = {
    "sidebet pair": "strategy-calc sidebet pair [--rules NAME|FILE] [--set FIELD=VALUE ...]"
                    " [--decks N|inf] [--removed CARDS ...] [--format text|json] [--json]",
    "behind": "strategy-calc behind CARDS --vs UP [--rules NAME|FILE] [--set FIELD=VALUE ...]"
              " [--decks N|inf] [--shoe A=N,2=N,...,T=N] [--removed CARDS ...]"
              " [--format text|json] [--json]",
    "baccarat count": "strategy-calc baccarat count [--rules NAME|FILE] [--set FIELD=VALUE"
                      " ...] [--decks N] [--cut-card CARDS_FROM_END] [--shoes N]"
                      " [--bets BET,...] [--sidebets NAME,...] [--sidebet FILE ...]"
                      " [--sidebet-trigger BET:TAGS:AT[:KIND] ...]"
                      " [--seed S] [--yes] [--jobs N] [--scheduler ADDRESS]"
                      " [--format text|json] [--json]",
    "serve": ("strategy-calc serve [--host ADDRESS] [--port PORT] [--open] [--max-seconds S]"
              " [--max-memory MB] [--heavy-jobs N]"),
    "tables": "strategy-calc tables [--out DIR] [--check]",
}


def test_a_line_writes_each_option_as_declared() -> None:
    for path, line in EXPECTED.items():
        assert synopsis.synopsis_lines(path) == [line]


def test_the_drill_has_a_line_per_form() -> None:
    lines = synopsis.synopsis_lines("drill")
    assert [line.split()[2] for line in lines] == ["[play]", "count|true-count", "--stats"]
    assert lines[2] == "strategy-calc drill --stats [--history FILE] [--format text|json] [--json]"
    assert "--against chart|optimal" in lines[0] and "--against" not in lines[1]
    assert "--pace SECONDS" in lines[1] and "--pace" not in lines[0]


def test_every_drill_option_is_in_a_form_and_every_form_names_real_options() -> None:
    from strategy_calc.cli.drill import FORMS

    declared = {p.name for p in click_command("drill").params} - {"help"}
    named = {name for _words, names in FORMS["drill"] for name in names}
    assert named <= declared
    assert declared - named == {"kind", "stats"}  # (the forms' own words)


def test_every_command_and_subcommand_has_a_line() -> None:
    paths = synopsis.paths()
    assert {path.split()[0] for path in paths} == set(COMMANDS)
    assert {"sidebet", "sidebet pair", "sidebet bet", "baccarat", "baccarat count"} <= set(
        paths)


def test_every_command_and_subcommand_has_one_summary_in_the_table() -> None:
    """The summaries (the top-level help's and each command's short help) are one table;
    it names exactly the commands there are."""
    assert set(SUMMARIES) == set(synopsis.paths())
    for path in ("hand", "baccarat count", "sidebet pair"):
        name = path.split()[-1]
        command = click_command(path)
        assert command.name == name and command.short_help == SUMMARIES[path]
