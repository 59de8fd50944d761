"""Side bets counted exactly (``count --sidebets``): each round's bet priced for the cards
unseen and bet when positive, settled on the round's cards. Checked by an independent
replay of the dealt cards (the shoe rebuilt from a full one, each bet re-priced, 21+3
settled by the oracle of tests/oracles/sidebet_oracle.py), by the realised results
against the exact EVs (seeded, within the standard error), and by the main figures being
those of a run without side bets."""

from __future__ import annotations

import functools
import json
import math
import pickle
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from baccarat_sidebet_oracle import SETTLE, Round, banker_draws, natural, point, value, ways
from sidebet_oracle import twenty_one_plus_three

from strategy_calc.blackjack import playout
from strategy_calc.cards import FACES, SUITS, FaceShoe, parse_cards
from strategy_calc.cli.root import run
from strategy_calc.counting import baccarat as baccarat_count
from strategy_calc.counting import counter as count
from strategy_calc.counting import runs
from strategy_calc.counting.sampling import mean_estimate
from strategy_calc.counting.sidebets import (
    SideBetRound,
    baccarat_hands,
    card_types,
    completes_dealer,
    resolve,
    settle_baccarat,
)
from strategy_calc.parallel import executor
from strategy_calc.rules import baccarat_rules, blackjack_rules
from strategy_calc.sidebets.events import LOSE, MORE, Event, face_of
from strategy_calc.sidebets.exact import face_count_shoe, for_dealer, price
from strategy_calc.sidebets.paytables import BUILTIN_FILES, SideBet, builtin_sidebet

TOL = 1e-12
DEALER_BETS = "21+3,lucky-ladies,buster"


def counter(bets: str = DEALER_BETS, seed: int = 3, **kw: object) -> count.BlackjackCounter:
    rules = replace(blackjack_rules("deluxe"), decks=2)
    chosen = resolve(bets, "blackjack", (), rules.dealer_hits_soft_17) if bets else ()
    return count.blackjack_counter(rules, seed=seed, sidebets=chosen, **kw)  # type: ignore[arg-type]


def name(t: int) -> tuple[str, str]:
    return FACES[t // 4], SUITS[t % 4]


def test_the_counted_cards_of_a_full_shoe_hold_each_face_and_suit_once_a_deck() -> None:
    for decks in (1, 2, 6):
        types = card_types([4 * decks] * 9 + [16 * decks])
        assert Counter(types) == {t: decks for t in range(52)}


@pytest.mark.slow
def test_side_bets_that_leave_the_dealer_alone_change_no_figure_of_the_run() -> None:
    # 21+3 reads the first three cards only: the rounds dealt, their counts and exact EVs
    # are those of the same seeded run without side bets
    plain, with_bet = counter("").play(range(2)), counter("21+3").play(range(2))
    assert [[(r.tc, r.ev, r.second_moment) for r in s] for s in plain] == [
        [(r.tc, r.ev, r.second_moment) for r in s] for s in with_bet]
    assert all(r.sidebets is None for s in plain for r in s)


def replay(c: count.BlackjackCounter, shoes: list[tuple[count.RoundRecord, ...]]) -> int:
    """Rebuild each round's shoe from a full one and the cards the run recorded, re-price
    every bet there, and settle 21+3 by the oracle: the run's EVs, decisions and 21+3
    results. The number of rounds checked."""
    bets = [for_dealer(builtin_sidebet(n), c.rules.dealer_hits_soft_17)
            for n in DEALER_BETS.split(",")]
    checked = 0
    for shoe in shoes:
        left = FaceShoe.full(c.rules.decks)
        for r in shoe:
            side = r.sidebets
            assert side is not None
            left = left.remove(_face_cards(side.before))
            for j, bet in enumerate(bets):
                ev = price(bet, left).ev
                assert abs(ev - side.evs[j]) < TOL
                assert (side.won[j] is not None) == (ev > 0)
            three = side.won[0]
            if three is not None:  # the player's first card, the up card, his second
                first, up, second = (name(t) for t in side.dealt[:3])
                line = twenty_one_plus_three((first, up, second, ("2", "s")))
                assert three == (9.0 if line != "lose" else -1.0)
            checked += 1
    return checked


def _face_cards(types: tuple[int, ...]) -> list[object]:
    from strategy_calc.cards import parse_face_cards

    return list(parse_face_cards([f + s for f, s in map(name, types)]))


@pytest.mark.slow
def test_an_independent_replay_of_the_dealt_cards_gives_the_same_bets_and_evs() -> None:
    c = counter(seed=5)
    shoes = c.play(range(4))
    assert replay(c, shoes) > 40
    assert any(w is not None for s in shoes for r in s for w in r.sidebets.won)  # type: ignore[union-attr]


@pytest.mark.slow
def test_the_first_rounds_replayed_give_the_same_bets_and_evs() -> None:
    c = counter(seed=5)
    shoe = c.play_one(0)
    assert replay(c, [shoe[:6]]) == 6


def test_a_bet_that_reads_the_dealers_hand_has_him_complete_it() -> None:
    # the player's blackjack A-T against a 6 (peek): no hand is left to settle, so the
    # dealer stops at 6-T; under a bet on his hand he draws the 5 (21), and the record
    # holds where each card lay
    plan = playout.RoundPlan(0.0, None, {}, {6: bytes(4096)}, frozenset())
    cards = parse_cards("A,6,T,T,5")
    rules = blackjack_rules("deluxe")
    assert playout.play_round(rules, cards, 0, plan) == 4
    where = playout.RoundCards([], [])
    assert playout.play_round(rules, cards, 0, plan, record=where, dealer_completes=True) == 5
    assert where.player == [0, 2] and where.dealer == [1, 3, 4]


def test_buster_and_lucky_ladies_complete_the_dealers_hand_and_21_plus_3_does_not() -> None:
    assert completes_dealer(resolve("buster", "blackjack"))
    assert completes_dealer(resolve("lucky-ladies", "blackjack"))
    assert not completes_dealer(resolve("21+3,deluxe-pair", "blackjack"))


# A baccarat side bet defined here, on cards named by their place (the built-in ones are
# checked below): the Player's first two cards of one face (a player pair), read as
# Player's first, Banker's first, Player's second card, paying 17 to 1: positive off the
# top at one deck (3/51 x 18 > 1).


def settle_player_pair(cards: tuple[int, ...]) -> str:
    if len(cards) < 3:
        return MORE
    return "pair" if face_of(cards[0]) == face_of(cards[2]) else LOSE


PLAYER_PAIR = SideBet("test-player-pair", Event(
    "test_player_pair", "baccarat", ("player's first card", "banker's first card",
                                     "player's second card"), ("pair",),
    "the Player's first two cards of one face", settle_player_pair), "", "t",
    {"t": {"pair": Fraction(17)}}, {})


def test_a_baccarat_side_bet_is_priced_for_the_cards_unseen_and_settled_on_the_hand(
        ) -> None:
    rules = baccarat_rules("macau-baccarat", decks=1)
    result = baccarat_count.baccarat_count(rules, shoes=3, seed=2, sidebets=(PLAYER_PAIR,))
    counter_ = baccarat_count.linear_counter(rules, result.cut_card, 2, result.procedure,
                                             (PLAYER_PAIR,))
    for index in range(3):
        left = FaceShoe.full(1)
        for side in counter_.play_one(index).sidebets:
            left = left.remove(_face_cards(side.before))
            ev = price(PLAYER_PAIR, left).ev
            # by hand: P(pair) = sum_f n_f (n_f - 1) / (n (n - 1)) over the cards unseen
            n, faces = left.cards_left, left.face_counts
            pair = sum(k * (k - 1) for k in faces) / (n * (n - 1))
            assert abs(ev - (18 * pair - 1)) < TOL
            won = side.won[0]
            assert (won is not None) == (ev > 0)
            if won is not None:
                same = side.dealt[0] // 4 == side.dealt[2] // 4
                assert won == (17.0 if same else -1.0)
    assert result.sidebets is not None and result.sidebets["test-player-pair"].share_bet > 0


@pytest.mark.slow
def test_the_realised_wins_of_the_bets_placed_agree_with_their_exact_evs() -> None:
    # seeded: over 200 shoes the mean realised result of the bets placed is the mean of
    # their exact EVs, within three standard errors (per shoe, the sum of won - EV)
    rules = baccarat_rules("macau-baccarat", decks=1)
    c = baccarat_count.linear_counter(rules, 14, 11, None, (PLAYER_PAIR,))
    shoes = c.play(range(200))
    diffs = [math.fsum((r.won[0] or 0.0) - (r.evs[0] if r.won[0] is not None else 0.0)
                       for r in s.sidebets) for s in shoes]
    placed = sum(1 for s in shoes for r in s.sidebets if r.won[0] is not None)
    assert placed > 1000
    gap = mean_estimate(diffs)
    assert abs(gap.value) < 3 * gap.se, gap


# --- the built-in baccarat bets, settled on each counted round's cards -------------------

BACCARAT_BETS = tuple(bet for bet in SETTLE if bet in BUILTIN_FILES)
"""The built-in baccarat bets the oracle of tests/oracles/baccarat_sidebet_oracle.py
settles (on a finished round's faces, from their definitions)."""

# A small shoe of tests/sidebets/test_baccarat.py's (13 cards, 20,007 finished rounds) on
# which every line of every built-in baccarat bet happens:
# two- and three-card sixes, naturals and their ties, wins by 4 to 9, three-card sevens
# and eights, ties, pairs, rounds where only the Player or only the Banker draws.
SMALL_SHOE = "5566778899TTQ"

Hands = tuple[tuple[int, ...], tuple[int, ...]]


def as_dealt(player: tuple[str, ...], banker: tuple[str, ...]) -> tuple[int, ...]:
    """A finished round's cards as the counter deals them: Player, Banker, Player, Banker,
    the Player's third card, the Banker's; each face with a suit of its own (the k-th card
    of a face dealt in the round takes the k-th suit: no baccarat bet reads suits)."""
    order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
    seen: Counter[str] = Counter()
    out = []
    for face in order:
        out.append(4 * FACES.index(face) + seen[face] % 4)
        seen[face] += 1
    return tuple(out)


@functools.cache
def small_shoe_rounds(shoe: str) -> tuple[tuple[Round, tuple[int, ...], Hands, Fraction],
                                          ...]:
    """Every finished round of ``shoe`` (the oracle's, dealt by the tableau in casino order,
    with its probability), its cards as the counter deals them, and the hands the counter
    splits them into (:func:`baccarat_hands`)."""
    n = len(shoe)
    out = []
    for r, w in ways(shoe).items():
        dealt = as_dealt(*r)
        out.append((r, dealt, baccarat_hands(dealt), Fraction(w, math.perm(n, len(dealt)))))
    return tuple(out)


def assert_settles_as_priced(bet: str, shoe: str) -> None:
    """Each round's settlement (Event.settle_round on the counter's hands) is the oracle's,
    and the probabilities of the rounds settled on each line, as fractions, equal the
    priced line probabilities exactly (the grid's integer counts over all deals, so equal
    floats; the pairs, summed over card sequences, to 1e-15)."""
    side = builtin_sidebet(bet)
    oracle, settle_round = SETTLE[bet], side.event.settle_round
    found: Counter[str] = Counter()
    for r, _dealt, hands, p in small_shoe_rounds(shoe):
        line = settle_round(*hands)
        assert line == oracle(r), (bet, r)
        found[line] += p
    assert sum(found.values()) == 1
    priced = price(side, face_count_shoe(tuple(shoe.count(f) for f in FACES)))
    assert set(found) <= set(priced.probabilities)
    for line, q in priced.probabilities.items():
        if line != LOSE and side.event.settle_end is not None:
            assert q == float(found[line]), (bet, line)
        else:
            assert abs(q - float(found[line])) < 1e-15, (bet, line)


def test_the_counter_splits_every_round_of_a_small_shoe_into_its_hands() -> None:
    # the hands the counter reads from the cards as dealt are the oracle's, and a unit bet
    # placed wins its pay table's line (lose: -1)
    lucky6 = builtin_sidebet("lucky6")
    for r, dealt, hands, _p in small_shoe_rounds(SMALL_SHOE):
        assert tuple(tuple(name(t)[0] for t in hand) for hand in hands) == r
        line = SETTLE["lucky6"](r)
        pays = float(lucky6.paytable()[line]) if line != LOSE else -1.0
        assert settle_baccarat(lucky6, None, dealt) == pays


FAST_BETS = ("lucky6", "dragon-bonus-player", "dragon7", "panda8", "egalite-8",
             "banker-pair")
"""The bets of ``count --sidebets`` the fast tier checks (the pairs are settled on cards,
the others on how the round ends)."""


@pytest.mark.parametrize("bet", FAST_BETS)
def test_a_baccarat_bets_settlement_of_every_round_of_a_small_shoe_is_its_pricing(
        bet: str) -> None:
    assert_settles_as_priced(bet, SMALL_SHOE)


@pytest.mark.slow
def test_every_baccarat_bets_settlement_of_every_round_of_a_small_shoe_is_its_pricing(
        ) -> None:
    for bet in BACCARAT_BETS:
        if bet not in FAST_BETS:
            assert_settles_as_priced(bet, SMALL_SHOE)


def oracle_round(faces: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The hands of a round dealt from ``faces`` (the cards in the order dealt), by the
    oracle's tableau; every card used."""
    player, banker = faces[0:4:2], faces[1:4:2]
    rest = list(faces[4:])
    if not (natural(player) or natural(banker)):
        third = None
        if point(player) <= 5:
            player = (*player, rest.pop(0))
            third = value(player[2])
        if banker_draws(point(banker), third):
            banker = (*banker, rest.pop(0))
    assert not rest
    return player, banker


TWO_BETS = "dragon7,panda8"
"""Two built-in baccarat bets that go positive late in a one-deck shoe."""


def baccarat_counter(seed: int) -> baccarat_count.BaccaratCounter:
    rules = baccarat_rules("macau-baccarat", decks=1)
    return baccarat_count.linear_counter(rules, 14, seed, None, resolve(TWO_BETS, "baccarat"))


@pytest.mark.slow
def test_an_independent_replay_of_a_baccarat_run_gives_the_same_bets_evs_and_results(
        ) -> None:
    # one deck, cut 14 cards from the end: the shoe rebuilt from a full one and the cards
    # the run recorded, each bet re-priced, and each bet placed settled by the oracle on
    # the hands its tableau deals from the recorded cards
    c = baccarat_counter(7)
    bets = [builtin_sidebet(b) for b in TWO_BETS.split(",")]
    placed = 0
    for index in range(30):
        left = FaceShoe.full(1)
        for side in c.play_one(index).sidebets:
            left = left.remove(_face_cards(side.before))
            hands = oracle_round(tuple(name(t)[0] for t in side.dealt))
            for j, bet in enumerate(bets):
                ev = price(bet, left).ev
                assert abs(ev - side.evs[j]) < TOL
                won = side.won[j]
                assert (won is not None) == (ev > 0)
                if won is not None:
                    line = SETTLE[bet.name](hands)
                    assert won == (float(bet.paytable()[line]) if line != LOSE else -1.0)
                    placed += 1
    assert placed > 10


@pytest.mark.slow
def test_the_realised_wins_of_two_baccarat_bets_agree_with_their_exact_evs() -> None:
    # seeded, one deck: over 300 shoes the mean realised result of each bet placed is the
    # mean of their exact EVs, within three standard errors (per shoe, the sum of won - EV)
    shoes = baccarat_counter(11).play(range(300))
    for j in range(len(TWO_BETS.split(","))):
        diffs = [math.fsum((r.won[j] or 0.0) - (r.evs[j] if r.won[j] is not None else 0.0)
                           for r in s.sidebets) for s in shoes]
        placed = sum(1 for s in shoes for r in s.sidebets if r.won[j] is not None)
        assert placed > 100
        gap = mean_estimate(diffs)
        assert abs(gap.value) < 3 * gap.se, (j, gap)


def test_a_baccarat_counter_with_side_bets_travels_to_a_worker_and_deals_the_same() -> None:
    # the events' rules are values, so a counter's bets pickle (a closure would not)
    c = baccarat_counter(3)
    copy = pickle.loads(pickle.dumps(resolve("dragon-bonus-player,egalite-8,natural9-banker,"
                                             "lucky6", "baccarat")))
    assert copy == resolve("dragon-bonus-player,egalite-8,natural9-banker,lucky6",
                           "baccarat")
    moved = pickle.loads(pickle.dumps(c))
    assert moved == c and moved.play_one(0) == c.play_one(0)


def test_count_takes_the_built_in_baccarat_bets(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "count", "--rules", "macau-baccarat", "--decks", "1", "--shoes",
                    "2", "--sidebets", "lucky6,dragon-bonus-player,dragon7,panda8,egalite-8",
                    "--jobs", "2")  # (on worker processes: the bets travel by pickle)
    sidebets = data["sidebets"]
    assert isinstance(sidebets, dict)
    assert list(sidebets) == ["lucky6", "dragon-bonus-player", "dragon7", "panda8",
                              "egalite-8"]
    for figures in sidebets.values():
        assert set(figures) >= {"share_bet", "ev_per_round_bet", "win_per_100"}


@pytest.mark.slow
def test_the_blackjack_realised_wins_agree_with_the_exact_evs_within_the_se() -> None:
    # the same for 21+3, lucky-ladies and buster on a short seeded blackjack run (few bets:
    # a loose check, the baccarat one above is the tight one)
    result = runs.blackjack_count(counter(seed=4), rounds=60)
    assert result.sidebets is not None
    for got in result.sidebets.values():
        gap = got.realised_per_100.value - got.win_per_100.value
        se = math.hypot(got.realised_per_100.se, got.win_per_100.se)
        assert got.share_bet == 0 or abs(gap) <= 3 * se + 1e-9


@pytest.mark.slow
def test_a_counter_with_side_bets_travels_to_a_worker_and_deals_the_same() -> None:
    c = counter("21+3,buster", seed=6)
    copy = pickle.loads(pickle.dumps(c))
    assert copy.sidebets == c.sidebets
    assert copy.play_one(0) == c.play_one(0)


@pytest.mark.slow
def test_the_run_is_the_same_on_worker_processes() -> None:
    c = counter("21+3,buster", seed=6)
    alone = runs.blackjack_count(c, rounds=30)
    with executor(2) as pool:
        shared = runs.blackjack_count(c, rounds=30, pool=pool)
    assert alone.sidebets == shared.sidebets


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert run([*args, "--json"]) == 0
    out, _err = capsys.readouterr()
    data: dict[str, object] = json.loads(out)
    return data


@pytest.mark.slow
def test_count_json_gains_each_bets_share_ev_and_win_per_100(
        capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "count", "--rules", "deluxe", "--decks", "1", "--rounds", "12",
                    "--sidebets", "21+3,buster", "--jobs", "1", "--yes")
    sidebets = data["sidebets"]
    assert isinstance(sidebets, dict) and list(sidebets) == ["21+3", "buster"]
    for figures in sidebets.values():
        assert set(figures) >= {"share_bet", "ev_per_round_bet", "win_per_100"}
        assert set(figures["win_per_100"]) == {"value", "se"}
    plain = run_json(capsys, "count", "--rules", "deluxe", "--decks", "1", "--rounds", "12",
                     "--jobs", "1", "--yes")
    assert "sidebets" not in plain


def test_baccarat_count_takes_side_bets_of_its_own_game_only(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["count", "--rules", "macau-baccarat", "--shoes", "1", "--sidebets",
                "21+3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "blackjack bet" in err[0]


@pytest.mark.parametrize(("args", "message"), [
    (["--sidebets", "nope"], "unknown side bet 'nope'"),
    (["--sidebets", "21+3,21+3"], "named twice"),
    (["--sidebets", ","], "give side bets' names"),
])
def test_bad_side_bets_are_one_error_line(args: list[str], message: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["count", "--rules", "deluxe", "--rounds", "5", "--yes", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and message in err[0]


def test_a_side_bet_round_records_what_a_replay_needs() -> None:
    r = SideBetRound((0.1,), (None,), (1, 2), (3,))
    assert r.before == (1, 2) and r.dealt == (3,)
