"""Deck estimation (``count --deck-estimation``, issue 48 item 5): the true count divides
by the decks unseen as a player judges them from the discard tray, to the nearest half
deck or deck; the decisions read it, the EVs stay exact, and the ramp's SCORE with the
decks known exactly is reported on the same shoes. Each test is named after the rule it
checks; the estimates and counts are worked out here by hand from the rules' text."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from strategy_calc.cards import Card
from strategy_calc.cli.root import run
from strategy_calc.counting import counter as count
from strategy_calc.counting import runs
from strategy_calc.counting.counter import Spread
from strategy_calc.counting.systems import HILO, estimated_decks
from strategy_calc.rules import blackjack_rules

HILO_TAGS = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)  # A, 2 .. 9, T (Hi-Lo's published tags)
RAMP = ((1, 2.0), (2, 4.0), (3, 8.0))  # one unit below +1


def judged(unseen: int, step: Fraction, least: Fraction) -> Fraction:
    """The decks unseen judged to the nearest multiple of ``step`` decks, by brute force
    over the candidates: the closest to ``unseen / 52``, a tie to the larger, never below
    ``least``."""
    exact = Fraction(unseen, 52)
    candidates = [step * k for k in range(1, 40)]
    best = min(candidates, key=lambda c: (abs(c - exact), -c))
    return max(best, least)


def test_the_decks_are_judged_to_the_nearest_half_deck_or_deck_ties_up_never_below_one_step(
        ) -> None:
    for unseen in range(313):  # up to six decks
        half = judged(unseen, Fraction(1, 2), Fraction(1, 2))
        assert estimated_decks(unseen, "half") == half, unseen
        assert estimated_decks(unseen, "whole") == judged(unseen, Fraction(1), Fraction(1))
        assert estimated_decks(unseen, "exact") == unseen / 52


def test_worked_estimates_of_the_decks_unseen() -> None:
    # one deck, 30 cards unseen (0.58 deck): nearer half a deck than a whole one, and at
    # least one deck when judged in decks; 39 cards (0.75) is a tie between 0.5 and 1:
    # the larger; 70 cards (1.35 decks): 1.5 by half decks, 1 by decks; Hi-Lo running
    # count +3 over 70 cards is then a true count of 3 / 1.5 = 2 and 3 / 1 = 3
    assert (estimated_decks(30, "half"), estimated_decks(30, "whole")) == (0.5, 1)
    assert (estimated_decks(39, "half"), estimated_decks(78, "whole")) == (1, 2)
    assert (estimated_decks(5, "half"), estimated_decks(5, "whole")) == (0.5, 1)  # shoe's end
    assert (HILO.true_count(3, 70, "half"), HILO.true_count(3, 70, "whole")) == (2, 3)


def ramp_by_hand(tc: float) -> float:
    units = 1.0
    for at, bet in RAMP:
        if math.floor(tc) >= at:
            units = bet
    return units


@pytest.fixture(scope="module")
def one_deck() -> count.BlackjackCounter:
    """One-deck Deluxe (its shown card burnt), split once only (max_split_hands=1, so
    that a round's second moment is cheap), seeded; no second moments."""
    rules = blackjack_rules("deluxe", ["decks=1", "max_split_hands=1"])
    return count.blackjack_counter(rules, seed=7, moment_every=10**6)


@pytest.mark.slow  # (three shoes dealt three ways, each round's exact EV)
def test_every_round_bets_the_ramp_at_the_running_count_over_the_judged_decks(
        one_deck: count.BlackjackCounter, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each round's cards are recorded as the counter deals them (the shuffled shoe, where
    # the round starts and ends, the cards it burns); the cards seen before a round are
    # the shown card and the earlier rounds' unburnt cards. Their Hi-Lo running count
    # over the decks judged from the cards unseen (brute force above), floored, keys the
    # ramp; with the decks known exactly, over unseen / 52.
    calls: list[tuple[list[int], int, int, list[int]]] = []
    deal = count.BlackjackCounter.deal_round

    def recorded(self: count.BlackjackCounter, cards: list[Card], pos: int, *args: Any
                 ) -> int:
        end = deal(self, cards, pos, *args)
        calls.append(([int(c.rank) for c in cards], pos, end, list(args[2] or [])))
        return end

    monkeypatch.setattr(count.BlackjackCounter, "deal_round", recorded)
    spread = Spread(((0, 1.0), *RAMP))
    for estimation in ("exact", "half", "whole"):
        c = replace(one_deck, deck_estimation=estimation)
        calls.clear()
        shoes = c.play(range(3))
        assert len(calls) == sum(map(len, shoes))
        differ, k = 0, 0
        for shoe in shoes:
            ranks = calls[k][0]
            seen = [ranks[0]] if c.shoe_procedure.burn_shown_card else []
            for r in shoe:
                _, start, end, burnt = calls[k]
                running = sum(HILO_TAGS[rank - 1] for rank in seen)
                unseen = 52 - len(seen)
                decks = {"exact": Fraction(unseen, 52),
                         "half": judged(unseen, Fraction(1, 2), Fraction(1, 2)),
                         "whole": judged(unseen, Fraction(1), Fraction(1))}[estimation]
                assert r.tc == pytest.approx(float(running / decks), abs=1e-12)
                assert r.exact == pytest.approx(running * 52 / unseen, abs=1e-12)
                differ += ramp_by_hand(r.tc) != ramp_by_hand(r.exact)
                seen += [ranks[i] for i in range(start, end) if i not in burnt]
                k += 1
        # the run bets those units: its win rate is theirs times the rounds' exact EVs
        rounds = [r for shoe in shoes for r in shoe]
        result = runs.summarise(c, shoes, len(rounds), spread, None)
        assert result.win_rate_per_round is not None
        assert result.win_rate_per_round.value == pytest.approx(
            math.fsum(ramp_by_hand(r.tc) * r.ev for r in rounds) / len(rounds), abs=1e-15)
        assert (differ > 0) == (estimation != "exact"), differ  # the seed tells them apart


@pytest.mark.slow  # (two small runs through the command line)
def test_exact_estimation_is_the_count_without_the_flag(
        capsys: pytest.CaptureFixture[str]) -> None:
    args = ["count", "--rules", "deluxe", "--decks", "1", "--set", "max_split_hands=1",
            "--rounds", "8", "--spread", "1:1,2:4", "--moment-every", "100", "--json"]
    assert run(args) == 0
    without = json.loads(capsys.readouterr().out)
    assert run([*args, "--deck-estimation", "exact"]) == 0
    assert json.loads(capsys.readouterr().out) == without
    assert (without["deck_estimation"], without["deck_estimation_cost"]) == ("exact", None)


@pytest.mark.slow  # (two runs of ten one-deck rounds, two second moments each)
@pytest.mark.parametrize("plays", ["basic", "one index play"])
def test_the_cost_compares_the_score_of_the_exact_run_on_the_same_shoes(
        one_deck: count.BlackjackCounter, plays: str) -> None:
    # A 1-8 ramp; the exact run is dealt on the same seed. Under basic play the rounds
    # are the same and only the bets differ; with an index play (16 vs T stands from
    # true count 0, as in the Illustrious 18) the shoes are dealt again by an exact
    # counter, whose play reads the exact count
    spread = Spread(((0, 1.0), *RAMP))
    exact = replace(one_deck, moment_every=6)
    if plays != "basic":
        exact = replace(exact, strategy="basic+indices", plays=(
            count.IndexPlay(10, 16, None, ("stand", "hit"), 0.0, "stand"),))
    by_exact = runs.blackjack_count(exact, 10, spread)
    got = runs.blackjack_count(replace(exact, deck_estimation="half"), 10, spread)
    cost = got.deck_estimation_cost
    assert cost is not None and cost.redealt == (plays != "basic")
    assert got.shoes == by_exact.shoes  # (so the same shoes are paired)
    assert by_exact.score is not None and got.score is not None  # (the seed wins)
    assert cost.score_exact == pytest.approx(by_exact.score, rel=1e-12)
    assert cost.score == got.score
    assert cost.difference is not None
    assert cost.difference.value == pytest.approx(got.score - by_exact.score, rel=1e-9)
    assert cost.win_rate_difference is not None
    assert by_exact.win_rate_per_round is not None and got.win_rate_per_round is not None
    assert cost.win_rate_difference.value == pytest.approx(
        got.win_rate_per_round.value - by_exact.win_rate_per_round.value, abs=1e-15)


def test_the_paired_difference_of_a_ramp_with_itself_is_zero_with_no_spread() -> None:
    # score_difference pairs shoe i of one run with shoe i of another; the same rounds
    # and bets given as "another run" make the difference exactly 0
    r = runs.RoundRecord
    shoes = [(r(0, 0.01, 1.0), r(2, 0.03, 1.2)), (r(0, -0.01, 1.1), r(2, 0.05, 1.3))]
    bets = [[1.0, 2.0], [1.0, 2.0]]
    got = runs.score_difference(shoes, bets, bets, list(shoes))
    assert got is not None and (got.value, got.se) == (0.0, 0.0)


@pytest.mark.parametrize("value", ["tenth", "HALF ", "", "0.5"])
def test_an_unknown_deck_estimation_is_one_error_line(
        value: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["count", "--rules", "deluxe", "--decks", "1", "--rounds", "5",
                "--deck-estimation", value]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error:"), err
    assert "--deck-estimation" in err


@pytest.mark.slow  # (a five-round one-deck run)
def test_an_unbalanced_count_warns_that_deck_estimation_has_no_effect(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["count", "--rules", "deluxe", "--decks", "1", "--set", "max_split_hands=1",
                "--rounds", "5", "--moment-every", "100", "--system", "ko", "--spread",
                "1:1,2:2", "--deck-estimation", "half", "--json"]) == 0
    out = capsys.readouterr()
    warnings = [line for line in out.err.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "running count" in warnings[0], out.err
    data = json.loads(out.out)
    assert data["count_kind"] == "running count" and data["deck_estimation_cost"] is None
