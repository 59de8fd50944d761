"""Count systems as data (issue 30, item 1): the built-in tags as published, balance, the
true count's divisor and rounding, user systems from TOML files, and the systems in use by
``count`` and ``indices``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from strategy_calc.cards import SUITS, Card, Rank
from strategy_calc.cli import app
from strategy_calc.counting import counter as count
from strategy_calc.counting.sampling import shoe_rng
from strategy_calc.counting.systems import CountSystem, find_system
from strategy_calc.rules import blackjack_rules

runner = CliRunner()

# The published tags, A 2 3 4 5 6 7 8 9 T (Blackjack Review Network's encyclopedia as
# tabulated by lifesagambol.com, cross-checked against Richard Reid's "System Tag Values
# and Ratings"; Red 7's seven: red +1, black 0).
PUBLISHED = {
    "hilo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "ko": (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    "hiopt1": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "hiopt2": (0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    "omega2": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
    "halves": (-1, 0.5, 1, 1, 1.5, 1, 0.5, 0, -0.5, -1),
    "red7": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "uston-apc": (0, 1, 2, 2, 3, 2, 2, 1, -1, -3),
}
KEYS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")


def run_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_counts_lists_every_published_system_with_its_tags() -> None:
    systems = run_json("counts")["systems"]
    assert set(systems) == set(PUBLISHED)
    for name, tags in PUBLISHED.items():
        entry = systems[name]
        assert tuple(entry["tags"][k] for k in KEYS) == tags, name
        assert set(entry) >= {"tags", "balanced", "side_counts", "divisor", "source"}
        assert entry["divisor"] in ("deck", "half-deck") and entry["source"]
    assert systems["red7"]["red_seven"] == 1
    assert systems["hiopt2"]["side_counts"] == {"aces": ["A"]}


def test_balanced_means_a_deck_sums_to_zero() -> None:
    """By hand: Hi-Lo's five +1s (2-6) and five -1s (A and the four ten-valued ranks, 16
    cards with the ace's 4: -20 + 20 = 0); KO adds the four sevens (+4); Red 7 the two red
    sevens (+2); Halves 4 x (-1 + .5 + 1 + 1 + 1.5 + 1 + .5 - .5) - 16 = 0."""
    systems = run_json("counts")["systems"]
    assert [systems[n]["balanced"] for n in ("hilo", "ko", "red7", "halves")] == [
        True, False, False, True]
    assert systems["ko"]["deck_sum"] == 4 and systems["red7"]["deck_sum"] == 2
    assert systems["ko"]["irc"] == {"per_deck": -4, "constant": 4}  # 4 - 4 x decks


def test_red_seven_reads_the_suit_of_a_seven() -> None:
    red7 = find_system("red7")
    assert red7.tag_card(Card(Rank.SEVEN, "h")) == 1 and red7.tag_card(Card(Rank.SEVEN, "d")) == 1
    assert red7.tag_card(Card(Rank.SEVEN, "s")) == 0 and red7.tag(Rank.SEVEN) == 0.5


@pytest.mark.parametrize(("rounding", "divisor", "want"), [
    ("exact", "deck", -7 * 52 / 78), ("floor", "deck", -5), ("truncate", "deck", -4),
    ("round", "deck", -5), ("exact", "half-deck", -7 * 26 / 78), ("floor", "half-deck", -3)])
def test_true_count_divides_by_decks_or_half_decks_left_and_rounds_as_told(
        rounding: str, divisor: str, want: float) -> None:
    """Running count -7 with 78 cards (1.5 decks, 3 half decks) unseen: -4.67 a deck
    (floor -5, towards zero -4, nearest -5), -2.33 a half deck (floor -3)."""
    system = CountSystem("x", PUBLISHED["hilo"], divisor=divisor, rounding=rounding)
    assert system.true_count(-7, 78) == want


def test_a_toml_count_file_is_a_system_like_the_built_in_one(tmp_path: Path) -> None:
    """Zen's tags written in a file give Zen's indices; the file's name and source show."""
    path = tmp_path / "my-zen.toml"
    path.write_text('tags = { A = -1, 2 = 1, 3 = 1, 4 = 2, 5 = 2, 6 = 2, 7 = 1, 8 = 0, 9 = 0,'
                    ' T = -2 }\nsource = "typed from Blackbelt in Blackjack"\n'
                    '[side_counts]\naces = ["A"]\n', encoding="utf-8")
    entry = run_json("counts", "--system", str(path))["systems"]["my-zen"]
    assert entry["balanced"] and entry["side_counts"] == {"aces": ["A"]}
    args = ["indices", "--rules", "deluxe", "--decks", "6", "--set", "surrender=none",
            "--published"]
    mine = run_json(*args, "--count", str(path))["indices"]
    zen = run_json(*args, "--count", "zen")["indices"]
    assert [r["index"] for r in mine] == [r["index"] for r in zen]


def test_zen_insurance_index_is_where_a_third_of_the_unseen_cards_are_tens() -> None:
    """By hand, from the count family (counting.CountFamily): at D = 6 decks half the shoe
    (26 D cards) is unseen, 8 D of them tens; Zen's step adds 8 tens (and one ace, two
    fewer 4s, 5s, 6s, one fewer 2, 3, 7), so tens are a third at step j = (26D/3 - 8D)/8 =
    D/12 = 0.5. The running count there is -j x sum(tag x step) = 32 j = 16, over 3 decks
    unseen: true count 16/3 = 5.333. Insurance's EV is linear along the family, so the
    interpolated index is exact; it is linear in the unseen cards' densities too, so the
    removal-based linear estimate is exact as well."""
    rows = run_json("indices", "--rules", "deluxe", "--decks", "6", "--set", "surrender=none",
                    "--count", "zen", "--published")["indices"]
    insurance = next(r for r in rows if r["decision"] == "insurance")
    assert insurance["index"] == pytest.approx(16 / 3, abs=1e-9)
    assert insurance["linear_index"] == pytest.approx(16 / 3, abs=1e-9)


@pytest.mark.slow
def test_count_keeps_the_running_count_of_the_system_it_is_given() -> None:
    """A Zen counter's true count before each round is the Zen tags of the cards dealt so
    far over the decks unseen (the tags summed here from the published table)."""
    # (no shown card: the replay below deals from the top of the shuffled shoe)
    rules = blackjack_rules("deluxe", ["decks=1", "burn_shown_card=false"])
    counter = count.blackjack_counter(rules, system="zen", moment_every=10**9)
    records = counter.play_one(0)
    cards = [Card(rank, SUITS[k % 4]) for rank in Rank
             for k in range(counter.start().counts[rank - 1])]
    shoe_rng(counter.seed, 0).shuffle(cards)
    pos, running = 0, 0.0
    for record in records:
        assert record.tc == pytest.approx(running * 52 / (len(cards) - pos), abs=1e-12)
        plan = counter.plan(counter.start().remove(cards[:pos]), record.tc, False)
        end = counter.deal_round(cards, pos, plan)
        running += sum(PUBLISHED["zen"][c.rank - 1] for c in cards[pos:end])
        pos = end
    assert len(records) >= 2


@pytest.mark.statistical
def test_an_ace_side_count_moves_the_bet_by_its_weight_per_ace_beyond_the_share() -> None:
    """Hi-Opt II with its ace side count: before each round the bet's key is the running
    count plus ``weight * (aces dealt - cards dealt / 13)``, per deck unseen (the tags
    summed here from the published table, the aces counted by hand); the index plays
    and the table of plays read the main count. The weight is the ace's ideal tag in the
    game's effects of removal (about -2 for Hi-Opt II at one deck: its tens' -2)."""
    # (no shown card: the replay below deals from the top of the shuffled shoe)
    rules = blackjack_rules("deluxe", ["decks=1", "burn_shown_card=false"])
    counter = count.blackjack_counter(rules, system="hiopt2", moment_every=10**9)
    (side,) = counter.side
    assert side.ranks == frozenset({1}) and side.share == 1 / 13
    assert -2.5 < side.weight < -1.5
    records = counter.play_one(0)
    cards = [Card(rank, SUITS[k % 4]) for rank in Rank
             for k in range(counter.start().counts[rank - 1])]
    shoe_rng(counter.seed, 0).shuffle(cards)
    pos, running, aces = 0, 0.0, 0
    for record in records:
        adjusted = running + side.weight * (aces - pos / 13)
        assert record.tc == pytest.approx(adjusted * 52 / (len(cards) - pos), abs=1e-12)
        main = running * 52 / (len(cards) - pos)
        plan = counter.plan(counter.start().remove(cards[:pos]), main, False)
        end = counter.deal_round(cards, pos, plan)
        running += sum(PUBLISHED["hiopt2"][c.rank - 1] for c in cards[pos:end])
        aces += sum(c.rank is Rank.ACE for c in cards[pos:end])
        pos = end
    assert len(records) >= 2 and aces > 0
    plain = count.blackjack_counter(rules, system="hiopt2", moment_every=10**9,
                                    side_counts=False)
    assert plain.side == ()
    out = runner.invoke(app, ["count", "--rules", "deluxe", "--decks", "1", "--system",
                              "hiopt2", "--rounds", "5", "--no-side-counts", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)["side_counts"] is None


@pytest.mark.parametrize(("text", "message"), [
    ('tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0 }', "missing T"),
    ('tags = { A = -1, 2 = "x", 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }',
     "the tag of 2 is a number"),
    ('tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n'
     'divisor = "shoe"', "divisor is one of deck, half-deck"),
    ('tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0, 8 = 0, 9 = 0, T = -1 }\n'
     'colour = "red"', "unknown key 'colour'"),
    ('tags = { A = -1, 2 = 1, 3 = 1, 4 = 1, 5 = 1, 6 = 1, 7 = 0.3, 8 = 0, 9 = 0, T = -1 }',
     "a whole or half number"),
    ("tags = [1, 2]", "needs a tags table"),
    ("tags = {", "count system file"),
])
def test_a_bad_count_file_is_one_error_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n", encoding="utf-8")
    result = runner.invoke(app, ["counts", "--system", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_an_unbalanced_system_cannot_drive_true_count_index_plays() -> None:
    """KO has no true count, so basic+indices (whose index plays read one) refuses it in
    one line; basic play bets it by its running count."""
    result = runner.invoke(app, ["count", "--rules", "deluxe", "--system", "ko",
                                 "--rounds", "5", "--strategy", "basic+indices"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "'ko' is unbalanced (a deck sums to +4)" in result.stderr


@pytest.mark.statistical
@pytest.mark.parametrize(("system", "irc"), [("ko", 4 - 4 * 2), ("red7", -2 * 2)])
def test_an_unbalanced_count_is_keyed_by_its_running_count_from_the_irc(
    system: str, irc: int
) -> None:
    """KO (Vancura and Fuchs) starts at 4 - 4 x decks, Red 7 (Snyder) at -2 x decks: at
    two decks -4 and -4. Before each round the key is that IRC plus the published tags of
    the cards dealt (Red 7's seven by its suit: red +1, black 0), not divided by the decks
    left; the JSON says which count it is."""
    # (no shown card: the replay below deals from the top of the shuffled shoe)
    rules = blackjack_rules("deluxe", ["decks=2", "burn_shown_card=false"])
    counter = count.blackjack_counter(rules, system=system, moment_every=10**9)
    assert counter.count_kind == "running count"
    records = counter.play_one(0)
    cards = [Card(rank, SUITS[k % 4]) for rank in Rank
             for k in range(counter.start().counts[rank - 1])]
    shoe_rng(counter.seed, 0).shuffle(cards)
    pos, running = 0, float(irc)
    for record in records:
        assert record.tc == running
        plan = counter.plan(counter.start().remove(cards[:pos]), record.tc, False)
        end = counter.deal_round(cards, pos, plan)
        for c in cards[pos:end]:
            red = c.rank is Rank.SEVEN and c.suit in ("h", "d")
            running += 1 if (system == "red7" and red) else PUBLISHED[system][c.rank - 1]
        pos = end
    assert len(records) >= 5
    got = json.loads(runner.invoke(app, ["count", "--rules", "deluxe", "--decks", "1",
                                         "--system", system, "--rounds", "5", "--jobs", "1",
                                         "--json"]).stdout)
    assert got["count_kind"] == "running count" and got["system"] == system
