"""Play errors (``count --play-errors E``, issue 48 item 5): at every decision of an unsplit
hand the player takes the chart's play with chance 1 - E, else a mistake (at two cards the
chart's runner-up off the top, later the other of hit and stand); every round's EV and
second moment are the erring player's exactly, and the cards dealt follow the erring play.

The oracle here is written from that definition (docs/MODEL.md, "Play errors"), with the
dealer of ``tests/oracles/bj_oracle`` (exact rationals) and the game reduced to what it
needs: no hole-card check (the dealer's second card comes after the player), a dealer
blackjack takes every bet (doubled: both), no split, no surrender, no insurance."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from bj_oracle.dealer import dealer_distribution
from rational import Fraction

from strategy_calc import engine
from strategy_calc.actions import Action
from strategy_calc.blackjack.playout import PlayErrors, RoundPlan, play_round
from strategy_calc.cards import Rank, Shoe, parse_cards
from strategy_calc.cli.root import run
from strategy_calc.counting.counter import blackjack_counter
from strategy_calc.rules import blackjack_rules

NO_SPLIT = "A,2,3,4,5,6,7,8,9,T"
RULES = blackjack_rules("deluxe", ["decks=1", "hole_card=enhc", "enhc_loses=all",
                                   "surrender=none", f"no_split_ranks={NO_SPLIT}",
                                   "insurance=false"])
TINY = (2, 2, 2, 2, 2, 2, 2, 2, 2, 6)  # A .. 9 two each, six tens: 24 cards
Moments = tuple[Fraction, Fraction]  # (E[X], E[X^2])


def _best(cards: tuple[int, ...]) -> tuple[int, bool]:
    """The best total of rank counts ``cards`` (ace first) and whether it is soft."""
    hard = sum((r + 1) * n for r, n in enumerate(cards))
    soft = cards[0] > 0 and hard + 10 <= 21
    return (hard + 10, True) if soft else (hard, False)


def _add(counts: tuple[int, ...], r: int, k: int = 1) -> tuple[int, ...]:
    return tuple(n + k * (i == r) for i, n in enumerate(counts))


@functools.cache
def _stand(cards: tuple[int, ...], shoe: tuple[int, ...], up: int, bet: int) -> Moments:
    """Standing on ``cards`` (``bet`` units): the dealer's second card and draws come from
    ``shoe``; his blackjack takes the whole bet."""
    total = _best(cards)[0]
    m1 = m2 = Fraction(0)
    for key, p in dealer_distribution(shoe, up, False).items():
        if key == "blackjack":
            x = -bet
        elif key == "bust":
            x = bet
        else:
            x = bet * ((total > int(key)) - (total < int(key)))
        m1 += p * x
        m2 += p * x * x
    return m1, m2


def _draws(shoe: tuple[int, ...]) -> list[tuple[int, Fraction]]:
    n = sum(shoe)
    return [(r, Fraction(shoe[r], n)) for r in range(10) if shoe[r]]


@functools.cache
def _hit(cards: tuple[int, ...], shoe: tuple[int, ...], up: int, err: Fraction,
         policy: bytes) -> Moments:
    """Take one card, then play on with errors."""
    m1 = m2 = Fraction(0)
    for r, p in _draws(shoe):
        after = _add(cards, r)
        if _best(after)[0] > 21:
            m1, m2 = m1 - p, m2 + p
        else:
            v1, v2 = _play(after, _add(shoe, r, -1), up, err, policy)
            m1, m2 = m1 + p * v1, m2 + p * v2
    return m1, m2


@functools.cache
def _play(cards: tuple[int, ...], shoe: tuple[int, ...], up: int, err: Fraction,
          policy: bytes) -> Moments:
    """A hand after its first decision: a 21 stands; below it the policy's play (hit where
    its class has bit 1: hard total t is class t, soft t class 32 + t) with chance 1 - err,
    the other of hit and stand with chance err."""
    total, soft = _best(cards)
    if total == 21:
        return _stand(cards, shoe, up, 1)
    stand, hit = _stand(cards, shoe, up, 1), _hit(cards, shoe, up, err, policy)
    planned, other = (hit, stand) if policy[total + 32 * soft] & 1 else (stand, hit)
    return ((1 - err) * planned[0] + err * other[0], (1 - err) * planned[1] + err * other[1])


def _double(cards: tuple[int, ...], shoe: tuple[int, ...], up: int) -> Moments:
    m1 = m2 = Fraction(0)
    for r, p in _draws(shoe):
        after = _add(cards, r)
        if _best(after)[0] > 21:
            m1, m2 = m1 - 2 * p, m2 + 4 * p
        else:
            v1, v2 = _stand(after, _add(shoe, r, -1), up, 2)
            m1, m2 = m1 + p * v1, m2 + p * v2
    return m1, m2


def _first(action: Action, cards: tuple[int, ...], shoe: tuple[int, ...], up: int,
           err: Fraction, policy: bytes) -> Moments:
    if action is Action.STAND:
        return _stand(cards, shoe, up, 1)
    if action is Action.HIT:
        return _hit(cards, shoe, up, err, policy)
    assert action is Action.DOUBLE
    return _double(cards, shoe, up)


def _round(shoe: tuple[int, ...], err: Fraction, plays: dict[tuple[int, int, int],
           tuple[Action, Action]], policies: dict[int, bytes]) -> Moments:
    """The erring player's round from ``shoe``: up card, two player cards (exchangeable:
    any order), the first decision the planned play with chance 1 - err, else the mistake."""
    m1 = m2 = Fraction(0)
    for u, pu in _draws(shoe):
        s1 = _add(shoe, u, -1)
        for a, pa in _draws(s1):
            s2 = _add(s1, a, -1)
            for b, pb in _draws(s2):
                s3 = _add(s2, b, -1)
                w = pu * pa * pb
                lo, hi = sorted((a + 1, b + 1))
                if (lo, hi) == (1, 10):  # a natural: pushes a dealer blackjack, else 3:2
                    hole = {1: 9, 10: 0}.get(u + 1)
                    p_bj = Fraction(s3[hole], sum(s3)) if hole is not None else Fraction(0)
                    m1 += w * (1 - p_bj) * Fraction(3, 2)
                    m2 += w * (1 - p_bj) * Fraction(9, 4)
                    continue
                cards = _add(_add((0,) * 10, a), b)
                planned, mistake = plays[(u + 1, lo, hi)]
                for action, share in ((planned, 1 - err), (mistake, err)):
                    v1, v2 = _first(action, cards, s3, u + 1, err, policies[u + 1])
                    m1, m2 = m1 + w * share * v1, m2 + w * share * v2
    return m1, m2


@pytest.fixture(scope="module")
def tiny_counter():  # type: ignore[no-untyped-def]
    return blackjack_counter(RULES, shoe=Shoe.from_counts(TINY, 1), cut_card=20,
                             play_errors=0.05)


def _plays(counter) -> tuple[dict[tuple[int, int, int], tuple[Action, Action]],  # type: ignore[no-untyped-def]
                             dict[int, bytes]]:
    plays = {}
    for (up, lo, hi), mistake in counter.planner.mistakes.items():
        plays[(up, lo, hi)] = (counter.chart.code((lo, hi), Rank(up)).action, mistake)
    return plays, {int(up): bytes(p) for up, p in counter.chart.policies.items()}


@pytest.mark.parametrize("ups", [pytest.param((10,), id="T"),
                                 pytest.param(tuple(range(1, 11)), id="every up card",
                                              marks=pytest.mark.slow)])
def test_the_mistake_at_two_cards_is_the_charts_runner_up_off_the_top(  # type: ignore[no-untyped-def]
        tiny_counter, ups: tuple[int, ...]) -> None:
    plays, policies = _plays(tiny_counter)
    for (up, lo, hi), (planned, mistake) in plays.items():
        if up not in ups:
            continue
        shoe = _add(_add(_add(TINY, up - 1, -1), lo - 1, -1), hi - 1, -1)
        cards = _add(_add((0,) * 10, lo - 1), hi - 1)
        values = {a: _first(a, cards, shoe, up, Fraction(0), policies[up])[0]
                  for a in (Action.STAND, Action.HIT, Action.DOUBLE)}
        del values[planned]  # (the chart's cell: by total, not always this start's best)
        best = max(values.values())  # (an exact tie would take the calmer play)
        assert values[mistake] == best, (up, lo, hi, mistake, values)


@pytest.mark.parametrize(("shoe", "err"), [
    ((1, 1, 1, 1, 1, 1, 1, 1, 1, 4), Fraction(1, 20)),  # 13 cards left
    ((1, 1, 1, 1, 1, 1, 1, 1, 1, 4), Fraction(3, 10)),
    pytest.param((2, 1, 2, 2, 1, 2, 2, 1, 2, 5), Fraction(1, 20), marks=pytest.mark.slow),
    pytest.param((2, 1, 2, 2, 1, 2, 2, 1, 2, 5), Fraction(0), marks=pytest.mark.slow)])
def test_the_rounds_ev_and_second_moment_are_the_erring_players(  # type: ignore[no-untyped-def]
        tiny_counter, shoe: tuple[int, ...], err: Fraction) -> None:
    plays, policies = _plays(tiny_counter)
    want = _round(shoe, err, plays, policies)
    quick = tiny_counter.plan(Shoe.from_counts(shoe, 1), 0.0, False, float(err))
    full = tiny_counter.plan(Shoe.from_counts(shoe, 1), 0.0, True, float(err))
    assert quick.ev == pytest.approx(float(want[0]), abs=1e-12)
    assert full.ev == pytest.approx(float(want[0]), abs=1e-12)
    assert full.second_moment == pytest.approx(float(want[1]), abs=1e-12)


def test_no_errors_plan_today_s_values(tiny_counter) -> None:  # type: ignore[no-untyped-def]
    plain = blackjack_counter(RULES, shoe=Shoe.from_counts(TINY, 1), cut_card=20)
    shoe = Shoe.from_counts((2, 1, 2, 2, 1, 2, 2, 1, 2, 5), 1)
    for moments in (False, True):
        a, b = plain.plan(shoe, 0.0, moments), tiny_counter.plan(shoe, 0.0, moments, 0.0)
        assert (a.ev, a.second_moment) == (b.ev, b.second_moment)


def test_one_decision_hand_mixes_stand_and_hit_by_hand() -> None:
    # T,T against a 6 stands by the policy; hit, only an ace keeps it alive (21, which
    # stands: no second decision), so V = (1 - E) stand + E hit exactly
    base = Shoe.from_counts((4, 4, 4, 4, 4, 3, 4, 4, 4, 16), 1)  # the up card (a 6) gone
    hand = parse_cards("T,T")
    policy = memoryview(bytes(64)).cast("b")  # stand everywhere
    params = engine.engine_params(RULES)
    plain = engine.hand_values(base, hand, Rank.SIX, params, policy)
    erring = engine.hand_values(base, hand, Rank.SIX, replace(params, play_error=0.1),
                                policy)
    assert plain.policy == plain.stand
    assert erring.policy == pytest.approx(0.9 * plain.stand + 0.1 * plain.hit, abs=1e-15)
    # the hit by hand: 4 aces among the 49 cards left make a 21 that stands, the rest bust
    twenty_one = engine.hand_values(base, parse_cards("T,T,A"), Rank.SIX, params).stand
    assert plain.hit == pytest.approx(4 / 49 * twenty_one - 45 / 49, abs=1e-15)


class _Always(random.Random):
    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def test_a_mistake_dealt_hits_a_stand_and_the_next_decision_errs_again() -> None:
    deluxe = blackjack_rules("deluxe")  # peek: the hole card is dealt at once
    plan = RoundPlan(0.0, None, {(6, 7, 10, False): Action.STAND}, {6: bytes(4096)},
                     frozenset())
    cards = parse_cards("T,6,7,T,2,2,5")  # 17 v 6; the dealer's 16 draws
    mistakes = {(6, 7, 10): Action.HIT}
    # planned: stand on 17, the dealer draws the 2 (18): 5 cards
    assert play_round(deluxe, cards, 0, plan, errors=PlayErrors(0.1, mistakes,
                                                                _Always(0.5))) == 5
    # erring at both decisions: hit 17 (19), hit 19 (21, which stands), the dealer draws 5
    assert play_round(deluxe, cards, 0, plan, errors=PlayErrors(0.1, mistakes,
                                                                _Always(0.0))) == 7


def _count(*extra: str) -> list[str]:
    return ["count", "--rules", "deluxe", "--decks", "1", "--set", "max_split_hands=1",
            "--rounds", "1", "--jobs", "1", "--spread", "0:1,2:4", "--json", *extra]


def test_a_seeded_run_with_errors_is_reproducible_and_deals_other_cards() -> None:
    rules = blackjack_rules("deluxe", ["decks=1", "max_split_hands=1"])
    erring = blackjack_counter(rules, seed=3, moment_every=1000, play_errors=0.3)
    plain = blackjack_counter(rules, seed=3, moment_every=1000)
    shoe = erring.play_one(1)
    assert shoe == erring.play_one(1)  # the mistakes drawn from the shoe's own source
    assert [r.tc for r in shoe] != [r.tc for r in plain.play_one(1)]  # other cards dealt
    assert all(r.perfect_ev is not None and r.ev < r.perfect_ev for r in shoe)


@pytest.mark.slow
def test_zero_play_errors_prints_the_run_without_the_flag(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(_count()) == 0
    without = capsys.readouterr().out
    assert run(_count("--play-errors", "0")) == 0
    assert capsys.readouterr().out == without


@pytest.mark.parametrize("extra", [("--play-errors", "-0.1"), ("--play-errors", "1"),
                                   ("--play-errors", "nan"), ("--play-errors", "inf"),
                                   ("--play-errors", "0.1", "--strategy", "optimal"),
                                   ("--play-errors", "0.1", "--boxes", "2"),
                                   ("--play-errors", "0.1", "--method", "stratified")])
def test_a_bad_play_error_rate_is_one_error_line(
        extra: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    assert run(_count(*extra)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "play" in err[0], err
