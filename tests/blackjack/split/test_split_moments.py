"""A split round's moments without its distribution (``engine.split_moments``).

The count needs E[X] and E[X^2] of every split round, not its histogram. The engine gets
them from each hand alone plus S = sum P(t1, t2) <D(t1 + t2), (r1 + 1)(r2 + 1)>, which
leaves out every end that busts on its original bet (the exchangeability argument is in
its docstring). Checked here against the joint enumeration of ``split_distribution``
(every end of hand 1, every end of hand 2 from what is left, the dealer against both),
which the whole-round brute force proves on tiny shoes (tests/blackjack/test_game_vs_oracle.py):
two derivations, one answer. The shoes are 2-deck ones, where the dealer cannot run out.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import strategy_calc as sc
from strategy_calc import engine
from strategy_calc.blackjack.distributions import HIST_OFFSET, HIST_SIZE
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.blackjack.split.values import split_values
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.counting import counter as count
from strategy_calc.counting import planner

TOL = 1e-12
# the histogram sums up to millions of terms for 2-2 against a 7: its own rounding
# (its mean is 4.5e-13 from the split tables' EV there, the moments' 1.3e-16)
HIST_TOL = 1e-11
XS = (np.arange(HIST_SIZE) - HIST_OFFSET) / 100.0

RULES = [
    ("deluxe", ("decks=2",)),                                          # peek, DAS
    ("deluxe", ("decks=2", "dealer_hits_soft_17=true", "double_on=9-11")),
    ("macau-1983", ("decks=2", "bonus_suited_678=0")),                 # ENHC all, NDAS, 7-7-7
    ("macau-1983", ("decks=2", "bonus_suited_678=0", "enhc_loses=original",
                    "double_after_split=true")),                       # the hands settle apart
]
PAIRS = [(2, 7), (8, 10), (1, 6), (7, 7), (9, 1), (3, 2)]


def _round(name: str, sets: tuple[str, ...], pair: int, up: int
           ) -> tuple[sc.BlackjackRules, Shoe, list[Card], engine.Conditioning]:
    rules = sc.blackjack_rules(name, list(sets))
    counts = list(Shoe.full(2).counts)
    counts[9] -= 3  # a shoe dealt from: three tens and a five gone
    counts[4] -= 1
    base = Shoe.from_counts(counts, 2).remove([Card(Rank(up))])
    return rules, base, [Card(Rank(pair)), Card(Rank(pair))], engine.Conditioning.of(rules)


def _joint_moments(base: Shoe, pair: int, up: int, first: engine.EngineParams,
                   second: engine.EngineParams, codes: memoryview | None,
                   cond: engine.Conditioning) -> tuple[float, float, float]:
    """E[X], E[X^2] and E[X 1{dealer blackjack}] of a split round from its joint
    distribution (``split_distribution``, proven by the brute force on tiny shoes)."""
    hist = np.zeros(HIST_SIZE)
    with_bj = np.zeros(HIST_SIZE) if cond is engine.Conditioning.ENHC else None
    engine.split_distribution(base, Rank(pair), Rank(up), first, codes, hist, None, second,
                              None, with_bj)
    total = hist + (with_bj if with_bj is not None else 0.0)
    return (float(total @ XS), float(total @ (XS * XS)),
            float(with_bj @ XS) if with_bj is not None else 0.0)


def _tables(rules: sc.BlackjackRules, base: Shoe, reference: Shoe, up: int,
            pairs: list[int], codes: memoryview, cond: engine.Conditioning,
            ) -> tuple[list[tuple[int, engine.EngineParams, engine.EngineParams]],
                       list[engine.SplitMomentTable]]:
    """Each pair's round parameters on ``base`` and its table made on ``reference``."""
    rounds, tables = [], []
    for pair in pairs:
        split = SplitPlan.of(rules, Rank(pair), cond)
        first, second, _ = split.round_params(base, [Card(Rank(pair))] * 2)
        table = engine.split_moment_table(reference, Rank(pair), Rank(up), first, codes, second)
        assert table is not None
        rounds.append((pair, first, second))
        tables.append(table)
    return rounds, tables


@pytest.mark.statistical
@pytest.mark.parametrize(("name", "sets"), RULES, ids=[f"{n}{i}" for i, (n, _) in enumerate(RULES)])
@pytest.mark.parametrize("chart", [False, True], ids=["own-play", "chart"])
def test_a_split_rounds_moments_equal_those_of_its_joint_distribution(
        name: str, sets: tuple[str, ...], chart: bool) -> None:
    # the chart's split-hand codes, as the count plays them (one counter for the rules)
    counter = (count.blackjack_counter(sc.blackjack_rules(name, list(sets)), cut_card=60)
               if chart else None)
    for pair, up in PAIRS:
        rules, base, cards, cond = _round(name, sets, pair, up)
        first, second, suits = SplitPlan.of(rules, cards[0].rank, cond).round_params(base, cards)
        assert suits is None
        codes = None
        if counter is not None:
            codes = memoryview(counter.planner.play_codes(Rank(up)))
        want = _joint_moments(base, pair, up, first, second, codes, cond)
        got = engine.split_moments(base, Rank(pair), Rank(up), first, codes, second)
        assert got is not None
        assert max(abs(g - w) for g, w in zip(got, want, strict=True)) < HIST_TOL, (pair, up)
        if codes is None:  # the mean is also the split EV of the split tables' recursion
            values = split_values(SplitPlan.of(rules, Rank(pair), cond), base, Rank(up))
            assert values is not None
            assert abs(got[0] - sum(values.optimal)) < TOL, (pair, up)


def test_split_moments_leave_suits_and_small_shoes_to_the_distribution() -> None:
    """Split 6s/7s/8s that see their suits are refused; a shoe the dealer could run out of
    gives None (the identities need every dealer hand complete)."""
    rules = sc.blackjack_rules("macau-1983", ["decks=2"])
    base = Shoe.full(2).remove([Card(Rank.TEN)])
    cond = engine.Conditioning.of(rules)
    split = SplitPlan.of(rules, Rank.SEVEN, cond)
    first, second, _suits = split.round_params(base, [Card(Rank.SEVEN)] * 2)
    with pytest.raises(ValueError, match="suits"):
        engine.split_moments(base, Rank.SEVEN, Rank.TEN, first, None, second)
    deluxe = sc.blackjack_rules("deluxe", ["decks=1"])
    tiny = Shoe.from_counts((1, 1, 1, 1, 1, 1, 1, 2, 2, 6)).remove([Card(Rank.TEN)])
    params = engine.engine_params(deluxe, engine.Conditioning.of(deluxe), Rank.EIGHT)
    assert engine.split_moments(tiny, Rank.EIGHT, Rank.TEN, params, None) is None


@pytest.mark.statistical
@pytest.mark.parametrize("name", ["deluxe", "macau-1983"])
def test_an_insured_rounds_second_moment_from_split_moments_equals_the_distributions(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The count's E[X^2] of a round with split moments (and their insurance algebra)
    equals the one from every deal's distribution, insured against an ace or not.

    The slow path is taken by making ``split_moments`` (where the counter looks it up)
    refuse; the test checks the refusal was asked, so it cannot pass by testing one
    path twice."""
    rules = sc.blackjack_rules(name, ["decks=2", "bonus_suited_678=0"])
    counts = list(Shoe.full(2).counts)
    counts[9] -= 4
    shoe = Shoe.from_counts(counts, 2)
    play = count.IndexPlay(1, None, None, ("insurance", "decline"), -100.0, "insurance")
    plain = count.blackjack_counter(rules, cut_card=60)
    refused: list[int] = []
    for counter in (plain, replace(plain, plays=(play,))):
        fast = counter.plan(shoe, 0.0, moments=True).second_moment
        asked = len(refused)
        with monkeypatch.context() as patch:
            patch.setattr(planner, "split_moments",
                          lambda *args, **kwargs: refused.append(1))  # returns None
            slow = counter.plan(shoe, 0.0, moments=True).second_moment
        assert len(refused) > asked, "split moments never asked for: the slow path is untested"
        assert fast is not None and slow is not None
        assert abs(fast - slow) < HIST_TOL


@pytest.mark.slow
@pytest.mark.parametrize(("name", "sets"), RULES, ids=[f"{n}{i}" for i, (n, _) in enumerate(RULES)])
def test_a_split_moment_table_made_on_the_full_shoe_holds_for_a_shoe_dealt_from_it(
        name: str, sets: tuple[str, ...]) -> None:
    """With the chart's codes fixed, P(t1, t2) = orders(t1) orders(t2) F(cards drawn), so
    the table of per-union sums made once on the full shoe gives S on any shoe dealt
    from it. Checked on a dealt shoe against the joint distribution (as above)."""
    counter = count.blackjack_counter(sc.blackjack_rules(name, list(sets)), cut_card=60)
    for pair, up in PAIRS:
        rules, base, cards, cond = _round(name, sets, pair, up)
        first, second, _suits = SplitPlan.of(rules, cards[0].rank, cond).round_params(base, cards)
        codes = memoryview(counter.planner.play_codes(Rank(up)))
        reference = Shoe.full(2).remove([Card(Rank(up))])
        table = engine.split_moment_table(reference, Rank(pair), Rank(up), first, codes, second)
        assert table is not None and table.unions > 0
        want = _joint_moments(base, pair, up, first, second, codes, cond)
        got = engine.split_moments(base, Rank(pair), Rank(up), first, codes, second, table)
        assert got is not None
        assert max(abs(g - w) for g, w in zip(got, want, strict=True)) < HIST_TOL, (pair, up)


def test_a_split_moment_table_refuses_what_it_was_not_made_for() -> None:
    """A table holds only for its round and for shoes with no more of any rank than its
    reference (a union such a shoe could deal may be missing); free play has no table."""
    rules = sc.blackjack_rules("deluxe", ["decks=2"])
    cond = engine.Conditioning.of(rules)
    counter = count.blackjack_counter(rules, cut_card=60)
    codes = memoryview(counter.planner.play_codes(Rank.SEVEN))
    small = Shoe.full(2).remove([Card(Rank.SEVEN), Card(Rank.TEN)])
    first, second, _ = SplitPlan.of(rules, Rank.TWO, cond).round_params(small, [Card(Rank.TWO)] * 2)
    table = engine.split_moment_table(small, Rank.TWO, Rank.SEVEN, first, codes, second)
    assert table is not None
    full = Shoe.full(2).remove([Card(Rank.SEVEN)])  # one ten more than the table's reference
    with pytest.raises(ValueError, match="split moment table"):
        engine.split_moments(full, Rank.TWO, Rank.SEVEN, first, codes, second, table)
    with pytest.raises(ValueError, match="split moment table"):  # another pair
        engine.split_moments(small, Rank.THREE, Rank.SEVEN, first, codes, second, table)
    with pytest.raises(ValueError, match="fixed codes"):
        engine.split_moment_table(small, Rank.TWO, Rank.SEVEN, first, None, second)  # type: ignore[arg-type]


@pytest.mark.statistical
def test_a_runs_split_tables_travel_empty_and_are_made_once() -> None:
    """A pickled counter (a process pool's copy) carries no tables; its moments are the
    same, asking twice for one round's table makes it once, and the copies one process
    unpickles of one run (its batches) share their tables."""
    import pickle

    rules = sc.blackjack_rules("deluxe", ["decks=2"])
    counter = count.blackjack_counter(rules, cut_card=60)
    shoe = counter.start()
    first = counter.plan(shoe, 0.0, moments=True).second_moment
    assert counter.tables is not None
    made = len(counter.tables)
    assert made > 0
    again = counter.plan(shoe, 0.0, moments=True).second_moment
    assert len(counter.tables) == made and again == first
    copy = pickle.loads(pickle.dumps(counter))
    assert copy.tables is not None and len(copy.tables) == 0
    assert copy.plan(shoe, 0.0, moments=True).second_moment == first
    later = pickle.loads(pickle.dumps(counter))  # the run's next batch
    assert later.tables is copy.tables and len(later.tables) == made


@pytest.mark.parametrize(("name", "sets"), RULES[::2], ids=["deluxe0", "macau-1983"])
def test_split_rounds_sharing_one_passs_dealer_memo_keep_their_own_moments(
        name: str, sets: tuple[str, ...]) -> None:
    """A count's moment round gives every split round of its pass one dealer memo (origin:
    the round's shoe, every up card), each round asking only its own up card's rows,
    which the memo's lazy walks give as the same doubles as a walk of every up card's
    tree: each round's moments are those of its joint distribution, and the rounds
    against several up cards share the memo's entries."""
    rules, _base, _cards, cond = _round(name, sets, 8, 10)
    counts = list(Shoe.full(2).counts)
    counts[9] -= 3  # the shoe of _round: three tens and a five gone
    counts[4] -= 1
    shoe = Shoe.from_counts(counts, 2)
    memo = engine.dealer_memo(shoe, rules.dealer_hits_soft_17)
    counter = count.blackjack_counter(rules, cut_card=60)
    for pair, up in [(8, 10), (9, 1), (7, 7), (8, 7)]:
        base = shoe.remove([Card(Rank(up))])
        split = SplitPlan.of(rules, Rank(pair), cond)
        first, second, _ = split.round_params(base, [Card(Rank(pair))] * 2)
        codes = memoryview(counter.planner.play_codes(Rank(up)))
        want = _joint_moments(base, pair, up, first, second, codes, cond)
        got = engine.split_moments(base, Rank(pair), Rank(up), first, codes, second,
                                   memo=memo)
        assert got is not None
        assert max(abs(g - w) for g, w in zip(got, want, strict=True)) < HIST_TOL, (pair, up)
        alone = engine.split_moments(base, Rank(pair), Rank(up), first, codes, second)
        assert got == alone  # regression pin: the memo changes the time, not one bit
    seen = memo.entries
    engine.split_moments(shoe.remove([Card(Rank.SEVEN)]), Rank.EIGHT, Rank.SEVEN,
                         first, codes, second, memo=memo)
    assert memo.entries == seen  # (8,8 against a 7 again: every row already kept)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "sets"), RULES, ids=[f"{n}{i}" for i, (n, _) in enumerate(RULES)])
def test_a_groups_cross_sums_give_each_split_round_its_own_moments(
        name: str, sets: tuple[str, ...]) -> None:
    """Merged over the pairs split against one up card, the tables give each round the
    same moments as its joint distribution: one dealer law per distinct union, and each
    round's chance of it G(u) N (N - 1) / (n_p (n_p - 1)), the pair cards counted in u."""
    counter = count.blackjack_counter(sc.blackjack_rules(name, list(sets)), cut_card=60)
    for up in (7, 2):
        pairs = [1, 2, 3, 7, 8]
        rules, base, _cards, cond = _round(name, sets, pairs[0], up)
        codes = memoryview(counter.planner.play_codes(Rank(up)))
        reference = Shoe.full(2).remove([Card(Rank(up))])
        rounds, tables = _tables(rules, base, reference, up, pairs, codes, cond)
        group = engine.split_moment_group(tables)
        assert group.unions < sum(t.unions for t in tables)  # some unions shared
        sums = engine.split_cross_sums(group, base)
        assert sums is not None
        for (pair, first, second), cross in zip(rounds, sums, strict=True):
            want = _joint_moments(base, pair, up, first, second, codes, cond)
            got = engine.split_moments(base, Rank(pair), Rank(up), first, codes, second,
                                       cross=cross)
            assert got is not None
            assert max(abs(g - w) for g, w in zip(got, want, strict=True)) < HIST_TOL, (pair, up)
        with pytest.raises(ValueError, match="cross"):
            engine.split_moments(base, Rank(pairs[0]), Rank(up), rounds[0][1], codes,
                                 rounds[0][2], tables[0], sums[0])


@pytest.mark.slow
def test_split_moment_tables_hold_when_the_pair_rank_is_depleted_too() -> None:
    """The table (made on the full 2-deck shoe) and the group of pairs against one up card
    on a shoe short of many cards, the pair's rank among them, so that F and the group's
    factor N (N - 1) / (n_p (n_p - 1)) see other counts than the reference's."""
    rules = sc.blackjack_rules("deluxe", ["decks=2"])
    cond = engine.Conditioning.of(rules)
    counter = count.blackjack_counter(rules, cut_card=60)
    counts = [8, 5, 6, 8, 3, 8, 6, 4, 8, 25]  # a 2-deck shoe dealt from: 23 cards gone
    for up in (7, 10):
        codes = memoryview(counter.planner.play_codes(Rank(up)))
        base = Shoe.from_counts(counts, 2).remove([Card(Rank(up))])
        reference = Shoe.full(2).remove([Card(Rank(up))])
        rounds, tables = _tables(rules, base, reference, up, [2, 5, 8, 10], codes, cond)
        sums = engine.split_cross_sums(engine.split_moment_group(tables), base)
        assert sums is not None
        for (pair, first, second), table, cross in zip(rounds, tables, sums, strict=True):
            want = _joint_moments(base, pair, up, first, second, codes, cond)
            for got in (engine.split_moments(base, Rank(pair), Rank(up), first, codes,
                                             second, table),
                        engine.split_moments(base, Rank(pair), Rank(up), first, codes,
                                             second, cross=cross)):
                assert got is not None
                assert max(abs(g - w) for g, w in zip(got, want, strict=True)) < HIST_TOL, (
                    pair, up)


@pytest.mark.slow
def test_split_moment_tables_take_two_hands_of_more_than_24_cards() -> None:
    """A shoe short of tens deals split 2s long hands: unions of more cards than a dealer
    hand holds (the dealer tree's factor tables) are kept and summed all the same, equal to
    the pairs of ends enumerated one by one."""
    rules = sc.blackjack_rules("deluxe", ["decks=4"])
    cond = engine.Conditioning.of(rules)
    shoe = Shoe.from_counts((16,) * 9 + (8,), 4)
    counter = count.blackjack_counter(rules, cut_card=60, shoe=shoe)
    codes = memoryview(counter.planner.play_codes(Rank.NINE))
    base = shoe.remove([Card(Rank.NINE)])
    first, second, _ = SplitPlan.of(rules, Rank.TWO, cond).round_params(base, [Card(Rank.TWO)] * 2)
    table = engine.split_moment_table(base, Rank.TWO, Rank.NINE, first, codes, second)
    assert table is not None
    assert max(sum(u) for u in table.unions_cards()) > 24
    want = engine.split_moments(base, Rank.TWO, Rank.NINE, first, codes, second)
    got = engine.split_moments(base, Rank.TWO, Rank.NINE, first, codes, second, table)
    sums = engine.split_cross_sums(engine.split_moment_group([table]), base)
    assert sums is not None
    grouped = engine.split_moments(base, Rank.TWO, Rank.NINE, first, codes, second,
                                   cross=sums[0])
    assert want is not None and got is not None and grouped is not None
    for moments in (got, grouped):
        assert abs(moments[0] - want[0]) < TOL and abs(moments[1] - want[1]) < 1e-11
    assert counter.plan(counter.start(), 0.0, moments=True).second_moment is not None


@pytest.mark.slow
def test_split_tables_over_their_byte_limit_keep_only_the_latest_and_the_same_moments() -> None:
    """Past ``limit_bytes`` the least recently used tables go (made again when asked);
    the moments do not change."""
    from strategy_calc.blackjack.distributions import SplitTables

    rules = sc.blackjack_rules("deluxe", ["decks=2"])
    counter = count.blackjack_counter(rules, cut_card=60)
    shoe = counter.start()
    want = counter.plan(shoe, 0.0, moments=True).second_moment
    tight = SplitTables(counter.start().counts, limit_bytes=1)
    counter = replace(counter, tables=tight)
    assert counter.plan(shoe, 0.0, moments=True).second_moment == want
    assert len(tight) == 1
