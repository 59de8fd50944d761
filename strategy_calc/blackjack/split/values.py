"""Split values under each split strategy, raw on the engine's scale."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from strategy_calc import engine
from strategy_calc.blackjack.split.combine import combine, combine_moments
from strategy_calc.blackjack.split.plan import SplitPlan
from strategy_calc.blackjack.split.strategies import cdz_codes
from strategy_calc.cards import Card, Rank, Shoe
from strategy_calc.rules import RulesError


@dataclass(frozen=True, slots=True)
class SplitValues:
    """Raw split EVs (engine scale) of the first hand and of all others, per strategy."""

    optimal: tuple[float, float]
    chart: tuple[float, float] | None = None
    chart_no_das: tuple[float, float] | None = None


def pre_split_codes(table: engine.UpCardPass, late: bool = False) -> bytes:
    """The pre-split strategy (``cdz``) as engine codes: each node's best unsplit play in
    an up-card pass (:func:`strategy_calc.blackjack.split.combine.cdz_codes`; ``late``:
    hands of three or more cards may double, double_after_hit)."""
    return cdz_codes(table.column("stand"), table.column("hit"), table.column("double"),
                     engine.node_table().ncards, late)


def split_values(
    plan: SplitPlan, base: Shoe, up: Rank,
    chart_codes: memoryview | None = None, memo: engine.DealerMemo | None = None,
    pair_cards: Sequence[Card] | None = None,
    columns: int = engine.SPLIT_ALL, play: str = "cdp1", lazy: bool = False,
) -> SplitValues | None:
    """Raw split EVs (the engine's scale) of the first hand and of the others, or None.

    ``base``: the shoe with both pair cards still in it (up card and known
    cards removed). Strategy and method: :mod:`strategy_calc.blackjack.split.combine`; with one
    split allowed this is exactly twice one hand that ignores the other's cards.
    ``chart_codes`` (per engine node: bit 1 double, 2 hit, 4 stand) adds the
    values of playing split hands by a chart. ``memo``: dealer distributions
    shared with the rest of a whole-game pass (a speed-up only). ``pair_cards``:
    the two pair cards as given (their suits); with one split, each hand's
    suited 6-7-8 chance is that of its own pair card (a pair card whose suit
    cannot complete a suited 6-7-8 gets none). Its play still decides with that
    chance, not by the suits it draws. ``columns``: the engine's. ``play``: the split
    strategy of the optimal figures, ``cdp1``, ``cdp`` or ``cdp-hands``
    (:data:`strategy_calc.blackjack.split.combine.SPLIT_STRATEGIES`; the three agree without
    resplits).
    ``lazy``: :func:`strategy_calc.engine.split_tables`' (a speed-up only).
    """
    if not plan.allowed:
        return None
    pair, max_hands = plan.pair, plan.max_hands
    cards = plan.cards(pair_cards)
    suits = max_hands == 2  # resplit rows reuse frozen decisions, which cannot see suits
    params = plan.hand_params(base, cards, suits)
    extra = 2 * (max_hands - 2)
    own_rows = None
    if play == "cdp" and max_hands > 2:  # each row its own removal's best play
        own_rows = engine.split_tables(base, pair, up, params, extra, None, memo,
                                       engine.SPLIT_OPTIMAL, -1, lazy)
    if own_rows is not None and chart_codes is None:
        rows_first, rows_others = own_rows
    else:
        rows_first, rows_others = engine.split_tables(
            base, pair, up, params, extra, chart_codes, memo,
            columns & ~engine.SPLIT_OPTIMAL if own_rows is not None else columns, lazy=lazy)
    if max_hands == 2 and cards[1].suit != cards[0].suit:
        second = plan.hand_params(base, cards[::-1], suits)
        if second != params:
            rows_others = engine.split_tables(base, pair, up, second, 0, chart_codes, memo,
                                              columns, lazy=lazy)[1]
    n, n_pair = base.total - 2, base.count(pair) - 2  # both pair cards gone (the engine
    # checked the shoe holds them); with replacement none is: the shoe's proportions
    if base.infinite:
        n, n_pair = base.total, base.count(pair)
    by_resplits = None
    if play == "cdp-hands" and max_hands > 2:  # each resplit count plays its own decisions
        by_resplits = [(rows_first, rows_others)] + [
            engine.split_tables(base, pair, up, params, extra, None, memo,
                                engine.SPLIT_OPTIMAL, k)
            for k in range(1, min(max_hands - 2, n_pair) + 1)]

    def total(column: int) -> tuple[float, float]:
        if column == 0 and own_rows is not None:
            return combine(*own_rows, 0, n, n_pair, max_hands, replacement=base.infinite)
        return combine(rows_first, rows_others, column, n, n_pair, max_hands,
                       by_resplits if column == 0 else None, replacement=base.infinite)

    if chart_codes is None:
        return SplitValues(total(0))
    return SplitValues(total(0), total(2), total(4))


def mean_split_values(cases: Sequence[tuple[float, SplitValues | None]]) -> SplitValues | None:
    """The split values of :meth:`SplitPlan.up_card_shoes`, weighted (None if any is None)."""
    if any(v is None for _p, v in cases):
        return None

    def mean(pick: Callable[[SplitValues], tuple[float, float] | None]
             ) -> tuple[float, float] | None:
        parts = [(p, pick(v)) for p, v in cases if v is not None]
        if any(x is None for _p, x in parts):
            return None
        return (sum(p * x[0] for p, x in parts if x is not None),
                sum(p * x[1] for p, x in parts if x is not None))

    optimal = mean(lambda v: v.optimal)
    assert optimal is not None
    return SplitValues(optimal, mean(lambda v: v.chart), mean(lambda v: v.chart_no_das))


def optimal_split_ev(
    plan: SplitPlan, base: Shoe, up: Rank, progress: Callable[[int, int], None] | None = None,
    pair_cards: Sequence[Card] | None = None,
) -> engine.OptimalSplitValue:
    """The fully optimal split (raw, all hands; :func:`strategy_calc.engine.split_optimal`).

    Every decision of every split hand, resplits included, uses everything seen in
    the round and maximises the whole round. ``pair_cards``: the pair as given (its
    suits): hands 1 and 2 start from their own pair card, a resplit hand from a pair
    card of unknown suit; a split 6, 7 or 8 decides knowing the suits of its own
    cards (not those of the other hands: a strategy that uses every card's rank).
    """
    if plan.conditioning is engine.Conditioning.PEEK_SHORTCUT:
        raise RulesError("the optimal split is computed in the exact peek model (the"
                         " shortcut renormalises each shoe, so hands seen together do not"
                         " add up)")
    cards = plan.cards(pair_cards)
    return engine.split_optimal(
        base, plan.pair, up, plan.hand_params(base, cards), plan.max_hands, progress,
        plan.hand_params(base, cards[::-1]),
        plan.hand_params(base, cards, start=Card(plan.pair)))


def postsplit_ev(
    plan: SplitPlan, base: Shoe, up: Rank, pair_cards: Sequence[Card] | None = None,
) -> float:
    """Raw EV of one split where the second hand plays knowing the first hand's cards.

    ``pair_cards``: the pair as given; each hand takes its own pair card's suited 6-7-8
    chance (see :func:`optimal_split_ev`)."""
    if plan.resplits:
        raise RulesError("the post-split composition-dependent split is computed for one split"
                         " only (max_split_hands = 2)")
    cards = plan.cards(pair_cards)
    one, two = engine.split_postsplit(base, plan.pair, up, plan.hand_params(base, cards),
                                      plan.hand_params(base, cards[::-1]))
    return one + two


def resplit_moments(
    plan: SplitPlan, up: Rank, base: Shoe, codes: memoryview | None,
) -> tuple[float, float, float]:
    """Raw ``(E[X], E[X^2], E[X 1{dealer blackjack}])`` of a split round with resplits (up
    to :attr:`SplitPlan.max_hands` hands), exactly: every split hand plays ``codes`` or, if
    None, its own best play for its cards, the up card and the pair (``cdp1``); see
    :func:`strategy_calc.blackjack.split.combine.combine_moments` for the derivation.
    ``base``: both pair cards in it, up card gone; raw as :func:`split_moments` (peek: the
    outcomes with no dealer blackjack). A :class:`RulesError` (never a different game)
    where this is not exact: the peek shortcut, split 6s, 7s and 8s under the suited
    6-7-8 bonus (each resplit hand's own suit chance), a shoe some play could run out of.
    An infinite deck (``base.infinite``) draws with replacement: no card is ever gone.
    """
    pair, max_hands = plan.pair, plan.max_hands
    if plan.conditioning is engine.Conditioning.PEEK_SHORTCUT:
        raise RulesError("exact moments with resplits are computed in the exact peek model,"
                         " not the shortcut")
    first, second, suits = plan.round_params(base)
    later = plan.hand_params(base, plan.cards(), start=Card(pair))
    if (suits is not None or first.suited_678_chance or second.suited_678_chance
            or later != second):
        raise RulesError("exact moments with resplits of 6s, 7s and 8s under the suited 6-7-8"
                         " bonus are not computed (each hand's suit chance differs);"
                         " use max_split_hands=2")
    if not base.infinite and could_run_out(base, max_hands):
        raise RulesError(f"exact moments with resplits to {max_hands} hands need a shoe the"
                         f" hands and the dealer cannot run out of ({base.total} cards left)")
    rows = engine.resplit_moment_rows(base, pair, up, first, codes, 2 * max_hands - 2, second)
    if base.infinite:  # (drawn with replacement: the shoe's proportions, no card gone)
        return combine_moments(rows, base.total, base.count(pair), max_hands, replacement=True)
    return combine_moments(rows, base.total - 2, base.count(pair) - 2, max_hands)


def could_run_out(base: Shoe, hands: int) -> bool:
    """Whether ``hands`` player hands and the dealer could need more cards than ``base``
    holds (up card gone). Each hand draws only while its hard total is at most 20, the
    dealer while his is at most 16, so a hand's cards before its last add up to at most 20
    and the dealer's from the shoe (hole card and draws) before his last to at most 16
    less his up card; all those cards together are at most the most cards of ``base``
    whose values (aces 1) add up to ``20 hands + 16``, and each hand and the dealer then
    take one last card.

    >>> could_run_out(Shoe.full(1), 4), could_run_out(Shoe.from_counts([12] + [0] * 9), 2)
    (False, True)
    """
    budget, taken = 20 * hands + 16, 0
    for value, count in enumerate(base.counts, start=1):
        k = min(count, budget // value)
        taken += k
        budget -= k * value
    return taken + hands + 1 > base.total
