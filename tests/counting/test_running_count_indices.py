"""Indices for unbalanced counts (issue 48, item 6): KO's and Red 7's indices are running
counts from their IRC, at half the shoe dealt (counting.families.RunningCountFamily).
Checked against running counts summed card by card, the pivot relation, hand-derived
insurance indices, and KO's published indices (docs/REFERENCE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from strategy_calc.cards import Shoe
from strategy_calc.cli import app
from strategy_calc.counting.families import RunningCountFamily
from strategy_calc.counting.indices import Decision, count_index, count_indices, linear_index
from strategy_calc.counting.systems import CountSystem, find_system
from strategy_calc.rules import BlackjackRules, blackjack_rules

runner = CliRunner()

KO = find_system("ko")
RED7 = find_system("red7")
# The published tags, A 2 3 4 5 6 7 8 9 T (Red 7's seven: red +1, black 0, so a seven
# whose suit is not known is worth 1/2 on average: two of a deck's four are red).
KO_TAGS = (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1)
RED7_TAGS = (-1, 1, 1, 1, 1, 1, 0.5, 0, 0, -1)
INSURANCE = Decision("insurance", "9,7", "A", ("insurance", "decline"))


def rules(decks: int) -> BlackjackRules:
    return blackjack_rules("deluxe", [f"decks={decks}", "surrender=none"])


@pytest.mark.parametrize(("system", "tags", "irc", "decks"), [
    (KO, KO_TAGS, 4 - 4 * 1, 1), (KO, KO_TAGS, 4 - 4 * 2, 2), (RED7, RED7_TAGS, -2 * 2, 2)])
@pytest.mark.parametrize("step", [-3, 0, 4])
def test_the_running_count_is_the_irc_plus_the_tags_of_the_cards_seen(
        system: CountSystem, tags: tuple[float, ...], irc: int, decks: int, step: int) -> None:
    """The family's running count of a step is the published IRC (KO 4 - 4 x decks, Red 7
    -2 x decks) plus the tags of every card not among its unseen cards, summed here rank
    by rank from the published tags."""
    family = RunningCountFamily(decks, system)
    unseen = family.unseen(step)
    seen = [full - u for full, u in zip(Shoe.full(decks).counts, unseen, strict=True)]
    assert sum(unseen) == 26 * decks and min(unseen) >= 0
    assert family.coordinate(step) == pytest.approx(
        irc + sum(n * t for n, t in zip(seen, tags, strict=True)), abs=1e-12)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_ko_running_count_at_the_pivot_is_a_true_count_of_4_at_every_depth(
        decks: int) -> None:
    """Vancura and Fuchs (docs/REFERENCE.md, KO): with the IRC 4 - 4 x decks, the running
    count +4 is the true count +4 whatever the depth, the true count being the running
    count's excess over its average at that depth (IRC + 4 x decks dealt) per deck
    remaining. Half the shoe dealt: average IRC + 2 decks, so a running count RC is the
    true count (RC - 4 + 2 decks) / (decks / 2); by hand for RC = +4 and RC = 0."""
    family = RunningCountFamily(decks, KO)
    assert family.true_count_of(4) == pytest.approx(4.0, abs=1e-12)
    assert family.true_count_of(0) == pytest.approx((0 - 4 + 2 * decks) / (decks / 2))


def test_red_seven_pivot_0_is_a_true_count_of_2_at_every_depth() -> None:
    """Red 7 (IRC -2 x decks, +2 a deck): at half the shoe dealt the average running count is
    -2 D + 2 (D / 2) = -D, so RC = 0 is an excess of D over D / 2 decks: true count 2 at
    every D."""
    for decks in (1, 2, 6):
        assert RunningCountFamily(decks, RED7).true_count_of(0) == pytest.approx(2.0)


@pytest.mark.parametrize(("system", "decks", "want"), [
    (KO, 1, 4 - 13 / 42), (KO, 2, 4 - 26 / 42), (RED7, 1, 52 / 81), (RED7, 2, 104 / 81)])
def test_insurance_linear_index_is_where_a_third_of_the_unseen_cards_are_tens(
        system: CountSystem, decks: int, want: float) -> None:
    """By hand. On the family's line the unseen tens at an excess e over the average running
    count are u_T = 16 r + e p_T (1 + m) / v (r = D/2 decks unseen, p_T = 4/13, m = a deck's
    tag sum / 52, v = sum_r p_r (t_r - m)^2). KO: m = 1/13, v = 11/13 - 1/169 = 142/169,
    so u_T = 16 r + 28 e / 71; Red 7: m = 1/26, v = 41/52 - 1/676 = 133/169, u_T = 16 r +
    54 e / 133. Insurance's EV, (3 u_T / 52 r - 1) / 2 off the top, is linear in the
    densities, so the linear model is exact: it vanishes at u_T = 52 r / 3, e = 71 r / 21
    (KO) or 266 r / 81 (Red 7). The running count there is IRC + s (D - r) + e: KO 4 - 4D
    + 2D + 71 D / 42 = 4 - 13 D / 42; Red 7 -2 D + D + 133 D / 81 = 52 D / 81."""
    family = RunningCountFamily(decks, system)
    got = linear_index(rules(decks), INSURANCE, family)
    assert got == pytest.approx(want, abs=1e-9)


def test_ko_one_deck_insurance_index_interpolates_between_8_and_13_unseen_tens() -> None:
    """By hand, KO at one deck: the neutral half deck (2 of each rank, 8 tens) has running
    count 0 + the tags of the other half, -2 + 12 - 8 = +2. The next composition up the
    line (excess e = 6: aces 2 + 14e/142 -> 3, each of 2-7 2 - 12e/142 -> 1, 8s and 9s
    2 + e/142 -> 2, tens the rest, 13) has running count 4 - (-3 + 6 - 13) = +14.
    Insurance's EV (3 tens / 26 - 1) / 2 is linear in the tens, which rise linearly
    from 8 to 13 between them, so its root is where tens = 26 / 3: RC = 2 + 12 (26/3 - 8)
    / 5 = 3.6."""
    row = count_index(rules(1), INSURANCE, KO)
    assert row.index == pytest.approx(3.6, abs=1e-9) and row.above == "insurance"


def test_red_seven_one_deck_insurance_index_interpolates_between_8_and_12_unseen_tens(
        ) -> None:
    """By hand, Red 7 at one deck (a seven of unknown suit worth 1/2): the neutral half
    deck has running count -2 + (-2 + 10 + 1 - 8) = -1. Up the line (excess e) the sevens
    are 2 - 6e/133, still 2 for e <= 10; at e = 6 the aces (2 + 27e/266) reach 3, each of
    2-6 (2 - 25e/266) falls to 1, 8s and 9s stay 2 and the tens are the rest, 12: running
    count -2 + (-1 + 15 + 1 - 4) = +9. Insurance's EV is linear in the tens, 8 to 12
    between them: its root, tens = 26 / 3, is at RC = -1 + 10 (26/3 - 8) / 4 = 2/3."""
    row = count_index(rules(1), INSURANCE, RED7)
    assert row.index == pytest.approx(2 / 3, abs=1e-9) and row.above == "insurance"


# KO's published indices (Vancura and Fuchs, Knock-Out Blackjack, the Preferred strategy;
# docs/REFERENCE.md): running counts, standard IRC. One deck: A = +4 (pivot), B = +2 (key
# count); insurance at +3 whatever the decks.
KO_PUBLISHED = [
    (1, Decision("insurance", "9,7", "A", ("insurance", "decline")), 3),
    (1, Decision("16 vs T", "T,6", "T", ("stand", "hit")), 2),
    (1, Decision("10 vs A", "7,3", "A", ("double", "hit")), 4),
    (2, Decision("insurance", "9,7", "A", ("insurance", "decline")), 3),
]


@pytest.mark.parametrize(("decks", "decision", "published"), KO_PUBLISHED,
                         ids=[f"{d}D {x.name}" for d, x, _ in KO_PUBLISHED])
def test_ko_indices_are_within_one_running_count_of_the_published_ones(
        decks: int, decision: Decision, published: int) -> None:
    """Tolerance 1 running-count point: the published entries are rounded to one of three
    values two points apart (IRC 0, key count +2, pivot +4 at one deck), and come from
    simulations averaged over every depth of the authors' game, ours are exact at half
    the shoe dealt under Deluxe's rules (S17, DAS, peek)."""
    row = count_index(rules(decks), decision, KO)
    assert row.index is not None and row.above == decision.actions[0]
    assert abs(row.index - published) <= 1.0


def test_an_unbalanced_system_without_an_irc_has_no_indices(tmp_path: Path) -> None:
    """A TOML count file cannot state an IRC: its unbalanced system's running count has no
    starting point, so indices refuses it in one line."""
    path = tmp_path / "seven-up.toml"
    path.write_text('tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 1, 8 = 0,'
                    ' 9 = 0, T = -1 }\n', encoding="utf-8")
    with pytest.raises(ValueError, match="'seven-up' states no IRC"):
        count_indices(rules(1), str(path))
    result = runner.invoke(app, ["indices", "--decks", "1", "--count", str(path),
                                 "--hand", "T,6", "--vs", "T"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


def test_indices_json_says_a_running_count_with_its_irc_and_pivot() -> None:
    """Red 7 at two decks: IRC -4, pivot 0, one deck unseen; the equivalent true count of a
    running count RC is (RC + 4 - 4) / 1 + 2 = RC + 2. The existing keys stay."""
    result = runner.invoke(app, ["indices", "--rules", "deluxe", "--decks", "2", "--count",
                                 "red7", "--hand", "9,7", "--vs", "A", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["index_kind"], data["irc"], data["pivot"], data["decks_remaining"]) == (
        "running", -4, 0, 1)
    assert {"rules", "decks", "ruleset", "count", "family", "published_for", "definition",
            "risk_averse", "indices"} <= set(data)
    rows = [r for r in data["indices"] if r["index"] is not None]
    assert rows and all(r["true_count_equivalent"] == pytest.approx(r["index"] + 2)
                        and r["published"] is None for r in rows)
    text = runner.invoke(app, ["indices", "--rules", "deluxe", "--decks", "2", "--count",
                               "red7", "--hand", "9,7", "--vs", "A"]).stdout
    assert "red7 count indices (running count from the IRC -4, pivot +0, at 1 decks" in text


def test_a_balanced_count_index_stays_a_true_count() -> None:
    result = runner.invoke(app, ["indices", "--rules", "deluxe", "--decks", "1", "--hand",
                                 "T,6", "--vs", "T", "--json"])
    data = json.loads(result.stdout)
    assert (data["index_kind"], data["irc"], data["pivot"]) == ("true", None, None)
    row = data["indices"][0]
    assert row["true_count_equivalent"] == row["index"]
