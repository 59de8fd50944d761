"""The rules of play of one hand, each with one home in Python
(strategy_calc/blackjack/hand_rules.py), checked against the rules text by hand.

Rules text (docs/RULES.md): an ace counts 1 or 11, a hand with an ace counted 11 is soft;
the dealer draws to 16 and stands on 17 (Macau 1983 and Deluxe: on every 17; the
``dealer_hits_soft_17`` option: he draws to a soft 17); a standing hand beats a lower
dealer total or a dealer bust, pushes an equal one and loses to a higher one.
"""

from __future__ import annotations

import ast
import itertools
import pathlib

import pytest

import strategy_calc
from strategy_calc.blackjack.hand_rules import (
    best_total,
    dealer_draws,
    hand_total,
    is_natural,
    stand_result,
)


@pytest.mark.parametrize(("ranks", "total", "soft"), [
    ((1, 6), 17, True),        # A,6: the ace as 11
    ((1, 6, 10), 17, False),   # A,6,T: 27 with the ace as 11, so 1
    ((1, 1), 12, True),        # A,A: one ace 11, the other 1
    ((1, 1, 10), 12, False),
    ((1, 10), 21, True),       # a natural's total
    ((5, 6), 11, False),
    ((10, 6, 6), 22, False),   # bust
])
def test_an_ace_counts_11_where_that_does_not_pass_21(ranks: tuple[int, ...], total: int,
                                                     soft: bool) -> None:
    assert hand_total(ranks) == (total, soft)
    assert best_total(sum(ranks), 1 in ranks) == (total, soft)


def test_a_natural_is_an_ace_and_a_ten_valued_card_as_the_first_two() -> None:
    assert is_natural([1, 10]) and is_natural([10, 1])
    assert not is_natural([1, 5, 5]) and not is_natural([10, 10])


@pytest.mark.parametrize("h17", [False, True])
def test_the_dealer_draws_to_16_and_on_a_soft_17_only_when_he_hits_it(h17: bool) -> None:
    for hard, has_ace in itertools.product(range(2, 27), (False, True)):
        total, soft = best_total(hard, has_ace)
        want = total < 17 or (h17 and soft and total == 17)  # the rules text
        assert dealer_draws(hard, has_ace, h17) == want, (hard, has_ace)
    assert dealer_draws(7, True, h17) == h17      # A,6: soft 17
    assert not dealer_draws(17, True, h17)        # A,6,T: hard 17


def test_a_standing_hand_wins_against_less_or_a_bust_and_pushes_an_equal_total() -> None:
    assert [stand_result(18, d) for d in (17, 18, 19, 20, 21, "bust")] == [1, 0, -1, -1, -1, 1]
    assert [stand_result(21, d) for d in (17, 21)] == [1, 0]
    assert stand_result(12, "bust") == 1 and stand_result(12, 17) == -1


def _soft_total_sites(path: pathlib.Path) -> list[int]:
    """Lines of ``path`` that add 10 to a total (an ace counted as 11): the soft-total rule."""
    return [node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
            and isinstance(node.right, ast.Constant) and node.right.value == 10]


def test_the_soft_total_is_written_once_in_the_package() -> None:
    package = pathlib.Path(strategy_calc.__file__).parent
    sites = {str(p.relative_to(package)): lines for p in package.rglob("*.py")
             if (lines := _soft_total_sites(p))}
    assert list(sites) == ["blackjack/hand_rules.py"]
