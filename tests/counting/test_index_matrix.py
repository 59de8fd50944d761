"""Count indices for every decision: the Fab 4, the matrix of every play of every start,
one cell, the removal-based linear estimate beside the exact index, and the CLI's formats.

Independent references: the published Hi-Lo Illustrious 18 and Fab 4 (Schlesinger,
*Blackjack Attack*, docs/REFERENCE.md) and hand calculations written out below.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cli import app
from strategy_calc.counting.indices import (
    FAB_4,
    FAB_4_RULES,
    ILLUSTRIOUS_18,
    PUBLISHED,
    PUBLISHED_RULES,
    CountFamily,
    cell_plays,
    count_indices,
    index_matrix,
    linear_index,
    risk_averse_index,
)
from strategy_calc.rules import blackjack_rules

runner = CliRunner()

LATE_SURRENDER = blackjack_rules(*FAB_4_RULES)
"""The Fab 4's game: 6 decks, peek, S17, DAS, late surrender against every up card."""


def run_json(*args: str) -> dict:  # type: ignore[type-arg]
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_fab_4_surrender_indices_within_one_true_count_of_the_published() -> None:
    """Fab 4 (docs/REFERENCE.md): surrender 14 vs T at +3, 15 vs T at 0, 15 vs 9 at +2,
    15 vs A at +1 (Hi-Lo, 6 decks S17, late surrender); surrender is the play above."""
    table = count_indices(LATE_SURRENDER, decisions=FAB_4)
    assert [row.decision.published for row in table.rows] == [3, 0, 2, 1]
    for row in table.rows:
        assert row.index is not None and row.difference is not None, row.decision.name
        assert abs(row.difference) <= 1, (row.decision.name, row.index)
        assert row.above == "surrender"


def test_fab_4_has_no_index_where_the_rules_forbid_surrender() -> None:
    """Deluxe surrenders against 2-9 only: 14 vs T, 15 vs T and 15 vs A are refused."""
    rules = blackjack_rules("deluxe", ["decks=6"])
    rows = {row.decision.up: row for row in count_indices(rules, decisions=FAB_4).rows}
    assert rows["9"].index is not None
    for up in ("T", "A"):
        assert rows[up].index is None and "not allowed" in rows[up].note


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_the_linear_estimate_of_insurance_is_exact(decks: int) -> None:
    """By hand: insurance's EV is (3 p - 1) / 2 with p = u_T / n, linear in the unseen
    cards' densities, which the linear model reproduces exactly (``linear_index``'s
    docstring). Along the Hi-Lo family p = (8 D + 4 j) / (26 D) = 1/3 at j = D / 6, true
    count 20 j / D = 10/3 for every D."""
    estimate = linear_index(blackjack_rules("deluxe", [f"decks={decks}"]), ILLUSTRIOUS_18[0],
                            CountFamily(decks))
    assert estimate == pytest.approx(10 / 3, abs=1e-9)


def test_the_linear_estimate_stays_near_the_exact_index_on_the_illustrious_18() -> None:
    """A sanity bound, not a reference: where the EV difference is nearly linear along the
    family the two definitions agree to a fraction of a true count (at most 0.41 here,
    10 vs T), and both are within one true count of the published index."""
    table = count_indices(blackjack_rules(*PUBLISHED_RULES), linear=True)
    for row in table.rows:
        assert row.index is not None and row.linear_index is not None, row.decision.name
        assert abs(row.linear_index - row.index) < 0.5, row.decision.name
        assert row.decision.published is not None
        assert abs(row.linear_index - row.decision.published) <= 1, row.decision.name


def test_the_matrix_indexes_the_plays_a_counter_prints() -> None:
    """Stand on hard 12+ and soft 17+, double hard 5-11 and soft 13-20, split pairs,
    surrender hard 13-17; insurance once."""
    assert cell_plays("hard", 11, "6") == ("double",)
    assert cell_plays("hard", 15, "T") == ("stand", "surrender")
    assert cell_plays("soft", 18, "9") == ("stand", "double")
    assert cell_plays("soft", 14, "5") == ("double",)
    assert cell_plays("pair", 0, "A") == ("split",)


@pytest.mark.slow
def test_a_one_deck_matrix_has_every_cell_and_only_the_allowed_plays() -> None:
    """Macau 1983 doubles on 11 only and surrenders against anything but an ace (early):
    no double but on hard 11 and no surrender against an ace; 15 hard + 8 soft + 10
    pairs rows by 10 up cards, and the insurance cell."""
    matrix = index_matrix(blackjack_rules("macau-1983", ["decks=1"]))
    assert len(matrix.cells) == (15 + 8 + 10) * 10 + 1
    doubles = {(c.label, c.up) for c in matrix.cells for r in c.rows
               if r.decision.actions[0] == "double"}
    assert {label for label, _ in doubles} == {"11"}
    surrenders = {c.up for c in matrix.cells for r in c.rows
                  if r.decision.actions[0] == "surrender"}
    assert "A" not in surrenders and "T" in surrenders
    insurance = [c for c in matrix.cells if c.kind == "insurance"]
    assert len(insurance) == 1 and insurance[0].up == "A"


@pytest.mark.fullsize
def test_the_matrix_reproduces_the_illustrious_18_and_fab_4_within_one_true_count() -> None:
    """The full Hi-Lo matrix at 6 decks S17 DAS late surrender: each published decision's
    cell (the matrix weighs a double against the best of hit and stand, a split against
    the best other play: the published plays' alternatives there) within one true count
    of docs/REFERENCE.md, with the published sense (the play at or above the index)."""
    got = run_json("indices", "--rules", "deluxe", "--decks", "6", "--set", "surrender=late",
                   "--format", "json")
    cells = {(c["hand"], c["up"]): c for c in got["matrix"]}
    hard = {5: "3,2", 6: "4,2", 7: "5,2", 8: "6,2", 9: "7,2", 10: "7,3", 11: "8,3"}
    checked = 0
    for decision in (*ILLUSTRIOUS_18, *FAB_4):
        play = decision.actions[0]
        ranks = decision.hand.split(",")
        if play == "insurance":
            key = ("9,7", "A")
        elif ranks[0] == ranks[1]:
            key = (decision.hand, decision.up)
        else:
            total = sum(10 if r == "T" else int(r) for r in ranks)
            key = (hard.get(total, f"T,{total - 10}"), decision.up)
        row = next(p for p in cells[key]["plays"] if p["play"] == play)
        assert row["above"] == play, decision.name
        assert abs(row["index"] - decision.published) <= 1, (decision.name, row["index"])
        checked += 1
    assert checked == 22


@pytest.mark.slow
def test_zen_indices_json_gives_every_decision_an_index_or_a_reason() -> None:
    """Issue 30's contract: `indices --count zen --format json` gives every decision's
    index: each play of each cell has a number, or null with the reason in its note."""
    got = run_json("indices", "--count", "zen", "--rules", "deluxe", "--decks", "6",
                   "--format", "json")
    assert got["count"] == "zen" and len(got["matrix"]) == 331
    plays = [p for c in got["matrix"] for p in c["plays"]]
    # by hand: double hard 5-11 (70), stand hard 12-19 (80), surrender hard 13-17 against
    # 2-9 (Deluxe: 40), double soft 13-20 (80), stand soft 17-20 (40), split 10 pairs
    # (100), insurance (1)
    assert len(plays) == 70 + 80 + 40 + 80 + 40 + 100 + 1
    for p in plays:
        assert (p["index"] is None) == bool(p["note"]), p
    insurance = next(c for c in got["matrix"] if c["kind"] == "insurance")["plays"][0]
    assert insurance["index"] == pytest.approx(16 / 3, abs=1e-9)  # test_count_systems


def test_one_cell_gives_every_play_the_rules_allow() -> None:
    """8,8 vs 9 in Deluxe (surrender against 2-9): stand, double, split and surrender; no
    insurance but against an ace."""
    got = run_json("indices", "--rules", "deluxe", "--decks", "2", "--hand", "8,8", "--vs",
                   "9", "--json")
    assert "matrix" not in got
    assert [r["actions"][0] for r in got["indices"]] == ["stand", "double", "split",
                                                          "surrender"]
    against_ace = run_json("indices", "--rules", "deluxe", "--decks", "2", "--hand", "T,6",
                           "--vs", "A", "--json")
    assert [r["actions"][0] for r in against_ace["indices"]] == ["stand", "double",
                                                                  "insurance"]


@pytest.mark.slow
def test_indices_csv_has_one_line_per_play() -> None:
    """The CSV holds the published rows, then one line per play of the matrix; numbers
    read back as floats."""
    result = runner.invoke(app, ["indices", "--rules", "macau-1983", "--decks", "1",
                                 "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert {r["kind"] for r in rows} == {"Illustrious 18", "Fab 4", "hard", "soft", "pair",
                                         "insurance"}
    for r in rows:
        if r["index"]:
            float(r["index"])
    published = [r for r in rows if r["published"]]
    assert len(published) == 22


@pytest.mark.parametrize(("args", "message"), [
    (["--hand", "T,6"], "error: --hand and --vs go together"),
    (["--vs", "T"], "error: --hand and --vs go together"),
    (["--hand", "T,6", "--vs", "T", "--published"], "error: --published and --hand"),
    (["--hand", "Z,6", "--vs", "T"], "error: "),
    (["--hand", "T,6", "--vs", "T", "--format", "xml"], "error: Invalid value for '--format'"),
    (["--risk-averse"], "error: --risk-averse weighs variance at a bet"),
    (["--spread", "1:1"], "error: --spread and --bankroll go with --risk-averse"),
    (["--risk-averse", "--spread", "1:1", "--bankroll", "-3"], "error: --bankroll must be"),
    (["--risk-averse", "--spread", "1:0", "--bankroll", "100"], "error: --spread: 1:0"),
])
def test_bad_index_requests_are_one_error_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from strategy_calc.cli import run

    assert run(["indices", "--decks", "1", *args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(message) and err.count("\n") == 1, err


# ---------------------------------------------------------------- risk-averse indices


@pytest.mark.parametrize("rules", ["deluxe", "macau-1983"])
def test_second_moments_of_a_hand_follow_from_its_outcomes(rules: str) -> None:
    """By hand: standing or hitting once more on T,6 ends at +1, 0 or -1, so E[X^2] is
    P(win) + P(lose); a double ends at +2, 0 or -2: 4 (P(win) + P(lose)); a surrender is
    -1/2 whatever the dealer holds (Macau: early, not against an ace) or, late in a peek
    game given no dealer blackjack, -1/2 as well: 1/4."""
    hand = analyse_hand("T,6", "9", blackjack_rules(rules, ["decks=2"]), outcomes=True)
    moments, outcomes = hand.second_moments, hand.outcomes
    assert moments is not None and outcomes is not None
    for action in ("stand", "hit"):
        chances = outcomes[action]
        assert chances is not None
        assert moments[action] == pytest.approx(chances["win"] + chances["lose"], abs=1e-12)
    if hand.ev["double"] is not None:
        chances = outcomes["double"]
        assert chances is not None
        assert moments["double"] == pytest.approx(4 * (chances["win"] + chances["lose"]),
                                                  abs=1e-12)
    assert moments["surrender"] == 0.25


def test_a_natural_without_a_hole_card_has_the_second_moment_of_its_payout() -> None:
    """Macau (no hole card): A,T against a ten pays 3/2 unless the dealer has blackjack
    (a push): E[X^2] = (9/4) P(no dealer blackjack)."""
    hand = analyse_hand("A,T", "T", blackjack_rules("macau-1983", ["decks=1"]), outcomes=True)
    assert hand.second_moments is not None
    assert hand.second_moments["stand"] == pytest.approx(
        2.25 * (1 - hand.dealer_blackjack), abs=1e-12)
    # by hand: one deck less A, T and the ten up: 49 cards, 3 aces: P(blackjack) = 3/49
    assert hand.dealer_blackjack == pytest.approx(3 / 49, abs=1e-15)


def test_with_no_bet_the_risk_averse_index_is_the_index() -> None:
    """f = 0 leaves only the EV difference: the same root as the index."""
    rules = blackjack_rules(*PUBLISHED_RULES)
    table = count_indices(rules, decisions=PUBLISHED[:8], risk_averse=(lambda tc: 0.0, 100.0))
    for row in table.rows:
        assert row.index is not None and row.risk_averse_index is not None
        assert row.risk_averse_index == pytest.approx(row.index, abs=1e-9), row.decision.name


def test_risk_weighs_against_doubling_and_for_surrendering() -> None:
    """A double risks twice the bet (larger E[X^2]), so a risk-averse player doubles
    later; a surrender caps the loss at half the bet (smaller E[X^2]), so he surrenders
    sooner: with a bet of 1% of the bankroll, 10 vs T doubles at a higher true count and
    15 vs 9 surrenders at a lower one than the EV-maximising indices say."""
    family = CountFamily(6)

    def bet(tc: float) -> float:
        return 10.0

    ten = blackjack_rules(*PUBLISHED_RULES)
    double = count_indices(ten, decisions=[ILLUSTRIOUS_18[5]]).rows[0]
    ra_double, _ = risk_averse_index(ten, ILLUSTRIOUS_18[5], family, bet, 1000.0)
    assert double.index is not None and ra_double is not None
    assert ra_double > double.index + 0.2
    surrender = count_indices(LATE_SURRENDER, decisions=[FAB_4[2]]).rows[0]
    ra_surrender, _ = risk_averse_index(LATE_SURRENDER, FAB_4[2], family, bet, 1000.0)
    assert surrender.index is not None and ra_surrender is not None
    assert ra_surrender < surrender.index - 0.05


def test_indices_risk_averse_json_and_text() -> None:
    got = run_json("indices", "--rules", "deluxe", "--decks", "2", "--hand", "T,T", "--vs",
                   "6", "--risk-averse", "--spread", "0:1,2:4,4:8", "--bankroll", "500",
                   "--json")
    assert got["risk_averse"] == "--spread 0:1,2:4,4:8 --bankroll 500"
    split = next(r for r in got["indices"] if r["actions"][0] == "split")
    assert split["risk_averse_index"] is not None
    assert split["risk_averse_index"] > split["index"]  # a split doubles what is at risk


@pytest.mark.render
def test_the_index_chart_prints_on_one_page_with_its_indices(tmp_path: Path) -> None:
    """`indices --format pdf`: weasyprint lays the grids and the published decisions on
    one A4 page; the text read back holds the grids' titles and the insurance row with
    its index, 10/3 (the hand calculation above), printed to one decimal: +3.3."""
    import pypdf

    path = tmp_path / "indices.pdf"
    done = runner.invoke(app, ["indices", "--rules", "deluxe", "--decks", "1", "--format",
                               "pdf", "--out", str(path)])
    assert done.exit_code == 0, done.output
    pdf = pypdf.PdfReader(path)
    assert len(pdf.pages) == 1
    text = pdf.pages[0].extract_text()
    for title in ("hard totals: stand", "hard totals: double", "soft totals: double",
                  "pairs: split", "Published decisions"):
        assert title in text
    assert "insurance insurance +3.3 +3.3 +3" in text
