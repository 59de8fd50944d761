"""The engine is reentrant, checks every buffer it is given, and its shared memo changes nothing.

Rules checked: calls from many threads at once give exactly the serial
results; a malformed buffer is a ``ValueError`` before any work; a
:class:`~strategy_calc.engine.DealerMemo` is a speed-up only (the values with
and without it are bit for bit the same) and is refused for another shoe; the
dealer tables on either side of the "no bust leaves" threshold agree with the
oracle's dealer enumeration.
"""

from __future__ import annotations

import array
import random
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

import bj_oracle as oracle
import pytest

from strategy_calc import _engine, engine
from strategy_calc.actions import OUTCOMES
from strategy_calc.blackjack.bonus import bonus_rows
from strategy_calc.blackjack.game_analysis import analyse_game
from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.rules import BlackjackRules, blackjack_rules


def _ints(values: list[int]) -> memoryview:
    return memoryview(array.array("i", values))


GAMES = [blackjack_rules("deluxe", ["decks=1"]), blackjack_rules("macau-1983", ["decks=2"]),
         blackjack_rules("deluxe", ["decks=2", "dealer_hits_soft_17=true"])]
HANDS = [("T,6", "T"), ("8,8", "6"), ("A,7", "9"), ("5,6", "A"), ("2,2", "3"), ("6s,7s", "2")]


def _game_key(rules: object) -> tuple[object, ...]:
    g = analyse_game(rules)  # type: ignore[arg-type]
    return (g.ev_basic, g.ev_optimal, g.hard, g.soft, g.pairs, g.exceptions)


def _hand_key(hand: str, up: str, rules_index: int) -> tuple[object, ...]:
    a = analyse_hand(hand, up, GAMES[rules_index])
    return (dict(a.ev), a.best, dict(a.dealer), a.split_hands)


@pytest.mark.parallel
def test_threads_give_exactly_the_serial_results() -> None:
    serial_games = [_game_key(r) for r in GAMES]
    jobs = [(h, u, i) for h, u in HANDS for i in range(len(GAMES))]
    serial_hands = [_hand_key(*job) for job in jobs]
    with ThreadPoolExecutor(max_workers=8) as pool:
        games = [pool.submit(_game_key, GAMES[i % len(GAMES)]) for i in range(24)]
        hands = [pool.submit(_hand_key, *jobs[i % len(jobs)]) for i in range(240)]
        for i, future in enumerate(games):
            assert future.result() == serial_games[i % len(GAMES)]
        for i, future in enumerate(hands):
            assert future.result() == serial_hands[i % len(jobs)]


def test_a_six_entry_hand_is_refused() -> None:
    params = engine.engine_params(blackjack_rules("deluxe"))
    base = _ints(list(Shoe.full(1).remove([Card(Rank.TEN)]).counts))
    with pytest.raises(ValueError, match="10 rank counts"):
        _engine.hand_values(base, _ints([0, 0, 0, 0, 0, 1]), 10, params)


def test_short_codes_and_policies_are_refused() -> None:
    rules = blackjack_rules("deluxe", ["decks=1"])
    params = engine.engine_params(rules)
    shoe = Shoe.full(1).remove([Card(Rank.SIX)])
    base = _ints(list(shoe.counts))
    hist = memoryview(array.array("d", [0.0] * 2600))
    one = memoryview(array.array("b", [2]))
    with pytest.raises(ValueError, match="one code per player node"):
        _engine.hand_distribution(base, _ints([0] * 9 + [2]), 6, params, 1, one, hist)
    with pytest.raises(ValueError, match="one code per player node"):
        _engine.split_tables(base, 8, 6, engine.engine_params(rules, pair=Rank.EIGHT), 0, one)
    with pytest.raises(ValueError, match="64 classes"):
        _engine.hand_values(base, _ints([0] * 9 + [2]), 6, params, one)
    with pytest.raises(ValueError, match="up card"):
        _engine.hand_values(base, _ints([0] * 9 + [2]), 11, params)
    with pytest.raises(ValueError, match="2600 bins"):
        _engine.hand_distribution(base, _ints([0] * 9 + [2]), 6, params, 1, None,
                                  memoryview(array.array("d", [0.0])))
    with pytest.raises(ValueError, match="22 flags"):
        bad = engine.EngineParams(**{**{f: getattr(params, f) for f in params.__slots__},
                                     "double_totals": (1,)})
        _engine.hand_values(base, _ints([0] * 9 + [2]), 6, bad)


def test_a_memo_changes_no_value_and_is_refused_for_another_shoe() -> None:
    rules = blackjack_rules("deluxe", ["decks=2"])
    full = Shoe.full(2)
    base = full.remove([Card(Rank.SIX)])
    params = engine.engine_params(rules, pair=Rank.EIGHT)
    memo = engine.dealer_memo(full, False)
    with_memo = engine.split_tables(base, Rank.EIGHT, Rank.SIX, params, 2, memo=memo)
    without = engine.split_tables(base, Rank.EIGHT, Rank.SIX, params, 2)
    assert repr(with_memo) == repr(without)  # every float bit for bit (and NaN as NaN)
    assert memo.entries > 0
    with pytest.raises(ValueError, match="origin"):
        engine.split_tables(full.remove([Card(Rank.FIVE)]), Rank.EIGHT, Rank.SIX, params, 0,
                            memo=memo)
    with pytest.raises(ValueError, match="dealer rule"):
        engine.split_tables(base, Rank.EIGHT, Rank.SIX,
                            engine.engine_params(blackjack_rules("deluxe", [
                                "decks=2", "dealer_hits_soft_17=true"]), pair=Rank.EIGHT),
                            0, memo=memo)


@pytest.mark.slow
def test_a_memo_filled_one_up_card_at_a_time_then_wholly_changes_no_value() -> None:
    """Split hands fill a shared memo up card by up card (rent, then buy every row at once
    when the single-card walks would cost more): the values, the split hands' and a later
    up-card pass's on the same memo, are bit for bit those without a memo."""
    rules = blackjack_rules("deluxe", ["decks=2"])
    full = Shoe.full(2)
    memo = engine.dealer_memo(full, False)
    params = engine.engine_params(rules)
    # the seven up cards' own trees cost more than one all-up-cards walk, so the splits
    # against the last of them buy every row; the pass against a 5 (no split before it)
    # fills entries that hold some rows only
    for up in (Rank.TEN, Rank.SIX, Rank.SEVEN, Rank.TWO, Rank.ACE, Rank.NINE, Rank.EIGHT,
               Rank.FIVE):
        base = full.remove([Card(up)])
        for pair in (Rank.EIGHT, Rank.TWO, Rank.NINE) if up is not Rank.FIVE else ():
            pair_params = engine.engine_params(rules, pair=pair)
            with_memo = engine.split_tables(base, pair, up, pair_params, 0, memo=memo,
                                            lazy=True)
            assert repr(with_memo) == repr(engine.split_tables(base, pair, up, pair_params, 0))
        shared = engine.up_card_pass(base, up, params, memo=memo)
        alone = engine.up_card_pass(base, up, params)
        assert repr(shared.values) == repr(alone.values)
    every, one, _several = memo.walks
    assert one > 0 and every > 0  # both branches ran


@pytest.mark.statistical
def test_hints_and_a_dry_run_change_no_value() -> None:
    """A memo hinted with the up cards each removal is wanted against (noted in a dry run
    on the full shoe, :func:`strategy_calc.blackjack.game_pass.memo_hints`) walks several up cards'
    tree at once; hints that are wrong, and a memo that took a dry run itself, still give every
    value bit for bit as no memo does."""
    import random as _random

    from strategy_calc.counting.counter import blackjack_counter

    rules = blackjack_rules("deluxe", ["decks=2"])
    counter = blackjack_counter(rules)
    hints = counter.planner._hints()
    assert any(h & (h - 1) and h != 1023 for h in hints)  # several up cards, not all
    rng = _random.Random(11)
    masks = [rng.randrange(1024) for _ in range(12)]  # (each set of up cards: a tree kept)
    wrong = array.array("H", [rng.choice(masks) for _ in hints])
    counts = list(Shoe.full(2).counts)
    for _ in range(30):
        counts[rng.randrange(10)] -= 1
    shoe = Shoe.from_counts([max(c, 2) for c in counts], 2)
    params = engine.engine_params(rules)
    memos = [engine.dealer_memo(shoe, False, hints=hints),
             engine.dealer_memo(shoe, False, hints=wrong), engine.dealer_memo(shoe, False)]
    dry = memos[2]
    dry.defer()  # placeholders while deferring; real values once node_wants ends it
    engine.up_card_pass(shoe.remove([Card(Rank.SEVEN)]), Rank.SEVEN, params, memo=dry)
    assert len(dry.node_wants()) == len(hints)
    for up in (Rank.SEVEN, Rank.TWO, Rank.TEN, Rank.ACE):
        base = shoe.remove([Card(up)])
        policy = memoryview(counter.chart.policies[up])
        alone = engine.up_card_pass(base, up, params, policy)
        for memo in memos:
            got = engine.up_card_pass(base, up, params, policy, memo=memo)
            assert repr(got.values) == repr(alone.values)
        for pair in (Rank.EIGHT, Rank.TWO):
            pair_params = engine.engine_params(rules, pair=pair)
            want = repr(engine.split_tables(base, pair, up, pair_params, 0))
            for memo in memos:
                assert repr(engine.split_tables(base, pair, up, pair_params, 0,
                                                memo=memo)) == want
    assert memos[0].walks[2] > 0  # the hinted trees were walked
    spread = memoryview(array.array("H", bytes(4 * len(hints))))[::2]  # right length, strided
    with pytest.raises((ValueError, BufferError), match="contiguous"):  # (it is read as one)
        engine.dealer_memo(shoe, False).hint(spread)


def test_a_pass_of_some_rows_gives_those_rows_bit_for_bit_and_computes_less() -> None:
    rules = blackjack_rules("macau-1983", ["decks=2"])  # the bonus nodes too
    shoe = Shoe.full(2).remove([Card(Rank.TEN), Card(Rank.FIVE), Card(Rank.SEVEN)])
    params = engine.engine_params(rules).with_bonus(bonus_rows(rules),
                                                    rules.bonus_suited_678,
                                                    0.0625)
    table = engine.node_table()
    rows = bytes(1 if n == 2 or i == table.index[(0,) * 5 + (1, 1, 1, 0, 0)] else 0
                 for i, n in enumerate(table.ncards))
    with pytest.raises(ValueError, match="one flag per player node"):
        engine.up_card_pass(shoe, Rank.SIX, params, rows=b"\x01")
    for up in (Rank.SIX, Rank.TEN):
        base = shoe.remove([Card(up)])
        full_memo, part_memo = engine.dealer_memo(shoe, False), engine.dealer_memo(shoe, False)
        full = engine.up_card_pass(base, up, params, memo=full_memo)
        policy = memoryview(full.policy_classes.tobytes())
        fixed = engine.up_card_pass(base, up, params, policy, memo=engine.dealer_memo(shoe, False))
        part = engine.up_card_pass(base, up, params, policy, memo=part_memo, rows=rows,
                                   optimal=False)
        assert repr(fixed.values) == repr(full.values)
        assert part_memo.entries < full_memo.entries  # dealer evaluations saved
        for node, wanted in enumerate(rows):
            got, want = part.row(node), full.row(node)
            if not wanted:
                assert all(x != x for x in got)
                continue
            assert got.optimal != got.optimal and got.hit != got.hit  # not computed
            assert repr(got._replace(optimal=0.0, hit=0.0)) == repr(
                want._replace(optimal=0.0, hit=0.0))
        derived = engine.up_card_pass(base, up, params, rows=rows, optimal=False)
        assert derived.policy_classes == full.policy_classes  # derived from every node


def test_a_pass_of_some_columns_gives_those_columns_bit_for_bit_and_computes_less() -> None:
    """A chart's round values each start's chart play only: a row flag naming columns
    fills those (as the whole row would) and its weight and no-blackjack chance, and
    leaves the others NaN."""
    rules = blackjack_rules("macau-1983", ["decks=2"])
    shoe = Shoe.full(2).remove([Card(Rank.TEN), Card(Rank.FIVE), Card(Rank.SEVEN)])
    params = engine.engine_params(rules).with_bonus(bonus_rows(rules),
                                                    rules.bonus_suited_678,
                                                    0.0625)
    table = engine.node_table()
    named = {engine.ROW_STAND: ("stand",), engine.ROW_POLICY_HIT: ("policy_hit",),
             engine.ROW_DOUBLE: ("double",), engine.ROW_PRESENT: (),
             engine.ROW_STAND | engine.ROW_DOUBLE: ("stand", "double")}
    cycle = list(named)
    flags = bytearray(table.n_nodes)
    for node, n in enumerate(table.ncards):
        if n == 2:
            flags[node] = cycle[node % len(cycle)]
    for counts in ((0, 0, 0, 0, 1, 1, 0, 0, 0, 1), (2, 0, 0, 0, 0, 0, 0, 0, 1, 0)):
        flags[table.index[counts]] = engine.ROW_POLICY_HIT  # a 21 (hard, soft): its stand
    for up in (Rank.SIX, Rank.TEN):
        base = shoe.remove([Card(up)])
        whole_rows = bytes(1 if f else 0 for f in flags)
        whole_memo, part_memo = engine.dealer_memo(shoe, False), engine.dealer_memo(shoe, False)
        full = engine.up_card_pass(base, up, params)
        policy = memoryview(full.policy_classes.tobytes())
        engine.up_card_pass(base, up, params, policy, memo=whole_memo, rows=whole_rows,
                            optimal=False)  # the same rows whole: more dealer evaluations
        part = engine.up_card_pass(base, up, params, policy, memo=part_memo, rows=bytes(flags),
                                   optimal=False)
        assert part_memo.entries < whole_memo.entries  # dealer evaluations saved
        with_optimal = engine.up_card_pass(base, up, params, policy, rows=bytes(flags))
        assert repr(with_optimal.values) == repr(part.values)  # (optimal: whole rows only)
        for node, flag in enumerate(flags):
            got, want = part.row(node), full.row(node)
            if not flag or want.weight != want.weight:
                assert all(x != x for x in got)
                continue
            keep = ("weight", "no_blackjack", *named[flag])
            for column in engine.PASS_COLUMNS:
                value = getattr(got, column)
                if column in keep:
                    assert repr(value) == repr(getattr(want, column)), (node, column)
                else:
                    assert value != value, (node, column)  # not computed


@pytest.mark.oracle
@pytest.mark.parametrize("push22", [False, True])
@pytest.mark.parametrize("h17", [False, True])
def test_dealer_tables_agree_with_the_oracle_around_the_bust_threshold(h17: bool,
                                                                        push22: bool) -> None:
    """Shoes of 12-40 cards: the tree without bust leaves (13+ cards) and the full one
    (``push22``: ``dealer_22_pushes``, his 22 an outcome of its own)."""
    rng = random.Random(1983)
    for _ in range(40):
        size = rng.randint(12, 40)
        cards = rng.sample(range(52), size)
        counts = [0] * 10
        for c in cards:
            counts[min(c % 13, 9)] += 1
        up = rng.choice([r for r in range(1, 11) if counts[r - 1] > 0])
        counts[up - 1] -= 1
        shoe = Shoe.from_counts(tuple(counts))
        got = engine.dealer_probs(shoe, Rank(up), engine.dealer_rule(
            BlackjackRules(dealer_hits_soft_17=h17, dealer_22_pushes=push22)))
        try:
            want = oracle.dealer_distribution(tuple(counts), up, h17, push22)
        except oracle.ShoeExhausted:
            assert sum(got) < 1.0 - 1e-9
            continue
        for key, value in zip(OUTCOMES, got, strict=True):  # ("22": 0 unless push22)
            assert abs(Fraction(value) - want.get(key, Fraction(0))) < 1e-12


def test_the_type_stub_names_exactly_the_compiled_engines_public_functions() -> None:
    """strategy_calc/_engine.pyi must match the module (mypy trusts it)."""
    import ast
    from pathlib import Path

    stub = Path(_engine.__file__).with_name("_engine.pyi")
    if not stub.is_file():  # an installed package ships it beside the module
        stub = Path(__file__).resolve().parents[2] / "strategy_calc" / "_engine.pyi"
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    stubbed = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    public = {name for name in dir(_engine) if not name.startswith("_")
              and callable(getattr(_engine, name))}
    assert stubbed == public


@pytest.mark.parametrize("decks, gone, h17", [(1, 0, False), (1, 30, True), (1, 36, False),
                                              (6, 0, True)])
def test_dealer_walks_made_four_shoes_at_a_time_give_the_one_by_one_values(
        decks: int, gone: int, h17: bool) -> None:
    """A whole-game memo walks the dealer tree for four removals at once (the stands of a
    class of hands, a split hand's every hand): each up card's pass and split on that
    memo is bit for bit what each removal's own walk gives without a memo. Short shoes
    put some removals on the tree with bust leaves and some on the one without, in one
    batch, and leave some hands impossible."""
    rules = blackjack_rules("deluxe", [f"decks={decks}", f"dealer_hits_soft_17={str(h17).lower()}"])
    rng = random.Random(decks * 100 + gone)
    counts = list(Shoe.full(decks).counts)
    for _ in range(gone):
        r = rng.choice([i for i, c in enumerate(counts) if c > 1])
        counts[r] -= 1
    full = Shoe.from_counts(counts, decks)
    memo = engine.dealer_memo(full, h17)
    params = engine.engine_params(rules)
    for up in (Rank.SIX, Rank.TEN, Rank.ACE):
        base = full.remove([Card(up)])
        shared = engine.up_card_pass(base, up, params, memo=memo)
        alone = engine.up_card_pass(base, up, params)
        assert repr(shared.values) == repr(alone.values)
        for pair in (Rank.EIGHT, Rank.ACE, Rank.TWO):
            if base.count(pair) < 2:
                continue
            pair_params = engine.engine_params(rules, pair=pair)
            with_memo = engine.split_tables(base, pair, up, pair_params, 0, memo=memo)
            assert repr(with_memo) == repr(engine.split_tables(base, pair, up, pair_params, 0))
    every, _one, _several = memo.walks
    assert every == memo.entries  # every removal walked once, for every up card


def test_a_pass_without_the_chart_values_optimal_play_alone_the_same() -> None:
    """``chart=False`` (the optimal-play EV's pass) leaves the chart's columns NaN, and the
    doubles of hands of three or more cards, and derives no policy; its stand, optimal,
    hit and two-card double columns are bit for bit the full pass's."""
    rules = blackjack_rules("deluxe", ["decks=2"])
    full = Shoe.full(2)
    base = full.remove([Card(Rank.NINE)])
    params = engine.engine_params(rules)
    both = engine.up_card_pass(base, Rank.NINE, params)
    alone = engine.up_card_pass(base, Rank.NINE, params, chart=False)
    width = len(engine.PASS_COLUMNS)
    policy_cols = {engine.PASS_COLUMNS.index("policy"), engine.PASS_COLUMNS.index("policy_hit")}
    double = engine.PASS_COLUMNS.index("double")
    ncards = engine.node_table().ncards
    for i in range(len(both.values)):
        a, b = both.values[i], alone.values[i]
        if i % width in policy_cols or (i % width == double and ncards[i // width] != 2):
            assert b != b  # NaN
        else:
            assert repr(a) == repr(b)
    assert bytes(alone.policy_classes) == bytes(64)
    assert any(both.policy_classes)
    with pytest.raises(ValueError, match="optimal play alone"):
        engine.up_card_pass(base, Rank.NINE, params, policy=memoryview(bytes(64)), chart=False)


def test_a_memo_reserves_room_without_changing_a_value_and_refuses_a_negative_room() -> None:
    """``reserve`` sizes the memo's tables at once (a speed-up only): the same pass as with a
    memo that grows; a negative or absurd room is a ``ValueError`` before any work."""
    rules = blackjack_rules("deluxe", ["decks=1"])
    full = Shoe.full(1)
    base = full.remove([Card(Rank.SEVEN)])
    params = engine.engine_params(rules)
    roomy = engine.dealer_memo(full, False, reserve=engine.WHOLE_GAME_REMOVALS)
    growing = engine.dealer_memo(full, False)
    assert repr(engine.up_card_pass(base, Rank.SEVEN, params, memo=roomy).values) == repr(
        engine.up_card_pass(base, Rank.SEVEN, params, memo=growing).values)
    for bad in (-1, 1 << 25):
        with pytest.raises(ValueError, match="reserve"):
            _engine.DealerMemo(_ints(list(full.counts)), False, 0, bad)


@pytest.mark.parametrize("rules_set, counts, pair", [
    (["decks=1", "split_aces_one_card=false"], [2, 1, 1, 0, 0, 0, 0, 0, 0, 3], Rank.ACE),
    (["decks=1", "bonus_777=3", "double_after_split=false"], [0, 1, 1, 0, 0, 0, 4, 0, 0, 1],
     Rank.SEVEN),
])
def test_a_hand_computed_ahead_but_never_stood_on_is_no_run_out_error(
        rules_set: list[str], counts: list[int], pair: Rank) -> None:
    """A split hand's stands are computed ahead for every hand holding its pair card; some
    are never reached (A,T,T lies past the soft 21 A,T; a bonus 7-7-7 is paid, not stood
    on), and a dealer who could run out of cards from one of them is no error: the memo's
    split values are the memo-less ones (review of 2026-12-06, both shoes: the batch raised
    "could run out" where the play never stands)."""
    rules = blackjack_rules("deluxe", rules_set)
    full = Shoe.from_counts(counts, 1)
    base = full.remove([Card(Rank.TEN)])
    params = engine.engine_params(rules, pair=pair)
    alone = engine.split_tables(base, pair, Rank.TEN, params, 0)
    memo = engine.dealer_memo(full, rules.dealer_hits_soft_17)
    assert repr(engine.split_tables(base, pair, Rank.TEN, params, 0, memo=memo)) == repr(alone)
