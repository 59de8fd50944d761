"""Macau rule 9 on split hands: both hands' suited 6-7-8 bonuses come from one shoe.

Issue 12 (the last part of item 1): the distribution of a split 6, 7 or 8's round
treated the two hands' suited chances as independent. One shoe makes them depend on
each other: a 6 of hand 2's suit that hand 1 draws is one hand 2 cannot, and two pair
cards of unknown suit share one only as often as the shoe allows. With one 6, 7 and 8
of each suit, both hands of a split 7 are suited with chance 1/144 given the ranks,
where independent 1/16 chances give 1/256.

Each case compares the engine's joint distribution of one split round, bin by bin, with
``oracle_round``'s casino-order brute force over the real suited cards (hand 1 played
out, then hand 2, then the dealer; each hand deciding by its own cards, the up card
and the pair, knowing its own suits), on a 2-deck ENHC shoe whose 6s, 7s and 8s are
spread unevenly over the suits, so that the two pair cards may share a suit, and a
suit may lack a rank.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np
import pytest
from oracle_round import RoundOracle

from strategy_calc import engine
from strategy_calc.blackjack.distributions import HIST_OFFSET, HIST_SIZE
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules, blackjack_rules

TOL = 1e-12
COUNTS = (1, 1, 1, 1, 1, 4, 4, 4, 1, 5)
# 6s, 7s, 8s by suit (spades, hearts, diamonds, clubs)
ROWS = ((2, 1, 1, 0), (2, 1, 0, 1), (1, 2, 0, 1))
SUITS = "shdc"


def _rules(*sets: str) -> BlackjackRules:
    return blackjack_rules("macau-1983", ["decks=2", *sets])


def _shoe() -> Shoe:
    full = Shoe.from_counts(COUNTS, 2)
    rows = list(full.suits)
    for j in range(3):
        rows[5 + j] = ROWS[j]
    return Shoe(2, COUNTS, tuple(rows))


def _oracle(rules: BlackjackRules, pair: tuple[Card, Card], up: Card) -> dict[int, Fraction]:
    """The split round's distribution, by net result in hundredths of a unit; pair cards
    of unknown suit are averaged over the deals of their ranks, by their numbers of ways."""
    oracle = RoundOracle(rules, COUNTS, suits=ROWS)

    def kinds(card: Card) -> list[int]:
        return [k for k, (r, s) in enumerate(oracle.kinds)
                if r == int(card.rank) and (card.suit is None or s == card.suit)]

    n = sum(oracle.shoe0) - 3
    total: dict[int, Fraction] = {}
    weight = Fraction(0)
    for (p1, up_k, p2), ways in oracle.initial_infos().items():
        if p1 in kinds(pair[0]) and p2 in kinds(pair[1]) and up_k in kinds(up):
            info = (p1, up_k, p2)
            dist = oracle.action_distribution(
                info, "split", oracle._policies(info, "split", "optimal", None))
            weight += ways
            for net, count in dist.items():
                key = round(Fraction(net, oracle.scale) * 100)
                total[key] = total.get(key, Fraction(0)) + ways * Fraction(count,
                                                                             oracle.fact[n])
    return {k: v / weight for k, v in total.items()}


def _engine(rules: BlackjackRules, pair: tuple[Card, Card], up: Card) -> dict[int, float]:
    base = _shoe().remove([up])
    conditioning = engine.Conditioning.of(rules)
    split = SplitPlan.of(rules, pair[0].rank, conditioning)
    first, second, suits = split.round_params(base, list(pair))
    assert suits is not None
    hist = np.zeros(HIST_SIZE)
    engine.split_distribution(base, pair[0].rank, up.rank, first, None, hist, None, second,
                              suits)
    return {i - HIST_OFFSET: float(hist[i]) for i in range(HIST_SIZE) if hist[i] > 0}


def _card(text: str) -> Card:
    rank = {"T": Rank.TEN, "A": Rank.ACE}.get(text[0]) or Rank(int(text[0]))
    return Card(rank, text[1] if len(text) > 1 else None)


def assert_same(got: dict[int, float], want: dict[int, Fraction]) -> None:
    for key in sorted(set(got) | set(want)):
        assert abs(got.get(key, 0.0) - float(want.get(key, 0))) < TOL, (key, got.get(key),
                                                                        want.get(key))


CASES = [
    ("7s", "7s", "T"),   # one suit: both hands need the 6 and the 8 of spades (2 and 1)
    ("7s", "7h", "T"),   # two suits
    ("7", "7", "T"),     # suits unknown: they share one with chance 2/12
    ("6", "6", "2"),
    ("8h", "8", "7s"),   # an up card of a suited rank leaves the shoe by its suit
]


@pytest.mark.slow
@pytest.mark.parametrize(("one", "two", "up"), CASES)
def test_both_split_hands_draw_their_suited_bonus_from_one_shoe(one: str, two: str,
                                                                up: str) -> None:
    rules = _rules()
    pair, dealer = (_card(one), _card(two)), _card(up)
    want = _oracle(rules, pair, dealer)
    assert want.get(600, 0) > 0  # both suited: +3 each
    assert_same(_engine(rules, pair, dealer), want)


def test_a_whole_round_refuses_suits_it_would_take_as_spread_evenly() -> None:
    """``analyse_game`` values the two-card 6-7 / 6-8 / 7-8 starts with each rank spread
    evenly over the suits (suits of removed cards unknown); a shoe that says otherwise
    is refused rather than mis-valued."""
    import strategy_calc as sc
    from strategy_calc.cards import CardError

    with pytest.raises(CardError, match="by rank"):
        sc.analyse_game(_rules(), shoe=_shoe())


@pytest.mark.slow
def test_a_split_six_seven_or_eight_sees_the_up_cards_suit() -> None:
    """An up card of unknown suit is still a card the player sees: a split 7 against a 6
    knows whether the 6 of its own suit is the up card (then it cannot make a suited
    6-7-8). The split's EV is the mean over the up card's suits of the split played
    knowing it, which the brute force gives deal by deal (averaged over the deals of
    those ranks by their numbers of ways); deciding without the up card's suit is
    worth 1.1e-3 less for 7,7 vs 6 on this shoe."""
    import strategy_calc as sc

    counts = (1, 1, 2, 2, 1, 4, 4, 4, 1, 4)  # one 6, 7, 8 of each suit
    rows = list(Shoe.from_counts(counts, 2).suits)
    rows[5:8] = [(1, 1, 1, 1)] * 3
    shoe = Shoe(2, counts, tuple(rows))
    rules = _rules()
    oracle = RoundOracle(rules, counts)
    for pair, up in ((7, 6), (8, 6), (6, 7)):
        total, ways = Fraction(0), 0
        for info, w in oracle.initial_infos().items():
            if tuple(oracle.rank_of[k] for k in info) == (pair, up, pair):
                total += w * oracle.optimal_values(info)["split"]
                ways += w
        got = sc.analyse_hand(f"{pair},{pair}", str(up), rules, shoe=shoe).ev["split"]
        assert got is not None and abs(got - float(total / ways)) < TOL, (pair, up)


def test_a_shoe_whose_suit_row_is_short_of_its_count_is_refused() -> None:
    """Found in review: a hand-built shoe with four 6s but no 6 of any suit in its suit
    row valued 7,7 vs 6 at 0 (no suit for the up card to take); it is an error now."""
    import strategy_calc as sc
    from strategy_calc.cards import CardError

    rows = list(Shoe.full(1).suits)
    rows[5] = (0, 0, 0, 0)
    shoe = Shoe(1, Shoe.full(1).counts, tuple(rows))
    with pytest.raises(CardError, match="suit row"):
        sc.analyse_hand("7,7", "6", sc.blackjack_rules("macau-1983", ["decks=1"]), shoe=shoe)


def _removal_scenarios(removed: tuple[int, int, int]
                       ) -> list[tuple[Fraction, tuple[int, ...], tuple[tuple[int, ...], ...]]]:
    """The real shoes behind COUNTS/ROWS less ``removed[j]`` cards of rank 6 + j taken out
    without a suit (uniformly from that rank's cards), with their chances."""
    per_rank = []
    for j in range(3):
        row, k = ROWS[j], removed[j]
        options = []
        for take in itertools.product(*(range(min(r, k) + 1) for r in row)):
            if sum(take) == k:
                p = Fraction(math.prod(math.comb(r, t) for r, t in zip(row, take, strict=True)),
                             math.comb(sum(row), k))
                options.append((p, tuple(r - t for r, t in zip(row, take, strict=True))))
        per_rank.append(options)
    out = []
    for combo in itertools.product(*per_rank):
        counts = list(COUNTS)
        for j in range(3):
            counts[5 + j] = sum(combo[j][1])
        out.append((math.prod(c[0] for c in combo), tuple(counts),
                    tuple(c[1] for c in combo)))
    return out


def _engine_policy(rules: BlackjackRules, base: Shoe, cards: list[Card], up: Card
                   ) -> Callable[[tuple[tuple[int, str | None], ...]], str]:
    """A split hand's decisions as the engine plays them (engine.split_play), for the
    oracle: its node codes, and at a split 6/7/8's two-card node the code of its suits."""
    from strategy_calc.blackjack.split.plan import SplitPlan

    table = engine.node_table()
    left = base.remove(cards)
    split = SplitPlan.of(rules, cards[0].rank, engine.Conditioning.of(rules))
    params = split.hand_params(base, cards)
    codes, suited = engine.split_play(base, cards[0].rank, up.rank, params)
    suits = [s for s in SUITS if left.suit_fraction(cards[0].rank, s) > 0]

    def policy(held: tuple[tuple[int, str | None], ...]) -> str:
        ranks = [r for r, _ in held]
        hard = sum(ranks)
        total = hard + 10 if 1 in ranks and hard <= 11 else hard
        if len(ranks) == 1:
            return "hit"
        if total >= 21:
            return "stand"
        code = codes[table.node(ranks)]
        start = int(cards[0].rank)
        if len(ranks) == 2 and params.split_suits and sorted(ranks) != [start, start] \
                and all(6 <= r <= 8 for r in ranks):
            # (the oracle keeps a hand's cards sorted: find the pair card)
            pair = next(c for c in held if c[0] == start)
            other = next(c for c in held if c is not pair)
            if pair[1] is None or other[1] is None:  # suits forgotten: the brute force
                # saw that they cannot matter, and the engine's cases then decide alike
                found = {suited[8 * (other[0] - 6) + 2 * k + j]
                         for k in range(len(suits)) for j in (0, 1)} - {0}
                assert len(found) == 1
                code = found.pop()
            else:
                k = suits.index(pair[1]) if cards[0].suit is None else 0
                code = suited[8 * (other[0] - 6) + 2 * k + (other[1] != pair[1])]
        if len(ranks) == 2 and code & 1 and rules.double_after_split and rules.may_double(total):
            return "double"
        return "hit" if code & 2 else "stand"
    return policy


@pytest.mark.slow
@pytest.mark.parametrize(("removed", "one", "two", "up"),
                         [((0, 0, 2), "7", "7", "T"), ((3, 0, 0), "8h", "8", "7")])
def test_cards_taken_out_without_a_suit_leave_the_suits_averaged_exactly(
        removed: tuple[int, int, int], one: str, two: str, up: str) -> None:
    """A shoe whose 6s, 7s or 8s lost cards of unknown suit: the engine takes the suit rows
    as the pool (Shoe.from_counts, the split round's moments). The brute force averages
    over every real shoe those removals can leave, with its chance, each played by the
    engine's own decisions (the player does not know which suits went, so the decisions
    are the same in every one of them); bin by bin, the distributions agree."""
    rules = _rules()
    pair, dealer = (_card(one), _card(two)), _card(up)
    counts = list(COUNTS)
    for j in range(3):
        counts[5 + j] -= removed[j]
    rows = list(_shoe().suits)
    shoe = Shoe(2, tuple(counts), tuple(rows)).remove([dealer])
    want: dict[int, Fraction] = {}
    weight = Fraction(0)
    for prob, real, real_rows in _removal_scenarios(removed):
        oracle = RoundOracle(rules, real, suits=real_rows)
        policies = (("e1", _engine_policy(rules, shoe, [pair[0], pair[1]], dealer)),
                    ("e2", _engine_policy(rules, shoe, [pair[1], pair[0]], dealer)))
        n = sum(oracle.shoe0) - 3
        deals = math.perm(sum(oracle.shoe0), 3)
        for info, ways in oracle.initial_infos().items():
            cards = [oracle.kinds[k] for k in info]
            wanted = (pair[0], dealer, pair[1])
            if all(c[0] == int(w.rank) and (w.suit is None or c[1] == w.suit)
                   for c, w in zip(cards, wanted, strict=True)):
                dist = oracle.action_distribution(info, "split", policies)
                w = prob * Fraction(ways, deals)
                weight += w
                for net, count_ in dist.items():
                    key = round(Fraction(net, oracle.scale) * 100)
                    want[key] = want.get(key, Fraction(0)) + w * Fraction(count_, oracle.fact[n])
    want = {k: v / weight for k, v in want.items()}
    split = SplitPlan.of(rules, pair[0].rank, engine.Conditioning.of(rules))
    first, second, suits = split.round_params(shoe, list(pair))
    hist = np.zeros(HIST_SIZE)
    engine.split_distribution(shoe, pair[0].rank, dealer.rank, first, None, hist, None, second,
                              suits)
    assert_same({i - HIST_OFFSET: float(hist[i]) for i in range(HIST_SIZE) if hist[i] > 0},
                want)
