"""The shoe procedure a counted run deals (``strategy_calc/rules/shoe.py``,
``strategy_calc/counting/dealing.py``): the cut card's range, burns, the shown-card burn,
demonstration rounds, the last-round rule and a continuous shuffler. Each test is named
after the rule it checks (RULES.md: Macau 1983 Art. 2, Deluxe "Decks", baccarat Art. 2-3,
7.2); the expected figures are worked out by hand or enumerated in the test.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from oracle_round import Chart, RoundOracle
from typer.testing import CliRunner

import strategy_calc as sc
from strategy_calc.actions import Action
from strategy_calc.baccarat.odds import BETS, POINTS, RANKS, analyse_counts
from strategy_calc.blackjack.playout import RoundCards, RoundPlan, play_round
from strategy_calc.cards import SUITS, Card, FaceShoe, Rank, Shoe, parse_cards
from strategy_calc.cli import app
from strategy_calc.cli.root import routed
from strategy_calc.counting import baccarat as baccarat_count
from strategy_calc.counting import counter as count
from strategy_calc.counting import runs
from strategy_calc.counting.dealing import DealtShoe
from strategy_calc.counting.sampling import shoe_rng
from strategy_calc.rules import baccarat_rules
from strategy_calc.rules.shoe import ShoeProcedure, shoe_procedure

TOL = 1e-12
runner = CliRunner()


def _rounds_dealt(procedure: ShoeProcedure, n: int, size: int, draw: random.Random,
                  least: int = 0) -> int:
    """Rounds a shoe of ``n`` cards deals when every round takes ``size`` cards."""
    shoe = DealtShoe(procedure, list(range(n)), draw, value=lambda c: 1 + c % 10)
    shoe.open()
    rounds = 0
    while shoe.next_round(least):
        shoe.pos += size
        rounds += 1
    return rounds


# ------------------------------------------------------------- the cut card's range


def test_macau_s_cut_card_between_the_last_20_and_30_cards_is_placed_uniformly() -> None:
    """Art. 2: the cut card goes between the last 20 and 30 cards, drawn uniformly for each
    shoe. A 52-card shoe, 2 cards burnt at the start and 1 before every round, each round 5
    cards: round j (from 0) starts while 50 - 6j cards are left, more than the cut card's
    c, so a shoe deals ceil((50 - c) / 6) rounds. Enumerated here over c = 20..30: 5
    rounds for c = 20..25, 4 for c = 26..30, so P(5 rounds) = 6/11. 4,400 seeded shoes
    must find every place about equally often and 5 rounds in 6/11 of them (4 SE)."""
    procedure = ShoeProcedure("cut_card", (20, 30), "ruleset", burn_start=2, burn_per_round=1)
    exact: Counter[int] = Counter()
    for c in range(20, 31):
        rounds, left = 0, 50
        while left > c:
            rounds, left = rounds + 1, left - 6
        exact[rounds] += 1
    assert exact == {5: 6, 4: 5}  # (the hand count above)
    shoes, places, seen = 4400, Counter[int](), Counter[int]()
    for i in range(shoes):
        draw = random.Random(f"cut/{i}")
        places[DealtShoe(procedure, list(range(52)), random.Random(f"cut/{i}"),
                         value=lambda c: 1).cut] += 1
        seen[_rounds_dealt(procedure, 52, 5, draw)] += 1
    assert set(places) == set(range(20, 31))
    for c in range(20, 31):  # each place 1/11 of the shoes
        p = 1 / 11
        assert abs(places[c] / shoes - p) < 4 * math.sqrt(p * (1 - p) / shoes)
    assert set(seen) == {4, 5}
    p = exact[5] / 11
    assert abs(seen[5] / shoes - p) < 4 * math.sqrt(p * (1 - p) / shoes)


def test_a_fixed_cut_card_draws_nothing_from_the_shoe_s_random_source() -> None:
    """A one-place range (``--cut-card``, baccarat's 14) leaves the random source as the
    shuffle left it, so fixed-cut runs deal as before the procedure was a rule."""
    draw = random.Random(3)
    before = draw.getstate()
    DealtShoe(ShoeProcedure("cut_card", (14, 14), "ruleset"), [0] * 52, draw, lambda c: 1)
    assert draw.getstate() == before


def test_the_ruleset_s_procedure_is_dealt_by_default_and_the_flags_override_its_cut_card(
) -> None:
    """Every counted run deals its ruleset's procedure unless ``--penetration`` or
    ``--cut-card`` moves the cut card (the burns stay the ruleset's); macau-1983 at 6
    decks: the cut card 20-30 from the end, 6 cards burnt (as many as decks), 1 a round."""
    macau = sc.blackjack_rules("macau-1983")
    p = count.blackjack_counter(macau).shoe_procedure
    assert (p.cut_card_from_end, p.cut_card_from, p.burn_start, p.burn_per_round) == (
        (20, 30), "ruleset", 6, 1)
    p = count.blackjack_counter(macau, penetration=0.75).shoe_procedure
    assert (p.cut_card_from_end, p.cut_card_from, p.burn_start) == ((78, 78), "--penetration", 6)
    p = count.blackjack_counter(macau, cut_card=52).shoe_procedure
    assert (p.cut_card_from_end, p.cut_card_from) == ((52, 52), "--cut-card")
    assert count.blackjack_counter(sc.blackjack_rules("macau-1983", ["decks=8"])
                                   ).shoe_procedure.burn_start == 8
    deluxe = count.blackjack_counter(sc.blackjack_rules("deluxe")).shoe_procedure
    assert (deluxe.cut_card_from_end, deluxe.cut_card_from, deluxe.burn_shown_card) == (
        (104, 104), "default", True)  # (not stated: 75% of 416 cards dealt)
    bac = shoe_procedure(baccarat_rules(), 416, default_cut=14)
    assert (bac.cut_card_from_end, bac.burn_shown_card) == ((14, 14), True)


# ------------------------------------------------------------- the last round


def test_the_round_in_which_the_cut_card_comes_out_is_the_shoe_s_last() -> None:
    """Deluxe: "When the cut card comes out, that round is the shoe's last". 20 cards, the
    cut card 5 from the end (behind card 15), rounds of 4: rounds start with 20, 16, 12 and
    8 cards left; the fourth takes cards 13-16, out comes the cut card, and it is the last
    (4 are left, no more than 5). Baccarat's option "one more round" deals a fifth."""
    last = ShoeProcedure("cut_card", (5, 5), "ruleset")
    assert _rounds_dealt(last, 20, 4, random.Random(0)) == 4
    one_more = ShoeProcedure("cut_card", (5, 5), "ruleset", rounds_after_cut_card=1)
    assert _rounds_dealt(one_more, 20, 4, random.Random(0)) == 5
    # ... but never a round that would need more cards than are left (a baccarat hand
    # takes up to six: no round with five or fewer)
    assert _rounds_dealt(one_more, 20, 4, random.Random(0), least=5) == 4
    # a cut card exactly at a round's end: 5 rounds of 4 from 24 cards, the cut card 4
    # from the end comes out with the fifth round's last card
    assert _rounds_dealt(ShoeProcedure("cut_card", (4, 4), "ruleset"), 24, 4,
                         random.Random(0)) == 5


# ------------------------------------------------------------- burns


def test_the_shown_card_is_seen_and_as_many_cards_as_its_value_are_burnt_unseen() -> None:
    """Deluxe and baccarat: the first card is shown and that many cards burnt face down
    (tens and faces 10); then ``burn_start``; then ``burn_per_round`` before each round."""
    procedure = ShoeProcedure("cut_card", (3, 3), "ruleset", burn_start=2, burn_per_round=1,
                              burn_shown_card=True)
    cards = [7, 9, 9, 9, 9, 9, 9, 9, 4, 4, 0, 1, 2, 3, 5, 6, 8, 8, 8, 8]
    shoe = DealtShoe(procedure, cards, random.Random(0), value=lambda c: c or 10)
    assert shoe.open() == [7]  # seen
    assert shoe.pos == 1 + 7 + 2  # the seven burnt, then the two of burn_start
    assert shoe.next_round() and shoe.pos == 11  # one more burnt before the round
    tens = DealtShoe(procedure, [0, *range(19)], random.Random(0), value=lambda c: c or 10)
    assert tens.open() == [0] and tens.pos == 1 + 10 + 2


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_macau_burns_a_card_before_the_dealer_s_second_card_and_one_when_he_must_draw(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Art. 2, a shoe game: "another [card is burned] before the dealer's second card (one
    more after it when the dealer must draw)". T,7 stands against a 6: T, 6 up, 7; a card
    burnt (position 3); the dealer's second card T (16) makes him draw, so another burnt
    (5); the 5 gives him 21: seven cards, burnt at 3 and 5. With the dealer on soft 17
    (6,A) nothing more is burnt: five cards, burnt at 3. Without the rule: T,6,7,T,5, five
    cards. A counted shoe sees every card but the burnt ones."""
    plan = RoundPlan(0.0, None, {(6, 7, 10, False): Action.STAND}, {6: bytes([4]) * 4096},
                     frozenset())
    macau = sc.blackjack_rules("macau-1983")  # 6 decks: the dealer's second card comes late
    burnt: list[int] = []
    assert play_round(macau, parse_cards("T,6,7,9,T,9,5"), 0, plan, burnt=burnt) == 7
    assert burnt == [3, 5]
    burnt = []
    assert play_round(macau, parse_cards("T,6,7,9,A,9"), 0, plan, burnt=burnt) == 5
    assert burnt == [3]
    plain = sc.blackjack_rules("macau-1983", ["burn_before_dealer_cards=false"])
    assert play_round(plain, parse_cards("T,6,7,T,5"), 0, plan) == 5
    counter = count.blackjack_counter(sc.blackjack_rules("macau-1983", ["decks=2"]), seed=4,
                                      moment_every=10**6)
    seen: list[tuple[list[Card], int, int, list[int]]] = []
    original = count.BlackjackCounter.deal_round

    def spy(self: count.BlackjackCounter, cards: list[Card], pos: int, plan: RoundPlan,
            shoe: Shoe | None = None, burnt: list[int] | None = None,
            record: RoundCards | None = None, *rest: object) -> int:
        end = original(self, cards, pos, plan, shoe, burnt, record, *rest)  # type: ignore[arg-type]
        seen.append((cards, pos, end, list(burnt or [])))
        return end

    monkeypatch.setattr(count.BlackjackCounter, "deal_round", spy)
    records = counter.play_one(0)
    cards, start, end, burns = seen[0]
    shown = [c for i, c in enumerate(cards[start:end], start) if i not in burns]
    running = counter.system.initial_running_count(2) + sum(map(counter.system.tag_card, shown))
    assert burns and records[1].tc == counter.system.true_count(running, 104 - len(shown))


def _fixed_chart(rules: sc.BlackjackRules, full: tuple[int, ...]
                 ) -> tuple[Chart, dict[int, object]]:
    """The chart and total-dependent play a basic-strategy counter makes off the top of
    ``full`` (the oracle's total-dependent play of the full shoe)."""
    top = RoundOracle(rules, full)
    td = {up: top.td_play(up) for up in range(1, 11) if full[up - 1] > 0}
    game = sc.analyse_game(rules, shoe=Shoe.from_counts(full, rules.decks))
    return Chart(game.hard, game.soft, game.pairs, game.insure), td


def _fixed_chart_ev(rules: sc.BlackjackRules, made: tuple[Chart, dict[int, object]],
                    now: tuple[int, ...]) -> Fraction:
    """The oracle's EV of a round from ``now`` played by ``made`` (:func:`_fixed_chart`)."""
    chart, td = made
    oracle = RoundOracle(rules, now)
    oracle._td.update(td)
    return oracle.analyse("chart", chart).ev


TINY = (2, 1, 1, 1, 1, 1, 1, 2, 2, 6)  # 18 cards, ace first (tests/counting/test_count.py's)


@pytest.mark.oracle
def test_cards_burnt_unseen_at_random_leave_a_round_s_ev_unchanged() -> None:
    """Why a burn changes no round's EV (exchangeability): with one card removed unseen
    at random, the next round's cards have the law of the full shoe's, so the EV averaged
    over the removed card is the full shoe's EV, exactly. Deluxe rules, the tiny 18-card
    shoe, the chart made off its top, in fractions by the oracle (from the rules text)."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    small = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # 13 cards: an ace, 2..9, four tens
    made = _fixed_chart(rules, small)
    n = sum(small)
    averaged = sum((Fraction(k, n) * _fixed_chart_ev(
        rules, made, tuple(c - (i == r) for i, c in enumerate(small)))
        for r, k in enumerate(small) if k), Fraction(0))
    assert averaged == _fixed_chart_ev(rules, made, small)


@pytest.mark.oracle
def test_a_counted_round_after_the_shown_card_burn_has_the_exact_ev_of_the_cards_unseen(
) -> None:
    """Deluxe's shown-card burn on the tiny 18-card shoe (one round a shoe): the round's EV
    is the oracle's for the shoe less the shown card, the burnt cards being unseen; the
    shown card is the first of the seeded shuffle (shoe i of seed s shuffled by
    random.Random("s/i"), docs/MODEL.md)."""
    rules = sc.blackjack_rules("deluxe", ["decks=1"])
    counter = count.blackjack_counter(rules, shoe=Shoe.from_counts(TINY), cut_card=17,
                                      seed=3)
    assert counter.shoe_procedure.burn_shown_card
    # (the cut card 6 from the end, nearer than a run allows, so that a round is left
    # after up to eleven cards shown and burnt)
    counter = replace(counter, procedure=replace(counter.shoe_procedure,
                                                 cut_card_from_end=(6, 6)))
    cache: dict[int, float] = {}
    made = _fixed_chart(rules, TINY)
    for i in range(4):
        cards = [Card(rank, SUITS[k % 4]) for rank in Rank for k in range(TINY[rank - 1])]
        shoe_rng(3, i).shuffle(cards)
        shown = int(cards[0].rank)
        record = counter.play_one(i)[0]
        if shown not in cache:
            now = tuple(c - (r + 1 == shown) for r, c in enumerate(TINY))
            cache[shown] = float(_fixed_chart_ev(rules, made, now))
        assert abs(record.ev - cache[shown]) < TOL
        assert record.tc == counter.system.true_count(
            counter.system.initial_running_count(1) + counter.system.tag_card(cards[0]),
            sum(TINY) - 1)  # (the count saw the shown card, not the burnt ones)


def test_baccarat_hands_after_burns_and_demonstration_rounds_are_valued_for_the_cards_seen(
) -> None:
    """Baccarat Art. 2-3, worked here card by card from the seeded shuffle: the first card
    shown, its value burnt (tens and faces 10), two demonstration rounds seen without
    bets, a card burnt before every round, the cut card 10-20 from the end (drawn after
    the shuffle), one more round after the cut card's. Each hand bet on is valued for
    every card not seen; the counter's sums of positive EVs must be these."""
    rules = baccarat_rules("macau-baccarat", ["decks=1", "demo_rounds=2", "burn_per_round=1",
                                              "rounds_after_cut_card=1",
                                              "cut_card_from_end=10-20"])
    result = baccarat_count.baccarat_count(rules, shoes=1, seed=9)  # (a valid run)
    assert result.shoe_procedure.demo_rounds == 2
    counter = baccarat_count.linear_counter(rules, 10, 9, result.shoe_procedure)
    for i in range(3):
        cards = [r for r in range(len(RANKS)) for _ in range(4)]
        draw = shoe_rng(9, i)
        draw.shuffle(cards)
        cut = draw.randint(10, 20)
        known = list(FaceShoe.full(1).face_counts)
        known[cards[0]] -= 1
        pos = 1 + (POINTS[cards[0]] or 10)
        hands, demos, more = 0, 2, None
        win = [0.0] * len(BETS)
        while True:
            if more is None and 52 - pos <= cut:
                more = 1
            if more is not None:
                if more == 0:
                    break
                more -= 1
            if 52 - pos - 1 <= 5:
                break
            pos += 1  # the burn before the round
            if not demos:
                ev = analyse_counts(rules, known).ev
                win = [w + max(ev[b], 0.0) for w, b in zip(win, BETS, strict=True)]
                hands += 1
            demos = max(0, demos - 1)
            start = pos
            pos = baccarat_count.baccarat_deal(cards, pos)[0]
            for card in cards[start:pos]:
                known[card] -= 1
        shoe = counter.play_one(i)
        assert shoe.hands == hands
        assert all(abs(a - b) < TOL for a, b in zip(shoe.win, win, strict=True))


# ------------------------------------------------------------- a continuous shuffler


@pytest.mark.slow
def test_a_continuous_shuffler_s_reload_cycle_is_a_shoe_dealt_until_the_buffer_is_full(
) -> None:
    """The model (docs/MODEL.md): each round's cards wait, seen, in the buffer; when it
    holds at least B cards they all go back and the machine is shuffled. From a full
    machine, rounds are dealt while fewer than B cards are out, i.e. while more than
    n - B are left: the same rounds, card for card, as a shoe with the cut card n - B
    from the end and no burns, whatever the ruleset burns under a cut card."""
    rules = sc.blackjack_rules("macau-1983", ["decks=1", "single_deck_one_round=false",
                                              "shuffle=continuous",
                                              "continuous_buffer_cards=26"])
    machine = count.blackjack_counter(rules, seed=2)
    assert machine.shoe_procedure.cut_card_from_end == (26, 26)
    shoe = count.blackjack_counter(sc.blackjack_rules(
        "macau-1983", ["decks=1", "single_deck_one_round=false", "burn_start=0",
                       "burn_per_round=0", "burn_before_dealer_cards=false"]),
        cut_card=26, seed=2)
    assert machine.play(range(3)) == shoe.play(range(3))


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_a_continuous_shuffler_returning_every_round_deals_every_round_off_the_top() -> None:
    """Art. 7.2: the cards go back into the machine after every round (buffer 0): every
    round is dealt from the full shoe, so its exact EV is the off-the-top EV, a count
    never moves, and the cut-card effect is exactly 0."""
    rules = sc.blackjack_rules("deluxe", ["decks=1", "shuffle=continuous"])
    result = runs.blackjack_count(count.blackjack_counter(rules, seed=5), rounds=12)
    assert (result.rounds, result.shoes) == (12, 12)
    assert result.ev_per_round.value == result.ev_off_the_top
    assert (result.cut_card_effect.value, result.cut_card_effect.se) == (0.0, 0.0)
    assert [row.tc for row in result.by_true_count] == [0]


# ------------------------------------------------------------- bad values


@pytest.mark.parametrize(("args", "says"), [
    (["count", "--rules", "macau-1983", "--set", "cut_card_from_end=5-10"],
     "the cut card must leave between 20"),
    (["count", "--rules", "macau-1983", "--set", "cut_card_from_end=30-20"],
     "cut_card_from_end must be"),
    (["count", "--rules", "deluxe", "--set", "cut_card_from_end=-3"], "cut_card_from_end"),
    (["count", "--rules", "deluxe", "--set", "burn_start=many"], "burn_start"),
    (["count", "--rules", "deluxe", "--set", "burn_per_round=-1"], "burn_per_round"),
    (["count", "--rules", "deluxe", "--set", "rounds_after_cut_card=2"],
     "rounds_after_cut_card"),
    (["count", "--rules", "deluxe", "--set", "shuffle=csm"], "shuffle"),
    (["count", "--rules", "deluxe", "--set", "shuffle=continuous", "--penetration", "0.5"],
     "no cut card"),
    (["count", "--rules", "deluxe", "--decks", "1", "--set", "shuffle=continuous", "--set",
      "continuous_buffer_cards=40"], "continuous_buffer_cards 40"),
    (["count", "--rules", "macau-baccarat", "--set", "demo_rounds=4"], "demo_rounds"),
    (["count", "--rules", "macau-baccarat", "--set", "cut_card_from_end=400-410"],
     "leaves no hand"),
    (["edge", "--rules", "deluxe", "--set", "continuous_buffer_cards=1.5"],
     "continuous_buffer_cards"),
])
def test_a_bad_shoe_procedure_value_is_one_error_line(args: list[str], says: str) -> None:
    result = runner.invoke(app, routed([*args, "--rounds", "1"] if "--rules" in args and
                                       "macau-baccarat" not in args and args[0] == "count"
                                       else args))
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and says in lines[0]


@pytest.mark.slow  # (seconds: out of the developer's tier)
def test_count_json_says_which_procedure_it_dealt() -> None:
    """``count --json``'s ``shoe_procedure`` (a contract): the procedure actually dealt,
    and where its cut card came from."""
    result = runner.invoke(app, ["count", "--rules", "macau-1983", "--decks", "1", "--set",
                                 "single_deck_one_round=false", "--rounds", "3",
                                 "--moment-every", "1000", "--penetration", "0.5", "--json"])
    assert result.exit_code == 0, result.stderr
    got = json.loads(result.stdout)["shoe_procedure"]
    assert got == {"shuffle": "cut_card", "cut_card_from_end": [26, 26],
                   "cut_card_from": "--penetration", "burn_start": 1, "burn_per_round": 1,
                   "burn_shown_card": False, "burn_before_dealer_cards": True,
                   "demo_rounds": 0, "rounds_after_cut_card": 0,
                   "continuous_buffer_cards": None}
    bac = runner.invoke(app, routed(["count", "--rules", "macau-baccarat", "--decks", "1",
                                     "--shoes", "1", "--json"]))
    assert json.loads(bac.stdout)["shoe_procedure"]["burn_shown_card"] is True


def test_edge_and_hand_under_a_continuous_shuffler_give_the_off_the_top_ev_and_say_so(
) -> None:
    """``edge`` and ``hand`` take the shuffler: their figures are the full shoe's (every
    round's exact EV with every round's cards back at once, the first round's after each
    reload otherwise, as the reload-cycle test above shows), and a note says which."""
    def run(*args: str) -> dict[str, object]:
        result = runner.invoke(app, [*args, "--rules", "deluxe", "--decks", "1", "--json"])
        assert result.exit_code == 0, result.stderr
        return dict(json.loads(result.stdout))

    plain = run("edge")
    for buffer, says in (("0", "every round's exact EV"), ("20", "first round after each")):
        machine = run("edge", "--set", "shuffle=continuous", "--set",
                      f"continuous_buffer_cards={buffer}")
        assert machine.pop("ev") == plain["ev"] and says in str(machine["shoe_note"])
    assert "shoe_note" not in plain
    hand = run("hand", "T,6", "--vs", "T", "--set", "shuffle=continuous")
    assert hand["ev"] == run("hand", "T,6", "--vs", "T")["ev"]
    assert any("out of play" in n for n in hand["notes"])  # type: ignore[attr-defined]
