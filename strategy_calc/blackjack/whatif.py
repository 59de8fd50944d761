"""What-ifs on a ruleset: the auto-play policy's return and what Macau's bonuses are worth.

>>> from strategy_calc.rules import blackjack_rules
>>> deluxe = blackjack_rules("deluxe")
>>> autoplay_ev(deluxe) < analyse_game(deluxe).ev_optimal  # hitting to 12 is a poor policy
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from strategy_calc.blackjack.deals import UP_ORDER
from strategy_calc.blackjack.game_analysis import GameAnalysis, analyse_game

# The auto-play policy's return and any strategy's EV live with the game analysis (so
# that `edge` need not load the one-hand analysis this module's bonus values use); kept
# here by name too.
from strategy_calc.blackjack.game_analysis import autoplay_ev as autoplay_ev
from strategy_calc.blackjack.game_analysis import strategy_ev as strategy_ev
from strategy_calc.blackjack.hand_analysis import analyse_hand
from strategy_calc.cards import Shoe
from strategy_calc.rules import BlackjackRules, RulesError
from strategy_calc.rules.bonus_hands import BonusHand


@dataclass(frozen=True, slots=True)
class BonusValue:
    """What Macau's suited 6-7-8 / 7-7-7 bonuses are worth, and the plays they change.

    EVs per unit initial bet of a round from a full shoe, optimal play; the
    ``changed`` rows are (hand, up card, best play without the bonuses, with).
    """

    rules: BlackjackRules
    ev_with: float
    ev_without: float
    ev_777_only: float
    """The game with its 7-7-7 rows only (every other bonus row gone)."""
    ev_678_only: float
    """The game with its 6-7-8 rows only (suited, or of any suits)."""
    chart_changes: tuple[tuple[str, str, str, str], ...]
    changed: tuple[tuple[str, str, str, str], ...]


BONUS_HANDS = ("7,7", "6s,7s", "6s,8s", "7s,8s")


def _cells_side_by_side(
    a: GameAnalysis, b: GameAnalysis
) -> list[tuple[str, str, Mapping[str, str], Mapping[str, str]]]:
    """(section, row label, a's cells, b's cells) for every chart row of two games."""
    rows: list[tuple[str, str, Mapping[str, str], Mapping[str, str]]] = []
    rows += [("hard", str(t), a.hard[t], b.hard[t]) for t in a.hard]
    rows += [("soft", str(t), a.soft[t], b.soft[t]) for t in a.soft]
    rows += [("pair", p, a.pairs[p], b.pairs[p]) for p in a.pairs]
    return rows
"""The two-card starts a bonus can complete (with one more card)."""


def bonus_value(
    rules: BlackjackRules, progress: Callable[[int, int], None] | None = None,
    shoe: Shoe | None = None,
) -> BonusValue:
    """Compare the game with and without each bonus (optimal play) and list changed plays.

    ``progress(done, 5)``: after each of the four games and the changed plays.
    ``shoe``: the shoe before the deal (default: full decks).
    """
    if not rules.has_bonus:
        raise RulesError(f"ruleset {rules.name!r} pays no 6-7-8 / 7-7-7 bonus")
    plain = replace(rules, bonus_777=0.0, bonus_suited_678=0.0, bonus_hands=())

    def rows_of(ranks: tuple[int, ...]) -> tuple[BonusHand, ...]:
        return tuple(row for row in rules.bonus_hands if row.ranks == ranks)

    def tick(done: int) -> None:
        if progress is not None:
            progress(done, 5)

    with_game = analyse_game(rules, shoe=shoe)
    tick(1)
    plain_game = analyse_game(plain, shoe=shoe)
    tick(2)
    only_777 = analyse_game(replace(rules, bonus_suited_678=0.0, bonus_hands=rows_of((7, 7, 7))),
                            shoe=shoe).ev_optimal
    tick(3)
    only_678 = analyse_game(replace(rules, bonus_777=0.0, bonus_hands=rows_of((6, 7, 8))),
                            shoe=shoe).ev_optimal
    tick(4)
    chart_changes = [
        (f"{name} {row}", up, before[up], after[up])
        for name, row, after, before in _cells_side_by_side(with_game, plain_game)
        for up in after if after[up] != before[up]
    ]
    changed = []
    for hand in BONUS_HANDS:
        for up_rank in UP_ORDER:
            best_with = analyse_hand(hand, up_rank.symbol, rules, shoe=shoe).best
            best_without = analyse_hand(hand, up_rank.symbol, plain, shoe=shoe).best
            if best_with != best_without:
                changed.append((hand, up_rank.symbol, best_without, best_with))
    tick(5)
    return BonusValue(rules, with_game.ev_optimal, plain_game.ev_optimal, only_777, only_678,
                      tuple(chart_changes), tuple(changed))
