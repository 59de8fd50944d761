"""A dealer memo walked ahead (four removals a dealer walk) changes no value.

Rules checked: the removals a dry run asks for, walked ahead on another shoe four at a
time (:meth:`~strategy_calc.engine.DealerMemo.walk_ahead`), give every pass and split value
bit for bit as no memo does (each up card's own tree, one shoe a walk); on the dry run's
own shoe the passes then walk nothing more; a removal the shoe cannot hold is skipped; a
malformed request is a ``ValueError`` before any work; a counted round's plan is the same
with and without the walk ahead.
"""

from __future__ import annotations

import array

import pytest

from strategy_calc import engine
from strategy_calc.blackjack.game_pass import RoundWants
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.counting.counter import blackjack_counter
from strategy_calc.rules import blackjack_rules

RULES = blackjack_rules("deluxe", ["decks=1"])
UPS = (Rank.SEVEN, Rank.TWO, Rank.TEN)


def _dry_run(shoe: Shoe) -> tuple[engine.DealerMemo, list[tuple[Rank, memoryview]]]:
    """A deferring memo asked for three up cards' chart passes and their 8,8 splits."""
    counter = blackjack_counter(RULES)
    memo = engine.dealer_memo(shoe, False)
    memo.defer()
    params = engine.engine_params(RULES)
    policies = [(up, memoryview(counter.chart.policies[up])) for up in UPS]
    for up, policy in policies:
        base = shoe.remove([Card(up)])
        engine.up_card_pass(base, up, params, policy, memo=memo)
        engine.split_tables(base, Rank.EIGHT, up, engine.engine_params(RULES, pair=Rank.EIGHT),
                            0, memo=memo, lazy=True)
    return memo, policies


def _ordered(memo: engine.DealerMemo) -> tuple[memoryview, memoryview, memoryview]:
    """The dry run's wants, grouped by their up cards (as round_wants orders them)."""
    removed, nodes, wants = memo.entry_wants()
    order = sorted((k for k in range(len(wants)) if wants[k]), key=lambda k: wants[k])
    return (memoryview(array.array("i", [c for k in order for c in removed[10 * k:10 * (k + 1)]])),
            memoryview(array.array("i", [nodes[k] for k in order])),
            memoryview(array.array("H", [wants[k] for k in order])))


def test_walked_ahead_rows_are_bit_for_bit_those_of_no_memo() -> None:
    full = Shoe.full(1)
    dry, policies = _dry_run(full)
    removed, nodes, wants = _ordered(dry)
    assert any(n < 0 for n in nodes) and any(n >= 0 for n in nodes)  # split hands and nodes
    assert len(set(wants)) > 1
    dry.node_wants()
    shoe = full.remove([Card(r) for r in (Rank.TEN, Rank.TEN, Rank.FIVE, Rank.ACE)])
    for origin in (full, shoe):
        memo = engine.dealer_memo(origin, False)
        memo.walk_ahead(removed, nodes, wants)
        # (a process that has made SET_TREES_MAX up-card-set trees walks only the rest
        # ahead, and its passes walk what was not: under xdist a worker may have; the fresh
        # process below checks the walking)
        params = engine.engine_params(RULES)
        pair_params = engine.engine_params(RULES, pair=Rank.EIGHT)
        for up, policy in policies:
            base = origin.remove([Card(up)])
            got = engine.up_card_pass(base, up, params, policy, memo=memo)
            assert repr(got.values) == repr(engine.up_card_pass(base, up, params, policy).values)
            split = engine.split_tables(base, Rank.EIGHT, up, pair_params, 0, memo=memo, lazy=True)
            assert repr(split) == repr(engine.split_tables(base, Rank.EIGHT, up, pair_params, 0))


def test_a_fresh_process_walks_the_dry_runs_removals_ahead() -> None:
    """In a process with room for the up-card-set trees, the walk ahead walks, and on the
    dry run's own shoe the passes then walk nothing more (the test above, run where the
    trees may be full, checks the values)."""
    import subprocess
    import sys

    code = ("import test_walk_ahead as t; from strategy_calc.cards import Card, Shoe; "
            "dry, policies = t._dry_run(Shoe.full(1)); r, n, w = t._ordered(dry); "
            "from strategy_calc import engine; m = engine.dealer_memo(Shoe.full(1), False); "
            "m.walk_ahead(r, n, w); ahead = sum(m.walks) * (m.entries > 0); "
            "p = engine.engine_params(t.RULES); q = engine.engine_params(t.RULES, pair=8); "
            "[(engine.up_card_pass(Shoe.full(1).remove([Card(u)]), u, p, pol, memo=m), "
            "engine.split_tables(Shoe.full(1).remove([Card(u)]), 8, u, q, 0, memo=m, lazy=True))"
            " for u, pol in policies]; print(ahead, sum(m.walks))")
    from pathlib import Path

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=Path(__file__).parent, check=True).stdout
    ahead, after = map(int, out.split())
    assert ahead > 0
    assert after == ahead  # the dry run's own shoe: everything the passes ask is ready


def test_a_removal_the_shoe_cannot_hold_is_skipped() -> None:
    shoe = Shoe.from_counts([0, 4, 4, 4, 4, 4, 4, 4, 4, 16], 1)  # no aces
    memo = engine.dealer_memo(shoe, False)
    aces = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    memo.walk_ahead(memoryview(array.array("i", aces)), memoryview(array.array("i", [-1])),
                    memoryview(array.array("H", [1023])))
    assert memo.entries == 0 and memo.walks == (0, 0, 0)


def test_a_malformed_walk_ahead_is_refused() -> None:
    memo = engine.dealer_memo(Shoe.full(1), False)
    ten = memoryview(array.array("i", [0] * 10))
    with pytest.raises(ValueError, match="ten counts"):
        memo.walk_ahead(ten, memoryview(array.array("i", [-1, -1])),
                        memoryview(array.array("H", [1, 1])))
    with pytest.raises(ValueError, match="player node"):
        memo.walk_ahead(ten, memoryview(array.array("i", [10**6])),
                        memoryview(array.array("H", [1])))
    with pytest.raises(ValueError, match="while deferring"):
        memo.entry_wants()
    with pytest.raises(ValueError, match="every up card"):
        engine.dealer_memo(Shoe.full(1), False, up=Rank.TEN).walk_ahead(
            ten, memoryview(array.array("i", [-1])), memoryview(array.array("H", [1])))


def test_a_counted_round_is_the_same_without_the_walk_ahead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    counter = blackjack_counter(RULES)
    full = Shoe.full(1)
    shoes = [full.remove([Card(r) for r in (Rank.TWO, Rank.SIX, Rank.TEN, Rank.NINE)]),
             full.remove([Card(r) for r in (Rank.ACE, Rank.TEN, Rank.TEN, Rank.EIGHT)] * 3)]
    with_ahead = [repr(counter.plan(shoe, moments=False)) for shoe in shoes]
    monkeypatch.setattr(RoundWants, "walk_ahead", lambda self, memo: None)
    assert with_ahead == [repr(counter.plan(shoe, moments=False)) for shoe in shoes]
