"""Long analyses at many decks are estimated before they start (docs/PERFORMANCE.md, "Many
decks"): a count deals whole shoes, so its rounds grow with the decks whatever --rounds
says; an index family has about ``2 * decks + 1`` steps. Off a terminal a run estimated
over ten minutes is one ``error:`` line and exit 2 until ``--yes``, before any work."""

from __future__ import annotations

import itertools

from typer.testing import CliRunner

from strategy_calc.cli import app
from strategy_calc.counting.runs import rounds_per_shoe, shoes_to_deal

runner = CliRunner()


def test_a_count_of_200_rounds_at_1000_decks_deals_a_whole_shoe_and_asks_for_yes() -> None:
    """macau-1983's cut card is 20 to 30 cards from the end, so a 1,000-deck shoe deals
    52,000 - 25 = 51,975 cards before it, about 51,975 / 5.5 = 9,450 rounds; a run keeps
    whole shoes, so 200 rounds deal one whole shoe. At 0.025 CPU-s a round plus a 1-s
    second moment on one round in 25 (the existing per-round estimate), on one core:
    9,450 x 0.065 = 614 s, over ten minutes (600 s): refused before any shoe is dealt."""
    result = runner.invoke(app, ["count", "--decks", "1000", "--rounds", "200", "--jobs", "1"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("error: 200 rounds (whole shoes: about 9,450 rounds dealt) would"
                             " take about 10 minutes here: pass --yes to run it\n")


def test_one_spare_shoe_only_where_it_adds_at_most_a_quarter() -> None:
    """A pass deals the shoes the guess needs and one spare from four shoes on (a fifth
    more at most); a shoe that holds every round wanted is dealt alone, not twice."""
    assert shoes_to_deal(200, 9450.0) == 1  # 200 / 9,450 -> 1, no spare
    assert shoes_to_deal(200, 100.0) == 2  # 2 shoes, no spare
    assert shoes_to_deal(400, 100.0) == 5  # 4 shoes + 1 spare
    assert shoes_to_deal(1000, 100.0) == 11  # 10 + 1


def test_rounds_per_shoe_is_the_cards_before_the_cut_card_at_5_5_a_round() -> None:
    """deluxe cuts at 75%: 8 decks, 416 x 0.75 = 312 cards, 312 / 5.5 = 56.7 rounds."""
    from strategy_calc.counting.counter import blackjack_counter
    from strategy_calc.rules import blackjack_rules

    counter = blackjack_counter(blackjack_rules("deluxe", [], 8))
    assert abs(rounds_per_shoe(counter) - 312 / 5.5) < 1e-9


def test_the_indices_at_1000_decks_ask_for_yes() -> None:
    """Hi-Lo's family at 1,000 decks steps 20 / 1,000 true counts: 2 x 1,000 + 1 = 2,001
    steps from -20 to +20, each a hand analysis of every published decision and of the 330
    cells of the matrix. At the measured 0.0107 + 0.449 CPU-s a step (8, 50, 200 and 1,000
    decks) that is 0.41 + 4.15 + 2,001 x 0.4597 = 924 s, 15 minutes: refused before any
    analysis. KO's family has 21 steps at any decks: not asked."""
    result = runner.invoke(app, ["indices", "--decks", "1000", "--json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("error: the indices at 1,000 decks would take about 15 minutes"
                             " here: pass --yes to run it\n")
    from strategy_calc.counting.indices import estimated_seconds
    from strategy_calc.rules import blackjack_rules

    assert estimated_seconds(blackjack_rules("macau-1983", [], 1000), "ko") < 600


def test_a_shoe_of_many_rounds_reports_its_rounds_as_they_are_valued(monkeypatch) -> None:
    """Progress within a shoe (a 1,000-deck shoe is minutes of work): with the threshold
    lowered to a 1-deck shoe and a report every round, the progress counts the rounds
    valued (in this thread each round; on a pool as the run polls its queue, twice a
    second), rises to the rounds asked, and the figures are those of a run without it."""
    from concurrent.futures import ThreadPoolExecutor

    from strategy_calc.counting import counter as counting
    from strategy_calc.counting import runs
    from strategy_calc.rules import blackjack_rules

    job = counting.blackjack_counter(blackjack_rules("deluxe", ["max_split_hands=1"], 1),
                                     moment_every=1000)
    plain = runs.blackjack_count(job, 6)
    monkeypatch.setattr(runs, "PROGRESS_IN_SHOE_FROM", 1.0)
    monkeypatch.setattr(counting, "REPORT_EVERY", 1)
    for pool in (None, ThreadPoolExecutor(1)):
        ticks: list[tuple[int, int]] = []
        got = runs.blackjack_count(job, 6, pool=pool, progress=lambda d, t, ticks=ticks:
                                   ticks.append((d, t)))
        assert got == plain
        assert ticks[-1] == (6, 6) and len(ticks) > (3 if pool is None else 1)
        assert all(a[0] <= b[0] for a, b in itertools.pairwise(ticks))
