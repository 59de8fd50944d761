"""Side bets placed by a count (``count --sidebet-trigger BET:TAGS:AT[:KIND]``, both
games): the trigger bets exactly where the count of the cards seen, computed here by hand
from the run's recorded cards, reaches its level; the exact-EV rule, on the same shoes,
wins at least as much; bad triggers are one error line."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from strategy_calc.cli.root import run
from strategy_calc.counting import baccarat as baccarat_count
from strategy_calc.counting import counter as count
from strategy_calc.counting.sidebets import SideBetRound, resolve, resolve_triggers
from strategy_calc.rules import baccarat_rules, blackjack_rules

# Jacobson's Big Tiger tags (A, 2 .. 9, T; advancedadvantageplay.com), and tags of our
# own for Dragon 7: any integers will do, the test is that the run follows them
BIG_TIGER_TAGS = (0, 0, -1, -1, -1, -2, 1, 2, 2, 0)
DRAGON_TAGS = (0, 0, -1, -1, -1, -1, 2, 2, 0, 0)
HILO = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)


def by_hand(tags: tuple[int, ...], seen: list[int], unseen: int, kind: str) -> float:
    """The count of the cards ``seen`` (card types, ``4 * face + suit``; J, Q, K tagged as
    T): the sum of their tags, or that per deck of the ``unseen`` cards (52 a deck)."""
    running = sum(tags[min(t // 4, 9)] for t in seen)
    return running if kind == "running" else running / (unseen / 52)


def assert_follows(rounds: list[tuple[SideBetRound, ...]], cards: int, j: int,
                   tags: tuple[int, ...], at: float, kind: str) -> tuple[int, int]:
    """Per shoe, the cards seen before each round are the records' ``before`` summed up; bet
    ``j`` is placed exactly when their count is ``at`` or more. (Placed, not placed.)"""
    placed = skipped = 0
    for shoe in rounds:
        seen: list[int] = []
        for r in shoe:
            seen.extend(r.before)
            hit = by_hand(tags, seen, cards - len(seen), kind) >= at
            assert (r.won[j] is not None) == hit, (seen, r)
            placed, skipped = placed + hit, skipped + (not hit)
    return placed, skipped


def baccarat_runs(triggers: list[str], seed: int = 7, shoes: int = 20
                  ) -> list[tuple[SideBetRound, ...]]:
    rules = baccarat_rules("macau-baccarat", decks=1)
    bets = resolve("big-tiger,dragon7", "baccarat")
    c = baccarat_count.linear_counter(rules, 14, seed, None, bets,
                                      resolve_triggers(triggers, bets))
    return [s.sidebets for s in c.play(range(shoes))]


def test_a_baccarat_trigger_bets_exactly_where_the_count_by_hand_reaches_its_level() -> None:
    # big-tiger by the true count (per deck unseen) of Jacobson's tags reaching +3, dragon7
    # by the running count of other tags reaching +3; one-deck shoes, seeded
    rounds = baccarat_runs([f"big-tiger:{','.join(map(str, BIG_TIGER_TAGS))}:3",
                            f"dragon7:{','.join(map(str, DRAGON_TAGS))}:3:running"])
    for j, tags, kind in ((0, BIG_TIGER_TAGS, "true"), (1, DRAGON_TAGS, "running")):
        placed, skipped = assert_follows(rounds, 52, j, tags, 3, kind)
        assert placed >= 5 and skipped >= 5, (j, placed, skipped)  # not vacuous


def test_the_exact_ev_rule_wins_at_least_what_the_trigger_wins_on_the_same_shoes() -> None:
    # the same seeded shoes with and without the trigger: the EVs priced are the same, the
    # exact-EV rule (bet when positive) wins at least what the trigger wins per round, and
    # the run with the trigger reports the exact-EV rule's figure of the run without it
    rules = baccarat_rules("macau-baccarat", decks=1)
    bets = resolve("big-tiger,dragon7", "baccarat")
    spec = f"big-tiger:{','.join(map(str, BIG_TIGER_TAGS))}:2"
    plain = baccarat_count.baccarat_count(rules, shoes=12, seed=3, sidebets=bets)
    triggered = baccarat_count.baccarat_count(rules, shoes=12, seed=3, sidebets=bets,
                                              triggers=resolve_triggers([spec], bets))
    assert plain.sidebets is not None and triggered.sidebets is not None
    exact, trig = plain.sidebets["big-tiger"], triggered.sidebets["big-tiger"]
    best = trig.exact_ev_rule_per_100
    assert best is not None and trig.trigger is not None and exact.trigger is None
    assert math.isclose(best.value, exact.win_per_100.value, rel_tol=1e-12, abs_tol=1e-15)
    assert trig.share_bet > 0 and exact.share_bet > 0
    assert exact.win_per_100.value >= trig.win_per_100.value
    # the untriggered bet is placed by its EV in both runs
    assert triggered.sidebets["dragon7"] == plain.sidebets["dragon7"]


@pytest.mark.slow  # (about 1.2 CPU seconds: each round's exact plan)
def test_a_blackjack_trigger_bets_21_plus_3_exactly_where_the_hilo_count_reaches_it() -> None:
    # two-deck Deluxe shoes cut at 60 cards from the end; 21+3 bet when the Hi-Lo true count
    # is +0.5 or more (hilo by name), the Deluxe pair by its exact EV; the cards seen are the
    # records' (burnt ones not); no second moments (not read here)
    rules = replace(blackjack_rules("deluxe"), decks=2)
    bets = resolve("21+3,deluxe-pair", "blackjack", (), rules.dealer_hits_soft_17)
    c = count.blackjack_counter(rules, seed=4, cut_card=60, moment_every=10**6,
                                sidebets=bets,
                                triggers=resolve_triggers(["21+3:hilo:0.5"], bets))
    shoes = c.play(range(1, 2))
    rounds = [tuple(r.sidebets for r in s if r.sidebets is not None) for s in shoes]
    placed, skipped = assert_follows(rounds, 104, 0, HILO, 0.5, "true")
    assert placed >= 2 and skipped >= 2, (placed, skipped)
    for shoe in rounds:
        for r in shoe:
            assert (r.won[1] is not None) == (r.evs[1] > 0)


def test_the_json_names_each_triggered_bets_tags_level_and_kind(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["count", "--rules", "macau-baccarat", "--decks", "1", "--shoes", "2",
                "--sidebets", "big-tiger,lucky6", "--sidebet-trigger",
                "big-tiger:0,0,-1,-1,-1,-2,1,2,2,0:8", "--sidebet-trigger",
                "lucky6:hilo:2:running", "--json"]) == 0
    side = json.loads(capsys.readouterr().out)["sidebets"]
    assert side["big-tiger"]["trigger"]["tags"] == list(BIG_TIGER_TAGS)
    assert (side["big-tiger"]["trigger"]["at"], side["big-tiger"]["trigger"]["kind"]) == (
        8.0, "true")
    assert side["lucky6"]["trigger"]["tags"] == list(HILO)
    assert side["lucky6"]["trigger"]["system"] == "hilo"
    assert side["lucky6"]["trigger"]["kind"] == "running"
    assert set(side["lucky6"]["trigger"]["exact_ev_rule_win_per_100"]) == {"value", "se"}


BAD = {
    "not in --sidebets": ["--sidebets", "lucky6", "--sidebet-trigger", "dragon7:hilo:2"],
    "no --sidebets": ["--sidebet-trigger", "dragon7:hilo:2"],
    "unknown bet": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky7:hilo:2"],
    "nine tags": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:0,0,0,0,0,0,0,0,1:2"],
    "a tag not an integer": ["--sidebets", "lucky6", "--sidebet-trigger",
                             "lucky6:0,0,0,0,0,0,0,0,1,0.5:2"],
    "unknown system": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:hilow:2"],
    "a system file": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:my.toml:2"],
    "level not a number": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:hilo:x"],
    "level infinite": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:hilo:nan"],
    "unknown kind": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:hilo:2:floor"],
    "no level": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:hilo"],
    "triggered twice": ["--sidebets", "lucky6", "--sidebet-trigger", "lucky6:hilo:2",
                        "--sidebet-trigger", "lucky6:zen:1"],
}


@pytest.mark.parametrize("case", BAD)
@pytest.mark.parametrize("game", ["macau-baccarat", "deluxe"])
def test_a_bad_trigger_is_one_error_line(case: str, game: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    args = BAD[case]
    if game == "deluxe":  # the same with a blackjack bet
        args = [a.replace("lucky6", "21+3").replace("dragon7", "buster")
                .replace("lucky7", "21+4") for a in args]
    assert run(["count", "--rules", game, "--json", *args]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error:"), err
    assert "Traceback" not in err
