"""What-ifs on a ruleset: the auto-play policy's return and what Macau's bonuses are worth.

>>> from strategy_calc.rules import blackjack_rules
>>> deluxe = blackjack_rules("deluxe")
>>> autoplay_ev(deluxe) < analyse_game(deluxe).ev_optimal  # hitting to 12 is a poor policy
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from strategy_calc import engine
from strategy_calc.actions import Strategy
from strategy_calc.cards import Card, Shoe
from strategy_calc.engine import Conditioning
from strategy_calc.game import UP_ORDER, node_id
from strategy_calc.hands import AUTOPLAY_POLICY
from strategy_calc.rules import BlackjackRules, RulesError
from strategy_calc.strategy import GameAnalysis, analyse_game


def autoplay_ev(rules: BlackjackRules) -> float:
    """EV per unit initial bet of a round played by the auto-play policy, from a full shoe.

    Auto-play (Deluxe, on disconnection): hit while the best total is 11 or
    less, then stand; never double, split, surrender or insure. Blackjacks are
    paid; dealer blackjacks included, as in :func:`analyse_game`.
    """
    full = Shoe.full(rules.decks)
    conditioning = Conditioning.of(rules)
    params = engine.engine_params(rules)
    memo = engine.dealer_memo(full, rules.dealer_hits_soft_17)
    ev = 0.0
    for up in UP_ORDER:
        base = full.remove([Card(up)])
        upass = engine.up_card_pass(base, up, params, AUTOPLAY_POLICY, memo)
        p_up = full.count(up) / full.total
        for a in range(1, 11):
            for b in range(a, 11):
                row = upass.row(node_id((a, b)))
                if not row.weight > 0:
                    continue
                nb = row.no_blackjack
                if (a, b) == (1, 10):
                    value = rules.blackjack_pays * nb
                else:
                    value = conditioning.round_value(row.policy, nb)
                ev += p_up * row.weight * value
    return ev


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
    ev_678_only: float
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
    from strategy_calc.blackjack import analyse_hand  # here: `edge` does not need it

    if not rules.has_bonus:
        raise RulesError(f"ruleset {rules.name!r} pays no 6-7-8 / 7-7-7 bonus")
    plain = replace(rules, bonus_777=0.0, bonus_suited_678=0.0)

    def tick(done: int) -> None:
        if progress is not None:
            progress(done, 5)

    with_game = analyse_game(rules, shoe=shoe)
    tick(1)
    plain_game = analyse_game(plain, shoe=shoe)
    tick(2)
    only_777 = analyse_game(replace(rules, bonus_suited_678=0.0), shoe=shoe).ev_optimal
    tick(3)
    only_678 = analyse_game(replace(rules, bonus_777=0.0), shoe=shoe).ev_optimal
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


def strategy_ev(
    rules: BlackjackRules, strategy: Strategy, game: GameAnalysis | None = None
) -> float:
    """EV per unit initial bet of a round off the top under ``strategy``.

    ``game``: the ruleset's :func:`analyse_game` result, if already at hand.

    >>> from strategy_calc.rules import blackjack_rules
    >>> rules = blackjack_rules("deluxe", ["decks=2"])
    >>> strategy_ev(rules, Strategy.BASIC) <= strategy_ev(rules, Strategy.OPTIMAL)
    True
    """
    if strategy is Strategy.AUTOPLAY:
        return autoplay_ev(rules)
    game = game if game is not None else analyse_game(rules)
    return game.ev_basic if strategy is Strategy.BASIC else game.ev_optimal
